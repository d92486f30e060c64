#!/usr/bin/env python3
"""Fits the engine's win/draw/loss model (`wdl` in src/protocol/output.rs) to self-play records.

Model, with s the search score in engine units from the side to move's view:

    P(win)  = logistic((s - offset) / scale)
    P(loss) = logistic((-s - offset) / scale)
    P(draw) = 1 - P(win) - P(loss)

fitted by maximum likelihood over the positions of the game records given (the `.xqg` format of
nnue/train/src/data/mod.rs, plain or gzip). Plain Python, no dependencies.

Which positions: every recorded ply whose score is an evaluation (mate and rule scores are left
out: `wdl` answers those without the model). Weights: every game weighs 1, shared equally among
its positions, so long games (mostly level endings, mostly draws) do not outweigh short ones.

Adjudication: datagen ends a game as won once both sides' searches agree on at least 1000 units for
8 plies, and as drawn once every score of 10 plies is within 10 from ply 80, except in a random
tenth of games, which it plays out. A result decided so is the searches' opinion, not an outcome,
so by default adjudicated games are dropped and the played-out games in which adjudication would
have ended the game stand for them, weighted by adjudicated-plus-played-out over played-out (of
each kind, win or draw). `--as-recorded` fits the results as recorded instead.

Prints the fit, the log-likelihood per game of the old and new constants, the fit by phase (pieces
on the board) and writes the per-bin table the unit test of `wdl` reads (`--table`).
"""

import argparse
import gzip
import hashlib
import math
import struct
import sys

HEADER = struct.Struct("<3sB16s16sBBBBHHH")
HEADER_BYTES = 46
PLY_BYTES = 4
CHECKSUM_BYTES = 4
NO_SCORE = -32768
EVAL_LIMIT = 19000
MATE_SCORE = 32000
MAX_MATE_PLIES = 1000
# Datagen's default adjudication (src/tools/datagen/adjudication.rs).
WIN_SCORE, WIN_PLIES = 1000, 8
DRAW_SCORE, DRAW_PLIES, DRAW_MIN_PLY = 10, 10, 80
TERM_ADJ_WIN, TERM_ADJ_DRAW = 7, 8
# The constants the model had before this fit.
OLD = (180.0, 110.0)
# Score bins of the table: edges in engine units (side to move's view).
BIN_WIDTH = 50
BIN_LIMIT = 1000
# Phases by pieces on the board (as datagen's summary groups them).
PHASES = [(26, 32), (19, 25), (12, 18), (2, 11)]


