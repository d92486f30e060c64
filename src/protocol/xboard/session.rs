//! An XBoard session: the game state CECP leaves to the engine (the game itself, force mode, the
//! side the engine plays, clocks and limits, analysis, pondering) on top of the protocol-free
//! [`Engine`].
//!
//! The game lives here, shared with the engine's listener: the search thread's best move is
//! played into it, written as `move m`, and the referee's verdict on the game is checked after
//! every move, the engine's or the opponent's (claims per [`Claims`]). Every search is started
//! for a purpose (a move, analysis, pondering); a search ended by `force`, `undo`, `new` and the
//! like is waited for with its purpose cleared, so its move is never played.

use super::command::XCommand;
use super::errors::reason;
use super::options::{Claims, XboardSettings};
use super::output as xo;
use crate::engine::{Engine, Event, Listener, Offer};
use crate::game::Game;
use crate::options::{self, OptionKind};
use crate::protocol::command::Command;
use crate::protocol::output::Output;
use crate::protocol::session::Flow;
use crate::protocol::Input;
use crate::search::{SearchRequest, SideClock};
use engine_core::{Color, GameResult, Move, Position, RankBase, RuleId, RuleOptions};
use std::sync::{Arc, Mutex, MutexGuard};

/// Think time per move when the GUI gave no time control, depth or node limit.
const DEFAULT_MOVE_MS: u64 = 5_000;
/// Moves assumed left on a sudden-death clock when `nps` turns the clock into nodes.
const NPS_MOVES_LEFT: u64 = 30;
/// The reason of the error lines while the last `setboard` stands refused.
const NO_BOARD: &str = "no valid position";

/// Which side the engine plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Mode {
    /// Neither (`force`).
    Force,
    /// This one.
    Play(Color),
    /// Analysis: search the position until it changes.
    Analyze,
}

/// What the running search is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Purpose {
    /// No search, or one whose result is to be dropped.
    Idle,
    /// The engine's move: it is played when it comes.
    Move,
    /// Analysis: only its thinking lines are shown.
    Analyze,
    /// Pondering on the expected reply.
    Ponder(Move),
}

/// What the session and the listener share.
struct Shared {
    game: Game,
    mode: Mode,
    purpose: Purpose,
    post: bool,
    ponder: bool,
    /// A result was claimed or received: the engine does not move until a new game.
    over: bool,
    claims: Claims,
    rules: RuleOptions,
    /// The expected reply after the engine's last move (`hint`, pondering).
    hint: Option<Move>,
}

impl Shared {
    /// After a move: the claim of the referee's verdict (and its explanation as a comment) when
    /// the engine plays a side and the claim policy allows it; otherwise at most a comment.
    fn claim_lines(&mut self) -> Vec<String> {
        let Mode::Play(me) = self.mode else {
            return Vec::new();
        };
        if self.over {
            return Vec::new();
        }
        let Some(v) = self.game.verdict(&self.rules) else {
            return Vec::new();
        };
        let claim = match self.claims {
            Claims::All => true,
            Claims::Safe => {
                matches!(v.rule, RuleId::Checkmate | RuleId::Stalemate)
                    || v.result == GameResult::win_for(me.opponent())
            }
        };
        let explanation = xo::comment(&format!("referee: {}", v.explanation));
        if claim {
            self.over = true;
            vec![explanation, xo::result_line(&v)]
        } else {
            vec![
                explanation,
                xo::comment(&format!(
                    "not claimed ({}; option Result claims=All claims it)",
                    xo::result_line(&v)
                )),
            ]
        }
    }
}

/// Clocks and limits as the GUI set them.
#[derive(Clone, Debug, Default)]
struct Limits {
    /// `time`: the engine's clock (centiseconds).
    own_cs: Option<i64>,
    /// `otim`: the opponent's.
    opp_cs: Option<i64>,
    /// `level`: moves per control (0: all), base and increment.
    mps: u32,
    base_ms: u64,
    inc_ms: u64,
    /// `st`: fixed time per move.
    st_ms: Option<u64>,
    /// `sd`: depth limit.
    sd: Option<u32>,
    /// `nps`: nodes per second of clock.
    nps: Option<u64>,
}

