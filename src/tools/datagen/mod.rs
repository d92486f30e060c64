//! `cotuong datagen`: self-play games for training the evaluation network.
//!
//! Each game starts from the initial position (or a position from `--openings`), plays a few
//! random plies among the search's near-best moves, then lets the engine's own search (one
//! thread, a soft node limit per move) play both sides until the engine-core referee ends the
//! game (mate, stalemate, perpetual check or chase, repetition, the no-capture limit, bare
//! material), score adjudication does, or the ply cap is reached. Every position after the
//! random plies is recorded with its search score in the game-record format of `nnue_train::data`.
//!
//! Determinism: game `i` of a run depends only on the binary, the settings and `--seed` (its
//! random stream is `SplitMix64::stream(seed, i)`, and the searcher is cleared before it), and
//! games are written in index order whatever the number of threads. So a run is reproducible
//! byte for byte, shards with different seeds can be made on different machines and joined by
//! concatenation, and `--append` continues an interrupted run exactly where it stopped.

mod adjudication;
mod game;
mod output;
mod player;

use super::interrupt::{self, SecondPress, Stop};
use adjudication::Adjudication;
use clap::Args;
use cotuong::eval::Evaluator;
use engine_core::{GameResult, Position, SplitMix64};
use game::{play_game, GameConfig, PlayedGame};
use indicatif::ProgressBar;
use nnue_train::data::{FilterStats, Filters, Ply, PlyPosition, Rejection, Score};
use output::{OrderedWriter, RunSettings};
use player::SearchPlayer;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The default soft node limit per move. Trained on equal CPU time, 2,000-node data (2.3x the
/// positions) beat 5,000-node data by +91 Elo (`bench/datagen/README.md`, "Equal CPU budgets").
const DEFAULT_NODES: u64 = 2000;
/// The default spread of each game's node limit (±10%). With it, 10 random plies among 4 lines
/// repeated 1.2% of 41,804 games of seed 201 (`nnue repeats`); without it, 24% of a round-13
/// file repeated an earlier game, because games from one opening position were identical.
const DEFAULT_VARY_NODES: f64 = 0.1;

/// Arguments of `cotuong datagen`.
#[derive(Args, Debug, Clone)]
pub struct DatagenArgs {
    /// Output file (game records; created, or continued with --append).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Games to play in all (with --append: the total the file should reach).
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Index of the first game, counted from 0 as the seed's random streams are (a shard): the
    /// run plays games N to N+games-1 of the seed. The
    /// files of consecutive shards, concatenated in order, are byte for byte the file of one run
    /// over all their games (the data file has no header).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub first_game: u64,
    /// Check the arguments (evaluation, openings, output file) and exit without playing or
    /// writing anything.
    #[arg(long)]
    pub check: bool,
    /// Seed of the run: game i uses random stream i of this seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at the same time, one search thread each (default, or 0: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Soft node limit per move: no new iteration starts after this many nodes.
    #[arg(long, default_value_t = DEFAULT_NODES)]
    pub nodes: u64,
    /// Hash table per game thread, MB.
    #[arg(long, default_value_t = 8)]
    pub hash: usize,
    /// Evaluation the players search with: `nnue` (the net built into the binary), `hce` (the
    /// handcrafted evaluation) or the path of a net file.
    #[arg(long, default_value = "nnue", value_name = "nnue|hce|FILE")]
    pub eval: String,
    /// Random plies (among near-best moves) before recording starts. Games from one position on
    /// are deterministic, so these plies are the only source of variety between games.
    #[arg(long, default_value_t = 10)]
    pub random_plies: usize,
    /// Lines (MultiPV) searched for each random ply.
    #[arg(long, default_value_t = 4)]
    pub opening_lines: usize,
    /// A random ply picks among lines within this many units of the best.
    #[arg(long, default_value_t = 100)]
    pub opening_margin: i32,
    /// Openings whose first recorded position scores beyond this are replaced.
    #[arg(long, default_value_t = 300)]
    pub max_opening_score: i32,
    /// Scale each game's node limit by a factor drawn from 1 ± this, so that games whose random
    /// plies reach the same position still differ; 0 plays every game at --nodes.
    #[arg(long, default_value_t = DEFAULT_VARY_NODES, value_name = "FRACTION")]
    pub vary_nodes: f64,
    /// Start positions, one FEN (or EPD) per line; default: the initial position.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Play every game to the referee's end (no score adjudication).
    #[arg(long)]
    pub no_adjudication: bool,
    /// Adjudicated win: both sides' scores at least this far apart ...
    #[arg(long, default_value_t = Adjudication::default().win_score)]
    pub win_score: i32,
    /// ... for this many plies.
    #[arg(long, default_value_t = Adjudication::default().win_plies)]
    pub win_plies: usize,
    /// Adjudicated draw: every score within this of zero ...
    #[arg(long, default_value_t = Adjudication::default().draw_score)]
    pub draw_score: i32,
    /// ... for this many plies ...
    #[arg(long, default_value_t = Adjudication::default().draw_plies)]
    pub draw_plies: usize,
    /// ... from this recorded ply on.
    #[arg(long, default_value_t = Adjudication::default().draw_min_ply)]
    pub draw_min_ply: usize,
    /// Fraction of games played out to the referee's end although adjudication could end them.
    #[arg(long, default_value_t = 0.1)]
    pub play_out: f64,
    /// Recorded plies after which a game is drawn.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Continue the file: keep its complete games and play the rest of the run. The run's
    /// settings are checked against FILE.cmd, which datagen writes beside the file it starts.
    #[arg(long)]
    pub append: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Counts of a run, for the progress line and the summary.
#[derive(Default)]
struct Tally {
    games: u64,
    positions: u64,
    /// The trainer's default filters (`nnue_train::data::Filters::default`) on every position:
    /// how many they keep, and why they skip the others.
    filtered: FilterStats,
    /// Kept positions by pieces on the board, in [`PIECE_BANDS`].
    kept_by_pieces: [u64; PIECE_BANDS.len()],
    /// Search nodes of the openings (random plies and balance checks) and of the recorded plies.
    opening_nodes: u64,
    recorded_nodes: u64,
    /// Recorded plies of played-out games after adjudication would have ended them.
    past_adjudication: u64,
    /// Recorded plies at the end of games from which on every score says the game is decided
    /// ([`DECIDED_SCORE`]), or dead drawn ([`DRAWN_SCORE`]).
    decided_tail: u64,
    drawn_tail: u64,
    /// Games played at once (one per core), for the rate per core.
    threads: usize,
    red_wins: u64,
    draws: u64,
    black_wins: u64,
    terminations: BTreeMap<&'static str, u64>,
}

impl Tally {
    fn add(&mut self, game: &PlayedGame) {
        self.games += 1;
        self.positions += game.plies.len() as u64;
        let (filtered, by_pieces) = filter_positions(game);
        self.filtered.merge(&filtered);
        for (total, n) in self.kept_by_pieces.iter_mut().zip(by_pieces) {
            *total += n;
        }
        self.opening_nodes += game.cost.opening_nodes;
        self.recorded_nodes += game.cost.recorded_nodes;
        self.past_adjudication += game.cost.past_adjudication as u64;
        let (decided, drawn) = settled_tails(game);
        self.decided_tail += decided as u64;
        self.drawn_tail += drawn as u64;
        match game.result {
            GameResult::RedWins => self.red_wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::BlackWins => self.black_wins += 1,
        }
        *self.terminations.entry(game.termination.id()).or_default() += 1;
    }
}

/// Pieces on the board (kings included) that bound the bands of the kept-positions line: 26-32,
/// 19-25, 12-18, 2-11.
const PIECE_BANDS: [u32; 4] = [26, 19, 12, 2];

/// The trainer's default filters on every position of `game` (the useful part of the positions
/// datagen pays for), and the kept ones by [`PIECE_BANDS`].
fn filter_positions(game: &PlayedGame) -> (FilterStats, [u64; PIECE_BANDS.len()]) {
    let filters = Filters::default();
    let mut stats = FilterStats::default();
    let mut by_pieces = [0; PIECE_BANDS.len()];
    let mut position = game.start.clone();
    for (index, played) in game.plies.iter().enumerate() {
        let ply = Ply {
            mv: played.mv,
            score: Score::from_search(played.score),
        };
        let candidate = PlyPosition {
            index,
            position: position.clone(),
            ply,
        };
        let verdict = filters.check(&candidate);
        if verdict.is_ok() {
            let pieces = position.occupied().count();
            if let Some(band) = PIECE_BANDS.iter().position(|&low| pieces >= low) {
                by_pieces[band] += 1;
            }
        }
        stats.count(&verdict);
        position.make_move(ply.mv);
    }
    (stats, by_pieces)
}

/// A score (engine units) beyond which a game counts as decided for [`settled_tails`]: about a
/// chariot, the default adjudication's threshold.
const DECIDED_SCORE: i32 = 1000;

/// A score within which a game counts as dead drawn for [`settled_tails`].
const DRAWN_SCORE: i32 = 10;

/// The plies at the end of `game` from which on every score says one side is at least
/// [`DECIDED_SCORE`] ahead (the same side throughout), and those from which on every score is
/// within [`DRAWN_SCORE`] of zero: what the game spent after its result was clear.
fn settled_tails(game: &PlayedGame) -> (usize, usize) {
    // The scores of the plies from Red's point of view; the first ply's mover is the start's.
    let red_first = game.start.side_to_move() == engine_core::Color::Red;
    let red_view = |i: usize, score: i32| {
        if i.is_multiple_of(2) == red_first {
            score
        } else {
            -score
        }
    };
    let scores: Vec<i32> = game
        .plies
        .iter()
        .enumerate()
        .map(|(i, p)| red_view(i, p.score))
        .collect();
    let tail = |holds: &dyn Fn(i32) -> bool| scores.iter().rev().take_while(|&&s| holds(s)).count();
    let decided = tail(&|s| s >= DECIDED_SCORE).max(tail(&|s| s <= -DECIDED_SCORE));
    let drawn = tail(&|s| s.abs() <= DRAWN_SCORE);
    (decided, drawn)
}

/// Runs `cotuong datagen`; an error message for bad arguments or I/O failures.
pub fn run(args: &DatagenArgs) -> Result<(), String> {
    let config = game_config(args)?;
    let threads = cotuong::options::threads_or_all_cores(args.threads.unwrap_or(0));
    let evaluator = Evaluator::from_choice(&args.eval)?;
    let settings = RunSettings::of(args, &evaluator);
    if args.first_game.checked_add(args.games).is_none() {
        return Err("--first-game plus --games is too large".to_string());
    }
    if args.check {
        let holds_data = args.out.metadata().map(|m| m.len() > 0).unwrap_or(false);
        if holds_data && !args.append {
            return Err(format!(
                "{} already holds data: use --append to continue it, or another file",
                args.out.display()
            ));
        }
        return super::stdout::print(&format!("datagen: arguments are valid ({settings})\n"));
    }
    if args.games == 0 {
        eprintln!("datagen: --games 0, no game to play: nothing written");
        return Ok(());
    }
    let mut writer = OrderedWriter::open(&args.out, &settings, args.append)?;
    let first = writer.games_in_file();
    if first >= args.games {
        eprintln!(
            "{} already holds {first} games (asked for {}): nothing to do",
            args.out.display(),
            args.games
        );
        return Ok(());
    }
    // A second Ctrl-C stops at once: the searches abort, and the file keeps only complete games.
    interrupt::install("the games in progress", SecondPress::Signal)?;

    let todo = args.games - first;
    let bar = progress_bar(args.quiet, todo);
    let next = Arc::new(AtomicU64::new(first));
    let first_game = args.first_game;
    let (tx, rx) = crossbeam_channel::unbounded::<(u64, PlayedGame)>();
    let started = Instant::now();
    let mut tally = Tally {
        threads,
        ..Tally::default()
    };
    let spawn_error = std::thread::scope(|scope| -> Option<String> {
        for t in 0..threads {
            let (tx, next, config, evaluator) =
                (tx.clone(), next.clone(), &config, evaluator.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("datagen-{t}"))
                .stack_size(cotuong::search::THREAD_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut player =
                        match SearchPlayer::new(args.hash, args.nodes, &config.rules, evaluator) {
                            Ok(p) => p,
                            Err(e) => {
                                eprintln!("error: datagen thread {t}: {e}");
                                return;
                            }
                        };
                    let abort = || interrupt::requested() == Stop::Now;
                    loop {
                        if interrupt::requested() != Stop::No {
                            break;
                        }
                        let index = next.fetch_add(1, Ordering::SeqCst);
                        if index >= args.games {
                            break;
                        }
                        let mut rng = SplitMix64::stream(args.seed, first_game + index);
                        match play_game(config, &mut rng, &mut player, &abort) {
                            Some(game) => {
                                if tx.send((index, game)).is_err() {
                                    break;
                                }
                            }
                            None => break,
                        }
                    }
                });
            if let Err(e) = spawned {
                interrupt::stop_now();
                return Some(format!("cannot start a datagen thread: {e}"));
            }
        }
        drop(tx);
        for (index, game) in rx.iter() {
            tally.add(&game);
            if let Err(e) = writer.accept(index, &game) {
                interrupt::stop_now();
                return Some(e);
            }
            bar.set_position(writer.games_in_file() - first);
            bar.set_message(progress_message(&tally, started));
        }
        None
    });
    bar.finish_and_clear();
    let written = writer.games_in_file();
    let pending = writer.pending();
    let size = writer.finish()?;
    if let Some(e) = spawn_error {
        return Err(e);
    }
    print_summary(
        args,
        &tally,
        written - first,
        written,
        size,
        started,
        pending,
    );
    if written < args.games {
        eprintln!(
            "interrupted: {} holds {written} of {} games; run again with --append to finish",
            args.out.display(),
            args.games
        );
    }
    Ok(())
}

/// The game settings from the arguments, with the openings file read and checked.
fn game_config(args: &DatagenArgs) -> Result<GameConfig, String> {
    if args.nodes == 0 {
        return Err("--nodes must be at least 1".to_string());
    }
    if !(0.0..1.0).contains(&args.vary_nodes) {
        return Err(format!(
            "--vary-nodes {} is not at least 0 and below 1",
            args.vary_nodes
        ));
    }
    if !(0.0..=1.0).contains(&args.play_out) {
        return Err(format!(
            "--play-out {} is not between 0 and 1",
            args.play_out
        ));
    }
    let openings = match &args.openings {
        None => Vec::new(),
        Some(path) => read_openings(path)?,
    };
    Ok(GameConfig {
        openings,
        random_plies: args.random_plies,
        opening_lines: args.opening_lines.max(1),
        opening_margin: args.opening_margin,
        max_opening_score: args.max_opening_score,
        vary_nodes: args.vary_nodes,
        adjudication: (!args.no_adjudication).then_some(Adjudication {
            win_score: args.win_score,
            win_plies: args.win_plies,
            draw_score: args.draw_score,
            draw_plies: args.draw_plies,
            draw_min_ply: args.draw_min_ply,
        }),
        play_out_fraction: args.play_out,
        max_plies: args.max_plies.clamp(1, nnue_train::data::MAX_PLIES),
        rules: Default::default(),
    })
}

/// Start positions from a file: one FEN or EPD per line (operations after the position are
/// read and not used); `#` comments and blank lines are skipped.
fn read_openings(path: &std::path::Path) -> Result<Vec<Position>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let record = super::epd::EpdRecord::parse(line)
            .map_err(|e| format!("{} line {}: {e}", path.display(), n + 1))?;
        let pos = Position::from_fen(&record.fen)
            .map_err(|e| format!("{} line {}: bad FEN: {e}", path.display(), n + 1))?;
        if !record.moves.is_empty() {
            return Err(format!(
                "{} line {}: datagen starts from the position itself; give the position the \
                 moves lead to instead of 'moves ...'",
                path.display(),
                n + 1
            ));
        }
        out.push(pos);
    }
    if out.is_empty() {
        return Err(format!("{} holds no position", path.display()));
    }
    Ok(out)
}

