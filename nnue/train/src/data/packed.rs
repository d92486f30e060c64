//! A training position in 32 bytes: the board, the side to move, the score and the result.
//!
//! A trainer holds every kept position of its data in memory in this form (100M positions are
//! 3.2 GB) and decodes the input features on the fly.

use super::board::{PackedBoard, PIECE_CODE_BYTES};
use super::record::points_for;
use arrayvec::ArrayVec;
use engine_core::{Color, GameResult, PieceKind, Position, Square};
use nnue::features::{Anchor, FeatureSet, OutputBuckets, MAX_ACTIVE};

/// Active feature indices of one perspective.
pub type ActiveFeatures = ArrayVec<u16, MAX_ACTIVE>;

/// The 90-bit occupancy as three little-endian words (what [`PackedPosition::board`] joins).
fn split_occupancy(occupancy: u128) -> [u32; 3] {
    [
        occupancy as u32,
        (occupancy >> 32) as u32,
        (occupancy >> 64) as u32,
    ]
}

/// One training position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct PackedPosition {
    /// Occupancy bits 0-89 in three little-endian words.
    occupancy: [u32; 3],
    /// As [`PackedBoard::codes`].
    codes: [u8; PIECE_CODE_BYTES],
    /// Training score, side to move's view, engine units.
    score: i16,
    /// Bit 0: side to move (1 = Black); bits 1-2: the game's result for the side to move
    /// (0 loss, 1 draw, 2 win).
    flags: u8,
    /// Output bucket of the position under the scheme it was packed for.
    bucket: u8,
}

impl PackedPosition {
    /// Packs `pos` with its training `score` (side to move's view; clamped to the `i16` range),
    /// the game's `result` and the output bucket under `buckets`.
    pub fn new(
        pos: &Position,
        score: i32,
        result: GameResult,
        buckets: OutputBuckets,
    ) -> PackedPosition {
        let board = PackedBoard::from_position(pos);
        let stm = pos.side_to_move();
        let result_for_stm = (points_for(result, stm) * 2.0) as u8;
        PackedPosition {
            occupancy: split_occupancy(board.occupancy),
            codes: board.codes,
            score: score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            flags: stm.index() as u8 | (result_for_stm << 1),
            // Bucket counts are at most MAX_OUTPUT_BUCKETS (16).
            bucket: buckets.bucket(pos) as u8,
        }
    }

