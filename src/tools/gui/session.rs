//! One page's game: the moves, the cursor, who plays what, the clocks, the engine (its move, a
//! draw question or live analysis) and a review. It runs on a thread of its own, taking the
//! page's messages, the engine's events and a clock tick in turn, so that no request waits for a
//! search. A request it refuses changes nothing and gets one `error` message.

use base64::Engine as _;
use cotuong::engine::{Engine, Event, Listener, Offer, ENGINE_NAME};
use cotuong::game::Game;
use cotuong::search::{self, SearchRequest, SideClock};
use crossbeam_channel::{select, tick, unbounded, Receiver};
use engine_core::{pgn, Color, GameResult, Move, Notation, Position, RankBase};
use serde_json::{json, Value};
use std::str::FromStr;
use std::time::{Duration, Instant};
use tokio::sync::mpsc::UnboundedSender;

use super::super::analyze::game_review::GameReview;
use super::super::pgn_file::{self, NotationChoice};
use super::super::play::record::{self, Ending};
use super::clocks::Clocks;
use super::protocol::{self, Human, Request, TimeSetting};
use super::review::{self, ReviewJob, MAX_REVIEW_DEPTH};
use super::view::{self, color_name, iccs};

/// How often clocks are checked and collected analysis lines are sent.
const TICK: Duration = Duration::from_millis(100);
/// The engine's time a move when there are no clocks and the page names none (ms).
const DEFAULT_MOVETIME_MS: u64 = 1_000;
/// The most time a move the page may give the engine without clocks (ms).
const MAX_MOVETIME_MS: u64 = 600_000;
/// The longest clock the page may set (s): ten hours.
const MAX_CLOCK_S: f64 = 36_000.0;
/// How long the engine looks at a draw offer, at full strength whatever its level (a weakened
/// search's score says little about the position).
const DRAW_QUESTION: Duration = Duration::from_millis(500);
/// Most lines of live analysis.
const MAX_LINES: usize = 5;
/// Default depth of a review.
const DEFAULT_REVIEW_DEPTH: u32 = 10;
/// Table size of the engine (MB).
const ENGINE_HASH_MB: &str = "64";
/// Largest game file the page may open (bytes).
const MAX_FILE_BYTES: usize = 2 << 20;
/// Plies one undo takes back on the person's turn against the engine: the engine's reply and
/// the person's move.
const UNDO_PLIES: usize = 2;
/// The person's name in a saved game.
const PLAYER_NAME: &str = "Human";

/// What the engine is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Task {
    Idle,
    /// Choosing its move in the game.
    Move,
    /// Looking at the person's draw offer, until the instant given.
    DrawQuestion(Instant),
    /// Live analysis of the position at a ply.
    Analysis(usize),
}

/// A page's game and everything it asked for.
pub struct Session {
    out: UnboundedSender<String>,
    engine: Engine,
    events: Receiver<Event>,
    game: Game,
    /// Tags of an opened game (kept for its review and its PGN).
    tags: Vec<(String, String)>,
    human: Human,
    cursor: usize,
    ending: Option<Ending>,
    notation: Notation,
    level: String,
    clocks: Option<Clocks>,
    /// The time control the clocks started from, for the PGN.
    time: Option<TimeSetting>,
    movetime_ms: u64,
    task: Task,
    /// The last score of the engine's current search (side to move's view).
    last_score: Option<i32>,
    engine_offers_draw: bool,
    analysis_on: bool,
    multipv: usize,
    lines: Vec<Value>,
    lines_changed: bool,
    review: Option<ReviewJob>,
    /// The finished review of the game, sent again when the notation changes.
    reviewed: Option<GameReview>,
}

/// Serves one page: its messages arrive on `from_page` (the channel closes when the page goes),
/// everything for it leaves through `to_page`.
pub fn run(from_page: Receiver<String>, to_page: UnboundedSender<String>) {
    let mut session = match Session::new(to_page.clone()) {
        Ok(s) => s,
        Err(e) => {
            let _ = to_page.send(view::error(&e));
            return;
        }
    };
    session.send(view::hello(session.engine.options()));
    session.send_state();
    let events = session.events.clone();
    let ticks = tick(TICK);
    loop {
        select! {
            recv(from_page) -> text => match text {
                Ok(text) => session.handle_text(&text),
                Err(_) => break,
            },
            recv(events) -> event => {
                if let Ok(event) = event {
                    session.on_engine(event);
                }
            }
            recv(ticks) -> _ => session.on_tick(),
        }
    }
    session.close();
}

