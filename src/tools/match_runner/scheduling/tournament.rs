//! Runs a whole event: builds the schedule (round robin from Berger tables, or Swiss round by
//! round), hands games to the worker pool, and handles each finished game on the main thread:
//! tally, PGN, recovery file, progress line, SPRT stop.

use super::super::engines::{start_engine, EngineConfig, ProtocolLog};
use super::super::games::{
    distinct_games, format_game, number_passes, today, EventInfo, GameSettings, Opening,
    ReplayDetector,
};
use super::super::statistics::{final_report, status_line, Outcome, Sprt, SprtDecision, Tally};
use super::berger;
use super::format::Format;
use super::job::Job;
use super::merge::SliceGame;
use super::pool::{Finished, Pool, PoolShared};
use super::recovery::{RecoveryFile, RecoveryState, SavedGame, SavedRound};
use super::run_settings::RunSettings;
use super::swiss::{self, Side, SwissPlayer};
use engine_core::GameResult;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// A fully validated run.
pub struct Plan {
    /// Engines; index 0 is the one the two-engine statistics are about.
    pub engines: Vec<EngineConfig>,
    /// Openings.
    pub openings: Vec<Opening>,
    /// The order openings are used in.
    pub opening_order: Vec<usize>,
    /// Per-game settings.
    pub settings: GameSettings,
    /// Pairing system.
    pub format: Format,
    /// Round-robin cycles or Swiss rounds.
    pub rounds: usize,
    /// Games per encounter in round robins: 1, or 2 (same opening, colours reversed).
    pub games_per_encounter: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// Optional SPRT (two engines only).
    pub sprt: Option<Sprt>,
    /// PGN output file.
    pub pgn_out: Option<PathBuf>,
    /// Recovery file.
    pub recovery: Option<PathBuf>,
    /// PGN `Event` tag.
    pub event: String,
    /// What identifies the run, for the recovery file and the slice JSON.
    pub run_settings: RunSettings,
    /// Protocol log file.
    pub debug_log: Option<PathBuf>,
    /// Node limits change from pass to pass of the schedule (`--vary-nodes`; the plan has
    /// an engine with a node limit whenever this is set).
    pub vary_nodes: bool,
    /// Only these game pairs of the schedule (`--pairs FROM..TO`, TO exclusive).
    pub pairs: Option<(usize, usize)>,
    /// Where the result goes as JSON (`--slice-json`).
    pub slice_json: Option<PathBuf>,
}

struct Runner {
    pairs: Option<(usize, usize)>,
    plan: Arc<PoolShared>,
    format: Format,
    rounds: usize,
    games_per_encounter: usize,
    opening_order: Vec<usize>,
    sprt: Option<Sprt>,
    event: String,
    date: String,
    tally: Tally,
    state: RecoveryState,
    recovery: Option<RecoveryFile>,
    pgn: Option<Box<dyn Write>>,
    done: HashSet<usize>,
    bar: ProgressBar,
    stopped_by_sprt: Option<SprtDecision>,
    replays: ReplayDetector,
}

