//! Property tests: random games must keep every incremental invariant of `Position`, and no input
//! string may panic the FEN or move-text parsers.

use engine_core::{parse_move, Move, Position, RankBase, START_FEN};
use proptest::prelude::*;

/// Plays a random legal game from the start position, choosing moves by `choices`, and checks
/// the invariants at every ply. Returns the visited positions' FENs.
fn play_and_check(choices: &[u16]) -> Vec<String> {
    let mut pos = Position::startpos();
    let mut fens = vec![pos.to_fen()];
    let mut stack: Vec<(Move, engine_core::Undo, Position)> = Vec::new();
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Generator consistency.
        assert_eq!(pos.count_legal_moves(), moves.len() as u64);
        let captures = pos.legal_captures();
        let quiets = pos.legal_quiets();
        assert_eq!(captures.len() + quiets.len(), moves.len());
        for m in captures.iter().chain(quiets.iter()) {
            assert!(moves.contains(m));
        }
        if pos.in_check() {
            assert_eq!(pos.check_evasions().len(), moves.len());
        } else {
            assert!(pos.check_evasions().is_empty());
        }
        // is_legal agrees with the generator on every move of every piece's square pair sample.
        // gives_check agrees with making the move, for every legal move (its early exit for
        // moves far from the opponent's general included).
        for &m in &moves {
            assert!(
                pos.is_legal(m),
                "{m} generated but not is_legal in {}",
                pos.to_fen()
            );
            let mut after = pos.clone();
            after.make_move(m);
            assert_eq!(
                pos.gives_check(m),
                after.in_check(),
                "gives_check({m}) in {}",
                pos.to_fen()
            );
        }
        let probe = Move::from_raw(c.wrapping_mul(40503) & 0x3FFF);
        if let Some(p) = probe {
            assert_eq!(
                pos.is_legal(p),
                moves.contains(&p),
                "is_legal({p}) in {}",
                pos.to_fen()
            );
        }

        let mv = moves[c as usize % moves.len()];
        let before = pos.clone();
        let gives_check = pos.gives_check(mv);
        let undo = pos.make_move(mv);
        assert_eq!(pos.key(), pos.compute_key(), "incremental key after {mv}");
        // The undo record says what changed, for incremental evaluation.
        assert_eq!(
            undo.moved,
            before.piece_at(mv.from()),
            "moved piece of {mv}"
        );
        assert_eq!(
            undo.captured,
            before.piece_at(mv.to()),
            "captured piece of {mv}"
        );
        assert_eq!(pos.piece_at(mv.to()), undo.moved);
        assert_eq!(pos.piece_at(mv.from()), None);
        assert_eq!(
            pos.in_check(),
            gives_check,
            "gives_check({mv}) in {}",
            before.to_fen()
        );
        let fen = pos.to_fen();
        let reparsed = Position::from_fen(&fen).expect("own FEN parses");
        assert_eq!(reparsed.to_fen(), fen);
        assert_eq!(reparsed.key(), pos.key());
        assert_eq!(reparsed.checkers(), pos.checkers());
        fens.push(fen);
        stack.push((mv, undo, before));
    }
    // Unwind: every unmake restores the exact earlier position and key.
    while let Some((mv, undo, before)) = stack.pop() {
        pos.unmake_move(mv, undo);
        assert_eq!(pos, before);
        assert_eq!(pos.key(), before.key());
        assert_eq!(pos.checkers(), before.checkers());
        assert_eq!(pos.occupied(), before.occupied());
    }
    assert_eq!(pos.to_fen(), START_FEN);
    fens
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_invariants(choices in prop::collection::vec(any::<u16>(), 0..200)) {
        play_and_check(&choices);
    }

    #[test]
    fn null_move_restores(choices in prop::collection::vec(any::<u16>(), 0..60)) {
        let mut pos = Position::startpos();
        for c in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() { break; }
            if !pos.in_check() {
                let before = pos.clone();
                let undo = pos.make_null();
                prop_assert_eq!((undo.moved, undo.captured), (None, None));
                prop_assert_eq!(pos.key(), pos.compute_key());
                prop_assert_ne!(pos.side_to_move(), before.side_to_move());
                pos.unmake_null(undo);
                prop_assert_eq!(&pos, &before);
                prop_assert_eq!(pos.key(), before.key());
            }
            pos.make_move(moves[c as usize % moves.len()]);
        }
    }

    #[test]
    fn fen_parser_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..120)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = Position::from_fen(&text);
    }

    #[test]
    fn fen_parser_never_panics_on_fen_like_text(text in "[rnbakcpRNBAKCPHEhe1-9/ wb-]{0,100}") {
        if let Ok(pos) = Position::from_fen(&text) {
            // Whatever it accepts must be a consistent position that round-trips.
            let again = Position::from_fen(&pos.to_fen()).expect("canonical FEN parses");
            prop_assert_eq!(again.to_fen(), pos.to_fen());
            prop_assert_eq!(pos.key(), pos.compute_key());
            let _ = pos.legal_moves();
        }
    }

    #[test]
    fn move_parsers_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..12), base in any::<bool>()) {
        let text = String::from_utf8_lossy(&bytes);
        let base = if base { RankBase::One } else { RankBase::Zero };
        let _ = parse_move(&text, base);
        let _ = Position::startpos().parse_move(&text, base);
    }

    #[test]
    fn move_text_round_trips(raw in 0u16..0x4000, base in any::<bool>()) {
        let base = if base { RankBase::One } else { RankBase::Zero };
        if let Some(m) = Move::from_raw(raw) {
            if m.from() != m.to() {
                prop_assert_eq!(parse_move(&engine_core::move_text(m, base), base), Ok(m));
            }
        }
    }
}

#[test]
fn long_random_games_to_the_end() {
    // Deterministic long games (a simple LCG), reaching endgames, mates and stalemates.
    let mut seed: u64 = 0x5EED;
    for _ in 0..30 {
        let choices: Vec<u16> = (0..400)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (seed >> 33) as u16
            })
            .collect();
        play_and_check(&choices);
    }
}
