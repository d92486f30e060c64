//! `cotuong tune`: SPSA tuning of the search's constants by games, built on the match runner's
//! engine processes, clocks and referee.
//!
//! Every iteration plays one game pair (one opening, colours reversed) between two copies of the
//! engine under test, one with every tuned constant perturbed up by `c_k` or down (a random sign
//! per constant), the other the opposite way, and moves the estimates towards the winner
//! ([`spsa`]). The constants are set through their hidden options, so the engine must be built
//! with the `tune` feature (`cargo build --release --features tune`); the tuner checks that the
//! engine accepts them before the first game. The trajectory goes to a CSV file that is also the
//! recovery file ([`trajectory`]), with an SVG plot beside it ([`plot`]).

mod plot;
mod spsa;
mod trajectory;

use super::interrupt::{self, SecondPress, Stop};
use super::match_runner::{
    load_openings, opening_order, play_game, start_engine, Clock, EngineConfig, GameSettings,
    MatchEngine, Opening, Seat, TimeControl,
};
use super::output_file::write_atomically;
use super::progress_bar::progress_bar;
use cotuong::options::find_tunable;
use cotuong::search::{Tunable, TUNABLES};
use engine_core::{GameResult, RuleOptions};
use spsa::{Parameter, Perturbation, Schedule, Spsa};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use trajectory::{Row, Trajectory};

/// Spall's exponent of the step-size decay.
const DEFAULT_ALPHA: f64 = 0.602;
/// Spall's exponent of the perturbation decay.
const DEFAULT_GAMMA: f64 = 0.101;
/// Fishtest's usual learning rate at the end of a run.
const DEFAULT_R_END: f64 = 0.002;
/// `A` as a share of the iterations when not given.
const BIG_A_SHARE: f64 = 0.1;
/// The plot is redrawn every this many iterations (and at the end).
const PLOT_EVERY: u64 = 20;
/// Seconds an engine on a node limit may think before it counts as hung.
const HANG_TIMEOUT: Duration = Duration::from_secs(60);
/// Nodes per move when neither --nodes nor --tc is given.
const DEFAULT_NODES: u64 = 5_000;
/// Title of the trajectory plot.
const PLOT_TITLE: &str = "cotuong tune: SPSA trajectory";
/// The opening suite shipped with the engine, the default when it is present.
const SHIPPED_OPENINGS: &str = "bench/openings/xiangqi-openings.epd";

/// A worker's two engines (plus and minus), kept from one game pair to the next.
type EnginePair = (Box<dyn MatchEngine>, Box<dyn MatchEngine>);

/// Command-line arguments of `cotuong tune`.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// The engine under test, as key=value settings of `cotuong match` (cmd=, option.NAME=,
    /// ...). It must be built with `--features tune`. Default: this program.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    engine: Vec<String>,
    /// Constants to tune: `all`, or names separated by commas (`RFP_MARGIN,FUTILITY_BASE`).
    /// `--list` shows them.
    #[arg(long, default_value = "all")]
    params: String,
    /// List the tunable constants with their defaults, ranges and steps, and exit.
    #[arg(long)]
    list: bool,
    /// Iterations of the run: game pairs, N in the schedules.
    #[arg(long, default_value_t = 10_000)]
    iterations: u64,
    /// Nodes per move (default 5000 when no --tc is given; fixed nodes keep results independent
    /// of the machine).
    #[arg(long)]
    nodes: Option<u64>,
    /// A clock instead of nodes: [moves/]seconds[+increment], e.g. 5+0.05.
    #[arg(long, conflicts_with = "nodes")]
    tc: Option<String>,
    /// Opening file (one FEN or EPD per line, optionally with "moves ..."). Default: the shipped
    /// suite, bench/openings/xiangqi-openings.epd.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Game pairs played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Seed of the perturbation signs and of the opening order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// SPSA α: exponent of the step-size decay a_k = a / (A + k)^α.
    #[arg(long, default_value_t = DEFAULT_ALPHA)]
    alpha: f64,
    /// SPSA γ: exponent of the perturbation decay c_k = c / k^γ.
    #[arg(long, default_value_t = DEFAULT_GAMMA)]
    gamma: f64,
    /// SPSA A, the stability constant (default: a tenth of --iterations).
    #[arg(long = "big-a")]
    big_a: Option<f64>,
    /// SPSA step: the learning rate a_k / c_k² at the end of the run (Fishtest's r_end); the
    /// step a follows from it.
    #[arg(long, default_value_t = DEFAULT_R_END)]
    r_end: f64,
    /// SPSA perturbation: a factor on every constant's c_end (its step in the table).
    #[arg(long, default_value_t = 1.0)]
    c_scale: f64,
    /// Trajectory CSV (also the recovery file: run the same command again to continue); the plot
    /// goes beside it with the extension .svg.
    #[arg(long, default_value = "tune.csv")]
    out: PathBuf,
    /// Milliseconds an engine may exceed its time before it forfeits (with --tc).
    #[arg(long, default_value_t = 100)]
    timemargin: u64,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs `cotuong tune`; the error is a message for the user.
