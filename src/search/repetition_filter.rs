//! A counting filter of the keys on the search's path (the game history that a repetition can
//! reach, then the tree), so that the repetition look-up walks back through the keys only when
//! the current key may have occurred before: most nodes repeat nothing, and the walk covers up to
//! the whole no-capture span (often a hundred plies and more in xiangqi).
//!
//! Each key counts in one slot chosen by its low bits. A slot holding only the current key's own
//! count proves that no earlier key equals it; a larger count may be another key sharing the
//! slot, and then the walk decides. So the filter never changes a verdict, only skips walks that
//! would find nothing.

/// Slots of the filter (a power of two): a few times more than the keys a no-capture span holds,
/// so that another key rarely shares the current one's slot.
const SLOTS: usize = 1 << 10;

/// Counts of the keys on the path, by slot.
pub struct RepetitionFilter {
    counts: Box<[u32; SLOTS]>,
}

#[inline(always)]
fn slot(key: u64) -> usize {
    key as usize & (SLOTS - 1)
}

impl RepetitionFilter {
    /// A filter holding `keys`.
    pub fn new(keys: &[u64]) -> RepetitionFilter {
        let mut filter = RepetitionFilter {
            counts: Box::new([0; SLOTS]),
        };
        keys.iter().for_each(|&k| filter.add(k));
        filter
    }

    /// Adds a key that was pushed on the path.
    #[inline(always)]
    pub fn add(&mut self, key: u64) {
        self.counts[slot(key)] += 1;
    }

    /// Removes a key that was popped from the path (one [`RepetitionFilter::add`]ed before).
    #[inline(always)]
    pub fn remove(&mut self, key: u64) {
        self.counts[slot(key)] -= 1;
    }

    /// Whether `key`, which is on the path once (as its last key), may also be on it earlier.
    /// False proves it is not.
    #[inline(always)]
    pub fn may_repeat(&self, key: u64) -> bool {
        self.counts[slot(key)] > 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Along a random path of pushes and pops, whenever a key occurs earlier on the path
        /// the filter says it may repeat (keys drawn from a small set, so repeats are common,
        /// and from the whole range, so slots are shared by different keys).
        #[test]
        fn an_earlier_occurrence_is_never_missed(
            history in prop::collection::vec(prop_oneof![0..40u64, any::<u64>()], 1..60),
            steps in prop::collection::vec(prop_oneof![(0..40u64).prop_map(Some), any::<u64>().prop_map(Some), Just(None)], 0..300),
        ) {
            let mut path = history.clone();
            let mut filter = RepetitionFilter::new(&history);
            for step in steps {
                match step {
                    Some(key) => {
                        path.push(key);
                        filter.add(key);
                    }
                    None if path.len() > history.len() => {
                        let key = path.pop().unwrap();
                        filter.remove(key);
                    }
                    None => {}
                }
                let last = *path.last().unwrap();
                let earlier = path[..path.len() - 1].contains(&last);
                prop_assert!(!earlier || filter.may_repeat(last));
                // And it is exact when no other key shares the slot.
                let shared = path[..path.len() - 1].iter().any(|&k| k != last && slot(k) == slot(last));
                if !shared {
                    prop_assert_eq!(filter.may_repeat(last), earlier);
                }
            }
        }
    }
}
