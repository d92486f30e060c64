#!/usr/bin/env bash
# The strength ladder: cotuong at each Skill Level against fixed anchor engines, with
# `cotuong match`; then bench/strength/report.py prints the ladder (score against each anchor with
# 95% error bars), checks that it is monotone, and prints the UCI_Elo table for src/strength.rs.
# See bench/strength/README.md. Every match is resumable: run the same command again. Exit
# status: report.py's (1 when the monotonicity check fails).
#
# Settings (environment variables):
#   LEVELS       Skill Levels to measure            (default: 0 4 8 12 16 20)
#   ANCHORS      anchors, from the list below       (default: all)
#   GAMES        games per level and anchor (even)  (default: 100)
#   TC           time control of every engine       (default: 10+0.1)
#   NODES        nodes per move instead of TC (smoke runs); SjaakII and MaxQi, which do not
#                honour node limits, then get FIXED_ST
#   FIXED_ST     their whole seconds per move when NODES is set (default: 2; MaxQi is asked for
#                one second less, as xboard counts whole seconds)
#   CONCURRENCY  games at once                      (default: 1)
#   OUT          results folder                     (default: bench/strength/results)
#   SEED         seed of the random opening order   (default: 2026)
#   COTUONG      the binary                          (default: target/release/cotuong)
#
# Anchors:
#   fsf            Debian's /usr/games/fairy-stockfish, full strength, 1 thread, 16 MB
#   fsf-skillN     the same with its own `Skill Level` N (0-20), e.g. fsf-skill0, fsf-skill10
#   sjaakii        /usr/games/sjaakii in xiangqi, over UCCI
#   maxqi          /usr/games/maxqi (the xiangqi Fairy-Max, xboard) through xboard_uci.py
set -euo pipefail
cd "$(dirname "$0")/../.."

COTUONG=${COTUONG:-target/release/cotuong}
LEVELS=${LEVELS:-"0 4 8 12 16 20"}
ANCHORS=${ANCHORS:-"sjaakii maxqi fsf-skill0 fsf-skill5 fsf-skill10 fsf"}
GAMES=${GAMES:-100}
TC=${TC:-10+0.1}
NODES=${NODES:-}
FIXED_ST=${FIXED_ST:-2}
CONCURRENCY=${CONCURRENCY:-1}
OUT=${OUT:-bench/strength/results}
SEED=${SEED:-2026}
# Opening lines from the initial position, since MaxQi cannot set up a FEN.
OPENINGS=bench/openings/xiangqi-openings-lines.txt

if [ ! -x "$COTUONG" ]; then
  echo "error: $COTUONG not found: cargo build --release" >&2
  exit 2
fi
if [ $((GAMES % 2)) -ne 0 ] || [ "$GAMES" -lt 2 ]; then
  echo "error: GAMES must be even and at least 2 (each opening is played with both colours)" >&2
  exit 2
fi
mkdir -p "$OUT"

# Sets ANCHOR_ARGS to the --engine settings of anchor $1.
anchor_args() {
  local fsf=(cmd=/usr/games/fairy-stockfish ranks=1 option.UCI_Variant=xiangqi option.Threads=1
    option.Hash=16)
  case "$1" in
    fsf) ANCHOR_ARGS=("${fsf[@]}" name=fsf) ;;
    fsf-skill*)
      local skill=${1#fsf-skill}
      ANCHOR_ARGS=("${fsf[@]}" "option.Skill Level=$skill" "name=$1") ;;
    sjaakii)
      ANCHOR_ARGS=("cmd=/usr/games/sjaakii -ucci -variant xiangqi" proto=ucci ranks=1 letters=he
        name=sjaakii)
      # SjaakII ignores `go nodes`: a fixed time per move instead.
      if [ -n "$NODES" ]; then ANCHOR_ARGS+=("st=$FIXED_ST"); fi ;;
    maxqi)
      ANCHOR_ARGS=("cmd=python3 bench/strength/xboard_uci.py /usr/games/maxqi" ranks=0 name=maxqi)
      # xboard has no node limit (and whole seconds only): a fixed time per move instead.
      if [ -n "$NODES" ]; then ANCHOR_ARGS+=("st=$FIXED_ST"); fi ;;
    *) echo "error: unknown anchor '$1'" >&2; exit 2 ;;
  esac
}

# With fixed times per move, the overshoot of the anchors on fixed time is forgiven generously:
# the smoke runs check the scripts, not the anchors' clock handling.
if [ -n "$NODES" ]; then LIMIT=(--nodes "$NODES" --timemargin 1000); else LIMIT=(--tc "$TC"); fi

for level in $LEVELS; do
  for anchor in $ANCHORS; do
    anchor_args "$anchor"
    run="$OUT/L$level-$anchor"
    echo "== Skill Level $level vs $anchor ($GAMES games) -> $run.txt" >&2
    "$COTUONG" match \
      --engine "cmd=$COTUONG" "name=L$level" "option.Skill Level=$level" option.Threads=1 \
        option.Hash=16 \
      --engine "${ANCHOR_ARGS[@]}" \
      "${LIMIT[@]}" --rounds $((GAMES / 2)) --games 2 \
      --openings "$OPENINGS" --random-openings --seed "$SEED" \
      --concurrency "$CONCURRENCY" \
      --pgnout "$run.pgn" --recover "$run.json" >"$run.txt" 2>"$run.log"
    tail -n 5 "$run.txt" >&2
  done
done

python3 bench/strength/report.py "$OUT"
