#!/usr/bin/env bash
# Runs a command in a network namespace of its own that has only loopback, so that the servers a
# test starts (Ray, `cotuong gui`) and their clients reach nothing else. Fails (status 1) when such
# a namespace cannot be made: the tests never run on the machine's own network.
# Usage: tests/on_loopback.sh WHAT COMMAND [ARGS ...]; WHAT names the tests in error messages.
set -euo pipefail
what=$1
shift
as_root=()
if [ "$(id -u)" -ne 0 ]; then as_root=(sudo -n --preserve-env=PATH,HOME,CARGO_HOME,RUSTUP_HOME); fi
if ! command -v ip >/dev/null; then
    echo "error: ip (iproute2) is needed to bring up loopback in the test namespace: the" \
        "$what were NOT run" >&2
    exit 1
fi
if ! "${as_root[@]}" unshare --net true 2>/dev/null; then
    echo "error: cannot create a network namespace (unshare --net): the $what need one to" \
        "stay on loopback, and were NOT run" >&2
    exit 1
fi
exec "${as_root[@]}" unshare --net bash -c '
set -e
ip link set lo up
# Only loopback here: any other address would mean the isolation failed.
if ip -o -4 addr show | grep -v " lo " | grep -q inet; then
    echo "error: the namespace has an address besides loopback" >&2; exit 1
fi
exec "$@"' bash "$@"
