//! Move deferral between threads (simplified ABDADA): while one thread searches a move at a
//! node, another thread reaching the same node puts that move off to the end of its move list,
//! so that it searches something else meanwhile and, by the time it comes back, usually finds
//! the first thread's result in the table. Only the order of the moves changes, so every
//! move is still searched and the table's history-dependence policy is untouched.

use arrayvec::ArrayVec;
use engine_core::Move;
use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in the table (a power of two).
const SLOTS: usize = 1 << 15;
/// Bits of a slot that hold the searching thread's number; the rest hold the node-move hash.
const THREAD_BITS: u64 = 0xFF;
/// An odd constant: mixes a move into a node's key, and the product carries every bit of the
/// pair into the high bits that the hash keeps.
const MIX: u64 = 0x9E37_79B9_7F4A_7C15;

/// The moves being searched right now, by node and thread.
pub struct Deferral {
    slots: Box<[AtomicU64]>,
}

impl Deferral {
    /// The table for a search on `threads` threads: empty (and not [`Deferral::is_active`])
    /// for one thread, which has nobody to defer to (a search of a few thousand nodes, as in
    /// data generation, then does not pay for clearing the slots).
    pub fn new(threads: usize) -> Deferral {
        let slots = if threads > 1 { SLOTS } else { 0 };
        Deferral {
            slots: (0..slots).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Whether moves may be deferred: the search has several threads.
    #[inline(always)]
    pub fn is_active(&self) -> bool {
        !self.slots.is_empty()
    }

    /// The slot of a hash (an active table has [`SLOTS`] slots).
    #[inline(always)]
    fn slot(&self, hash: u64) -> &AtomicU64 {
        &self.slots[(hash >> (u64::BITS - SLOTS.trailing_zeros())) as usize]
    }

    /// Whether another thread than `thread` is searching `mv` at the node `key`.
    #[inline]
    pub fn is_searched_elsewhere(&self, thread: usize, key: u64, mv: Move) -> bool {
        let hash = node_move_hash(key, mv);
        let v = self.slot(hash).load(Ordering::Relaxed);
        v & !THREAD_BITS == hash && v & THREAD_BITS != thread as u64 & THREAD_BITS
    }

    /// Records that `thread` searches `mv` at the node `key` until the claim is dropped.
    #[inline]
    pub fn start(&self, thread: usize, key: u64, mv: Move) -> Searching<'_> {
        let hash = node_move_hash(key, mv);
        let value = hash | (thread as u64 & THREAD_BITS);
        let slot = self.slot(hash);
        slot.store(value, Ordering::Relaxed);
        Searching { slot, value }
    }
}

/// The hash of `mv` at the node `key`, with the thread bits clear.
#[inline(always)]
fn node_move_hash(key: u64, mv: Move) -> u64 {
    (key ^ u64::from(mv.raw()).wrapping_mul(MIX)).wrapping_mul(MIX) & !THREAD_BITS
}

/// A thread's claim on a move, released when dropped.
pub struct Searching<'a> {
    slot: &'a AtomicU64,
    value: u64,
}

impl Drop for Searching<'_> {
    fn drop(&mut self) {
        // Only this claim is cleared: another thread may have taken the slot since.
        let _ = self
            .slot
            .compare_exchange(self.value, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// At most this many moves of a node are put off; later ones are searched in turn.
const DEFERRED_KEPT: usize = 32;

/// A node's move source with deferral: the move picker's moves first, then the ones put off,
/// each with its place in the picker's order.
#[derive(Default)]
pub struct DeferredMoves {
    moves: ArrayVec<(Move, usize), DEFERRED_KEPT>,
    next: usize,
    picker_done: bool,
}

impl DeferredMoves {
    /// The next move to search: from `pick` (the move picker, which gives each move with its
    /// place in its order, 1 for the first) while it has some, then the deferred ones in the
    /// order they were put off. With the move come its place and whether it came from the
    /// picker now (and so may still be deferred).
    #[inline]
    pub fn next(
        &mut self,
        pick: impl FnOnce() -> Option<(Move, usize)>,
    ) -> Option<(Move, usize, bool)> {
        if !self.picker_done {
            if let Some((mv, place)) = pick() {
                return Some((mv, place, true));
            }
            self.picker_done = true;
        }
        let (mv, place) = *self.moves.get(self.next)?;
        self.next += 1;
        Some((mv, place, false))
    }

    /// Puts `mv`, the picker's `place`-th move, off until the picker is done; false (and
    /// nothing kept) when the list is full, so the caller searches the move now.
    #[inline]
    pub fn defer(&mut self, mv: Move, place: usize) -> bool {
        self.moves.try_push((mv, place)).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::{Position, RankBase};

    #[test]
    fn a_move_is_deferred_by_other_threads_while_one_searches_it() {
        let pos = Position::startpos();
        let mv = pos.parse_move("b2e2", RankBase::Zero).unwrap();
        let other = pos.parse_move("h2e2", RankBase::Zero).unwrap();
        assert!(!Deferral::new(1).is_active());
        let d = Deferral::new(2);
        assert!(d.is_active());
        let claim = d.start(0, 77, mv);
        assert!(d.is_searched_elsewhere(1, 77, mv));
        assert!(!d.is_searched_elsewhere(0, 77, mv), "its own move");
        assert!(!d.is_searched_elsewhere(1, 78, mv), "another node");
        assert!(!d.is_searched_elsewhere(1, 77, other), "another move");
        drop(claim);
        assert!(!d.is_searched_elsewhere(1, 77, mv));
    }

    #[test]
    fn deferred_moves_come_after_the_pickers_in_the_order_they_were_put_off() {
        let pos = Position::startpos();
        let moves: Vec<Move> = pos.legal_moves().iter().copied().take(5).collect();
        let mut picked = moves.clone().into_iter().zip(1..);
        let mut list = DeferredMoves::default();
        let mut order = Vec::new();
        while let Some((mv, place, from_picker)) = list.next(|| picked.next()) {
            if from_picker && (mv == moves[1] || mv == moves[3]) {
                assert!(list.defer(mv, place));
                continue;
            }
            order.push((mv, place, from_picker));
        }
        let expected = [
            (moves[0], 1, true),
            (moves[2], 3, true),
            (moves[4], 5, true),
            (moves[1], 2, false),
            (moves[3], 4, false),
        ];
        assert_eq!(order, expected);
    }
}
