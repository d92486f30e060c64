#!/usr/bin/env bash
# Runs test_cluster.py: creates the Ray venv under target/ (pip install -r requirements.txt) if
# missing, then runs the tests on loopback alone (tests/on_loopback.sh), so that the local Ray
# cluster binds and talks on 127.0.0.1 alone.
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
exec tests/on_loopback.sh "cluster tests" "$venv/bin/python" bench/cluster/test_cluster.py "$@"