pub fn run(args: &TuneArgs) -> Result<(), String> {
    if args.list {
        return super::stdout::print(&list());
    }
    let run = Run::new(args)?;
    run.play(args)
}

/// The table of tunable constants, for `--list`.
fn list() -> String {
    let mut out = format!(
        "{:<34} {:>8} {:>8} {:>8} {:>8}\n",
        "constant", "default", "min", "max", "step"
    );
    for t in TUNABLES {
        out.push_str(&format!(
            "{:<34} {:>8} {:>8} {:>8} {:>8}\n",
            t.name, t.default, t.min, t.max, t.step
        ));
    }
    out
}

/// The constants named by `--params`.
fn selected(params: &str) -> Result<Vec<Tunable>, String> {
    if params.trim().eq_ignore_ascii_case("all") {
        return Ok(TUNABLES.to_vec());
    }
    let mut out: Vec<Tunable> = Vec::new();
    for name in params.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let (_, t) = find_tunable(name)
            .ok_or_else(|| format!("--params: no tunable constant '{name}' (see --list)"))?;
        if out.iter().any(|o| o.name == t.name) {
            return Err(format!("--params: '{}' given twice", t.name));
        }
        out.push(*t);
    }
    if out.is_empty() {
        return Err("--params names no constant".into());
    }
    Ok(out)
}

/// Everything a run needs, validated.
struct Run {
    engine: EngineConfig,
    openings: Vec<Opening>,
    opening_order: Vec<usize>,
    settings: GameSettings,
    seed: u64,
    /// Names of the tuned constants, in the trajectory's order.
    names: Vec<&'static str>,
    /// The estimates and the trajectory, shared by the workers.
    state: Mutex<Shared>,
    plot_path: PathBuf,
    concurrency: usize,
}

impl Run {
    fn new(args: &TuneArgs) -> Result<Run, String> {
        // The trajectory is read back to resume and the plot goes beside it: it must be a file.
        if args.out.as_os_str() == "-" {
            return Err(
                "--out -: the trajectory is also the recovery file, so it needs a \
                        file name, not standard output"
                    .into(),
            );
        }
        let tunables = selected(&args.params)?;
        if args.iterations == 0 {
            return Err("--iterations must be at least 1".into());
        }
        if args.concurrency == 0 {
            return Err("--concurrency must be at least 1".into());
        }
        let positive = |v: f64, what: &str| {
            if v.is_finite() && v > 0.0 {
                Ok(v)
            } else {
                Err(format!("{what} must be a positive number"))
            }
        };
        let alpha = positive(args.alpha, "--alpha")?;
        let gamma = positive(args.gamma, "--gamma")?;
        let r_end = positive(args.r_end, "--r-end")?;
        let c_scale = positive(args.c_scale, "--c-scale")?;
        let big_a = match args.big_a {
            Some(a) if a.is_finite() && a >= 0.0 => a,
            Some(_) => return Err("--big-a must be zero or a positive number".into()),
            None => (args.iterations as f64 * BIG_A_SHARE).round(),
        };
        let limit = match (&args.tc, args.nodes) {
            (Some(tc), _) => TimeControl::parse_clock(tc)?,
            (None, Some(0)) => return Err("--nodes must be at least 1".into()),
            (None, Some(n)) => TimeControl::Nodes(n),
            (None, None) => TimeControl::Nodes(DEFAULT_NODES),
        };
        let engine = engine_config(&args.engine, &limit)?;
        let openings_path = match &args.openings {
            Some(p) => p.clone(),
            None if Path::new(SHIPPED_OPENINGS).exists() => PathBuf::from(SHIPPED_OPENINGS),
            None => {
                return Err(format!(
                    "no --openings given and {SHIPPED_OPENINGS} is not here (run from the \
                     repository, or give --openings FILE)"
                ))
            }
        };
        let openings = load_openings(&openings_path)?;
        let opening_order = opening_order(openings.len(), true, args.seed);
        let schedule = Schedule {
            iterations: args.iterations,
            alpha,
            gamma,
            big_a,
            r_end,
            c_scale,
        };
        let mut spsa = Spsa {
            schedule,
            parameters: tunables.iter().copied().map(Parameter::new).collect(),
        };
        let names: Vec<&str> = tunables.iter().map(|t| t.name).collect();
        let fingerprint = format!(
            "engine {} {} [{}] {}; openings {} ({} positions); iterations {} alpha {} gamma {} A {} r_end {} c_scale {} seed {}; constants {}",
            engine.command,
            engine.args.join(" "),
            engine.time_control,
            engine
                .options
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(","),
            openings_path.display(),
            openings.len(),
            args.iterations,
            alpha,
            gamma,
            big_a,
            r_end,
            c_scale,
            args.seed,
            tunables
                .iter()
                .map(|t| format!("{}={}[{},{}]/{}", t.name, t.default, t.min, t.max, t.step))
                .collect::<Vec<_>>()
                .join(" ")
        );
        check_engine(&engine, &spsa)?;
        let trajectory = Trajectory::open(&args.out, &fingerprint, &names)?;
        if let Some(last) = trajectory.rows.last() {
            for (p, v) in spsa.parameters.iter_mut().zip(&last.values) {
                p.value = *v;
            }
        }
        let settings = GameSettings {
            time_margin: Duration::from_millis(args.timemargin),
            hang_timeout: HANG_TIMEOUT,
            rules: RuleOptions::default(),
            resign: None,
            draw: None,
            max_moves: 0,
        };
        // With several pairs at once, rows arrive out of order; a pair cut off by an interruption
        // is not played again (its iteration is skipped).
        let next = trajectory
            .rows
            .iter()
            .map(|r| r.iteration)
            .max()
            .unwrap_or(0)
            + 1;
        Ok(Run {
            engine,
            openings,
            opening_order,
            settings,
            seed: args.seed,
            names,
            state: Mutex::new(Shared {
                spsa,
                trajectory,
                next,
                error: None,
                started: Instant::now(),
                played_now: 0,
            }),
            plot_path: args.out.with_extension("svg"),
            concurrency: args.concurrency,
        })
    }