fn progress_bar(quiet: bool, games: u64) -> ProgressBar {
    super::progress_bar::progress_bar(
        games,
        quiet,
        "{elapsed_precise} [{bar:24}] {pos}/{len} games, {msg}, ETA {eta}",
    )
}

fn progress_message(t: &Tally, started: Instant) -> String {
    format!(
        "{} positions ({}), Red-draw-Black {}-{}-{}",
        t.positions,
        t.rates(started),
        t.red_wins,
        t.draws,
        t.black_wins
    )
}

impl Tally {
    /// Positions per second, per core, and the share the trainer keeps: what a position costs.
    fn rates(&self, started: Instant) -> String {
        let per_second = self.positions as f64 / started.elapsed().as_secs_f64().max(1e-3);
        let kept = 100.0 * self.filtered.kept as f64 / self.positions.max(1) as f64;
        format!(
            "{per_second:.0}/s, {:.0}/s per core, {kept:.0}% kept",
            per_second / self.threads.max(1) as f64
        )
    }
}

impl Tally {
    /// The summary lines on what positions cost: nodes per position and per kept one, the share
    /// of the openings, why the filters skip positions, which positions they keep, and the plies
    /// spent after a game's result was clear.
    fn cost_lines(&self) -> Vec<String> {
        let nodes = self.opening_nodes + self.recorded_nodes;
        let per = |n: u64, d: u64| n as f64 / d.max(1) as f64;
        let pct = |n: u64, d: u64| 100.0 * per(n, d);
        let positions = self.positions;
        let skipped: Vec<String> = Rejection::ALL
            .iter()
            .zip(self.filtered.rejected)
            .filter(|(_, n)| *n > 0)
            .map(|(r, n)| format!("{} {:.1}%", r.name(), pct(n, positions)))
            .collect();
        let kept = self.filtered.kept;
        let bands: Vec<String> = PIECE_BANDS
            .iter()
            .enumerate()
            .zip(self.kept_by_pieces)
            .map(|((i, low), n)| {
                let high = if i == 0 { 32 } else { PIECE_BANDS[i - 1] - 1 };
                format!("{low}-{high} {:.1}%", pct(n, kept))
            })
            .collect();
        vec![
            format!(
                "nodes: {:.0} per position, {:.0} per kept position; openings {:.1}% of them",
                per(nodes, positions),
                per(nodes, kept),
                pct(self.opening_nodes, nodes)
            ),
            format!(
                "filters: kept {kept} ({:.1}%); skipped {}",
                pct(kept, positions),
                if skipped.is_empty() {
                    "none".to_string()
                } else {
                    skipped.join(", ")
                }
            ),
            format!("kept by pieces on board: {}", bands.join(", ")),
            format!(
                "settled: {:.1}% of positions after |score| >= {DECIDED_SCORE} for good, \
                 {:.1}% after |score| <= {DRAWN_SCORE} for good; \
                 {:.1}% in played-out games after adjudication would have ended them",
                pct(self.decided_tail, positions),
                pct(self.drawn_tail, positions),
                pct(self.past_adjudication, positions)
            ),
        ]
    }
}

