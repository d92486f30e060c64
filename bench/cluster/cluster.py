#!/usr/bin/env python3
"""Runs `cotuong datagen` shards and `cotuong match` slices on a Ray cluster.

    python3 bench/cluster/cluster.py [--address HOST:PORT | --local-nodes N] [--binary PATH] \\
        datagen --shards K --out FILE -- ARGS
    python3 bench/cluster/cluster.py [--address HOST:PORT | --local-nodes N] [--binary PATH] \\
        match --slices K --out DIR -- ARGS

datagen: ARGS are `cotuong datagen` arguments without --out, --first-game, --threads, --append.
`--games` is split into K consecutive shards; FILE is byte for byte one run's file.

match: ARGS are `cotuong match` arguments of a two-engine round robin (`--rounds R` pairs)
without --pairs, --slice-json, --pgnout, --recover, --concurrency. The R pairs are split into K
slices (`--pairs FROM..TO`, one game at a time each); `cotuong match --merge` adds them up into
DIR/report.txt, DIR/match.json and DIR/games.pgn (the slices' PGN in pair order). With --sprt in
ARGS, the slices done from the first on without a gap are merged after each finished slice, and
the run stops at the SPRT decision, cancelling the slices not finished.

The binary and the files ARGS name (engine commands `cmd=FILE`, nets `option.EvalFile=FILE` or
`--eval FILE`, `--openings FILE`) go to the workers through the object store; a task runs in a
fresh directory where ARGS name them by relative paths. Each shard or slice is a Ray task with
retries (`--retries`); its output is written through a temporary file and renamed, and the
driver writes results in order, so no output holds a half or doubled shard.
"""

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

BINARY_DEFAULT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "target",
                              "release", "cotuong")


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


def refuse(args, names):
    for name in names:
        if name in args or option(args, name) is not None:
            fail(f"give no {name} in ARGS (the driver sets it per shard or slice)")


def check_binary(binary, command, must_know):
    if not os.path.isfile(binary) or not os.access(binary, os.X_OK):
        fail(f"{binary} is not an executable file")
    try:
        run = subprocess.run([binary, command, "--help"], capture_output=True, text=True, timeout=30)
    except OSError as e:
        fail(f"cannot run {binary}: {e}")
    except subprocess.TimeoutExpired:
        fail(f"{binary} does not answer `{command} --help`: it is not cotuong")
    if run.returncode != 0 or must_know not in run.stdout:
        fail(f"{binary} is not a cotuong whose `{command}` knows {must_know}")


def check_address(address):
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host or "127.0.0.1", int(port)), timeout=3):
            pass
    except (OSError, ValueError) as e:
        fail(f"nobody answers on {address}: {e}")


class Bundle:
    """The files a task needs, by the relative path ARGS name them by in its directory."""

    def __init__(self, binary):
        self.binary = os.path.realpath(binary)
        self.files = {"cotuong": self.binary}

    def ship(self, path, what):
        if not os.path.isfile(path):
            fail(f"{what} {path} does not exist")
        real = os.path.realpath(path)
        if real == self.binary:
            return "./cotuong"
        for name, known in self.files.items():
            if known == real:
                return name
        name = f"files/{len(self.files)}/{os.path.basename(path)}"
        self.files[name] = real
        return name

    def contents(self):
        out = {}
        for name, path in self.files.items():
            with open(path, "rb") as f:
                out[name] = (f.read(), os.stat(path).st_mode & 0o777)
        return out


def ship_datagen_args(args, bundle):
    out, i = [], 0
    while i < len(args):
        a = args[i]
        for flag, what in (("--openings", "openings file"), ("--eval", "net")):
            value = None
            if a == flag and i + 1 < len(args):
                value, i = args[i + 1], i + 1
            elif a.startswith(flag + "="):
                value = a.split("=", 1)[1]
            if value is not None:
                if flag == "--eval" and value in ("nnue", "hce"):
                    out += [flag, value]
                else:
                    out += [flag, bundle.ship(value, what)]
                break
        else:
            out.append(a)
        i += 1
    return out


