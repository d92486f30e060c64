//! Loading game records as packed training positions, filtered, with a validation split by game
//! or fixed validation files: all at once into memory ([`load`]), or a first pass that keeps only
//! the validation positions and counts ([`scan`]) and then one pass per epoch that hands the
//! training positions over in chunks ([`stream_chunks`]). Both read the same games in the same
//! order and split them alike, so they yield the same positions in the same order.

use super::error::TrainError;
use crate::data::{FilterStats, Filters, Game, GameReader, PackedPosition};
use engine_core::SplitMix64;
use nnue::features::OutputBuckets;
use nnue::format::fnv1a64;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashSet};
use std::io::{self, BufRead, BufReader, Read};
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
    /// Of which held out for validation (every game of a validation file).
    pub validation_games: u64,
    /// Of which left out because they are games of the validation files.
    pub excluded_games: u64,
    /// Positions seen and kept.
    pub stats: FilterStats,
}

impl std::fmt::Display for DataFile {
    /// `PATH (BYTES bytes, fnv1a64 HASH, GAMES games, HELD held out[, EXCLUDED in the
    /// validation files])`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ({} bytes, fnv1a64 {:016x}, {} games, {} held out",
            self.path.display(),
            self.bytes,
            self.hash,
            self.games,
            self.validation_games
        )?;
        if self.excluded_games > 0 {
            write!(f, ", {} in the validation files", self.excluded_games)?;
        }
        write!(f, ")")
    }
}

/// Training and validation positions.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Training positions, in file and game order (empty after [`scan`], which only counts
    /// them).
    pub train: Vec<PackedPosition>,
    /// Validation positions: the held-out games' of the data files, then the validation
    /// files' (in file and game order).
    pub validation: Vec<PackedPosition>,
    /// The data files, in the order given.
    pub files: Vec<DataFile>,
    /// The validation files, in the order given (every game held out).
    pub validation_files: Vec<DataFile>,
}

impl Dataset {
    /// Games in all files, validation files included.
    pub fn games(&self) -> u64 {
        self.all_files().map(|f| f.games).sum()
    }

    /// Games held out, validation files included.
    pub fn validation_games(&self) -> u64 {
        self.all_files().map(|f| f.validation_games).sum()
    }

    /// Games of the data files left out because they are in the validation files.
    pub fn excluded_games(&self) -> u64 {
        self.files.iter().map(|f| f.excluded_games).sum()
    }

    /// Filter counts over all files.
    pub fn stats(&self) -> FilterStats {
        let mut s = FilterStats::default();
        for f in self.all_files() {
            s.merge(&f.stats);
        }
        s
    }

    fn all_files(&self) -> impl Iterator<Item = &DataFile> {
        self.files.iter().chain(&self.validation_files)
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
    /// Keys ([`game_key`]) of games never to train on: the games of the validation files, so a
    /// validation file cut from a data file may be given beside that file.
    pub exclude: HashSet<u64>,
}

impl LoadOptions {
    /// Options with the given filters, buckets, split and mirroring, excluding no game.
    pub fn new(
        filters: Filters,
        buckets: OutputBuckets,
        validation: f64,
        seed: u64,
        mirror: bool,
    ) -> LoadOptions {
        LoadOptions {
            filters,
            buckets,
            validation,
            seed,
            mirror,
            exclude: HashSet::new(),
        }
    }
}

/// A key of a game's content (start position and moves): identical games get the same key, so a
/// duplicated game never lands on both sides of the split, and the split does not depend on how
/// files are ordered or concatenated.
pub fn game_key(game: &Game) -> u64 {
    let mut rng = SplitMix64::new(game.start().key());
    let mut key = rng.next_u64();
    for ply in game.plies() {
        rng = SplitMix64::new(key ^ u64::from(ply.mv.raw()));
        key = rng.next_u64();
    }
    key
}

/// Where a game of a data file goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Role {
    Train,
    Validation,
    Excluded,
}

/// The role of `game`: left out when it is a validation file's game, else held out when the
/// seeded hash of its key falls below the validation fraction.
fn role(game: &Game, options: &LoadOptions) -> Role {
    let key = game_key(game);
    if options.exclude.contains(&key) {
        Role::Excluded
    } else if options.validation > 0.0
        && SplitMix64::stream(options.seed ^ SPLIT_STREAM, key).unit_f64() < options.validation
    {
        Role::Validation
    } else {
        Role::Train
    }
}

/// Appends the kept positions of `game` to `out`, each training position followed by its mirror
/// image when `options.mirror`; counts every verdict in `stats`.
fn push_positions(
    game: &Game,
    options: &LoadOptions,
    role: Role,
    stats: &mut FilterStats,
    out: &mut Vec<PackedPosition>,
) {
    for p in game.positions() {
        let verdict = options.filters.check(&p);
        stats.count(&verdict);
        if let Ok(score) = verdict {
            let packed = PackedPosition::new(&p.position, score, game.result(), options.buckets);
            out.push(packed);
            if options.mirror && role == Role::Train {
                out.push(packed.mirrored_files());
            }
        }
    }
}

