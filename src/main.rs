//! `cotuong`: the command line. Without a subcommand it runs the engine's UCI/UCCI/XBoard loop; the
//! subcommands are for people and tools (perft, bench, judge, analyze, play, match, datagen,
//! train, tune).

mod tools;

use clap::{Parser, Subcommand};
use cotuong::{bench, perft, protocol};
use engine_core::{Position, RankBase, START_FEN};
use std::process::ExitCode;
use tools::{analyze, datagen, gui, judge, match_runner, play, stdout, tune};

/// `--version`: the crate's version and the commit it was built from (set by build.rs), so that
/// a report names the exact build; a build outside git has the version alone.
const VERSION: &str = env!("COTUONG_VERSION");

#[derive(Parser)]
#[command(
    name = "cotuong",
    version = VERSION,
    about = "Xiangqi engine (UCI, UCCI and XBoard) and tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (move-generator check and speed test).
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Position to start from: a FEN or `startpos` (default: the initial position).
        #[arg(long, default_value = START_FEN)]
        fen: String,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Worker threads splitting the root moves (0: all cores).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Print moves with ranks 1-10 instead of 0-9.
        #[arg(long)]
        ranks_from_one: bool,
    },
    /// Judge a game, or each game of a PGN file: result and rule (first line), then the
    /// explanation.
    Judge(judge::JudgeArgs),
    /// Analyze positions (best lines) or games (each move scored, inaccuracies, mistakes and
    /// blunders marked): a table, an annotated PGN or JSON, and an evaluation graph.
    Analyze(analyze::AnalyzeArgs),
    /// Play a game against the engine in the terminal: moves in any notation, undo, hint, level,
    /// time, save as PGN; the referee ends the game and names the article of the Law. Works on a
    /// pipe too (one move or command a line).
    Play(play::PlayArgs),
    /// Play, analyse and review in the browser: serves a page on this machine (127.0.0.1) and
    /// opens it (see docs/gui.md).
    Gui(gui::GuiArgs),
    /// Play games or a tournament between UCI, UCCI or XBoard engines (see
    /// docs/match-runner.md).
    Match(match_runner::MatchArgs),
    /// Self-play games with the engine's search, recorded as training data for the network.
    Datagen(datagen::DatagenArgs),
    /// Train a network from game records (`cotuong datagen` output) and write a net file that
    /// `EvalFile` loads.
    Train(nnue_train::train::Args),
    /// Tune the search's constants by SPSA over game pairs of an engine built with
    /// `--features tune` (trajectory CSV and SVG plot; resumable).
    Tune(tune::TuneArgs),
    /// Search a fixed set of positions to a fixed depth (1 thread, 16 MB hash) and print the
    /// total node count (the search's signature) and nodes per second; with --threads, the
    /// time to depth of the parallel search.
    Bench {
        /// Depth per position.
        #[arg(default_value_t = bench::DEFAULT_DEPTH)]
        depth: u32,
        /// Search threads, 0 for all cores (the signature is the 1-thread count).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(0..=256))]
        threads: u16,
        /// Table size in MB (the signature is the 16 MB count).
        #[arg(long, default_value_t = bench::BENCH_HASH_MB as u32, value_parser = clap::value_parser!(u32).range(1..=65536))]
        hash: u32,
        /// Evaluation: `nnue` (the net built into the binary), `hce` (handcrafted) or a net file.
        #[arg(long, default_value = "nnue", value_name = "nnue|hce|FILE")]
        eval: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft {
            depth,
            fen,
            divide,
            threads,
            ranks_from_one,
        }) => {
            let pos = match Position::from_fen(engine_core::expand_startpos(&fen)) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("error: bad FEN: {e}");
                    return ExitCode::from(2);
                }
            };
            let threads = cotuong::options::threads_or_all_cores(threads);
            let base = if ranks_from_one {
                RankBase::One
            } else {
                RankBase::Zero
            };
            match perft::run(&pos, depth, divide, threads, base, &mut stdout::writer()) {
                Ok(report) => {
                    let nps = report.nodes as f64 / report.seconds.max(1e-9);
                    eprintln!(
                        "perft {depth}: {} nodes in {:.3} s, {:.1} Mnodes/s ({} thread{})",
                        report.nodes,
                        report.seconds,
                        nps / 1e6,
                        threads,
                        if threads == 1 { "" } else { "s" }
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => stdout::exit(Err(e.to_string()), 1),
            }
        }
        Some(Command::Judge(args)) => judge::main(&args),
        Some(Command::Analyze(args)) => analyze::main(&args),
        Some(Command::Play(args)) => play::main(&args),
        Some(Command::Gui(args)) => gui::main(&args),
        Some(Command::Match(args)) => stdout::exit(match_runner::run(&args), 2),
        Some(Command::Datagen(args)) => stdout::exit(datagen::run(&args), 2),
        Some(Command::Tune(args)) => stdout::exit(tune::run(&args), 2),
        Some(Command::Train(args)) => match nnue_train::train::run(&args) {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Some(Command::Bench {
            depth,
            threads,
            hash,
            eval,
        }) => {
            let evaluator = match cotuong::eval::Evaluator::from_choice(&eval) {
                Ok(e) => e,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            let config = bench::BenchConfig {
                depth,
                threads: cotuong::options::threads_or_all_cores(usize::from(threads)),
                hash_mb: hash as usize,
            };
            match bench::run(config, evaluator, &mut stdout::writer()) {
                Ok(report) if config.gives_signature() => {
                    eprintln!(
                        "bench depth {depth}: signature {} nodes in {} ms",
                        report.nodes, report.millis
                    );
                    ExitCode::SUCCESS
                }
                Ok(report) => {
                    let threads = config.threads;
                    eprintln!(
                        "bench depth {depth}, {threads} thread{}, {hash} MB: {} nodes in {} ms \
                         (not the signature, which is 1 thread and 16 MB)",
                        if threads == 1 { "" } else { "s" },
                        report.nodes,
                        report.millis
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => stdout::exit(Err(e.to_string()), 1),
            }
        }
        None => stdout::exit(protocol::run(), 1),
    }
}