impl Session {
    fn new(out: UnboundedSender<String>) -> Result<Session, String> {
        let (tx, events) = unbounded();
        let listener: Listener = std::sync::Arc::new(move |e: Event| {
            let _ = tx.send(e);
        });
        let mut engine = Engine::new(listener).map_err(|e| format!("the engine: {e}"))?;
        engine
            .set_option("Hash", Some(ENGINE_HASH_MB))
            .map_err(|e| format!("the engine: {e}"))?;
        Ok(Session {
            out,
            engine,
            events,
            game: Game::startpos(),
            tags: Vec::new(),
            human: Human::Red,
            cursor: 0,
            ending: None,
            notation: Notation::Chinese,
            level: "Skill Level 20".into(),
            clocks: None,
            time: None,
            movetime_ms: DEFAULT_MOVETIME_MS,
            task: Task::Idle,
            last_score: None,
            engine_offers_draw: false,
            analysis_on: false,
            multipv: 1,
            lines: Vec::new(),
            lines_changed: false,
            review: None,
            reviewed: None,
        })
    }

    fn send(&self, text: String) {
        let _ = self.out.send(text);
    }

    fn error(&self, message: &str) {
        self.send(view::error(message));
    }

    fn notice(&self, message: &str) {
        self.send(view::notice(message));
    }

    fn handle_text(&mut self, text: &str) {
        match protocol::parse(text) {
            Ok(request) => {
                if let Err(e) = self.handle(request) {
                    self.error(&e);
                }
            }
            Err(e) => self.error(&e),
        }
    }

    fn handle(&mut self, request: Request) -> Result<(), String> {
        match request {
            Request::NewGame {
                fen,
                human,
                level,
                elo,
                time,
                movetime_ms,
            } => self.new_game(fen.as_deref(), human, level, elo, time, movetime_ms),
            Request::Move { mv } => self.person_moves(&mv),
            Request::Undo => self.undo(),
            Request::Resign => self.resign(),
            Request::OfferDraw => self.offer_draw(),
            Request::Goto { ply } => self.goto(ply),
            Request::Analyse { on, multipv } => self.analyse(on, multipv),
            Request::SetFen { fen } => self.set_fen(&fen),
            Request::Notation { notation } => self.set_notation(&notation),
            Request::Option { name, value } => self.set_rule_option(&name, &value),
            Request::Open { name, data, game } => self.open(&name, &data, game),
            Request::Review { depth } => self.start_review(depth),
            Request::StopReview => {
                match self.review.as_mut() {
                    Some(r) if !r.finished() => r.stop(),
                    _ => return Err("no review is running".into()),
                }
                self.review = None;
                Ok(())
            }
            Request::SavePgn => {
                self.send(self.pgn_message());
                Ok(())
            }
        }
    }

    /// The engine's colour in a game against it.
    fn engine_side(&self) -> Option<Color> {
        match self.human {
            Human::Red => Some(Color::Black),
            Human::Black => Some(Color::Red),
            Human::Both => None,
        }
    }

    /// The position at the cursor.
    fn cursor_game(&self) -> Result<Game, String> {
        Game::from_moves(self.game.start().clone(), &self.game.moves()[..self.cursor])
            .map_err(|_| "cannot replay the game".to_string())
    }

    /// Stops whatever the engine is doing and forgets its pending reports.
    fn stop_engine(&mut self) {
        self.engine.stop_and_wait();
        while self.events.try_recv().is_ok() {}
        self.task = Task::Idle;
        self.last_score = None;
    }

    /// Stops a running review and forgets a finished one: the game it judged has changed.
    fn stop_review(&mut self) {
        if let Some(mut r) = self.review.take() {
            r.stop();
        }
        self.reviewed = None;
    }

