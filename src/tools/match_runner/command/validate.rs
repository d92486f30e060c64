//! The checks that involve several options together, or the options and the engines; each
//! option's own limits are clap's (`args.rs`).

use super::super::engines::EngineConfig;
use super::super::games::TimeControl;
use super::super::scheduling::Format;
use super::args::MatchOptions;
use std::collections::HashSet;

/// Refuses the combinations a run cannot make sense of, naming the options to change.
pub fn validate(options: &MatchOptions, engines: &[EngineConfig]) -> Result<(), String> {
    let default_time_controls = [
        options.tc.is_some(),
        options.st.is_some(),
        options.nodes.is_some(),
        options.depth.is_some(),
    ];
    if default_time_controls.iter().filter(|given| **given).count() > 1 {
        return Err("give only one of --tc, --st, --nodes, --depth".into());
    }
    if engines.len() < 2 {
        return Err("give at least two --engine".into());
    }
    let mut names = HashSet::new();
    if let Some(twice) = engines.iter().find(|e| !names.insert(e.name.as_str())) {
        return Err(format!(
            "two engines are named '{}': give each a distinct name=",
            twice.name
        ));
    }
    if options.sprt.is_some() && engines.len() != 2 {
        return Err("SPRT needs exactly two engines".into());
    }
    if options.vary_nodes
        && !engines
            .iter()
            .any(|e| matches!(e.time_control, TimeControl::Nodes(_)))
    {
        return Err("--vary-nodes needs an engine with a node limit (--nodes or nodes=)".into());
    }
    if options.format == Format::Swiss && engines.len() < 3 {
        return Err("a Swiss tournament needs at least three engines".into());
    }
    if let Some((from, to)) = options.pairs {
        if engines.len() != 2 || options.format != Format::RoundRobin || options.games != 2 {
            return Err("--pairs needs two engines in a round robin with --games 2".into());
        }
        if to > options.rounds {
            return Err(format!(
                "--pairs {from}..{to}: the schedule has {} pairs (--rounds)",
                options.rounds
            ));
        }
    }
    Ok(())
}
