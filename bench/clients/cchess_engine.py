#!/usr/bin/env python3
"""Drive cotuong through the PyPI `cchess` package's engine manager (UCI and UCCI).

Run (no build needed beyond the engine binary):

    python3 -m venv /tmp/cchess-venv && /tmp/cchess-venv/bin/pip install cchess
    /tmp/cchess-venv/bin/python bench/clients/cchess_engine.py target/release/cotuong

For each protocol it starts the engine with `EngineManager.load_uci` / `load_ucci`, asks for
a best move from the start position and from a FEN, then lets the engine play four plies
against itself, checking every move on cchess's own board. Exits non-zero if anything fails;
wrap it in `timeout 120`, since cchess itself waits forever for a move its board accepts.
"""
import sys
from pathlib import Path

from cchess import ChessBoard
from cchess.common import FULL_INIT_FEN
from cchess.engine import EngineManager

# Black to move after 1. h2e2 b9c7 2. b0c2, in the form cchess writes FENs (board and side only).
FEN = "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C4/9/R1BAKABNR b"
GO = {"depth": 8}


def run(exe, proto):
    manager = EngineManager()
    load = manager.load_uci if proto == "uci" else manager.load_ucci
    if not load(exe, {"Hash": 16} if proto == "uci" else {"hashsize": 16}, GO):
        sys.exit(f"{proto}: engine did not start or did not answer {proto}ok")
    engine = manager.engine
    print(f"[{proto}] engine: {engine.ids.get('name')}, {len(engine.options)} options")

    for label, fen in (("start position", FULL_INIT_FEN), ("FEN", FEN)):
        action = manager.run_engine(fen)
        board = ChessBoard(fen)
        move = board.move_iccs(action["move"])
        if move is None:
            sys.exit(f"{proto}: illegal best move {action['move']} from {fen}")
        print(f"[{proto}] {label}: bestmove {action['move']} ({move.to_text()})")

    board = ChessBoard(FULL_INIT_FEN)
    played = []
    for _ in range(4):
        fen = board.to_fen()
        action = manager.run_engine(fen)
        move = board.move_iccs(action["move"])
        if move is None:
            sys.exit(f"{proto}: illegal move {action['move']} in {fen}")
        played.append(f"{action['move']} {move.to_text()}")
        board.next_turn()
    print(f"[{proto}] self-play: {', '.join(played)}")
    print(f"[{proto}] final FEN: {board.to_fen()}")
    manager.quit()


def main():
    exe = sys.argv[1] if len(sys.argv) > 1 else "target/release/cotuong"
    exe = str(Path(exe).resolve())
    for proto in ("uci", "ucci"):
        run(exe, proto)


if __name__ == "__main__":
    main()
