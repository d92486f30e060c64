//! WXF notation, as the World Xiangqi Federation publishes it: piece letter, file (from the
//! mover's right), `+` advance / `-` retreat / `=` sideways, then points moved or destination
//! file (`C2=5`, `H8+7`, `R9-1`).
//!
//! Pieces sharing a file: the file digit gives way to `+` (front) or `-` (rear): `R+=3`,
//! `C--1`. Soldiers follow the Federation's rules for more: of three on a file the middle one
//! keeps the file digit (`P+=4`, `P3=4`, `P-=4`); of four or five the foremost and rearmost are
//! `++` and `--` with no letter (`++=4`, `P+=4`, `P3=4`, `P-=4`, `--=4`); when two files each
//! hold several, the letter gives way to the file digit (`3+=4`, `33=4`, `3-=4`, `7+=6`).
//! Advisors and elephants keep their file (see [`super::relative`]).
//!
//! Written with upper-case letters for both sides and `=` for sideways moves, as
//! Fairy-Stockfish writes it. Read: either case, `=` or `.` for sideways (the Federation's own
//! pages use `.`), `B` and `N` for elephant and horse, and the mark before the letter (`+R=3`).

use super::relative::{
    describe, digit, digit_char, normalize, resolve, stack_len, Direction, Pick, Spoken, Tandem,
    Which,
};
use super::{MoveTextError, Notation};
use crate::moves::Move;
use crate::piece::PieceKind;
use crate::position::Position;

/// WXF's letter for each kind.
fn letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::General => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Chariot => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Soldier => 'P',
    }
}

/// The kind of a letter in either case (B and N accepted besides E and H).
fn kind_of(c: char) -> Option<PieceKind> {
    if c.is_ascii_alphabetic() {
        PieceKind::from_letter(c)
    } else {
        None
    }
}

fn mark_char(pick: Pick) -> char {
    match pick {
        Pick::Front | Pick::First => '+',
        Pick::Rear | Pick::Last => '-',
        // The middle piece keeps its file digit; callers write that instead.
        Pick::Middle => '=',
    }
}

/// The WXF text of `mv`; `None` when its origin holds no piece of the side to move.
pub(super) fn format(pos: &Position, mv: Move) -> Option<String> {
    let d = describe(pos, mv)?;
    let mut s = String::with_capacity(4);
    let file = digit_char(d.own_file);
    let l = letter(d.kind);
    match d.tandem {
        Tandem::Alone => {
            s.push(l);
            s.push(file);
        }
        Tandem::OneFile { index, len } => match Pick::of(index, len) {
            Pick::First => s.push_str("++"),
            Pick::Last => s.push_str("--"),
            Pick::Middle => {
                s.push(l);
                s.push(file);
            }
            pick => {
                s.push(l);
                s.push(mark_char(pick));
            }
        },
        Tandem::TwoFiles { index, len, .. } => {
            s.push(file);
            match Pick::of(index, len) {
                Pick::Middle => s.push(file),
                pick => s.push(mark_char(pick)),
            }
        }
    }
    s.push(match d.direction {
        Direction::Advance => '+',
        Direction::Retreat => '-',
        Direction::Sideways => '=',
    });
    s.push(digit_char(d.number));
    Some(s)
}

/// Reads WXF text as a legal move in `pos`.
pub(super) fn parse(pos: &Position, text: &str) -> Result<Move, MoveTextError> {
    let malformed = || MoveTextError::malformed(text, Notation::Wxf);
    let chars: Vec<char> = normalize(text).chars().collect();
    let &[a, b, dir, num] = chars.as_slice() else {
        return Err(malformed());
    };
    let direction = match dir {
        '+' => Direction::Advance,
        '-' => Direction::Retreat,
        '=' | '.' => Direction::Sideways,
        _ => return Err(malformed()),
    };
    let number = digit(num).ok_or_else(malformed)?;
    let (kind, which) = designator(pos, a, b).ok_or_else(malformed)?;
    resolve(
        pos,
        Spoken {
            kind,
            which,
            direction,
            number,
        },
        text,
        Notation::Wxf,
    )
}

/// The piece named by the first two characters.
fn designator(pos: &Position, a: char, b: char) -> Option<(PieceKind, Which)> {
    let mark = |c: char| match c {
        '+' => Some(Pick::Front),
        '-' => Some(Pick::Rear),
        _ => None,
    };
    let soldier = PieceKind::Soldier;
    if let Some(kind) = kind_of(a) {
        if let Some(f) = digit(b) {
            // The middle one of three or five soldiers on a file keeps the file digit.
            let n = stack_len(pos, pos.side_to_move(), kind, f);
            if kind == soldier && n >= 3 && n % 2 == 1 {
                return Some((
                    kind,
                    Which::Placed {
                        file: Some(f),
                        pick: Pick::Middle,
                    },
                ));
            }
            return Some((kind, Which::File(f)));
        }
        return mark(b).map(|pick| (kind, Which::Placed { file: None, pick }));
    }
    if let (Some(pick), Some(kind)) = (mark(a), kind_of(b)) {
        return Some((kind, Which::Placed { file: None, pick }));
    }
    if a == b {
        let pick = match a {
            '+' => Some(Pick::First),
            '-' => Some(Pick::Last),
            _ => digit(a).map(|_| Pick::Middle),
        }?;
        return Some((
            soldier,
            Which::Placed {
                file: digit(a),
                pick,
            },
        ));
    }
    let f = digit(a)?;
    Some((
        soldier,
        Which::Placed {
            file: Some(f),
            pick: mark(b)?,
        },
    ))
}
