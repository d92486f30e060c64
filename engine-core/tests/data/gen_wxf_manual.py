#!/usr/bin/env python3
"""Rebuilds wxf-manual.tsv from the repetition suite of orange-xiangqi's tests.jai.

Usage: gen_wxf_manual.py PATH/TO/tests.jai > wxf-manual.tsv

The positions, moves and verdicts are the WXF rule manual's example diagrams as transcribed by
the authors of "Complete Implementation of WXF Chinese Chess Rules" (arXiv 2412.17334) in
github.com/danieltan1517/orange-xiangqi, tests.jai at commit 599c067. Each cycle is played on to
the third occurrence of its final position, where our referee judges by default. The one-line
descriptions are ours; the diagram numbers are the source's annotations.
"""

import re
import sys

SOURCE_COMMIT = "599c067"

# Our description of each group, keyed by the source's diagram label or, where it has none, by
# its group heading.
DESCRIPTIONS = {
    "perpetual check tests.": "perpetual check",
    "two-to-one check.": "two pieces give check in turn",
    "perpetual kill.": "perpetual threat to mate, allowed",
    "alternate check and chase.": "one check, one chase in turn, allowed",
    "perpetual chasing.": "perpetual chase",
    "some perpetual chasing.": "perpetual chase",
    "24": "two red pieces take turns chasing one chariot",
    "25": "two red pieces take turns chasing one chariot",
    "26": "one cannon attacks two chariots in turn",
    "27": "one cannon attacks two chariots in turn",
    "28": "two cannons attack two chariots in turn",
    "29": "chariot attacks a protected cannon",
    "30": "chariot attacks a protected cannon",
    "31": "chariot attacks a protected cannon",
    "32": "chariot chases an unprotected cannon that threatens mate",
    "33": "chariot chases an unprotected cannon",
    "34": "chariot chases a cannon that answers with mate threats",
    "35": "chariot chases a cannon that answers with mate threats",
    "36": "chariot chases a cannon that attacks two horses in turn",
    "37": "chariot chases a cannon that answers one check, one chase",
    "38": "chariot chases a cannon that answers one check, one chase",
    "39-41": "red pieces keep attacking a chariot pinned by a horse",
    "42": "horse or cannon chases a chariot",
    "43": "horse or cannon chases a chariot",
    "44": "horse or cannon chases a chariot",
    "45": "two pieces chase one in turn",
    "46": "two pieces chase one in turn",
    "47": "two pieces chase one in turn",
    "48": "mutual perpetual chase of chariot and horse",
    "49": "chariot chases a horse",
    "50": "chariot chases a horse that answers check and idle moves",
    "51": "perpetual offer of a chariot",
    "52": "perpetual offer of a chariot",
    "53": "cannon chases a cannon that cannot take back (pinned): no offer",
    "54": "cannon attacks a confined cannon, protected on one of its squares",
    "55": "horse chases a horse whose leg is blocked",
    "56": "cannon chases an unprotected piece by moving its screen",
    "57": "cannon chases an unprotected piece by moving its screen",
    "58": "cannon chases by moving its screen",
    "59": "chase of a pawn that has crossed the river",
    "60": "attack on a pawn that has not crossed the river",
    "61": "cannon chases a standing chariot through moving screens",
    "62": "cannon chases a chariot",
    "63": "chariot confined by a cannon cannot chase",
    "64": "chariot chases a chariot confined by a cannon",
    "65": "chariot chases a chariot confined by a cannon",
    "66": "chariot attacked on one move, protected on the other",
    "67-70": "general or pawn attacks, allowed",
    "71-75": "exceptions to the general and pawn allowance",
    "77": "chariot chases crossed pawns",
    "78": "one chariot attacks three pieces in turn, or one",
    "79": "chariot chases a cannon that chases two pawns",
    "80": "two chariots attack two cannons",
    "81": "two chariots take turns chasing one cannon",
    "82": "horse and discovered cannon chase one piece",
    "83": "chase of a piece with a false protector",
    "84": "chase of a piece with a false protector",
    "85": "chase of a piece with a false protector",
    "86": "attack on a protected cannon",
    "87": "attack on a protected cannon",
    "88": "attack on a protected piece",
    "89": "attack on a protected piece",
    "90-91": "chase of a cannon that is offered for exchange",
    "92": "chariot offer while other pieces chase the chariot",
    "93-95": "horse discovers an attack, chariot offer",
    "96": "cannon chases a chariot beside its general",
    "97-98": "perpetual threat to check and then capture, allowed",
    "99": "perpetual block",
    "100-103": "perpetual offer or sacrifice",
    "Perpetual Chase:": "appendix: a pawn keeps unscreening the protector of a horse that a "
    "leg-blocking chariot attacks",
    "non-perpetual chase.": "appendix: chariot attacks a cannon whose attack never changes",
    "mutual perpetual chase.": "additional example: mutual perpetual chase, the red chariots "
    "leave the rank in turn",
    "false roots chasing.": "chase of a piece with a false protector",
    "Chases:": "chariot chases an unprotected cannon",
    "simple chases. chariot chases unprotected cannon": "chariot chases an unprotected cannon",
    "test repetition material.": "repetition with captures before the cycle",
    "2023 Xiangqi Champion -- black chases chariot. red wins.": "2023 championship game: "
    "Black chases a chariot",
}

