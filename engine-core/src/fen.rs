//! FEN reading (lenient) and writing (canonical).
//!
//! Accepted: side `w`, `r` or `b` (any case); horse `N`/`H` and elephant `B`/`E`; just the board
//! and side; `-` placeholders for the chess castling and en-passant fields; missing counters
//! (default 0 and 1); surrounding whitespace and CRLF. Written: always the six-field canonical
//! form with `w`/`b` and N/B letters. Every malformed input is a [`FenError`] naming the field and
//! the offending text; no input panics.
//!
//! Composed positions (study and rule-book diagrams) sometimes put an advisor, elephant or
//! soldier where no game from the initial position can bring it, e.g. a soldier behind its
//! starting rank. Such a position is still playable by the movement rules, so it is accepted
//! with a [`FenWarning`] that [`Position::from_fen_with_warnings`] returns beside it (engine-core
//! does no I/O; the caller prints it). A position that cannot be played at all is still refused:
//! a general outside its palace (it would have no moves), more pieces of a kind than a side owns,
//! facing generals, or the side not to move in check.

use crate::piece::{Color, Piece, PieceKind};
use crate::position::Position;
use crate::square::Square;
use std::fmt;

/// FEN of the standard initial position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// The word that stands for [`START_FEN`] wherever a FEN is asked for, as in UCI's
/// `position startpos`.
pub const STARTPOS: &str = "startpos";

/// `text`, or [`START_FEN`] when `text` is [`STARTPOS`] (in any case, white space around it
/// ignored): every command-line FEN goes through this, so `--fen startpos` works everywhere.
pub fn expand_startpos(text: &str) -> &str {
    if text.trim().eq_ignore_ascii_case(STARTPOS) {
        START_FEN
    } else {
        text
    }
}

/// Why a FEN string was rejected. Ranks are board ranks (9 = Black's back rank, the first in FEN).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing but whitespace.
    Empty,
    /// The board field does not have ten `/`-separated ranks.
    RankCount {
        /// How many ranks the field has.
        found: usize,
    },
    /// A rank describes more or fewer than nine points.
    RankLength {
        /// The rank (0-9).
        rank: u8,
        /// How many points it describes.
        points: usize,
    },
    /// A character in the board field that is neither a piece letter nor a digit 1-9.
    UnknownPiece {
        /// The rank (0-9) it stands in.
        rank: u8,
        /// The character.
        ch: char,
    },
    /// No side-to-move field.
    MissingSide,
    /// The side-to-move field is not `w`, `r` or `b`.
    BadSide {
        /// The field as written.
        text: String,
    },
    /// A castling or en-passant placeholder other than `-`.
    BadPlaceholder {
        /// Which field (`castling` or `en-passant`).
        field: &'static str,
        /// The field as written.
        text: String,
    },
    /// A counter that is not a non-negative number in range.
    BadCounter {
        /// Which counter (`half-move clock` or `full-move number`).
        field: &'static str,
        /// The field as written.
        text: String,
    },
    /// Text after the six fields.
    TrailingText {
        /// What follows the sixth field.
        text: String,
    },
    /// A side has no general.
    MissingGeneral {
        /// The side without one.
        color: Color,
    },
    /// More pieces of a kind than a side starts with.
    TooManyPieces {
        /// The piece (kind and side).
        piece: Piece,
        /// How many the board has.
        count: u32,
    },
    /// A general outside its palace.
    GeneralOutsidePalace {
        /// Whose general.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// The generals face each other on an open file.
    GeneralsFacing,
    /// The side that just moved is in check, so its general could be captured.
    SideNotToMoveInCheck,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::RankCount { found } => {
                write!(
                    f,
                    "board field: expected 10 ranks separated by '/', found {found}"
                )
            }
            FenError::RankLength { rank, points } => {
                write!(
                    f,
                    "board field: rank {rank} describes {points} points instead of 9"
                )
            }
            FenError::UnknownPiece { rank, ch } => {
                write!(f, "board field: unknown piece letter '{ch}' in rank {rank}")
            }
            FenError::MissingSide => write!(f, "side-to-move field missing (expected w, r or b)"),
            FenError::BadSide { text } => {
                write!(f, "side-to-move field: '{text}' is not w, r or b")
            }
            FenError::BadPlaceholder { field, text } => {
                write!(
                    f,
                    "{field} field: '{text}' (xiangqi has none; expected '-')"
                )
            }
            FenError::BadCounter { field, text } => {
                write!(f, "{field} field: '{text}' is not a number in range")
            }
            FenError::TrailingText { text } => write!(f, "unexpected text after the FEN: '{text}'"),
            FenError::MissingGeneral { color } => write!(f, "{} has no general", color.name()),
            FenError::TooManyPieces { piece, count } => write!(
                f,
                "{count} {} {}s (at most {})",
                piece.color().name(),
                piece.kind().name(),
                piece.kind().max_count()
            ),
            FenError::GeneralOutsidePalace { color, square } => write!(
                f,
                "{} general on {square}, outside its palace",
                color.name()
            ),
            FenError::GeneralsFacing => write!(f, "the generals face each other on an open file"),
            FenError::SideNotToMoveInCheck => {
                write!(
                    f,
                    "the side not to move is in check (its general could be captured)"
                )
            }
        }
    }
}