def ship_match_args(args, bundle):
    out, i = [], 0
    while i < len(args):
        a = args[i]
        if a == "--openings" and i + 1 < len(args):
            out += [a, bundle.ship(args[i + 1], "openings file")]
            i += 2
            continue
        if a.startswith("--openings="):
            out.append("--openings=" + bundle.ship(a.split("=", 1)[1], "openings file"))
        elif a.startswith("cmd="):
            words = a[4:].split()
            program = words[0] if words else ""
            if "/" in program or os.path.isfile(program):
                words[0] = bundle.ship(program, "engine command")
                if not words[0].startswith("./") and "/" in words[0]:
                    words[0] = "./" + words[0]
            out.append("cmd=" + " ".join(words))
        elif re.match(r"option\.EvalFile=.+", a):
            out.append("option.EvalFile=" + bundle.ship(a.split("=", 1)[1], "net"))
        else:
            out.append(a)
        i += 1
    return out


def is_loopback(ip):
    return ip == "localhost" or ip.startswith("127.")


def check_node_ip(ip):
    """Fails unless this machine can listen on `ip` and reach itself there: Ray's nodes retry
    an address they cannot reach for minutes, this says so in seconds."""
    try:
        with socket.create_server((ip, 0)) as server:
            with socket.create_connection(server.getsockname()[:2], timeout=3):
                pass
    except OSError as e:
        fail(f"--node-ip {ip} cannot be used for the local cluster: {e}")


