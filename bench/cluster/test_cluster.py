#!/usr/bin/env python3
"""Checks of cluster.py on a local Ray cluster of 2 worker nodes (plain script, run by .ci/run):
4 datagen shards give one run's bytes; bad input gives one error line and no file."""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BINARY = os.path.join(HERE, "..", "..", "target", "release", "cotuong")
ARGS = ["--games", "8", "--seed", "7", "--nodes", "300", "--hash", "1",
        "--random-plies", "4", "--max-plies", "60"]


def driver(*words):
    return subprocess.run([sys.executable, os.path.join(HERE, "cluster.py"), "--binary", BINARY, *words],
                          capture_output=True, text=True, timeout=300)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        one = os.path.join(tmp, "one.xqg")
        subprocess.run([BINARY, "datagen", "--out", one, "--threads", "1", "--quiet", *ARGS], check=True,
                       capture_output=True)
        four = os.path.join(tmp, "four.xqg")
        run = driver("--local-nodes", "2", "datagen", "--shards", "4", "--out", four, "--", *ARGS)
        assert run.returncode == 0, run.stderr
        with open(one, "rb") as a, open(four, "rb") as b:
            assert a.read() == b.read(), "4 shards differ from one run"
        bad = os.path.join(tmp, "bad.xqg")
        for words in (["--local-nodes", "1", "datagen", "--shards", "2", "--out", bad, "--", "--bogus", "1"],
                      ["--address", "127.0.0.1:1", "datagen", "--shards", "2", "--out", bad, "--", "--games", "2"],
                      ["--local-nodes", "1", "datagen", "--shards", "2", "--out", bad, "--", "--games", "2",
                       "--openings", os.path.join(tmp, "missing.fen")]):
            run = driver(*words)
            assert run.returncode == 2 and run.stderr.startswith("error: "), run.stderr
            assert "Traceback" not in run.stderr and not os.path.exists(bad), run.stderr
    print("cluster tests: ok")


if __name__ == "__main__":
    main()
