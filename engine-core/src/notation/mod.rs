//! Move text in the notations people and programs write xiangqi in:
//!
//! * [`Notation::Iccs`]: coordinates of the origin and destination (`h2e2`), what engines speak;
//! * [`Notation::Wxf`]: the World Xiangqi Federation's letters (`C2=5`, `H8+7`, `R+=3`);
//! * [`Notation::Chinese`]: the traditional four characters (`炮二平五`, `马8进7`, `前车进一`);
//! * [`Notation::Vietnamese`]: the Law's Điều 11 (`P2-5`, `M8.7`, `Xs.2`), and
//!   [`Notation::VietnameseAsian`], the same letters with the Asian symbols the Law mentions
//!   (`P2=5`, `M8+7`);
//! * [`Notation::San`]: the algebraic notation of chess programs, XBoard's (`Hc7`, `Cbe2`,
//!   ranks 0-9) and cutechess's (`Nc3`, `Kd10`, ranks 1-10).
//!
//! The last three describe a move relative to the mover: the piece, the file it stands on
//! counted from the mover's right (or its place among pieces of its kind on that file), a
//! direction and a number; [`relative`] holds that shared model and each notation's file only
//! its spelling. [`Notation::format`] writes a legal move, [`Notation::parse`] reads one and
//! reports a [`MoveTextError`] that says whether the text is malformed, ambiguous or illegal.

mod chinese;
mod error;
mod iccs;
mod relative;
mod san;
mod vietnamese;
mod wxf;

pub use error::MoveTextError;
pub use iccs::{move_text, parse_move, RankBase};

use crate::moves::Move;
use crate::position::Position;
use std::fmt;
use std::str::FromStr;

/// A way of writing moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// ICCS coordinates (`h2e2`; `H2-E2` also read), with ranks numbered from 0 (the ICCS and
    /// UCCI standard) or from 1 (cutechess, Fairy-Stockfish).
    Iccs(RankBase),
    /// WXF notation (`C2=5`, `H8+7`; `R+=3` / `R-=3` for two chariots on one file; `++`, `--`
    /// and a file digit for the middle pawn when more pawns share a file; `3+=4` when pawns
    /// share two files). Written with upper-case letters for both sides and `=` for sideways
    /// moves, as Fairy-Stockfish writes it; read in either case, with `.` for sideways and
    /// B, N for elephant and horse too.
    Wxf,
    /// Chinese notation (`炮二平五`, `马8进7`): Red's numbers in Chinese numerals, Black's in
    /// Arabic digits; 前/后/中 for pieces sharing a file, and 一二三四五 (counted from the
    /// front, pawns of two files from the mover's right) for four or five pawns on a file or
    /// pawns on two files. Written in simplified characters; traditional characters, full-width
    /// digits and the long forms 前兵九平八 / 前九平八 are read too.
    Chinese,
    /// Vietnamese notation of the Law (Điều 11): Tg S T X P M B, `.` advance, `/` retreat, `-`
    /// sideways; `t`/`s` (front/rear) and `g` (middle pawn) for pieces sharing a file.
    Vietnamese,
    /// The Law's Asian variant of [`Notation::Vietnamese`]: `+` advance, `.` retreat, `=`
    /// sideways. The same `.` means the opposite of the Law's, so records must say which.
    VietnameseAsian,
    /// Standard algebraic notation of chess programs: piece letter (none or `P` for a
    /// soldier; H/N horse, E/B elephant), the origin's file or rank when needed, `x`, the
    /// destination, `+`/`#`: XBoard's `Cbe2`, `Hc7`, `Rxb9` with ranks 0-9, cutechess's
    /// `Nc3`, `Kd10` with ranks 1-10.
    San(RankBase),
}

impl Notation {
    /// Every notation, in the order game readers try them when detecting which one a game uses.
    pub const ALL: [Notation; 8] = [
        Notation::Iccs(RankBase::Zero),
        Notation::Iccs(RankBase::One),
        Notation::Wxf,
        Notation::Chinese,
        Notation::Vietnamese,
        Notation::VietnameseAsian,
        Notation::San(RankBase::Zero),
        Notation::San(RankBase::One),
    ];

    /// The names [`Notation::from_str`] accepts (`iccs` and `san` mean ranks 0-9).
    pub const NAMES: [&'static str; 6] = [
        "iccs",
        "wxf",
        "chinese",
        "vietnamese",
        "vietnamese-asian",
        "san",
    ];

