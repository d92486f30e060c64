#!/usr/bin/env python3
"""The strength ladder from the results of bench/strength/ladder.sh.

    python3 bench/strength/report.py RESULTS_DIR [--confidence 0.95] [--anchor-elo fsf=2000]

Reads every `L<level>-<anchor>.txt` (the summary `cotuong match` prints) and prints:

1. the ladder: for each level, the score against each anchor with its 95% error bar (from the
   game pairs, pentanomial, as the match runner computes it), in Markdown for the README;
2. the monotonicity check: for each two neighbouring levels, the Elo difference pooled over
   the anchors (inverse-variance weights; an anchor that both levels lost every game to, or both
   won every game against, is left out as it cannot order them) and the confidence that the
   higher level scores more;
   the check fails (exit status 1) when a pair is below --confidence, or when an anchor shows
   the opposite order at that confidence;
3. the UCI_Elo table for `SKILL_ELO` in src/strength.rs: a least-squares fit of one rating per
   level and per anchor to the measured Elo differences (weights 1/error^2), with the reference
   anchor fixed (--anchor-elo, default fsf=2000), levels not measured interpolated.
"""

import argparse
import glob
import math
import os
import re
import sys

# Pair scores of the pentanomial classes (0, 0.5, 1, 1.5, 2 points per pair), per game.
PAIR_SCORES = [0.0, 0.25, 0.5, 0.75, 1.0]
# Scores are kept this far from 0 and 1 before converting to Elo (a clean sweep is not infinite).
SCORE_EPSILON = 0.5 / 100
FULL_LEVEL = 20
Z95 = 1.959964


def parse(path):
    """(level, anchor, games, score, standard error of the score) of one summary."""
    text = open(path, encoding="utf-8").read()
    m = re.search(r"Results of L(\d+) vs (\S+) \((\d+) games\)", text)
    penta = re.search(r"Pentanomial \([^)]*\): \[([\d, ]+)\]", text)
    wdl = re.search(r"W-D-L: (\d+)-(\d+)-(\d+)", text)
    if not m or not wdl:
        return None
    level, anchor, games = int(m.group(1)), m.group(2), int(m.group(3))
    if penta:
        counts = [int(x) for x in penta.group(1).split(",")]
        pairs = sum(counts)
    else:
        counts, pairs = None, 0
    if pairs >= 2:
        mean = sum(n * s for n, s in zip(counts, PAIR_SCORES)) / pairs
        var = sum(n * (s - mean) ** 2 for n, s in zip(counts, PAIR_SCORES)) / pairs
        se = math.sqrt(var / pairs)
    else:
        w, d, l = (int(x) for x in wdl.groups())
        n = max(1, w + d + l)
        mean = (w + 0.5 * d) / n
        var = (w * (1 - mean) ** 2 + d * (0.5 - mean) ** 2 + l * mean**2) / n
        se = math.sqrt(var / n)
    return level, anchor, games, mean, se


def elo(score):
    s = min(max(score, SCORE_EPSILON), 1 - SCORE_EPSILON)
    return -400 * math.log10(1 / s - 1)


def smoothed(score, se, games):
    """The score with half a point in one more game, and a standard error no smaller than a
    single game's binomial one at that score: a clean sweep of a few games is neither an
    infinite Elo difference nor a certain one."""
    s = (score * games + 0.5) / (games + 1)
    return s, max(se, math.sqrt(s * (1 - s) / max(games, 1)))


def saturated(score_a, score_b):
    """Whether two levels both scored 0% or both 100% against an anchor: their difference there
    says nothing about their order, and its tiny smoothed variance would swamp the pooled test."""
    return (score_a <= 0 and score_b <= 0) or (score_a >= 1 and score_b >= 1)


def elo_error(score, se):
    """Half width of the 95% Elo interval of a score with standard error se."""
    lo = elo(score - Z95 * se)
    hi = elo(score + Z95 * se)
    return (hi - lo) / 2