    /// Keeps the review once its thread has it, writing it again if the notation changed while
    /// it ran; forgets the thread once it has ended.
    fn collect_review(&mut self) {
        let Some(job) = self.review.as_mut() else {
            return;
        };
        let written_in = job.notation();
        let arrived = job.take_review();
        if job.finished() {
            self.review = None;
        }
        if let Some(r) = arrived {
            if written_in != self.notation {
                self.send(review::message(&r, self.notation));
            }
            self.reviewed = Some(r);
        }
    }

    fn close(&mut self) {
        self.stop_review();
        self.stop_engine();
        self.engine.quit();
    }

    fn new_game(
        &mut self,
        fen: Option<&str>,
        human: Human,
        level: Option<u32>,
        elo: Option<u32>,
        time: Option<TimeSetting>,
        movetime_ms: Option<u64>,
    ) -> Result<(), String> {
        let start = start_position(fen.unwrap_or("startpos"))?;
        let clocks = match time {
            Some(t) => Some(clocks_of(t)?),
            None => None,
        };
        let movetime = movetime_ms.unwrap_or(DEFAULT_MOVETIME_MS);
        if movetime == 0 || movetime > MAX_MOVETIME_MS {
            return Err(format!(
                "movetime_ms {movetime}: give 1 to {MAX_MOVETIME_MS} milliseconds"
            ));
        }
        let level_text = self.set_level(level, elo)?;
        self.stop_engine();
        self.stop_review();
        self.engine
            .new_game()
            .map_err(|e| format!("the engine: {e}"))?;
        self.game = Game::new(start);
        self.tags.clear();
        self.human = human;
        self.cursor = 0;
        self.ending = None;
        self.level = level_text;
        self.clocks = clocks;
        self.time = time;
        self.movetime_ms = movetime;
        self.engine_offers_draw = false;
        if human != Human::Both {
            self.analysis_on = false;
        }
        self.referee();
        self.after_change();
        Ok(())
    }

    /// Sets the engine's strength; the text names it for the PGN.
    fn set_level(&mut self, level: Option<u32>, elo: Option<u32>) -> Result<String, String> {
        let set = |engine: &mut Engine, name: &str, value: &str| {
            engine
                .set_option(name, Some(value))
                .map_err(|e| format!("{e}"))
        };
        match (level, elo) {
            (Some(_), Some(_)) => Err("give a level or an Elo, not both".into()),
            (_, Some(elo)) => {
                set(&mut self.engine, "UCI_Elo", &elo.to_string())?;
                set(&mut self.engine, "UCI_LimitStrength", "true")?;
                Ok(format!("Elo {elo}"))
            }
            (level, None) => {
                let level = level.unwrap_or(20);
                set(&mut self.engine, "Skill Level", &level.to_string())?;
                set(&mut self.engine, "UCI_LimitStrength", "false")?;
                Ok(format!("Skill Level {level}"))
            }
        }
    }

    /// Ends the game if the referee says it is over (at its last ply).
    fn referee(&mut self) {
        if self.ending.is_some() {
            return;
        }
        if let Some(v) = self.game.verdict(&self.engine.options().rules) {
            self.end(Ending {
                result: v.result,
                rule: Some(v.rule),
                reason: v.explanation,
            });
        }
    }

    fn end(&mut self, ending: Ending) {
        if let Some(c) = self.clocks.as_mut() {
            c.stop();
        }
        self.ending = Some(ending);
    }

    /// After the moves changed: the engine moves if it has the move, the clocks run for the
    /// side to move, the page sees the state and analysis follows the cursor.
    fn after_change(&mut self) {
        let to_move = self.game.position().side_to_move();
        if self.ending.is_none() {
            if let Some(c) = self.clocks.as_mut() {
                if self.human != Human::Both || !self.game.moves().is_empty() {
                    c.start(to_move);
                }
            }
        }
        if self.ending.is_none() && self.engine_side() == Some(to_move) {
            self.engine_moves();
        }
        self.send_state();
        self.refresh_analysis();
    }

    fn engine_moves(&mut self) {
        self.stop_engine();
        let mut request = SearchRequest::default();
        match &self.clocks {
            Some(c) => {
                request.clock = Some(SideClock {
                    time_ms: c.left_ms(self.game.position().side_to_move()),
                    inc_ms: c.inc_ms(),
                    movestogo: None,
                })
            }
            None => request.movetime_ms = Some(self.movetime_ms),
        }
        if let Err(e) = self.start_search(self.game.clone(), request, 1) {
            self.error(&format!("the engine cannot move: {e}"));
            return;
        }
        self.task = Task::Move;
    }