/// First bytes of a gzip stream.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The game records of a data file, decompressed if it is gzip-compressed (as the data kept in
/// the repository is). Concatenated gzip files read as the concatenation of their contents, so
/// compressed shards join like plain ones. Offsets in data errors count decompressed bytes.
pub fn read_data_file(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open_data_file(path)?.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// A data file as a stream of game-record bytes, decompressed on the fly if it is
/// gzip-compressed (see [`read_data_file`]); nothing is held but the buffers.
pub fn open_data_file(path: &Path) -> std::io::Result<Box<dyn Read + Send>> {
    let mut file = BufReader::with_capacity(1 << 16, std::fs::File::open(path)?);
    let gzip = file.fill_buf()?.starts_with(&GZIP_MAGIC);
    Ok(if gzip {
        Box::new(flate2::bufread::MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    })
}

/// FNV-1a 64 and length of the bytes read so far.
struct Digest {
    hash: u64,
    bytes: u64,
}

/// A reader that digests what passes through it, as [`fnv1a64`] would on the whole.
struct Digesting<'a, R> {
    inner: R,
    digest: &'a mut Digest,
}

impl<R: Read> Read for Digesting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        const PRIME: u64 = 0x0000_0100_0000_01b3;
        let n = self.inner.read(buf)?;
        let mut h = self.digest.hash;
        for &b in &buf[..n] {
            h = (h ^ u64::from(b)).wrapping_mul(PRIME);
        }
        self.digest.hash = h;
        self.digest.bytes += n as u64;
        Ok(n)
    }
}

