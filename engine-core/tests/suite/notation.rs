//! Move text in every notation: hand-written cases for pieces sharing a file (from the WXF's
//! published conventions, the xqbase standard for Chinese text and the Law's Điều 11 examples),
//! typed errors, and round trips on random legal positions.

use engine_core::{Color, Move, MoveTextError, Notation, PieceKind, Position, RankBase, Square};
use proptest::prelude::*;

const ICCS: Notation = Notation::Iccs(RankBase::Zero);
const WXF: Notation = Notation::Wxf;
const CHINESE: Notation = Notation::Chinese;
const VIETNAMESE: Notation = Notation::Vietnamese;
const ASIAN: Notation = Notation::VietnameseAsian;

/// Ranks x files of a board being built, `None` for an empty point.
type Grid = [[Option<char>; 9]; 10];

/// The FEN of a grid with `side` to move, if it is a legal position.
fn position_of(grid: &Grid, side: Color) -> Result<Position, String> {
    let mut fen = String::new();
    for rank in (0..10).rev() {
        let mut empty = 0;
        for cell in grid[rank] {
            match cell {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c);
                }
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if side == Color::Red { " w" } else { " b" });
    Position::from_fen(&fen).map_err(|e| format!("{fen}: {e}"))
}

/// A position from a list of pieces such as `"K e0 k f9 R g6"` (FEN letters, ICCS squares).
fn board(pieces: &str, side: Color) -> Position {
    let mut grid: Grid = [[None; 9]; 10];
    let words: Vec<&str> = pieces.split_whitespace().collect();
    for pair in words.chunks(2) {
        let letter = pair[0].chars().next().expect("piece letter");
        let sq = Square::parse(pair[1], 0).expect("square");
        grid[sq.rank() as usize][sq.file() as usize] = Some(letter);
    }
    position_of(&grid, side).unwrap_or_else(|e| panic!("{e}"))
}

fn iccs(pos: &Position, text: &str) -> Move {
    ICCS.parse(pos, text)
        .unwrap_or_else(|e| panic!("{text} in {pos:?}: {e}"))
}

/// Checks the text of `mv` in WXF, Chinese, Vietnamese and the Asian variant, and that each
/// reads back.
fn check(pos: &Position, mv: &str, expected: [&str; 4]) {
    let mv = iccs(pos, mv);
    for (notation, text) in [WXF, CHINESE, VIETNAMESE, ASIAN].into_iter().zip(expected) {
        assert_eq!(
            notation.format(pos, mv),
            text,
            "{notation} of {mv} in {pos:?}"
        );
        assert_eq!(
            notation.parse(pos, text),
            Ok(mv),
            "{notation} '{text}' in {pos:?}"
        );
    }
}

/// Checks that `text` reads as `mv` in `notation` (forms the formatter does not write).
fn reads(pos: &Position, notation: Notation, text: &str, mv: &str) {
    assert_eq!(
        notation.parse(pos, text),
        Ok(iccs(pos, mv)),
        "{notation} '{text}'"
    );
}

#[test]
fn opening_moves() {
    let mut pos = Position::startpos();
    check(&pos, "h2e2", ["C2=5", "炮二平五", "P2-5", "P2=5"]);
    check(&pos, "h0g2", ["H2+3", "马二进三", "M2.3", "M2+3"]);
    check(&pos, "i0i1", ["R1+1", "车一进一", "X1.1", "X1+1"]);
    check(&pos, "g3g4", ["P3+1", "兵三进一", "B3.1", "B3+1"]);
    check(&pos, "g0e2", ["E3+5", "相三进五", "T3.5", "T3+5"]);
    check(&pos, "f0e1", ["A4+5", "仕四进五", "S4.5", "S4+5"]);
    check(&pos, "e0e1", ["K5+1", "帅五进一", "Tg5.1", "Tg5+1"]);
    pos.make_move(iccs(&pos, "h2e2"));
    check(&pos, "h9g7", ["H8+7", "马8进7", "M8.7", "M8+7"]);
    check(&pos, "b7e7", ["C2=5", "炮2平5", "P2-5", "P2=5"]);
    check(&pos, "i9i7", ["R9+2", "车9进2", "X9.2", "X9+2"]);
    check(&pos, "d9e8", ["A4+5", "士4进5", "S4.5", "S4+5"]);
    check(&pos, "c9e7", ["E3+5", "象3进5", "T3.5", "T3+5"]);
    pos.make_move(iccs(&pos, "h7h3"));
    // Black's cannon took a soldier; Red's cannon on its file 5 retreats.
    check(&pos, "e2e1", ["C5-1", "炮五退一", "P5/1", "P5.1"]);
}

