#!/usr/bin/env python3
"""Deterministic large property list for Scripts/bench/plist.

Writes OUTDIR/big.xml and OUTDIR/big.bin (binary, same value) with plistlib, plus
OUTDIR/gen.version holding GENERATOR_VERSION so the bench can skip regeneration.

Shape: root dict of GROUPS groups; each group is an array of DICTS dicts; each dict has
10 leaves covering every plist type: ASCII string, non-ASCII string, small / negative /
big (64-bit) integer, real, bool, date, small data, and a short nested array.
"""
import datetime
import os
import plistlib
import random
import sys

GENERATOR_VERSION = "1"
SEED = 20240611
GROUPS, DICTS = 600, 50

WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike "
         "november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee "
         "zulu bundle identifier version display name team profile entitlement").split()
UNICODE = ["Grüße", "café", "naïve", "東京", "Ελληνικά", "emoji 🚀", "Ünïcödé", "Привет"]
EPOCH = datetime.datetime(2001, 1, 1)


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


def build():
    rng = random.Random(SEED)
    return {f"group-{g:03d}": [leafdict(rng, g, d) for d in range(DICTS)] for g in range(GROUPS)}


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else "/tmp/devkit-bench"
    os.makedirs(outdir, exist_ok=True)
    value = build()
    for name, fmt in (("big.xml", plistlib.FMT_XML), ("big.bin", plistlib.FMT_BINARY)):
        tmp = os.path.join(outdir, name + ".tmp")
        with open(tmp, "wb") as f:
            plistlib.dump(value, f, fmt=fmt, sort_keys=False)
        os.replace(tmp, os.path.join(outdir, name))
    with open(os.path.join(outdir, "gen.version"), "w") as f:
        f.write(GENERATOR_VERSION + "\n")


if __name__ == "__main__":
    main()
