#!/usr/bin/env bash
# Search speed of two builds, measured in one sitting: `cotuong bench DEPTH` of each binary in
# turn, PAIRS times (B A A B order, so drift on a noisy machine falls on both), then each one's
# mean nodes/s and the ratio NEW / OLD. Run it on an idle machine: nothing else timed or heavy.
#
#   bench/speed/alternate.sh OLD_BINARY NEW_BINARY [DEPTH=12] [PAIRS=6]
set -euo pipefail
old=${1:?old binary}; new=${2:?new binary}; depth=${3:-12}; pairs=${4:-6}
nps() { "$1" bench "$depth" 2>&1 | awk '/Nodes\/second/ {print $3}'; }
sig() { "$1" bench "$depth" 2>&1 | awk '/signature/ {print $5}'; }
echo "signatures at depth $depth: old $(sig "$old"), new $(sig "$new")"
declare -a a b
for ((i = 0; i < pairs; i++)); do
    if ((i % 2 == 0)); then b+=("$(nps "$new")"); a+=("$(nps "$old")"); else a+=("$(nps "$old")"); b+=("$(nps "$new")"); fi
    echo "pair $((i + 1)): old ${a[-1]} nodes/s, new ${b[-1]} nodes/s"
done
printf '%s\n' "${a[@]}" > /tmp/alternate_old.$$; printf '%s\n' "${b[@]}" > /tmp/alternate_new.$$
python3 - /tmp/alternate_old.$$ /tmp/alternate_new.$$ <<'PY'
import statistics, sys
old = [float(x) for x in open(sys.argv[1])]; new = [float(x) for x in open(sys.argv[2])]
ratios = [n / o for n, o in zip(new, old)]
print(f"mean nodes/s: old {statistics.mean(old):,.0f}, new {statistics.mean(new):,.0f}; "
      f"ratio of means {statistics.mean(new) / statistics.mean(old):.3f}, "
      f"pairwise ratios {min(ratios):.3f}-{max(ratios):.3f} (median {statistics.median(ratios):.3f})")
PY
rm -f /tmp/alternate_old.$$ /tmp/alternate_new.$$
