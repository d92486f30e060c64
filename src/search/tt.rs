//! The transposition table shared by all search threads.
//!
//! Lock-free: each entry is two `AtomicU64`s, the packed data and `key ^ data`. A reader accepts
//! an entry only when `stored_key ^ data == key`, so a torn write (another thread storing between
//! our two loads) is detected as a miss instead of returning a mixed entry. Entries are grouped
//! in clusters of [`CLUSTER_SIZE`] (one 64-byte cache line); replacement prefers the same key,
//! then empty slots, then the slot with the lowest `depth - AGE_WEIGHT * age`.
//!
//! # History-dependent scores
//!
//! Repetition and no-capture verdicts depend on the moves that led to a position, not only on
//! its key; an entry must never carry such a score into a different history. The policy:
//!
//! - A node decided by a rule (`search::rules::rule_outcome`) returns before the table is
//!   probed or written: its own score is never stored.
//! - **Repetition horizon.** Every search call reports the smallest key-list index of an earlier
//!   occurrence that a judged repetition in its subtree referred to (`Worker::rep_horizon`; the
//!   key list is the game history followed by the search path). A node at index `i` whose
//!   horizon is below `i` got its score from a cycle that began *above* it, in the path or in
//!   the game history: the score belongs to this history only, so the node stores no score, only
//!   its best move ([`TranspositionTable::store_move_only`], an entry with [`Bound::None`] that
//!   orders moves and never cuts). A horizon at or below the node (`>= i`) means every judged
//!   cycle lies inside the subtree and begins at the node or later: reaching the node again
//!   gives the same cycles, so the score is intrinsic and stored normally. The root follows the
//!   same rule against the game history.
//! - **No-capture counter.** Within `NO_CAPTURE_KEY_WINDOW` counted plies of the limit the key
//!   used for the table folds in the counted plies left and each side's remaining check
//!   allowance (`Worker::tt_key`, the same counting as the referee's
//!   `RuleOptions::no_capture_limit_reached`), so such entries are only reused under the same
//!   counters. A node farther from the limit whose subtree still reached it (a deep line) stores
//!   no score, like a repetition above it.
//! - Mate scores (rule wins score as mates) are stored node-relative ([`super::score::to_tt`]), so a
//!   score read at another ply keeps its distance.
//!
//! - **Pending repetitions.** A node that repeats an earlier position (of the game or of the
//!   path) before the threshold occurrence, in a cycle with an offender, takes no cutoff from a
//!   decisive stored score: the entry for its key was stored where the position had not occurred
//!   before, so its score may count on repetition laps that this history has already used (a
//!   rule win found by repeating one cycle twice, read where the first lap was a different cycle
//!   and the whole repetition is a draw). Other stored scores cut off as anywhere: they claim
//!   nothing about the game's end. Its own score depends on the path and is not stored.
//!
//! What remains is the classic graph-history interaction of every engine: an entry stored where
//! a descendant was *not* a repetition may be read where it would be one. The search accepts it;
//! the verdict at the node itself is always judged before the table is read.

use engine_core::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Entries per cluster (16 bytes each: one cache line).
pub const CLUSTER_SIZE: usize = 4;
/// How much one generation of age counts against a slot's depth when choosing a victim.
const AGE_WEIGHT: i32 = 8;
/// Age is kept modulo this (5 bits in the packed data).
const AGE_CYCLE: u8 = 32;
/// The packed data's bit that marks an entry of a node on a principal variation.
const PV_BIT: u64 = 1 << 63;

/// How a stored score bounds the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Fail-low: the true score is at most this.
    Upper,
    /// Fail-high: the true score is at least this.
    Lower,
    /// PV node: the score is exact.
    Exact,
    /// No score: the entry holds a best move (and eval) for ordering only, because its score
    /// depended on the history above the node (see the module documentation). Never cuts.
    None,
}

impl Bound {
    /// What a search result `best` proves about a node searched with window (`alpha`, `beta`):
    /// a fail high is a lower bound; only PV nodes that raised alpha know the exact score (a
    /// zero-window node never does); anything else is an upper bound.
    pub fn of_result(best: i32, alpha: i32, beta: i32, pv_node: bool) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if pv_node && best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored score `s` with this bound settles a node searched with the window
    /// (`alpha`, `beta`): it is exact, or a lower bound at or above `beta`, or an upper bound at
    /// or below `alpha`. The one table-cutoff test of the main search and quiescence.
    #[inline(always)]
    pub fn settles(self, s: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
            Bound::None => false,
        }
    }

    /// Whether a stored score `s` with this bound is a better estimate of the node than the
    /// static evaluation `eval`: exact, or a bound that lies beyond `eval` on its own side.
    #[inline(always)]
    pub fn refines(self, s: i32, eval: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => s > eval,
            Bound::Upper => s < eval,
            Bound::None => false,
        }
    }
}

