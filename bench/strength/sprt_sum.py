#!/usr/bin/env python3
"""Adds up the pentanomial counts of several runs of one two-engine test and prints the Elo
estimate and the SPRT state of the sum, with the statistics of `cotuong match`
(src/tools/match_runner/sprt.rs and stats.rs: normal GSPRT with logistic Elo, empty classes
counted as 0.001, pair scores 0, 1/4, 1/2, 3/4, 1).

For a test continued across runs whose recovery files are gone (each run with its own opening
seed, the same engines and settings). Counts come from the runs' reports ("pentanomial [a, b, c,
d, e]") or from PGN files of `cotuong match --pgnout` (pairs by their Round tags).

    bench/strength/sprt_sum.py --elo0 -5 --elo1 0 68,154,700,162,62 new-s49.pgn
"""

import argparse
import math
import re
import sys

PAIR_SCORES = [0.0, 0.25, 0.5, 0.75, 1.0]


def score_from_elo(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(score):
    score = min(max(score, 1e-9), 1.0 - 1e-9)
    return -400.0 * math.log10(1.0 / score - 1.0)


def moments(counts):
    n = sum(counts)
    mean = sum(c * s for c, s in zip(counts, PAIR_SCORES)) / n
    var = sum(c * (s - mean) ** 2 for c, s in zip(counts, PAIR_SCORES)) / n
    return n, mean, var


def llr(counts, elo0, elo1):
    regularised = [c if c > 0 else 1e-3 for c in counts]
    n, mean, var = moments(regularised)
    if var <= 0.0:
        return 0.0
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)


def pentanomial_of_pgn(path, first_engine):
    """Pairs scored from `first_engine`'s side: the games whose Round tag "P.G" has the same P
    (the runner writes games as they finish, not in pair order), or games 2k-1 and 2k in file
    order without Round tags. An incomplete pair (a game still being played) is left out."""
    games = []
    tags = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r'\[(\w+) "(.*)"\]', line)
            if m:
                tags[m.group(1)] = m.group(2)
                if m.group(1) == "Result":
                    games.append(dict(tags))
                    tags = {}
    if all("." in g.get("Round", "") for g in games):
        by_pair = {}
        for g in games:
            by_pair.setdefault(g["Round"].split(".")[0], []).append(g)
        pairs = [p for p in by_pair.values() if len(p) == 2]
    else:
        pairs = list(zip(games[0::2], games[1::2]))
    counts = [0] * 5
    for a, b in pairs:
        half = 0
        for g in (a, b):
            red_points = {"1-0": 2, "1/2-1/2": 1, "0-1": 0}.get(g.get("Result"))
            if red_points is None:
                sys.exit(f"{path}: a game without a result ({g.get('Result')})")
            red = g.get("Red", g.get("White"))
            black = g.get("Black")
            if first_engine not in (red, black):
                sys.exit(f"{path}: {first_engine!r} played no side of a game ({red} vs {black}); name it with --first")
            half += red_points if red == first_engine else 2 - red_points
        counts[half] += 1
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", help="a,b,c,d,e counts or a PGN file")
    ap.add_argument("--elo0", type=float, required=True)
    ap.add_argument("--elo1", type=float, required=True)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--first", default="new", help="the engine whose score is counted (PGN)")
    args = ap.parse_args()

    total = [0] * 5
    for run in args.runs:
        if re.fullmatch(r"\d+(,\d+){4}", run):
            counts = [int(x) for x in run.split(",")]
        else:
            counts = pentanomial_of_pgn(run, args.first)
        print(f"{run}: pentanomial {counts}")
        total = [t + c for t, c in zip(total, counts)]

    n, mean, var = moments(total)
    # 95% interval of the mean pair score, mapped to Elo (as the match report does).
    half_width = 1.959964 * math.sqrt(var / n)
    elo = elo_from_score(mean)
    lo, hi = elo_from_score(mean - half_width), elo_from_score(mean + half_width)
    value = llr(total, args.elo0, args.elo1)
    lower = math.log(args.beta / (1.0 - args.alpha))
    upper = math.log((1.0 - args.beta) / args.alpha)
    decision = "H1 accepted" if value >= upper else "H0 accepted" if value <= lower else "no decision yet"
    print(f"sum: {n} pairs ({2 * n} games), pentanomial {total}")
    print(f"Elo {elo:+.1f} +- {(hi - lo) / 2:.1f} (95%)")
    print(f"SPRT [{args.elo0:g}, {args.elo1:g}]: LLR {value:.2f} ({lower:.2f}, {upper:.2f}), {decision}")


if __name__ == "__main__":
    main()
