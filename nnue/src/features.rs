//! Input features: which input of the network a piece on a square switches on.
//!
//! The network is a *perspective* network: it keeps one accumulator per side, and each side sees
//! the board from its own side of the river. For a perspective `p`, a piece contributes the input
//!
//! ```text
//! index = (relation * 7 + kind) * 90 + oriented_square
//! ```
//!
//! where `relation` is 0 for `p`'s own pieces and 1 for the opponent's, `kind` is
//! [`PieceKind::index`] (general 0, advisor 1, elephant 2, horse 3, chariot 4, cannon 5,
//! soldier 6), and `oriented_square` is the square index (`rank * 9 + file`) for Red and the
//! rank-mirrored square (`rank -> 9 - rank`, same file) for Black. So the same arrangement of
//! pieces, seen by the side that owns it, lights the same inputs whichever colour that side is.
//!
//! All 90 squares are indexable for every kind: a composed position with, say, an advisor off
//! its five palace points still maps into range (such inputs simply never fired in training).
//!
//! The functions take the perspective's own general square although [`FeatureSet::PieceSquare`]
//! ignores it: king-bucketed sets and horizontal mirroring (planned) depend on it, and then a
//! general move may require a refresh of that perspective ([`FeatureSet::refresh_needed`]).

use engine_core::{Color, Piece, Position, Square};

/// Piece kinds per side.
const KINDS: usize = 7;
/// Board squares.
const SQUARES: usize = Square::COUNT;
/// The most pieces on a board (16 per side): the most active features per perspective.
pub const MAX_ACTIVE: usize = 32;

/// A feature set: the mapping from (perspective, piece, square) to an input index.
///
/// The numeric id is stored in the net file, so a net trained on one set is never run on another.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FeatureSet {
    /// 2 relations x 7 kinds x 90 squares = 1260 inputs per perspective; Black mirrored by rank.
    PieceSquare,
}

impl FeatureSet {
    /// Every feature set this build knows.
    pub const ALL: [FeatureSet; 1] = [FeatureSet::PieceSquare];

    /// The id written in net files.
    pub const fn id(self) -> u32 {
        match self {
            FeatureSet::PieceSquare => 1,
        }
    }

    /// The feature set with this file id, if this build knows it.
    pub fn from_id(id: u32) -> Option<FeatureSet> {
        FeatureSet::ALL.into_iter().find(|f| f.id() == id)
    }

    /// A short human-readable name.
    pub const fn name(self) -> &'static str {
        match self {
            FeatureSet::PieceSquare => "piece-square 2x7x90",
        }
    }

    /// Number of inputs per perspective.
    pub const fn inputs(self) -> usize {
        match self {
            FeatureSet::PieceSquare => 2 * KINDS * SQUARES,
        }
    }

    /// The input that `piece` on `sq` switches on for `perspective`, whose own general stands on
    /// `own_general`. Always `< self.inputs()`.
    #[inline(always)]
    pub fn index(self, perspective: Color, own_general: Square, piece: Piece, sq: Square) -> usize {
        let _ = own_general;
        match self {
            FeatureSet::PieceSquare => {
                let relation = usize::from(piece.color() != perspective);
                (relation * KINDS + piece.kind().index()) * SQUARES
                    + orient(perspective, sq).index()
            }
        }
    }

    /// Whether moving `perspective`'s own general from `from` to `to` changes the mapping for that
    /// perspective, so that its accumulator must be rebuilt instead of updated.
    #[inline(always)]
    pub fn refresh_needed(self, perspective: Color, from: Square, to: Square) -> bool {
        let _ = (perspective, from, to);
        match self {
            FeatureSet::PieceSquare => false,
        }
    }

    /// Every input active in `pos` for `perspective`, in square order.
    pub fn active(self, pos: &Position, perspective: Color) -> arrayvec::ArrayVec<u16, MAX_ACTIVE> {
        let own_general = pos.general_square(perspective);
        let mut out = arrayvec::ArrayVec::new();
        for sq in pos.occupied() {
            if let Some(piece) = pos.piece_at(sq) {
                // The index is < 1260 (or another set's small input count), so it fits a u16.
                out.push(self.index(perspective, own_general, piece, sq) as u16);
            }
        }
        out
    }
}

/// The square as seen from `perspective`'s side of the board: unchanged for Red, rank-mirrored for
/// Black (same file), so each side sees its own pieces at the bottom.
#[inline(always)]
pub fn orient(perspective: Color, sq: Square) -> Square {
    match perspective {
        Color::Red => sq,
        Color::Black => sq.flip_rank(),
    }
}