    /// Starts a search of `game`'s position for `lines` lines (analysis), or for a move (1).
    fn start_search(
        &mut self,
        game: Game,
        request: SearchRequest,
        lines: usize,
    ) -> Result<(), String> {
        self.engine
            .set_option("MultiPV", Some(&lines.to_string()))
            .map_err(|e| format!("{e}"))?;
        self.engine.set_game(game).map_err(|e| format!("{e}"))?;
        self.engine.go(request, false).map_err(|e| format!("{e}"))
    }

    fn person_moves(&mut self, text: &str) -> Result<(), String> {
        let len = self.game.moves().len();
        if self.human == Human::Both {
            if self.cursor == len && self.ending.is_some() {
                return Err("the game is over: go back to a move, or start a new game".into());
            }
        } else {
            if self.ending.is_some() {
                return Err("the game is over: undo, or start a new game".into());
            }
            if self.cursor != len {
                return Err("go to the last move to play on".into());
            }
            if self.task == Task::Move {
                return Err("the engine is thinking: wait for its move".into());
            }
        }
        let at = self.cursor_game()?;
        let pos = at.position().clone();
        if self.engine_side() == Some(pos.side_to_move()) {
            return Err("it is the engine's move".into());
        }
        let mv = pos
            .parse_move(text.trim(), RankBase::Zero)
            .map_err(|e| e.to_string())?;
        let mut game = at;
        game.play(mv)
            .map_err(|_| format!("'{}' is not legal here", text.trim()))?;
        if matches!(self.task, Task::DrawQuestion(_)) {
            self.stop_engine();
        }
        if self.cursor != len {
            // A new line from the cursor replaces the moves after it; their review is gone.
            self.stop_review();
        }
        if let Some(c) = self.clocks.as_mut() {
            c.charge_move();
        }
        self.game = game;
        self.cursor = self.game.moves().len();
        self.ending = None;
        self.engine_offers_draw = false;
        self.referee();
        self.after_change();
        Ok(())
    }

    fn on_engine(&mut self, event: Event) {
        match event {
            Event::Info(info) => self.on_info(&info),
            Event::BestMove { best, offer, .. } => match self.task {
                Task::Move => self.engine_played(best, offer),
                Task::DrawQuestion(_) => self.answer_draw(),
                Task::Analysis(_) | Task::Idle => {}
            },
            Event::NoMove { score } | Event::StaticEval { score } => {
                self.last_score = Some(score);
                match self.task {
                    Task::Move => {
                        self.task = Task::Idle;
                        self.referee();
                        self.send_state();
                    }
                    Task::DrawQuestion(_) => self.answer_draw(),
                    Task::Analysis(_) | Task::Idle => {}
                }
            }
            Event::Error(text) => self.notice(&format!("The engine: {text}")),
            Event::RuleVerdict(_) => {}
        }
    }

    fn on_info(&mut self, info: &search::Info) {
        if let search::Info::Iteration {
            multipv: 1, score, ..
        } = info
        {
            self.last_score = Some(*score);
        }
        let Task::Analysis(ply) = self.task else {
            return;
        };
        let Ok(at) = self.cursor_game() else {
            return;
        };
        if ply != self.cursor {
            return;
        }
        if let Some((n, line)) = view::analysis_line(at.position(), info, self.notation) {
            let index = n.saturating_sub(1);
            if index < MAX_LINES {
                if self.lines.len() <= index {
                    self.lines.resize(index + 1, Value::Null);
                }
                self.lines[index] = line;
                self.lines_changed = true;
            }
        }
    }

