//! Differential test against an independent implementation: Fairy-Stockfish's legal moves,
//! checking moves and perft(3) for 1000 positions from random playouts, recorded by
//! `tests/data/gen_pyffish_oracle.py`.

use engine_core::{move_text, perft, Position, RankBase};

const ORACLE: &str = include_str!("../data/pyffish_oracle.tsv");

fn sorted_words(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_ascii_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

#[test]
fn legal_moves_checks_and_perft3_match_fairy_stockfish() {
    let mut positions = 0;
    for line in ORACLE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 4, "oracle line: {line}");
        let (fen, legal, checking, perft3) = (cols[0], cols[1], cols[2], cols[3]);
        let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));

        let mut ours: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|&m| move_text(m, RankBase::Zero))
            .collect();
        ours.sort();
        assert_eq!(ours, sorted_words(legal), "legal moves of {fen}");

        let mut ours_checking: Vec<String> = pos
            .legal_moves()
            .iter()
            .filter(|&&m| pos.gives_check(m))
            .map(|&m| move_text(m, RankBase::Zero))
            .collect();
        ours_checking.sort();
        assert_eq!(
            ours_checking,
            sorted_words(checking),
            "checking moves of {fen}"
        );

        let expected: u64 = perft3.parse().expect("perft(3) column");
        assert_eq!(perft(&mut pos, 3), expected, "perft 3 of {fen}");
        positions += 1;
    }
    assert!(positions >= 1000, "oracle has only {positions} positions");
}