    /// The same training position mirrored file for file (score, result, side to move and
    /// bucket unchanged): xiangqi's rules are symmetric under the mirror, so it is an equally
    /// valid example.
    pub fn mirrored_files(&self) -> PackedPosition {
        let board = self.board().mirrored_files();
        PackedPosition {
            occupancy: split_occupancy(board.occupancy),
            codes: board.codes,
            ..*self
        }
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> PackedBoard {
        let [a, b, c] = self.occupancy;
        PackedBoard {
            occupancy: u128::from(a) | u128::from(b) << 32 | u128::from(c) << 64,
            codes: self.codes,
        }
    }

    /// Side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        if self.flags & 1 == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// Training score, side to move's view, engine units.
    #[inline]
    pub fn score(&self) -> i32 {
        i32::from(self.score)
    }

    /// The game's result for the side to move: 1 win, ½ draw, 0 loss.
    #[inline]
    pub fn result(&self) -> f32 {
        f32::from((self.flags >> 1) & 3) * 0.5
    }

    /// The output bucket.
    #[inline]
    pub fn bucket(&self) -> usize {
        usize::from(self.bucket)
    }

    /// The active inputs of the side to move's and the other side's perspective, in square order:
    /// the same indices as [`FeatureSet::active`] on the position.
    #[inline]
    pub fn features(&self, set: FeatureSet) -> (ActiveFeatures, ActiveFeatures) {
        let board = self.board();
        let stm = self.side_to_move();
        let other = stm.opponent();
        let mut pieces: ArrayVec<_, MAX_ACTIVE> = ArrayVec::new();
        // A packed position comes from a legal position, which has both generals; the fallback
        // square only keeps this function total.
        let mut anchors = [Anchor {
            general: Square::from_index(0).expect("square 0"),
            chariots: 0,
            minors: 0,
        }; 2];
        // Material matters to attack-bucket sets only; the others skip counting it.
        let count_material = set.attack_buckets() > 1;
        for (sq, piece) in board.pieces().take(MAX_ACTIVE) {
            let anchor = &mut anchors[piece.color().index()];
            if piece.kind() == PieceKind::General {
                anchor.general = sq;
            } else if count_material {
                *anchor = anchor.after_gaining(piece.kind());
            }
            pieces.push((sq, piece));
        }
        let map_stm = set.input_map(stm, anchors[stm.index()]);
        let map_other = set.input_map(other, anchors[other.index()]);
        let mut a = ActiveFeatures::new();
        let mut b = ActiveFeatures::new();
        for &(sq, piece) in &pieces {
            // Indices are below the feature set's input count (at most 30240), so they fit a u16.
            a.push(map_stm.index(piece, sq) as u16);
            b.push(map_other.index(piece, sq) as u16);
        }
        (a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::START_FEN;

    #[test]
    fn the_mirror_image_reverses_every_rank_and_keeps_the_rest() {
        let fen = "2bakab2/9/2n1c1n2/p3p3p/2p6/6P2/P3P3P/2N1C1N2/9/2BAKAB2 b - - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        let packed = PackedPosition::new(&pos, -123, GameResult::RedWins, OutputBuckets::Single);
        let mirrored = packed.mirrored_files();
        let reversed: Vec<String> = packed
            .board()
            .fen_board()
            .split('/')
            .map(|rank| rank.chars().rev().collect())
            .collect();
        assert_eq!(mirrored.board().fen_board(), reversed.join("/"));
        assert_eq!(mirrored.board().validate(), Ok(()));
        assert_eq!(
            (mirrored.score(), mirrored.result(), mirrored.side_to_move()),
            (packed.score(), packed.result(), packed.side_to_move())
        );
        assert_eq!(mirrored.bucket(), packed.bucket());
        assert_eq!(mirrored.mirrored_files(), packed);
        assert_ne!(mirrored, packed);
    }

    #[test]
    fn is_32_bytes() {
        assert_eq!(std::mem::size_of::<PackedPosition>(), 32);
    }

    #[test]
    fn keeps_everything_it_packs() {
        let mut pos = Position::from_fen(START_FEN).unwrap();
        let mv = pos.legal_moves()[3];
        pos.make_move(mv);
        let p = PackedPosition::new(&pos, -57, GameResult::RedWins, OutputBuckets::PieceCount(4));
        assert_eq!(p.side_to_move(), Color::Black);
        assert_eq!(p.score(), -57);
        assert_eq!(p.result(), 0.0);
        assert_eq!(p.bucket(), OutputBuckets::PieceCount(4).bucket(&pos));
        assert_eq!(p.board(), PackedBoard::from_position(&pos));
        let (stm, other) = p.features(FeatureSet::PieceSquare);
        assert_eq!(stm, FeatureSet::PieceSquare.active(&pos, Color::Black));
        assert_eq!(other, FeatureSet::PieceSquare.active(&pos, Color::Red));
        let draw = PackedPosition::new(&pos, 0, GameResult::Draw, OutputBuckets::Single);
        assert_eq!(draw.result(), 0.5);
        let win = PackedPosition::new(&pos, 0, GameResult::BlackWins, OutputBuckets::Single);
        assert_eq!(win.result(), 1.0);
    }

    #[test]
    fn every_feature_set_decodes_the_inputs_of_the_position() {
        // Full material, one chariot and no horse or cannon, none of either, general off-centre.
        for fen in [
            START_FEN,
            "2bak4/4a4/4b4/9/2p6/9/9/4B4/4A4/R2AK4 b - - 0 1",
            "3k5/4a4/9/9/9/2n6/9/9/9/5K3 w - - 0 1",
            "5k3/9/9/9/9/9/9/9/4c4/3K5 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let p = PackedPosition::new(&pos, 0, GameResult::Draw, OutputBuckets::Single);
            let stm = pos.side_to_move();
            for set in FeatureSet::ALL {
                let (a, b) = p.features(set);
                assert_eq!(a, set.active(&pos, stm), "{fen} {set:?}");
                assert_eq!(b, set.active(&pos, stm.opponent()), "{fen} {set:?}");
            }
        }
    }
}
