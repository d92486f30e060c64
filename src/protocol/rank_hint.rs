//! A hint for a `position ... moves` list that fails because its ranks are counted from the
//! other base: a GUI sending cutechess-style `h3e3` (ranks 1-10) to a session expecting 0-9, or
//! the reverse. Such a list usually fails at its first move with a bare "illegal move", which
//! does not tell the user that one option would fix it.

use super::dialect::Dialect;
use crate::game::Game;
use engine_core::RankBase;

/// Whether `text` names a rank 10, which only the 1-10 numbering has (`a10a9`, `h10g8`).
fn has_rank_ten(text: &str) -> bool {
    text.as_bytes()
        .windows(3)
        .any(|w| w[0].is_ascii_alphabetic() && w[1] == b'1' && w[2] == b'0')
}

/// The hint for a move list that did not read in `base`, when it looks written in the other
/// numbering: every move legal in it, or a rank 10 where ranks are 0-9. `None` otherwise.
pub fn rank_hint(
    fen: Option<&str>,
    moves: &[String],
    base: RankBase,
    dialect: Dialect,
) -> Option<String> {
    let other = match base {
        RankBase::Zero => RankBase::One,
        RankBase::One => RankBase::Zero,
    };
    let reads_in_other = Game::from_text(fen, moves, other).is_ok();
    let rank_ten = base == RankBase::Zero && moves.iter().any(|m| has_rank_ten(m));
    if !reads_in_other && !rank_ten {
        return None;
    }
    Some(match (base, dialect) {
        (RankBase::Zero, Dialect::Uci) => "the moves look written with ranks 1-10; send \
             'setoption name RanksOneToTen value true' to use that numbering"
            .to_string(),
        (RankBase::Zero, _) => "the moves look written with ranks 1-10, but this protocol \
             counts ranks 0-9 (only UCI has the option RanksOneToTen)"
            .to_string(),
        (RankBase::One, _) => "the moves look written with ranks 0-9, but the option \
             RanksOneToTen is on; send 'setoption name RanksOneToTen value false'"
            .to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn hints_only_for_the_other_numbering() {
        let one_to_ten = list(&["h3e3", "h10g8"]);
        let hint = rank_hint(None, &one_to_ten, RankBase::Zero, Dialect::Uci).expect("a hint");
        assert!(hint.contains("RanksOneToTen value true"), "{hint}");
        let ucci = rank_hint(None, &one_to_ten, RankBase::Zero, Dialect::Ucci).expect("a hint");
        assert!(ucci.contains("ranks 0-9"), "{ucci}");
        let zero_to_nine = list(&["h2e2", "h9g7"]);
        let back = rank_hint(None, &zero_to_nine, RankBase::One, Dialect::Uci).expect("a hint");
        assert!(back.contains("value false"), "{back}");
        assert_eq!(
            rank_hint(None, &list(&["h2h8"]), RankBase::Zero, Dialect::Uci),
            None
        );
        assert!(rank_hint(None, &list(&["a10a9"]), RankBase::Zero, Dialect::Uci).is_some());
    }
}