# Cases whose group heading misdescribes them, by source line.
CASE_NOTES = {
    550: "the position of the additional mutual perpetual chase "
    "example (line 650)",
}

TEST = re.compile(r'repetition_test\("([^"]+)",\s*\.(\w+)((?:,\s*"[^"]+")*)\);')
DIAGRAM = re.compile(r"diagrams?\s+(\d+)(?:\s*(?:-|&)\s*(\d+))?")
NUMBERED = re.compile(r"^(\d+)\.")


def label(comments):
    """The source's diagram label ("61", "39-41") from its comments, most specific last."""
    for text in reversed(comments):
        m = DIAGRAM.search(text) or NUMBERED.match(text)
        if m:
            first, last = m.group(1), m.groups()[1] if len(m.groups()) > 1 else None
            return f"{first}-{last}" if last else first
    return None


def board(fen):
    squares = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        c = 0
        for ch in row:
            if ch.isdigit():
                c += int(ch)
            else:
                squares[(c, 9 - r)] = ch
                c += 1
    return squares


def keys(fen, moves):
    """A key per position of the game, the start included."""
    squares, red = board(fen), fen.split()[1] in ("w", "r")
    out = [(red, tuple(sorted(squares.items())))]
    for m in moves:
        src, dst = (ord(m[0]) - 97, int(m[1])), (ord(m[2]) - 97, int(m[3]))
        squares[dst] = squares.pop(src)
        red = not red
        out.append((red, tuple(sorted(squares.items()))))
    return out


def to_third_occurrence(fen, moves):
    """The moves, cut to the longest prefix that closes a cycle and played on to its third
    occurrence. None when no prefix of the same parity closes one."""
    for end in range(len(moves), 0, -1):
        if (len(moves) - end) % 2:
            continue
        prefix = moves[:end]
        ks = keys(fen, prefix)
        earlier = [i for i, k in enumerate(ks[:-1]) if k == ks[-1]]
        if earlier:
            cycle = prefix[earlier[0] :]
            while keys(fen, prefix).count(ks[-1]) < 3:
                prefix = prefix + cycle
            return prefix
    return None


def main(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("repetition_test_suite ::"))
    comments, after_test, cases = [], False, []
    for number, text in enumerate(lines[start + 1 :], start + 2):
        s = text.strip()
        if s.startswith("//"):
            if after_test:
                comments = []
            comments.append(s[2:].strip())
            after_test = False
            continue
        m = TEST.match(s)
        if m and re.findall(r'"([^"]+)"', m.group(3)):
            fen, verdict = m.group(1), m.group(2).lower()
            if len(fen.split()) == 2:
                fen += " - - 0 1"
            cases.append((number, fen, verdict, re.findall(r'"([^"]+)"', m.group(3)), comments))
            after_test = True
    print(
        "# id\tfen\tmoves (ranks 0-9)\tside to move after moves\texpected (from that side's "
        f"view: win / loss / draw)\tcomment (WXF manual; orange-xiangqi tests.jai {SOURCE_COMMIT}"
        " line)"
    )
    rows = []
    for number, fen, verdict, moves, comments in cases:
        moves3 = to_third_occurrence(fen, moves)
        if moves3 is None:
            sys.exit(f"line {number}: no cycle closes")
        if len(moves3) % 2 != len(moves) % 2:
            sys.exit(f"line {number}: side to move changed")
        diagram = label(comments)
        base = f"W{diagram}" if diagram else f"W-L{number}"
        red_to_move = (fen.split()[1] in ("w", "r")) == (len(moves3) % 2 == 0)
        side = "w" if red_to_move else "b"
        loser = {"win": not red_to_move, "loss": red_to_move}.get(verdict)
        ruling = "draw" if loser is None else ("Red loses" if loser else "Black loses")
        key = diagram if diagram in DESCRIPTIONS else comments[-1]
        what = CASE_NOTES.get(number, DESCRIPTIONS[key])
        where = f"diagram {diagram}: " if diagram else ""
        comment = f"{where}{what}; {ruling}; line {number}"
        rows.append([base, fen, " ".join(moves3), side, verdict, comment])
    # Several cases of one diagram get a, b, c ... in source order.
    counts = {}
    for row in rows:
        counts[row[0]] = counts.get(row[0], 0) + 1
    seen = {}
    for row in rows:
        if counts[row[0]] > 1:
            seen[row[0]] = seen.get(row[0], 0) + 1
            row[0] += "abcdefghijklmnopqrstuvwxyz"[seen[row[0]] - 1]
        print("\t".join(row))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
