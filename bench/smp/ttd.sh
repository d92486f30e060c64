#!/usr/bin/env bash
# Time to depth of the lazy SMP: rounds of one 1-thread `cotuong bench` run followed by RUNS
# runs with THREADS threads, on the 52 bench positions; then the mean times, the speed-up and the
# node ratio. Machine speed drifts from minute to minute on shared machines, so the runs of the
# two thread counts alternate within each round instead of running in two blocks. The times are
# bench's "Search time", which leaves out the table clear before each position.
# See bench/smp/README.md.
#
# Settings (environment variables):
#   COTUONG   the binary                                    (default: target/release/cotuong)
#   DEPTH     bench depth                                   (default: 16)
#   THREADS   threads of the runs compared with 1 thread    (default: 2)
#   ROUNDS    rounds                                        (default: 4)
#   RUNS      THREADS-thread runs per round                 (default: 2)
#   HASH      table size in MB                              (default: 64)
#   OUT       log of every run (appended)                   (default: bench/smp/results/ttd.log)
set -euo pipefail
cd "$(dirname "$0")/../.."

COTUONG=${COTUONG:-target/release/cotuong}
DEPTH=${DEPTH:-16}
THREADS=${THREADS:-2}
ROUNDS=${ROUNDS:-4}
RUNS=${RUNS:-2}
HASH=${HASH:-64}
OUT=${OUT:-bench/smp/results/ttd.log}

if [[ ! -x $COTUONG ]]; then
    echo "error: $COTUONG is not an executable (build it with cargo build --release)" >&2
    exit 2
fi
for v in DEPTH THREADS ROUNDS RUNS HASH; do
    if [[ ! ${!v} =~ ^[1-9][0-9]*$ ]]; then
        echo "error: $v must be a positive whole number, not '${!v}'" >&2
        exit 2
    fi
done
if ((THREADS < 2)); then
    echo "error: THREADS must be 2 or more (the runs are compared with 1 thread)" >&2
    exit 2
fi
mkdir -p "$(dirname "$OUT")"

results=$(mktemp)
trap 'rm -f "$results"' EXIT

# One bench run with $1 threads: appends "threads milliseconds nodes" to the results and the
# log, and prints the run in words.
run() {
    local threads=$1 log
    log=$("$COTUONG" bench "$DEPTH" --threads "$threads" --hash "$HASH" 2>&1) || {
        echo "error: cotuong bench failed:" >&2
        echo "$log" >&2
        exit 2
    }
    local ms nodes
    ms=$(awk -F: '/^Search time/ {gsub(/ /, "", $2); print $2}' <<<"$log")
    nodes=$(awk -F: '/^Nodes searched/ {gsub(/ /, "", $2); print $2}' <<<"$log")
    if [[ -z $ms || -z $nodes ]]; then
        echo "error: no 'Search time' or 'Nodes searched' line in the output of cotuong bench" >&2
        exit 2
    fi
    echo "$threads $ms $nodes" >>"$results"
    echo "$(date -u +%FT%TZ) depth $DEPTH threads $threads ms $ms nodes $nodes" >>"$OUT"
    echo "$threads thread(s) $ms ms, $nodes nodes"
}

# `run` goes through an assignment, so that its failure stops the script (set -e).
for r in $(seq "$ROUNDS"); do
    line=$(run 1)
    echo "round $r: $line"
    for _ in $(seq "$RUNS"); do
        line=$(run "$THREADS")
        echo "round $r: $line"
    done
done

awk -v n="$THREADS" -v depth="$DEPTH" '
    $1 == 1 { t1 += $2; n1 += $3; c1++ }
    $1 == n { tn += $2; nn += $3; cn++ }
    END {
        printf "depth %d: 1 thread %.2f s (mean of %d), %d threads %.2f s (mean of %d): speed-up %.2fx, nodes %.2f times one thread'"'"'s\n",
            depth, t1 / c1 / 1000, c1, n, tn / cn / 1000, cn, (t1 / c1) / (tn / cn), (nn / cn) / (n1 / c1)
    }' "$results"
