//! The accumulator stack a search worker keeps: one entry per ply, updated incrementally.
//!
//! Each perspective's accumulator is the first layer's output before the activation
//! (`bias + Σ weight rows of the active inputs`). A move changes few inputs, so the accumulator of
//! a child is its parent's plus one row and minus one (a capture: minus one more), per
//! perspective.
//!
//! Updates are **lazy**: [`AccumulatorStack::push`] only records what the move changed;
//! [`AccumulatorStack::evaluate`] walks back to the nearest computed ancestor and applies the
//! recorded changes forward, computing every entry on the way (each is one fused
//! `parent ± rows` pass). Nodes the search never evaluates (cut off by the transposition table,
//! for example) cost no vector work at all, and a null move does not even get its own
//! accumulators: it shares its parent's (the side to move only swaps which one is "us").
//!
//! When the feature set says a move changes a perspective's input mapping
//! ([`FeatureSet::refresh_needed`]: a general move across king buckets or the mirror, a capture
//! of a side's last attacker of a kind), that perspective is rebuilt
//! from the position at evaluation instead of updated. Rebuilds go through the stack's
//! accumulator cache ([`FinnyTable`]), which applies only the differences from the last
//! accumulator computed under the same mapping (on by default;
//! [`AccumulatorStack::set_cache`] turns it off, for tests and benchmarks).

use crate::features::{Anchor, FeatureSet};
use crate::finny::FinnyTable;
use crate::network::Network;
use crate::simd::Block;
use engine_core::{Color, Move, Piece, PieceKind, Position, Square, Undo};

/// Entries reserved up front: the search's maximum ply plus quiescence, so a search never
/// reallocates (deeper stacks still work, they grow).
const RESERVED_PLIES: usize = 256;

/// What changed between an entry's parent and the entry.
#[derive(Copy, Clone, Debug)]
enum Change {
    /// The root: built from a position.
    Root,
    /// A pass: the same pieces, the other side to move.
    Null,
    /// `piece` went from `from` to `to`, capturing `captured` there.
    Move {
        piece: Piece,
        from: Square,
        to: Square,
        captured: Option<Piece>,
    },
    /// Not known (the caller could not say which piece moved): rebuilt from the position.
    Unknown,
}

#[derive(Copy, Clone, Debug)]
struct Entry {
    change: Change,
    /// The entry whose accumulators hold this node's values: itself, or for a null move the
    /// nearest ancestor that is not one.
    source: usize,
    /// Both sides' anchors at this node (general square and attackers, indexed by
    /// `Color::index`), for feature sets that depend on them.
    anchors: [Anchor; 2],
    /// Whether the perspective's accumulator of this entry holds its values.
    computed: [bool; 2],
    /// Whether the perspective must be rebuilt from the position rather than updated from the
    /// parent.
    needs_refresh: [bool; 2],
}

/// The per-worker stack of accumulators, from the search root to the current node.
///
/// Usage: [`reset`](Self::reset) at the root, then for every move made
/// [`push`](Self::push)/[`push_move`](Self::push_move) (or [`push_null`](Self::push_null)), and
/// [`pop`](Self::pop) when it is taken back; [`evaluate`](Self::evaluate) at any node.
#[derive(Clone)]
pub struct AccumulatorStack {
    /// The network the accumulators were computed with.
    net_id: u64,
    features: FeatureSet,
    /// Blocks per accumulator.
    blocks: usize,
    /// Entry `i`'s accumulator for perspective `p` is `acc[(2i + p) · blocks ..][..blocks]`.
    acc: Vec<Block>,
    entries: Vec<Entry>,
    /// Scratch: entries to compute, newest first (kept to avoid allocating per evaluation).
    chain: Vec<usize>,
    /// The accumulator cache rebuilds start from (it notices a new net by itself).
    cache: FinnyTable,
    /// Whether rebuilds use `cache` (else they sum every active row).
    use_cache: bool,
    /// Perspectives rebuilt from the position since the last reset (the root's not counted).
    rebuilds: usize,
    /// Test hook: treat every own-general move as changing that perspective's mapping, so the
    /// refresh path runs whatever the feature set.
    #[cfg(test)]
    refresh_on_general_moves: bool,
}

impl std::fmt::Debug for AccumulatorStack {
    /// The shape and the ply; the accumulators themselves would be kilobytes of numbers.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "AccumulatorStack(hidden {}, ply {})",
            self.blocks * crate::simd::BLOCK_LANES,
            self.ply()
        )
    }
}