/// The Law's examples (Điều 11 and the scoresheet of Appendix 4), played from the start.
#[test]
fn law_examples_read_and_write() {
    for (record, iccs_moves) in [
        ("P2-5 M2.3 M8.7 P8-5", "h2e2 b9c7 b0c2 h7e7"),
        ("P2-5 M8.7 M2.3 P2-4", "h2e2 h9g7 h0g2 b7d7"),
    ] {
        let mut pos = Position::startpos();
        for (text, mv) in record.split(' ').zip(iccs_moves.split(' ')) {
            let mv = iccs(&pos, mv);
            assert_eq!(VIETNAMESE.parse(&pos, text), Ok(mv), "{text}");
            assert_eq!(VIETNAMESE.format(&pos, mv), text);
            pos.make_move(mv);
        }
    }
}

#[test]
fn two_pieces_on_a_file() {
    // Red chariots on g6 (front) and g2, file 3.
    let pos = board("K e0 k d9 R g6 R g2", Color::Red);
    check(&pos, "g6f6", ["R+=4", "前车平四", "Xt-4", "Xt=4"]);
    check(&pos, "g2g1", ["R--1", "后车退一", "Xs/1", "Xs.1"]);
    check(&pos, "g6g9", ["R++3", "前车进三", "Xt.3", "Xt+3"]);
    // The WXF's pages write sideways with '.', and some write the mark first.
    reads(&pos, WXF, "R+.4", "g6f6");
    reads(&pos, WXF, "+R=4", "g6f6");
    reads(&pos, WXF, "-R-1", "g2g1");
    reads(&pos, WXF, "r--1", "g2g1");
    reads(&pos, CHINESE, "车前平四", "g6f6");
    reads(&pos, CHINESE, "後車退一", "g2g1");
    // The file alone does not say which: both chariots can reach file 4.
    for (notation, text) in [(WXF, "R3=4"), (CHINESE, "车三平四"), (VIETNAMESE, "X3-4")] {
        match notation.parse(&pos, text) {
            Err(MoveTextError::Ambiguous { candidates, .. }) => {
                assert_eq!(candidates.len(), 2, "{text}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    // Unless only one of them can make the move.
    reads(&pos, WXF, "R3-3", "g6g3");

    // Black chariots on d3 (front: nearer Red) and d8, Black's file 4.
    let pos = board("K f0 k e9 r d3 r d8", Color::Black);
    check(&pos, "d3d1", ["R++2", "前车进2", "Xt.2", "Xt+2"]);
    check(&pos, "d8f8", ["R-=6", "后车平6", "Xs-6", "Xs=6"]);

    // Red horses on c4 (front) and c2, file 7; cannons on h2 and h5, file 2.
    let pos = board("K e0 k d9 N c4 N c2 C h5 C h2", Color::Red);
    check(&pos, "c4d6", ["H++6", "前马进六", "Mt.6", "Mt+6"]);
    check(&pos, "c2a1", ["H--9", "后马退九", "Ms/9", "Ms.9"]);
    check(&pos, "h2e2", ["C-=5", "后炮平五", "Ps-5", "Ps=5"]);
    check(&pos, "h5h3", ["C+-2", "前炮退二", "Pt/2", "Pt.2"]);
}

/// Advisors and elephants keep their file: the direction already says which one moves.
#[test]
fn advisors_and_elephants_keep_their_file() {
    let pos = board("K e0 k d9 A d0 A d2 B c0 B c4", Color::Red);
    check(&pos, "d0e1", ["A6+5", "仕六进五", "S6.5", "S6+5"]);
    check(&pos, "d2e1", ["A6-5", "仕六退五", "S6/5", "S6.5"]);
    check(&pos, "c0a2", ["E7+9", "相七进九", "T7.9", "T7+9"]);
    check(&pos, "c4a2", ["E7-9", "相七退九", "T7/9", "T7.9"]);
    reads(&pos, WXF, "A-+5", "d0e1");
    reads(&pos, CHINESE, "前相退九", "c4a2");
}

#[test]
fn soldiers_two_and_three_on_a_file() {
    let pos = board("K e0 k f9 P c5 P c6", Color::Red);
    check(&pos, "c6c7", ["P++1", "前兵进一", "Bt.1", "Bt+1"]);
    check(&pos, "c5d5", ["P-=6", "后兵平六", "Bs-6", "Bs=6"]);

    let pos = board("K e0 k f9 P c5 P c6 P c7", Color::Red);
    check(&pos, "c7c8", ["P++1", "前兵进一", "Bt.1", "Bt+1"]);
    // The middle one of three keeps its file in WXF, and is 中 / g.
    check(&pos, "c6b6", ["P7=8", "中兵平八", "Bg-8", "Bg=8"]);
    check(&pos, "c5d5", ["P-=6", "后兵平六", "Bs-6", "Bs=6"]);
    reads(&pos, WXF, "P7.8", "c6b6");

    // The Law's examples: "Bg.1" (middle soldier advances) and "Bt-3" (front one sideways).
    let pos = board("K e0 k d9 P f5 P f6 P f8", Color::Red);
    reads(&pos, VIETNAMESE, "Bg.1", "f6f7");
    reads(&pos, VIETNAMESE, "Bt-3", "f8g8");
}

#[test]
fn soldiers_four_and_five_on_a_file() {
    let pos = board("K e0 k f9 P c5 P c6 P c7 P c8", Color::Red);
    check(&pos, "c8c9", ["+++1", "一兵进一", "Btt.1", "Btt+1"]);
    check(&pos, "c7d7", ["P+=6", "二兵平六", "Bt-6", "Bt=6"]);
    check(&pos, "c6b6", ["P-=8", "三兵平八", "Bs-8", "Bs=8"]);
    check(&pos, "c5d5", ["--=6", "四兵平六", "Bss-6", "Bss=6"]);
    // The traditional 前 ... 后 for the foremost and rearmost.
    reads(&pos, CHINESE, "前兵进一", "c8c9");
    reads(&pos, CHINESE, "后兵平六", "c5d5");

    let pos = board("K e0 k f9 P c5 P c6 P c7 P c8 P c9", Color::Red);
    check(&pos, "c9b9", ["++=8", "一兵平八", "Btt-8", "Btt=8"]);
    check(&pos, "c8d8", ["P+=6", "二兵平六", "Bt-6", "Bt=6"]);
    check(&pos, "c7b7", ["P7=8", "三兵平八", "Bg-8", "Bg=8"]);
    check(&pos, "c6d6", ["P-=6", "四兵平六", "Bs-6", "Bs=6"]);
    check(&pos, "c5b5", ["--=8", "五兵平八", "Bss-8", "Bss=8"]);
    reads(&pos, CHINESE, "中兵平八", "c7b7");

    // Black numbers the same way from its own front; ordinals stay Chinese numerals.
    let pos = board("K d0 k e9 p g4 p g3 p g2 p g1", Color::Black);
    check(&pos, "g1h1", ["++=8", "一卒平8", "Btt-8", "Btt=8"]);
    check(&pos, "g4f4", ["--=6", "四卒平6", "Bss-6", "Bss=6"]);
    reads(&pos, CHINESE, "1卒平8", "g1h1");
}

#[test]
fn soldiers_on_two_files() {
    // Red: file 3 (g) holds g6, g5; file 7 (c) holds c7, c6, c5. Chinese numbers them from
    // Red's right, each file front to back: g6 一, g5 二, c7 三, c6 四, c5 五.
    let pos = board("K e0 k f9 P g6 P g5 P c7 P c6 P c5", Color::Red);
    check(&pos, "g6g7", ["3++1", "一兵进一", "B3t.1", "B3t+1"]);
    check(&pos, "g5f5", ["3-=4", "二兵平四", "B3s-4", "B3s=4"]);
    check(&pos, "c7c8", ["7++1", "三兵进一", "B7t.1", "B7t+1"]);
    check(&pos, "c6b6", ["77=8", "四兵平八", "B7g-8", "B7g=8"]);
    check(&pos, "c5d5", ["7-=6", "五兵平六", "B7s-6", "B7s=6"]);
    // Older Chinese forms keep the file: 前兵三进一, or 前三进一 without the piece.
    reads(&pos, CHINESE, "前兵三进一", "g6g7");
    reads(&pos, CHINESE, "前三进一", "g6g7");
    reads(&pos, CHINESE, "后兵七平六", "c5d5");
    reads(&pos, WXF, "77.8", "c6b6");
    // 前兵 alone names the front soldier of both files, and both can advance.
    assert!(matches!(
        CHINESE.parse(&pos, "前兵进一"),
        Err(MoveTextError::Ambiguous { .. })
    ));
    // A soldier alone on its file keeps plain text even when others share files.
    let pos = board("K e0 k f9 P g6 P g5 P c6 P c5 P a6", Color::Red);
    check(&pos, "a6a7", ["P9+1", "兵九进一", "B9.1", "B9+1"]);

    // Black: file 2 (b) holds b3 (front) and b4; file 8 (h) holds h3 and h4.
    let pos = board("K d0 k e9 p b4 p b3 p h4 p h3", Color::Black);
    check(&pos, "b3b2", ["2++1", "一卒进1", "B2t.1", "B2t+1"]);
    check(&pos, "h4g4", ["8-=7", "四卒平7", "B8s-7", "B8s=7"]);
}

#[test]
fn traditional_characters_and_full_width_digits() {
    let mut pos = Position::startpos();
    reads(&pos, CHINESE, "傌二進三", "h0g2");
    reads(&pos, CHINESE, "俥一進一", "i0i1");
    reads(&pos, CHINESE, "炮二平五", "h2e2");
    reads(&pos, CHINESE, "帥五進一", "e0e1");
    pos.make_move(iccs(&pos, "h2e2"));
    reads(&pos, CHINESE, "馬８進７", "h9g7");
    reads(&pos, CHINESE, "砲8平5", "h7e7");
    reads(&pos, CHINESE, "包８平５", "h7e7");
    reads(&pos, CHINESE, "車9進1", "i9i8");
    reads(&pos, CHINESE, "將5進1", "e9e8");
    reads(&pos, CHINESE, "马八进七", "h9g7");
    reads(&pos, WXF, "Ｈ８＋７", "h9g7");
    reads(&pos, WXF, "n8+7", "h9g7");
    reads(&pos, VIETNAMESE, "m8.7", "h9g7");
    reads(&pos, VIETNAMESE, "X9.1", "i9i8");
}

#[test]
fn errors_are_typed() {
    let pos = Position::startpos();
    let malformed = [
        (ICCS, "z2e2"),
        (WXF, "C2*5"),
        (WXF, "C2=55"),
        (WXF, "Q2=5"),
        (WXF, "C0=5"),
        (CHINESE, "炮二走五"),
        (CHINESE, "炮二平"),
        (CHINESE, "王二平五"),
        (VIETNAMESE, "P2=5"),
        (VIETNAMESE, "Q2-5"),
        (ASIAN, "P2-5"),
        (ASIAN, "P2/5"),
    ];
    for (notation, text) in malformed {
        match notation.parse(&pos, text) {
            Err(MoveTextError::Malformed { notation: n, .. }) => assert_eq!(n, notation),
            other => panic!("{notation} '{text}': {other:?}"),
        }
    }
    let illegal = [
        (ICCS, "h2h8", None),
        (WXF, "R5+1", Some("no Red chariot on file 5")),
        (WXF, "C2=2", Some("cannot move so")),
        (WXF, "H2=3", Some("cannot move so")),
        (WXF, "R+=3", Some("sharing a file")),
        (CHINESE, "车五进一", Some("no Red chariot on file 5")),
        (CHINESE, "炮二进八", Some("cannot move so")),
        (VIETNAMESE, "X9.9", Some("cannot move so")),
        (ASIAN, "M2+4", Some("cannot move so")),
    ];
    for (notation, text, reason) in illegal {
        match notation.parse(&pos, text) {
            Err(e @ MoveTextError::Illegal { .. }) => {
                if let Some(r) = reason {
                    assert!(e.to_string().contains(r), "{notation} '{text}': {e}");
                }
            }
            other => panic!("{notation} '{text}': {other:?}"),
        }
    }
    let e = WXF.parse(&pos, "R5+1").unwrap_err();
    assert_eq!(e.text(), "R5+1");
    assert_eq!(e.notation(), WXF);
    assert_eq!(
        e.to_string(),
        "'R5+1' is not a legal move here (WXF notation: no Red chariot on file 5)"
    );
    assert_eq!(
        CHINESE.parse(&pos, "炮二走五").unwrap_err().to_string(),
        "'炮二走五' is not a move in Chinese notation (e.g. 炮二平五)"
    );
}

#[test]
fn notation_names() {
    for name in Notation::NAMES {
        let n: Notation = name.parse().expect("known name");
        assert_eq!(n.name(), name);
        assert_eq!(n.to_string(), name);
    }
    assert_eq!("WXF".parse::<Notation>(), Ok(WXF));
    assert_eq!("iccs".parse::<Notation>(), Ok(ICCS));
    let err = "klingon".parse::<Notation>().unwrap_err();
    assert!(err.to_string().contains("wxf"), "{err}");
    for n in Notation::ALL {
        let pos = Position::startpos();
        assert_eq!(n.parse(&pos, n.example()), Ok(iccs(&pos, "h2e2")), "{n:?}");
    }
}

#[test]
fn lines_and_glued_record_tokens() {
    let pos = Position::startpos();
    let line: Vec<Move> = ["h2e2", "h9g7", "h0g2"]
        .iter()
        .scan(pos.clone(), |p, t| {
            let m = iccs(p, t);
            p.make_move(m);
            Some(m)
        })
        .collect();
    assert_eq!(
        CHINESE.format_line(&pos, &line),
        ["炮二平五", "马8进7", "马二进三"]
    );
    // An illegal move ends the line.
    let mut bad = line.clone();
    bad.insert(1, iccs(&pos, "h2e2"));
    assert_eq!(WXF.format_line(&pos, &bad), ["C2=5"]);
    assert_eq!(VIETNAMESE.split_glued("X3-2-"), ["X3-2"]);
    assert_eq!(VIETNAMESE.split_glued("-Pt.1"), ["Pt.1"]);
    assert_eq!(VIETNAMESE.split_glued("P9.1-Tg6.1"), ["P9.1", "Tg6.1"]);
    assert_eq!(VIETNAMESE.split_glued("X4/1–Pt.1"), ["X4/1", "Pt.1"]);
    assert_eq!(VIETNAMESE.split_glued("h2e2"), ["h2e2"]);
    assert_eq!(WXF.split_glued("C2=5-"), ["C2=5-"]);
}

/// A random legal position: a random game from the start (`choices` pick the moves).
fn random_game_position(choices: &[u16]) -> Position {
    let mut pos = Position::startpos();
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves[c as usize % moves.len()]);
    }
    pos
}

/// A random legal position built piece by piece, with soldiers crowded onto few files so that
/// pieces sharing a file (two, three, four or five soldiers, two files of them) are common.
fn random_crowded_position(seed: &[u8]) -> Option<Position> {
    let mut next = seed.iter().copied().cycle();
    let mut take = |n: u8| next.next().unwrap_or(0) % n;
    let mut grid: Grid = [[None; 9]; 10];
    let place = |grid: &mut Grid, c: char, file: u8, rank: u8| {
        let cell = &mut grid[rank as usize][file as usize];
        if cell.is_none() {
            *cell = Some(c);
        }
    };
    for color in Color::BOTH {
        // Ranks from the owner's side.
        let own = |r: u8| if color == Color::Red { r } else { 9 - r };
        let letter = |k: PieceKind| {
            let l = k.letter();
            if color == Color::Red {
                l
            } else {
                l.to_ascii_lowercase()
            }
        };
        place(
            &mut grid,
            letter(PieceKind::General),
            3 + take(3),
            own(take(3)),
        );
        for _ in 0..take(3) {
            let (f, r) = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)][take(5) as usize];
            place(&mut grid, letter(PieceKind::Advisor), f, own(r));
        }
        for _ in 0..take(3) {
            let (f, r) = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)][take(7) as usize];
            place(&mut grid, letter(PieceKind::Elephant), f, own(r));
        }
        for kind in [PieceKind::Horse, PieceKind::Chariot, PieceKind::Cannon] {
            // Two files for both pieces of the kind, so they often share one.
            let files = [take(9), take(9)];
            for _ in 0..take(3) {
                place(&mut grid, letter(kind), files[take(2) as usize], take(10));
            }
        }
        // One or two files, filled from a random rank across the river.
        let first = take(9);
        let soldier_files = [first, if take(2) == 0 { first } else { take(9) }];
        for _ in 0..take(6) {
            let file = soldier_files[take(2) as usize];
            let start = take(5);
            if let Some(r) = (0..5)
                .map(|i| own(5 + (start + i) % 5))
                .find(|&r| grid[r as usize][file as usize].is_none())
            {
                place(&mut grid, letter(PieceKind::Soldier), file, r);
            }
        }
    }
    let side = if take(2) == 0 {
        Color::Red
    } else {
        Color::Black
    };
    position_of(&grid, side).ok()
}

