#!/usr/bin/env bash
# The tests of `cotuong gui`, which start its server: the HTTP and WebSocket tests of
# tests/tools/gui.rs (ignored by the plain test command for that reason) and the browser tests of
# e2e.py (Debian's Chromium driven by Playwright from a venv under target/, made on first use from
# requirements.txt). Both run on loopback alone (tests/on_loopback.sh), so the server and the
# browser reach nothing else.
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
exec tests/on_loopback.sh "gui tests" bash -c '
set -e
cargo test --offline --profile test-release --test tools -- --ignored gui::
exec "$0" tests/gui/e2e.py target/release/cotuong "$@"' "$venv/bin/python" "$@"
