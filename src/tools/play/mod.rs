//! `cotuong play`: a game against the engine in the terminal. The player types moves in any
//! notation and commands (`help` lists them); the engine answers, the referee of engine-core
//! ends the game (mate, stalemate, perpetual check or chase, the 60-move rule) and says why,
//! naming the article of the Law. On a pipe it reads lines and prints plain text, so scripts
//! drive it the same way.
//!
//! The files: the arguments and the game loop here, the board in [`board`], the commands in
//! [`command`], the player's moves in [`move_input`], the engine in [`opponent`], its time in
//! [`limits`] and the PGN of `save` in [`record`].

mod board;
mod command;
mod errors;
mod limits;
mod move_input;
mod opponent;
pub(super) mod record;

use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::str::FromStr;
use std::time::Instant;

use clap::{Args, ValueEnum};
use cotuong::engine::{Offer, ENGINE_NAME};
use cotuong::game::Game;
use cotuong::search::{is_mate, mate_moves};
use engine_core::{move_text, Color, Notation, Position, RankBase, RuleOptions};

use super::output_file::write_output;
use board::Style;
use command::{Command, Level, HELP};
use limits::{EngineClock, TimeControl};
use opponent::Opponent;
use record::Ending;

/// Centipawns per pawn, for scores shown to the player.
const CENTIPAWNS_PER_PAWN: f64 = 100.0;
/// The player's name in the PGN.
const PLAYER_NAME: &str = "Human";
/// Plies one `undo` takes back on the player's turn: the engine's reply and the player's move.
const UNDO_PLIES: usize = 2;

/// The player's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum SideArg {
    /// Red, who moves first.
    Red,
    /// Black.
    Black,
}

/// Arguments of `cotuong play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The side you play.
    #[arg(long, value_enum, default_value = "red")]
    pub side: SideArg,
    /// Engine strength: `Skill Level` 0-20 (default 20, full strength).
    #[arg(long, value_name = "N")]
    pub level: Option<String>,
    /// Engine strength as an Elo rating (`UCI_Elo` with `UCI_LimitStrength`).
    #[arg(long, value_name = "ELO", conflicts_with = "level")]
    pub elo: Option<String>,
    /// The engine thinks this many milliseconds a move (default 1000).
    #[arg(long, value_name = "MS", conflicts_with_all = ["time", "nodes"], value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// The engine's clock, BASE+INC in seconds (e.g. 60+1); your own time is not counted.
    #[arg(long, value_name = "BASE+INC", conflicts_with = "nodes", value_parser = TimeControl::from_str)]
    pub time: Option<TimeControl>,
    /// The engine searches this many nodes a move (the same moves every run).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Start position: a FEN, or `startpos` (the default).
    #[arg(long)]
    pub fen: Option<String>,
    /// Pieces as FEN letters (upper case Red) instead of Chinese characters; moves are then
    /// printed in WXF notation unless --notation says otherwise.
    #[arg(long)]
    pub ascii: bool,
    /// Notation of the moves printed (default chinese): iccs, wxf, chinese, vietnamese,
    /// vietnamese-asian or san. Moves are read in any of them.
    #[arg(long, value_parser = Notation::from_str)]
    pub notation: Option<Notation>,
}

/// Runs `cotuong play` on standard input and output.
pub fn main(args: &PlayArgs) -> ExitCode {
    let colour = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let style = Style {
        ascii: args.ascii,
        colour,
    };
    let mut session = match Session::new(args, style) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    session.run(std::io::stdin().lock());
    super::stdout::exit(session.output_error.map_or(Ok(()), Err), 1)
}

