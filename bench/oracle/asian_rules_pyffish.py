#!/usr/bin/env python3
"""Checks the repetition cases of the rule tests against Fairy-Stockfish's xiangqi rules.

Fairy-Stockfish (through pyffish, `pip install pyffish`) implements the Asian (AXF) rules of
perpetual check and perpetual chase for its `xiangqi` variant. For every constructed case of
`engine-core/tests/suite/rules_law_cases.rs` and `tests/search/search_rule_sets.rs` this script

1. checks that the FEN is valid and every move legal (an independent move generator), and
2. compares the verdict the tests assert under the Asian rules with Fairy-Stockfish's verdict
   at the repetition's third occurrence (`is_optional_game_end`).

Fairy-Stockfish's chase detection is a simplification of the Asian rule book (for example, it
does not model every exception of the book's diagrams), so a disagreement is a prompt to read
the book, not a proof of an error; the script prints every case and says which agree. The
output of the last run is kept beside it in `asian_rules_pyffish.out`.

Run from the repository root:  python3 bench/oracle/asian_rules_pyffish.py
Exit status: 1 if a position or move is illegal, 0 otherwise.
"""

import re
import sys

import pyffish as sf

VARIANT = "xiangqi"


def to_fsf(move):
    """ICCS with ranks 0-9 (the tests) to Fairy-Stockfish's UCI with ranks 1-10."""
    m = re.fullmatch(r"([a-i])(\d)([a-i])(\d)", move)
    if not m:
        raise ValueError(f"not a move: {move}")
    return f"{m[1]}{int(m[2]) + 1}{m[3]}{int(m[4]) + 1}"


def side_to_move(fen, plies):
    first = fen.split()[1]
    red_first = first in ("w", "r")
    red = red_first if plies % 2 == 0 else not red_first
    return "Red" if red else "Black"


def other(color):
    return "Black" if color == "Red" else "Red"


def parse_expect(text):
    text = text.strip()
    if text == "Draw":
        return "Draw"
    m = re.fullmatch(r"Loses\((Red|Black)(?:,\s*\w+)?\)", text)
    if not m:
        raise ValueError(f"cannot read expectation {text!r}")
    return f"Loses({m[1]})"


def law_cases(path):
    src = open(path, encoding="utf-8").read()
    cases = []
    for m in re.finditer(
        r'LawCase \{\s*name: "([^"]+)",\s*fen: "([^"]+)",\s*moves: "([^"]+)",\s*expect: ([^\n]+?),\s*\}',
        src,
    ):
        cases.append((m[1], m[2], m[3].split(), parse_expect(m[4])))
    diffs = {}
    block = src[src.index("const ASIAN_DIFFERENCES") :]
    block = block[: block.index("];")]
    for m in re.finditer(r'\(\s*"([^"]+)",\s*((?:Loses\([^)]*\))|Draw),?\s*\)', block):
        diffs[m[1]] = parse_expect(m[2])
    return [(n, f, mv, diffs.get(n, law)) for (n, f, mv, law) in cases]


def rule_set_cases(path):
    src = open(path, encoding="utf-8").read()
    cases = []
    for m in re.finditer(
        r'Case \{\s*name: "([^"]+)",\s*fen: "([^"]+)",\s*lap: "([^"]+)",\s*law: ([^\n]+?),\s*asian: ([^\n]+?),\s*\}',
        src,
    ):
        lap = m[3].split()
        cases.append((m[1], m[2], lap + lap, parse_expect(m[5])))
    return cases


def axf_cases(path):
    """The shared AXF repetition file: verdicts from the side to move's view (win/loss/draw)."""
    cases = []
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        ident, fen, moves, side, expected, comment = line.rstrip("\n").split("\t")
        stm = "Red" if side == "w" else "Black"
        asian = {
            "draw": "Draw",
            "loss": f"Loses({stm})",
            "win": f"Loses({other(stm)})",
        }.get(expected, "unasserted")
        cases.append((f"{ident} ({comment})", fen, moves.split(), asian))
    return cases


def fsf_verdict(fen, moves):
    """Fairy-Stockfish's verdict after `moves`, or None; raises on an illegal move."""
    played = []
    for mv in moves:
        fsf_mv = to_fsf(mv)
        if fsf_mv not in sf.legal_moves(VARIANT, fen, played):
            raise ValueError(f"{mv} is illegal after {' '.join(played) or 'the FEN'}")
        played.append(fsf_mv)
    ended, value = sf.is_optional_game_end(VARIANT, fen, played)
    if not ended:
        return None
    stm = side_to_move(fen, len(played))
    if value == 0:
        return "Draw"
    return f"Loses({stm})" if value < 0 else f"Loses({other(stm)})"


def main():
    groups = [
        ("engine-core/tests/suite/rules_law_cases.rs", law_cases("engine-core/tests/suite/rules_law_cases.rs")),
        ("tests/search/search_rule_sets.rs", rule_set_cases("tests/search/search_rule_sets.rs")),
    ]
    axf = "../shared/testdata/axf-repetition.tsv"
    try:
        groups.append((axf, axf_cases(axf)))
    except FileNotFoundError:
        print(f"note: {axf} not found (check the repository out with shared/ beside it)")
    illegal = 0
    print(f"pyffish {'.'.join(map(str, sf.version()))}, variant {VARIANT}")
    for file, cases in groups:
        if not cases:
            print(f"{file}: no cases found (the script's patterns are out of date)")
            illegal += 1
            continue
        agree = 0
        print(f"\n{file}: {len(cases)} cases (Asian verdict asserted by the test / Fairy-Stockfish)")
        for name, fen, moves, asian in cases:
            if sf.validate_fen(fen, VARIANT) != sf.FEN_OK:
                print(f"  ILLEGAL FEN  {name}: {fen}")
                illegal += 1
                continue
            try:
                fsf = fsf_verdict(fen, moves)
            except ValueError as e:
                print(f"  ILLEGAL MOVE {name}: {e}")
                illegal += 1
                continue
            same = fsf == asian
            agree += same
            print(f"  {'agree' if same else 'DIFFER'}  {name}: test {asian}, Fairy-Stockfish {fsf}")
        print(f"  {agree} of {len(cases)} agree; all positions and moves legal" if not illegal else "")
    return 1 if illegal else 0


if __name__ == "__main__":
    sys.exit(main())
