//! The plan of a run, built from the parsed command line once `validate` has passed it.

use super::super::engines::EngineConfig;
use super::super::games::{load_openings, opening_order, GameSettings, Opening, TimeControl};
use super::super::scheduling::{EngineSettings, Format, Plan, RunSettings};
use super::args::MatchOptions;
use super::key_values::{parse_draw, parse_resign, parse_sprt};
use super::validate::validate;
use engine_core::RuleOptions;
use std::time::Duration;

/// Parses the engines and the options' words, validates them together, and builds the plan.
pub fn plan(options: &MatchOptions, engine_tokens: &[Vec<String>]) -> Result<Plan, String> {
    let default_tc = default_time_control(options)?;
    let engines = engine_tokens
        .iter()
        .enumerate()
        .map(|(i, tokens)| {
            EngineConfig::from_tokens(tokens, &options.each, default_tc.as_ref())
                .map_err(|e| format!("engine {}: {e}", i + 1))
        })
        .collect::<Result<Vec<_>, _>>()?;
    validate(options, &engines)?;
    let openings = match &options.openings {
        Some(path) => load_openings(path)?,
        None => vec![Opening::startpos()],
    };
    let opening_order = opening_order(openings.len(), options.random_openings, options.seed);
    let sprt = options.sprt.as_deref().map(parse_sprt).transpose()?;
    let resign = options.resign.as_deref().map(parse_resign).transpose()?;
    let draw = options.draw.as_deref().map(parse_draw).transpose()?;
    let concurrency = options.concurrency.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get().saturating_sub(1).max(1))
            .unwrap_or(1)
    });
    let settings = GameSettings {
        time_margin: Duration::from_millis(options.timemargin),
        hang_timeout: Duration::from_secs_f64(options.hang_timeout),
        rules: RuleOptions {
            repetition_threshold: options.repetition,
            no_capture_moves: options.nocapture,
            ..RuleOptions::for_rule_set(options.rule_set)
        },
        resign,
        draw,
        max_moves: options.maxmoves,
    };
    let run_settings = run_settings(options, &engines, openings.len());
    Ok(Plan {
        engines,
        openings,
        opening_order,
        settings,
        format: options.format,
        rounds: options.rounds,
        games_per_encounter: if options.format == Format::Swiss {
            1
        } else {
            options.games
        },
        concurrency,
        sprt,
        pgn_out: options.pgnout.clone(),
        recovery: options.recover.clone(),
        event: options.event.clone(),
        run_settings,
        debug_log: options.debug_log.clone(),
        vary_nodes: options.vary_nodes,
        pairs: options.pairs,
        slice_json: options.slice_json.clone(),
    })
}

/// The time control given for every engine (`--tc`, `--st`, `--nodes` or `--depth`; `validate`
/// refuses more than one).
fn default_time_control(options: &MatchOptions) -> Result<Option<TimeControl>, String> {
    if let Some(tc) = &options.tc {
        return TimeControl::parse_clock(tc).map(Some);
    }
    Ok(options
        .st
        .map(|st| TimeControl::MoveTime(Duration::from_secs_f64(st)))
        .or(options.nodes.map(TimeControl::Nodes))
        .or(options.depth.map(TimeControl::Depth)))
}

/// What identifies the run, from the options as given and the engines.
fn run_settings(
    options: &MatchOptions,
    engines: &[EngineConfig],
    opening_count: usize,
) -> RunSettings {
    RunSettings {
        engines: engines.iter().map(EngineSettings::of).collect(),
        format: options.format,
        rounds: options.rounds,
        games: options.games,
        openings: options.openings.clone(),
        opening_count,
        random_openings: options.random_openings,
        seed: options.seed,
        max_moves: options.maxmoves,
        repetition: options.repetition,
        no_capture: options.nocapture,
        rule_set: options.rule_set,
        vary_nodes: options.vary_nodes,
    }
}

#[cfg(test)]
mod tests {
    use super::super::args::MatchArgs;
    use super::*;
    use clap::{Args, FromArgMatches};
    use engine_core::RuleSet;

    /// The plan `cotuong match` would run with these arguments (no engine is started).
    fn plan_of(args: &[&str]) -> Result<Plan, String> {
        let cmd = MatchArgs::augment_args(clap::Command::new("match"));
        let matches = cmd
            .try_get_matches_from(std::iter::once("match").chain(args.iter().copied()))
            .map_err(|e| e.to_string())?;
        let parsed = MatchArgs::from_arg_matches(&matches).map_err(|e| e.to_string())?;
        plan(&parsed.options, &parsed.engines)
    }

