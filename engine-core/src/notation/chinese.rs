//! Chinese notation: piece, file, 进 (advance) / 退 (retreat) / 平 (sideways), then points moved
//! or destination file (`炮二平五`, `马8进7`). Red writes its numbers in Chinese numerals, Black
//! in Arabic digits; both count files from their own right.
//!
//! Pieces sharing a file: 前 (front) and 后 (rear) take the place of the file, before the piece
//! (`前车进一`), and 中 names the middle one of three soldiers. Four or five soldiers on a file,
//! or soldiers on two files that each hold several, are numbered 一二三四五 (in Chinese
//! numerals for both sides), counting files from the mover's right and each file front to back,
//! as the xqbase computer standard for Chinese move text writes them (`一兵平四`, `二卒进1`).
//! Advisors and elephants keep their file (see [`super::relative`]).
//!
//! Written in simplified characters: 帅仕相马车炮兵 for Red and 将士象马车炮卒 for Black. Read:
//! simplified or traditional characters (帥 將 傌 馬 俥 車 砲 包 進 後), either kind of number for
//! either side (full-width digits too), the piece after the place (`车前进一`), and the older
//! long forms that keep the file of two stacked files (`前兵九平八`, `前九平八`).

use super::relative::{
    describe, digit, normalize, resolve, Direction, Pick, Spoken, Tandem, Which,
};
use super::{MoveTextError, Notation};
use crate::moves::Move;
use crate::piece::{Color, PieceKind};
use crate::position::Position;

/// Chinese numerals one to nine.
const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn piece_char(color: Color, kind: PieceKind) -> char {
    match (color, kind) {
        (Color::Red, PieceKind::General) => '帅',
        (Color::Black, PieceKind::General) => '将',
        (Color::Red, PieceKind::Advisor) => '仕',
        (Color::Black, PieceKind::Advisor) => '士',
        (Color::Red, PieceKind::Elephant) => '相',
        (Color::Black, PieceKind::Elephant) => '象',
        (_, PieceKind::Horse) => '马',
        (_, PieceKind::Chariot) => '车',
        (_, PieceKind::Cannon) => '炮',
        (Color::Red, PieceKind::Soldier) => '兵',
        (Color::Black, PieceKind::Soldier) => '卒',
    }
}

/// The kind of a piece character, either side's, simplified or traditional.
fn kind_of(c: char) -> Option<PieceKind> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => PieceKind::General,
        '仕' | '士' => PieceKind::Advisor,
        '相' | '象' => PieceKind::Elephant,
        '马' | '馬' | '傌' => PieceKind::Horse,
        '车' | '車' | '俥' => PieceKind::Chariot,
        '炮' | '砲' | '包' => PieceKind::Cannon,
        '兵' | '卒' => PieceKind::Soldier,
        _ => return None,
    })
}

/// The value of a Chinese numeral or digit 1-9.
fn number_of(c: char) -> Option<u8> {
    digit(c).or_else(|| NUMERALS.iter().position(|&n| n == c).map(|i| i as u8 + 1))
}

/// A number as `color` writes it.
fn number_char(color: Color, n: u8) -> char {
    let i = usize::from(n.clamp(1, 9) - 1);
    match color {
        Color::Red => NUMERALS[i],
        Color::Black => char::from(b'1' + i as u8),
    }
}

fn place_of(c: char) -> Option<Pick> {
    match c {
        '前' => Some(Pick::First),
        '后' | '後' => Some(Pick::Last),
        '中' => Some(Pick::Middle),
        _ => None,
    }
}

/// The Chinese text of `mv`; `None` when its origin holds no piece of the side to move.
pub(super) fn format(pos: &Position, mv: Move) -> Option<String> {
    let d = describe(pos, mv)?;
    let piece = piece_char(d.color, d.kind);
    let mut s = String::with_capacity(12);
    // The ordinal of four or five on a file, or of soldiers on two files.
    let ordinal = |n: usize| NUMERALS[n.min(NUMERALS.len() - 1)];
    match d.tandem {
        Tandem::Alone => {
            s.push(piece);
            s.push(number_char(d.color, d.own_file));
        }
        Tandem::OneFile { index, len } if len <= 3 => {
            s.push(match Pick::of(index, len) {
                Pick::Front | Pick::First => '前',
                Pick::Middle => '中',
                Pick::Rear | Pick::Last => '后',
            });
            s.push(piece);
        }
        Tandem::OneFile { index, .. } => {
            s.push(ordinal(index));
            s.push(piece);
        }
        Tandem::TwoFiles { global, .. } => {
            s.push(ordinal(global));
            s.push(piece);
        }
    }
    s.push(match d.direction {
        Direction::Advance => '进',
        Direction::Retreat => '退',
        Direction::Sideways => '平',
    });
    s.push(number_char(d.color, d.number));
    Some(s)
}

/// Reads Chinese text as a legal move in `pos`.
pub(super) fn parse(pos: &Position, text: &str) -> Result<Move, MoveTextError> {
    let malformed = || MoveTextError::malformed(text, Notation::Chinese);
    let chars: Vec<char> = normalize(text).chars().collect();
    let (kind, which, rest) = match chars.as_slice() {
        [a, b, rest @ ..] if rest.len() == 2 => {
            let (kind, which) = designator(*a, *b).ok_or_else(malformed)?;
            (kind, which, rest)
        }
        // 前兵九平八: place, piece and file.
        [p, k, f, rest @ ..] if rest.len() == 2 => {
            let pick = place_of(*p).ok_or_else(malformed)?;
            let kind = kind_of(*k).ok_or_else(malformed)?;
            let file = number_of(*f).ok_or_else(malformed)?;
            (
                kind,
                Which::Placed {
                    file: Some(file),
                    pick,
                },
                rest,
            )
        }
        _ => return Err(malformed()),
    };
    let direction = match rest[0] {
        '进' | '進' => Direction::Advance,
        '退' => Direction::Retreat,
        '平' => Direction::Sideways,
        _ => return Err(malformed()),
    };
    let number = number_of(rest[1]).ok_or_else(malformed)?;
    resolve(
        pos,
        Spoken {
            kind,
            which,
            direction,
            number,
        },
        text,
        Notation::Chinese,
    )
}

/// The piece named by the first two characters.
fn designator(a: char, b: char) -> Option<(PieceKind, Which)> {
    if let Some(kind) = kind_of(a) {
        if let Some(f) = number_of(b) {
            return Some((kind, Which::File(f)));
        }
        return place_of(b).map(|pick| (kind, Which::Placed { file: None, pick }));
    }
    if let Some(pick) = place_of(a) {
        if let Some(kind) = kind_of(b) {
            return Some((kind, Which::Placed { file: None, pick }));
        }
        // 前九平八: the soldier's file, its name left out.
        return number_of(b).map(|f| {
            (
                PieceKind::Soldier,
                Which::Placed {
                    file: Some(f),
                    pick,
                },
            )
        });
    }
    let n = number_of(a)?;
    Some((kind_of(b)?, Which::Numbered(n)))
}
