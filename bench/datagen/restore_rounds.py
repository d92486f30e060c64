#!/usr/bin/env python3
"""Bring back the exact data files a net was trained on, from the tree or from the history.

    bench/datagen/restore_rounds.py SOURCE OUT_DIR

SOURCE is a net file (its description lists the data) or a `cotuong train` log. Each line
`data NAME (BYTES bytes, fnv1a64 HASH, ...)`, `validation NAME (...)` or, in a log, `NAME (...)`
names a file, its size uncompressed and the FNV-1a 64 of those bytes. For each, every version of
`nnue/data/NAME` that the history holds (older rounds leave the tree for the 100 MB cap; growing
rounds change) is looked at, and the one with that size and hash is written to OUT_DIR/NAME. A
NAME ending in `-train.xqg` is the first BYTES bytes of its round's `.xqg.gz` (the round's tail is
held out as a validation file); it is written uncompressed. Exits 1 if any file is missing or
matches nothing.
"""

import gzip
import os
import re
import struct
import subprocess
import sys

LINE = re.compile(
    rb"^(?:data |validation (?:file )?)?(\S+) \((\d+) bytes, fnv1a64 ([0-9a-f]{16})", re.MULTILINE
)
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
MASK = (1 << 64) - 1
TRAIN_SUFFIX = "-train.xqg"


def fnv1a64(data):
    h = FNV_OFFSET
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & MASK
    return h


def git(*args):
    return subprocess.run(
        ["git", *args], check=True, capture_output=True
    ).stdout


def versions(path):
    """Blob ids of every version of `path` in the history, newest first, each once."""
    blobs = []
    # A commit that deleted the file has no blob; its parent holds the last version.
    for commit in git("log", "--format=%H", "--all", "--", path).decode().split():
        for rev in (commit, commit + "^"):
            r = subprocess.run(
                ["git", "rev-parse", "--verify", "--quiet", f"{rev}:{path}"],
                capture_output=True,
            )
            blob = r.stdout.decode().strip()
            if r.returncode == 0 and blob not in blobs:
                blobs.append(blob)
    return blobs


def gzip_size_mod32(blob_bytes):
    """The uncompressed size mod 2^32 from a gzip file's trailer (cheap first filter)."""
    return struct.unpack("<I", blob_bytes[-4:])[0]


def restore(name, size, want, out_dir):
    prefix = name.endswith(TRAIN_SUFFIX)
    stored = name[: -len(TRAIN_SUFFIX)] + ".xqg.gz" if prefix else name
    path = f"nnue/data/{stored}"
    for blob in versions(path):
        packed = git("cat-file", "blob", blob)
        if stored.endswith(".gz"):
            if not prefix and gzip_size_mod32(packed) != size % (1 << 32):
                continue
            raw = gzip.decompress(packed)
        else:
            raw = packed
        if len(raw) < size or (not prefix and len(raw) != size):
            continue
        if fnv1a64(raw[:size]) != want:
            continue
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(packed if name.endswith(".gz") else raw[:size])
        return blob
    return None


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    source, out_dir = sys.argv[1], os.path.abspath(sys.argv[2])
    with open(source, "rb") as f:
        files = LINE.findall(f.read())
    if not files:
        print(f"error: {source} names no data files", file=sys.stderr)
        return 1
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    os.makedirs(out_dir, exist_ok=True)
    failed = 0
    seen = set()
    for raw_name, raw_size, raw_hash in files:
        name = raw_name.decode()
        if name in seen:
            continue
        seen.add(name)
        size, want = int(raw_size), int(raw_hash, 16)
        blob = restore(name, size, want, out_dir)
        if blob is None:
            print(f"missing {name}: no version of nnue/data has {size} bytes "
                  f"with fnv1a64 {want:016x}", file=sys.stderr)
            failed += 1
        else:
            print(f"ok {name} ({size} bytes, fnv1a64 {want:016x}, blob {blob[:12]})", flush=True)
    print(f"{len(seen) - failed} of {len(seen)} files restored into {out_dir}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