    fn play(self, args: &TuneArgs) -> Result<(), String> {
        // A second Ctrl-C exits at once: a game pair cannot be cut short, and the trajectory
        // keeps every finished iteration (rows are written whole), so the run resumes.
        interrupt::install("the game pairs in progress", SecondPress::Exit)?;
        let (done, total) = {
            let mut s = lock(&self.state);
            s.started = Instant::now();
            (s.next - 1, s.spsa.schedule.iterations)
        };
        if done >= total {
            eprintln!(
                "{} already holds all {total} iterations",
                args.out.display()
            );
        }
        let bar = progress_bar(
            total,
            args.quiet,
            "{elapsed_precise} [{bar:24}] {pos}/{len} pairs, {msg}",
        );
        bar.set_position(done);
        bar.set_message(lock(&self.state).describe());
        std::thread::scope(|scope| {
            for _ in 0..self.concurrency {
                scope.spawn(|| self.worker(&bar));
            }
        });
        bar.finish();
        let state = self.state.into_inner().unwrap_or_else(|p| p.into_inner());
        let svg = plot::svg(&state.spsa.parameters, &state.trajectory.rows, PLOT_TITLE)?;
        write_atomically(&self.plot_path, svg.as_bytes())?;
        if let Some(e) = state.error {
            return Err(e);
        }
        super::stdout::print(&summary(&state.spsa, state.trajectory.rows.len() as u64))?;
        eprintln!(
            "trajectory: {}, plot: {}",
            args.out.display(),
            self.plot_path.display()
        );
        Ok(())
    }