impl AccumulatorStack {
    /// A stack for `net` with `pos` as its root.
    pub fn new(net: &Network, pos: &Position) -> AccumulatorStack {
        let mut stack = AccumulatorStack {
            net_id: 0,
            features: net.features(),
            blocks: net.blocks(),
            acc: Vec::new(),
            entries: Vec::with_capacity(RESERVED_PLIES),
            chain: Vec::with_capacity(RESERVED_PLIES),
            cache: FinnyTable::new(),
            use_cache: true,
            rebuilds: 0,
            #[cfg(test)]
            refresh_on_general_moves: false,
        };
        stack.reset(net, pos);
        stack
    }

    /// Makes `pos` the root (one entry), computed from scratch with `net`. Call it at the start
    /// of every search; it also adopts a new net.
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        self.net_id = net.id();
        self.features = net.features();
        self.blocks = net.blocks();
        // Stale values are harmless: an entry's slot is written before it is marked computed.
        let needed = 2 * self.blocks * RESERVED_PLIES;
        if self.acc.len() < needed {
            self.acc.resize(needed, Block::ZERO);
        }
        self.entries.clear();
        self.entries.push(Entry {
            change: Change::Root,
            source: 0,
            anchors: anchors_of(pos),
            computed: [true; 2],
            needs_refresh: [false; 2],
        });
        self.rebuilds = 0;
        for p in Color::BOTH {
            self.rebuild(net, pos, 0, p);
        }
    }

    /// Whether rebuilds start from the accumulator cache ([`FinnyTable`], the default) or sum
    /// every active row. Both give the same accumulators bit for bit.
    pub fn set_cache(&mut self, enabled: bool) {
        self.use_cache = enabled;
    }

    /// Perspectives rebuilt from the position (mapping changes, unknown moves, a new net) since
    /// the last [`reset`](Self::reset), the root's own not counted.
    pub fn rebuilds(&self) -> usize {
        self.rebuilds
    }

    /// Writes entry `index`'s accumulator for `p` from the position `pos`.
    fn rebuild(&mut self, net: &Network, pos: &Position, index: usize, p: Color) {
        let range = self.slot(index, p);
        if self.use_cache {
            self.cache.refresh(net, pos, p, &mut self.acc[range]);
        } else {
            net.refresh(pos, p, &mut self.acc[range]);
        }
    }

    /// Records the move `mv` of `piece` (which stood on `mv.from()`), capturing `captured` (which
    /// stood on `mv.to()`, as in [`Undo::captured`]). Costs no vector work until an evaluation.
    pub fn push(&mut self, mv: Move, piece: Piece, captured: Option<Piece>) {
        let (from, to) = (mv.from(), mv.to());
        let parent = self.top().anchors;
        let mut anchors = parent;
        let mut needs_refresh = [false; 2];
        // Only the mover's general and the captured side's material move an anchor.
        if piece.kind() == PieceKind::General {
            let (p, i) = (piece.color(), piece.color().index());
            anchors[i].general = to;
            needs_refresh[i] = self.features.refresh_needed(p, parent[i], anchors[i]);
            #[cfg(test)]
            {
                needs_refresh[i] |= self.refresh_on_general_moves;
            }
        }
        if let Some(c) = captured {
            let (p, i) = (c.color(), c.color().index());
            anchors[i] = anchors[i].after_losing(c.kind());
            needs_refresh[i] = self.features.refresh_needed(p, parent[i], anchors[i]);
        }
        self.push_entry(
            Change::Move {
                piece,
                from,
                to,
                captured,
            },
            anchors,
            needs_refresh,
        );
    }

    /// Records `mv` just played on `pos_after` with `undo` the value `make_move` returned: the
    /// moved piece is read from `mv.to()`. If that square is empty (the caller's mistake), the
    /// entry is rebuilt from the position at evaluation, so results stay correct.
    pub fn push_move(&mut self, pos_after: &Position, mv: Move, undo: &Undo) {
        match pos_after.piece_at(mv.to()) {
            Some(piece) => self.push(mv, piece, undo.captured),
            None => {
                debug_assert!(false, "push_move: no piece on {}", mv.to());
                self.push_entry(Change::Unknown, anchors_of(pos_after), [true; 2]);
            }
        }
    }

    /// Records a null move (a pass). Free: the new node shares its parent's accumulators.
    pub fn push_null(&mut self) {
        let parent = *self.top();
        self.entries.push(Entry {
            change: Change::Null,
            source: parent.source,
            anchors: parent.anchors,
            computed: [false; 2],
            needs_refresh: [false; 2],
        });
    }

    /// Takes back the last push. The root is never popped (popping it is ignored).
    pub fn pop(&mut self) {
        debug_assert!(self.entries.len() > 1, "pop at the root");
        if self.entries.len() > 1 {
            self.entries.pop();
        }
    }

    /// Plies pushed since the root.
    pub fn ply(&self) -> usize {
        self.entries.len() - 1
    }

    /// The evaluation of the current node, whose position is `pos`: side to move's point of view,
    /// engine units, clamped to `±EVAL_LIMIT`. Computes whatever accumulators are still pending.
    ///
    /// `net` should be the net of the last [`reset`](Self::reset); if it is another one, every
    /// pending node is rebuilt from its position until the next reset (correct, but slow).
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        let source = self.materialise(net, pos);
        let stm = pos.side_to_move();
        let us = &self.acc[self.slot(source, stm)];
        let them = &self.acc[self.slot(source, stm.opponent())];
        net.output(us, them, net.buckets().bucket(pos))
    }

    /// The current node's accumulators, computed if pending, indexed by `Color::index` (Red's
    /// perspective first). For tests and diagnostics.
    pub fn accumulators(&mut self, net: &Network, pos: &Position) -> [&[Block]; 2] {
        let source = self.materialise(net, pos);
        let red = self.slot(source, Color::Red);
        let black = self.slot(source, Color::Black);
        [&self.acc[red], &self.acc[black]]
    }

    fn top(&self) -> &Entry {
        // The root entry is pushed at construction and never popped.
        &self.entries[self.entries.len() - 1]
    }

    /// The range of `acc` holding entry `index`'s accumulator for `p`.
    #[inline(always)]
    fn slot(&self, index: usize, p: Color) -> std::ops::Range<usize> {
        let start = (2 * index + p.index()) * self.blocks;
        start..start + self.blocks
    }

    fn push_entry(&mut self, change: Change, anchors: [Anchor; 2], needs_refresh: [bool; 2]) {
        let index = self.entries.len();
        self.entries.push(Entry {
            change,
            source: index,
            anchors,
            computed: [false; 2],
            needs_refresh,
        });
        let needed = 2 * self.blocks * (index + 1);
        if self.acc.len() < needed {
            self.acc.resize(needed.max(2 * self.acc.len()), Block::ZERO);
        }
    }

    /// Forgets every computed accumulator after `net` replaced the net they came from: each node
    /// is then rebuilt from its position when evaluated.
    fn adopt(&mut self, net: &Network) {
        self.net_id = net.id();
        self.features = net.features();
        self.blocks = net.blocks();
        let needed = 2 * self.blocks * self.entries.len().max(RESERVED_PLIES);
        if self.acc.len() < needed {
            self.acc.resize(needed, Block::ZERO);
        }
        for e in &mut self.entries {
            e.computed = [false; 2];
            e.needs_refresh = [true; 2];
        }
    }

    /// Computes the current node's accumulators if pending; returns the entry that holds them.
    fn materialise(&mut self, net: &Network, pos: &Position) -> usize {
        if net.id() != self.net_id {
            self.adopt(net);
        }
        let source = self.top().source;
        let entry = &self.entries[source];
        if entry.computed == [true; 2] {
            return source;
        }
        // The common case, one move since the last evaluation: update both perspectives from
        // the parent without walking.
        if entry.computed == [false; 2]
            && entry.needs_refresh == [false; 2]
            && matches!(entry.change, Change::Move { .. })
            && self.entries[self.entries[source - 1].source].computed == [true; 2]
        {
            for p in Color::BOTH {
                self.update(net, source, p);
            }
            return source;
        }
        for p in Color::BOTH {
            self.materialise_perspective(net, pos, source, p);
        }
        source
    }

    /// Brings entry `target`'s accumulator for `p` up to date: from the nearest computed
    /// ancestor through every pending entry in between, or from scratch if a move on the way
    /// changed `p`'s input mapping.
    fn materialise_perspective(&mut self, net: &Network, pos: &Position, target: usize, p: Color) {
        let pi = p.index();
        self.chain.clear();
        let mut i = target;
        let rebuild = loop {
            let e = &self.entries[i];
            if e.computed[pi] {
                break false;
            }
            // Only moves are updated incrementally: the root (computed unless a new net came),
            // unknown changes and changed input mappings are rebuilt. Null entries are never
            // sources, so the walk never meets one.
            if e.needs_refresh[pi] || !matches!(e.change, Change::Move { .. }) {
                break true;
            }
            self.chain.push(i);
            // A pushed entry's parent is the one below it; a null parent's values live at its
            // source.
            i = self.entries[i - 1].source;
        };
        if rebuild {
            self.rebuild(net, pos, target, p);
            self.entries[target].computed[pi] = true;
            self.rebuilds += 1;
            return;
        }
        while let Some(k) = self.chain.pop() {
            self.update(net, k, p);
        }
    }

    /// Computes move entry `k`'s accumulator for `p` from its parent's, which must be computed.
    #[inline]
    fn update(&mut self, net: &Network, k: usize, p: Color) {
        let pi = p.index();
        let parent = self.entries[k - 1].source;
        let entry = self.entries[k];
        // Callers pass move entries only.
        let Change::Move {
            piece,
            from,
            to,
            captured,
        } = entry.change
        else {
            return;
        };
        let map = self.features.input_map(p, entry.anchors[pi]);
        let index = |piece, sq| map.index(piece, sq);
        let (add, sub) = (index(piece, to), index(piece, from));
        let captured = captured.map(|c| index(c, to));
        // Parent slots lie before child slots (parent < k), so the split separates them.
        let parent_start = self.slot(parent, p).start;
        let child_start = self.slot(k, p).start;
        let n = self.blocks;
        let (lower, upper) = self.acc.split_at_mut(child_start);
        let src = &lower[parent_start..parent_start + n];
        let dst = &mut upper[..n];
        let simd = net.simd();
        match captured {
            None => simd.add_sub(dst, src, net.feature_row(add), net.feature_row(sub)),
            Some(cap) => simd.add_sub2(
                dst,
                src,
                net.feature_row(add),
                net.feature_row(sub),
                net.feature_row(cap),
            ),
        }
        self.entries[k].computed[pi] = true;
    }
}

