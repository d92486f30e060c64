//! The model behind the file-relative notations (WXF, Chinese, Vietnamese).
//!
//! Such a move names the piece kind, which of the mover's pieces of that kind moves, a
//! direction (advance toward the opponent, retreat, or sideways along the rank) and a number.
//! Files are numbered 1 to 9 from the mover's own right, so Red's file 1 is the i-file and
//! Black's file 1 the a-file. Chariots, cannons, soldiers and the general, which move straight,
//! give the number of points moved when they advance or retreat and the destination file when
//! they move sideways; horses, advisors and elephants always give the destination file.
//!
//! Which piece moves is its file, unless several pieces of its kind share that file; then the
//! notations say where it stands among them. Advisors and elephants never need that: of two on
//! one file the front one can only retreat and the rear one only advance, so every notation
//! writes their file.

use crate::moves::Move;
use crate::piece::{Color, PieceKind};
use crate::position::Position;
use crate::square::Square;
use arrayvec::ArrayVec;

use super::{MoveTextError, Notation};

/// Files on the board.
const FILES: u8 = 9;

/// The most pieces of one kind a side can have on one file (its five soldiers).
const MAX_STACK: usize = 5;

/// Where a move goes, from the mover's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// Toward the opponent's side.
    Advance,
    /// Toward the mover's own side.
    Retreat,
    /// Along the rank.
    Sideways,
}

/// The file number (1-9, from `color`'s right) of board file `file` (0 = a).
pub(crate) fn own_file(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => FILES - file,
        Color::Black => file + 1,
    }
}

/// The board file (0 = a) of `color`'s file number `own` (1-9).
fn board_file(color: Color, own: u8) -> Option<u8> {
    if !(1..=FILES).contains(&own) {
        return None;
    }
    Some(match color {
        Color::Red => FILES - own,
        Color::Black => own - 1,
    })
}

/// Whether `kind` moves along files and ranks, so that its number is a count of points when it
/// advances or retreats.
fn moves_straight(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::General | PieceKind::Chariot | PieceKind::Cannon | PieceKind::Soldier
    )
}

/// Whether pieces of `kind` sharing a file are told apart by their place on it (see the module
/// documentation for why advisors and elephants are not).
fn marks_place(kind: PieceKind) -> bool {
    !matches!(kind, PieceKind::Advisor | PieceKind::Elephant)
}

/// The pieces of one kind and colour on one file, the front one (nearest the opponent) first.
#[derive(Clone, Debug)]
pub(crate) struct Stack {
    /// File number from the owner's right.
    pub own_file: u8,
    /// Their squares, front first.
    pub squares: ArrayVec<Square, MAX_STACK>,
}

/// Every file holding pieces of `color` and `kind`, in increasing file number (from the
/// owner's right to its left).
pub(crate) fn stacks(pos: &Position, color: Color, kind: PieceKind) -> ArrayVec<Stack, 9> {
    let pieces = pos.pieces_of(color, kind);
    let mut out: ArrayVec<Stack, 9> = ArrayVec::new();
    for own in 1..=FILES {
        let Some(file) = board_file(color, own) else {
            continue;
        };
        // Bitboards list squares from rank 0 up: Black's front first, Red's last.
        let mut squares: ArrayVec<Square, MAX_STACK> = pieces
            .into_iter()
            .filter(|sq| sq.file() == file)
            .take(MAX_STACK)
            .collect();
        if color == Color::Red {
            squares.reverse();
        }
        if !squares.is_empty() {
            out.push(Stack {
                own_file: own,
                squares,
            });
        }
    }
    out
}

/// Number of `color`'s pieces of `kind` on its file `own`.
pub(crate) fn stack_len(pos: &Position, color: Color, kind: PieceKind, own: u8) -> usize {
    stacks(pos, color, kind)
        .iter()
        .find(|s| s.own_file == own)
        .map_or(0, |s| s.squares.len())
}

/// Where a moving piece stands among pieces of its kind sharing its file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tandem {
    /// Alone on its file (or an advisor or elephant): the file names it.
    Alone,
    /// One of `len` on its file, `index` from the front, and no other file holds several.
    OneFile { index: usize, len: usize },
    /// A soldier on one of two files that each hold several soldiers: `index` of `len` on its
    /// file, and `global` in the order that counts both files from the mover's right, each
    /// front to back.
    TwoFiles {
        index: usize,
        len: usize,
        global: usize,
    },
}

/// A legal move as the file-relative notations see it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Described {
    pub color: Color,
    pub kind: PieceKind,
    /// File number of the origin, from the mover's right.
    pub own_file: u8,
    pub tandem: Tandem,
    pub direction: Direction,
    /// Points moved (straight movers advancing or retreating) or the destination file.
    pub number: u8,
}