    fn engine_played(&mut self, best: Move, offer: Option<Offer>) {
        self.task = Task::Idle;
        let Some(engine) = self.engine_side() else {
            return;
        };
        if let Some(c) = self.clocks.as_mut() {
            c.charge_move();
        }
        if offer == Some(Offer::Resign) {
            self.end(Ending::resignation(engine, true));
            self.send_state();
            return;
        }
        if self.game.play(best).is_err() {
            self.error("the engine chose an illegal move");
            return;
        }
        self.cursor = self.game.moves().len();
        self.referee();
        if offer == Some(Offer::Draw) && self.ending.is_none() {
            self.engine_offers_draw = true;
            self.notice("Cotuong offers a draw: offer a draw to accept it, or play on.");
        }
        self.after_change();
    }

    fn undo(&mut self) -> Result<(), String> {
        let len = self.game.moves().len();
        let back = match self.engine_side() {
            None => 1,
            Some(engine) if self.task == Task::Move => {
                debug_assert_eq!(self.game.position().side_to_move(), engine);
                1
            }
            Some(engine) if self.game.position().side_to_move() == engine => 1,
            Some(_) => UNDO_PLIES,
        };
        if len < back || (self.engine_side().is_some() && len == 0) {
            return Err("nothing of yours to take back".into());
        }
        let kept = &self.game.moves()[..len - back];
        let game = Game::from_moves(self.game.start().clone(), kept)
            .map_err(|_| "cannot replay the game".to_string())?;
        self.stop_engine();
        self.stop_review();
        self.game = game;
        self.cursor = self.game.moves().len();
        self.ending = None;
        self.engine_offers_draw = false;
        self.referee();
        self.after_change();
        Ok(())
    }

    /// The engine's colour in a game against it that goes on; the error says why there is none
    /// to `what` (resign to, offer a draw to).
    fn opponent_in_play(&self, what: &str) -> Result<Color, String> {
        let Some(engine) = self.engine_side() else {
            return Err(format!(
                "there is no opponent to {what} on an analysis board"
            ));
        };
        if self.ending.is_some() {
            return Err("the game is over already".into());
        }
        Ok(engine)
    }

    fn resign(&mut self) -> Result<(), String> {
        let engine = self.opponent_in_play("resign to")?;
        self.stop_engine();
        self.end(Ending::resignation(engine.opponent(), false));
        self.send_state();
        Ok(())
    }

    fn offer_draw(&mut self) -> Result<(), String> {
        let engine = self.opponent_in_play("offer a draw to")?;
        if self.engine_offers_draw {
            self.stop_engine();
            self.end(Ending::agreed_draw(engine, true));
            self.send_state();
            return Ok(());
        }
        if self.task != Task::Idle {
            return Err("the engine is thinking: offer the draw on your move".into());
        }
        // An infinite search is a full-strength one; the tick stops it after `DRAW_QUESTION`.
        let request = SearchRequest {
            infinite: true,
            ..SearchRequest::default()
        };
        self.start_search(self.game.clone(), request, 1)?;
        self.task = Task::DrawQuestion(Instant::now() + DRAW_QUESTION);
        self.notice("Cotuong considers your draw offer…");
        Ok(())
    }

    fn answer_draw(&mut self) {
        self.task = Task::Idle;
        let Some(engine) = self.engine_side() else {
            return;
        };
        let score = self.last_score.unwrap_or(0);
        let to_move = self.game.position().side_to_move();
        if record::engine_accepts_draw(score, to_move, engine) {
            self.end(Ending::agreed_draw(engine, false));
            self.notice("Cotuong accepts the draw.");
            self.send_state();
        } else {
            self.notice("Cotuong declines the draw; play on.");
        }
    }

    fn goto(&mut self, ply: usize) -> Result<(), String> {
        let len = self.game.moves().len();
        if ply > len {
            return Err(format!("ply {ply}: the game has {len} plies"));
        }
        self.cursor = ply;
        self.send_state();
        self.refresh_analysis();
        Ok(())
    }

    /// Whether live analysis may run: not while a game against the engine goes on.
    fn analysis_allowed(&self) -> bool {
        self.human == Human::Both || self.ending.is_some()
    }

