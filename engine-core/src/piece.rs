//! Colours, piece kinds and coloured pieces.

use std::fmt;

/// The side to move or owning a piece. Red moves first and sits on ranks 0-4 (the Law's "White").
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Moves first; upper-case letters in FEN; `w` (or `r`) as side to move.
    Red = 0,
    /// Lower-case letters in FEN; `b` as side to move.
    Black = 1,
}

impl Color {
    /// Both colours, in index order.
    pub const BOTH: [Color; 2] = [Color::Red, Color::Black];

    /// The other side.
    #[inline(always)]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black: an index into per-colour tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Human-readable name.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "Red",
            Color::Black => "Black",
        }
    }
}

/// The seven kinds of xiangqi pieces.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PieceKind {
    /// General / king (K): one orthogonal step inside the palace.
    General = 0,
    /// Advisor (A): one diagonal step inside the palace.
    Advisor = 1,
    /// Elephant (B or E): two diagonal steps on its own half, blocked by a piece on the eye.
    Elephant = 2,
    /// Horse (N or H): one orthogonal then one diagonal step, blocked by a piece on the leg.
    Horse = 3,
    /// Chariot / rook (R): slides orthogonally.
    Chariot = 4,
    /// Cannon (C): slides orthogonally; captures by jumping exactly one screen.
    Cannon = 5,
    /// Soldier / pawn (P): forward; also sideways after crossing the river.
    Soldier = 6,
}

impl PieceKind {
    /// All kinds in index order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::General,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ];

    /// Index 0..7 into per-kind tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The most pieces of this kind one side can have (there are no promotions in xiangqi).
    pub const fn max_count(self) -> u32 {
        match self {
            PieceKind::General => 1,
            PieceKind::Soldier => 5,
            _ => 2,
        }
    }

    /// Canonical upper-case FEN letter (N for horse, B for elephant).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::General => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Chariot => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Soldier => 'P',
        }
    }

    /// Parses an upper- or lower-case letter, accepting both N/H for the horse and B/E for the elephant.
    pub const fn from_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'K' => Some(PieceKind::General),
            'A' => Some(PieceKind::Advisor),
            'B' | 'E' => Some(PieceKind::Elephant),
            'N' | 'H' => Some(PieceKind::Horse),
            'R' => Some(PieceKind::Chariot),
            'C' => Some(PieceKind::Cannon),
            'P' => Some(PieceKind::Soldier),
            _ => None,
        }
    }

    /// English name, for explanations shown to people.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::General => "general",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Chariot => "chariot",
            PieceKind::Cannon => "cannon",
            PieceKind::Soldier => "soldier",
        }
    }
}

/// Kind of each 3-bit code; code 7 is never used by a real piece.
const KIND_OF_CODE: [PieceKind; 8] = [
    PieceKind::General,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Chariot,
    PieceKind::Cannon,
    PieceKind::Soldier,
    PieceKind::Soldier,
];

/// A coloured piece, packed into one byte (`colour * 8 + kind`) so that `Option<Piece>` is one
/// byte too (the mailbox) and colour and kind are a shift and a mask away.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Piece(u8);

impl Piece {
    /// Size of the index space of [`Piece::index`] (two indices, 7 and 15, are unused); for
    /// per-piece tables such as Zobrist keys.
    pub const COUNT: usize = 16;

    /// The piece of `kind` owned by `color`.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(color as u8 * 8 + kind as u8)
    }

    /// Owner.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 < 8 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// Kind.
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        KIND_OF_CODE[(self.0 & 7) as usize]
    }

    /// Index 0..16 into per-piece tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Canonical FEN letter: upper case for Red, lower case for Black.
    pub const fn fen_char(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Parses a FEN letter (N/H and B/E both accepted).
    pub const fn from_fen_char(c: char) -> Option<Piece> {
        match PieceKind::from_letter(c) {
            Some(kind) => Some(Piece::new(
                if c.is_ascii_uppercase() {
                    Color::Red
                } else {
                    Color::Black
                },
                kind,
            )),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color().name(), self.kind().name())
    }
}