/// An XBoard session.
pub struct XboardSession {
    engine: Engine,
    out: Output,
    shared: Arc<Mutex<Shared>>,
    settings: XboardSettings,
    limits: Limits,
    /// The opponent offered a draw before its move (`draw`).
    draw_offered: bool,
    /// The last `setboard` was refused (its reason told with `tellusererror`), so the GUI's board
    /// is not the shared game: searches and moves are refused until `new` or a good `setboard`.
    no_board: bool,
}

fn lock(shared: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    shared.lock().unwrap_or_else(|p| p.into_inner())
}

/// The engine's events, for the XBoard wire.
fn on_event(e: Event, shared: &Mutex<Shared>, out: &Output, tx: &crossbeam_channel::Sender<Input>) {
    let mut s = lock(shared);
    match e {
        Event::Info(info) => {
            if s.post || s.purpose == Purpose::Analyze {
                if let Some(line) = xo::thinking(&info) {
                    out.line(&line);
                }
            }
        }
        Event::BestMove {
            best,
            ponder,
            offer,
        } => {
            if s.purpose != Purpose::Move {
                return;
            }
            s.purpose = Purpose::Idle;
            if offer == Some(Offer::Resign) {
                s.over = true;
                out.line("resign");
                return;
            }
            let mut lines = Vec::new();
            if offer == Some(Offer::Draw) {
                lines.push("offer draw".to_string());
            }
            if s.game.play(best).is_err() {
                out.line(&xo::comment("error: the search answered an illegal move"));
                return;
            }
            lines.push(xo::move_line(best));
            s.hint = ponder;
            lines.extend(s.claim_lines());
            out.lines(&lines);
            if s.ponder && !s.over && ponder.is_some() {
                let plies = s.game.moves().len();
                let _ = tx.send(Ok(Command::Xboard(XCommand::PonderAfter(plies))));
            }
        }
        Event::NoMove { .. } => {
            if s.purpose == Purpose::Move {
                s.purpose = Purpose::Idle;
                let lines = s.claim_lines();
                out.lines(&lines);
            }
        }
        Event::Error(text) => out.line(&xo::comment(&format!("error: {text}"))),
        Event::StaticEval { .. } | Event::RuleVerdict(_) => {}
    }
}

impl XboardSession {
    /// A session writing to `out`; `tx` is the session's own input, where it queues work for
    /// itself (pondering after its move).
    pub fn new(out: Output, tx: crossbeam_channel::Sender<Input>) -> Result<XboardSession, String> {
        let settings = XboardSettings::default();
        let shared = Arc::new(Mutex::new(Shared {
            game: Game::startpos(),
            mode: Mode::Play(Color::Black),
            purpose: Purpose::Idle,
            post: false,
            ponder: false,
            over: false,
            claims: settings.claims,
            rules: RuleOptions::default(),
            hint: None,
        }));
        let (o, s) = (out.clone(), Arc::clone(&shared));
        let listener: Listener = Arc::new(move |e: Event| on_event(e, &s, &o, &tx));
        let engine = Engine::new(listener).map_err(|e| reason(&e))?;
        lock(&shared).rules = engine.options().rules.clone();
        Ok(XboardSession {
            engine,
            out,
            shared,
            settings,
            limits: Limits::default(),
            draw_offered: false,
            no_board: false,
        })
    }

