#!/usr/bin/env python3
"""Checks of cluster.py on local Ray clusters of 2 worker nodes (plain script; run_tests.sh runs
it in a network namespace that has only loopback):

- 4 datagen shards give one run's bytes;
- the same with a cotuong killed (SIGKILL) mid-shard: the shard is retried, same bytes;
- a fixed-node match over 2 slices merges to the pentanomial counts and W-D-L of one run;
- an SPRT match (full strength against Skill Level 0) stops at its decision and cancels the
  slices not finished;
- bad input gives one error line, no traceback and nothing written;
- where the machine's own address cannot be reached, a local cluster still runs on --node-ip,
  and one whose --node-ip cannot be reached fails within seconds with one error line.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
BINARY = os.path.realpath(os.path.join(ROOT, "target", "release", "cotuong"))
OPENINGS = os.path.realpath(os.path.join(ROOT, "bench", "openings", "xiangqi-openings.epd"))
NET = os.path.realpath(os.path.join(ROOT, "nnue", "nets", "cotuong-1.nnue"))
DATAGEN = ["--games", "8", "--seed", "7", "--nodes", "300", "--hash", "1", "--random-plies", "4",
           "--max-plies", "60"]


def driver(*words, binary=BINARY):
    started = time.time()
    run = subprocess.run([sys.executable, os.path.join(HERE, "cluster.py"), "--binary", binary, *words],
                         capture_output=True, text=True, timeout=600)
    return run, time.time() - started


def one_datagen(tmp, args, name):
    path = os.path.join(tmp, name)
    subprocess.run([BINARY, "datagen", "--out", path, "--threads", "1", "--quiet", *args], check=True,
                   capture_output=True)
    with open(path, "rb") as f:
        return f.read()


def read(path):
    with open(path, "rb") as f:
        return f.read()


def lines(text, *starts):
    return [l for l in text.splitlines() if l.startswith(starts)]


def check(name, started):
    print(f"ok: {name} ({time.time() - started:.1f} s)", flush=True)


def shards_equal_one_run(tmp):
    started = time.time()
    four = os.path.join(tmp, "four.xqg")
    # A net and an opening file, shipped to the workers.
    args = [*DATAGEN, "--eval", NET, "--openings", OPENINGS]
    run, _ = driver("--local-nodes", "2", "datagen", "--shards", "4", "--out", four, "--", *args)
    assert run.returncode == 0, run.stderr
    assert read(four) == one_datagen(tmp, args, "one.xqg"), "4 shards differ from one run"
    check("4 datagen shards == one run (net and openings shipped)", started)


def killed_shard_is_retried(tmp):
    started = time.time()
    args = DATAGEN[:]
    args[args.index("--nodes") + 1] = "3000"
    mark = os.path.join(tmp, "killed")
    wrapper = os.path.join(tmp, "cotuong-killed-once")
    # The first attempt at the shard from game 2 on is killed with SIGKILL 0.3 s after it starts;
    # `killed/done` says the kill found it still running.
    with open(wrapper, "w") as f:
        f.write(f"""#!/bin/sh
case " $* " in
  *" --first-game 2 "*)
    if mkdir {mark} 2>/dev/null; then
      {BINARY} "$@" & pid=$!
      sleep 0.3
      kill -9 $pid && touch {mark}/done
      wait $pid
      exit 137
    fi;;
