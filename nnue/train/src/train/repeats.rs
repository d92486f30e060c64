//! Counting repeated games in data files (`nnue repeats`). Self-play is deterministic after its
//! random opening plies, so two games that leave the opening in the same position are the same
//! game, and a repeated game teaches the net nothing new: the count says how much of a data set
//! is new information and how varied its openings are.

use super::dataset::{game_key, read_games};
use super::error::TrainError;
use std::collections::HashSet;
use std::path::PathBuf;

/// What one file (or all of them) holds, against every game read before it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RepeatCount {
    /// Games read.
    pub games: u64,
    /// Recorded positions (one per recorded move).
    pub positions: u64,
    /// Games identical (start position and moves) to a game read before.
    pub repeated_games: u64,
    /// Recorded positions of the repeated games.
    pub repeated_positions: u64,
    /// Start positions (the position after the random opening plies) not seen before.
    pub new_starts: u64,
}

impl RepeatCount {
    /// Games not seen before.
    pub fn new_games(&self) -> u64 {
        self.games - self.repeated_games
    }

    fn add(&mut self, other: &RepeatCount) {
        self.games += other.games;
        self.positions += other.positions;
        self.repeated_games += other.repeated_games;
        self.repeated_positions += other.repeated_positions;
        self.new_starts += other.new_starts;
    }
}

/// Counts the repeats of each file against the files before it, in order; returns each file's
/// counts and their sum.
pub fn count_repeats(paths: &[PathBuf]) -> Result<(Vec<RepeatCount>, RepeatCount), TrainError> {
    let (mut games, mut starts) = (HashSet::new(), HashSet::new());
    let mut per_file = Vec::with_capacity(paths.len());
    let mut total = RepeatCount::default();
    for path in paths {
        let mut count = RepeatCount::default();
        read_games(path, |game| {
            let positions = game.plies().len() as u64;
            count.games += 1;
            count.positions += positions;
            if !games.insert(game_key(&game)) {
                count.repeated_games += 1;
                count.repeated_positions += positions;
            }
            if starts.insert(game.start().key()) {
                count.new_starts += 1;
            }
            true
        })?;
        total.add(&count);
        per_file.push(count);
    }
    Ok((per_file, total))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::synthetic_games::random_game;
    use std::path::Path;

    fn write_games(dir: &Path, name: &str, seeds: &[u64]) -> PathBuf {
        let mut bytes = Vec::new();
        for &seed in seeds {
            random_game(seed, 40).encode_into(&mut bytes);
        }
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("write test file");
        path
    }

    #[test]
    fn repeats_are_counted_within_and_across_files() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let a = write_games(dir.path(), "a.xqg", &[1, 2, 1]);
        let b = write_games(dir.path(), "b.xqg", &[2, 3]);
        let (per_file, total) = count_repeats(&[a, b]).expect("count");
        let len = |seed| random_game(seed, 40).plies().len() as u64;
        assert_eq!(per_file[0].games, 3);
        assert_eq!(per_file[0].repeated_games, 1);
        assert_eq!(per_file[0].repeated_positions, len(1));
        assert_eq!(per_file[1].games, 2);
        assert_eq!(per_file[1].repeated_games, 1);
        assert_eq!(per_file[1].repeated_positions, len(2));
        assert_eq!(total.games, 5);
        assert_eq!(total.new_games(), 3);
        assert_eq!(total.positions, 2 * len(1) + 2 * len(2) + len(3));
        // Random games all start from the initial position.
        assert_eq!(per_file[0].new_starts, 1);
        assert_eq!(per_file[1].new_starts, 0);
    }
}