    fn analyse(&mut self, on: bool, multipv: Option<usize>) -> Result<(), String> {
        let lines = multipv.unwrap_or(self.multipv);
        if !(1..=MAX_LINES).contains(&lines) {
            return Err(format!("multipv {lines}: give 1 to {MAX_LINES} lines"));
        }
        if on && !self.analysis_allowed() {
            return Err(
                "no analysis during a game against the engine: finish it, or play both sides"
                    .into(),
            );
        }
        self.multipv = lines;
        self.analysis_on = on;
        if !on {
            if matches!(self.task, Task::Analysis(_)) {
                self.stop_engine();
            }
            self.lines.clear();
            self.send(view::analysis(self.cursor, &self.lines));
            return Ok(());
        }
        self.refresh_analysis();
        Ok(())
    }

    /// (Re)starts live analysis at the cursor when it is on and allowed.
    fn refresh_analysis(&mut self) {
        if !self.analysis_on || matches!(self.task, Task::Move | Task::DrawQuestion(_)) {
            return;
        }
        if !self.analysis_allowed() {
            self.analysis_on = false;
            return;
        }
        self.stop_engine();
        self.lines.clear();
        self.lines_changed = true;
        let Ok(at) = self.cursor_game() else {
            return;
        };
        if at.position().legal_moves().is_empty() {
            return;
        }
        let request = SearchRequest {
            infinite: true,
            ..SearchRequest::default()
        };
        match self.start_search(at, request, self.multipv) {
            Ok(()) => self.task = Task::Analysis(self.cursor),
            Err(e) => self.error(&format!("analysis: {e}")),
        }
    }

    fn set_fen(&mut self, fen: &str) -> Result<(), String> {
        let (start, warnings) = if fen.trim().eq_ignore_ascii_case("startpos") {
            (Position::startpos(), None)
        } else {
            let (pos, warnings) = Position::from_fen_with_warnings(fen.trim())
                .map_err(|e| format!("bad FEN: {e}"))?;
            (pos, (!warnings.is_empty()).then(|| warnings.to_string()))
        };
        self.stop_engine();
        self.stop_review();
        self.game = Game::new(start);
        self.tags.clear();
        self.human = Human::Both;
        self.cursor = 0;
        self.ending = None;
        self.clocks = None;
        self.time = None;
        self.engine_offers_draw = false;
        self.referee();
        if let Some(w) = warnings {
            self.notice(&format!("Position set; note: {w}"));
        }
        self.after_change();
        Ok(())
    }

    fn set_notation(&mut self, name: &str) -> Result<(), String> {
        if !view::NOTATIONS.contains(&name) {
            return Err(format!(
                "'{name}' is not a notation here: {}",
                view::NOTATIONS.join(", ")
            ));
        }
        self.notation = Notation::from_str(name).map_err(|e| e.to_string())?;
        self.send_state();
        // A review still running is written again when it arrives (`collect_review`).
        if let Some(r) = &self.reviewed {
            self.send(review::message(r, self.notation));
        }
        self.refresh_analysis();
        Ok(())
    }

