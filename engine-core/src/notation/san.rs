//! Standard algebraic notation as chess-minded programs write xiangqi: XBoard (`Hc7`, `Ege2`,
//! `Cxh9`, `E0e2`, `fe2+`, ranks 0-9, H/E letters) and cutechess (`Nc3`, `Bge8`, `Kd10`, ranks
//! 1-10, N/B letters). A piece letter (none for a soldier), the origin's file or rank or both
//! when they are needed to tell two pieces apart, `x` for a capture, the destination square,
//! `+` check and `#` mate.
//!
//! Read leniently: either letter for horse and elephant, `P` for a soldier too, `:` for `x`, an
//! `x` or check mark that is missing or superfluous, `!`/`?` annotation suffixes. The letters
//! say what moves, so only legal moves that fit them are taken: none is illegal, several
//! ambiguous. Written as XBoard writes it for ranks 0-9 and as cutechess writes it for 1-10.

use super::iccs::RankBase;
use super::{MoveTextError, Notation};
use crate::moves::Move;
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::Square;

/// The letter of `kind`: XBoard's H/E with ranks 0-9, cutechess's N/B with ranks 1-10.
fn letter(kind: PieceKind, base: RankBase) -> char {
    match (kind, base) {
        (PieceKind::Elephant, RankBase::Zero) => 'E',
        (PieceKind::Horse, RankBase::Zero) => 'H',
        (kind, _) => kind.letter(),
    }
}

/// What a SAN text says about a move.
struct Pattern {
    kind: PieceKind,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Square,
}

/// The file of an ASCII lower-case letter a-i.
fn file_of(b: u8) -> Option<u8> {
    (b'a'..=b'i').contains(&b).then(|| b - b'a')
}

/// Reads the grammar (not the position) of `text`.
fn pattern(text: &str, base: RankBase) -> Option<Pattern> {
    let t = text.trim_end_matches(['+', '#', '!', '?']);
    if !t.is_ascii() || t.is_empty() {
        return None;
    }
    let bytes = t.as_bytes();
    // The destination: a file letter and the rank digits that end the text.
    let digits = bytes
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 || digits > 2 || bytes.len() < digits + 1 {
        return None;
    }
    let dest_at = bytes.len() - digits - 1;
    let to = Square::parse(&t[dest_at..], base.offset())?;
    file_of(bytes[dest_at])?;
    let mut rest = &bytes[..dest_at];
    if let Some((&last, before)) = rest.split_last() {
        if matches!(last, b'x' | b':' | b'-') {
            rest = before;
        }
    }
    let (kind, rest) = match rest.split_first() {
        Some((&c, after)) if c.is_ascii_uppercase() => (PieceKind::from_letter(c as char)?, after),
        _ => (PieceKind::Soldier, rest),
    };
    let (from_file, rest) = match rest.split_first() {
        Some((&c, after)) if c.is_ascii_lowercase() => (Some(file_of(c)?), after),
        _ => (None, rest),
    };
    let from_rank = if rest.is_empty() {
        None
    } else {
        let text = std::str::from_utf8(rest).ok()?;
        if !rest.iter().all(u8::is_ascii_digit) || rest.len() > 2 {
            return None;
        }
        let number: u8 = text.parse().ok()?;
        Some(number.checked_sub(base.offset()).filter(|&r| r < 10)?)
    };
    Some(Pattern {
        kind,
        from_file,
        from_rank,
        to,
    })
}

/// Reads `text` as a legal move in `pos`.
pub(super) fn parse(pos: &Position, text: &str, base: RankBase) -> Result<Move, MoveTextError> {
    let notation = Notation::San(base);
    let normalized = super::relative::normalize(text);
    let p = pattern(&normalized, base).ok_or_else(|| MoveTextError::malformed(text, notation))?;
    let fits: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|&mv| {
            mv.to() == p.to
                && pos
                    .piece_at(mv.from())
                    .is_some_and(|pc| pc.kind() == p.kind)
                && p.from_file.is_none_or(|f| mv.from().file() == f)
                && p.from_rank.is_none_or(|r| mv.from().rank() == r)
        })
        .collect();
    match fits.as_slice() {
        [mv] => Ok(*mv),
        [] => Err(MoveTextError::illegal(
            text,
            notation,
            Some(format!("no {} can move there", p.kind.name())),
        )),
        _ => Err(MoveTextError::ambiguous(text, notation, fits)),
    }
}