/// Reads the games of `path` in order, handing each to `each` until it returns false; returns
/// the file's description with its size, hash and game count (the filter counts and roles are
/// the caller's). The size and hash cover the whole file only when every game was taken.
pub(crate) fn read_games(
    path: &Path,
    mut each: impl FnMut(Game) -> bool,
) -> Result<DataFile, TrainError> {
    let input = open_data_file(path).map_err(|error| TrainError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    let mut digest = Digest {
        hash: fnv1a64(&[]),
        bytes: 0,
    };
    let mut games = 0;
    for game in GameReader::new(Digesting {
        inner: input,
        digest: &mut digest,
    }) {
        let game = game.map_err(|error| TrainError::Data {
            path: path.to_path_buf(),
            error,
        })?;
        games += 1;
        if !each(game) {
            break;
        }
    }
    Ok(DataFile {
        path: path.to_path_buf(),
        bytes: digest.bytes,
        hash: digest.hash,
        games,
        validation_games: 0,
        excluded_games: 0,
        stats: FilterStats::default(),
    })
}

/// Loads one data file: its description, training and validation positions.
fn load_file(
    path: &Path,
    options: &LoadOptions,
    on_bytes: &(dyn Fn(u64) + Sync),
) -> Result<(DataFile, Vec<PackedPosition>, Vec<PackedPosition>), TrainError> {
    let (mut train, mut validation) = (Vec::new(), Vec::new());
    let file = split_file(path, options, on_bytes, &mut validation, |game, stats| {
        push_positions(game, options, Role::Train, stats, &mut train)
    })?;
    Ok((file, train, validation))
}

/// Reads `path`'s games by their role: validation games' positions go to `validation`, each
/// training game to `on_train` (with the file's filter counts), excluded games are counted. The
/// file's description comes back with its counts filled in.
fn split_file(
    path: &Path,
    options: &LoadOptions,
    on_bytes: &(dyn Fn(u64) + Sync),
    validation: &mut Vec<PackedPosition>,
    mut on_train: impl FnMut(&Game, &mut FilterStats),
) -> Result<DataFile, TrainError> {
    let (mut stats, mut held_out, mut excluded) = (FilterStats::default(), 0, 0);
    let mut file = read_games(path, |game| {
        let role = role(&game, options);
        match role {
            Role::Train => on_train(&game, &mut stats),
            Role::Validation => {
                held_out += 1;
                push_positions(&game, options, role, &mut stats, validation);
            }
            Role::Excluded => excluded += 1,
        }
        on_bytes(game.encoded_len() as u64);
        true
    })?;
    file.stats = stats;
    file.validation_games = held_out;
    file.excluded_games = excluded;
    Ok(file)
}

/// What [`load_validation_files`] read.
#[derive(Clone, Debug, Default)]
pub struct ValidationFiles {
    /// The files, in the order given.
    pub files: Vec<DataFile>,
    /// Their kept positions, in file and game order.
    pub positions: Vec<PackedPosition>,
    /// Their games' keys, for [`LoadOptions::exclude`].
    pub keys: HashSet<u64>,
}

/// Loads validation files: every game held out, nothing mirrored, the same filters.
pub fn load_validation_files(
    paths: &[PathBuf],
    options: &LoadOptions,
    on_bytes: &(dyn Fn(u64) + Sync),
) -> Result<ValidationFiles, TrainError> {
    let mut files = Vec::new();
    let mut positions = Vec::new();
    let mut keys = HashSet::new();
    for path in paths {
        let mut stats = FilterStats::default();
        let mut file = read_games(path, |game| {
            keys.insert(game_key(&game));
            push_positions(&game, options, Role::Validation, &mut stats, &mut positions);
            on_bytes(game.encoded_len() as u64);
            true
        })?;
        file.validation_games = file.games;
        file.stats = stats;
        files.push(file);
    }
    Ok(ValidationFiles {
        files,
        positions,
        keys,
    })
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

/// Counts of `(score, result · 2)` over training positions: what fitting K needs, in memory
/// bounded by the number of distinct scores.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScoreCounts(BTreeMap<(i32, u8), u64>);

impl ScoreCounts {
    /// Counts one position.
    pub fn add(&mut self, p: &PackedPosition) {
        *self
            .0
            .entry((p.score(), (p.result() * 2.0) as u8))
            .or_insert(0) += 1;
    }

    /// Adds another set of counts.
    pub fn merge(&mut self, other: &ScoreCounts) {
        for (k, n) in &other.0 {
            *self.0.entry(*k).or_insert(0) += n;
        }
    }

    /// Positions counted.
    pub fn positions(&self) -> u64 {
        self.0.values().sum()
    }

    /// Every counted position as `(score, result)`, grouped by value: [`super::fit_k`] gives
    /// the same K as on the positions themselves (its sums of halves and quarters are exact in
    /// any order).
    pub fn samples(&self) -> impl Iterator<Item = (i32, f32)> + '_ {
        self.0.iter().flat_map(|(&(score, result), &n)| {
            std::iter::repeat_n((score, f32::from(result) * 0.5), n as usize)
        })
    }
}

/// What [`scan`] found: the data set without its training positions, their count and their
/// score counts.
#[derive(Clone, Debug, Default)]
pub struct Scan {
    /// The files and the validation positions (`train` is empty).
    pub data: Dataset,
    /// Training positions (mirror images included).
    pub train_positions: u64,
    /// Their scores and results, for fitting K.
    pub scores: ScoreCounts,
}

/// The first pass of streaming: reads `paths` (files in parallel) as [`load`] does, keeping the
/// validation positions and only counting the training ones.
pub fn scan(
    paths: &[PathBuf],
    options: &LoadOptions,
    on_bytes: &(dyn Fn(u64) + Sync),
) -> Result<Scan, TrainError> {
    let scanned: Vec<_> = paths
        .par_iter()
        .map(|path| {
            let (mut validation, mut scratch) = (Vec::new(), Vec::new());
            let (mut count, mut scores) = (0u64, ScoreCounts::default());
            let file = split_file(path, options, on_bytes, &mut validation, |game, stats| {
                scratch.clear();
                push_positions(game, options, Role::Train, stats, &mut scratch);
                count += scratch.len() as u64;
                scratch.iter().for_each(|p| scores.add(p));
            })?;
            Ok((file, validation, count, scores))
        })
        .collect::<Result<_, TrainError>>()?;
    let mut out = Scan::default();
    for (file, mut validation, count, scores) in scanned {
        out.data.files.push(file);
        out.data.validation.append(&mut validation);
        out.train_positions += count;
        out.scores.merge(&scores);
    }
    Ok(out)
}

/// One pass over the training positions of `files` (as [`scan`] described them), in [`load`]'s
/// order, handed to `each` in chunks of `chunk` positions (the last one shorter) until it
/// returns false. Holds one chunk at a time. Fails when a file no longer has the size, hash or
/// game count the scan found.
pub fn stream_chunks(
    files: &[DataFile],
    options: &LoadOptions,
    chunk: usize,
    mut each: impl FnMut(Vec<PackedPosition>) -> bool,
) -> Result<(), TrainError> {
    let chunk = chunk.max(1);
    // A chunk larger than the data (one chunk for everything) allocates only what it holds.
    let capacity = chunk.min(1 << 20);
    let mut buffer = Vec::with_capacity(capacity);
    let mut scratch = Vec::new();
    let mut stats = FilterStats::default();
    let mut open = true;
    for expected in files {
        let found = read_games(&expected.path, |game| {
            let role = role(&game, options);
            if role == Role::Train {
                scratch.clear();
                push_positions(&game, options, role, &mut stats, &mut scratch);
                let mut rest = &scratch[..];
                while !rest.is_empty() {
                    let take = rest.len().min(chunk - buffer.len());
                    buffer.extend_from_slice(&rest[..take]);
                    rest = &rest[take..];
                    if buffer.len() == chunk {
                        let full = std::mem::replace(&mut buffer, Vec::with_capacity(capacity));
                        open = each(full);
                        if !open {
                            return false;
                        }
                    }
                }
            }
            true
        })?;
        if !open {
            return Ok(());
        }
        if (found.bytes, found.hash, found.games) != (expected.bytes, expected.hash, expected.games)
        {
            return Err(TrainError::Read {
                path: expected.path.clone(),
                error: io::Error::other("the file changed since training started"),
            });
        }
    }
    if !buffer.is_empty() {
        each(buffer);
    }
    Ok(())
}
