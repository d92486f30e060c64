#!/usr/bin/env python3
"""Builds the archive test files (XQF plain and encrypted, CBF, DhtmlXQ) and writes what the
PyPI `cchess` package reads from them, the oracle the Rust readers are checked against
(engine-core/tests/suite/game_files.rs).

The files are written from the published format descriptions, not by cchess: XQF after
XQStudio's XQFRW.pas (header layout, key derivation, the "[(C) Copyright Mr. Dong Shiwei.]" key
stream), CBF after CCBridge's XML, DhtmlXQ after dpxq.com's fields. The games are random
playouts (fixed seeds) whose moves cchess's own rules accept; some files have comments and
variations, so that only the main line is expected.

    python3 -m venv /tmp/cchess-venv && /tmp/cchess-venv/bin/pip install cchess
    /tmp/cchess-venv/bin/python bench/oracle/game_files_cchess.py engine-core/tests/data/archive

writes the files and `expected.tsv` there: one line per file, tab-separated: the file name, the
start position as cchess sees it (board and side), the main line in ICCS, and for XQF the
red player, black player and result cchess reads.
"""

import os
import random
import re
import struct
import sys
from xml.sax.saxutils import escape

import cchess
from cchess.board import ChessBoard
from cchess.common import FULL_INIT_FEN
from cchess.read_txt import read_from_txt
from cchess.read_xqf import read_from_xqf
from cchess.read_cbf import read_from_cbf

# XQF: header layout (offsets into the first 1024 bytes).
XQF_HEADER_LEN = 0x400
XQF_VERSION = 2
XQF_KEY_MASK, XQF_KEY_OR, XQF_KEYS_SUM, XQF_KEY_XY, XQF_KEY_XYF, XQF_KEY_XYT = 3, 8, 12, 13, 14, 15
XQF_BOARD = 16
XQF_RESULT = 51
XQF_FIELDS = {"title": (80, 63), "event": (208, 63), "date": (272, 15), "place": (288, 15),
              "red": (304, 15), "black": (320, 15)}
XQF_STREAM_TEXT = b"[(C) Copyright Mr. Dong Shiwei.]"
XQF_FROM_BIAS, XQF_TO_BIAS = 0x18, 0x20
XQF_OFF_BOARD = 0xFF

# The order in which XQF and DhtmlXQ list each side's pieces.
PIECE_ORDER = "RNBAKABNRCCPPPPP"


def legal_moves(board):
    """cchess's legal moves: its pseudo-legal moves that leave the mover out of check and do not
    take the general."""
    out = []
    for (f, t) in list(board.create_moves()):
        if not board.is_valid_move(f, t):
            continue
        target = board.get_fench(t)
        if target and target.lower() == 'k':
            continue
        if not board.is_checked_move(f, t):
            out.append((f, t))
    return out


def playout(fen, plies, seed):
    """A random game of up to `plies` moves from `fen`, as ((x, y), (x, y)) pairs."""
    rng = random.Random(seed)
    board = ChessBoard(fen)
    moves = []
    for _ in range(plies):
        options = legal_moves(board)
        if not options:
            break
        f, t = rng.choice(sorted(options))
        board.move(f, t)
        board.next_turn()
        moves.append((f, t))
    return moves


def alternative(fen, line, ply, seed):
    """Another legal move at `ply` of `line` (for a variation)."""
    board = ChessBoard(fen)
    for f, t in line[:ply]:
        board.move(f, t)
        board.next_turn()
    options = [m for m in legal_moves(board) if m != line[ply]]
    return random.Random(seed).choice(sorted(options))


def pieces_of(fen):
    """The 32-entry piece list of a FEN: (x, y) or None, in PIECE_ORDER for Red then Black."""
    board = ChessBoard(fen)
    slots = [None] * 32
    for y in range(10):
        for x in range(9):
            ch = board.get_fench((x, y))
            if not ch:
                continue
            base = 0 if ch.isupper() else 16
            for i, kind in enumerate(PIECE_ORDER):
                if kind == ch.upper() and slots[base + i] is None:
                    slots[base + i] = (x, y)
                    break
            else:
                raise ValueError(f"too many {ch} in {fen}")
    return slots