/// Both sides' anchors in `pos`, indexed by `Color::index`.
fn anchors_of(pos: &Position) -> [Anchor; 2] {
    [Anchor::of(pos, Color::Red), Anchor::of(pos, Color::Black)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random_net::{Rng, Spec};
    use engine_core::START_FEN;

    /// The rebuild path for feature sets whose mapping depends on the general (king buckets,
    /// mirroring): with every own-general move flagged, walks through play with take-backs and
    /// null moves, evaluating now and then, and compares with from-scratch accumulators.
    #[test]
    fn perspectives_flagged_for_refresh_are_rebuilt_correctly() {
        let net = Network::from_net_file(&Spec::screlu(256).build(77)).unwrap();
        let mut pos = Position::from_fen(START_FEN).unwrap();
        let mut stack = AccumulatorStack::new(&net, &pos);
        stack.refresh_on_general_moves = true;
        let mut rng = Rng::new(99);
        let mut undo_stack: Vec<(Option<Move>, Undo)> = Vec::new();
        let mut general_moves = 0;
        for step in 0..20_000 {
            let roll = rng.below(100);
            if !undo_stack.is_empty() && (roll < 30 || undo_stack.len() > 40) {
                match undo_stack.pop() {
                    Some((Some(mv), undo)) => pos.unmake_move(mv, undo),
                    Some((None, undo)) => pos.unmake_null(undo),
                    None => unreachable!(),
                }
                stack.pop();
            } else if roll < 38 && !pos.in_check() {
                undo_stack.push((None, pos.make_null()));
                stack.push_null();
            } else {
                let moves = pos.legal_moves();
                // Prefer general moves so the flagged path runs often.
                let generals: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| {
                        pos.piece_at(m.from()).map(|p| p.kind()) == Some(PieceKind::General)
                    })
                    .collect();
                let pool = if !generals.is_empty() && rng.below(3) == 0 {
                    &generals[..]
                } else {
                    &moves[..]
                };
                if pool.is_empty() {
                    continue;
                }
                let mv = pool[rng.below(pool.len() as u64) as usize];
                let piece = pos.piece_at(mv.from()).unwrap();
                general_moves += usize::from(piece.kind() == PieceKind::General);
                let undo = pos.make_move(mv);
                stack.push(mv, piece, undo.captured);
                undo_stack.push((Some(mv), undo));
            }
            if step % 3 == 0 {
                let [red, black] = stack.accumulators(&net, &pos);
                let (red, black) = (red.to_vec(), black.to_vec());
                for (p, got) in [(Color::Red, red), (Color::Black, black)] {
                    let mut want = vec![Block::ZERO; net.blocks()];
                    net.refresh(&pos, p, &mut want);
                    assert_eq!(got, want, "step {step}, {p:?}");
                }
                assert_eq!(stack.evaluate(&net, &pos), net.evaluate(&pos));
            }
        }
        assert!(general_moves > 1000, "{general_moves} general moves");
        assert!(stack.rebuilds > 500, "{} rebuilds", stack.rebuilds);
    }

    /// The piece-square feature set never asks for a rebuild: after the root, every node is updated.
    #[test]
    fn piece_square_features_never_rebuild() {
        let net = Network::from_net_file(&Spec::screlu(256).build(78)).unwrap();
        let mut pos = Position::from_fen(START_FEN).unwrap();
        let mut stack = AccumulatorStack::new(&net, &pos);
        let mut rng = Rng::new(5);
        for _ in 0..300 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            let piece = pos.piece_at(mv.from()).unwrap();
            let undo = pos.make_move(mv);
            stack.push(mv, piece, undo.captured);
            stack.evaluate(&net, &pos);
        }
        assert_eq!(stack.rebuilds, 0);
    }
}
