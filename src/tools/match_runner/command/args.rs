//! The command line of `cotuong match`: the `--engine` groups and the derived options. Limits on
//! single values (at least one round, one or two games, a positive number of seconds) are
//! clap's; what depends on several options together is in `validate.rs`.

use super::super::engines::{at_least, whole_number};
use super::super::scheduling::Format;
use engine_core::RuleSet;
use std::path::PathBuf;

/// Command-line arguments of `cotuong match`: the `--engine` groups (one per engine, kept apart,
/// which clap's derive cannot express) plus the derived options.
#[derive(Debug)]
pub struct MatchArgs {
    pub(super) engines: Vec<Vec<String>>,
    pub(super) options: Box<MatchOptions>,
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
pub(super) struct MatchOptions {
    /// Settings applied to every engine unless it sets them itself (same keys as --engine).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub(super) each: Vec<String>,
    /// Clock for every engine: [moves/]seconds[+increment], e.g. 10+0.1 or 40/60.
    #[arg(long)]
    pub(super) tc: Option<String>,
    /// Fixed seconds per move for every engine.
    #[arg(long, value_parser = positive_seconds)]
    pub(super) st: Option<f64>,
    /// Fixed nodes per move for every engine.
    #[arg(long, value_parser = at_least::<u64>(1))]
    pub(super) nodes: Option<u64>,
    /// Give node limits a different value in each pass over the openings (within 25% of the
    /// one given; the first pass keeps it), so that deterministic engines do not replay their
    /// games when --rounds outruns the opening file.
    #[arg(long)]
    pub(super) vary_nodes: bool,
    /// Fixed depth per move for every engine.
    #[arg(long, value_parser = at_least::<u32>(1))]
    pub(super) depth: Option<u32>,
    /// Milliseconds an engine may exceed its time before it forfeits.
    #[arg(long, default_value_t = 100)]
    pub(super) timemargin: u64,
    /// Seconds an engine on a node or depth limit may think before it counts as hung.
    #[arg(long, default_value_t = 60.0, value_parser = positive_seconds)]
    pub(super) hang_timeout: f64,
    /// Pairing system.
    #[arg(long, value_enum, default_value_t = Format::RoundRobin)]
    pub(super) format: Format,
    /// Round-robin cycles, or Swiss rounds. A two-engine match of 2*R games is --rounds R.
    #[arg(long, default_value_t = 1, value_parser = at_least::<usize>(1))]
    pub(super) rounds: usize,
    /// Games per round-robin encounter: 2 plays each opening with colours reversed.
    #[arg(long, default_value_t = 2, value_parser = whole_number::<usize>(1, 2))]
    pub(super) games: usize,
    /// Opening file: one FEN or EPD per line (EPD operations such as id are read and not
    /// used), optionally followed by "moves ..." (ICCS, ranks 0-9). Default: the initial
    /// position only.
    #[arg(long)]
    pub(super) openings: Option<PathBuf>,
    /// Use the openings in a random order fixed by --seed.
    #[arg(long)]
    pub(super) random_openings: bool,
    /// Seed for the opening order.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// Games at once (default: number of cores minus one, at least one).
    #[arg(long, value_parser = at_least::<usize>(1))]
    pub(super) concurrency: Option<usize>,
    /// SPRT: elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05]; stops early on a decision.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub(super) sprt: Option<Vec<String>>,
    /// Resign adjudication: movecount=N score=CP (both engines must agree).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub(super) resign: Option<Vec<String>>,
    /// Draw adjudication: movenumber=N movecount=N score=CP.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub(super) draw: Option<Vec<String>>,
    /// Draw a game after this many full moves by the engines (0: no limit, the default: the
    /// referee's repetition and no-capture rules already end every game).
    #[arg(long, default_value_t = 0)]
    pub(super) maxmoves: u32,
    /// Rule book of the referee: the Vietnamese Law, or the Asian (AXF/WXF) rules.
    #[arg(long, default_value = "vietnamese", value_name = "vietnamese|asian")]
    pub(super) rule_set: RuleSet,
    /// Occurrence of a position at which the referee judges a repetition.
    #[arg(long, default_value_t = 3, value_parser = at_least::<u32>(2))]
    pub(super) repetition: u32,
    /// Full moves without capture that draw (the Law: 60, or 50).
    #[arg(long, default_value_t = 60, value_parser = at_least::<u32>(1))]
    pub(super) nocapture: u32,
    /// Write every game to this PGN file (`-`: standard output, before the report).
    #[arg(long)]
    pub(super) pgnout: Option<PathBuf>,
    /// Recovery file: created if missing, resumed from if present.
    #[arg(long)]
    pub(super) recover: Option<PathBuf>,
    /// PGN Event tag.
    #[arg(long, default_value = "cotuong match")]
    pub(super) event: String,
    /// Log every line sent to and received from the engines to this file (`-`: standard
    /// output).
    #[arg(long)]
    pub(super) debug_log: Option<PathBuf>,
    /// Play only game pairs FROM to TO-1 (counted from 0) of the schedule: a slice of a
    /// two-engine round robin with --games 2. Pairs are never split. A slice plays all its
    /// pairs even with --sprt: the SPRT decides on the merged slices (--merge).
    #[arg(long, value_name = "FROM..TO", value_parser = pair_range)]
    pub(super) pairs: Option<(usize, usize)>,
    /// Write the result of the run (or slice) as JSON (`-`: standard output): pairs,
    /// pentanomial counts, W-D-L and terminations.
    #[arg(long, value_name = "FILE")]
    pub(super) slice_json: Option<PathBuf>,
    /// Add up slice files (--slice-json of --pairs runs of one match) and print the report of
    /// one run over their pairs; plays no game and takes no --engine.
    #[arg(long, num_args = 1.., value_name = "SLICE.json")]
    pub(super) merge: Vec<PathBuf>,
    /// Check the arguments (settings, engines' keys, opening file) and exit without starting
    /// an engine or playing.
    #[arg(long)]
    pub(super) check: bool,
}

/// A positive, finite number of seconds (below a million, so that it makes a `Duration`).
fn positive_seconds(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| *s > 0.0 && *s < 1e6)
        .ok_or_else(|| format!("'{text}' is not a positive number of seconds"))
}

/// Parses `--pairs FROM..TO`.
fn pair_range(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{text}' is not FROM..TO (whole numbers, FROM < TO)");
    let (from, to) = text.split_once("..").ok_or_else(bad)?;
    let from: usize = from.trim().parse().map_err(|_| bad())?;
    let to: usize = to.trim().parse().map_err(|_| bad())?;
    if from >= to {
        return Err(bad());
    }
    Ok((from, to))
}
