#!/usr/bin/env bash
# Instructions per node of the search, counted by callgrind (repeatable on a busy machine, unlike
# a clock): `cotuong bench DEPTH` less `cotuong bench 1` (start-up: the net, the tables), divided
# by the difference in nodes.
#
#   bench/speed/instructions.sh BINARY [DEPTH=10]
set -euo pipefail
bin=${1:?binary}; depth=${2:-10}
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" bench "$1" 2>&1 \
        | awk '/I *refs:/ {gsub(",", "", $NF); ir = $NF} /signature/ {n = $5} END {print ir, n}'
}
read -r ir1 n1 < <(count 1)
read -r ir n < <(count "$depth")
echo "$bin bench $depth: signature $n, $ir instructions; start-up (bench 1) $ir1;" \
    "$(( (ir - ir1) / (n - n1) )) instructions per node"