impl std::error::Error for FenError {}

/// Something unusual about a FEN that is accepted all the same: the position can be played, but
/// it cannot arise in a game from the initial position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FenWarning {
    /// An advisor, elephant or soldier on a square it can never reach from its starting squares.
    UnreachableSquare {
        /// The piece (kind and side).
        piece: Piece,
        /// Where it stands.
        square: Square,
    },
}

impl fmt::Display for FenWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenWarning::UnreachableSquare { piece, square } => write!(
                f,
                "{} {} on {square}",
                piece.color().name().to_lowercase(),
                piece.kind().name()
            ),
        }
    }
}

/// The warnings of one FEN, in board order; displayed as one line (empty when there are none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FenWarnings(Vec<FenWarning>);

impl FenWarnings {
    /// Whether the FEN raised no warning.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The warnings, in board order (rank 9 first, file a first).
    pub fn as_slice(&self) -> &[FenWarning] {
        &self.0
    }
}

impl fmt::Display for FenWarnings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return Ok(());
        }
        let list: Vec<String> = self.0.iter().map(ToString::to_string).collect();
        write!(
            f,
            "composed position: {} {} where no game from the initial position can bring {}",
            list.join(", "),
            if list.len() == 1 { "stands" } else { "stand" },
            if list.len() == 1 { "it" } else { "them" },
        )
    }
}

/// Whether `piece` may ever stand on `sq` in a game from the standard setup (for a general: in its
/// palace).
fn square_reachable(piece: Piece, sq: Square) -> bool {
    // Work in Red's frame: flip Black's squares.
    let rel = match piece.color() {
        Color::Red => sq,
        Color::Black => sq.flip_rank(),
    };
    let (f, r) = (rel.file(), rel.rank());
    match piece.kind() {
        PieceKind::General => (3..=5).contains(&f) && r <= 2,
        PieceKind::Advisor => matches!((f, r), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2)),
        PieceKind::Elephant => {
            matches!(
                (f, r),
                (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
            )
        }
        PieceKind::Soldier => r >= 5 || (r >= 3 && f % 2 == 0),
        PieceKind::Horse | PieceKind::Chariot | PieceKind::Cannon => true,
    }
}

fn parse_counter(field: &'static str, text: &str) -> Result<u16, FenError> {
    text.parse::<u16>().map_err(|_| FenError::BadCounter {
        field,
        text: text.to_string(),
    })
}

