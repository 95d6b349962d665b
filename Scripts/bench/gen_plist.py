#!/usr/bin/env python3
"""Deterministic large property lists for Scripts/bench/plist.

Usage: gen_plist.py OUTDIR [SHAPE]

Writes OUTDIR/SHAPE.xml and OUTDIR/SHAPE.bin (binary, same value) with plistlib (the
"mixed" shape as OUTDIR/big.xml and big.bin, as before), plus OUTDIR/SHAPE.version holding
GENERATOR_VERSION so the bench can skip regeneration. Each shape is 3 to 40 MB of XML and
stresses another part of a reader or writer:

  mixed    root dict of GROUPS groups; each an array of DICTS dicts of 10 leaves covering
           every plist type (ASCII and non-ASCII strings, small, negative and 64-bit
           integers, real, bool, date, small data, a short nested array)
  strings  long strings (0.5 to 8 KiB of text with escapes: & < > and non-ASCII)
  data     data blobs (64 B to 64 KiB: base64 decoding and encoding)
  deep     nesting 200 levels deep, many times (dict, array alternating)
  dicts    many small dictionaries whose keys repeat (key uniquing, dict building)
  numbers  dates, reals and integers only (number and date parsing and formatting)
"""
import datetime
import os
import plistlib
import random
import sys

GENERATOR_VERSION = "2"
SEED = 20240611
GROUPS, DICTS = 600, 50

WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike "
         "november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee "
         "zulu bundle identifier version display name team profile entitlement").split()
UNICODE = ["Grüße", "café", "naïve", "東京", "Ελληνικά", "emoji 🚀", "Ünïcödé", "Привет"]
EPOCH = datetime.datetime(2001, 1, 1)
PIECES = WORDS + UNICODE + ["a & b", "<tag>", "x > y", '"quoted"']


def leafdict(rng, g, d):
    words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 5)))
    return {
        "name": f"item-{g:03d}-{d:02d} {words}",
        "title": f"{rng.choice(UNICODE)} {rng.choice(WORDS)} {rng.randint(0, 9999)}",
        "count": rng.randint(0, 100000),
        "offset": -rng.randint(1, 2**31),
        "big": rng.choice((1, -1)) * rng.randint(2**40, 2**63 - 1),
        "ratio": rng.uniform(-1e6, 1e6),
        "enabled": rng.random() < 0.5,
        "modified": EPOCH + datetime.timedelta(seconds=rng.randint(0, 800_000_000)),
        "blob": rng.randbytes(rng.randint(4, 24)),
        "tags": [rng.choice(WORDS), rng.randint(-1000, 1000), rng.random() < 0.5],
    }


def build_mixed(rng):
    return {f"group-{g:03d}": [leafdict(rng, g, d) for d in range(DICTS)] for g in range(GROUPS)}


def text(rng, size):
    parts, length = [], 0
    while length < size:
        parts.append(rng.choice(PIECES))
        length += len(parts[-1]) + 1
    return " ".join(parts)[:size]


def build_strings(rng):
    return {f"text-{i:05d}": text(rng, rng.randint(512, 8192)) for i in range(3000)}


def build_data(rng):
    return [rng.randbytes(rng.choice((64, 512, 4096, 65536))) for _ in range(1200)]


def build_deep(rng):
    def nest(depth):
        if depth == 0:
            return rng.randint(0, 1000)
        inner = nest(depth - 1)
        return {"level": depth, "next": inner} if depth % 2 else [depth, inner]
    return [nest(200) for _ in range(400)]


def build_dicts(rng):
    keys = ["CFBundleIdentifier", "CFBundleName", "enabled", "count", "kind", "tags"]
    return [{k: (rng.randint(0, 99) if k == "count" else rng.random() < 0.5 if k == "enabled"
                 else rng.choice(WORDS)) for k in rng.sample(keys, rng.randint(2, 6))}
            for _ in range(150_000)]


def build_numbers(rng):
    return [[EPOCH + datetime.timedelta(seconds=rng.randint(0, 800_000_000), microseconds=rng.randint(0, 999_999)),
             rng.uniform(-1e9, 1e9), rng.randint(-2**63, 2**63 - 1)] for _ in range(100_000)]


SHAPES = {"mixed": build_mixed, "strings": build_strings, "data": build_data, "deep": build_deep,
          "dicts": build_dicts, "numbers": build_numbers}


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else "/tmp/devkit-bench"
    shape = sys.argv[2] if len(sys.argv) > 2 else "mixed"
    if shape not in SHAPES:
        sys.exit(f"unknown shape {shape!r}: {', '.join(SHAPES)}")
    os.makedirs(outdir, exist_ok=True)
    value = SHAPES[shape](random.Random(SEED))
    base = "big" if shape == "mixed" else shape
    for name, fmt in ((base + ".xml", plistlib.FMT_XML), (base + ".bin", plistlib.FMT_BINARY)):
        tmp = os.path.join(outdir, name + ".tmp")
        with open(tmp, "wb") as f:
            plistlib.dump(value, f, fmt=fmt, sort_keys=False)
        os.replace(tmp, os.path.join(outdir, name))
    with open(os.path.join(outdir, base + ".version"), "w") as f:
        f.write(GENERATOR_VERSION + "\n")


if __name__ == "__main__":
    main()
