#!/usr/bin/env python3
"""The benchmark's anchor: crash-log symbolication scripted the way Apple's
CrashSymbolicator.py and many CI scripts do it. dSYMs under the search paths are found
by UUID once (llvm-dwarfdump --uuid), then each log is parsed and all of its addresses go
to ONE llvm-symbolizer process per log (JSON output, inlined frames); frame lines are
rewritten in devkit's `--format same` layout so the outputs can be compared byte for byte.

Usage: crash_symbolicator.py SEARCH_DIR OUT_DIR LOG...
"""
import json
import os
import re
import subprocess
import sys

LLVM = os.environ.get("LLVM_SYMBOLIZER", "/opt/swift/usr/bin/llvm-symbolizer")
DWARFDUMP = os.environ.get("LLVM_DWARFDUMP", "llvm-dwarfdump-19")
FRAME = re.compile(r"^(\d+\s+(.+?)\s+(0x[0-9a-fA-F]+))\s+0x([0-9a-fA-F]+) \+ (\d+)\s*$")
IMAGE = re.compile(r"^\s*0x([0-9a-f]+)\s+-\s+0x[0-9a-f]+\s+\+?(\S+)\s+\S+\s+<([0-9a-fA-F-]+)>")


def find_dsyms(root):
    found = {}
    for directory, _, files in os.walk(root):
        if ".dSYM/Contents/Resources/DWARF" not in directory:
            continue
        for name in files:
            path = os.path.join(directory, name)
            out = subprocess.run([DWARFDUMP, "--uuid", path], capture_output=True, text=True).stdout
            for match in re.finditer(r"UUID: ([0-9A-F-]+)", out):
                found[match.group(1).replace("-", "").lower()] = path
    return found


def symbolicate(path, dsyms, out_dir):
    with open(path) as f:
        lines = f.read().split("\n")
    images = {}
    for line in lines:
        m = IMAGE.match(line)
        if m:
            images[m.group(2)] = (int(m.group(1), 16), m.group(3).replace("-", "").lower())
    requests = []  # (line index, image name, runtime address, lookup address)
    in_thread = False
    frame_index = 0
    for i, line in enumerate(lines):
        if re.match(r"^Thread \d+( Crashed)?:", line):
            in_thread, frame_index = True, 0
            continue
        if not line.strip():
            in_thread = False
            continue
        m = FRAME.match(line) if in_thread else None
        if m and m.group(2) in images and images[m.group(2)][1] in dsyms:
            address = int(m.group(3), 16)
            lookup = address - 1 if frame_index > 0 else address
            requests.append((i, m.group(1), m.group(2), address, lookup))
        if in_thread:
            frame_index += 1
    by_image = {}
    for request in requests:
        by_image.setdefault(request[2], []).append(request)
    for name, group in by_image.items():
        load, uuid = images[name]
        dsym = dsyms[uuid]
        text = 0x100000000
        query = "\n".join(f"0x{r[4] - load + text:x}" for r in group)
        out = subprocess.run([LLVM, "--output-style=JSON", "--inlines", f"--obj={dsym}"], input=query,
                             capture_output=True, text=True).stdout
        for r, answer in zip(group, map(json.loads, out.splitlines())):
            symbols = answer["Symbol"]
            rewritten = []
            for depth, s in enumerate(symbols):
                outermost = depth == len(symbols) - 1
                text_line = f"{r[1]} {s['FunctionName']}"
                if outermost:
                    text_line += f" + {r[3] - load + text - int(s['StartAddress'], 16)}"
                if s["Line"]:
                    text_line += f" ({os.path.basename(s['FileName'])}:{s['Line']})"
                if not outermost:
                    text_line += " [inlined]"
                rewritten.append(text_line)
            lines[r[0]] = "\n".join(rewritten)
    with open(os.path.join(out_dir, os.path.basename(path)), "w") as f:
        f.write("\n".join(lines))


def main():
    search, out_dir, logs = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out_dir, exist_ok=True)
    dsyms = find_dsyms(search)
    for log in logs:
        symbolicate(log, dsyms, out_dir)


if __name__ == "__main__":
    main()
