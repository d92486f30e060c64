//! `cotuong match`: plays games between engines speaking UCI, UCCI or XBoard (CECP v2), adjudicated by the
//! engine-core referee, with clocks, openings, PGN, Elo/SPRT statistics, round-robin and Swiss
//! tournaments and a recovery file. See `docs/match-runner.md` for usage.

mod engines;
mod games;
mod scheduling;
mod statistics;

pub(crate) use engines::{start_engine, EngineConfig, MatchEngine};
pub(crate) use games::{
    load_openings, opening_order, play_game, today, Clock, GameSettings, Opening, Seat, TimeControl,
};
pub use scheduling::Format;

use engine_core::{RuleOptions, RuleSet};
use games::{DrawRule, ResignRule};
use statistics::Sprt;
use std::path::PathBuf;
use std::time::Duration;

/// Command-line arguments of `cotuong match`: the `--engine` groups (one per engine, kept apart,
/// which clap's derive cannot express) plus the derived options.
#[derive(Debug)]
pub struct MatchArgs {
    engines: Vec<Vec<String>>,
    options: Box<MatchOptions>,
}

const ENGINE_HELP: &str = "An engine, as key=value settings: cmd=PROGRAM (words after the first \
are arguments), arg=ARG, dir=DIR, name=NAME, proto=uci|ucci|xboard, ranks=0|1 (move ranks 0-9 \
or 1-10), letters=nb|he (FEN letters), option.NAME=VALUE, and a time control \
tc=/st=/nodes=/depth=. Give --engine once per engine.";

