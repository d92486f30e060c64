#!/usr/bin/env bash
# The tests of `cotuong gui`, which start its server: the HTTP and WebSocket tests of
# tests/tools/gui.rs (ignored by the plain test command for that reason) and the browser tests of
# e2e.py (Debian's Chromium driven by Playwright from a venv under target/, made on first use from
# requirements.txt). Both run in a network namespace of their own that has only loopback, so the
# server and the browser reach nothing else. Fails (status 1) when such a namespace cannot be
# made: the tests never run on the machine's own network.
# Usage: tests/gui/run_tests.sh [--screenshots]; needs target/release/cotuong and /usr/bin/chromium.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=${GUI_VENV:-target/venv-gui}
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q -r tests/gui/requirements.txt
fi
if [ ! -x target/release/cotuong ]; then
    echo "error: build target/release/cotuong first (cargo build --release)" >&2
    exit 1
fi
# Built out here, where the registry can be reached; run in the namespace with --offline.
cargo test --profile test-release --test tools --no-run
as_root=()
if [ "$(id -u)" -ne 0 ]; then as_root=(sudo -n --preserve-env=PATH,HOME,CARGO_HOME,RUSTUP_HOME); fi
if ! command -v ip >/dev/null; then
    echo "error: ip (iproute2) is needed to bring up loopback in the test namespace: the" \
        "gui tests were NOT run" >&2
    exit 1
fi
if ! "${as_root[@]}" unshare --net true 2>/dev/null; then
    echo "error: cannot create a network namespace (unshare --net): the gui tests need one" \
        "to keep the server and the browser on loopback, and were NOT run" >&2
    exit 1
fi
exec "${as_root[@]}" unshare --net bash -c '
set -e
ip link set lo up
# Only loopback here: any other address would mean the isolation failed.
if ip -o -4 addr show | grep -v " lo " | grep -q inet; then
    echo "error: the namespace has an address besides loopback" >&2; exit 1
fi
cargo test --offline --profile test-release --test tools -- --ignored gui::
exec "$0" tests/gui/e2e.py target/release/cotuong "$@"' "$venv/bin/python" "$@"