    fn shared(&self) -> MutexGuard<'_, Shared> {
        lock(&self.shared)
    }

    fn error(&self, reason: &str, command: &str) {
        self.out.line(&xo::error(reason, command));
    }

    /// A line that could not be read (not UTF-8).
    pub fn input_error(&self, text: &str) {
        self.error("bad input", text);
    }

    /// Whether the last `setboard` was refused; if so, `command` gets an error line saying so.
    fn without_board(&self, command: &str) -> bool {
        if self.no_board {
            self.error(NO_BOARD, command);
        }
        self.no_board
    }

    /// Ends any search without playing its move, and waits for it.
    fn halt(&mut self) {
        self.shared().purpose = Purpose::Idle;
        self.engine.stop_and_wait();
    }

    /// Applies one command.
    pub fn handle(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Xboard(x) => self.xboard(x),
            Command::Quit => {
                self.halt();
                self.engine.quit();
                return Flow::Quit;
            }
            _ => {}
        }
        Flow::Continue
    }

    fn xboard(&mut self, x: XCommand) {
        match x {
            XCommand::Xboard | XCommand::Ignored | XCommand::Status => {}
            XCommand::Protover(n) => {
                if n >= 2 {
                    self.out.lines(&xo::features());
                }
            }
            XCommand::New => {
                self.halt();
                self.no_board = false;
                {
                    let mut s = self.shared();
                    s.game = Game::startpos();
                    s.mode = Mode::Play(Color::Black);
                    s.over = false;
                    s.hint = None;
                }
                self.limits.sd = None;
                self.draw_offered = false;
                if let Err(e) = self.engine.new_game() {
                    self.error(&reason(&e), "new");
                }
            }
            XCommand::Variant(v) => {
                if !v.eq_ignore_ascii_case("xiangqi") {
                    self.error("unsupported variant", &format!("variant {v}"));
                }
            }
            XCommand::Force => {
                self.halt();
                self.shared().mode = Mode::Force;
            }
            XCommand::Go => {
                if self.without_board("go") {
                    return;
                }
                self.halt();
                {
                    let mut s = self.shared();
                    s.mode = Mode::Play(s.game.position().side_to_move());
                    s.over = false;
                }
                self.start_move();
            }
            XCommand::PlayOther => {
                self.halt();
                let mut s = self.shared();
                s.mode = Mode::Play(s.game.position().side_to_move().opponent());
            }
            XCommand::UserMove(text) => self.user_move(&text),
            XCommand::Time(cs) => self.limits.own_cs = Some(cs),
            XCommand::Otim(cs) => self.limits.opp_cs = Some(cs),
            XCommand::Level {
                mps,
                base_ms,
                inc_ms,
            } => {
                self.limits.mps = mps;
                self.limits.base_ms = base_ms;
                self.limits.inc_ms = inc_ms;
                self.limits.st_ms = None;
            }
            XCommand::St(ms) => self.limits.st_ms = Some(ms.max(1)),
            XCommand::Sd(d) => self.limits.sd = Some(d),
            XCommand::Nps(n) => self.limits.nps = (n > 0).then_some(n),
            XCommand::SetBoard(fen) => self.set_board(&fen),
            XCommand::Undo => self.take_back(1, "undo"),
            XCommand::Remove => self.take_back(2, "remove"),
            XCommand::Result(_) => {
                self.halt();
                let mut s = self.shared();
                s.over = true;
                s.mode = Mode::Force;
            }
            XCommand::Draw => self.draw_offered = true,
            XCommand::Hard => self.shared().ponder = true,
            XCommand::Easy => {
                let pondering = {
                    let mut s = self.shared();
                    s.ponder = false;
                    matches!(s.purpose, Purpose::Ponder(_))
                };
                if pondering {
                    self.halt();
                }
            }
            XCommand::Post => self.shared().post = true,
            XCommand::NoPost => self.shared().post = false,
            XCommand::Memory(mb) => {
                self.set_engine_option("Hash", Some(&mb.to_string()), &format!("memory {mb}"))
            }
            XCommand::Cores(n) => {
                self.set_engine_option("Threads", Some(&n.to_string()), &format!("cores {n}"))
            }
            XCommand::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            XCommand::Ping(n) => self.out.line(&format!("pong {n}")),
            XCommand::Help => self.out.lines(&crate::protocol::help::lines(Some(
                crate::protocol::Dialect::Xboard,
            ))),
            XCommand::MoveNow => {
                if self.shared().purpose == Purpose::Move {
                    self.engine.stop();
                }
            }
            XCommand::Hint => {
                if let Some(h) = self.shared().hint {
                    self.out.line(&format!("Hint: {}", xo::mv(h)));
                }
            }
            XCommand::Analyze => {
                self.halt();
                self.shared().mode = Mode::Analyze;
                // Analysis starts when a position is accepted.
                if !self.without_board("analyze") {
                    self.start_analysis();
                }
            }
            XCommand::Exit => {
                self.halt();
                self.shared().mode = Mode::Force;
            }
            XCommand::PonderAfter(plies) => self.start_ponder(plies),
            XCommand::Bad { reason, line } => self.error(&reason, &line),
        }
    }

    /// A move of the opponent (or of the user in force mode).
    fn user_move(&mut self, text: &str) {
        if self.no_board {
            // `Illegal move` makes the GUI take the move back, so it waits for no answer.
            self.out.line(&xo::illegal_move(NO_BOARD, text));
            return;
        }
        let parsed = self
            .shared()
            .game
            .position()
            .parse_move(text, RankBase::Zero);
        let mv = match parsed {
            Ok(mv) => mv,
            Err(e) => {
                self.out.line(&xo::illegal_move(&e.to_string(), text));
                return;
            }
        };
        // The expected reply while pondering: the ponder search goes on as the real one.
        let hit = {
            let mut s = self.shared();
            if s.purpose == Purpose::Ponder(mv) && s.game.play(mv).is_ok() {
                s.purpose = Purpose::Move;
                true
            } else {
                false
            }
        };
        if hit {
            if let Err(e) = self.engine.ponderhit(self.draw_offered) {
                self.out
                    .line(&xo::comment(&format!("error: {}", reason(&e))));
            }
            self.draw_offered = false;
            return;
        }
        self.halt();
        let (lines, mode, move_now) = {
            let mut s = self.shared();
            if s.game.play(mv).is_err() {
                drop(s);
                self.out.line(&xo::illegal_move("not legal here", text));
                return;
            }
            let lines = s.claim_lines();
            let to_move = s.game.position().side_to_move();
            let move_now = s.mode == Mode::Play(to_move) && !s.over;
            (lines, s.mode, move_now)
        };
        self.out.lines(&lines);
        if mode == Mode::Analyze {
            self.start_analysis();
        } else if move_now {
            self.start_move();
        }
    }

    fn set_board(&mut self, fen: &str) {
        self.halt();
        match Position::from_fen(fen) {
            Ok(pos) => {
                self.no_board = false;
                let analyze = {
                    let mut s = self.shared();
                    s.game = Game::new(pos);
                    s.over = false;
                    s.hint = None;
                    s.mode == Mode::Analyze
                };
                if analyze {
                    self.start_analysis();
                }
            }
            Err(e) => {
                self.out
                    .line(&format!("tellusererror Illegal position: {e}"));
                self.shared().hint = None;
                self.no_board = true;
            }
        }
    }

    /// `undo` (one ply) and `remove` (two).
    fn take_back(&mut self, plies: usize, command: &str) {
        if self.without_board(command) {
            return;
        }
        self.halt();
        let analyze = {
            let mut s = self.shared();
            let n = s.game.moves().len();
            if n < plies {
                drop(s);
                self.error("no move to take back", command);
                return;
            }
            let start = s.game.start().clone();
            let moves = s.game.moves()[..n - plies].to_vec();
            match Game::from_moves(start, &moves) {
                Ok(g) => s.game = g,
                Err(_) => unreachable!("a prefix of a legal game is legal"),
            }
            s.over = false;
            s.mode == Mode::Analyze
        };
        if analyze {
            self.start_analysis();
        }
    }

    /// `option NAME=VALUE`: an XBoard setting or an engine option (`-check` values 0/1 too).
    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let command = match value {
            Some(v) => format!("option {name}={v}"),
            None => format!("option {name}"),
        };
        if let Some(set) = self.settings.set(name, value) {
            match set {
                Ok(()) => self.shared().claims = self.settings.claims,
                Err(options::OptionError::BadValue(msg) | options::OptionError::Unknown(msg)) => {
                    self.error(&msg, &command)
                }
            }
            return;
        }
        let is_check =
            options::find(name).is_some_and(|s| matches!(s.kind, OptionKind::Check { .. }));
        let value = match value {
            Some("1") if is_check => Some("true"),
            Some("0") if is_check => Some("false"),
            v => v,
        };
        self.set_engine_option(name, value, &command);
    }

    fn set_engine_option(&mut self, name: &str, value: Option<&str>, command: &str) {
        match self.engine.set_option(name, value) {
            Ok(()) => self.shared().rules = self.engine.options().rules.clone(),
            Err(e) => self.error(&reason(&e), command),
        }
    }

    /// The limits of the engine's next move in `game`.
    fn request(&self, game: &Game) -> SearchRequest {
        let l = &self.limits;
        let mut r = SearchRequest {
            depth: l.sd.map(|d| i32::try_from(d).unwrap_or(i32::MAX)),
            ..SearchRequest::default()
        };
        if let Some(st) = l.st_ms {
            match l.nps {
                Some(nps) => r.nodes = Some(nps.saturating_mul(st) / 1000),
                None => r.movetime_ms = Some(st),
            }
            return r;
        }
        let own_ms = match l.own_cs {
            Some(cs) => Some(u64::try_from(cs.max(0)).unwrap_or(0).saturating_mul(10)),
            None => (l.base_ms > 0).then_some(l.base_ms),
        };
        let Some(time_ms) = own_ms else {
            if r.depth.is_none() {
                r.movetime_ms = Some(DEFAULT_MOVE_MS);
            }
            return r;
        };
        let movestogo = (l.mps > 0).then(|| {
            let side = game.position().side_to_move();
            let n = game.moves().len();
            let mine = (n + usize::from(side != game.start().side_to_move())) / 2;
            l.mps - (mine % l.mps as usize) as u32
        });
        match l.nps {
            Some(nps) => {
                let per_move_ms =
                    time_ms / u64::from(movestogo.unwrap_or(NPS_MOVES_LEFT as u32)) + l.inc_ms;
                r.nodes = Some(nps.saturating_mul(per_move_ms) / 1000);
            }
            None => {
                r.clock = Some(SideClock {
                    time_ms,
                    inc_ms: l.inc_ms,
                    movestogo,
                })
            }
        }
        r
    }

    /// Starts the engine's move in the shared game.
    fn start_move(&mut self) {
        let game = self.shared().game.clone();
        if game.position().legal_moves().is_empty() {
            return;
        }
        if let Err(e) = self.engine.set_game(game.clone()) {
            self.out
                .line(&xo::comment(&format!("error: {}", reason(&e))));
            return;
        }
        let request = self.request(&game);
        self.shared().purpose = Purpose::Move;
        let draw = std::mem::take(&mut self.draw_offered);
        if let Err(e) = self.engine.go(request, draw) {
            self.shared().purpose = Purpose::Idle;
            self.out
                .line(&xo::comment(&format!("error: {}", reason(&e))));
        }
    }

    /// Starts (or restarts) the analysis of the shared game.
    fn start_analysis(&mut self) {
        let game = self.shared().game.clone();
        if game.position().legal_moves().is_empty() {
            return;
        }
        if self.engine.set_game(game).is_err() {
            return;
        }
        self.shared().purpose = Purpose::Analyze;
        let request = SearchRequest {
            infinite: true,
            ..SearchRequest::default()
        };
        if let Err(e) = self.engine.go(request, false) {
            self.shared().purpose = Purpose::Idle;
            self.out
                .line(&xo::comment(&format!("error: {}", reason(&e))));
        }
    }

    /// After the engine's move (the game then had `plies` plies): ponder on the expected reply,
    /// if nothing has happened since.
    fn start_ponder(&mut self, plies: usize) {
        let (game, expected) = {
            let s = self.shared();
            let Mode::Play(me) = s.mode else { return };
            let ready = s.ponder
                && !s.over
                && s.purpose == Purpose::Idle
                && s.game.moves().len() == plies
                && s.game.position().side_to_move() != me;
            let Some(expected) = s.hint.filter(|_| ready) else {
                return;
            };
            let mut game = s.game.clone();
            if game.play(expected).is_err() || game.position().legal_moves().is_empty() {
                return;
            }
            (game, expected)
        };
        if self.engine.set_game(game.clone()).is_err() {
            return;
        }
        let request = SearchRequest {
            ponder: true,
            ..self.request(&game)
        };
        self.shared().purpose = Purpose::Ponder(expected);
        if self.engine.go(request, false).is_err() {
            self.shared().purpose = Purpose::Idle;
        }
    }
}