esac
exec {BINARY} "$@"
""")
    os.chmod(wrapper, 0o755)
    out = os.path.join(tmp, "killed.xqg")
    run, _ = driver("--local-nodes", "2", "datagen", "--shards", "4", "--out", out, "--", *args,
                    binary=wrapper)
    assert run.returncode == 0, run.stderr
    assert os.path.exists(os.path.join(mark, "done")), "the shard finished before the kill"
    assert read(out) == one_datagen(tmp, args, "one-3000.xqg"), "a retried shard changed the file"
    check("a cotuong killed mid-shard: retried, same bytes", started)


def match_args(rounds, extra=()):
    return ["--engine", f"cmd={BINARY}", "name=a", "option.Hash=1",
            "--engine", f"cmd={BINARY}", "name=b", "option.Hash=2",
            "--each", "proto=uci", "option.UCI_Variant=xiangqi",
            "--nodes", "400", "--maxmoves", "40", "--rounds", str(rounds), "--openings", OPENINGS, *extra]


def with_net(args, net):
    at = args.index("option.Hash=1") + 1
    return args[:at] + ["option.EvalFile=" + net] + args[at:]


def slices_merge_to_one_run(tmp):
    started = time.time()
    out = os.path.join(tmp, "match")
    # Engine a plays with a net file, shipped to the workers.
    args = with_net(match_args(4), NET)
    run, _ = driver("--local-nodes", "2", "match", "--slices", "2", "--out", out, "--", *args)
    assert run.returncode == 0, run.stderr
    one = subprocess.run([BINARY, "match", *args, "--concurrency", "1"], capture_output=True,
                         text=True, check=True)
    report = read(os.path.join(out, "report.txt")).decode()
    keys = ("Results of", "W-D-L:", "Pentanomial", "Elo:", "Terminations:")
    assert lines(report, *keys) == lines(one.stdout, *keys), f"{report}\n---\n{one.stdout}"
    summary = json.loads(read(os.path.join(out, "match.json")))
    assert summary["pairs_merged"] == 4 and len(summary["slices"]) == 2, summary
    assert read(os.path.join(out, "games.pgn")).decode().count("[Event ") == 8
    check("2 match slices merge to one run's report", started)


def sprt_stops_and_cancels(tmp):
    started = time.time()
    out = os.path.join(tmp, "sprt")
    args = ["--engine", f"cmd={BINARY}", "name=strong",
            "--engine", f"cmd={BINARY}", "name=weak", "option.Skill Level=0",
            "--each", "proto=uci", "option.UCI_Variant=xiangqi", "option.Hash=1",
            "--nodes", "1000", "--maxmoves", "80", "--rounds", "60", "--openings", OPENINGS,
            "--sprt", "elo0=0", "elo1=50"]
    run, _ = driver("--local-nodes", "2", "match", "--slices", "12", "--out", out, "--", *args)
    assert run.returncode == 0, run.stderr
    report = read(os.path.join(out, "report.txt")).decode()
    assert "H1 accepted" in report and "stopped early" in report, report
    summary = json.loads(read(os.path.join(out, "match.json")))
    assert summary["stopped_by_sprt"] and summary["cancelled_slices"] > 0, summary
    assert summary["pairs_merged"] < 60, summary
    check(f"SPRT stops at H1 after {summary['pairs_merged']} of 60 pairs, "
          f"{summary['cancelled_slices']} slices cancelled", started)


def bad_inputs(tmp):
    started = time.time()
    bad = os.path.join(tmp, "bad")
    not_cotuong = os.path.join(tmp, "not-cotuong")
    with open(not_cotuong, "w") as f:
        f.write("#!/bin/sh\necho hello\n")
    os.chmod(not_cotuong, 0o755)
    missing = os.path.join(tmp, "missing")
    cases = [
        ("unknown datagen argument", ["datagen", "--shards", "2", "--out", bad, "--", "--bogus", "1"], BINARY),
        ("unknown match argument", ["match", "--slices", "2", "--out", bad, "--", *match_args(2, ["--bogus"])],
         BINARY),
        ("missing openings (datagen)", ["datagen", "--shards", "2", "--out", bad, "--", "--games", "2",
                                        "--openings", missing + ".epd"], BINARY),
        ("missing net (datagen)", ["datagen", "--shards", "2", "--out", bad, "--", "--games", "2",
                                   "--eval", missing + ".nnue"], BINARY),
        ("missing net (match)", ["match", "--slices", "2", "--out", bad, "--",
                                 *with_net(match_args(2), missing + ".nnue")], BINARY),
        ("missing openings (match)", ["match", "--slices", "2", "--out", bad, "--",
                                      *match_args(2)[:-2], "--openings", missing + ".epd"], BINARY),
        ("not cotuong", ["datagen", "--shards", "2", "--out", bad, "--", "--games", "2"], not_cotuong),
        ("not cotuong (match)", ["match", "--slices", "2", "--out", bad, "--", *match_args(2)], not_cotuong),
    ]
    for name, words, binary in cases:
        run, _ = driver("--local-nodes", "1", *words, binary=binary)
        assert run.returncode == 2 and run.stderr.startswith("error: "), (name, run.stderr)
        assert run.stderr.count("\n") <= 2 and "Traceback" not in run.stderr, (name, run.stderr)
        assert not os.path.exists(bad), name
    for words in (["datagen", "--shards", "2", "--out", bad, "--", "--games", "2"],
                  ["match", "--slices", "2", "--out", bad, "--", *match_args(2)]):
        run, seconds = driver("--address", "127.0.0.1:1", *words)
        assert run.returncode == 2 and "nobody answers on 127.0.0.1:1" in run.stderr, run.stderr
        assert "Traceback" not in run.stderr and not os.path.exists(bad) and seconds < 30, run.stderr
    check("bad inputs: one error line each, nothing written", started)


# A namespace whose own address (the one Ray finds by routing towards 8.8.8.8) cannot be
# reached: it sits on lo with its local route deleted, so a connection to it times out, as
# behind a firewall. Anything of the cluster that strays from --node-ip hangs here.
UNREACHABLE_OWN_ADDRESS = """set -e
ip link set lo up
ip addr add 192.0.2.77/32 dev lo
ip route add default dev lo src 192.0.2.77
ip route del local 192.0.2.77 table local
exec "$@"
"""


def behind_a_firewall(*words, timeout=300):
    started = time.time()
    # A session of its own, so that a hang is killed with every Ray process it started.
    proc = subprocess.Popen(["unshare", "--net", "bash", "-c", UNREACHABLE_OWN_ADDRESS, "bash", sys.executable,
                             os.path.join(HERE, "cluster.py"), "--binary", BINARY, *words],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.communicate()
        raise AssertionError(f"cluster.py {' '.join(words)} still running after {timeout} s")
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), time.time() - started


def stays_on_node_ip(tmp):
    started = time.time()
    out = os.path.join(tmp, "firewalled.xqg")
    run, _ = behind_a_firewall("--local-nodes", "2", "datagen", "--shards", "2", "--out", out, "--",
                               *DATAGEN)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "192.0.2.77" not in run.stderr, run.stderr[-3000:]
    assert read(out) == one_datagen(tmp, DATAGEN, "firewalled-one.xqg")
    # Nodes on an address nobody answers on (the unreachable one, one not on this machine):
    # one error line within seconds, nothing written.
    bad = os.path.join(tmp, "unreachable.xqg")
    for ip in ("192.0.2.77", "192.0.2.99"):
        run, seconds = behind_a_firewall("--local-nodes", "1", "--node-ip", ip, "datagen", "--shards", "2",
                                         "--out", bad, "--", *DATAGEN, timeout=120)
        assert run.returncode == 2 and run.stderr.startswith(f"error: --node-ip {ip} "), run.stderr[-3000:]
        assert run.stderr.count("\n") <= 2 and "Traceback" not in run.stderr, run.stderr[-3000:]
        assert not os.path.exists(bad) and seconds < 20, (seconds, run.stderr[-3000:])
    check("behind a firewall: the cluster and its driver stay on --node-ip", started)


TESTS = (bad_inputs, stays_on_node_ip, shards_equal_one_run, killed_shard_is_retried, slices_merge_to_one_run,
         sprt_stops_and_cancels)


def main():
    only = sys.argv[1:]
    # A misspelt name would otherwise run nothing and still print "ok".
    unknown = [name for name in only if name not in {test.__name__ for test in TESTS}]
    if unknown:
        print(f"error: no cluster test named {', '.join(unknown)}; the tests are "
              f"{', '.join(test.__name__ for test in TESTS)}", file=sys.stderr)
        sys.exit(2)
    with tempfile.TemporaryDirectory() as tmp:
        for test in TESTS:
            if not only or test.__name__ in only:
                test(tmp)
    print("cluster tests: ok")


if __name__ == "__main__":
    main()