/// Runs the plan to the end (or the SPRT decision) and returns the final report.
pub fn run_tournament(plan: Plan) -> Result<String, String> {
    let log = match &plan.debug_log {
        Some(path) => Some(ProtocolLog::create(path)?),
        None => None,
    };
    // Start each engine once so that a wrong command or protocol fails now, clearly.
    for e in &plan.engines {
        let p =
            start_engine(e, log.as_ref()).map_err(|err| format!("engine '{}': {err}", e.name))?;
        p.quit();
    }
    let (recovery, state) = match &plan.recovery {
        Some(path) => {
            let (f, s) = RecoveryFile::open(path, &plan.run_settings)?;
            (Some(f), s)
        }
        None => (None, RecoveryState::new(&plan.run_settings)),
    };
    let mut pgn: Option<Box<dyn Write>> = match &plan.pgn_out {
        // `-`: each game on standard output as it ends, and the report after them.
        Some(path) if path.as_os_str() == "-" => Some(Box::new(crate::tools::stdout::writer())),
        Some(path) => {
            Some(Box::new(std::fs::File::create(path).map_err(|e| {
                format!("cannot write PGN file {}: {e}", path.display())
            })?))
        }
        None => None,
    };
    let paired = plan.format == Format::RoundRobin && plan.games_per_encounter == 2;
    let mut tally = Tally::new(paired);
    let mut done = HashSet::new();
    for g in &state.games {
        done.insert(g.game_id);
        tally.add(g.outcome, g.pair_id, &g.termination);
        if let Some(f) = &mut pgn {
            f.write_all(g.pgn.as_bytes())
                .map_err(|e| format!("cannot write PGN: {e}"))?;
        }
    }
    let n = plan.engines.len();
    let total = match plan.format {
        Format::RoundRobin => n * (n - 1) / 2 * plan.rounds * plan.games_per_encounter,
        Format::Swiss => n / 2 * plan.rounds,
    };
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("[{elapsed_precise}] {pos}/{len} games  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_position(done.len() as u64);
    let shared = Arc::new(PoolShared {
        engines: plan.engines,
        openings: plan.openings,
        settings: plan.settings,
        stop: std::sync::atomic::AtomicBool::new(false),
        log,
        vary_nodes: plan.vary_nodes,
    });
    let slice_json = plan.slice_json;
    let mut runner = Runner {
        pairs: plan.pairs,
        plan: Arc::clone(&shared),
        format: plan.format,
        rounds: plan.rounds,
        games_per_encounter: plan.games_per_encounter,
        opening_order: plan.opening_order,
        sprt: plan.sprt,
        event: plan.event,
        date: today(),
        tally,
        state,
        recovery,
        pgn,
        done,
        bar,
        stopped_by_sprt: None,
        replays: ReplayDetector::default(),
    };
    runner.bar.set_message(runner.status_line());
    let pool = Pool::start(plan.concurrency, shared)?;
    let outcome = match runner.format {
        Format::RoundRobin => runner.round_robin(&pool),
        Format::Swiss => runner.swiss(&pool),
    };
    runner.bar.finish_and_clear();
    pool.finish();
    outcome?;
    if let Some(path) = &slice_json {
        write_slice_json(path, &runner)?;
    }
    let names: Vec<String> = runner.plan.engines.iter().map(|e| e.name.clone()).collect();
    Ok(final_report(
        &names,
        &runner.tally,
        runner.format,
        runner.sprt.as_ref(),
        runner.stopped_by_sprt,
    ))
}

/// Writes the result of the run as JSON (`-`: standard output): the sums, and for
/// `cotuong match --merge` every game in schedule order with what identifies the match.
fn write_slice_json(path: &std::path::Path, runner: &Runner) -> Result<(), String> {
    let t = &runner.tally;
    let jobs = match runner.format {
        Format::RoundRobin => round_robin_jobs(
            runner.plan.engines.len(),
            runner.rounds,
            runner.games_per_encounter,
            &runner.opening_order,
        ),
        Format::Swiss => Vec::new(),
    };
    let mut games: Vec<&SavedGame> = runner.state.games.iter().collect();
    games.sort_by_key(|g| g.game_id);
    let results: Vec<SliceGame> = games
        .iter()
        .map(|g| SliceGame {
            game: g.game_id,
            pair: g.pair_id,
            opening: jobs
                .get(g.game_id)
                .map(|j| j.opening)
                .unwrap_or_else(|| runner.opening_for(g.round.saturating_sub(1))),
            red: g.outcome.white,
            black: g.outcome.black,
            red_half_points: g.outcome.white_half_points,
            termination: g.termination.clone(),
            moves: g.moves.clone(),
        })
        .collect();
    let value = serde_json::json!({
        "engines": runner.plan.engines.iter().map(|e| e.name.clone()).collect::<Vec<_>>(),
        "pairs": runner.pairs.map(|(from, to)| [from, to]),
        "games": t.trinomial.games(),
        "pair_count": t.pentanomial.pairs(),
        "pentanomial": t.pentanomial.counts,
        "wdl": [t.trinomial.wins, t.trinomial.draws, t.trinomial.losses],
        "terminations": t.terminations,
        "replayed_games": t.replayed_games,
        "stopped_by_sprt": runner.stopped_by_sprt.map(|d| format!("{d:?}")),
        "rounds": runner.rounds,
        "paired": t.paired,
        "format": format!("{:?}", runner.format),
        "settings": runner.state.settings,
        "sprt": runner.sprt.map(|s| [s.elo0, s.elo1, s.alpha, s.beta]),
        "results": results,
    });
    let text = serde_json::to_string_pretty(&value)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    crate::tools::output_file::write_output(path, (text + "\n").as_bytes())
}

/// The full round-robin schedule: `rounds` cycles of the Berger table (colours reversed in even
/// cycles), each encounter played `games_per_encounter` times (with 2, the same opening with
/// colours reversed, as one pair). Game ids follow the list order, so a resumed run rebuilds the
/// same ids.
fn round_robin_jobs(
    engines: usize,
    rounds: usize,
    games_per_encounter: usize,
    opening_order: &[usize],
) -> Vec<Job> {
    let table = berger::schedule(engines);
    let opening_for = |k: usize| opening_order[k % opening_order.len()];
    let paired = games_per_encounter == 2;
    let mut jobs = Vec::new();
    let mut encounter = 0;
    for cycle in 0..rounds {
        for (r, round) in table.iter().enumerate() {
            let round_no = cycle * table.len() + r + 1;
            // A bye in a round robin is simply no game (odd number of engines).
            for &(w, b) in &round.games {
                let (w, b) = if cycle % 2 == 1 { (b, w) } else { (w, b) };
                for g in 0..games_per_encounter {
                    let (red, black) = if g == 0 { (w, b) } else { (b, w) };
                    jobs.push(Job {
                        game_id: jobs.len(),
                        round: round_no,
                        pair_id: paired.then_some(encounter),
                        opening: opening_for(if paired { encounter } else { jobs.len() }),
                        red,
                        black,
                        pass: 0,
                    });
                }
                encounter += 1;
            }
        }
    }
    number_passes(&mut jobs);
    jobs
}

impl Runner {
    fn opening_for(&self, k: usize) -> usize {
        self.opening_order[k % self.opening_order.len()]
    }

    fn round_robin(&mut self, pool: &Pool) -> Result<(), String> {
        let jobs = round_robin_jobs(
            self.plan.engines.len(),
            self.rounds,
            self.games_per_encounter,
            &self.opening_order,
        );
        let jobs = match self.pairs {
            Some((from, to)) => jobs
                .into_iter()
                .filter(|j| j.pair_id.is_some_and(|p| p >= from && p < to))
                .collect(),
            None => jobs,
        };
        let untimed = self.plan.engines.iter().all(|e| !e.time_control.is_timed());
        let distinct = distinct_games(&jobs);
        if untimed && !self.plan.vary_nodes && distinct < jobs.len() {
            let warning = format!(
                "warning: every engine searches to fixed nodes or depth, and the schedule has {} \
                 games but only {distinct} different pairings of engines, colours and opening: \
                 one-thread engines that clear their state at each new game play the rest \
                 again, move for move, and an SPRT or Elo would count them as new evidence. Use \
                 more openings, --vary-nodes, or passes of at most {} rounds at different node \
                 counts.",
                jobs.len(),
                self.rounds * distinct / jobs.len()
            );
            self.bar.suspend(|| eprintln!("{warning}"));
        }
        self.execute(pool, jobs)
    }

    fn swiss(&mut self, pool: &Pool) -> Result<(), String> {
        let n = self.plan.engines.len();
        let mut players = vec![SwissPlayer::default(); n];
        let mut next_id = 0;
        let mut scheduled: Vec<Job> = Vec::new();
        for r in 0..self.rounds {
            let round = match self.state.swiss_rounds.get(r) {
                Some(saved) => saved.clone(),
                None => {
                    let paired = swiss::pair_round(&players, r + 1 == self.rounds)?;
                    if let Some(note) = &paired.relaxed {
                        self.bar
                            .suspend(|| eprintln!("Swiss round {}: {note}", r + 1));
                    }
                    let saved = SavedRound {
                        games: paired.games,
                        bye: paired.bye,
                    };
                    self.state.swiss_rounds.push(saved.clone());
                    self.save()?;
                    saved
                }
            };
            let jobs: Vec<Job> = round
                .games
                .iter()
                .map(|&(w, b)| {
                    let job = Job {
                        game_id: next_id,
                        round: r + 1,
                        pair_id: None,
                        opening: self.opening_for(r),
                        red: w,
                        black: b,
                        pass: 0,
                    };
                    next_id += 1;
                    job
                })
                .collect();
            // Passes count over the whole event, not within a round.
            scheduled.extend(jobs);
            number_passes(&mut scheduled);
            let jobs = scheduled[scheduled.len() - round.games.len()..].to_vec();
            self.execute(pool, jobs.clone())?;
            // Apply the round to the pairing state.
            for job in &jobs {
                let Some(saved) = self.state.games.iter().find(|g| g.game_id == job.game_id) else {
                    return Err(format!(
                        "game {} of round {} has no result",
                        job.game_id + 1,
                        r + 1
                    ));
                };
                let w = saved.outcome.white_half_points as u32;
                players[job.red].half_points += w;
                players[job.black].half_points += 2 - w;
                players[job.red].colours.push(Side::White);
                players[job.black].colours.push(Side::Black);
                players[job.red].opponents.push(job.black);
                players[job.black].opponents.push(job.red);
            }
            if let Some(b) = round.bye {
                players[b].half_points += 2;
                players[b].had_bye = true;
                self.tally.byes.push(b);
            }
        }
        Ok(())
    }

    /// Plays the jobs that are not done yet and handles their results as they come.
    fn execute(&mut self, pool: &Pool, jobs: Vec<Job>) -> Result<(), String> {
        let saved_moves: HashMap<usize, &str> = self
            .state
            .games
            .iter()
            .map(|g| (g.game_id, g.moves.as_str()))
            .collect();
        let mut outstanding = 0;
        for job in jobs {
            if !self.done.contains(&job.game_id) {
                pool.submit(job);
                outstanding += 1;
            } else if let Some(moves) = saved_moves.get(&job.game_id) {
                // Recovery files written before moves were saved have none to compare.
                if !moves.is_empty() && self.replays.is_replay(&job, moves) {
                    self.tally.replayed_games += 1;
                }
            }
        }
        while outstanding > 0 {
            let finished = pool
                .results
                .recv()
                .map_err(|_| "all game workers stopped unexpectedly".to_string())?;
            outstanding -= 1;
            self.on_finished(finished)?;
        }
        Ok(())
    }

    fn on_finished(&mut self, finished: Finished) -> Result<(), String> {
        let Finished { job, record } = finished;
        let Some(record) = record else {
            return Ok(());
        };
        let white_half_points = match record.result {
            GameResult::RedWins => 2,
            GameResult::Draw => 1,
            GameResult::BlackWins => 0,
        };
        let outcome = Outcome {
            white: job.red,
            black: job.black,
            white_half_points,
        };
        let info = EventInfo {
            event: self.event.clone(),
            round: format!("{}.{}", job.round, job.game_id + 1),
            date: self.date.clone(),
            time_controls: (
                self.plan.time_control(job.red, &job).to_string(),
                self.plan.time_control(job.black, &job).to_string(),
            ),
        };
        let text = format_game(&record, &info);
        if let Some(f) = &mut self.pgn {
            f.write_all(text.as_bytes())
                .and_then(|_| f.flush())
                .map_err(|e| format!("cannot write PGN: {e}"))?;
        }
        let termination = record.termination.id();
        self.tally.add(outcome, job.pair_id, &termination);
        self.done.insert(job.game_id);
        let moves: Vec<String> = record.moves.iter().map(|m| m.mv.to_string()).collect();
        let moves = moves.join(" ");
        if self.replays.is_replay(&job, &moves) {
            self.tally.replayed_games += 1;
            if self.tally.replayed_games == 1 {
                let warning = format!(
                    "warning: game {} played the moves of an earlier game with the same engines, \
                     colours and opening: the engines are deterministic at these limits, and \
                     every such game counts the same result again (the final report counts \
                     them; --vary-nodes gives each pass over the openings its own node limit)",
                    job.game_id + 1
                );
                self.bar.suspend(|| eprintln!("{warning}"));
            }
        }
        self.state.games.push(SavedGame {
            game_id: job.game_id,
            round: job.round,
            pair_id: job.pair_id,
            outcome,
            termination,
            pgn: text,
            moves,
        });
        self.save()?;
        let line = format!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            job.game_id + 1,
            record.red,
            record.black,
            record.result.pgn(),
            record.reason
        );
        self.bar.suspend(|| eprintln!("{line}"));
        self.bar.inc(1);
        self.bar.set_message(self.status_line());
        // A slice (`--pairs`) plays all its pairs: the SPRT decides on the merged slices.
        if self.pairs.is_none()
            && self
                .tally
                .sprt_stop(self.sprt.as_ref(), &mut self.stopped_by_sprt)
        {
            self.plan.stop.store(true, Ordering::SeqCst);
        }
        Ok(())
    }

    fn save(&self) -> Result<(), String> {
        match &self.recovery {
            Some(f) => f.save(&self.state),
            None => Ok(()),
        }
    }

    fn status_line(&self) -> String {
        status_line(&self.plan.engines, &self.tally, self.sprt.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_longer_than_the_openings_repeat_their_games() {
        let order: Vec<usize> = (0..5).collect();
        // Two engines, 5 openings: 5 rounds of pairs are all different, the 6th repeats the 1st.
        assert_eq!(distinct_games(&round_robin_jobs(2, 5, 2, &order)), 10);
        assert_eq!(distinct_games(&round_robin_jobs(2, 6, 2, &order)), 10);
        assert_eq!(distinct_games(&round_robin_jobs(2, 12, 2, &order)), 10);
        // Single games: each opening once per colour arrangement.
        assert_eq!(distinct_games(&round_robin_jobs(2, 3, 1, &order)), 3);
        // Each game knows its pass over the pairings: rounds 6-10 are the second, 11-12 the third.
        let jobs = round_robin_jobs(2, 12, 2, &order);
        let passes: Vec<usize> = jobs.iter().map(|j| j.pass).collect();
        assert_eq!(passes[..10], [0; 10]);
        assert_eq!(passes[10..20], [1; 10]);
        assert_eq!(passes[20..], [2; 4]);
    }

    #[test]
    fn round_robin_pairs_share_openings_and_reverse_colours() {
        let order: Vec<usize> = (0..7).rev().collect();
        let jobs = round_robin_jobs(3, 2, 2, &order);
        // 3 encounters per cycle, 2 cycles, 2 games each.
        assert_eq!(jobs.len(), 12);
        for pair in jobs.chunks(2) {
            assert_eq!(pair[0].pair_id, pair[1].pair_id);
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!((pair[0].red, pair[0].black), (pair[1].black, pair[1].red));
        }
        // Consecutive encounters use consecutive openings of the order.
        assert_eq!(jobs[0].opening, 6);
        assert_eq!(jobs[2].opening, 5);
        // Every engine plays Red as often as Black.
        for e in 0..3 {
            let red = jobs.iter().filter(|j| j.red == e).count();
            let black = jobs.iter().filter(|j| j.black == e).count();
            assert_eq!(red, black);
        }
        assert!(jobs.iter().enumerate().all(|(i, j)| j.game_id == i));
    }

    #[test]
    fn single_games_reverse_colours_in_the_second_cycle() {
        let jobs = round_robin_jobs(2, 2, 1, &[0, 1, 2]);
        assert_eq!(jobs.len(), 2);
        assert_eq!((jobs[0].red, jobs[0].black), (jobs[1].black, jobs[1].red));
        assert_eq!((jobs[0].opening, jobs[1].opening), (0, 1));
        assert!(jobs.iter().all(|j| j.pair_id.is_none()));
        assert_eq!((jobs[0].round, jobs[1].round), (1, 2));
    }
}