/// The SAN text of `mv` (legal in `pos`); `None` when its origin holds no piece of the side to
/// move.
pub(super) fn format(pos: &Position, mv: Move, base: RankBase) -> Option<String> {
    let piece = pos.piece_at(mv.from())?;
    if piece.color() != pos.side_to_move() {
        return None;
    }
    let kind = piece.kind();
    let (from, to) = (mv.from(), mv.to());
    let capture = pos.piece_at(to).is_some();
    let mut s = String::with_capacity(6);
    // The other pieces of the same kind that could move to `to`.
    let rivals: Vec<Square> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.to() == to && m.from() != from && pos.piece_at(m.from()) == Some(piece))
        .map(|m| m.from())
        .collect();
    if kind == PieceKind::Soldier {
        // XBoard: a push is its destination; a sideways step or a capture names the file, and
        // so does a push that another soldier's sideways step could be taken for (soldiers
        // reaching one square stand on different files).
        if from.file() != to.file() || capture || !rivals.is_empty() {
            s.push((b'a' + from.file()) as char);
        }
    } else {
        s.push(letter(kind, base));
        if !rivals.is_empty() {
            let file_tells = rivals.iter().all(|r| r.file() != from.file());
            let rank_tells = rivals.iter().all(|r| r.rank() != from.rank());
            if file_tells || !rank_tells {
                s.push((b'a' + from.file()) as char);
            }
            if !file_tells {
                let mut rank = String::new();
                from.write_text(&mut rank, base.offset());
                s.push_str(&rank[1..]);
            }
        }
    }
    if capture {
        s.push('x');
    }
    to.write_text(&mut s, base.offset());
    let mut after = pos.clone();
    after.make_move(mv);
    if after.in_check() {
        s.push(if after.has_legal_move() { '+' } else { '#' });
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(pos: &mut Position, iccs: &str) {
        let mv = pos.parse_move(iccs, RankBase::Zero).expect("legal");
        pos.make_move(mv);
    }

    #[test]
    fn xboard_and_cutechess_spellings() {
        let pos = Position::startpos();
        let iccs = |t: &str| pos.parse_move(t, RankBase::Zero).expect("legal");
        for (text, base, want) in [
            ("Hc2", RankBase::Zero, "b0c2"),
            ("Nc2", RankBase::Zero, "b0c2"),
            ("Nc3", RankBase::One, "b0c2"),
            ("Cxh9", RankBase::Zero, "h2h9"),
            ("Chxh9+", RankBase::Zero, "h2h9"),
            ("Ri1", RankBase::Zero, "i0i1"),
            ("Ege2", RankBase::Zero, "g0e2"),
            ("Bge3", RankBase::One, "g0e2"),
            ("c4", RankBase::Zero, "c3c4"),
            ("Pc4", RankBase::Zero, "c3c4"),
            ("Afe1", RankBase::Zero, "f0e1"),
            ("Ke1", RankBase::Zero, "e0e1"),
            ("Cbe2", RankBase::Zero, "b2e2"),
            ("Cb2-e2", RankBase::Zero, "b2e2"),
        ] {
            assert_eq!(parse(&pos, text, base), Ok(iccs(want)), "{text}");
        }
        assert!(matches!(
            parse(&pos, "Ee2", RankBase::One),
            Err(MoveTextError::Illegal { .. })
        ));
        assert!(matches!(
            parse(&pos, "Ce2", RankBase::Zero),
            Err(MoveTextError::Ambiguous { .. })
        ));
        assert!(matches!(
            parse(&pos, "Ae1", RankBase::One),
            Err(MoveTextError::Illegal { .. })
        ));
        for bad in ["", "h2e2x", "Xe2", "Cz2", "C2=5", "e", "Ce22", "炮二平五"] {
            assert!(
                matches!(
                    parse(&pos, bad, RankBase::Zero),
                    Err(MoveTextError::Malformed { .. }) | Err(MoveTextError::Illegal { .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn writing_reads_back_with_the_needed_disambiguation() {
        let mut pos = Position::startpos();
        assert_eq!(
            format(
                &pos,
                pos.parse_move("b2e2", RankBase::Zero).unwrap(),
                RankBase::Zero
            )
            .as_deref(),
            Some("Cbe2")
        );
        assert_eq!(
            format(
                &pos,
                pos.parse_move("h2h9", RankBase::Zero).unwrap(),
                RankBase::Zero
            )
            .as_deref(),
            Some("Cxh9")
        );
        assert_eq!(
            format(
                &pos,
                pos.parse_move("b1c3", RankBase::One).unwrap(),
                RankBase::One
            )
            .as_deref(),
            Some("Nc3")
        );
        // Walk a game and check that every legal move's text reads back as that move.
        for m in [
            "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "g6g5",
        ] {
            for base in [RankBase::Zero, RankBase::One] {
                for mv in pos.legal_moves() {
                    let text = format(&pos, mv, base).expect("a piece of the side to move");
                    assert_eq!(parse(&pos, &text, base), Ok(mv), "{text}");
                }
            }
            play(&mut pos, m);
        }
        // Two elephants reaching e2 from one file: the rank tells them apart, as XBoard's
        // `E0e2`; from two files, the file.
        let pos = Position::from_fen("3k5/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1").expect("valid");
        let mv = pos.parse_move("c0e2", RankBase::Zero).expect("legal");
        assert_eq!(format(&pos, mv, RankBase::Zero).as_deref(), Some("E0e2"));
        assert_eq!(parse(&pos, "E0e2", RankBase::Zero), Ok(mv));
        assert_eq!(format(&pos, mv, RankBase::One).as_deref(), Some("B1e3"));
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/2B1K1B2 w - - 0 1").expect("valid");
        let mv = pos.parse_move("g0e2", RankBase::Zero).expect("legal");
        assert_eq!(format(&pos, mv, RankBase::Zero).as_deref(), Some("Ege2"));
    }
}
