#!/usr/bin/env bash
# Two datagen runs on the same CPU budget, for judging a lever by games: each run gets one
# thread, both run at the same time (one per core), and each is asked to stop (Ctrl-C: the games
# in progress finish, the file holds whole games) once its own CPU time reaches the budget.
# Train one net on each file with the same recipe and play them against each other.
#
#   bench/datagen/equal-budget.sh BUDGET_CPU_S OUT_A SEED_A "ARGS_A" OUT_B SEED_B "ARGS_B"
#
# Environment: BIN (default target/release/cotuong). Each run writes OUT (+ .cmd sidecar) and
# OUT.log (datagen's summary); the last lines printed give each run's CPU seconds and positions.
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ $# -eq 7 ]] || { sed -n 2,10p "$0"; exit 2; }
BUDGET=$1
BIN=${BIN:-target/release/cotuong}
TICKS=$(getconf CLK_TCK)

# CPU seconds (user + system, all threads) of a running process.
cpu_seconds() {
  local fields
  read -r -a fields < <(sed 's/.*) //' "/proc/$1/stat")
  # After the command name: field 14 (utime) and 15 (stime) of stat(5) are at 11 and 12.
  echo $(((fields[11] + fields[12]) / TICKS))
}

start() {
  local out=$1 seed=$2 args=$3
  # shellcheck disable=SC2086 # ARGS are datagen options, split on purpose
  nice -n 19 "$BIN" datagen --out "$out" --games 1000000 --seed "$seed" --threads 1 --quiet \
    --append $args >"$out.log" 2>&1 &
  echo $!
}

pid_a=$(start "$2" "$3" "$4")
pid_b=$(start "$5" "$6" "$7")
declare -A spent=([$pid_a]=0 [$pid_b]=0) asked=()
while kill -0 "$pid_a" 2>/dev/null || kill -0 "$pid_b" 2>/dev/null; do
  for pid in "$pid_a" "$pid_b"; do
    if [[ -r /proc/$pid/stat ]]; then
      spent[$pid]=$(cpu_seconds "$pid" 2>/dev/null || echo "${spent[$pid]}")
      if ((spent[$pid] >= BUDGET)) && [[ -z ${asked[$pid]:-} ]]; then
        kill -INT "$pid"
        asked[$pid]=1
      fi
    fi
  done
  sleep 2
done
echo "A: ${spent[$pid_a]} CPU s at the stop request; $(grep -m1 '^datagen:\|^interrupted' "$2.log" || true)"
echo "B: ${spent[$pid_b]} CPU s at the stop request; $(grep -m1 '^datagen:\|^interrupted' "$5.log" || true)"
