//! Differential test against an independent implementation: the WXF text Fairy-Stockfish writes
//! (pyffish `get_san(..., NOTATION_XIANGQI_WXF)`) for 6000 random legal moves of pieces that do
//! not share their file, recorded by `tests/data/gen_wxf_oracle.py`.

use engine_core::{parse_move, Notation, Position, RankBase};

const ORACLE: &str = include_str!("../data/wxf_oracle.tsv");

/// The oracle must cover at least this many moves.
const MIN_MOVES: usize = 5000;

#[test]
fn wxf_text_matches_fairy_stockfish_and_reads_back() {
    let mut checked = 0;
    let mut mismatches = Vec::new();
    for line in ORACLE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 3, "oracle line: {line}");
        let (fen, iccs, expected) = (cols[0], cols[1], cols[2]);
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mv = parse_move(iccs, RankBase::Zero).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(pos.is_legal(mv), "{iccs} not legal in {fen}");
        let ours = Notation::Wxf.format(&pos, mv);
        if ours != expected {
            mismatches.push(format!(
                "{fen} {iccs}: ours {ours}, Fairy-Stockfish {expected}"
            ));
        }
        assert_eq!(
            Notation::Wxf.parse(&pos, expected),
            Ok(mv),
            "{fen} {expected}"
        );
        checked += 1;
    }
    assert!(
        mismatches.is_empty(),
        "{} of {checked} differ:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    assert!(checked >= MIN_MOVES, "oracle has only {checked} moves");
}