def read_bytes(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return raw


def games(raw):
    """Yields (result code, termination, Red moves first, [(score, pieces before the ply)]) per game."""
    pos = 0
    n = len(raw)
    while pos < n:
        (magic, version, occ, codes, stm, result, term, _r, _hm, _fm, nply) = HEADER.unpack_from(raw, pos)
        if magic != b"XQG" or version != 1:
            sys.exit(f"not an XQG v1 record at byte {pos}")
        occupancy = int.from_bytes(occ, "little")
        board = bytearray(90)
        pieces = 0
        for sq in range(90):
            if occupancy >> sq & 1:
                board[sq] = 1
                pieces += 1
        plies = []
        body = pos + HEADER_BYTES
        for mv, score in struct.iter_unpack("<Hh", raw[body : body + PLY_BYTES * nply]):
            plies.append((score, pieces))
            frm, to = mv & 0x7F, (mv >> 7) & 0x7F
            if board[to]:
                pieces -= 1
            board[to] = 1
            board[frm] = 0
        yield result, term, stm == 0, plies
        pos = body + PLY_BYTES * nply + CHECKSUM_BYTES


def would_adjudicate(plies, first_red):
    """The result datagen's adjudication would have given (2 Red, 1 draw, 0 Black) or None."""
    red = [(s if (i % 2 == 0) == first_red else -s) for i, (s, _) in enumerate(plies)]
    raw = [s for s, _ in plies]
    for n in range(1, len(plies) + 1):
        if n >= WIN_PLIES:
            recent = red[n - WIN_PLIES : n]
            if all(v >= WIN_SCORE for v in recent):
                return 2
            if all(v <= -WIN_SCORE for v in recent):
                return 0
        if n >= DRAW_PLIES and n >= DRAW_MIN_PLY and all(abs(v) <= DRAW_SCORE for v in raw[n - DRAW_PLIES : n]):
            return 1
    return None


def logistic(x):
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def probs(s, a, b):
    w = logistic((s - a) / b)
    l = logistic((-s - a) / b)
    return w, max(1.0 - w - l, 1e-12), l


def loglik(table, a, b):
    """Weighted log-likelihood of {score: [w_win, w_draw, w_loss]}."""
    total = 0.0
    for s, (ww, wd, wl) in table.items():
        pw, pd, pl = probs(s, a, b)
        total += ww * math.log(max(pw, 1e-12)) + wd * math.log(pd) + wl * math.log(max(pl, 1e-12))
    return total


def fit(table, start=OLD):
    """Newton's method on (offset, scale) with finite-difference derivatives, from `start`."""
    a, b = start
    h = 1e-3
    f = lambda x, y: loglik(table, x, y)
    for _ in range(50):
        f0 = f(a, b)
        ga = (f(a + h, b) - f(a - h, b)) / (2 * h)
        gb = (f(a, b + h) - f(a, b - h)) / (2 * h)
        haa = (f(a + h, b) - 2 * f0 + f(a - h, b)) / h**2
        hbb = (f(a, b + h) - 2 * f0 + f(a, b - h)) / h**2
        hab = (f(a + h, b + h) - f(a + h, b - h) - f(a - h, b + h) + f(a - h, b - h)) / (4 * h * h)
        det = haa * hbb - hab * hab
        if det <= 0 or haa >= 0:
            # Not concave here: a small gradient step instead.
            da, db = 1e-3 * ga, 1e-3 * gb
        else:
            da = -(hbb * ga - hab * gb) / det
            db = -(-hab * ga + haa * gb) / det
        step = 1.0
        while step > 1e-6:
            na, nb = a + step * da, b + step * db
            if nb > 1 and na > 0 and f(na, nb) >= f0:
                break
            step /= 2
        else:
            break
        a, b = na, nb
        if abs(step * da) < 1e-4 and abs(step * db) < 1e-4:
            break
    return a, b


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--as-recorded", action="store_true", help="fit adjudicated results as recorded")
    ap.add_argument("--per-position", action="store_true", help="weigh every position 1, not every game")
    ap.add_argument("--table", help="write the per-bin table (TSV) here")
    args = ap.parse_args()

    parsed = []
    for path in args.files:
        raw = read_bytes(path)
        print(f"{path}: {len(raw):,} bytes uncompressed, sha256 {hashlib.sha256(raw).hexdigest()}")
        parsed.extend(games(raw))
    # Adjudication: count adjudicated and played-out games of each kind.
    adjudicated = {1: 0, "win": 0}
    played_out = {1: 0, "win": 0}
    kinds = []
    for result, term, first_red, plies in parsed:
        if term in (TERM_ADJ_WIN, TERM_ADJ_DRAW):
            kind = 1 if term == TERM_ADJ_DRAW else "win"
            adjudicated[kind] += 1
            kinds.append(("adjudicated", kind))
            continue
        would = would_adjudicate(plies, first_red)
        if would is None:
            kinds.append(("natural", None))
        else:
            kind = 1 if would == 1 else "win"
            played_out[kind] += 1
            kinds.append(("played out", kind))
    print(f"games {len(parsed):,}; adjudicated wins {adjudicated['win']:,}, draws {adjudicated[1]:,}; "
          f"played out past a win adjudication {played_out['win']:,}, past a draw {played_out[1]:,}")
    # How often the played-out games' results agree with what adjudication would have said.
    agree = {1: [0, 0], "win": [0, 0]}
    for (result, term, first_red, plies), (how, kind) in zip(parsed, kinds):
        if how == "played out":
            agree[kind][1] += 1
            agree[kind][0] += result == would_adjudicate(plies, first_red)
    for kind, (a, n) in agree.items():
        if n:
            print(f"  played out past a {'draw' if kind == 1 else 'win'} adjudication: {a}/{n} ({100 * a / n:.1f}%) ended as adjudication said")

    table = {}
    by_phase = {p: {} for p in PHASES}
    positions = 0
    game_weight = 0.0
    for (result, term, first_red, plies), (how, kind) in zip(parsed, kinds):
        if args.as_recorded:
            gw = 1.0
        elif how == "adjudicated":
            continue
        elif how == "played out":
            gw = (adjudicated[kind] + played_out[kind]) / played_out[kind]
        else:
            gw = 1.0
        evals = [(i, s, p) for i, (s, p) in enumerate(plies) if s != NO_SCORE and abs(s) <= EVAL_LIMIT]
        if not evals:
            continue
        game_weight += gw
        w = gw if args.per_position else gw / len(evals)
        for i, s, p in evals:
            red_to_move = (i % 2 == 0) == first_red
            red_points = result  # 0 Black won, 1 draw, 2 Red won
            stm_points = red_points if red_to_move else 2 - red_points
            slot = {2: 0, 1: 1, 0: 2}[stm_points]
            table.setdefault(s, [0.0, 0.0, 0.0])[slot] += w
            for lo, hi in PHASES:
                if lo <= p <= hi:
                    by_phase[(lo, hi)].setdefault(s, [0.0, 0.0, 0.0])[slot] += w
            positions += 1
    print(f"positions {positions:,} from games of total weight {game_weight:,.0f}"
          f" ({'per position' if args.per_position else 'each game weighs 1'},"
          f" {'as recorded' if args.as_recorded else 'adjudicated games replaced by played-out ones'})")

    a, b = fit(table)
    total = sum(sum(v) for v in table.values())
    old_ll, new_ll = loglik(table, *OLD), loglik(table, a, b)
    print(f"fit: offset {a:.1f}, scale {b:.1f}")
    print(f"log-likelihood per unit weight: old ({OLD[0]:.0f}, {OLD[1]:.0f}) {old_ll / total:.4f},"
          f" new {new_ll / total:.4f}")
    phase_ll = 0.0
    for (lo, hi), t in by_phase.items():
        pa, pb = fit(t, (a, b))
        wsum = sum(sum(v) for v in t.values())
        phase_ll += loglik(t, pa, pb)
        print(f"  pieces {lo:2}-{hi:2}: weight {wsum:9.0f}, offset {pa:6.1f}, scale {pb:6.1f};"
              f" log-likelihood per unit weight with its own fit {loglik(t, pa, pb) / wsum:.4f},"
              f" with the common fit {loglik(t, a, b) / wsum:.4f}")
    print(f"phase-dependent fit (4 phases, 8 parameters): log-likelihood per unit weight {phase_ll / total:.4f}")

    # Per-bin table: empirical rates (weighted) against the model, from the side to move's view.
    rows = []
    edges = list(range(-BIN_LIMIT, BIN_LIMIT + 1, BIN_WIDTH))
    for lo, hi in zip(edges, edges[1:]):
        ww = wd = wl = 0.0
        ssum = 0.0
        for s in range(lo, hi):
            v = table.get(s)
            if v:
                ww, wd, wl = ww + v[0], wd + v[1], wl + v[2]
                ssum += s * sum(v)
        tot = ww + wd + wl
        if tot == 0:
            continue
        mean = ssum / tot
        # Predicted: the model averaged over the bin's scores, as weighted.
        pw = pd = pl = 0.0
        po = [0.0, 0.0, 0.0]  # the old constants'
        for s in range(lo, hi):
            v = table.get(s)
            if v:
                x = probs(s, a, b)
                y = probs(s, *OLD)
                t = sum(v)
                pw, pd, pl = pw + x[0] * t, pd + x[1] * t, pl + x[2] * t
                po = [po[0] + y[0] * t, po[1] + y[1] * t, po[2] + y[2] * t]
        rows.append((lo, hi, mean, tot, ww / tot, wd / tot, wl / tot, pw / tot, pd / tot, pl / tot,
                     po[0] / tot, po[1] / tot, po[2] / tot))
    print("bin        mean   weight   win  draw  loss | new: win  draw  loss | old: win  draw  loss")
    for r in rows:
        print(f"[{r[0]:5},{r[1]:5}) {r[2]:6.0f} {r[3]:8.0f} {r[4]:.3f} {r[5]:.3f} {r[6]:.3f} |"
              f"      {r[7]:.3f} {r[8]:.3f} {r[9]:.3f} |      {r[10]:.3f} {r[11]:.3f} {r[12]:.3f}")
    if args.table:
        with open(args.table, "w") as f:
            f.write("# Empirical win/draw/loss rates of the side to move by search score (engine units),\n")
            f.write("# from bench/wdl/fit.py (see bench/wdl/README.md): lo hi mean_score weight win draw loss\n")
            for r in rows:
                f.write(f"{r[0]}\t{r[1]}\t{r[2]:.0f}\t{r[3]:.0f}\t{r[4]:.4f}\t{r[5]:.4f}\t{r[6]:.4f}\n")


if __name__ == "__main__":
    main()