    fn set_rule_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        if !view::RULE_OPTIONS.contains(&name) {
            return Err(format!(
                "'{name}' is not a rule option: {}",
                view::RULE_OPTIONS.join(", ")
            ));
        }
        if self.task != Task::Idle && !matches!(self.task, Task::Analysis(_)) {
            return Err("the engine is thinking: change the rules on your move".into());
        }
        self.stop_engine();
        self.engine
            .set_option(name, Some(value))
            .map_err(|e| format!("{e}"))?;
        self.send(view::hello(self.engine.options()));
        // A verdict of the referee may change with the rules; a resignation or agreement stays.
        if self.ending.as_ref().is_some_and(|e| e.rule.is_some()) {
            self.ending = None;
        }
        self.referee();
        self.send_state();
        self.refresh_analysis();
        Ok(())
    }

    fn open(&mut self, name: &str, data: &str, number: Option<u64>) -> Result<(), String> {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(data.trim())
            .map_err(|e| format!("{name}: the page sent it damaged ({e})"))?;
        if bytes.len() > MAX_FILE_BYTES {
            return Err(format!(
                "{name}: {} bytes, more than the {MAX_FILE_BYTES} a game file may have",
                bytes.len()
            ));
        }
        let mut games =
            pgn_file::read_games_bytes(name, &bytes, &NotationChoice::Auto.candidates(None))?;
        let count = games.len();
        if count == 0 {
            return Err(format!("{name}: no game in the file"));
        }
        let n = number.unwrap_or(1);
        let index = usize::try_from(n.saturating_sub(1)).unwrap_or(usize::MAX);
        if n == 0 || index >= count {
            return Err(format!(
                "game {n}: {name} holds {count} game{}",
                if count == 1 { "" } else { "s" }
            ));
        }
        let record = games.swap_remove(index);
        let game = Game::from_moves(record.start.clone(), &record.move_list())
            .map_err(|_| format!("{name}: a move of the game is illegal"))?;
        self.stop_engine();
        self.stop_review();
        self.game = game;
        self.tags = record.tags.clone();
        self.human = Human::Both;
        self.cursor = 0;
        self.ending = None;
        self.clocks = None;
        self.time = None;
        self.engine_offers_draw = false;
        self.referee();
        if self.ending.is_none() {
            if let Some(result) = recorded_result(record.result.as_deref()) {
                self.ending = Some(Ending {
                    result,
                    rule: None,
                    reason: "the result the file records".into(),
                });
            }
        }
        if count > 1 {
            self.notice(&format!("{name} holds {count} games: game {n} is open."));
        }
        self.after_change();
        Ok(())
    }

    fn start_review(&mut self, depth: Option<u32>) -> Result<(), String> {
        let depth = depth.unwrap_or(DEFAULT_REVIEW_DEPTH);
        if !(1..=MAX_REVIEW_DEPTH).contains(&depth) {
            return Err(format!("depth {depth}: give 1 to {MAX_REVIEW_DEPTH}"));
        }
        if self.review.as_ref().is_some_and(|r| !r.finished()) {
            return Err("a review is running: stop it first".into());
        }
        if self.game.moves().is_empty() {
            return Err("no moves to review".into());
        }
        self.reviewed = None;
        let record = self.record();
        self.review = Some(ReviewJob::start(
            record,
            depth,
            self.notation,
            self.out.clone(),
        )?);
        Ok(())
    }

    /// The game as a game record, for the review.
    fn record(&self) -> pgn::Game {
        let moves = self
            .game
            .moves()
            .iter()
            .map(|&mv| pgn::GameMove {
                mv,
                text: iccs(mv),
                line: 1,
                nags: Vec::new(),
                comments: Vec::new(),
                variations: Vec::new(),
            })
            .collect();
        pgn::Game {
            number: 1,
            line: 1,
            tags: self.tags.clone(),
            start: self.game.start().clone(),
            notation: Some(Notation::Iccs(RankBase::Zero)),
            comments_before: Vec::new(),
            moves,
            result: self.ending.as_ref().map(|e| e.result.pgn().to_string()),
        }
    }

    fn pgn_message(&self) -> String {
        let tag = |name: &str| {
            self.tags
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        let (red, black) = match self.human {
            Human::Red => (PLAYER_NAME.to_string(), ENGINE_NAME.to_string()),
            Human::Black => (ENGINE_NAME.to_string(), PLAYER_NAME.to_string()),
            Human::Both => (
                tag("Red").unwrap_or_else(|| "?".into()),
                tag("Black").unwrap_or_else(|| "?".into()),
            ),
        };
        let time_control = match (self.time, self.human) {
            (_, Human::Both) => "-".to_string(),
            // PGN's form: base and increment in seconds.
            (Some(t), _) => format!("{}+{}", t.base_s, t.inc_s),
            (None, _) => format!("st={}", self.movetime_ms as f64 / 1000.0),
        };
        let engine = record::EngineSettings {
            level: &self.level,
            time_control,
        };
        let text = record::pgn_text(
            record::Venue::Browser,
            &self.game,
            &red,
            &black,
            self.ending.as_ref(),
            self.notation,
            &engine,
        );
        view::pgn(&text, "cotuong-game.pgn")
    }

    fn on_tick(&mut self) {
        if let Task::DrawQuestion(until) = self.task {
            if Instant::now() >= until {
                // Its best move, and with it the answer, comes as an event.
                self.engine.stop();
            }
        }
        if self.lines_changed {
            self.lines_changed = false;
            let lines: Vec<Value> = self
                .lines
                .iter()
                .filter(|l| !l.is_null())
                .cloned()
                .collect();
            self.send(view::analysis(self.cursor, &lines));
        }
        let flagged = self
            .clocks
            .as_ref()
            .filter(|_| self.ending.is_none())
            .and_then(Clocks::flagged);
        if let Some(side) = flagged {
            self.stop_engine();
            self.end(Ending {
                result: GameResult::win_for(side.opponent()),
                rule: None,
                reason: format!("{} loses on time", side.name()),
            });
            self.send_state();
        }
        self.collect_review();
    }

    fn send_state(&self) {
        self.send(self.state());
    }

    /// The `state` message.
    fn state(&self) -> String {
        let mut fens = Vec::with_capacity(self.game.moves().len() + 1);
        let mut moves = Vec::with_capacity(self.game.moves().len());
        let mut pos = self.game.start().clone();
        fens.push(pos.to_fen());
        for &mv in self.game.moves() {
            moves.push(json!({
                "iccs": iccs(mv),
                "text": self.notation.format(&pos, mv),
                "side": color_name(pos.side_to_move()),
            }));
            pos.make_move(mv);
            fens.push(pos.to_fen());
        }
        let at = self.cursor_game().ok();
        let at_pos = at.as_ref().map_or(self.game.position(), Game::position);
        let to_move = at_pos.side_to_move();
        let person_moves_here = match self.engine_side() {
            None => self.cursor < self.game.moves().len() || self.ending.is_none(),
            Some(engine) => {
                self.ending.is_none()
                    && self.cursor == self.game.moves().len()
                    && to_move != engine
                    && self.task != Task::Move
            }
        };
        let legal: Vec<String> = if person_moves_here {
            at_pos.legal_moves().iter().map(|&m| iccs(m)).collect()
        } else {
            Vec::new()
        };
        let in_check = at_pos
            .in_check()
            .then(|| at_pos.general_square(to_move).to_string());
        let clocks = self.clocks.as_ref().map(|c| {
            json!({
                "red_ms": c.left_ms(Color::Red),
                "black_ms": c.left_ms(Color::Black),
                "running": c.running().map(color_name),
            })
        });
        let result = self
            .ending
            .as_ref()
            .map(|e| json!({"result": e.result.pgn(), "reason": e.reason}));
        json!({
            "type": "state",
            "human": match self.human { Human::Red => "red", Human::Black => "black", Human::Both => "both" },
            "start_fen": self.game.start().to_fen(),
            "fens": fens,
            "moves": moves,
            "cursor": self.cursor,
            "side_to_move": color_name(to_move),
            "legal": legal,
            "in_check": in_check,
            "result": result,
            "thinking": self.task == Task::Move,
            "clocks": clocks,
            "notation": self.notation.name(),
            "rules": self.engine.options().rules.rule_set.title(),
            "level": self.level,
            "analysis": self.analysis_on,
        })
        .to_string()
    }
}

