#!/usr/bin/env python3
"""Depth reached at game speed: replays the games of a match PGN through several engine
configurations and reports the mean depth each reaches at a fixed time per move.

Time to depth (`ttd.sh`) starts every position from an empty table and times one fixed depth;
games are short searches that keep the table from move to move. This script searches every
position that one side of each game searched (every other ply, as in the game), with
`go movetime`, `ucinewgame` at each game's start and the table otherwise kept. The
configurations take turns on every position, in rotating order, so that a drift of the
machine's speed falls on all of them alike.

Each configuration is `NAME:THREADS:MOVETIME_MS[:ENV=VALUE...]` (the environment entries are
for test builds that read one). Printed per configuration: positions searched, the mean depth
of the decision (the depth of the last `info depth` line before `bestmove`: with several
threads, the line of the thread the vote chose) and the mean nodes per search.

    bench/smp/game_depth.py --pgn t2.pgn --games 20 t1:1:55 t1x173:1:95 t2:2:55
"""

import argparse
import os
import re
import statistics
import subprocess
import sys

MOVE = re.compile(r"[A-I]\d-[A-I]\d")
COMMENT = re.compile(r"\{[^}]*\}")
# A game without a FEN tag starts from the initial position (the match runner writes the tag
# only for other starts).
START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def read_games(path, limit):
    """(start FEN, moves in engine notation) of the first `limit` games of a match PGN."""
    games = []  # [start FEN, move text] per game
    with open(path, encoding="utf-8") as pgn:
        for line in pgn:
            if line.startswith("[Event "):
                games.append([START_FEN, ""])
            elif line.startswith("[FEN ") and games:
                games[-1][0] = line.split('"')[1]
            elif games and not line.startswith("["):
                games[-1][1] += line
    # Comments (the engines' scores and the result's reason) may wrap over lines: strip them
    # from a game's whole text.
    return [
        (fen, [m.replace("-", "").lower() for m in MOVE.findall(COMMENT.sub(" ", text))])
        for fen, text in games[:limit]
    ]


class Engine:
    """One configuration: an engine process speaking UCI."""

    def __init__(self, binary, spec, hash_mb):
        parts = spec.split(":")
        if (
            len(parts) < 3
            or not parts[1].isdigit()
            or not parts[2].isdigit()
            or not all("=" in entry for entry in parts[3:])
        ):
            sys.exit(f"error: configuration '{spec}' is not NAME:THREADS:MOVETIME_MS[:ENV=VALUE...]")
        self.name, threads, self.movetime = parts[0], int(parts[1]), int(parts[2])
        env = dict(os.environ)
        env.update(dict(entry.split("=", 1) for entry in parts[3:]))
        try:
            self.proc = subprocess.Popen(
                [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
            )
        except OSError as err:
            sys.exit(f"error: cannot start {binary}: {err.strerror} (build it: cargo build --release)")
        self.send("uci")
        self.wait_for("uciok")
        self.send(f"setoption name Threads value {threads}")
        self.send(f"setoption name Hash value {hash_mb}")
        # The time asked is the time thought: no reserve for a GUI's lag.
        self.send("setoption name Move Overhead value 0")
        self.depths, self.nodes = [], []

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        for line in self.proc.stdout:
            if line.startswith(prefix):
                return line
        sys.exit(f"error: {self.name}: the engine exited before '{prefix}'")

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok")

    def search(self, position):
        self.send(position)
        self.send(f"go movetime {self.movetime}")
        depth = nodes = None
        for line in self.proc.stdout:
            if line.startswith("info depth"):
                fields = line.split()
                # Only a line of a completed iteration counts: a `currmove` line (after 3 s)
                # has no nodes, and a bound line (after 2 s) is of an iteration still running.
                if "nodes" not in fields or "lowerbound" in fields or "upperbound" in fields:
                    continue
                depth = int(fields[2])
                nodes = int(fields[fields.index("nodes") + 1])
            elif line.startswith("info string error"):
                sys.exit(f"error: {self.name}: {line.strip()}")
            elif line.startswith("bestmove"):
                break
        if depth is not None:
            self.depths.append(depth)
            self.nodes.append(nodes)

    def quit(self):
        self.send("quit")
        self.proc.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("configs", nargs="+", help="NAME:THREADS:MOVETIME_MS[:ENV=VALUE...]")
    parser.add_argument("--pgn", required=True, help="games of `cotuong match --pgnout`")
    parser.add_argument("--games", type=int, default=20, help="games replayed (default 20)")
    parser.add_argument("--engine", default="target/release/cotuong", help="engine binary")
    parser.add_argument("--hash", type=int, default=16, help="table size in MB (default 16)")
    args = parser.parse_args()

    try:
        games = read_games(args.pgn, args.games)
    except OSError as err:
        sys.exit(f"error: cannot read {args.pgn}: {err.strerror}")
    if not games:
        sys.exit(f"error: no games in {args.pgn}")
    engines = [Engine(args.engine, spec, args.hash) for spec in args.configs]
    turn = 0
    for number, (fen, moves) in enumerate(games):
        for engine in engines:
            engine.new_game()
        # Alternate the side replayed, so that both colours' positions are searched.
        for ply in range(number % 2, len(moves), 2):
            position = f"position fen {fen}" + (f" moves {' '.join(moves[:ply])}" if ply else "")
            shift = turn % len(engines)
            for engine in engines[shift:] + engines[:shift]:
                engine.search(position)
            turn += 1
        summary = ", ".join(f"{e.name} {statistics.mean(e.depths):.3f}" for e in engines if e.depths)
        print(f"game {number + 1}/{len(games)}: mean depth {summary}", flush=True)
    for engine in engines:
        engine.quit()
        if not engine.depths:
            print(f"{engine.name}: no position searched (the games have no moves)")
            continue
        print(
            f"{engine.name}: {len(engine.depths)} positions, decision depth "
            f"{statistics.mean(engine.depths):.3f}, nodes {statistics.mean(engine.nodes):.0f}"
        )


if __name__ == "__main__":
    main()
