//! `cotuong match --merge SLICE.json ...`: adds up slices of one two-engine match (written by
//! `--pairs FROM..TO --slice-json FILE`) and prints the report of one run over the same pairs.
//! The games are replayed into a tally in schedule order, through the same tally, replay
//! detection, SPRT check and report as a run, so the counts, Elo and SPRT state are the ones
//! that run prints.

use super::super::games::ReplayDetector;
use super::super::statistics::{final_report, Outcome, Sprt, Tally};
use super::format::Format;
use super::job::Job;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One game of a slice, as its JSON lists it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SliceGame {
    /// Position in the schedule.
    pub game: usize,
    /// Pair id (paired round robins).
    pub pair: Option<usize>,
    /// Index into the opening list.
    pub opening: usize,
    /// Red's engine index.
    pub red: usize,
    /// Black's engine index.
    pub black: usize,
    /// Red's score in half points.
    pub red_half_points: u8,
    /// How the game ended.
    pub termination: String,
    /// The moves (ICCS, space-separated), for the replay detection.
    #[serde(default)]
    pub moves: String,
}

/// What `--merge` reads of a slice file.
#[derive(Debug, Deserialize)]
struct Slice {
    engines: Vec<String>,
    pairs: Option<[usize; 2]>,
    rounds: usize,
    paired: bool,
    format: String,
    /// What identifies the match (`RunSettings`; slices written before it was typed have a
    /// one-line `fingerprint` instead).
    #[serde(default)]
    settings: serde_json::Value,
    #[serde(default)]
    fingerprint: String,
    sprt: Option<[f64; 4]>,
    results: Vec<SliceGame>,
}

fn load(path: &Path) -> Result<Slice, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read slice {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| {
        format!(
            "{} is not a slice file of `cotuong match --slice-json` ({e})",
            path.display()
        )
    })
}

/// Reads the slices, checks that they are one match without overlapping pairs, and returns the
/// report.
pub fn merge_slices(paths: &[PathBuf]) -> Result<String, String> {
    let mut slices = paths
        .iter()
        .map(|p| load(p).map(|s| (p, s)))
        .collect::<Result<Vec<_>, _>>()?;
    let Some((first_path, first)) = slices.first() else {
        return Err("--merge needs at least one slice file".into());
    };
    let first_path = first_path.to_path_buf();
    let (names, paired, sprt_bounds) = (first.engines.clone(), first.paired, first.sprt);
    if first.engines.len() != 2 || first.format != "RoundRobin" {
        return Err(format!(
            "{}: --merge adds up slices of a two-engine round robin",
            first_path.display()
        ));
    }
    for (path, s) in &slices[1..] {
        if s.settings != first.settings
            || s.fingerprint != first.fingerprint
            || s.engines != first.engines
            || s.sprt != first.sprt
            || s.rounds != first.rounds
            || s.paired != first.paired
        {
            return Err(format!(
                "{} and {} are slices of different matches (the engines or settings differ)",
                first_path.display(),
                path.display()
            ));
        }
    }
    let range = |s: &Slice| s.pairs.unwrap_or([0, s.rounds]);
    slices.sort_by_key(|(_, s)| range(s));
    for w in slices.windows(2) {
        let (a, b) = (range(&w[0].1), range(&w[1].1));
        if b[0] < a[1] {
            return Err(format!(
                "{} (pairs {}..{}) and {} (pairs {}..{}) overlap",
                w[0].0.display(),
                a[0],
                a[1],
                w[1].0.display(),
                b[0],
                b[1]
            ));
        }
    }
    let sprt = match sprt_bounds {
        Some([elo0, elo1, alpha, beta]) => Some(Sprt::new(elo0, elo1, alpha, beta)?),
        None => None,
    };
    let mut tally = Tally::new(paired);
    let mut replays = ReplayDetector::default();
    let mut stopped = None;
    for (_, slice) in &slices {
        let mut games = slice.results.clone();
        games.sort_by_key(|g| g.game);
        for g in games {
            let outcome = Outcome {
                white: g.red,
                black: g.black,
                white_half_points: g.red_half_points,
            };
            tally.add(outcome, g.pair, &g.termination);
            let job = Job {
                game_id: g.game,
                round: 0,
                pair_id: g.pair,
                opening: g.opening,
                red: g.red,
                black: g.black,
                pass: 0,
            };
            if !g.moves.is_empty() && replays.is_replay(&job, &g.moves) {
                tally.replayed_games += 1;
            }
            tally.sprt_stop(sprt.as_ref(), &mut stopped);
        }
    }
    Ok(final_report(
        &names,
        &tally,
        Format::RoundRobin,
        sprt.as_ref(),
        stopped,
    ))
}