/// Describes `mv`; `None` when its origin holds no piece of the side to move.
pub(crate) fn describe(pos: &Position, mv: Move) -> Option<Described> {
    let (from, to) = (mv.from(), mv.to());
    let piece = pos.piece_at(from)?;
    let (color, kind) = (piece.color(), piece.kind());
    if color != pos.side_to_move() {
        return None;
    }
    let direction = if to.rank() == from.rank() {
        Direction::Sideways
    } else if (to.rank() > from.rank()) == (color == Color::Red) {
        Direction::Advance
    } else {
        Direction::Retreat
    };
    let number = if moves_straight(kind) && direction != Direction::Sideways {
        from.rank().abs_diff(to.rank())
    } else {
        own_file(color, to.file())
    };
    let own = own_file(color, from.file());
    let mut tandem = Tandem::Alone;
    if marks_place(kind) {
        let all = stacks(pos, color, kind);
        let shared: ArrayVec<&Stack, 9> = all.iter().filter(|s| s.squares.len() > 1).collect();
        let mut before = 0;
        for s in &shared {
            if s.own_file == own {
                let index = s.squares.iter().position(|&q| q == from)?;
                let len = s.squares.len();
                tandem = if shared.len() > 1 {
                    Tandem::TwoFiles {
                        index,
                        len,
                        global: before + index,
                    }
                } else {
                    Tandem::OneFile { index, len }
                };
            }
            before += s.squares.len();
        }
    }
    Some(Described {
        color,
        kind,
        own_file: own,
        tandem,
        direction,
        number,
    })
}

/// Which piece of a file's stack a mark names, given how many stand there.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Pick {
    /// The foremost (WXF `++`, Vietnamese `tt`; Chinese 前).
    First,
    /// The rearmost (WXF `--`, Vietnamese `ss`; Chinese 后).
    Last,
    /// The middle one of three or five (Chinese 中, Vietnamese `g`; WXF writes the file).
    Middle,
    /// WXF `+`, Vietnamese `t`: the front one of two or three, the second of four or five.
    Front,
    /// WXF `-`, Vietnamese `s`: the rear one of two or three, the second-rearmost of four or
    /// five.
    Rear,
}

impl Pick {
    /// Index from the front of the piece this mark names among `len` (at least two).
    fn index(self, len: usize) -> Option<usize> {
        match self {
            Pick::First => Some(0),
            Pick::Last => len.checked_sub(1),
            Pick::Middle => (len >= 3 && len % 2 == 1).then_some(len / 2),
            Pick::Front => Some(usize::from(len > 3)),
            Pick::Rear => len.checked_sub(if len > 3 { 2 } else { 1 }),
        }
    }

    /// The WXF-style mark (`++ + mid - --`) of the piece `index` from the front among `len`:
    /// the inverse of [`Pick::index`].
    pub(crate) fn of(index: usize, len: usize) -> Pick {
        if len <= 3 {
            return match index {
                0 => Pick::Front,
                i if i + 1 == len => Pick::Rear,
                _ => Pick::Middle,
            };
        }
        match index {
            0 => Pick::First,
            1 => Pick::Front,
            i if i + 1 == len => Pick::Last,
            i if i + 2 == len => Pick::Rear,
            _ => Pick::Middle,
        }
    }
}

/// Which of the mover's pieces of a kind the text names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Which {
    /// Every piece of the kind on this file (from the mover's right).
    File(u8),
    /// One piece of a file holding several: that file, or any such file when `None`.
    Placed { file: Option<u8>, pick: Pick },
    /// The n-th (from 1) soldier counting the files that hold several from the mover's right,
    /// each front to back (Chinese 一兵 ... 五兵).
    Numbered(u8),
}

/// A move as the file-relative notations write it, before it is found on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Spoken {
    pub kind: PieceKind,
    pub which: Which,
    pub direction: Direction,
    pub number: u8,
}

/// Where a piece of `color` and `kind` on `from` lands when it moves as told; `None` when the
/// description cannot fit the piece (a horse moving sideways, a file it cannot reach).
fn destination(
    color: Color,
    kind: PieceKind,
    from: Square,
    direction: Direction,
    number: u8,
) -> Option<Square> {
    let forward: i8 = match color {
        Color::Red => 1,
        Color::Black => -1,
    };
    let sign = match direction {
        Direction::Advance => forward,
        Direction::Retreat => -forward,
        Direction::Sideways => 0,
    };
    if moves_straight(kind) {
        if direction == Direction::Sideways {
            let file = board_file(color, number)?;
            return (file != from.file()).then(|| Square::new(file, from.rank()))?;
        }
        return from.offset(0, sign * number as i8);
    }
    if direction == Direction::Sideways {
        return None;
    }
    let file = board_file(color, number)?;
    let df = file as i8 - from.file() as i8;
    let ranks = match (kind, df.abs()) {
        (PieceKind::Advisor, 1) => 1,
        (PieceKind::Elephant, 2) => 2,
        (PieceKind::Horse, 1) => 2,
        (PieceKind::Horse, 2) => 1,
        _ => return None,
    };
    from.offset(df, sign * ranks)
}

