//! The data file of a run: games written in index order whatever order the threads finish them
//! in, a sidecar that records how the file was made, and `--append` resuming.
//!
//! A game is written with one `write_all` of its whole record, so after a Ctrl-C (or a crash)
//! the file holds complete games only, except in the unlikely case of a kill during that write;
//! `--append` then cuts the incomplete record off before continuing.

use super::game::PlayedGame;
use super::DatagenArgs;
use cotuong::eval::Evaluator;
use nnue_train::data::{DataErrorKind, GameReader, GameRecord, Score};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The settings that decide a run's games: two runs with equal settings write the same bytes
/// (with the same binary). Written into the sidecar and compared by `--append`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSettings(String);

impl std::fmt::Display for RunSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl RunSettings {
    /// The deciding settings of `args` (not `--games`, `--threads`, `--append`, `--quiet`, which
    /// change how many games or how fast, not which).
    pub fn of(args: &DatagenArgs, evaluator: &Evaluator) -> RunSettings {
        let openings = args
            .openings
            .as_ref()
            .map_or("start".to_string(), |p| p.display().to_string());
        let adjudication = if args.no_adjudication {
            "off".to_string()
        } else {
            format!(
                "win {} for {} plies, draw {} for {} plies from ply {}, play-out {}",
                args.win_score,
                args.win_plies,
                args.draw_score,
                args.draw_plies,
                args.draw_min_ply,
                args.play_out
            )
        };
        // The first game joins the settings only for shards, so that the settings files of runs
        // made before the option existed still match.
        let shard = if args.first_game == 0 {
            String::new()
        } else {
            format!("first game {}; ", args.first_game)
        };
        // Likewise the node variation joins them only when it is on.
        let vary_nodes = if args.vary_nodes > 0.0 {
            format!(" (varied by {} per game)", args.vary_nodes)
        } else {
            String::new()
        };
        RunSettings(format!(
            "{shard}seed {}; nodes {}{vary_nodes}; hash {} MB; random plies {} of {} lines within {}; \
             max opening score {}; openings {}; adjudication {}; max plies {}; engine {}; \
             evaluation {}",
            args.seed,
            args.nodes,
            args.hash,
            args.random_plies,
            args.opening_lines,
            args.opening_margin,
            args.max_opening_score,
            openings,
            adjudication,
            args.max_plies,
            cotuong::engine::ENGINE_NAME,
            match evaluator.net() {
                Some(net) => format!("net {:016x}", net.hash()),
                None => "handcrafted".to_string(),
            },
        ))
    }
}

/// Writes finished games in index order.
pub struct OrderedWriter {
    file: File,
    path: PathBuf,
    /// Games in the file (the index of the next game to write).
    written: u64,
    /// Finished games waiting for an earlier one.
    waiting: BTreeMap<u64, Vec<u8>>,
}

/// The sidecar file next to a data file: `FILE.cmd`.
fn sidecar_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".cmd");
    PathBuf::from(name)
}

const SETTINGS_PREFIX: &str = "settings: ";

impl OrderedWriter {
    /// Creates the data file (it must not hold data yet), or with `append` opens it after
    /// checking its complete games and that it was made with the same settings.
    pub fn open(
        path: &Path,
        settings: &RunSettings,
        append: bool,
    ) -> Result<OrderedWriter, String> {
        let exists = path.metadata().map(|m| m.len() > 0).unwrap_or(false);
        let sidecar = sidecar_path(path);
        let mut written = 0;
        if exists && !append {
            return Err(format!(
                "{} already holds data: use --append to continue it, or another file",
                path.display()
            ));
        }
        if exists {
            let recorded = std::fs::read_to_string(&sidecar).map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => format!(
                    "cannot continue {}: its settings file {} is missing. datagen writes the run's \
                     settings (seed, nodes, openings, evaluation, ...) there when it starts a \
                     file, and --append needs them to play the same run on; without it, write \
                     the games to a new file (the files of runs with other seeds join by \
                     concatenation)",
                    path.display(),
                    sidecar.display()
                ),
                _ => format!("cannot read {}: {e}", sidecar.display()),
            })?;
            let recorded = recorded
                .lines()
                .find_map(|l| l.strip_prefix(SETTINGS_PREFIX))
                .unwrap_or("");
            if recorded != settings.0 {
                return Err(format!(
                    "{} was made with other settings:\n  file: {recorded}\n  now:  {}",
                    path.display(),
                    settings.0
                ));
            }
            written = complete_games(path)?;
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        let command: Vec<String> = std::env::args().collect();
        std::fs::write(
            &sidecar,
            format!(
                "# How {} was made (cotuong datagen); --append checks the settings line.\n\
                 command: {}\n{SETTINGS_PREFIX}{}\n",
                path.display(),
                command.join(" "),
                settings.0
            ),
        )
        .map_err(|e| format!("cannot write {}: {e}", sidecar.display()))?;
        Ok(OrderedWriter {
            file,
            path: path.to_path_buf(),
            written,
            waiting: BTreeMap::new(),
        })
    }

    /// Games in the file so far.
    pub fn games_in_file(&self) -> u64 {
        self.written
    }

    /// Finished games not written because an earlier game is missing.
    pub fn pending(&self) -> usize {
        self.waiting.len()
    }

    /// Takes game `index`; writes it and every waiting game that follows it without a gap.
    pub fn accept(&mut self, index: u64, game: &PlayedGame) -> Result<(), String> {
        self.waiting.insert(index, encode(game)?);
        while let Some(bytes) = self.waiting.remove(&self.written) {
            self.file
                .write_all(&bytes)
                .map_err(|e| format!("cannot write {}: {e}", self.path.display()))?;
            self.written += 1;
        }
        Ok(())
    }

    /// Flushes the file and returns its size.
    pub fn finish(mut self) -> Result<u64, String> {
        self.file
            .flush()
            .and_then(|_| self.file.sync_all())
            .and_then(|_| self.file.metadata().map(|m| m.len()))
            .map_err(|e| format!("cannot finish {}: {e}", self.path.display()))
    }
}

/// The record bytes of a game.
fn encode(game: &PlayedGame) -> Result<Vec<u8>, String> {
    let mut record =
        GameRecord::new(&game.start).map_err(|e| format!("cannot record a game: {e}"))?;
    for ply in &game.plies {
        record
            .push(ply.mv, Score::from_search(ply.score))
            .map_err(|e| format!("cannot record a game: {e}"))?;
    }
    let game = record
        .finish(game.result, game.termination)
        .map_err(|e| format!("cannot record a game: {e}"))?;
    Ok(game.to_bytes())
}

/// Counts the complete games of an existing data file; an incomplete last record (a kill during
/// a write) is cut off with a warning; any other corruption is an error.
fn complete_games(path: &Path) -> Result<u64, String> {
    let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut reader = GameReader::new(file);
    let mut failure = None;
    for game in reader.by_ref() {
        if let Err(e) = game {
            failure = Some(e);
            break;
        }
    }
    let (games, good_bytes) = (reader.games_read(), reader.offset());
    match failure {
        None => Ok(games),
        Some(e) if matches!(e.kind, DataErrorKind::Truncated { .. }) => {
            eprintln!(
                "warning: {} ends inside game {} ({e}); cutting it off at byte {good_bytes}",
                path.display(),
                games + 1
            );
            OpenOptions::new()
                .write(true)
                .open(path)
                .and_then(|f| f.set_len(good_bytes))
                .map_err(|e| format!("cannot truncate {}: {e}", path.display()))?;
            Ok(games)
        }
        Some(e) => Err(format!("{} is corrupt: {e}", path.display())),
    }
}