    /// One worker: two engine processes, game pairs until the run is complete or stopped.
    fn worker(&self, bar: &indicatif::ProgressBar) {
        let state = &self.state;
        let mut engines: Option<EnginePair> = None;
        loop {
            if interrupt::requested() != Stop::No {
                break;
            }
            let perturbation = {
                let mut s = lock(state);
                if s.error.is_some() || s.next > s.spsa.schedule.iterations {
                    break;
                }
                let k = s.next;
                s.next += 1;
                s.spsa.perturb(k, self.seed)
            };
            let result = match self.play_pair(&mut engines, &perturbation) {
                Ok(r) => r,
                Err(e) => {
                    lock(state).error.get_or_insert(e);
                    break;
                }
            };
            let mut s = lock(state);
            s.spsa.update(&perturbation, result);
            let row = Row {
                iteration: perturbation.iteration,
                result,
                values: s.spsa.parameters.iter().map(|p| p.value).collect(),
            };
            if let Err(e) = s.trajectory.push(row) {
                s.error.get_or_insert(e);
                break;
            }
            s.played_now += 1;
            if perturbation.iteration % PLOT_EVERY == 0 {
                let drawn = plot::svg(&s.spsa.parameters, &s.trajectory.rows, PLOT_TITLE)
                    .and_then(|svg| write_atomically(&self.plot_path, svg.as_bytes()));
                if let Err(e) = drawn {
                    s.error.get_or_insert(e);
                    break;
                }
            }
            bar.inc(1);
            bar.set_message(s.describe());
        }
        if let Some((a, b)) = engines {
            a.quit();
            b.quit();
        }
    }

    /// Plays the game pair of `perturbation` (one opening, each engine once with Red) and returns
    /// the `+` engine's wins minus losses. Engines are started on first use and restarted after
    /// a crash or a hang.
    fn play_pair(
        &self,
        engines: &mut Option<EnginePair>,
        perturbation: &Perturbation,
    ) -> Result<f64, String> {
        let opening = &self.openings
            [self.opening_order[(perturbation.iteration as usize - 1) % self.openings.len()]];
        let mut total = 0.0;
        for plus_is_red in [true, false] {
            let (mut plus, mut minus) = match engines.take() {
                Some(pair) => pair,
                None => (self.start("plus")?, self.start("minus")?),
            };
            self.configure(plus.as_mut(), &perturbation.plus)?;
            self.configure(minus.as_mut(), &perturbation.minus)?;
            plus.new_game().map_err(|e| format!("engine: {e}"))?;
            minus.new_game().map_err(|e| format!("engine: {e}"))?;
            let tc = &self.engine.time_control;
            let record = if plus_is_red {
                play_game(
                    opening,
                    seat(plus.as_mut(), tc),
                    seat(minus.as_mut(), tc),
                    &self.settings,
                )
            } else {
                play_game(
                    opening,
                    seat(minus.as_mut(), tc),
                    seat(plus.as_mut(), tc),
                    &self.settings,
                )
            };
            let plus_points = match (record.result, plus_is_red) {
                (GameResult::Draw, _) => 0.0,
                (GameResult::RedWins, true) | (GameResult::BlackWins, false) => 1.0,
                _ => -1.0,
            };
            total += plus_points;
            let crashed = record.restart_red || record.restart_black;
            if crashed {
                plus.quit();
                minus.quit();
            } else {
                *engines = Some((plus, minus));
            }
        }
        Ok(total)
    }

    fn start(&self, name: &str) -> Result<Box<dyn MatchEngine>, String> {
        let config = EngineConfig {
            name: name.to_string(),
            ..self.engine.clone()
        };
        start_engine(&config, None)
            .map_err(|e| format!("cannot start {}: {e}", self.engine.command))
    }

    /// Sets the tuned constants to `values` in `engine`; an engine that refuses one is an error
    /// (it was not built with the `tune` feature).
    fn configure(&self, engine: &mut dyn MatchEngine, values: &[i32]) -> Result<(), String> {
        let options: Vec<(String, String)> = self
            .names
            .iter()
            .zip(values)
            .map(|(name, v)| (name.to_string(), v.to_string()))
            .collect();
        let remarks = engine
            .set_options(&options)
            .map_err(|e| format!("engine: {e}"))?;
        match refusal(&remarks, &self.names) {
            None => Ok(()),
            Some(line) => Err(format!(
                "the engine refused a tuned constant ({line}); build it with `cargo build \
                 --release --features tune`"
            )),
        }
    }
}

/// An engine's seat in a game with a fresh clock of `tc`.
fn seat<'a>(engine: &'a mut dyn MatchEngine, tc: &TimeControl) -> Seat<'a> {
    Seat {
        engine,
        clock: Clock::new(tc.clone()),
    }
}

/// The engine configuration from `--engine` (default: this program) with the run's limit.
fn engine_config(tokens: &[String], limit: &TimeControl) -> Result<EngineConfig, String> {
    let mut tokens = tokens.to_vec();
    if !tokens.iter().any(|t| t.starts_with("cmd=")) {
        let me = std::env::current_exe()
            .map_err(|e| format!("cannot find this program to use as the engine: {e}"))?;
        tokens.push(format!("cmd={}", me.display()));
    }
    if !tokens.iter().any(|t| t.starts_with("name=")) {
        tokens.push("name=engine".into());
    }
    let config = EngineConfig::from_tokens(&tokens, &[], Some(limit))
        .map_err(|e| format!("--engine: {e}"))?;
    Ok(config)
}

