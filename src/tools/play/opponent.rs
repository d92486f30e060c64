//! The engine across the board: the library's [`Engine`] asked one question at a time (its move,
//! a hint, its view of a draw offer) and waited for, so that the game loop reads in order. Options
//! are set by name through the engine's one option table, as the protocol sessions set them.

use super::errors::sentence;
use cotuong::engine::{Engine, Event, Listener, Offer};
use cotuong::game::Game;
use cotuong::options::Options;
use cotuong::search::{self, SearchRequest};
use engine_core::Move;
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};

/// What one search answered.
#[derive(Clone, Debug, Default)]
pub struct Answer {
    /// The move it chose (`None`: no legal move).
    pub best: Option<Move>,
    /// The score of the side to move of the searched position (internal units), when an
    /// iteration finished.
    pub score: Option<i32>,
    /// Depth of that iteration.
    pub depth: i32,
    /// A draw offer or acceptance, or a resignation, with the move.
    pub offer: Option<Offer>,
}

/// The engine and the events of its searches.
pub struct Opponent {
    engine: Engine,
    events: Receiver<Event>,
    /// Problems the engine reported that did not stop it, for the caller to show.
    warnings: Vec<String>,
}

impl Opponent {
    /// A fresh engine with its default options.
    pub fn new() -> Result<Opponent, String> {
        let (tx, events) = channel();
        let tx = Mutex::new(tx);
        let listener: Listener = Arc::new(move |e: Event| {
            if let Ok(tx) = tx.lock() {
                let _ = tx.send(e);
            }
        });
        let engine = Engine::new(listener).map_err(|e| sentence(&e))?;
        let mut opponent = Opponent {
            engine,
            events,
            warnings: Vec::new(),
        };
        opponent.collect_warnings();
        Ok(opponent)
    }

    /// The engine's options.
    pub fn options(&self) -> &Options {
        self.engine.options()
    }

    /// Sets the option called `name` (its UCI or UCCI name) to `value`; the error says why not.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        self.engine
            .set_option(name, Some(value))
            .map_err(|e| sentence(&e))
    }

    /// Forgets what earlier games taught the search (a new game).
    pub fn new_game(&mut self) -> Result<(), String> {
        self.engine.new_game().map_err(|e| sentence(&e))
    }

    /// Takes the warnings the engine has reported since the last call.
    pub fn take_warnings(&mut self) -> Vec<String> {
        self.collect_warnings();
        std::mem::take(&mut self.warnings)
    }

    fn collect_warnings(&mut self) {
        while let Ok(e) = self.events.try_recv() {
            if let Event::Error(text) = e {
                self.warnings.push(text);
            }
        }
    }

    /// Searches the position `game` has reached within `request`'s limits and waits for the
    /// answer.
    pub fn search(&mut self, game: &Game, request: SearchRequest) -> Result<Answer, String> {
        self.collect_warnings();
        self.engine
            .set_game(game.clone())
            .map_err(|e| sentence(&e))?;
        self.engine.go(request, false).map_err(|e| sentence(&e))?;
        let mut answer = Answer::default();
        loop {
            let event = self
                .events
                .recv()
                .map_err(|_| "the engine stopped answering".to_string())?;
            match event {
                Event::Info(search::Info::Iteration {
                    multipv: 1,
                    score,
                    depth,
                    ..
                }) => {
                    answer.score = Some(score);
                    answer.depth = depth;
                }
                Event::BestMove { best, offer, .. } => {
                    answer.best = Some(best);
                    answer.offer = offer;
                    return Ok(answer);
                }
                Event::NoMove { score } | Event::StaticEval { score } => {
                    answer.score = Some(score);
                    return Ok(answer);
                }
                Event::Error(text) => self.warnings.push(text),
                Event::Info(_) | Event::RuleVerdict(_) => {}
            }
        }
    }
}