fn print_summary(
    args: &DatagenArgs,
    t: &Tally,
    new_games: u64,
    total_games: u64,
    size: u64,
    started: Instant,
    discarded: usize,
) {
    let secs = started.elapsed().as_secs_f64().max(1e-3);
    eprintln!(
        "datagen: {new_games} games, {} positions in {secs:.1} s ({}; {:.2} games/s)",
        t.positions,
        t.rates(started),
        t.games as f64 / secs
    );
    if t.games > 0 {
        let pct = |n: u64| 100.0 * n as f64 / t.games as f64;
        eprintln!(
            "results: Red {} ({:.1}%), draws {} ({:.1}%), Black {} ({:.1}%); {:.1} positions per game",
            t.red_wins,
            pct(t.red_wins),
            t.draws,
            pct(t.draws),
            t.black_wins,
            pct(t.black_wins),
            t.positions as f64 / t.games as f64
        );
        let ends: Vec<String> = t
            .terminations
            .iter()
            .map(|(name, n)| format!("{name} {n}"))
            .collect();
        eprintln!("terminations: {}", ends.join(", "));
        for line in t.cost_lines() {
            eprintln!("{line}");
        }
    }
    if discarded > 0 {
        eprintln!("{discarded} finished games after an unfinished one were not written");
    }
    eprintln!("{}: {total_games} games, {size} bytes", args.out.display());
}