/// Finds the legal move that `spoken` describes in `pos`; `text` and `notation` are for errors.
pub(crate) fn resolve(
    pos: &Position,
    spoken: Spoken,
    text: &str,
    notation: Notation,
) -> Result<Move, MoveTextError> {
    let color = pos.side_to_move();
    let kind = spoken.kind;
    let all = stacks(pos, color, kind);
    let shared = || all.iter().filter(|s| s.squares.len() > 1);
    let names = format!("{} {}", color.name(), kind.name());
    let mut origins: ArrayVec<Square, MAX_STACK> = ArrayVec::new();
    let mut missing = None;
    match spoken.which {
        Which::File(f) => match all.iter().find(|s| s.own_file == f) {
            Some(s) => origins.extend(s.squares.iter().copied()),
            None => missing = Some(format!("no {names} on file {f}")),
        },
        Which::Placed { file, pick } => {
            for s in shared().filter(|s| file.is_none_or(|f| s.own_file == f)) {
                if let Some(i) = pick.index(s.squares.len()) {
                    origins.extend(s.squares.get(i).copied());
                }
            }
            if origins.is_empty() {
                missing = Some(match file {
                    Some(f) => format!("no such {names} among those on file {f}"),
                    None => format!("no such {names} among pieces sharing a file"),
                });
            }
        }
        Which::Numbered(n) => {
            let nth = shared()
                .flat_map(|s| s.squares.iter().copied())
                .nth(usize::from(n).wrapping_sub(1));
            match nth {
                Some(sq) => origins.push(sq),
                None => {
                    missing = Some(format!("no {names} numbered {n} among those sharing files"))
                }
            }
        }
    }
    if let Some(reason) = missing {
        return Err(MoveTextError::illegal(text, notation, Some(reason)));
    }
    let mut found: Vec<Move> = Vec::new();
    for &from in &origins {
        if let Some(to) = destination(color, kind, from, spoken.direction, spoken.number) {
            let mv = Move::new(from, to);
            if pos.is_legal(mv) && !found.contains(&mv) {
                found.push(mv);
            }
        }
    }
    match found.len() {
        0 => {
            let reason = match (spoken.which, origins.len()) {
                (Which::File(f), 1) => format!("the {names} on file {f} cannot move so"),
                (Which::File(f), _) => format!("no {names} on file {f} can move so"),
                _ => format!("that {names} cannot move so"),
            };
            Err(MoveTextError::illegal(text, notation, Some(reason)))
        }
        1 => Ok(found[0]),
        _ => Err(MoveTextError::ambiguous(text, notation, found)),
    }
}

/// Move text made uniform before it is read: white space removed, full-width forms (common in
/// GB-encoded records) turned into ASCII, dashes into `-`.
pub(crate) fn normalize(text: &str) -> String {
    /// Offset from the full-width forms U+FF01..U+FF5E to ASCII `!`..`~`.
    const FULL_WIDTH_OFFSET: u32 = 0xFEE0;
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - FULL_WIDTH_OFFSET).unwrap_or(c),
            '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
            _ => c,
        })
        .collect()
}

/// The value of an ASCII digit 1-9.
pub(crate) fn digit(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

/// The ASCII digit of `n` (1-9).
pub(crate) fn digit_char(n: u8) -> char {
    char::from(b'0' + n.min(9))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_numbers_run_from_each_side_s_right() {
        assert_eq!(own_file(Color::Red, 8), 1);
        assert_eq!(own_file(Color::Red, 0), 9);
        assert_eq!(own_file(Color::Black, 0), 1);
        assert_eq!(own_file(Color::Black, 8), 9);
        for color in Color::BOTH {
            for f in 0..9 {
                assert_eq!(board_file(color, own_file(color, f)), Some(f));
            }
        }
        assert_eq!(board_file(Color::Red, 0), None);
        assert_eq!(board_file(Color::Red, 10), None);
    }

    #[test]
    fn marks_and_indices_are_inverse() {
        for len in 2..=5 {
            for index in 0..len {
                let pick = Pick::of(index, len);
                assert_eq!(pick.index(len), Some(index), "{pick:?} of {len}");
            }
        }
        assert_eq!(Pick::of(1, 3), Pick::Middle);
        assert_eq!(Pick::of(0, 4), Pick::First);
        assert_eq!(Pick::of(2, 4), Pick::Rear);
        assert_eq!(Pick::Middle.index(4), None);
    }

    #[test]
    fn normalize_full_width_and_space() {
        assert_eq!(normalize(" Ｃ２＝５ "), "C2=5");
        assert_eq!(normalize("马８进７"), "马8进7");
        assert_eq!(normalize("P2–5"), "P2-5");
        assert_eq!(normalize("炮 二 平 五"), "炮二平五");
    }
}
