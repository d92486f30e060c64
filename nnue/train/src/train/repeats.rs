//! Counting repeated games in data files (`nnue repeats`). Self-play is deterministic after its
//! random opening plies, so two games that leave the opening in the same position are the same
//! game, and a repeated game teaches the net nothing new: the count says how much of a data set
//! is new information and how varied its openings are.

use super::dataset::{game_key, open_data_file};
use super::error::TrainError;
use crate::data::GameReader;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

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

/// The games and start positions seen so far, across files.
#[derive(Default)]
pub struct RepeatCounter {
    games: HashSet<u64>,
    starts: HashSet<u64>,
    total: RepeatCount,
}

impl RepeatCounter {
    pub fn new() -> RepeatCounter {
        RepeatCounter::default()
    }

    /// Reads every game of `path` (plain or gzip) and counts it against the games seen before.
    pub fn count_file(&mut self, path: &Path) -> Result<RepeatCount, TrainError> {
        let reader = open_data_file(path).map_err(|error| TrainError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        let mut count = RepeatCount::default();
        for game in GameReader::new(reader) {
            let game = game.map_err(|error| TrainError::Data {
                path: path.to_path_buf(),
                error,
            })?;
            let positions = game.plies().len() as u64;
            count.games += 1;
            count.positions += positions;
            if !self.games.insert(game_key(&game)) {
                count.repeated_games += 1;
                count.repeated_positions += positions;
            }
            if self.starts.insert(game.start().key()) {
                count.new_starts += 1;
            }
        }
        self.total.add(&count);
        Ok(count)
    }

    /// The counts over every file read so far.
    pub fn total(&self) -> &RepeatCount {
        &self.total
    }
}

/// Counts the repeats of each file against the files before it, in order.
pub fn count_repeats(paths: &[PathBuf]) -> Result<(Vec<RepeatCount>, RepeatCount), TrainError> {
    let mut counter = RepeatCounter::new();
    let per_file = paths
        .iter()
        .map(|path| counter.count_file(path))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((per_file, counter.total().clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::synthetic_games::random_game;

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
        let dir = std::env::temp_dir().join(format!("nnue-repeats-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let a = write_games(&dir, "a.xqg", &[1, 2, 1]);
        let b = write_games(&dir, "b.xqg", &[2, 3]);
        let (per_file, total) = count_repeats(&[a, b]).expect("count");
        std::fs::remove_dir_all(&dir).ok();
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
