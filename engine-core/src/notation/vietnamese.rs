//! Vietnamese notation, as Điều 11 of the Law (Luật Cờ Tướng, 2004) writes it: piece letter
//! (Tg general, S advisor, T elephant, X chariot, P cannon, M horse, B soldier), file (from the
//! mover's right), `.` advance / `/` retreat / `-` sideways, then points moved or destination
//! file (`P2-5`, `M2.3`, `X9/1`). The Law's Asian variant uses `+` advance, `.` retreat and
//! `=` sideways (`P2=5`, `M2+3`): the same `.` means opposite things in the two.
//!
//! Pieces sharing a file: `t` (trước, front) and `s` (sau, rear) take the place of the file,
//! and `g` (giữa) names the middle soldier (`Pt/1`, `Bg.1`, `Xs.2`, `Bt-3`: the Law's
//! examples). The Law stops at three; for four or five soldiers on a file this follows the
//! WXF's scheme with the Law's letters (`tt`, `t`, `g`, `s`, `ss` from the front), and when two
//! files each hold several soldiers the file stays and the mark follows it (`B3t.1`, `B7s-6`).
//! Advisors and elephants keep their file (see [`super::relative`]).
//!
//! Read: the piece letter in either case, and the mark in either case.

use super::relative::{
    describe, digit, digit_char, normalize, resolve, Direction, Pick, Spoken, Tandem, Which,
};
use super::{MoveTextError, Notation};
use crate::moves::Move;
use crate::piece::PieceKind;
use crate::position::Position;

/// Which direction symbols a record uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Symbols {
    /// Điều 11 a: `.` advance, `/` retreat, `-` sideways.
    Law,
    /// Điều 11 b, "Asian and world events": `+` advance, `.` retreat, `=` sideways.
    Asian,
}

impl Symbols {
    fn notation(self) -> Notation {
        match self {
            Symbols::Law => Notation::Vietnamese,
            Symbols::Asian => Notation::VietnameseAsian,
        }
    }

    fn char_of(self, d: Direction) -> char {
        match (self, d) {
            (Symbols::Law, Direction::Advance) => '.',
            (Symbols::Law, Direction::Retreat) => '/',
            (Symbols::Law, Direction::Sideways) => '-',
            (Symbols::Asian, Direction::Advance) => '+',
            (Symbols::Asian, Direction::Retreat) => '.',
            (Symbols::Asian, Direction::Sideways) => '=',
        }
    }

    fn direction_of(self, c: char) -> Option<Direction> {
        [Direction::Advance, Direction::Retreat, Direction::Sideways]
            .into_iter()
            .find(|&d| self.char_of(d) == c)
    }
}

fn letters(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::General => "Tg",
        PieceKind::Advisor => "S",
        PieceKind::Elephant => "T",
        PieceKind::Horse => "M",
        PieceKind::Chariot => "X",
        PieceKind::Cannon => "P",
        PieceKind::Soldier => "B",
    }
}

fn mark(pick: Pick) -> &'static str {
    match pick {
        Pick::First => "tt",
        Pick::Front => "t",
        Pick::Middle => "g",
        Pick::Rear => "s",
        Pick::Last => "ss",
    }
}

/// The Vietnamese text of `mv`; `None` when its origin holds no piece of the side to move.
pub(super) fn format(pos: &Position, mv: Move, symbols: Symbols) -> Option<String> {
    let d = describe(pos, mv)?;
    let mut s = String::with_capacity(6);
    s.push_str(letters(d.kind));
    match d.tandem {
        Tandem::Alone => s.push(digit_char(d.own_file)),
        Tandem::OneFile { index, len } => s.push_str(mark(Pick::of(index, len))),
        Tandem::TwoFiles { index, len, .. } => {
            s.push(digit_char(d.own_file));
            s.push_str(mark(Pick::of(index, len)));
        }
    }
    s.push(symbols.char_of(d.direction));
    s.push(digit_char(d.number));
    Some(s)
}

/// A move's text split into its parts, before it is found on the board.
struct Parts {
    kind: PieceKind,
    file: Option<u8>,
    pick: Option<Pick>,
    direction: Direction,
    number: u8,
}

/// Reads one move from the start of `chars`; returns it and how many characters it took.
fn read_parts(chars: &[char], symbols: Symbols) -> Option<(Parts, usize)> {
    let mut i = 0;
    let kind = match chars {
        [t, g, ..] if t.eq_ignore_ascii_case(&'t') && g.eq_ignore_ascii_case(&'g') => {
            i += 2;
            PieceKind::General
        }
        [c, ..] => {
            i += 1;
            match c.to_ascii_uppercase() {
                'S' => PieceKind::Advisor,
                'T' => PieceKind::Elephant,
                'M' => PieceKind::Horse,
                'X' => PieceKind::Chariot,
                'P' => PieceKind::Cannon,
                'B' => PieceKind::Soldier,
                _ => return None,
            }
        }
        [] => return None,
    };
    let file = chars.get(i).copied().and_then(digit);
    if file.is_some() {
        i += 1;
    }
    let marks: String = chars[i..]
        .iter()
        .take_while(|c| matches!(c.to_ascii_lowercase(), 't' | 's' | 'g'))
        .take(2)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    i += marks.len();
    let pick = match marks.as_str() {
        "" => None,
        "t" => Some(Pick::Front),
        "s" => Some(Pick::Rear),
        "g" => Some(Pick::Middle),
        "tt" => Some(Pick::First),
        "ss" => Some(Pick::Last),
        _ => return None,
    };
    if file.is_none() && pick.is_none() {
        return None;
    }
    let direction = symbols.direction_of(*chars.get(i)?)?;
    let number = digit(*chars.get(i + 1)?)?;
    Some((
        Parts {
            kind,
            file,
            pick,
            direction,
            number,
        },
        i + 2,
    ))
}

/// Reads Vietnamese text as a legal move in `pos`.
pub(super) fn parse(pos: &Position, text: &str, symbols: Symbols) -> Result<Move, MoveTextError> {
    let notation = symbols.notation();
    let chars: Vec<char> = normalize(text).chars().collect();
    let parts = match read_parts(&chars, symbols) {
        Some((parts, used)) if used == chars.len() => parts,
        _ => return Err(MoveTextError::malformed(text, notation)),
    };
    let which = match (parts.file, parts.pick) {
        (Some(f), None) => Which::File(f),
        (file, Some(pick)) => Which::Placed { file, pick },
        (None, None) => return Err(MoveTextError::malformed(text, notation)),
    };
    resolve(
        pos,
        Spoken {
            kind: parts.kind,
            which,
            direction: parts.direction,
            number: parts.number,
        },
        text,
        notation,
    )
}

/// Whether `c` separates the two half-moves of a record line (`1. X2-7 - M3.1`).
fn is_separator(c: char) -> bool {
    c == '-'
}

/// The moves of a record token whose half-moves are glued to the separator between them
/// (`X3-2-`, `-Pt.1`, `P9.1-Tg6.1`); `None` unless the whole token is such a run.
pub(super) fn split_glued(token: &str, symbols: Symbols) -> Option<Vec<String>> {
    let chars: Vec<char> = normalize(token).chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if is_separator(chars[i]) {
            i += 1;
            continue;
        }
        let (_, used) = read_parts(&chars[i..], symbols)?;
        out.push(chars[i..i + used].iter().collect());
        i += used;
    }
    (!out.is_empty()).then_some(out)
}