/// Every legal move of `pos` written in every notation reads back as itself.
fn round_trip_all(pos: &Position) -> Result<(), TestCaseError> {
    for notation in Notation::ALL {
        for &mv in pos.legal_moves().iter() {
            let text = notation.format(pos, mv);
            prop_assert_eq!(
                notation.parse(pos, &text),
                Ok(mv),
                "{} '{}' of {} in {:?}",
                notation,
                text,
                mv,
                pos
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_notation_round_trips_in_random_games(choices in proptest::collection::vec(any::<u16>(), 0..160)) {
        round_trip_all(&random_game_position(&choices))?;
    }

    #[test]
    fn every_notation_round_trips_with_crowded_files(seed in proptest::collection::vec(any::<u8>(), 64)) {
        if let Some(pos) = random_crowded_position(&seed) {
            round_trip_all(&pos)?;
        }
    }

    #[test]
    fn parsers_never_panic(text in "\\PC{0,12}", choices in proptest::collection::vec(any::<u16>(), 0..40)) {
        let pos = random_game_position(&choices);
        for notation in Notation::ALL {
            if let Ok(mv) = notation.parse(&pos, &text) {
                prop_assert!(pos.is_legal(mv));
            }
            let _ = notation.split_glued(&text);
        }
    }
}

/// The crowded-position generator does produce the cases it exists for.
#[test]
fn crowded_positions_cover_shared_files() {
    let mut seen = [false; 6];
    for seed in 0..3000u32 {
        let bytes: Vec<u8> = (0..64u32)
            .map(|i| (seed.wrapping_mul(2_654_435_761).wrapping_add(i * 40_503) >> 13) as u8)
            .collect();
        let Some(pos) = random_crowded_position(&bytes) else {
            continue;
        };
        for &mv in pos.legal_moves().iter() {
            let text = WXF.format(&pos, mv);
            let chars: Vec<char> = text.chars().collect();
            let kind = [
                chars[1] == '+' || chars[1] == '-',
                chars[0] == chars[1] && chars[0] == '+',
                chars[0].is_ascii_digit() && !chars[1].is_ascii_digit(),
                chars[0].is_ascii_digit() && chars[1].is_ascii_digit(),
                chars[0] == 'P' && CHINESE.format(&pos, mv).starts_with('中'),
                CHINESE.format(&pos, mv).starts_with('五'),
            ];
            for (s, k) in seen.iter_mut().zip(kind) {
                *s |= k;
            }
        }
        round_trip_all(&pos).expect("round trip");
    }
    assert_eq!(
        seen, [true; 6],
        "front/rear, ++, two files, middle of two files, 中, 五"
    );
}