/// Whether the loop goes on after a line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// A game in progress against the engine.
struct Session {
    opponent: Opponent,
    game: Game,
    human: Color,
    /// The side drawn at the bottom.
    bottom: Color,
    style: Style,
    notation: Notation,
    clock: EngineClock,
    rules: RuleOptions,
    ending: Option<Ending>,
    /// The engine offered a draw with its last move; `draw` accepts it.
    engine_offers_draw: bool,
    /// Prompt for input (standard input is a terminal).
    prompt: bool,
    /// Why standard output could not be written (closed, or a full disk): nothing more to say.
    output_error: Option<String>,
    /// The engine's strength as the PGN records it (`Skill Level 20`, `Elo 1500`).
    level: String,
    /// The game as last saved (start, moves, ending), to tell whether `quit` would lose it.
    saved: Option<GameSnapshot>,
    /// The last command was a `quit` that was answered with the offer to save.
    quit_offered: bool,
}

/// What `save` wrote of a game: start position, moves and ending.
type GameSnapshot = (String, Vec<engine_core::Move>, Option<Ending>);

/// A score of the side to move for people: pawns from `viewer`'s side, or a mate.
fn score_text(score: i32, side_to_move: Color, viewer: Color) -> String {
    let own = if side_to_move == viewer {
        score
    } else {
        -score
    };
    if is_mate(own) {
        let n = mate_moves(own);
        if n > 0 {
            format!("mates in {n}")
        } else {
            format!("is mated in {}", -n)
        }
    } else {
        format!("{:+.2}", f64::from(own) / CENTIPAWNS_PER_PAWN)
    }
}

/// The side of a [`SideArg`].
fn color_of(side: SideArg) -> Color {
    match side {
        SideArg::Red => Color::Red,
        SideArg::Black => Color::Black,
    }
}

impl Session {
    fn new(args: &PlayArgs, style: Style) -> Result<Session, String> {
        let mut opponent = Opponent::new()?;
        if let Some(level) = &args.level {
            opponent.set_option("Skill Level", level)?;
        }
        if let Some(elo) = &args.elo {
            opponent.set_option("UCI_LimitStrength", "true")?;
            opponent.set_option("UCI_Elo", elo)?;
        }
        let control = match (args.movetime, args.time, args.nodes) {
            (_, _, Some(n)) => TimeControl::Nodes(n),
            (_, Some(tc), _) => tc,
            (Some(ms), _, _) => TimeControl::MoveTime(ms),
            _ => TimeControl::default(),
        };
        let start = match &args.fen {
            Some(fen) => start_position(fen)?,
            None => Position::startpos(),
        };
        let notation = args.notation.unwrap_or(if args.ascii {
            Notation::Wxf
        } else {
            Notation::Chinese
        });
        let human = color_of(args.side);
        let level = match (&args.level, &args.elo) {
            (_, Some(elo)) => format!("Elo {}", elo.trim()),
            (Some(level), None) => format!("Skill Level {}", level.trim()),
            (None, None) => format!("Skill Level {}", cotuong::options::MAX_SKILL_LEVEL),
        };
        Ok(Session {
            rules: opponent.options().rules.clone(),
            opponent,
            game: Game::new(start),
            human,
            bottom: human,
            style,
            notation,
            clock: EngineClock::new(control),
            ending: None,
            engine_offers_draw: false,
            prompt: std::io::stdin().is_terminal(),
            output_error: None,
            level,
            saved: None,
            quit_offered: false,
        })
    }

    /// Writes lines to standard output; once it fails, the session ends.
    fn say(&mut self, text: &str) {
        let mut out = super::stdout::writer();
        if let Err(e) = writeln!(out, "{text}").and_then(|()| out.flush()) {
            self.output_error = Some(super::stdout::describe(&e));
        }
    }

    fn warnings(&mut self) {
        for w in self.opponent.take_warnings() {
            eprintln!("warning: {w}");
        }
    }