/// The first of an engine's `remarks` that names one of `names`: engines say so when they refuse
/// or do not know an option.
fn refusal<'a>(remarks: &'a [String], names: &[&str]) -> Option<&'a String> {
    remarks.iter().find(|line| {
        let line = line.to_ascii_uppercase();
        names.iter().any(|n| line.contains(&n.to_ascii_uppercase()))
    })
}

/// Starts the engine once and sets every tuned constant to its default: a clear error before
/// any game when the engine cannot be started or does not know the constants.
fn check_engine(engine: &EngineConfig, spsa: &Spsa) -> Result<(), String> {
    let mut probe =
        start_engine(engine, None).map_err(|e| format!("cannot start {}: {e}", engine.command))?;
    let own: Vec<&str> = engine.options.iter().map(|(k, _)| k.as_str()).collect();
    if let Some(line) = refusal(probe.remarks(), &own) {
        let line = line.clone();
        probe.quit();
        return Err(format!(
            "the engine refused one of its --engine options: {line}"
        ));
    }
    let names: Vec<&str> = spsa.parameters.iter().map(|p| p.tunable.name).collect();
    let options: Vec<(String, String)> = spsa
        .parameters
        .iter()
        .map(|p| (p.tunable.name.to_string(), p.tunable.default.to_string()))
        .collect();
    let remarks = probe
        .set_options(&options)
        .map_err(|e| format!("engine: {e}"));
    probe.quit();
    match refusal(&remarks?, &names) {
        None => Ok(()),
        Some(line) => Err(format!(
            "{} does not know the tunable constants ({line}); build it with `cargo build \
             --release --features tune` and give it as --engine cmd=PATH",
            engine.command
        )),
    }
}

/// What the workers share.
struct Shared {
    spsa: Spsa,
    trajectory: Trajectory,
    /// The next iteration to hand out.
    next: u64,
    /// The first error; the workers stop on it.
    error: Option<String>,
    started: Instant,
    /// Iterations finished in this session (for the rate).
    played_now: u64,
}

impl Shared {
    /// The progress line's message: rate and the first few estimates.
    fn describe(&self) -> String {
        let secs = self.started.elapsed().as_secs_f64().max(1e-3);
        let shown: Vec<String> = self
            .spsa
            .parameters
            .iter()
            .take(4)
            .map(|p| format!("{} {:.1}", p.tunable.name, p.value))
            .collect();
        let more = self.spsa.parameters.len().saturating_sub(shown.len());
        format!(
            "{:.1} pairs/min, {}{}",
            self.played_now as f64 * 60.0 / secs,
            shown.join(", "),
            if more > 0 {
                format!(" (+{more} more)")
            } else {
                String::new()
            }
        )
    }
}

fn lock(state: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
    state.lock().unwrap_or_else(|p| p.into_inner())
}

/// The result table: every constant's default and estimate, and the lines to put into
/// `src/search/params.rs`.
fn summary(spsa: &Spsa, iterations: u64) -> String {
    let mut out = format!(
        "after {iterations} of {} iterations:\n{:<34} {:>8} {:>10} {:>8}\n",
        spsa.schedule.iterations, "constant", "default", "estimate", "rounded"
    );
    for (p, r) in spsa.parameters.iter().zip(spsa.rounded()) {
        out.push_str(&format!(
            "{:<34} {:>8} {:>10.2} {:>8}\n",
            p.tunable.name, p.tunable.default, p.value, r
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_are_selected_by_name_and_errors_name_the_culprit() {
        assert_eq!(selected("all").expect("all").len(), TUNABLES.len());
        let two = selected("RFP_MARGIN, futility base").expect("two");
        assert_eq!(
            two.iter().map(|t| t.name).collect::<Vec<_>>(),
            ["RFP_MARGIN", "FUTILITY_BASE"]
        );
        let err = selected("RFP_MARGIN,NOPE").expect_err("refused");
        assert!(err.contains("'NOPE'"), "{err}");
        let err = selected("RFP_MARGIN,rfp margin").expect_err("refused");
        assert!(err.contains("twice"), "{err}");
        assert!(selected(" , ").is_err());
    }

    #[test]
    fn the_list_names_every_constant() {
        let l = list();
        for t in TUNABLES {
            assert!(l.contains(t.name), "{} missing", t.name);
        }
    }
}
