#!/usr/bin/env bash
# Runs test_cluster.py: creates the Ray venv under target/ (pip install -r requirements.txt) if
# missing, then runs the tests in a network namespace of their own that has only loopback, so
# that the local Ray cluster binds and talks on 127.0.0.1 alone. Fails (status 1) when such a
# namespace cannot be made: the tests never run on the machine's own network.
# Usage: bench/cluster/run_tests.sh [TEST_NAME ...]; needs target/release/cotuong.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=${CLUSTER_VENV:-target/venv-ray}
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q -r bench/cluster/requirements.txt
fi
if [ ! -x target/release/cotuong ]; then
    echo "error: build target/release/cotuong first (cargo build --release)" >&2
    exit 1
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then as_root=(sudo -n); fi
if ! command -v ip >/dev/null; then
    echo "error: ip (iproute2) is needed to bring up loopback in the test namespace: the" \
        "cluster tests were NOT run" >&2
    exit 1
fi
if ! "${as_root[@]}" unshare --net true 2>/dev/null; then
    echo "error: cannot create a network namespace (unshare --net): the cluster tests need one" \
        "to keep Ray on loopback, and were NOT run" >&2
    exit 1
fi
exec "${as_root[@]}" unshare --net bash -c '
set -e
ip link set lo up
# Only loopback here: any other address would mean the isolation failed.
if ip -o -4 addr show | grep -v " lo " | grep -q inet; then
    echo "error: the namespace has an address besides loopback" >&2; exit 1
fi
exec "$0" bench/cluster/test_cluster.py "$@"' "$venv/bin/python" "$@"
