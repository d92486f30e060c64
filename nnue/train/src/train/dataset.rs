//! Loading game records into memory as packed training positions, filtered, with a validation
//! split by game.

use super::error::TrainError;
use crate::data::{FilterStats, Filters, Game, GameReader, PackedPosition};
use engine_core::SplitMix64;
use nnue::features::OutputBuckets;
use nnue::format::fnv1a64;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// Stream of the validation split's random numbers (distinct from the other uses of the seed).
const SPLIT_STREAM: u64 = 0x5B11;

/// One loaded data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataFile {
    /// As given.
    pub path: PathBuf,
    /// Size.
    pub bytes: u64,
    /// FNV-1a 64 of the whole file.
    pub hash: u64,
    /// Games in it.
    pub games: u64,
    /// Of which held out for validation.
    pub validation_games: u64,
    /// Positions seen and kept.
    pub stats: FilterStats,
}

impl std::fmt::Display for DataFile {
    /// `PATH (BYTES bytes, fnv1a64 HASH, GAMES games, HELD held out)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ({} bytes, fnv1a64 {:016x}, {} games, {} held out)",
            self.path.display(),
            self.bytes,
            self.hash,
            self.games,
            self.validation_games
        )
    }
}

/// Training and validation positions.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Training positions, in file and game order.
    pub train: Vec<PackedPosition>,
    /// Validation positions.
    pub validation: Vec<PackedPosition>,
    /// The files, in the order given.
    pub files: Vec<DataFile>,
}

impl Dataset {
    /// Games in all files.
    pub fn games(&self) -> u64 {
        self.files.iter().map(|f| f.games).sum()
    }

    /// Games held out.
    pub fn validation_games(&self) -> u64 {
        self.files.iter().map(|f| f.validation_games).sum()
    }

    /// Filter counts over all files.
    pub fn stats(&self) -> FilterStats {
        let mut s = FilterStats::default();
        for f in &self.files {
            s.merge(&f.stats);
        }
        s
    }
}

/// How to load.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// Which positions to keep.
    pub filters: Filters,
    /// The output bucket scheme the positions are packed for.
    pub buckets: OutputBuckets,
    /// Fraction of games held out.
    pub validation: f64,
    /// Seed of the split.
    pub seed: u64,
    /// Also train on every kept training position's mirror image (validation positions are
    /// not mirrored, so validation losses stay comparable).
    pub mirror: bool,
}

/// A key of a game's content (start position and moves): identical games get the same key, so a
/// duplicated game never lands on both sides of the split, and the split does not depend on how
/// files are ordered or concatenated.
fn game_key(game: &Game) -> u64 {
    let mut rng = SplitMix64::new(game.start().key());
    let mut key = rng.next_u64();
    for ply in game.plies() {
        rng = SplitMix64::new(key ^ u64::from(ply.mv.raw()));
        key = rng.next_u64();
    }
    key
}

/// Whether `game` is held out.
fn is_validation(game: &Game, options: &LoadOptions) -> bool {
    options.validation > 0.0
        && SplitMix64::stream(options.seed ^ SPLIT_STREAM, game_key(game)).unit_f64()
            < options.validation
}

/// First bytes of a gzip stream.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The game records of a data file, decompressed if it is gzip-compressed (as the data kept in
/// the repository is). Concatenated gzip files read as the concatenation of their contents, so
/// compressed shards join like plain ones. Offsets in data errors count decompressed bytes.
pub fn read_data_file(path: &Path) -> std::io::Result<Vec<u8>> {
    let raw = std::fs::read(path)?;
    if !raw.starts_with(&GZIP_MAGIC) {
        return Ok(raw);
    }
    let mut bytes = Vec::with_capacity(raw.len() * 2);
    std::io::Read::read_to_end(&mut flate2::read::MultiGzDecoder::new(&raw[..]), &mut bytes)?;
    Ok(bytes)
}

/// Loads one file.
fn load_file(
    path: &Path,
    options: &LoadOptions,
    on_bytes: &(dyn Fn(u64) + Sync),
) -> Result<(DataFile, Vec<PackedPosition>, Vec<PackedPosition>), TrainError> {
    let bytes = read_data_file(path).map_err(|error| TrainError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    let mut file = DataFile {
        path: path.to_path_buf(),
        bytes: bytes.len() as u64,
        hash: fnv1a64(&bytes),
        games: 0,
        validation_games: 0,
        stats: FilterStats::default(),
    };
    let (mut train, mut validation) = (Vec::new(), Vec::new());
    for game in GameReader::new(&bytes[..]) {
        let game = game.map_err(|error| TrainError::Data {
            path: path.to_path_buf(),
            error,
        })?;
        file.games += 1;
        let held_out = is_validation(&game, options);
        file.validation_games += u64::from(held_out);
        let target = if held_out {
            &mut validation
        } else {
            &mut train
        };
        for p in game.positions() {
            let verdict = options.filters.check(&p);
            file.stats.count(&verdict);
            if let Ok(score) = verdict {
                let packed =
                    PackedPosition::new(&p.position, score, game.result(), options.buckets);
                target.push(packed);
                if options.mirror && !held_out {
                    target.push(packed.mirrored_files());
                }
            }
        }
        on_bytes(game.encoded_len() as u64);
    }
    Ok((file, train, validation))
}

/// Loads `paths` (files in parallel), keeping what `options.filters` keeps. `on_bytes` is told
/// how many bytes were processed as loading goes (for a progress bar).
pub fn load(
    paths: &[PathBuf],
    options: &LoadOptions,
    on_bytes: &(dyn Fn(u64) + Sync),
) -> Result<Dataset, TrainError> {
    let loaded: Vec<_> = paths
        .par_iter()
        .map(|p| load_file(p, options, on_bytes))
        .collect::<Result<_, _>>()?;
    let mut data = Dataset::default();
    for (file, mut train, mut validation) in loaded {
        data.files.push(file);
        data.train.append(&mut train);
        data.validation.append(&mut validation);
    }
    Ok(data)
}
