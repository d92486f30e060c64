#!/usr/bin/env python3
"""Runs `cotuong datagen` shards on a Ray cluster and joins them in order.

    python3 bench/cluster/cluster.py [--address HOST:PORT | --local-nodes N] \
        datagen --shards K --out FILE -- ARGS

ARGS are `cotuong datagen` arguments without --out, --first-game and --threads. The binary is
shipped to the workers through the object store; each shard is a Ray task with retries that
writes through a temporary file and returns the bytes, and the driver writes the shards in
order, so the file never holds a half or doubled shard. Match slices (`match --out DIR`) are
not done yet: see README.md.
"""

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time

BINARY_DEFAULT = os.path.join(os.path.dirname(__file__), "..", "..", "target", "release", "cotuong")


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def option(args, name, default=None):
    for i, a in enumerate(args):
        if a == name and i + 1 < len(args):
            return args[i + 1]
        if a.startswith(name + "="):
            return a.split("=", 1)[1]
    return default


def check_binary(binary, args, out):
    if not os.path.isfile(binary) or not os.access(binary, os.X_OK):
        fail(f"{binary} is not an executable file")
    try:
        version = subprocess.run([binary, "datagen", "--help"], capture_output=True, text=True, timeout=30)
    except OSError as e:
        fail(f"cannot run {binary}: {e}")
    except subprocess.TimeoutExpired:
        fail(f"{binary} does not answer `datagen --help`: it is not cotuong")
    if version.returncode != 0 or "--first-game" not in version.stdout:
        fail(f"{binary} is not a cotuong with `datagen --first-game`")
    for forbidden in ("--out", "--first-game", "--threads", "--append"):
        if option(args, forbidden) is not None or forbidden in args:
            fail(f"give {forbidden} to cluster.py, not in ARGS (the driver sets it per shard)")
    with tempfile.TemporaryDirectory() as tmp:
        check = subprocess.run(
            [binary, "datagen", "--out", os.path.join(tmp, "check.xqg"), "--check", *args],
            capture_output=True, text=True)
    if check.returncode != 0:
        fail("cotuong datagen refuses the arguments:\n" + (check.stderr.strip() or check.stdout.strip()))
    if os.path.exists(out) and os.path.getsize(out) > 0:
        fail(f"{out} already holds data")


def strip(args, name):
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a == name:
            skip = True
        elif not a.startswith(name + "="):
            out.append(a)
    return out


def check_address(address):
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host or "127.0.0.1", int(port)), timeout=3):
            pass
    except (OSError, ValueError) as e:
        fail(f"nobody answers on {address}: {e}")


def shards_of(games, k):
    base, extra = divmod(games, k)
    first = 0
    for i in range(k):
        n = base + (1 if i < extra else 0)
        if n:
            yield first, n
        first += n


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--address", help="join a running Ray cluster at HOST:PORT")
    where.add_argument("--local-nodes", type=int, help="start a local cluster of N worker nodes")
    parser.add_argument("--binary", default=BINARY_DEFAULT, help="the cotuong binary to ship")
    sub = parser.add_subparsers(dest="command", required=True)
    dg = sub.add_parser("datagen")
    dg.add_argument("--shards", type=int, required=True)
    dg.add_argument("--out", required=True)
    dg.add_argument("--retries", type=int, default=3)
    dg.add_argument("args", nargs=argparse.REMAINDER)
    opts = parser.parse_args()
    args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args
    if opts.shards < 1:
        fail("--shards must be at least 1")
    try:
        games = int(option(args, "--games", "1000"))
    except ValueError:
        fail("--games is not a whole number")
    args = strip(args, "--games")
    check_binary(opts.binary, args, opts.out)
    if opts.address:
        check_address(opts.address)

    try:
        import ray
        from tqdm import tqdm
    except ImportError as e:
        fail(f"{e}: pip install -r bench/cluster/requirements.txt")

    cluster = None
    if opts.address:
        ray.init(address=opts.address, log_to_driver=False)
    else:
        from ray.cluster_utils import Cluster
        # The head takes no task, each worker node one shard at a time.
        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
        for _ in range(opts.local_nodes or 1):
            cluster.add_node(num_cpus=1)
        ray.init(address=cluster.address, log_to_driver=False)

    with open(opts.binary, "rb") as f:
        binary_ref = ray.put(f.read())

    @ray.remote(num_cpus=1, max_retries=opts.retries, retry_exceptions=True)
    def shard(binary_bytes, first, n):
        with tempfile.TemporaryDirectory() as tmp:
            exe = os.path.join(tmp, "cotuong")
            with open(exe, "wb") as f:
                f.write(binary_bytes)
            os.chmod(exe, 0o755)
            out = os.path.join(tmp, "shard.xqg")
            run = subprocess.run(
                [exe, "datagen", "--out", out, "--first-game", str(first), "--games", str(n),
                 "--threads", "1", "--quiet", *args], capture_output=True, text=True)
            if run.returncode != 0:
                raise RuntimeError(f"shard {first}: cotuong exited {run.returncode}: {run.stderr[-2000:]}")
            with open(out, "rb") as f:
                return first, n, f.read()

    plan = list(shards_of(games, opts.shards))
    pending = [shard.remote(binary_ref, first, n) for first, n in plan]
    results = {}
    started = time.time()
    bar = tqdm(total=len(plan), unit="shard", file=sys.stderr)
    done_games = 0
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        try:
            first, n, data = ray.get(ready[0])
        except ray.exceptions.RayError as e:
            bar.close()
            fail(f"a shard failed after {opts.retries} retries: {str(e).splitlines()[-1]}")
        results[first] = data
        done_games += n
        bar.update(1)
        bar.set_postfix_str(f"{done_games / max(time.time() - started, 1e-3):.2f} games/s")
    bar.close()
    tmp = opts.out + ".tmp"
    with open(tmp, "wb") as f:
        for first, _ in plan:
            f.write(results[first])
    os.replace(tmp, opts.out)
    print(f"{opts.out}: {games} games in {len(plan)} shards, {time.time() - started:.1f} s", file=sys.stderr)
    ray.shutdown()
    if cluster:
        cluster.shutdown()


if __name__ == "__main__":
    main()