/// How the output layer is chosen: one output per bucket, picked from the position.
///
/// Material buckets let the net weigh its hidden features differently in the middle game and the
/// endgame. The id is stored in the net file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OutputBuckets {
    /// One output for every position.
    Single,
    /// `n` buckets by the number of pieces on the board other than the generals (0-30):
    /// `bucket = pieces * n / 31`.
    PieceCount(u8),
}

/// The most output buckets a net may have.
pub const MAX_OUTPUT_BUCKETS: usize = 16;
/// Pieces other than the two generals in the initial position, plus one (the bucket divisor).
const PIECE_COUNT_SPAN: usize = 31;

impl OutputBuckets {
    /// The scheme id written in net files.
    pub const fn id(self) -> u32 {
        match self {
            OutputBuckets::Single => 0,
            OutputBuckets::PieceCount(_) => 1,
        }
    }

    /// The scheme with this file id and bucket count, if valid.
    pub fn from_id(id: u32, buckets: usize) -> Option<OutputBuckets> {
        match (id, buckets) {
            (0, 1) => Some(OutputBuckets::Single),
            (1, 2..=MAX_OUTPUT_BUCKETS) => Some(OutputBuckets::PieceCount(buckets as u8)),
            _ => None,
        }
    }

    /// Number of output buckets.
    pub const fn count(self) -> usize {
        match self {
            OutputBuckets::Single => 1,
            OutputBuckets::PieceCount(n) => n as usize,
        }
    }

    /// The bucket for `pos` (always `< self.count()`).
    #[inline(always)]
    pub fn bucket(self, pos: &Position) -> usize {
        match self {
            OutputBuckets::Single => 0,
            OutputBuckets::PieceCount(n) => {
                let pieces = (pos.occupied().count() as usize).saturating_sub(2);
                (pieces.min(PIECE_COUNT_SPAN - 1) * n as usize) / PIECE_COUNT_SPAN
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::{PieceKind, START_FEN};

    #[test]
    fn indices_are_in_range_and_distinct_per_perspective() {
        let pos = Position::from_fen(START_FEN).unwrap();
        for p in Color::BOTH {
            let mut active = FeatureSet::PieceSquare.active(&pos, p).to_vec();
            assert_eq!(active.len(), 32);
            assert!(active.iter().all(|&i| (i as usize) < 1260));
            active.sort_unstable();
            active.dedup();
            assert_eq!(active.len(), 32);
        }
    }

    #[test]
    fn the_start_position_looks_the_same_from_both_sides() {
        let pos = Position::from_fen(START_FEN).unwrap();
        let mut red = FeatureSet::PieceSquare.active(&pos, Color::Red).to_vec();
        let mut black = FeatureSet::PieceSquare.active(&pos, Color::Black).to_vec();
        red.sort_unstable();
        black.sort_unstable();
        assert_eq!(red, black);
    }

    #[test]
    fn colour_flip_maps_each_input_to_its_mirror() {
        let set = FeatureSet::PieceSquare;
        let g = Square::new(4, 0).unwrap();
        for sq in Square::all() {
            for kind in PieceKind::ALL {
                for color in Color::BOTH {
                    let piece = Piece::new(color, kind);
                    let mirrored = Piece::new(color.opponent(), kind);
                    assert_eq!(
                        set.index(Color::Red, g, piece, sq),
                        set.index(Color::Black, g.flip_rank(), mirrored, sq.flip_rank())
                    );
                }
            }
        }
    }

    #[test]
    fn own_and_enemy_pieces_use_separate_halves() {
        let set = FeatureSet::PieceSquare;
        let g = Square::new(4, 0).unwrap();
        let sq = Square::new(0, 0).unwrap();
        let own = set.index(
            Color::Red,
            g,
            Piece::new(Color::Red, PieceKind::Chariot),
            sq,
        );
        let theirs = set.index(
            Color::Red,
            g,
            Piece::new(Color::Black, PieceKind::Chariot),
            sq,
        );
        assert!(own < 630 && theirs >= 630);
        assert_eq!(own, 4 * 90);
    }

    #[test]
    fn piece_count_buckets_cover_the_range() {
        let b = OutputBuckets::PieceCount(8);
        let start = Position::from_fen(START_FEN).unwrap();
        assert_eq!(b.bucket(&start), 7);
        let bare = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
        assert_eq!(b.bucket(&bare), 0);
        assert_eq!(OutputBuckets::from_id(1, 8), Some(b));
        assert_eq!(OutputBuckets::from_id(0, 1), Some(OutputBuckets::Single));
        assert_eq!(OutputBuckets::from_id(0, 2), None);
    }
}