def derive(byte, previous):
    return (((((byte * byte) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8) * previous & 0xFF


def xqf_file(fen, line, version, keys, comments, variation, tags):
    """An XQF file: `keys` = (mask, or_a, or_b, or_c, or_d, sum, xy, xyf, xyt) header bytes
    (ignored up to version 10); `comments` maps a ply (0 = the start) to a text; `variation` is
    (ply, move): an alternative to the move at that ply, as the next sibling record."""
    header = bytearray(XQF_HEADER_LEN)
    header[0:2] = b"XQ"
    header[XQF_VERSION] = version
    encrypted = version > 10
    mask, or_a, or_b, or_c, or_d, ksum, kxy, kxyf, kxyt = keys
    if encrypted:
        header[XQF_KEY_MASK] = mask
        header[XQF_KEY_OR:XQF_KEY_OR + 4] = bytes([or_a, or_b, or_c, or_d])
        header[XQF_KEYS_SUM], header[XQF_KEY_XY], header[XQF_KEY_XYF], header[XQF_KEY_XYT] = \
            ksum, kxy, kxyf, kxyt
    key_xy = derive(kxy, kxy)
    key_xyf = derive(kxyf, key_xy)
    key_xyt = derive(kxyt, key_xyf)
    comment_bias = ((ksum * 256 + kxy) % 32000) + 767
    fkeys = [(ksum & mask) | or_a, (kxy & mask) | or_b, (kxyf & mask) | or_c, (kxyt & mask) | or_d]
    stream = bytes(c & fkeys[i % 4] for i, c in enumerate(XQF_STREAM_TEXT))

    codes = [XQF_OFF_BOARD if p is None else p[0] * 10 + p[1] for p in pieces_of(fen)]
    for i in range(32):
        if not encrypted:
            header[XQF_BOARD + i] = codes[i]
        else:
            piece = (key_xy + i + 1) & 0x1F if version >= 12 else i
            header[XQF_BOARD + i] = (codes[piece] + key_xy) & 0xFF
    header[XQF_RESULT] = tags.get("result_code", 0)
    for name, (offset, capacity) in XQF_FIELDS.items():
        data = tags.get(name, "").encode("gb18030")[:capacity]
        header[offset] = len(data)
        header[offset + 1:offset + 1 + len(data)] = data

    body = bytearray()

    def record(f, t, has_next, has_var, comment):
        text = comment.encode("gb18030") if comment else b""
        if encrypted:
            flags = (0x80 if has_next else 0) | (0x40 if has_var else 0) | (0x20 if text else 0)
            fb = (f + XQF_FROM_BIAS + key_xyf) & 0xFF
            tb = (t + XQF_TO_BIAS + key_xyt) & 0xFF
            body.extend([fb, tb, flags, 0])
            if text:
                body.extend(struct.pack("<I", len(text) + comment_bias))
                body.extend(text)
        else:
            flags = (0xF0 if has_next else 0) | (0x0F if has_var else 0)
            body.extend([(f + XQF_FROM_BIAS) & 0xFF, (t + XQF_TO_BIAS) & 0xFF, flags, 0])
            body.extend(struct.pack("<I", len(text)))
            body.extend(text)

    code = lambda p: p[0] * 10 + p[1]
    record(0, 0, True, False, comments.get(0))
    var_ply = variation[0] if variation else None
    for ply, (f, t) in enumerate(line):
        record(code(f), code(t), ply + 1 < len(line), ply == var_ply, comments.get(ply + 1))
    if variation:
        # The sibling comes after the whole main line (the subtree of the varied move).
        f, t = variation[1]
        record(code(f), code(t), False, False, "变着")
    if encrypted:
        body = bytes((b + stream[i % 32]) & 0xFF for i, b in enumerate(body))
    return bytes(header) + bytes(body)


def square_text(p):
    """CBF and DhtmlXQ squares: file, then row from Black's side."""
    return f"{p[0]}{9 - p[1]}"


def cbf_file(fen, line, tags):
    tags = {k: escape(v) for k, v in tags.items()}
    moves = "\n".join(f'  <Move value="{square_text(f)}-{square_text(t)}" />' for f, t in line)
    return f"""<?xml version="1.0" encoding="utf-8"?>
<ChineseChessRecord Version="1.0">
 <Head>
  <Name>{tags.get('title', '')}</Name>
  <URL />
  <Contest>{tags.get('event', '')}</Contest>
  <Date>{tags.get('date', '')}</Date>
  <Red>{tags.get('red', '')}</Red>
  <Black>{tags.get('black', '')}</Black>
  <RecordType>1</RecordType>
  <FEN>{fen}</FEN>
 </Head>
 <MoveList>
  <Move value="00-00" />
{moves}
 </MoveList>
</ChineseChessRecord>
"""


def dhtmlxq_file(fen, line, tags, with_binit, variation):
    binit = "".join("99" if p is None else square_text(p) for p in pieces_of(fen))
    movelist = "".join(square_text(f) + square_text(t) for f, t in line)
    fields = [("title", tags.get("title", "")), ("event", tags.get("event", "")),
              ("date", tags.get("date", "")), ("red", tags.get("red", "")),
              ("black", tags.get("black", "")), ("result", tags.get("result_text", ""))]
    if with_binit:
        fields.append(("binit", binit))
    fields.append(("movelist", movelist))
    if variation:
        ply, (f, t) = variation
        fields.append((f"move_0_{ply + 1}_1", square_text(f) + square_text(t)))
    body = "\n".join(f"[DhtmlXQ_{k}]{v}[/DhtmlXQ_{k}]" for k, v in fields)
    return f"<html><body>\n[DhtmlXQ]\n{body}\n[/DhtmlXQ]\n</body></html>\n"


def dhtmlxq_read(path):
    """cchess reads the two DhtmlXQ fields it knows from strings; picking them out is ours."""
    text = open(path, encoding="gb18030").read()
    pick = lambda name: (re.search(rf"\[DhtmlXQ_{name}\](.*?)\[/DhtmlXQ_{name}\]", text, re.S)
                         or [None, None])[1]
    return read_from_txt(pick("movelist"), pick("binit"))


def iccs(game):
    lines = game.dump_iccs_moves()
    return lines[0] if lines else []


ENDGAME = "3k5/4a4/4b4/9/2p6/9/6P2/4B4/4A1C2/3AK2R1 b - - 0 1"
SIDE_CANNON = "2bak4/4a4/4b1n2/p3p3p/2c6/6P2/P3P3P/2N1B4/4A4/2BAK1R2 w - - 0 1"


def main(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    players = {"red": "许银川", "black": "吕钦", "event": "全国象棋个人赛", "date": "2001-10-01",
               "title": "测试对局", "place": "北京"}
    keys = (0x5A, 0x11, 0x22, 0x44, 0x88, 0x9B, 0x37, 0xC4, 0x6E)
    zero_keys = (0,) * 9
    files = []

    def add(name, data):
        path = os.path.join(out_dir, name)
        mode = "wb" if isinstance(data, bytes) else "w"
        with open(path, mode, **({} if mode == "wb" else {"encoding": "utf-8"})) as f:
            f.write(data)
        files.append(name)

    start = FULL_INIT_FEN
    line = playout(start, 40, 1)
    add("plain.xqf", xqf_file(start, line, 10, zero_keys, {3: "好棋"}, (5, alternative(start, line, 5, 1)),
                              dict(players, result_code=1)))
    line = playout(start, 60, 2)
    add("encrypted.xqf", xqf_file(start, line, 18, keys, {0: "开局", 7: "注释"},
                                  (10, alternative(start, line, 10, 2)), dict(players, result_code=2)))
    line = playout(start, 30, 3)
    add("encrypted-v11.xqf", xqf_file(start, line, 11, keys, {2: "十一版"}, None,
                                      dict(players, result_code=3)))
    line = playout(ENDGAME, 24, 4)
    add("endgame.xqf", xqf_file(ENDGAME, line, 18, (0xFF, 0, 0, 0, 0, 0x21, 0xA5, 0x3C, 0x90), {},
                                None, {"red": "红方", "black": "黑方", "result_code": 0}))
    line = playout(start, 36, 5)
    add("game.cbf", cbf_file(start, line, players))
    line = playout(SIDE_CANNON, 20, 6)
    add("position.cbf", cbf_file(SIDE_CANNON, line, {"event": "残局 & 排局"}))
    line = playout(start, 50, 7)
    add("game.dhtmlxq", dhtmlxq_file(start, line, dict(players, result_text="红胜"), False,
                                     (4, alternative(start, line, 4, 7))))
    line = playout(ENDGAME, 16, 8)
    add("endgame.dhtmlxq", dhtmlxq_file(ENDGAME, line, {"red": "红方", "result_text": "和棋"}, True,
                                        None))

    rows = []
    for name in files:
        path = os.path.join(out_dir, name)
        if name.endswith(".xqf"):
            game = read_from_xqf(path)
            extra = [game.info.get("red", ""), game.info.get("black", ""), game.info["result"]]
        elif name.endswith(".cbf"):
            game = read_from_cbf(path)
            extra = []
        else:
            game = dhtmlxq_read(path)
            extra = []
        moves = iccs(game)
        game.verify_moves()
        fen = game.init_board.to_fen()
        rows.append("\t".join([name, fen, " ".join(moves)] + extra))
    with open(os.path.join(out_dir, "expected.tsv"), "w", encoding="utf-8") as f:
        f.write("# file\tstart (cchess)\tmain line (cchess, ICCS)\t[XQF: red\tblack\tresult]\n")
        f.write("\n".join(rows) + "\n")
    print(f"{len(files)} files, {sum(len(r.split(chr(9))[2].split()) for r in rows)} moves "
          f"read by cchess {cchess.__version__ if hasattr(cchess, '__version__') else ''}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "engine-core/tests/data/archive")