def start_ray(opts):
    if not opts.address and is_loopback(opts.node_ip):
        # ray.init rewrites 127.0.0.1 in the address it joins into the machine's own address
        # (found by routing towards 8.8.8.8), which a firewall may block; with this switch, read
        # when ray is imported, that lookup answers 127.0.0.1 and nothing leaves loopback.
        os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    try:
        import ray
    except ImportError as e:
        fail(f"{e}: pip install -r bench/cluster/requirements.txt")
    if opts.address:
        try:
            ray.init(address=opts.address, log_to_driver=False)
        except Exception as e:  # Ray raises several kinds for a head it cannot join.
            fail(f"cannot join the Ray cluster at {opts.address}: {str(e).splitlines()[0]}")
        return ray, None
    from ray.cluster_utils import Cluster
    # Every node and the driver on --node-ip; the head takes no task, each worker node one task
    # at a time.
    ip = opts.node_ip
    check_node_ip(ip)
    cluster = None
    try:
        cluster = Cluster(initialize_head=True,
                          head_node_args={"num_cpus": 0, "node_ip_address": ip, "include_dashboard": False})
        for _ in range(opts.local_nodes or 1):
            cluster.add_node(num_cpus=1, node_ip_address=ip)
        ray.init(address=cluster.address, _node_ip_address=ip, log_to_driver=False)
    except Exception as e:  # Ray raises several kinds for nodes that cannot start or meet.
        if cluster:
            cluster.shutdown()
        fail(f"cannot start a local Ray cluster on {ip}: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
    return ray, cluster


def die_with_parent():
    """In the child, before exec: Linux sends it SIGKILL when the worker that started it dies
    (a cancelled or killed task leaves no cotuong behind)."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
    except (OSError, AttributeError):
        pass


def make_task(ray, retries):
    @ray.remote(num_cpus=1, max_retries=retries, retry_exceptions=True)
    def task(bundle, argv, outputs):
        """Runs `./cotuong ARGV` in a fresh directory holding the bundle; returns the outputs."""
        with tempfile.TemporaryDirectory() as tmp:
            for name, (data, mode) in bundle.items():
                path = os.path.join(tmp, name)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as f:
                    f.write(data)
                os.chmod(path, mode)
            run = subprocess.run(["./cotuong", *argv], cwd=tmp, capture_output=True, text=True,
                                 preexec_fn=die_with_parent if sys.platform == "linux" else None)
            if run.returncode != 0:
                raise RuntimeError(f"cotuong {' '.join(argv[:1])} exited {run.returncode}: "
                                   f"{run.stderr[-2000:]}")
            result = {"stdout": run.stdout}
            for name in outputs:
                with open(os.path.join(tmp, name), "rb") as f:
                    result[name] = f.read()
            return result

    return task


def write_atomic(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def splits(total, k):
    base, extra = divmod(total, k)
    first = 0
    for i in range(k):
        n = base + (1 if i < extra else 0)
        if n:
            yield first, n
        first += n


def first_line(text):
    """The first line of a cotuong error, without its `error: ` prefix."""
    for line in text.splitlines():
        if line.strip():
            return line.strip().removeprefix("error: ")
    return "(no message)"


def short(e):
    lines = [l for l in str(e).splitlines() if l.strip()]
    return lines[-1] if lines else type(e).__name__


def datagen(opts, args):
    if opts.shards < 1:
        fail("--shards must be at least 1")
    refuse(args, ("--out", "--first-game", "--threads", "--append"))
    try:
        games = int(option(args, "--games", "1000"))
    except ValueError:
        fail("--games is not a whole number")
    args = strip(args, "--games")
    check_binary(opts.binary, "datagen", "--first-game")
    bundle = Bundle(opts.binary)
    shipped = ship_datagen_args(args, bundle)
    with tempfile.TemporaryDirectory() as tmp:
        check = subprocess.run([opts.binary, "datagen", "--out", os.path.join(tmp, "check.xqg"), "--check",
                                *args], capture_output=True, text=True)
    if check.returncode != 0:
        fail("cotuong datagen refuses the arguments: " + first_line(check.stderr or check.stdout))
    if os.path.exists(opts.out) and os.path.getsize(opts.out) > 0:
        fail(f"{opts.out} already holds data")
    if opts.address:
        check_address(opts.address)

    ray, cluster = start_ray(opts)
    from tqdm import tqdm
    task = make_task(ray, opts.retries)
    bundle_ref = ray.put(bundle.contents())
    plan = list(splits(games, opts.shards))
    refs = {task.remote(bundle_ref, ["datagen", "--out", "shard.xqg", "--first-game", str(first), "--games",
                                     str(n), "--threads", "1", "--quiet", *shipped], ["shard.xqg"]): (first, n)
            for first, n in plan}
    results, pending, started, done_games = {}, list(refs), time.time(), 0
    bar = tqdm(total=len(plan), unit="shard", file=sys.stderr)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        first, n = refs[ready[0]]
        try:
            results[first] = ray.get(ready[0])["shard.xqg"]
        except ray.exceptions.RayError as e:
            bar.close()
            fail(f"shard {first}..{first + n} failed after {opts.retries} retries: {short(e)}")
        done_games += n
        bar.update(1)
        bar.set_postfix_str(f"{done_games / max(time.time() - started, 1e-3):.2f} games/s")
    bar.close()
    write_atomic(opts.out, b"".join(results[first] for first, _ in plan))
    elapsed = time.time() - started
    print(f"{opts.out}: {games} games in {len(plan)} shards, {elapsed:.1f} s, "
          f"{games / max(elapsed, 1e-3):.2f} games/s", file=sys.stderr)
    ray.shutdown()
    if cluster:
        cluster.shutdown()


def merge(binary, paths):
    run = subprocess.run([binary, "match", "--merge", *paths], capture_output=True, text=True)
    if run.returncode != 0:
        fail("cotuong match --merge: " + first_line(run.stderr))
    return run.stdout


def sprt_decided(report):
    return any(l.startswith("SPRT") and "stopped early" in l for l in report.splitlines())


def match(opts, args):
    if opts.slices < 1:
        fail("--slices must be at least 1")
    refuse(args, ("--pairs", "--slice-json", "--pgnout", "--recover", "--concurrency", "--merge"))
    try:
        rounds = int(option(args, "--rounds", "1"))
    except ValueError:
        fail("--rounds is not a whole number")
    check_binary(opts.binary, "match", "--merge")
    bundle = Bundle(opts.binary)
    shipped = ship_match_args(args, bundle)
    check = subprocess.run([opts.binary, "match", "--check", "--pairs", "0..1", "--concurrency", "1", *args],
                           capture_output=True, text=True)
    if check.returncode != 0:
        fail("cotuong match refuses the arguments: " + first_line(check.stderr or check.stdout))
    if os.path.isdir(opts.out) and os.listdir(opts.out):
        fail(f"{opts.out} is not empty")
    if os.path.exists(opts.out) and not os.path.isdir(opts.out):
        fail(f"{opts.out} is not a directory")
    if opts.address:
        check_address(opts.address)

    ray, cluster = start_ray(opts)
    from tqdm import tqdm
    task = make_task(ray, opts.retries)
    bundle_ref = ray.put(bundle.contents())
    plan = list(splits(rounds, opts.slices))
    slices_dir = os.path.join(opts.out, "slices")
    os.makedirs(slices_dir, exist_ok=True)
    refs = {task.remote(bundle_ref, ["match", *shipped, "--pairs", f"{first}..{first + n}", "--concurrency", "1",
                                     "--slice-json", "slice.json", "--pgnout", "slice.pgn"],
                        ["slice.json", "slice.pgn"]): (first, n) for first, n in plan}
    sprt = option(args, "--sprt") is not None or "--sprt" in args
    done, pending, started, done_pairs = {}, list(refs), time.time(), 0
    prefix, report, cancelled, merged = [], None, 0, 0
    bar = tqdm(total=len(plan), unit="slice", file=sys.stderr)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        first, n = refs[ready[0]]
        try:
            result = ray.get(ready[0])
        except ray.exceptions.RayError as e:
            bar.close()
            for ref in pending:
                ray.cancel(ref)
            fail(f"slice {first}..{first + n} failed after {opts.retries} retries: {short(e)}")
        base = os.path.join(slices_dir, f"pairs-{first:06d}-{first + n:06d}")
        write_atomic(base + ".pgn", result["slice.pgn"])
        write_atomic(base + ".json", result["slice.json"])
        done[first] = base
        done_pairs += n
        bar.update(1)
        bar.set_postfix_str(f"{2 * done_pairs / max(time.time() - started, 1e-3):.2f} games/s")
        if sprt:
            # The slices from the first on without a gap are the games a sequential run had
            # played; each longer prefix is merged in turn, so the run stops at the first slice
            # boundary where the SPRT has decided, whatever order the slices finished in.
            while merged < len(plan) and plan[merged][0] in done:
                merged += 1
                prefix = [f for f, _ in plan[:merged]]
                report = merge(opts.binary, [done[f] + ".json" for f in prefix])
                if sprt_decided(report):
                    for ref in pending:
                        ray.cancel(ref)
                    cancelled = len(pending)
                    pending = []
                    break
    bar.close()
    if not sprt or not sprt_decided(report or ""):
        prefix = [f for f, _ in plan if f in done]
        report = merge(opts.binary, [done[f] + ".json" for f in prefix])
    pgn = b""
    summary = {"slices": [], "pairs_merged": 0, "pairs_scheduled": rounds, "cancelled_slices": cancelled,
               "slices_done_not_merged": len(done) - len(prefix),
               "stopped_by_sprt": sprt and sprt_decided(report), "seconds": round(time.time() - started, 1)}
    for f in prefix:
        with open(done[f] + ".pgn", "rb") as fh:
            pgn += fh.read()
        with open(done[f] + ".json") as fh:
            s = json.load(fh)
        summary["slices"].append({"file": os.path.relpath(done[f] + ".json", opts.out), "pairs": s["pairs"],
                                  "games": s["games"], "pentanomial": s["pentanomial"], "wdl": s["wdl"]})
        summary["pairs_merged"] += s["pairs"][1] - s["pairs"][0]
    for key in ("pentanomial", "wdl"):
        summary[key] = [sum(x) for x in zip(*(s[key] for s in summary["slices"]))]
    summary["report"] = report.splitlines()
    write_atomic(os.path.join(opts.out, "games.pgn"), pgn)
    write_atomic(os.path.join(opts.out, "match.json"), (json.dumps(summary, indent=2) + "\n").encode())
    write_atomic(os.path.join(opts.out, "report.txt"), report.encode())
    sys.stdout.write(report)
    print(f"{opts.out}: {summary['pairs_merged']} of {rounds} pairs in {len(prefix)} slices"
          f"{f', {cancelled} slices cancelled at the SPRT decision' if cancelled else ''}, "
          f"{summary['seconds']} s", file=sys.stderr)
    ray.shutdown()
    if cluster:
        cluster.shutdown()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--address", help="join a running Ray cluster at HOST:PORT")
    where.add_argument("--local-nodes", type=int, help="start a local cluster of N worker nodes")
    parser.add_argument("--node-ip", default="127.0.0.1",
                        help="address of the local cluster's nodes and its driver (default 127.0.0.1)")
    parser.add_argument("--binary", default=BINARY_DEFAULT, help="the cotuong binary to ship")
    sub = parser.add_subparsers(dest="command", required=True)
    dg = sub.add_parser("datagen", help="datagen shards joined into one file")
    dg.add_argument("--shards", type=int, required=True)
    dg.add_argument("--out", required=True)
    dg.add_argument("--retries", type=int, default=3)
    dg.add_argument("args", nargs=argparse.REMAINDER)
    mt = sub.add_parser("match", help="match slices merged into one report")
    mt.add_argument("--slices", type=int, required=True)
    mt.add_argument("--out", required=True)
    mt.add_argument("--retries", type=int, default=3)
    mt.add_argument("args", nargs=argparse.REMAINDER)
    opts = parser.parse_args()
    args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args
    if opts.command == "datagen":
        datagen(opts, args)
    else:
        match(opts, args)


if __name__ == "__main__":
    main()