impl Position {
    /// Parses a FEN (leniently, see the module docs) and validates the position. Composed
    /// positions are accepted silently; use [`Position::from_fen_with_warnings`] to learn about
    /// them.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with_warnings(fen).map(|(pos, _)| pos)
    }

    /// Parses a FEN like [`Position::from_fen`] and also returns what is unusual about it (pieces
    /// no game could have brought where they stand), for the caller to show.
    pub fn from_fen_with_warnings(fen: &str) -> Result<(Position, FenWarnings), FenError> {
        let mut warnings = Vec::new();
        let mut fields = fen.split_ascii_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let mut pos = Position::empty();
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount { found: ranks.len() });
        }
        let mut counts = [0u32; Piece::COUNT];
        for (i, text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file: usize = 0;
            for ch in text.chars() {
                if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                } else if let Some(piece) = Piece::from_fen_char(ch) {
                    if let Some(sq) = Square::new(file as u8, rank).filter(|_| file < 9) {
                        counts[piece.index()] += 1;
                        if counts[piece.index()] > piece.kind().max_count() {
                            return Err(FenError::TooManyPieces {
                                piece,
                                count: counts[piece.index()],
                            });
                        }
                        if !square_reachable(piece, sq) {
                            if piece.kind() == PieceKind::General {
                                return Err(FenError::GeneralOutsidePalace {
                                    color: piece.color(),
                                    square: sq,
                                });
                            }
                            warnings.push(FenWarning::UnreachableSquare { piece, square: sq });
                        }
                        pos.put(piece, sq);
                    }
                    file += 1;
                } else {
                    return Err(FenError::UnknownPiece { rank, ch });
                }
                if file > 9 {
                    break;
                }
            }
            if file != 9 {
                return Err(FenError::RankLength { rank, points: file });
            }
        }
        for color in Color::BOTH {
            if counts[Piece::new(color, PieceKind::General).index()] == 0 {
                return Err(FenError::MissingGeneral { color });
            }
        }

        let side = fields.next().ok_or(FenError::MissingSide)?;
        pos.side = match side {
            "w" | "W" | "r" | "R" => Color::Red,
            "b" | "B" => Color::Black,
            _ => {
                return Err(FenError::BadSide {
                    text: side.to_string(),
                })
            }
        };
        let rest: Vec<&str> = fields.collect();
        let mut rest = rest.as_slice();
        for field in ["castling", "en-passant"] {
            match rest.first() {
                Some(&"-") => rest = &rest[1..],
                Some(t) if t.parse::<u16>().is_err() => {
                    return Err(FenError::BadPlaceholder {
                        field,
                        text: t.to_string(),
                    })
                }
                _ => {}
            }
        }
        if let Some(t) = rest.first() {
            pos.no_capture_plies = parse_counter("half-move clock", t)?;
        }
        if let Some(t) = rest.get(1) {
            pos.fullmove = parse_counter("full-move number", t)?.max(1);
        }
        if rest.len() > 2 {
            let text: String = rest[2..].join(" ").chars().take(40).collect();
            return Err(FenError::TrailingText { text });
        }
        pos.key ^= crate::zobrist::side(pos.side);

        let (red, black) = (pos.general[0], pos.general[1]);
        if red.file() == black.file() {
            let between = crate::attacks::ray(crate::attacks::Direction::North, red)
                & !crate::attacks::ray(crate::attacks::Direction::North, black)
                & !crate::Bitboard::from_square(black);
            if (between & pos.occupied).is_empty() {
                return Err(FenError::GeneralsFacing);
            }
        }
        if pos.compute_checkers(pos.side.opponent()).any() {
            return Err(FenError::SideNotToMoveInCheck);
        }
        pos.checkers = pos.compute_checkers(pos.side);
        Ok((pos, FenWarnings(warnings)))
    }

    /// The canonical six-field FEN (`w`/`b`, N/B letters).
    pub fn to_fen(&self) -> String {
        let mut out = String::with_capacity(90);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                let sq = Square::new(file, rank).expect("on board");
                match self.board[sq.index()] {
                    Some(p) => {
                        if empty > 0 {
                            out.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        out.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push((b'0' + empty) as char);
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let side = if self.side == Color::Red { 'w' } else { 'b' };
        out.push_str(&format!(
            " {side} - - {} {}",
            self.no_capture_plies, self.fullmove
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trip() {
        let pos = Position::from_fen(START_FEN).unwrap();
        assert_eq!(pos.to_fen(), START_FEN);
        assert_eq!(pos.key(), pos.compute_key());
    }

    #[test]
    fn lenient_forms() {
        let canon = Position::from_fen(START_FEN).unwrap();
        for f in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "  rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r - - 0 1\r\n",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR W 0 1",
        ] {
            assert_eq!(
                Position::from_fen(f).unwrap().to_fen(),
                canon.to_fen(),
                "{f}"
            );
        }
    }

    #[test]
    fn errors_name_the_problem() {
        use FenError::*;
        let cases: &[(&str, FenError)] = &[
            ("", Empty),
            ("rnbakabnr/9 w", RankCount { found: 2 }),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
                RankLength { rank: 0, points: 8 },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
                RankLength {
                    rank: 0,
                    points: 10,
                },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKXBNR w",
                UnknownPiece { rank: 0, ch: 'X' },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
                MissingSide,
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
                BadSide { text: "x".into() },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1",
                BadCounter {
                    field: "half-move clock",
                    text: "x".into(),
                },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQ - 0 1",
                BadPlaceholder {
                    field: "castling",
                    text: "KQ".into(),
                },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 zz",
                TrailingText { text: "zz".into() },
            ),
            (
                "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                MissingGeneral {
                    color: Color::Black,
                },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBKKABNR w",
                TooManyPieces {
                    piece: Piece::new(Color::Red, PieceKind::General),
                    count: 2,
                },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",
                MissingGeneral { color: Color::Red },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4KC1/9/RNBA1ABNR w",
                GeneralOutsidePalace {
                    color: Color::Red,
                    square: Square::new(6, 2).unwrap(),
                },
            ),
            (
                "rnba1abnr/9/1c5c1/p1p1p1p1p/9/4k4/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                GeneralOutsidePalace {
                    color: Color::Black,
                    square: Square::new(4, 4).unwrap(),
                },
            ),
            ("4k4/9/9/9/9/9/9/9/9/4K4 w", GeneralsFacing),
            ("4k4/4R4/9/9/9/9/9/9/9/3K5 w", SideNotToMoveInCheck),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB1R w - - 0 1 extra",
                TrailingText {
                    text: "extra".into(),
                },
            ),
        ];
        for (fen, err) in cases {
            assert_eq!(Position::from_fen(fen).unwrap_err(), *err, "{fen}");
            assert!(!err.to_string().is_empty());
        }
    }

    #[test]
    fn composed_positions_are_accepted_with_one_warning_line() {
        // A red advisor off the palace diagonals and a red soldier behind its starting rank.
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/2P1P1P1P/1C5C1/P2A5/RNB1KABNR w - - 0 1";
        let (pos, warnings) = Position::from_fen_with_warnings(fen).expect("accepted");
        assert_eq!(
            warnings.as_slice(),
            [
                FenWarning::UnreachableSquare {
                    piece: Piece::new(Color::Red, PieceKind::Soldier),
                    square: Square::new(0, 1).unwrap(),
                },
                FenWarning::UnreachableSquare {
                    piece: Piece::new(Color::Red, PieceKind::Advisor),
                    square: Square::new(3, 1).unwrap(),
                },
            ]
        );
        let line = warnings.to_string();
        assert_eq!(
            line,
            "composed position: red soldier on a1, red advisor on d1 stand where no game from \
             the initial position can bring them"
        );
        assert!(!line.contains('\n'));
        // The position is playable: the soldier on a1 may step forward, the advisor cannot move.
        assert!(pos.is_legal(crate::parse_move("a1a2", crate::RankBase::Zero).unwrap()));
        assert_eq!(Position::from_fen(fen).expect("accepted").to_fen(), fen);
        // A black elephant across the river: one warning, singular wording.
        let (_, w) =
            Position::from_fen_with_warnings("4k4/9/9/9/9/4b4/9/9/9/3K5 w").expect("accepted");
        assert_eq!(
            w.to_string(),
            "composed position: black elephant on e4 stands where no game from the initial \
             position can bring it"
        );
        // Ordinary positions carry no warning.
        let (_, none) = Position::from_fen_with_warnings(START_FEN).expect("start");
        assert!(none.is_empty());
        assert_eq!(none.to_string(), "");
    }
}
