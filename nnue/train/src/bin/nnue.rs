//! `nnue`: the NNUE data and training tools until `cotuong` mounts them as subcommands.
//!
//! - `nnue train FILE... [options]`: train a net (see `nnue train --help`);
//! - `nnue dump FILE`: print every position as `FEN | score | result` (Red's point of view);
//! - `nnue synth --games N --seed S -o FILE`: write random-move games scored by material (for
//!   tests and speed measurements; no engine needed);
//! - `nnue holdout FILE --games N -o VALIDATION [--rest REST]`: cut the last N games of a data
//!   file into a fixed validation file for `train --validation-file`;
//! - `nnue repeats FILE...`: how many games repeat a game read before (new information, and
//!   the variety of the openings).

use clap::{Parser, Subcommand};
use nnue_train::data::{dump, synthetic_games, DumpError, Filters};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "nnue", about = "Cotuong NNUE data and training tools")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Train a net from game records.
    Train(nnue_train::train::Args),
    /// Print the positions of game records as `FEN | score | result`.
    Dump {
        /// A game-record file.
        file: PathBuf,
        /// Print only the positions the default training filters keep.
        #[arg(long)]
        filtered: bool,
    },
    /// Write the last games of a data file to a validation file for `train --validation-file`
    /// (and optionally the others to a second file). Outputs ending in `.gz` are compressed.
    Holdout {
        /// A game-record file (plain or gzip).
        file: PathBuf,
        /// Number of games to hold out, from the end of the file.
        #[arg(long)]
        games: u64,
        /// The validation file to write.
        #[arg(short, long)]
        output: PathBuf,
        /// Also write the games not held out here (not needed for training: a run leaves the
        /// validation file's games out of its data files by itself).
        #[arg(long)]
        rest: Option<PathBuf>,
    },
    /// The held-out loss of net files at one common score scale K, through the engine's quantised
    /// inference (a training run reports its loss at its own fitted K, so runs' own figures do
    /// not compare).
    Validate {
        /// Net files.
        #[arg(required = true)]
        nets: Vec<PathBuf>,
        /// Validation game-record files (plain or gzip; repeatable), filtered as in training.
        #[arg(long = "validation-file", required = true)]
        validation_files: Vec<PathBuf>,
        /// The common score scale K (engine units).
        #[arg(long, default_value_t = COMMON_SCALE)]
        k: f64,
        /// Weight of the score against the game result in the target, as in training.
        #[arg(long, default_value_t = 1.0)]
        lambda: f64,
    },
    /// Count the games that repeat a game read before (same start and moves), file by file in
    /// the order given, and the start positions (after the random opening plies) new to each.
    Repeats {
        /// Game-record files (plain or gzip).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Write synthetic games (random legal moves, material scores).
    Synth {
        /// Number of games.
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Seed of the first game (game i uses seed + i).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Ply cap per game.
        #[arg(long, default_value_t = 300)]
        max_plies: usize,
        /// Output file (written through a temporary file).
        #[arg(short, long)]
        output: PathBuf,
    },
}

/// The default common scale of `nnue validate`: near the K fitted on this project's data
/// (426-472 so far), so its losses read like the trainer's.
const COMMON_SCALE: f64 = 400.0;

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Train(args) => nnue_train::train::run(&args)
            .map(|_| ())
            .map_err(|e| e.to_string()),
        Command::Dump { file, filtered } => dump_file(&file, filtered),
        Command::Synth {
            games,
            seed,
            max_plies,
            output,
        } => synth(games, seed, max_plies, &output),
        Command::Validate {
            nets,
            validation_files,
            k,
            lambda,
        } => validate(&nets, &validation_files, k, lambda),
        Command::Repeats { files } => repeats(&files),
        Command::Holdout {
            file,
            games,
            output,
            rest,
        } => nnue_train::train::holdout(&file, games, &output, rest.as_deref())
            .map(|h| {
                eprintln!(
                    "wrote the last {} of {} games ({} bytes of records) to {}",
                    h.validation_games,
                    h.games,
                    h.validation_bytes,
                    output.display()
                )
            })
            .map_err(|e| e.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn dump_file(path: &std::path::Path, filtered: bool) -> Result<(), String> {
    let bytes = nnue_train::train::read_data_file(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let file = &bytes[..];
    let filters = Filters::default();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let summary = match dump(file, &mut out, filtered.then_some(&filters)) {
        Ok(summary) => summary,
        // The reader of the text went away (e.g. `| head`): not an error of the dump.
        Err(DumpError::Write(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    match out.flush() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.to_string()),
        _ => {}
    }
    eprintln!("{} games, {} positions", summary.games, summary.positions);
    Ok(())
}

fn synth(games: u64, seed: u64, max_plies: usize, output: &PathBuf) -> Result<(), String> {
    let mut bytes = Vec::new();
    let mut positions = 0;
    for i in 0..games {
        let game = synthetic_games::random_game(seed.wrapping_add(i), max_plies);
        positions += game.plies().len();
        game.encode_into(&mut bytes);
    }
    let mut tmp = output.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, &bytes)
        .and_then(|()| std::fs::rename(&tmp, output))
        .map_err(|e| format!("cannot write {}: {e}", output.display()))?;
    eprintln!(
        "wrote {games} games, {positions} positions, {} bytes to {}",
        bytes.len(),
        output.display()
    );
    Ok(())
}

fn repeats(files: &[PathBuf]) -> Result<(), String> {
    let (per_file, total) = nnue_train::train::count_repeats(files).map_err(|e| e.to_string())?;
    println!("games\trepeated\tpositions\trepeated positions\tnew starts\tfile");
    let row = |c: &nnue_train::train::RepeatCount, name: &str| {
        println!(
            "{}\t{} ({:.1}%)\t{}\t{} ({:.1}%)\t{}\t{name}",
            c.games,
            c.repeated_games,
            percent(c.repeated_games, c.games),
            c.positions,
            c.repeated_positions,
            percent(c.repeated_positions, c.positions),
            c.new_starts,
        )
    };
    for (count, path) in per_file.iter().zip(files) {
        row(count, &path.display().to_string());
    }
    row(&total, "(all)");
    Ok(())
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

fn validate(nets: &[PathBuf], files: &[PathBuf], k: f64, lambda: f64) -> Result<(), String> {
    if !(k.is_finite() && k > 0.0) {
        return Err(format!("--k must be a positive number, not {k}"));
    }
    if !(0.0..=1.0).contains(&lambda) {
        return Err(format!("--lambda must lie in [0, 1], not {lambda}"));
    }
    let set = nnue_train::train::ValidationSet::load(files, &Filters::default())
        .map_err(|e| e.to_string())?;
    eprintln!(
        "{} validation positions from {} games; loss at K = {k}, lambda {lambda}",
        set.len(),
        set.games
    );
    if set.is_empty() {
        return Err("the filters keep no validation position".to_string());
    }
    println!("loss at K {k}\tloss at own K\town K\tweights hash\tnet");
    for path in nets {
        let l = nnue_train::train::net_loss(path, &set, k, lambda).map_err(|e| e.to_string())?;
        println!(
            "{:.6}\t{:.6}\t{}\t{:016x}\t{}",
            l.loss,
            l.loss_at_own_scale,
            l.eval_scale,
            l.hash,
            l.path.display()
        );
    }
    Ok(())
}