def phi(z):
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def fit(results, reference, reference_elo):
    """Least-squares ratings of levels and anchors from the Elo differences."""
    names = sorted({("L", r[0]) for r in results} | {("A", r[1]) for r in results})
    index = {n: i for i, n in enumerate(names)}
    size = len(names)
    a = [[0.0] * size for _ in range(size)]
    b = [0.0] * size
    for level, anchor, games, score, se in results:
        score, se = smoothed(score, se, games)
        d = elo(score)
        err = max(elo_error(score, se) / Z95, 1.0)
        w = 1 / err**2
        i, j = index[("L", level)], index[("A", anchor)]
        # (R_i - R_j - d)^2 * w
        a[i][i] += w
        a[j][j] += w
        a[i][j] -= w
        a[j][i] -= w
        b[i] += w * d
        b[j] -= w * d
    ref = index.get(("A", reference))
    if ref is None:
        return None
    # Fix the reference: replace its equation by R_ref = reference_elo.
    a[ref] = [0.0] * size
    a[ref][ref] = 1.0
    b[ref] = float(reference_elo)
    # Gaussian elimination with partial pivoting.
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            return None  # not connected
        a[col], a[pivot] = a[pivot], a[col]
        b[col], b[pivot] = b[pivot], b[col]
        for r in range(size):
            if r != col and a[r][col] != 0:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
                b[r] -= f * b[col]
    return {n: b[i] / a[i][i] for n, i in index.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("--confidence", type=float, default=0.95)
    ap.add_argument("--anchor-elo", default="fsf=2000")
    args = ap.parse_args()
    results = [r for r in map(parse, glob.glob(os.path.join(args.results, "L*-*.txt"))) if r]
    if not results:
        print(f"no results in {args.results}", file=sys.stderr)
        return 2
    levels = sorted({r[0] for r in results})
    anchors = sorted({r[1] for r in results})
    by = {(r[0], r[1]): r for r in results}

    print("## Ladder: score of each Skill Level against each anchor (95% error bars)\n")
    print("| level | " + " | ".join(anchors) + " |")
    print("|---|" + "---|" * len(anchors))
    for level in levels:
        cells = []
        for anchor in anchors:
            r = by.get((level, anchor))
            if r is None:
                cells.append("")
                continue
            _, _, games, score, se = r
            s, s_se = smoothed(score, se, games)
            cells.append(
                f"{100 * score:.1f}% ± {100 * Z95 * se:.1f} ({elo(s):+.0f} ± "
                f"{elo_error(s, s_se):.0f} Elo, {games} games)"
            )
        print(f"| {level} | " + " | ".join(cells) + " |")

    print(f"\n## Monotonicity (a higher level scores more, confidence {args.confidence:.0%})\n")
    failed = False
    for low, high in zip(levels, levels[1:]):
        num = den = 0.0
        reversed_by = []
        saturated_by = []
        per_anchor = []
        for anchor in anchors:
            a, b = by.get((low, anchor)), by.get((high, anchor))
            if not a or not b:
                continue
            if saturated(a[3], b[3]):
                # Both levels lost (or both won) every game: the anchor cannot order them.
                saturated_by.append(anchor)
                continue
            # Compared in Elo (logistic) units: near 0% or 100% a score hardly moves and its
            # variance is tiny, so score units would let a saturated anchor outvote the others.
            (sa, sea), (sb, seb) = smoothed(a[3], a[4], a[2]), smoothed(b[3], b[4], b[2])
            per_anchor.append(
                f"{anchor} {100 * a[3]:.1f}% -> {100 * b[3]:.1f}% "
                f"({phi((sb - sa) / math.sqrt(sea**2 + seb**2)):.3f})"
            )
            diff = elo(sb) - elo(sa)
            var = (elo_error(sa, sea) / Z95) ** 2 + (elo_error(sb, seb) / Z95) ** 2
            num += diff / var
            den += 1 / var
            if phi(-diff / math.sqrt(var)) >= args.confidence:
                reversed_by.append(anchor)
        if den == 0:
            print(f"- {low} -> {high}: no informative anchor (saturated: {', '.join(saturated_by) or 'none'})")
            failed = True
            continue
        pooled, se = num / den, 1 / math.sqrt(den)
        conf = phi(pooled / se)
        ok = conf >= args.confidence and not reversed_by
        failed |= not ok
        note = f"; reversed against {', '.join(reversed_by)}" if reversed_by else ""
        if saturated_by:
            note += f"; not counted (every game lost or won by both): {', '.join(saturated_by)}"
        note += f"\n  per anchor (confidence that the higher level scores more): {'; '.join(per_anchor)}"
        print(
            f"- {low} -> {high}: {pooled:+.0f} ± {Z95 * se:.0f} Elo, "
            f"confidence {conf:.3f} {'PASS' if ok else 'FAIL'}{note}"
        )

    reference, _, ref_elo = args.anchor_elo.partition("=")
    ratings = fit(results, reference, float(ref_elo or 2000))
    print("\n## Ratings (least squares, " + f"{reference} = {ref_elo})\n")
    if ratings is None:
        print(f"cannot fit: anchor {reference} missing or the results are not connected")
    else:
        for anchor in anchors:
            print(f"- {anchor}: {ratings[('A', anchor)]:.0f}")
        measured = {lv: ratings[("L", lv)] for lv in levels}
        table = []
        for lv in range(FULL_LEVEL + 1):
            if lv in measured:
                table.append(measured[lv])
                continue
            below = [x for x in levels if x < lv]
            above = [x for x in levels if x > lv]
            if below and above:
                x0, x1 = below[-1], above[0]
                t = (lv - x0) / (x1 - x0)
                table.append(measured[x0] + t * (measured[x1] - measured[x0]))
            else:
                table.append(measured[below[-1]] if below else measured[above[0]])
        rounded = [round(x) for x in table]
        if any(x >= y for x, y in zip(rounded, rounded[1:])):
            print("\nwarning: the fitted ratings are not strictly increasing; measure more games")
        print("\n```rust\npub const SKILL_ELO: [i32; 21] = [")
        print("    " + ", ".join(str(x) for x in rounded) + ",")
        print("];\n```")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