    /// Short name, as on the command line (`iccs` and `san` for both rank bases).
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Iccs(_) => "iccs",
            Notation::Wxf => "wxf",
            Notation::Chinese => "chinese",
            Notation::Vietnamese => "vietnamese",
            Notation::VietnameseAsian => "vietnamese-asian",
            Notation::San(_) => "san",
        }
    }

    /// Name for messages to people.
    pub const fn label(self) -> &'static str {
        match self {
            Notation::Iccs(RankBase::Zero) => "ICCS coordinates",
            Notation::Iccs(RankBase::One) => "ICCS coordinates with ranks 1-10",
            Notation::Wxf => "WXF notation",
            Notation::Chinese => "Chinese notation",
            Notation::Vietnamese => "Vietnamese notation",
            Notation::VietnameseAsian => "Vietnamese notation with Asian symbols",
            Notation::San(RankBase::Zero) => "SAN (XBoard, ranks 0-9)",
            Notation::San(RankBase::One) => "SAN (cutechess, ranks 1-10)",
        }
    }

    /// The first move of the most common opening (the central cannon), in this notation.
    pub const fn example(self) -> &'static str {
        match self {
            Notation::Iccs(RankBase::Zero) => "h2e2",
            Notation::Iccs(RankBase::One) => "h3e3",
            Notation::Wxf => "C2=5",
            Notation::Chinese => "炮二平五",
            Notation::Vietnamese => "P2-5",
            Notation::VietnameseAsian => "P2=5",
            Notation::San(RankBase::Zero) => "Che2",
            Notation::San(RankBase::One) => "Che3",
        }
    }

    /// The text of `mv`, which must be legal in `pos`. A move whose origin holds no piece of
    /// the side to move cannot be described relative to its piece and gets its ICCS text.
    pub fn format(self, pos: &Position, mv: Move) -> String {
        let relative = match self {
            Notation::Iccs(base) => return move_text(mv, base),
            Notation::Wxf => wxf::format(pos, mv),
            Notation::Chinese => chinese::format(pos, mv),
            Notation::Vietnamese => vietnamese::format(pos, mv, vietnamese::Symbols::Law),
            Notation::VietnameseAsian => vietnamese::format(pos, mv, vietnamese::Symbols::Asian),
            Notation::San(base) => san::format(pos, mv, base),
        };
        relative.unwrap_or_else(|| move_text(mv, RankBase::Zero))
    }

    /// Reads `text` as a legal move in `pos`. Surrounding and inner white space is ignored, and
    /// full-width forms (`Ｃ２＝５`, `马８进７`) read as their ASCII equivalents.
    pub fn parse(self, pos: &Position, text: &str) -> Result<Move, MoveTextError> {
        match self {
            Notation::Iccs(base) => pos.parse_move(&relative::normalize(text), base),
            Notation::Wxf => wxf::parse(pos, text),
            Notation::Chinese => chinese::parse(pos, text),
            Notation::Vietnamese => vietnamese::parse(pos, text, vietnamese::Symbols::Law),
            Notation::VietnameseAsian => vietnamese::parse(pos, text, vietnamese::Symbols::Asian),
            Notation::San(base) => san::parse(pos, text, base),
        }
    }

    /// The texts of a line of moves played from `pos` (a principal variation, a game), each
    /// in the position it is played in. Stops at the first move that is not legal there.
    pub fn format_line(self, pos: &Position, moves: &[Move]) -> Vec<String> {
        let mut pos = pos.clone();
        let mut out = Vec::with_capacity(moves.len());
        for &mv in moves {
            if !pos.is_legal(mv) {
                break;
            }
            out.push(self.format(&pos, mv));
            pos.make_move(mv);
        }
        out
    }

    /// Splits one token of a game record into the moves written in it. Only the Vietnamese
    /// notations need this: the Law's records write `1. X2-7- M3.1` or `P9.1-Tg6.1`, gluing the
    /// " - " between the two half-moves to them; a token that is not such a run of moves comes
    /// back whole.
    pub fn split_glued(self, token: &str) -> Vec<String> {
        match self {
            Notation::Vietnamese => vietnamese::split_glued(token, vietnamese::Symbols::Law),
            Notation::VietnameseAsian => vietnamese::split_glued(token, vietnamese::Symbols::Asian),
            _ => None,
        }
        .unwrap_or_else(|| vec![token.to_string()])
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A notation name that [`Notation::from_str`] does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownNotation(pub String);

impl fmt::Display for UnknownNotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown notation '{}' (expected one of {})",
            self.0,
            Notation::NAMES.join(", ")
        )
    }
}

impl std::error::Error for UnknownNotation {}

impl FromStr for Notation {
    type Err = UnknownNotation;

    /// One of [`Notation::NAMES`], in any case; `iccs` and `san` mean ranks 0-9.
    fn from_str(s: &str) -> Result<Notation, UnknownNotation> {
        let lower = s.trim().to_ascii_lowercase();
        Notation::ALL
            .into_iter()
            .find(|n| n.name() == lower)
            .ok_or_else(|| UnknownNotation(s.to_string()))
    }
}
