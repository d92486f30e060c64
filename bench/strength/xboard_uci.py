#!/usr/bin/env python3
"""A UCI front for an xboard (CECP) engine, so that `cotuong match` (which speaks UCI and UCCI)
can play MaxQi, the xiangqi Fairy-Max, as a calibration anchor.

    cotuong match --engine "cmd=python3 bench/strength/xboard_uci.py /usr/games/maxqi" \
        name=maxqi ranks=0 ...

What it translates:
  uci / isready / ucinewgame / quit        -> handshake (xboard, protover 2), nothing, quit
  position startpos|fen F [moves ...]      -> remembered; sent as new, force, the moves
                                              (a FEN other than the initial position needs the
                                              engine's setboard feature; MaxQi has none, so use
                                              opening lines: bench/openings/xiangqi-openings-lines.txt)
  go wtime/btime/winc/binc/movestogo       -> level, time, otim (centiseconds), go
  go movetime MS                           -> st SECONDS (whole seconds below MS - 300), go
  go depth D                               -> sd D, go
  stop                                     -> ?
  engine's "move X" / "resign"             -> bestmove X / bestmove (none)
Moves pass through unchanged (MaxQi writes ICCS with ranks 0-9, the runner's ranks=0).
Node limits have no xboard equivalent and are refused with an info string.
"""

import queue
import shlex
import subprocess
import sys
import threading

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
# Seconds to wait for the engine's features at start-up.
HANDSHAKE_TIMEOUT = 5.0
# Milliseconds kept back from a fixed move time for the engine's and this adapter's overhead
# (xboard's `st` takes whole seconds, and engines use all of it).
MOVETIME_SAFETY_MS = 300


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Engine:
    """The xboard engine process and a queue of its output lines."""

    def __init__(self, command):
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines = queue.Queue()
        self.features = {}
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def handshake(self):
        self.send("xboard")
        self.send("protover 2")
        while True:
            try:
                line = self.lines.get(timeout=HANDSHAKE_TIMEOUT)
            except queue.Empty:
                return  # a protocol-1 engine: no features
            if line is None:
                raise SystemExit("the xboard engine exited during the handshake")
            if line.startswith("feature"):
                for word in shlex.split(line)[1:]:
                    key, _, value = word.partition("=")
                    self.features[key] = value
                if self.features.get("done") == "1":
                    return


def go_commands(words, fen_side_red):
    """xboard commands for the limits of a UCI `go`, or an error text."""
    args = {}
    i = 0
    while i < len(words):
        if words[i] in ("infinite", "ponder"):
            args[words[i]] = True
            i += 1
        elif i + 1 < len(words):
            args[words[i]] = words[i + 1]
            i += 2
        else:
            i += 1
    if "nodes" in args:
        return None, "node limits have no xboard equivalent; use a time or depth limit"
    cmds = []
    if "depth" in args:
        cmds.append("sd " + args["depth"])
    if "movetime" in args:
        cmds.append("st %d" % max(1, (int(args["movetime"]) - MOVETIME_SAFETY_MS) // 1000))
    elif "wtime" in args or "btime" in args:
        ours, theirs = ("wtime", "btime") if fen_side_red else ("btime", "wtime")
        inc = ("winc" if fen_side_red else "binc")
        base_ms = int(args.get(ours, "0"))
        inc_s = int(args.get(inc, "0")) / 1000.0
        mtg = int(args.get("movestogo", "0"))
        minutes, seconds = divmod(max(1, base_ms // 1000), 60)
        cmds.append("level %d %d:%02d %g" % (mtg, minutes, seconds, inc_s))
        cmds.append("time %d" % (base_ms // 10))
        cmds.append("otim %d" % (int(args.get(theirs, "0")) // 10))
    elif "depth" not in args and "infinite" not in args:
        return None, "no limit in go"
    return cmds, None


def main():
    if len(sys.argv) < 2:
        sys.stderr.write("usage: xboard_uci.py ENGINE [ARGS...]\n")
        return 2
    engine = Engine(sys.argv[1:])
    engine.handshake()
    name = engine.features.get("myname", sys.argv[1])
    variants = engine.features.get("variants", "")
    fen, moves = START_FEN, []
    waiting = threading.Event()

    def await_move():
        while True:
            line = engine.lines.get()
            if line is None:
                say("bestmove (none)")
                return
            if line.startswith("move "):
                say("bestmove " + line.split()[1])
                waiting.clear()
                return
            if line.startswith("resign"):
                say("bestmove (none)")
                waiting.clear()
                return
            if line.startswith(("1-0", "0-1", "1/2-1/2", "Illegal move", "Error")):
                say("info string engine: " + line)

    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "uci":
            say("id name " + name + " (xboard)")
            say("uciok")
        elif cmd == "isready":
            say("readyok")
        elif cmd == "position":
            if len(words) > 1 and words[1] == "startpos":
                fen, rest = START_FEN, words[2:]
            else:
                end = words.index("moves") if "moves" in words else len(words)
                fen, rest = " ".join(words[2:end]), words[end:]
            moves = rest[1:] if rest[:1] == ["moves"] else []
        elif cmd == "go":
            red_to_move = (fen.split()[1:2] in (["w"], ["r"])) == (len(moves) % 2 == 0)
            cmds, error = go_commands(words[1:], red_to_move)
            if error:
                say("info string error: " + error)
                say("bestmove (none)")
                continue
            # Lines left from the last game (its result claim, say) are not answers to this go.
            while not engine.lines.empty():
                if engine.lines.get_nowait() is None:
                    say("bestmove (none)")
                    return 1
            engine.send("new")
            if "xiangqi" in variants:
                engine.send("variant xiangqi")
            engine.send("force")
            if fen.split()[:2] != START_FEN.split()[:2]:
                if engine.features.get("setboard") != "1":
                    say("info string error: this engine cannot set up a FEN; use opening lines")
                    say("bestmove (none)")
                    continue
                engine.send("setboard " + fen)
            engine.send("easy")
            for m in moves:
                engine.send(m)
            for c in cmds:
                engine.send(c)
            engine.send("go")
            waiting.set()
            threading.Thread(target=await_move, daemon=True).start()
        elif cmd == "stop":
            if waiting.is_set():
                engine.send("?")
        elif cmd == "quit":
            break
    engine.send("quit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