/// The start position `startpos` or a FEN names.
fn start_position(text: &str) -> Result<Position, String> {
    if text.trim().eq_ignore_ascii_case("startpos") {
        return Ok(Position::startpos());
    }
    Position::from_fen(text.trim()).map_err(|e| format!("bad FEN: {e}"))
}

/// Clocks from the page's setting, checked.
fn clocks_of(t: TimeSetting) -> Result<Clocks, String> {
    let ok = |s: f64| s.is_finite() && (0.0..=MAX_CLOCK_S).contains(&s);
    if !ok(t.base_s) || t.base_s == 0.0 || !ok(t.inc_s) {
        return Err(format!(
            "time {}+{}: give a base of more than 0 and at most {MAX_CLOCK_S} s, and an \
             increment of 0 to {MAX_CLOCK_S} s",
            t.base_s, t.inc_s
        ));
    }
    // In range and finite: the casts cannot overflow.
    let ms = |s: f64| (s * 1000.0).round() as u64;
    Ok(Clocks::new(ms(t.base_s), ms(t.inc_s)))
}

/// A decisive or drawn result tag's value.
fn recorded_result(text: Option<&str>) -> Option<GameResult> {
    match text? {
        "1-0" => Some(GameResult::RedWins),
        "0-1" => Some(GameResult::BlackWins),
        "1/2-1/2" => Some(GameResult::Draw),
        _ => None,
    }
}
