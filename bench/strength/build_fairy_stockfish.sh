#!/bin/bash
# Builds Fairy-Stockfish master (pinned below) for the strength goals that name "master": the
# Debian package is release 11.1. Xiangqi's 9x10 board needs the large-board build.
#
#   bench/strength/build_fairy_stockfish.sh [SOURCE] [OUT]
#
# SOURCE: a checkout or export of Fairy-Stockfish (default: cloned from GitHub at COMMIT).
# OUT: where the binary goes (default bench/strength/bin/fairy-stockfish-master, not tracked).
# Play it with its handcrafted evaluation: `option.Use NNUE=false`, plus `ranks=1
# option.UCI_Variant=xiangqi` as for the Debian build.
set -euo pipefail

COMMIT=c19b5f6c66894fdb0e88d0dd100e3885f744760a
REPO=https://github.com/fairy-stockfish/Fairy-Stockfish
HERE=$(cd "$(dirname "$0")" && pwd)
SOURCE=${1:-}
OUT=${2:-$HERE/bin/fairy-stockfish-master}

if [ -z "$SOURCE" ]; then
  SOURCE=$(mktemp -d)/Fairy-Stockfish
  git clone --quiet "$REPO" "$SOURCE"
  git -C "$SOURCE" checkout --quiet "$COMMIT"
fi
[ -f "$SOURCE/src/Makefile" ] || { echo "error: no src/Makefile under $SOURCE" >&2; exit 1; }

# AVX2 without PEXT: PEXT is microcoded (slow) on AMD CPUs before Zen 3.
ARCH=${ARCH:-x86-64-avx2}
make -C "$SOURCE/src" -j"$(nproc)" build ARCH="$ARCH" largeboards=yes >&2
mkdir -p "$(dirname "$OUT")"
cp "$SOURCE/src/stockfish" "$OUT"
echo "$OUT"
