//! The accumulator cache ("Finny table"): a faster refresh for perspectives whose input mapping
//! changed (a king-bucket, mirror or attack-bucket change) or that must be rebuilt for another
//! reason.
//!
//! For each perspective and each input mapping ([`FeatureSet::mapping`]: king bucket, mirror
//! state and attack bucket) the table keeps the last accumulator computed under that mapping,
//! together with the piece placement it was computed for. A refresh starts from that entry and applies only the
//! differences between the stored placement and the current one (a piece removed: minus its row;
//! a piece added: plus its row), then stores the result back. Positions met in a search differ
//! by a few pieces from the last one seen with the same mapping, so a refresh costs a few
//! row passes instead of one per piece on the board.
//!
//! Accumulator arithmetic is wrapping `i16` addition, a group, so the result is bit for bit the
//! accumulator a full refresh computes, whatever the order of the rows (tested). Every entry
//! starts as the feature biases of an empty board; the table starts over when it is used with
//! another net than the one it was filled with.

use crate::features::{Anchor, FeatureSet, MAX_ACTIVE, MAX_MAPPINGS};
use crate::network::Network;
use crate::simd::Block;
use engine_core::{Color, Piece, Position, Square};

/// Squares per rank (the placement is stored rank by rank, like square indices).
const FILES: usize = 9;

/// What stands on each square: the placement an entry was computed for.
type Placement = [Option<Piece>; Square::COUNT];

/// Per perspective and input mapping, the last accumulator and the placement it belongs to.
#[derive(Clone)]
pub struct FinnyTable {
    /// The net the entries were computed with (0: none yet).
    net_id: u64,
    features: FeatureSet,
    /// Blocks per accumulator.
    blocks: usize,
    /// Entry `e = p · MAX_MAPPINGS + mapping` holds `acc[e · blocks ..][..blocks]`.
    acc: Vec<Block>,
    /// Entry `e`'s placement.
    placement: Vec<Placement>,
}

impl std::fmt::Debug for FinnyTable {
    /// The shape only; the entries would be kilobytes of numbers.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "FinnyTable({}, {} blocks)",
            self.features.name(),
            self.blocks
        )
    }
}

impl Default for FinnyTable {
    fn default() -> FinnyTable {
        FinnyTable::new()
    }
}

impl FinnyTable {
    /// An empty table; it is filled for a net at its first use.
    pub fn new() -> FinnyTable {
        FinnyTable {
            net_id: 0,
            features: FeatureSet::PieceSquare,
            blocks: 0,
            acc: Vec::new(),
            placement: Vec::new(),
        }
    }

    /// Empties every entry for `net`: the feature biases of an empty board.
    pub fn reset(&mut self, net: &Network) {
        self.net_id = net.id();
        self.features = net.features();
        self.blocks = net.blocks();
        let entries = 2 * MAX_MAPPINGS;
        self.acc.clear();
        for _ in 0..entries {
            self.acc.extend_from_slice(net.feature_biases());
        }
        self.placement.clear();
        self.placement.resize(entries, [None; Square::COUNT]);
    }

    /// Writes `perspective`'s accumulator for `pos` into `out` (`H / 32` blocks), equal bit for
    /// bit to [`Network::refresh`], from the cached entry of its input mapping; stores it back.
    pub fn refresh(
        &mut self,
        net: &Network,
        pos: &Position,
        perspective: Color,
        out: &mut [Block],
    ) {
        if net.id() != self.net_id {
            self.reset(net);
        }
        let anchor = Anchor::of(pos, perspective);
        let entry = perspective.index() * MAX_MAPPINGS + self.features.mapping(perspective, anchor);
        let mut current: Placement = [None; Square::COUNT];
        for sq in pos.occupied() {
            current[sq.index()] = pos.piece_at(sq);
        }
        // Every piece of the cached and of the current placement maps under the same mapping,
        // so the current anchor indexes both.
        let map = self.features.input_map(perspective, anchor);
        let index = |piece: Piece, sq: Square| map.index(piece, sq);
        let mut added = arrayvec::ArrayVec::<usize, MAX_ACTIVE>::new();
        let mut removed = arrayvec::ArrayVec::<usize, MAX_ACTIVE>::new();
        let cached = &self.placement[entry];
        // Rank by rank: most ranks are unchanged and cost one comparison.
        for (rank, (old_rank, new_rank)) in cached
            .chunks_exact(FILES)
            .zip(current.chunks_exact(FILES))
            .enumerate()
        {
            if old_rank == new_rank {
                continue;
            }
            for (file, (&old, &new)) in old_rank.iter().zip(new_rank).enumerate() {
                if old != new {
                    let sq = Square::from_index(rank * FILES + file)
                        .expect("a rank and file of the board");
                    // Both placements come from positions, which hold at most MAX_ACTIVE pieces.
                    if let Some(piece) = old {
                        removed.push(index(piece, sq));
                    }
                    if let Some(piece) = new {
                        added.push(index(piece, sq));
                    }
                }
            }
        }
        let n = self.blocks;
        let acc = &mut self.acc[entry * n..(entry + 1) * n];
        let simd = net.simd();
        let pairs = added.len().min(removed.len());
        for (&a, &r) in added.iter().zip(&removed) {
            simd.add_sub_assign(acc, net.feature_row(a), net.feature_row(r));
        }
        for &a in &added[pairs..] {
            simd.add_assign(acc, net.feature_row(a));
        }
        for &r in &removed[pairs..] {
            simd.sub_assign(acc, net.feature_row(r));
        }
        out.copy_from_slice(acc);
        self.placement[entry] = current;
    }
}
