//! The game review of `cotuong analyze --pgn` for the page, on a thread of its own so that the
//! session keeps answering: the same searches and judgements, progress after each position, and
//! the reviewed game as `cotuong analyze --format json` writes it.

use engine_core::{pgn, Notation};
use serde_json::json;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use tokio::sync::mpsc::UnboundedSender;

use super::super::analyze::analyst::{Analyst, Limits};
use super::super::analyze::game_review::{review_games, GameReview};
use super::super::analyze::input::game_searches;
use super::super::analyze::judgement::{self, Thresholds};
use super::super::analyze::progress::Progress;
use super::super::analyze::{json as review_json, GAME_LINES};
use super::view;

/// Table size of the review's own search (MB).
const REVIEW_HASH_MB: usize = 64;
/// Deepest review the page may ask for (a deeper one would take hours on a long game).
pub const MAX_REVIEW_DEPTH: u32 = 30;

/// A review in progress.
pub struct ReviewJob {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    /// The reviewed game once the thread has it, kept to be written again in another notation.
    done: Arc<Mutex<Option<GameReview>>>,
    /// The notation the thread writes the review in.
    notation: Notation,
}

impl ReviewJob {
    /// Starts reviewing `record` at `depth`, its moves written in `notation`; every message goes
    /// to the page through `out`.
    pub fn start(
        record: pgn::Game,
        depth: u32,
        notation: Notation,
        out: UnboundedSender<String>,
    ) -> Result<ReviewJob, String> {
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(Mutex::new(None));
        let flag = Arc::clone(&stop);
        let slot = Arc::clone(&done);
        let thread = std::thread::Builder::new()
            .name("gui-review".into())
            .stack_size(cotuong::search::THREAD_STACK_BYTES)
            .spawn(move || run(&record, depth, notation, &out, &flag, &slot))
            .map_err(|e| format!("cannot start the review: {e}"))?;
        Ok(ReviewJob {
            stop,
            thread: Some(thread),
            done,
            notation,
        })
    }

    /// The notation the review's own message is written in.
    pub fn notation(&self) -> Notation {
        self.notation
    }

    /// The reviewed game, once the review has finished it (`None` before, or when it failed or
    /// was stopped).
    pub fn take_review(&mut self) -> Option<GameReview> {
        self.done.lock().ok().and_then(|mut slot| slot.take())
    }

    /// Whether the review has ended (finished, failed or stopped).
    pub fn finished(&self) -> bool {
        self.thread.as_ref().is_none_or(|t| t.is_finished())
    }

    /// Stops the review after its current search and waits for it.
    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for ReviewJob {
    fn drop(&mut self) {
        self.stop();
    }
}

fn run(
    record: &pgn::Game,
    depth: u32,
    notation: Notation,
    out: &UnboundedSender<String>,
    stop: &AtomicBool,
    done: &Mutex<Option<GameReview>>,
) {
    let send = |text: String| {
        let _ = out.send(text);
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut analyst = match Analyst::new(&limits, REVIEW_HASH_MB, 1) {
        Ok(a) => a,
        Err(e) => return send(view::error(&format!("cannot start the review: {e}"))),
    };
    let thresholds = match Thresholds::new(
        judgement::DEFAULT_INACCURACY,
        judgement::DEFAULT_MISTAKE,
        judgement::DEFAULT_BLUNDER,
    ) {
        Ok(t) => t,
        Err(e) => return send(view::error(&e)),
    };
    let games = std::slice::from_ref(record);
    let total = game_searches(games);
    let progress_out = out.clone();
    let progress = Progress::new(total, true, None).observed(Box::new(move |done, total| {
        let _ = progress_out.send(view::review_progress(done, total));
    }));
    send(view::review_progress(0, total));
    let stopped = || stop.load(Ordering::Relaxed);
    let mut on_game = |review: GameReview| {
        let text = message(&review, notation);
        // Kept before the page hears of it, so that a notation change it asks for next finds it.
        if let Ok(mut slot) = done.lock() {
            *slot = Some(review);
        }
        send(text);
        Ok(())
    };
    let result = review_games(
        &mut analyst,
        games,
        GAME_LINES,
        &thresholds,
        &progress,
        &stopped,
        &mut on_game,
    );
    match result {
        Err(e) => send(view::error(&format!("the review failed: {e}"))),
        Ok(()) if stopped() => send(view::notice("Review stopped.")),
        Ok(()) => {}
    }
}

/// The `review` message: the reviewed game with its moves and best lines written in `notation`.
pub fn message(review: &GameReview, notation: Notation) -> String {
    let game = review_json::game(review, notation);
    json!({"type": "review", "game": game}).to_string()
}
