#!/usr/bin/env bash
# Reruns the datagen levers matrix of bench/datagen/README.md: one datagen thread per run, one
# run at a time, at nice 19, timed by CPU time (user+sys of /usr/bin/time -v).
#
#   bench/datagen/levers.sh [NAME...]     # all configurations, or only the named ones
#
# Environment: GAMES (games per run, default 100), OUT (data and logs, default bench/datagen/out),
# BIN (the binary, default target/release/cotuong), CLEAR_BIN (a binary built with the searcher
# cleared before every move, for the clear-per-move row; skipped when unset).
# Each run writes OUT/NAME.xqg (+ .cmd), OUT/NAME.log, and one line of OUT/results.tsv:
# name, games, positions, kept, CPU seconds, positions/CPU-s, kept/CPU-s.
set -euo pipefail
cd "$(dirname "$0")/../.."
GAMES=${GAMES:-100}
OUT=${OUT:-bench/datagen/out}
BIN=${BIN:-target/release/cotuong}
SUITE=bench/openings/xiangqi-openings.epd
mkdir -p "$OUT"

# name | seed | extra arguments
CONFIGS=(
  "base-s1|1|"
  "base-s2|2|"
  "nodes3000|1|--nodes 3000"
  "nodes3000-s2|2|--nodes 3000"
  "base-s2-again|2|"
  "adjud-early|1|--win-score 700 --win-plies 6 --draw-score 20 --draw-plies 8 --draw-min-ply 40 --play-out 0.05"
  "suite-rp10|1|--openings $SUITE"
  "suite-rp4|1|--openings $SUITE --random-plies 4"
  "start-rp6-l3|1|--random-plies 6 --opening-lines 3"
  "clear-per-move|1|CLEAR"
  "nodes8000|1|--nodes 8000"
)

run() {
  local name=$1 seed=$2 extra=$3 bin=$BIN
  if [[ $extra == CLEAR ]]; then
    [[ -n ${CLEAR_BIN:-} ]] || { echo "skip $name (CLEAR_BIN unset)"; return; }
    bin=$CLEAR_BIN extra=""
  fi
  rm -f "$OUT/$name.xqg" "$OUT/$name.xqg.cmd"
  # shellcheck disable=SC2086
  /usr/bin/time -v nice -n 19 "$bin" datagen --out "$OUT/$name.xqg" --games "$GAMES" \
    --seed "$seed" --threads 1 --quiet $extra >"$OUT/$name.log" 2>&1
  local cpu positions kept
  cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$OUT/$name.log")
  positions=$(sed -n 's/^datagen: [0-9]* games, \([0-9]*\) positions.*/\1/p' "$OUT/$name.log")
  kept=$(sed -n 's/^filters: kept \([0-9]*\) .*/\1/p' "$OUT/$name.log")
  printf '%s\t%s\t%s\t%s\t%.1f\t%.1f\t%.1f\n' "$name" "$GAMES" "$positions" "$kept" "$cpu" \
    "$(echo "$positions / $cpu" | bc -l)" "$(echo "$kept / $cpu" | bc -l)" | tee -a "$OUT/results.tsv"
}

for entry in "${CONFIGS[@]}"; do
  IFS='|' read -r name seed extra <<<"$entry"
  if [[ $# -gt 0 ]] && [[ ! " $* " == *" $name "* ]]; then continue; fi
  run "$name" "$seed" "$extra"
done