/// The packed score of a [`Bound::None`] entry; no stored score can be this low.
const NO_SCORE: i16 = i16::MIN;

/// What a probe returns.
#[derive(Copy, Clone, Debug)]
pub struct TtEntry {
    /// Best or refutation move (may be `Move::NULL`); verify with `Position::is_legal`.
    pub mv: Move,
    /// Score, node-relative for mates (see `score::from_tt`).
    pub score: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    /// Remaining depth the score was searched to (0 = quiescence).
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
    /// Whether the node was on a principal variation when stored ("ttPv"): searched as a PV
    /// node, or stored by one that found it so.
    pub pv: bool,
}

#[derive(Default)]
struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

/// The shared hash table.
pub struct TranspositionTable {
    slots: Vec<Slot>,
    clusters: usize,
    age: AtomicU8,
}

/// Packs an entry: move 16 | score 16 | eval 16 | depth 8 | bound 2 | age 5 | pv 1.
#[allow(clippy::too_many_arguments)]
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool, age: u8) -> u64 {
    let (b, score) = match bound {
        Bound::Upper => (1u64, score as i16),
        Bound::Lower => (2, score as i16),
        Bound::Exact => (3, score as i16),
        Bound::None => (1, NO_SCORE),
    };
    (mv.raw() as u64)
        | ((score as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (((depth.clamp(0, 255)) as u64) << 48)
        | (b << 56)
        | (((age % AGE_CYCLE) as u64) << 58)
        | if pv { PV_BIT } else { 0 }
}

fn unpack_score(data: u64) -> i16 {
    (data >> 16) as u16 as i16
}

fn unpack_bound(data: u64) -> Option<Bound> {
    match (data >> 56) & 3 {
        1 if unpack_score(data) == NO_SCORE => Some(Bound::None),
        1 => Some(Bound::Upper),
        2 => Some(Bound::Lower),
        3 => Some(Bound::Exact),
        _ => None,
    }
}

fn unpack_age(data: u64) -> u8 {
    (data >> 58) as u8 & (AGE_CYCLE - 1)
}

fn unpack_depth(data: u64) -> i32 {
    ((data >> 48) & 0xff) as i32
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one cluster). Panics if memory runs out; the
    /// protocol uses [`TranspositionTable::try_new`] for user-chosen sizes.
    pub fn new(mb: usize) -> TranspositionTable {
        Self::try_new(mb).expect("memory for the hash table")
    }

    /// A table of about `mb` megabytes, or an error if the memory cannot be allocated.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, String> {
        let bytes = mb.max(1).saturating_mul(1024 * 1024);
        let clusters = (bytes / (16 * CLUSTER_SIZE)).max(1);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(clusters * CLUSTER_SIZE)
            .map_err(|_| format!("cannot allocate {mb} MB for the hash table"))?;
        slots.resize_with(clusters * CLUSTER_SIZE, Slot::default);
        Ok(TranspositionTable {
            slots,
            clusters,
            age: AtomicU8::new(0),
        })
    }

    /// Empties the table (new game, `Clear Hash`).
    pub fn clear(&self) {
        for s in &self.slots {
            s.key_xor_data.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search generation so that old entries are replaced first.
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store((a + 1) % AGE_CYCLE, Ordering::Relaxed);
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> &[Slot] {
        let idx = ((key as u128 * self.clusters as u128) >> 64) as usize;
        &self.slots[idx * CLUSTER_SIZE..(idx + 1) * CLUSTER_SIZE]
    }

    /// Hints the CPU to fetch the cluster of `key` (called right after make_move).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let ptr = self.cluster(key).as_ptr() as *const i8;
            // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 CPU has (it is in the
            // baseline target); a prefetch is only a cache hint that never faults and does not
            // change program state, and `ptr` points into our own slot vector anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for slot in self.cluster(key) {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.key_xor_data.load(Ordering::Relaxed);
            if check ^ data == key {
                let bound = unpack_bound(data)?;
                return Some(TtEntry {
                    mv: Move::from_raw(data as u16).unwrap_or(Move::NULL),
                    score: if bound == Bound::None {
                        0
                    } else {
                        unpack_score(data) as i32
                    },
                    eval: (data >> 32) as u16 as i16 as i32,
                    depth: unpack_depth(data),
                    bound,
                    pv: data & PV_BIT != 0,
                });
            }
        }
        None
    }

    /// Stores a search result. `score` must already be node-relative (`score::to_tt`); `pv`
    /// marks a node on a principal variation.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let age = self.age.load(Ordering::Relaxed);
        let cluster = self.cluster(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, slot) in cluster.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.key_xor_data.load(Ordering::Relaxed);
            if check ^ data == key {
                // Same position: a scored entry is never replaced by a move-only one (it was
                // stored where its score held); otherwise keep a deeper entry of the current
                // search unless this is exact.
                if bound == Bound::None && unpack_bound(data) != Some(Bound::None) {
                    return;
                }
                let old_depth = unpack_depth(data);
                if bound != Bound::Exact && depth + 3 < old_depth && unpack_age(data) == age {
                    return;
                }
                let mv = if mv.is_null() {
                    Move::from_raw(data as u16).unwrap_or(Move::NULL)
                } else {
                    mv
                };
                Self::write(slot, key, pack(mv, score, eval, depth, bound, pv, age));
                return;
            }
            if unpack_bound(data).is_none() {
                victim = i;
                victim_worth = i32::MIN;
                continue;
            }
            let age_diff = (age + AGE_CYCLE - unpack_age(data)) % AGE_CYCLE;
            let worth = unpack_depth(data) - AGE_WEIGHT * age_diff as i32;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        Self::write(
            &cluster[victim],
            key,
            pack(mv, score, eval, depth, bound, pv, age),
        );
    }

    /// Stores only a best move and static eval for `key`: the node's score depended on the
    /// history above it and must not be reused (see the module documentation).
    #[inline]
    pub fn store_move_only(&self, key: u64, mv: Move, eval: i32) {
        self.store(key, mv, 0, eval, 0, Bound::None, false);
    }

    #[inline(always)]
    fn write(slot: &Slot, key: u64, data: u64) {
        slot.data.store(data, Ordering::Relaxed);
        slot.key_xor_data.store(key ^ data, Ordering::Relaxed);
    }

    /// Per-mille of sampled slots holding an entry of the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                unpack_bound(d).is_some() && unpack_age(d) == age
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::Square;

    #[test]
    fn bounds_settle_windows_and_refine_evals_on_their_own_side() {
        assert!(Bound::Exact.settles(0, -10, 10));
        assert!(Bound::Lower.settles(10, -10, 10) && !Bound::Lower.settles(9, -10, 10));
        assert!(Bound::Upper.settles(-10, -10, 10) && !Bound::Upper.settles(-9, -10, 10));
        assert!(!Bound::None.settles(0, 0, 0));
        assert!(Bound::Lower.refines(11, 10) && !Bound::Lower.refines(10, 10));
        assert!(Bound::Upper.refines(9, 10) && !Bound::Upper.refines(10, 10));
        assert!(Bound::Exact.refines(10, 10) && !Bound::None.refines(99, 10));
    }

    #[test]
    fn store_then_probe_returns_the_entry() {
        let tt = TranspositionTable::new(1);
        let mv = Move::new(Square::new(7, 2).unwrap(), Square::new(4, 2).unwrap());
        tt.store(0xdead_beef_1234, mv, -31_000, 55, 7, Bound::Lower, true);
        let e = tt.probe(0xdead_beef_1234).unwrap();
        assert!(e.pv);
        assert_eq!(e.mv, mv);
        assert_eq!(e.score, -31_000);
        assert_eq!(e.eval, 55);
        assert_eq!(e.depth, 7);
        assert_eq!(e.bound, Bound::Lower);
        assert!(tt.probe(0xdead_beef_1235).is_none());
        assert!(tt.hashfull() <= 1000);
        tt.clear();
        assert!(tt.probe(0xdead_beef_1234).is_none());
    }

    #[test]
    fn move_only_entries_never_cut_and_never_replace_scores() {
        let tt = TranspositionTable::new(1);
        let mv = Move::new(Square::new(1, 0).unwrap(), Square::new(2, 2).unwrap());
        tt.store_move_only(77, mv, 12);
        let e = tt.probe(77).unwrap();
        assert_eq!((e.mv, e.bound, e.eval), (mv, Bound::None, 12));
        tt.store(78, Move::NULL, -400, 0, 3, Bound::Upper, false);
        tt.store_move_only(78, mv, 0);
        let e = tt.probe(78).unwrap();
        assert_eq!((e.score, e.bound, e.depth), (-400, Bound::Upper, 3));
        // A scored entry replaces a move-only one.
        tt.store(77, Move::NULL, -250, -12, 5, Bound::Lower, false);
        let e = tt.probe(77).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.bound),
            (mv, -250, -12, Bound::Lower)
        );
        assert!(!e.pv);
    }

    #[test]
    fn a_full_cluster_replaces_the_shallowest_entry() {
        let tt = TranspositionTable::new(1);
        // Small keys land in cluster 0: the top 64 bits of key * clusters are zero.
        let keys: Vec<u64> = (1..=5u64).collect();
        for (i, &k) in keys.iter().enumerate().take(4) {
            tt.store(k, Move::NULL, 0, 0, 10 + i as i32, Bound::Exact, false);
        }
        tt.store(keys[4], Move::NULL, 0, 0, 20, Bound::Exact, false);
        assert!(tt.probe(keys[0]).is_none(), "depth-10 entry is the victim");
        for &k in &keys[1..] {
            assert!(tt.probe(k).is_some());
        }
    }
}