impl clap::Args for MatchArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        MatchOptions::augment_args(cmd).arg(
            clap::Arg::new("engine")
                .long("engine")
                .num_args(1..)
                .action(clap::ArgAction::Append)
                .required_unless_present("merge")
                .conflicts_with("merge")
                .value_name("KEY=VALUE")
                .help(ENGINE_HELP),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for MatchArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let options = Box::new(MatchOptions::from_arg_matches(matches)?);
        let engines = matches
            .get_occurrences::<String>("engine")
            .map(|occurrences| occurrences.map(|o| o.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(MatchArgs { engines, options })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

/// The options of `cotuong match` other than `--engine`.
#[derive(clap::Args, Debug)]
struct MatchOptions {
    /// Settings applied to every engine unless it sets them itself (same keys as --engine).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    each: Vec<String>,
    /// Clock for every engine: [moves/]seconds[+increment], e.g. 10+0.1 or 40/60.
    #[arg(long)]
    tc: Option<String>,
    /// Fixed seconds per move for every engine.
    #[arg(long)]
    st: Option<f64>,
    /// Fixed nodes per move for every engine.
    #[arg(long)]
    nodes: Option<u64>,
    /// Give node limits a different value in each pass over the openings (within 25% of the
    /// one given; the first pass keeps it), so that deterministic engines do not replay their
    /// games when --rounds outruns the opening file.
    #[arg(long)]
    vary_nodes: bool,
    /// Fixed depth per move for every engine.
    #[arg(long)]
    depth: Option<u32>,
    /// Milliseconds an engine may exceed its time before it forfeits.
    #[arg(long, default_value_t = 100)]
    timemargin: u64,
    /// Seconds an engine on a node or depth limit may think before it counts as hung.
    #[arg(long, default_value_t = 60.0)]
    hang_timeout: f64,
    /// Pairing system.
    #[arg(long, value_enum, default_value_t = Format::RoundRobin)]
    format: Format,
    /// Round-robin cycles, or Swiss rounds. A two-engine match of 2*R games is --rounds R.
    #[arg(long, default_value_t = 1)]
    rounds: usize,
    /// Games per round-robin encounter: 2 plays each opening with colours reversed.
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Opening file: one FEN or EPD per line (EPD operations such as id are read and not
    /// used), optionally followed by "moves ..." (ICCS, ranks 0-9). Default: the initial
    /// position only.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Use the openings in a random order fixed by --seed.
    #[arg(long)]
    random_openings: bool,
    /// Seed for the opening order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games at once (default: number of cores minus one, at least one).
    #[arg(long)]
    concurrency: Option<usize>,
    /// SPRT: elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05]; stops early on a decision.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
    /// Resign adjudication: movecount=N score=CP (both engines must agree).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    resign: Option<Vec<String>>,
    /// Draw adjudication: movenumber=N movecount=N score=CP.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    draw: Option<Vec<String>>,
    /// Draw a game after this many full moves by the engines (0: no limit, the default: the
    /// referee's repetition and no-capture rules already end every game).
    #[arg(long, default_value_t = 0)]
    maxmoves: u32,
    /// Rule book of the referee: the Vietnamese Law, or the Asian (AXF/WXF) rules.
    #[arg(long, default_value = "vietnamese", value_name = "vietnamese|asian")]
    rule_set: RuleSet,
    /// Occurrence of a position at which the referee judges a repetition.
    #[arg(long, default_value_t = 3)]
    repetition: u32,
    /// Full moves without capture that draw (the Law: 60, or 50).
    #[arg(long, default_value_t = 60)]
    nocapture: u32,
    /// Write every game to this PGN file (`-`: standard output, before the report).
    #[arg(long)]
    pgnout: Option<PathBuf>,
    /// Recovery file: created if missing, resumed from if present.
    #[arg(long)]
    recover: Option<PathBuf>,
    /// PGN Event tag.
    #[arg(long, default_value = "cotuong match")]
    event: String,
    /// Log every line sent to and received from the engines to this file (`-`: standard
    /// output).
    #[arg(long)]
    debug_log: Option<PathBuf>,
    /// Play only game pairs FROM to TO-1 (counted from 0) of the schedule: a slice of a
    /// two-engine round robin with --games 2. Pairs are never split. A slice plays all its
    /// pairs even with --sprt: the SPRT decides on the merged slices (--merge).
    #[arg(long, value_name = "FROM..TO")]
    pairs: Option<String>,
    /// Write the result of the run (or slice) as JSON (`-`: standard output): pairs,
    /// pentanomial counts, W-D-L and terminations.
    #[arg(long, value_name = "FILE")]
    slice_json: Option<PathBuf>,
    /// Add up slice files (--slice-json of --pairs runs of one match) and print the report of
    /// one run over their pairs; plays no game and takes no --engine.
    #[arg(long, num_args = 1.., value_name = "SLICE.json")]
    merge: Vec<PathBuf>,
    /// Check the arguments (settings, engines' keys, opening file) and exit without starting
    /// an engine or playing.
    #[arg(long)]
    check: bool,
}

/// Parses `--pairs FROM..TO`.
fn pair_range(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--pairs '{text}' is not FROM..TO (whole numbers, FROM < TO)");
    let (from, to) = text.split_once("..").ok_or_else(bad)?;
    let from: usize = from.trim().parse().map_err(|_| bad())?;
    let to: usize = to.trim().parse().map_err(|_| bad())?;
    if from >= to {
        return Err(bad());
    }
    Ok((from, to))
}

/// Parses `key=value` words into a lookup with the allowed keys only.
fn key_values(
    what: &str,
    words: &[String],
    allowed: &[&str],
) -> Result<Vec<(String, f64)>, String> {
    words
        .iter()
        .map(|w| {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| format!("--{what}: '{w}' is not key=value"))?;
            if !allowed.contains(&k) {
                return Err(format!(
                    "--{what}: unknown key '{k}' (keys: {})",
                    allowed.join(", ")
                ));
            }
            let v: f64 = v
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| format!("--{what}: {k}='{v}' is not a number"))?;
            Ok((k.to_string(), v))
        })
        .collect()
}

fn get(kv: &[(String, f64)], key: &str) -> Option<f64> {
    kv.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v)
}

fn count(what: &str, kv: &[(String, f64)], key: &str) -> Result<u32, String> {
    let v = get(kv, key).ok_or_else(|| format!("--{what} needs {key}="))?;
    if v < 1.0 || v.fract() != 0.0 || v > 10_000.0 {
        return Err(format!("--{what}: {key} must be a whole number from 1"));
    }
    Ok(v as u32)
}

impl MatchOptions {
    fn default_time_control(&self) -> Result<Option<TimeControl>, String> {
        let given = [
            self.tc.is_some(),
            self.st.is_some(),
            self.nodes.is_some(),
            self.depth.is_some(),
        ];
        if given.iter().filter(|g| **g).count() > 1 {
            return Err("give only one of --tc, --st, --nodes, --depth".into());
        }
        if let Some(tc) = &self.tc {
            return TimeControl::parse_clock(tc).map(Some);
        }
        if let Some(st) = self.st {
            if !(st > 0.0 && st < 1e6) {
                return Err(format!("--st {st} must be a positive number of seconds"));
            }
            return Ok(Some(TimeControl::MoveTime(Duration::from_secs_f64(st))));
        }
        if let Some(n) = self.nodes {
            if n == 0 {
                return Err("--nodes must be at least 1".into());
            }
            return Ok(Some(TimeControl::Nodes(n)));
        }
        if let Some(d) = self.depth {
            if d == 0 {
                return Err("--depth must be at least 1".into());
            }
            return Ok(Some(TimeControl::Depth(d)));
        }
        Ok(None)
    }

    /// Validates everything and builds the plan.
    fn plan(&self, engine_tokens: &[Vec<String>]) -> Result<scheduling::Plan, String> {
        let default_tc = self.default_time_control()?;
        let engines = engine_tokens
            .iter()
            .enumerate()
            .map(|(i, tokens)| {
                EngineConfig::from_tokens(tokens, &self.each, default_tc.as_ref())
                    .map_err(|e| format!("engine {}: {e}", i + 1))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if engines.len() < 2 {
            return Err("give at least two --engine".into());
        }
        if self.vary_nodes
            && !engines
                .iter()
                .any(|e| matches!(e.time_control, TimeControl::Nodes(_)))
        {
            return Err(
                "--vary-nodes needs an engine with a node limit (--nodes or nodes=)".into(),
            );
        }
        if self.rounds == 0 {
            return Err("--rounds must be at least 1".into());
        }
        if self.games != 1 && self.games != 2 {
            return Err("--games must be 1 or 2".into());
        }
        if self.format == Format::Swiss && engines.len() < 3 {
            return Err("a Swiss tournament needs at least three engines".into());
        }
        if !(self.hang_timeout > 0.0 && self.hang_timeout < 1e6) {
            return Err("--hang-timeout must be a positive number of seconds".into());
        }
        if self.repetition < 2 {
            return Err("--repetition must be at least 2".into());
        }
        if self.nocapture == 0 {
            return Err("--nocapture must be at least 1".into());
        }
        let pairs = match &self.pairs {
            Some(text) => {
                if engines.len() != 2 || self.format != Format::RoundRobin || self.games != 2 {
                    return Err("--pairs needs two engines in a round robin with --games 2".into());
                }
                let (from, to) = pair_range(text)?;
                if to > self.rounds {
                    return Err(format!(
                        "--pairs {text}: the schedule has {} pairs (--rounds)",
                        self.rounds
                    ));
                }
                Some((from, to))
            }
            None => None,
        };
        let openings = match &self.openings {
            Some(path) => load_openings(path)?,
            None => vec![Opening::startpos()],
        };
        let opening_order = opening_order(openings.len(), self.random_openings, self.seed);
        let sprt = match &self.sprt {
            Some(words) => {
                let kv = key_values("sprt", words, &["elo0", "elo1", "alpha", "beta"])?;
                let elo0 = get(&kv, "elo0").ok_or("--sprt needs elo0=")?;
                let elo1 = get(&kv, "elo1").ok_or("--sprt needs elo1=")?;
                Some(Sprt::new(
                    elo0,
                    elo1,
                    get(&kv, "alpha").unwrap_or(0.05),
                    get(&kv, "beta").unwrap_or(0.05),
                )?)
            }
            None => None,
        };
        let resign = match &self.resign {
            Some(words) => {
                let kv = key_values("resign", words, &["movecount", "score"])?;
                Some(ResignRule {
                    move_count: count("resign", &kv, "movecount")?,
                    score: count("resign", &kv, "score")? as i32,
                })
            }
            None => None,
        };
        let draw = match &self.draw {
            Some(words) => {
                let kv = key_values("draw", words, &["movenumber", "movecount", "score"])?;
                Some(DrawRule {
                    move_number: count("draw", &kv, "movenumber")?,
                    move_count: count("draw", &kv, "movecount")?,
                    score: get(&kv, "score")
                        .filter(|s| *s >= 0.0 && s.fract() == 0.0)
                        .ok_or("--draw needs score= (a whole number of centipawns)")?
                        as i32,
                })
            }
            None => None,
        };
        let concurrency = match self.concurrency {
            Some(0) => return Err("--concurrency must be at least 1".into()),
            Some(c) => c,
            None => std::thread::available_parallelism()
                .map(|n| n.get().saturating_sub(1).max(1))
                .unwrap_or(1),
        };
        let settings = GameSettings {
            time_margin: Duration::from_millis(self.timemargin),
            hang_timeout: Duration::from_secs_f64(self.hang_timeout),
            rules: RuleOptions {
                repetition_threshold: self.repetition,
                no_capture_moves: self.nocapture,
                ..RuleOptions::for_rule_set(self.rule_set)
            },
            resign,
            draw,
            max_moves: self.maxmoves,
        };
        // The rule set and node variation join the fingerprint only when they are not the
        // default, so that recovery files written before the options existed still resume.
        let mut optional_settings = if self.rule_set == RuleSet::default() {
            String::new()
        } else {
            format!(" rule-set {}", self.rule_set.name())
        };
        if self.vary_nodes {
            optional_settings.push_str(" vary-nodes");
        }
        let fingerprint = format!(
            "engines [{}]; format {:?} rounds {} games {}; openings {} ({} positions, {}, seed {}); maxmoves {} repetition {} nocapture {}{}",
            engines
                .iter()
                .map(|e| format!(
                    "{} = {} {} [{}] {}",
                    e.name,
                    e.command,
                    e.args.join(" "),
                    e.time_control,
                    e.options
                        .iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join(",")
                ))
                .collect::<Vec<_>>()
                .join("; "),
            self.format,
            self.rounds,
            self.games,
            self.openings
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|| "startpos".into()),
            openings.len(),
            if self.random_openings { "random" } else { "in order" },
            self.seed,
            self.maxmoves,
            self.repetition,
            self.nocapture,
            optional_settings
        );
        Ok(scheduling::Plan {
            engines,
            openings,
            opening_order,
            settings,
            format: self.format,
            rounds: self.rounds,
            games_per_encounter: if self.format == Format::Swiss {
                1
            } else {
                self.games
            },
            concurrency,
            sprt,
            pgn_out: self.pgnout.clone(),
            recovery: self.recover.clone(),
            event: self.event.clone(),
            fingerprint,
            debug_log: self.debug_log.clone(),
            vary_nodes: self.vary_nodes,
            pairs,
            slice_json: self.slice_json.clone(),
        })
    }
}

/// Runs `cotuong match`; the error is a message for the user.
pub fn run(args: &MatchArgs) -> Result<(), String> {
    if !args.options.merge.is_empty() {
        return super::stdout::print(&scheduling::merge_slices(&args.options.merge)?);
    }
    let plan = args.options.plan(&args.engines)?;
    if args.options.check {
        return Ok(());
    }
    let report = scheduling::run_tournament(plan)?;
    super::stdout::print(&report.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Args, FromArgMatches};

    /// The plan `cotuong match` would run with these arguments (no engine is started).
    fn plan(args: &[&str]) -> Result<scheduling::Plan, String> {
        let cmd = MatchArgs::augment_args(clap::Command::new("match"));
        let matches = cmd
            .try_get_matches_from(std::iter::once("match").chain(args.iter().copied()))
            .map_err(|e| e.to_string())?;
        let parsed = MatchArgs::from_arg_matches(&matches).map_err(|e| e.to_string())?;
        parsed.options.plan(&parsed.engines)
    }

    const TWO_ENGINES: [&str; 8] = [
        "--engine", "cmd=x", "name=a", "--engine", "cmd=y", "name=b", "--depth", "2",
    ];

    #[test]
    fn rule_set_reaches_the_referee() {
        let default = plan(&TWO_ENGINES).expect("valid");
        assert_eq!(default.settings.rules, RuleOptions::default());
        let mut args = TWO_ENGINES.to_vec();
        args.extend(["--rule-set", "asian", "--nocapture", "50"]);
        let asian = plan(&args).expect("valid");
        assert_eq!(
            asian.settings.rules,
            RuleOptions {
                no_capture_moves: 50,
                ..RuleOptions::for_rule_set(RuleSet::Asian)
            }
        );
        let mut args = TWO_ENGINES.to_vec();
        args.extend(["--rule-set", "chinese"]);
        let err = plan(&args).err().expect("refused");
        assert!(err.contains("unknown rule set 'chinese'"), "{err}");
    }
}