    const TWO_ENGINES: [&str; 8] = [
        "--engine", "cmd=x", "name=a", "--engine", "cmd=y", "name=b", "--depth", "2",
    ];

    #[test]
    fn rule_set_reaches_the_referee() {
        let default = plan_of(&TWO_ENGINES).expect("valid");
        assert_eq!(default.settings.rules, RuleOptions::default());
        let mut args = TWO_ENGINES.to_vec();
        args.extend(["--rule-set", "asian", "--nocapture", "50"]);
        let asian = plan_of(&args).expect("valid");
        assert_eq!(
            asian.settings.rules,
            RuleOptions {
                no_capture_moves: 50,
                ..RuleOptions::for_rule_set(RuleSet::Asian)
            }
        );
        let mut args = TWO_ENGINES.to_vec();
        args.extend(["--rule-set", "chinese"]);
        let err = plan_of(&args).err().expect("refused");
        assert!(err.contains("unknown rule set 'chinese'"), "{err}");
    }

    fn with_two_engines(extra: &[&'static str]) -> Vec<&'static str> {
        let mut args = TWO_ENGINES.to_vec();
        args.extend(extra);
        args
    }

    #[test]
    fn each_option_keeps_to_its_range() {
        for (extra, option) in [
            (&["--rounds", "0"][..], "--rounds"),
            (&["--games", "3"], "--games"),
            (&["--games", "0"], "--games"),
            (&["--concurrency", "0"], "--concurrency"),
            (&["--repetition", "1"], "--repetition"),
            (&["--nocapture", "0"], "--nocapture"),
            (&["--hang-timeout", "0"], "--hang-timeout"),
            (&["--pairs", "2..1"], "--pairs"),
        ] {
            let err = plan_of(&with_two_engines(extra)).err().expect("refused");
            assert!(err.contains(option), "{extra:?}: {err}");
        }
        // The bound the user broke, in words (not the type's range).
        for (extra, bound) in [
            (&["--rounds", "0"][..], "must be at least 1"),
            (&["--games", "3"], "must be at most 2"),
            (&["--repetition", "1"], "must be at least 2"),
        ] {
            let err = plan_of(&with_two_engines(extra)).err().expect("refused");
            assert!(err.contains(bound), "{extra:?}: {err}");
        }
        for (flag, value) in [("--nodes", "0"), ("--depth", "0"), ("--st", "0")] {
            let args = [
                "--engine", "cmd=x", "name=a", "--engine", "cmd=y", "name=b", flag, value,
            ];
            let err = plan_of(&args).err().expect("refused");
            assert!(err.contains(flag), "{flag} {value}: {err}");
        }
        let lowest = with_two_engines(&[
            "--rounds",
            "1",
            "--games",
            "1",
            "--concurrency",
            "1",
            "--repetition",
            "2",
            "--nocapture",
            "1",
        ]);
        let plan = plan_of(&lowest).expect("the lowest values are valid");
        assert_eq!((plan.rounds, plan.games_per_encounter), (1, 1));
    }

    #[test]
    fn options_are_checked_together() {
        for (extra, expected) in [
            (&["--nodes", "5"][..], "give only one of"),
            (&["--format", "swiss"], "three engines"),
            (
                &["--pairs", "0..1", "--games", "1"],
                "--pairs needs two engines",
            ),
            (&["--pairs", "0..2"], "the schedule has 1 pairs"),
            (&["--vary-nodes"], "--vary-nodes needs"),
            (
                &["--engine", "cmd=z", "name=a"],
                "two engines are named 'a'",
            ),
            (
                &["--engine", "cmd=z", "name=c", "--sprt", "elo0=0", "elo1=5"],
                "SPRT needs exactly two",
            ),
        ] {
            let err = plan_of(&with_two_engines(extra)).err().expect("refused");
            assert!(err.contains(expected), "{extra:?}: {err}");
        }
        let plan =
            plan_of(&with_two_engines(&["--rounds", "3", "--pairs", "1..3"])).expect("valid");
        assert_eq!(plan.pairs, Some((1, 3)));
    }
}
