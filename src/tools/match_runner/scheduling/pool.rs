//! The pool of game-playing threads. Each worker keeps its own engine processes alive between
//! games (restarting one that crashed or hung), takes jobs from a channel and sends finished games
//! back. Workers block on channels and on engine output; they never poll, so the runner takes no
//! CPU time from the engines.

use super::super::engines::{start_engine, EngineConfig, MatchEngine, ProtocolLog};
use super::super::games::{
    play_game, varied_nodes, Clock, GameRecord, GameSettings, Opening, PlayedMove, Seat,
    TerminationKind, TimeControl,
};
use super::job::Job;
use crossbeam_channel::{Receiver, Sender};
use engine_core::{Color, GameResult};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// A job and what came of it (`None`: skipped because the run was stopping).
pub struct Finished {
    /// The job.
    pub job: Job,
    /// The game, unless skipped.
    pub record: Option<GameRecord>,
}

/// What every worker shares.
pub struct PoolShared {
    /// Engines by index.
    pub engines: Vec<EngineConfig>,
    /// Openings by index.
    pub openings: Vec<Opening>,
    /// Per-game settings.
    pub settings: GameSettings,
    /// Set when the run should stop (SPRT decision); queued jobs are then skipped.
    pub stop: AtomicBool,
    /// Optional protocol log.
    pub log: Option<ProtocolLog>,
    /// Node limits change from pass to pass of the schedule (`--vary-nodes`).
    pub vary_nodes: bool,
}

impl PoolShared {
    /// The time control of engine `engine` in the game of `job`: its own, with a node limit
    /// varied by the job's pass when `vary_nodes` is set.
    pub fn time_control(&self, engine: usize, job: &Job) -> TimeControl {
        match &self.engines[engine].time_control {
            TimeControl::Nodes(n) if self.vary_nodes => {
                TimeControl::Nodes(varied_nodes(*n, job.pass))
            }
            tc => tc.clone(),
        }
    }
}

/// Running worker threads.
pub struct Pool {
    jobs: Option<Sender<Job>>,
    /// Finished games, in completion order.
    pub results: Receiver<Finished>,
    handles: Vec<JoinHandle<()>>,
}

impl Pool {
    /// Starts `workers` threads.
    pub fn start(workers: usize, shared: Arc<PoolShared>) -> Result<Pool, String> {
        let (job_tx, job_rx) = crossbeam_channel::unbounded::<Job>();
        let (res_tx, res_rx) = crossbeam_channel::unbounded::<Finished>();
        let mut handles = Vec::new();
        for i in 0..workers.max(1) {
            let jobs = job_rx.clone();
            let results = res_tx.clone();
            let shared = Arc::clone(&shared);
            let h = std::thread::Builder::new()
                .name(format!("game-worker-{i}"))
                .spawn(move || work(&jobs, &results, &shared))
                .map_err(|e| format!("cannot start worker thread: {e}"))?;
            handles.push(h);
        }
        Ok(Pool {
            jobs: Some(job_tx),
            results: res_rx,
            handles,
        })
    }

    /// Queues a game.
    pub fn submit(&self, job: Job) {
        if let Some(tx) = &self.jobs {
            // Workers only exit after the sender is dropped, so this cannot fail while we hold it.
            let _ = tx.send(job);
        }
    }

    /// Stops accepting jobs and waits for the workers (they quit their engines on the way out).
    pub fn finish(mut self) {
        self.jobs = None;
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

fn work(jobs: &Receiver<Job>, results: &Sender<Finished>, shared: &PoolShared) {
    let mut running: HashMap<usize, Box<dyn MatchEngine>> = HashMap::new();
    for job in jobs.iter() {
        if shared.stop.load(Ordering::SeqCst) {
            if results.send(Finished { job, record: None }).is_err() {
                break;
            }
            continue;
        }
        let record = play_job(&job, &mut running, shared);
        if results
            .send(Finished {
                job,
                record: Some(record),
            })
            .is_err()
        {
            break;
        }
    }
    for (_, e) in running.drain() {
        e.quit();
    }
}

/// A game lost before it began (engine would not start or get ready).
fn forfeit(
    job: &Job,
    shared: &PoolShared,
    loser: Color,
    why: String,
    restart: (bool, bool),
) -> GameRecord {
    let opening = &shared.openings[job.opening];
    GameRecord {
        start: opening.start.clone(),
        moves: opening
            .moves
            .iter()
            .map(|&mv| PlayedMove {
                mv,
                book: true,
                time: std::time::Duration::ZERO,
                score: None,
                depth: None,
            })
            .collect(),
        result: GameResult::win_for(loser.opponent()),
        termination: TerminationKind::EngineFailure,
        reason: why,
        red: shared.engines[job.red].name.clone(),
        black: shared.engines[job.black].name.clone(),
        restart_red: restart.0,
        restart_black: restart.1,
    }
}

fn ready_engine(
    index: usize,
    running: &mut HashMap<usize, Box<dyn MatchEngine>>,
    shared: &PoolShared,
) -> Result<Box<dyn MatchEngine>, String> {
    let mut engine = match running.remove(&index) {
        Some(e) => e,
        None => {
            start_engine(&shared.engines[index], shared.log.as_ref()).map_err(|e| e.to_string())?
        }
    };
    match engine.new_game() {
        Ok(()) => Ok(engine),
        Err(_) => {
            // A stale process (e.g. it died between games): one fresh start.
            drop(engine);
            let mut fresh = start_engine(&shared.engines[index], shared.log.as_ref())
                .map_err(|e| e.to_string())?;
            fresh.new_game().map_err(|e| e.to_string())?;
            Ok(fresh)
        }
    }
}

fn play_job(
    job: &Job,
    running: &mut HashMap<usize, Box<dyn MatchEngine>>,
    shared: &PoolShared,
) -> GameRecord {
    let mut red = match ready_engine(job.red, running, shared) {
        Ok(e) => e,
        Err(e) => {
            let why = format!("Red ({}) {e}", shared.engines[job.red].name);
            return forfeit(job, shared, Color::Red, why, (true, false));
        }
    };
    let mut black = match ready_engine(job.black, running, shared) {
        Ok(e) => e,
        Err(e) => {
            running.insert(job.red, red);
            let why = format!("Black ({}) {e}", shared.engines[job.black].name);
            return forfeit(job, shared, Color::Black, why, (false, true));
        }
    };
    let record = play_game(
        &shared.openings[job.opening],
        Seat {
            engine: red.as_mut(),
            clock: Clock::new(shared.time_control(job.red, job)),
        },
        Seat {
            engine: black.as_mut(),
            clock: Clock::new(shared.time_control(job.black, job)),
        },
        &shared.settings,
    );
    // A crashed or hung engine is dropped (killed); the next game starts a fresh one.
    if !record.restart_red {
        running.insert(job.red, red);
    }
    if !record.restart_black {
        running.insert(job.black, black);
    }
    record
}