    /// Plays the game: reads lines from `input` until `quit` or its end.
    fn run(&mut self, mut input: impl BufRead) {
        self.warnings();
        let intro = format!(
            "{ENGINE_NAME}: you play {}; the engine thinks {}. Type a move ({}, {}, {}, {}) or help.",
            self.human.name(),
            self.clock.describe(),
            Notation::Chinese.example(),
            Notation::Wxf.example(),
            Notation::Iccs(RankBase::Zero).example(),
            Notation::Vietnamese.example(),
        );
        self.say(&intro);
        self.start_game();
        let mut line = Vec::new();
        while self.output_error.is_none() {
            if self.prompt {
                let mut out = std::io::stdout().lock();
                let _ = write!(out, "{}> ", self.game.position().side_to_move().name());
                let _ = out.flush();
            }
            line.clear();
            match input.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let text = String::from_utf8_lossy(&line).into_owned();
            if self.handle(&text) == Flow::Quit {
                break;
            }
        }
    }

    /// The referee's look at a game just set up, the engine's move if it is its turn, the board.
    fn start_game(&mut self) {
        self.ending = None;
        self.engine_offers_draw = false;
        self.referee();
        self.engine_turn();
        self.show_board();
    }

    fn handle(&mut self, line: &str) -> Flow {
        let quit_offered = std::mem::take(&mut self.quit_offered);
        let cmd = match command::parse(line) {
            Ok(c) => c,
            Err(e) => {
                self.say(&format!("? {e}; 'help' lists the commands"));
                return Flow::Continue;
            }
        };
        match cmd {
            Command::Empty => {}
            Command::Move(text) => self.human_move(&text),
            Command::Undo => self.undo(),
            Command::Hint => self.hint(),
            Command::New => {
                if let Err(e) = self.opponent.new_game() {
                    self.say(&format!("? {e}"));
                }
                self.clock.reset();
                self.game = Game::startpos();
                self.say("New game.");
                self.start_game();
            }
            Command::Side(side) => {
                let side = side.unwrap_or(self.human.opponent());
                self.human = side;
                self.bottom = side;
                self.say(&format!("You play {}.", side.name()));
                self.engine_turn();
                self.show_board();
            }
            Command::Level(level) => self.level(&level),
            Command::Time(control) => {
                self.clock = EngineClock::new(control);
                let text = format!("The engine thinks {}.", self.clock.describe());
                self.say(&text);
            }
            Command::Fen(None) => {
                let text = format!("FEN: {}", self.game.position().to_fen());
                self.say(&text);
            }
            Command::Fen(Some(fen)) => match start_position(&fen) {
                Ok(start) => {
                    self.game = Game::new(start);
                    self.clock.reset();
                    self.say("New game from the position.");
                    self.start_game();
                }
                Err(e) => self.say(&format!("? {e}")),
            },
            Command::Save(path) => self.save(&path),
            Command::Flip => {
                self.bottom = self.bottom.opponent();
                self.show_board();
            }
            Command::Resign => {
                if self.over_already() {
                    return Flow::Continue;
                }
                self.end(Ending::resignation(self.human, false));
            }
            Command::Draw => self.draw(),
            Command::Help => {
                for line in HELP {
                    self.say(line);
                }
            }
            // A game typed on a terminal is not thrown away by one word; a script means it.
            Command::Quit if self.prompt && !quit_offered && self.unsaved() => {
                self.say("The game is not saved: 'save FILE' keeps it, 'quit' again leaves.");
                self.quit_offered = true;
            }
            Command::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    /// The game as `save` would write it now.
    fn snapshot(&self) -> GameSnapshot {
        (
            self.game.start().to_fen(),
            self.game.moves().to_vec(),
            self.ending.clone(),
        )
    }

    /// Whether the game has moves that no `save` has written.
    fn unsaved(&self) -> bool {
        !self.game.moves().is_empty() && self.saved.as_ref() != Some(&self.snapshot())
    }

    /// Says so when the game is over; true then.
    fn over_already(&mut self) -> bool {
        if self.ending.is_some() {
            self.say("The game is over: new, undo, fen, save or quit.");
        }
        self.ending.is_some()
    }

    /// The game ends: the reason and the result.
    fn end(&mut self, ending: Ending) {
        let text = format!(
            "Game over: {}. Result {}.",
            ending.reason,
            ending.result.pgn()
        );
        self.say(&text);
        self.ending = Some(ending);
    }

    /// Ends the game if the referee says it is over.
    fn referee(&mut self) {
        if self.ending.is_some() {
            return;
        }
        if let Some(v) = self.game.verdict(&self.rules) {
            self.end(Ending {
                result: v.result,
                rule: Some(v.rule),
                reason: v.explanation,
            });
        }
    }

    fn show_board(&mut self) {
        let pos = self.game.position().clone();
        let last = self.game.moves().last().copied();
        for line in board::render(&pos, last, self.bottom, self.style) {
            self.say(&line);
        }
        let status = match &self.ending {
            Some(e) => format!("Game over ({}).", e.result.pgn()),
            None if pos.side_to_move() == self.human => {
                format!("{} to move (you).", pos.side_to_move().name())
            }
            None => format!("{} to move (the engine).", pos.side_to_move().name()),
        };
        self.say(&status);
    }

    fn human_move(&mut self, text: &str) {
        if self.over_already() {
            return;
        }
        let pos = self.game.position().clone();
        let mv = match move_input::read_move(&pos, text) {
            Ok(mv) => mv,
            Err(why) => {
                let hint = move_input::bad_input_hint(&pos, &why, self.notation);
                self.say(&hint);
                return;
            }
        };
        let shown = self.notation.format(&pos, mv);
        if self.game.play(mv).is_err() {
            self.say(&format!("? '{}' is not legal here", text.trim()));
            return;
        }
        self.engine_offers_draw = false;
        self.say(&format!("You play {shown}."));
        self.referee();
        self.engine_turn();
        self.show_board();
    }

    /// The engine moves if it is its turn and the game goes on.
    fn engine_turn(&mut self) {
        if self.ending.is_some() || self.game.position().side_to_move() == self.human {
            return;
        }
        let started = Instant::now();
        let answer = self.opponent.search(&self.game, self.clock.request());
        self.clock.charge(started.elapsed());
        self.warnings();
        let answer = match answer {
            Ok(a) => a,
            Err(e) => {
                self.say(&format!("? the engine failed: {e}"));
                return;
            }
        };
        let engine = self.human.opponent();
        let Some(mv) = answer.best else {
            self.referee();
            return;
        };
        if answer.offer == Some(Offer::Resign) {
            self.end(Ending::resignation(engine, true));
            return;
        }
        let pos = self.game.position().clone();
        let shown = self.notation.format(&pos, mv);
        if self.game.play(mv).is_err() {
            self.say("? the engine chose an illegal move");
            return;
        }
        let score = answer.score.map_or(String::new(), |s| {
            format!(
                " (its score {}, depth {})",
                score_text(s, pos.side_to_move(), engine),
                answer.depth
            )
        });
        self.say(&format!(
            "Cotuong plays {shown} [{}]{score}.",
            move_text(mv, RankBase::Zero)
        ));
        self.referee();
        if answer.offer == Some(Offer::Draw) && self.ending.is_none() {
            self.engine_offers_draw = true;
            self.say("Cotuong offers a draw: type draw to accept, or play on.");
        }
    }

    /// Takes back the player's last move and the engine's reply to it.
    fn undo(&mut self) {
        let moves = self.game.moves().to_vec();
        let back = if self.game.position().side_to_move() == self.human {
            UNDO_PLIES
        } else {
            1
        };
        if moves.len() < back {
            self.say("? nothing of yours to take back");
            return;
        }
        let kept = &moves[..moves.len() - back];
        let Ok(game) = Game::from_moves(self.game.start().clone(), kept) else {
            self.say("? cannot replay the game");
            return;
        };
        let texts = self
            .notation
            .format_line(game.position(), &moves[kept.len()..]);
        self.game = game;
        self.ending = None;
        self.engine_offers_draw = false;
        self.say(&format!("Took back {}.", texts.join(" ")));
        self.show_board();
    }

    fn hint(&mut self) {
        if self.over_already() {
            return;
        }
        let pos = self.game.position().clone();
        match self.opponent.search(&self.game, self.clock.quick_request()) {
            Ok(answer) => match answer.best {
                Some(mv) => {
                    let score = answer.score.map_or(String::new(), |s| {
                        format!(
                            " (your score {})",
                            score_text(s, pos.side_to_move(), self.human)
                        )
                    });
                    let text = format!(
                        "Hint: {} [{}]{score}.",
                        self.notation.format(&pos, mv),
                        move_text(mv, RankBase::Zero)
                    );
                    self.say(&text);
                }
                None => self.say("? no legal move to suggest"),
            },
            Err(e) => self.say(&format!("? the engine failed: {e}")),
        }
        self.warnings();
    }

    /// The player offers a draw (or accepts the engine's): the engine looks at the position
    /// briefly and accepts when it stands clearly worse.
    fn draw(&mut self) {
        if self.over_already() {
            return;
        }
        let engine = self.human.opponent();
        if self.engine_offers_draw {
            self.end(Ending::agreed_draw(engine, true));
            return;
        }
        let pos = self.game.position().clone();
        let answer = self.opponent.search(&self.game, self.clock.quick_request());
        self.warnings();
        let score = match answer {
            Ok(a) => a.score.unwrap_or(0),
            Err(e) => {
                self.say(&format!("? the engine failed: {e}"));
                return;
            }
        };
        let view = score_text(score, pos.side_to_move(), engine);
        if record::engine_accepts_draw(score, pos.side_to_move(), engine) {
            self.say(&format!("Cotuong accepts the draw (its score {view})."));
            self.end(Ending::agreed_draw(engine, false));
        } else {
            self.say(&format!(
                "Cotuong declines the draw (its score {view}); play on."
            ));
        }
    }

    fn level(&mut self, level: &Level) {
        let set = match level {
            Level::Skill(n) => self
                .opponent
                .set_option("UCI_LimitStrength", "false")
                .and_then(|()| self.opponent.set_option("Skill Level", n))
                .map(|()| format!("Skill Level {n}")),
            Level::Elo(n) => self
                .opponent
                .set_option("UCI_LimitStrength", "true")
                .and_then(|()| self.opponent.set_option("UCI_Elo", n))
                .map(|()| format!("Elo {n}")),
        };
        match set {
            Ok(what) => {
                self.say(&format!("The engine plays at {what}."));
                self.level = what;
            }
            Err(e) => self.say(&format!("? {e}")),
        }
    }

    fn save(&mut self, path: &std::path::Path) {
        let (red, black) = match self.human {
            Color::Red => (PLAYER_NAME, ENGINE_NAME),
            Color::Black => (ENGINE_NAME, PLAYER_NAME),
        };
        let engine = record::EngineSettings {
            level: &self.level,
            time_control: self.clock.control().pgn_tag(),
        };
        let text = record::pgn_text(
            record::Venue::Terminal,
            &self.game,
            red,
            black,
            self.ending.as_ref(),
            self.notation,
            &engine,
        );
        match write_output(path, text.as_bytes()) {
            Ok(()) => {
                self.saved = Some(self.snapshot());
                if path != std::path::Path::new("-") {
                    self.say(&format!("Saved the game to {}.", path.display()));
                }
            }
            Err(e) => self.say(&format!("? {e}")),
        }
    }
}

/// The position `startpos` or a FEN names; a composed position is accepted with its warnings on
/// standard error.
fn start_position(text: &str) -> Result<Position, String> {
    if text.trim().eq_ignore_ascii_case("startpos") {
        return Ok(Position::startpos());
    }
    let (pos, warnings) =
        Position::from_fen_with_warnings(text.trim()).map_err(|e| format!("bad FEN: {e}"))?;
    if !warnings.is_empty() {
        eprintln!("warning: {warnings}");
    }
    Ok(pos)
}
