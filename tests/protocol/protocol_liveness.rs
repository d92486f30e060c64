//! Liveness of the protocol loop: every command of each dialect, sent while a search runs and
//! right after `stop` (XBoard: `?`), leaves the engine answering `isready` (XBoard: `ping`)
//! within a second. A command that waits for the stopping search while holding a lock the search
//! needs to print its last lines never answers, and fails here instead of hanging a GUI.

use crate::common;

use common::Engine;
use std::time::{Duration, Instant};

/// How soon the answer to `isready` / `ping` must come.
const ANSWER_WITHIN: Duration = Duration::from_secs(1);
/// Past this an engine is taken as hung: generous, so that a slow machine is not.
const HUNG_AFTER: Duration = Duration::from_secs(20);
/// How long a search runs before the command under test arrives, in the running case.
const SEARCH_RUNS: Duration = Duration::from_millis(30);

const FEN: &str = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Dialect {
    Uci,
    Ucci,
    Xboard,
}

/// An engine in one dialect, with the numbering of its `ping`s.
struct Probe {
    e: Engine,
    dialect: Dialect,
    pings: u64,
}

impl Probe {
    /// Starts the engine and returns it with its option lines (UCI, UCCI) or features (XBoard).
    fn start(dialect: Dialect) -> (Probe, Vec<String>) {
        let mut e = Engine::start();
        let hello = match dialect {
            Dialect::Uci => {
                e.send("uci");
                e.expect_line("uciok")
            }
            Dialect::Ucci => {
                e.send("ucci");
                e.expect_line("ucciok")
            }
            Dialect::Xboard => {
                e.send("xboard");
                e.send("protover 2");
                e.expect_line("feature done=1")
            }
        };
        let probe = Probe {
            e,
            dialect,
            pings: 0,
        };
        (probe, hello)
    }

    /// Sends `isready` / `ping N` and waits for its answer: how long it took, or `None` when it
    /// did not come within [`HUNG_AFTER`].
    fn answer_time(&mut self) -> Option<Duration> {
        let expected = match self.dialect {
            Dialect::Xboard => {
                self.pings += 1;
                self.e.send(&format!("ping {}", self.pings));
                format!("pong {}", self.pings)
            }
            Dialect::Uci | Dialect::Ucci => {
                self.e.send("isready");
                "readyok".to_string()
            }
        };
        let sent = Instant::now();
        let deadline = sent + HUNG_AFTER;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let (at, line) = self.e.next_line(left)?;
            if line == expected {
                return Some(at.saturating_duration_since(sent));
            }
        }
    }

    /// Sends `lines`, then checks that the engine answers at once.
    fn check(&mut self, what: &str, lines: &[&str]) {
        for l in lines {
            self.e.send(l);
        }
        match self.answer_time() {
            Some(t) if t <= ANSWER_WITHIN => {}
            Some(t) => panic!(
                "{:?}: {what}: answered only after {t:?}; sent {lines:?}",
                self.dialect
            ),
            None => panic!(
                "{:?}: {what}: no answer within {HUNG_AFTER:?} (deadlock?); sent {lines:?}; \
                 the last lines:\n{}",
                self.dialect,
                self.tail()
            ),
        }
    }

    /// Ends whatever the last command left running and waits until the engine answers.
    fn settle(&mut self) {
        let lines: &[&str] = match self.dialect {
            Dialect::Uci | Dialect::Ucci => &["stop", "position startpos"],
            Dialect::Xboard => &["force", "new", "force"],
        };
        for l in lines {
            self.e.send(l);
        }
        if self.answer_time().is_none() {
            panic!(
                "{:?}: no answer after settling; the last lines:\n{}",
                self.dialect,
                self.tail()
            );
        }
    }

    fn tail(&self) -> String {
        let n = self.e.log.len();
        self.e.log[n.saturating_sub(20)..].join("\n")
    }

    /// The lines that start a search that runs until stopped.
    fn search(&self) -> &'static [&'static str] {
        match self.dialect {
            Dialect::Uci | Dialect::Ucci => &["position startpos", "go infinite"],
            Dialect::Xboard => &["force", "new", "st 300", "go"],
        }
    }

    fn stop(&self) -> &'static str {
        match self.dialect {
            Dialect::Uci | Dialect::Ucci => "stop",
            Dialect::Xboard => "?",
        }
    }

    /// Every command of the dialect, each after `stop` and while a search runs.
    fn every_command_stays_answered(&mut self, commands: &[String]) {
        for cmd in commands {
            let mut lines: Vec<&str> = self.search().to_vec();
            lines.extend([self.stop(), cmd.as_str()]);
            self.check(&format!("'{cmd}' right after stop"), &lines);
            self.settle();

            for l in self.search() {
                self.e.send(l);
            }
            std::thread::sleep(SEARCH_RUNS);
            self.check(&format!("'{cmd}' while searching"), &[cmd.as_str()]);
            self.settle();
        }
    }
}

/// `setoption` lines that set each option the engine announced to its default.
fn uci_option_commands(hello: &[String], ucci: bool) -> Vec<String> {
    let mut commands = Vec::new();
    for line in hello {
        let Some(rest) = line.strip_prefix("option ") else {
            continue;
        };
        let rest = rest.strip_prefix("name ").unwrap_or(rest);
        let Some((name, spec)) = rest.split_once(" type ") else {
            continue;
        };
        let default = spec.split_once(" default ").map(|(_, d)| {
            // UCCI lists `default` last; UCI may follow it with `min`/`max`/`var`.
            d.split(" min ")
                .next()
                .and_then(|d| d.split(" var ").next())
                .unwrap_or(d)
                .to_string()
        });
        commands.push(match (default, ucci) {
            (Some(d), false) => format!("setoption name {name} value {d}"),
            (None, false) => format!("setoption name {name}"),
            (Some(d), true) => format!("setoption {name} {d}"),
            (None, true) => format!("setoption {name}"),
        });
    }
    assert!(commands.len() > 10, "too few options in {hello:?}");
    commands
}

/// `option NAME=default` for each `feature option=` the engine announced.
fn xboard_option_commands(features: &[String]) -> Vec<String> {
    let mut commands = Vec::new();
    for line in features {
        let Some(spec) = line
            .strip_prefix("feature option=\"")
            .and_then(|s| s.strip_suffix('"'))
        else {
            continue;
        };
        let Some((name, kind)) = spec.split_once(" -") else {
            continue;
        };
        let mut words = kind.split_whitespace();
        let value = match words.next() {
            Some("spin" | "check") => words.next().map(str::to_string),
            Some("combo") => kind
                .split_whitespace()
                .find_map(|w| w.strip_prefix('*'))
                .map(str::to_string),
            Some("string") => Some(words.collect::<Vec<_>>().join(" ")),
            _ => None,
        };
        commands.push(match value {
            Some(v) => format!("option {name}={v}"),
            None => format!("option {name}"),
        });
    }
    assert!(commands.len() > 10, "too few options in {features:?}");
    commands
}

/// What UCI and UCCI share, with small arguments where a command's work grows with them.
fn shared_commands() -> Vec<String> {
    [
        "ucinewgame",
        "position startpos",
        "position startpos moves h2e2 h9g7",
        &format!("position fen {FEN}"),
        "position fen not-a-fen",
        "position startpos moves z9z9",
        "go depth 1",
        "go nodes 2000",
        "go infinite",
        "go ponder",
        "go depth 2 searchmoves h2e2",
        "go perft 1",
        "go perft 3",
        "stop",
        "ponderhit",
        "d",
        "eval",
        "bench 1",
        "probe startpos",
        "probe startpos moves h2e2",
        "banmoves h2e2",
        "setoption name NoSuchOption value 1",
        "frobnicate",
        "",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

#[test]
fn uci_answers_isready_after_every_command() {
    let (mut p, hello) = Probe::start(Dialect::Uci);
    let mut commands = vec!["uci".to_string()];
    commands.extend(shared_commands());
    commands.extend(
        [
            "go movetime 50",
            "go wtime 1000 btime 1000 winc 10 binc 10",
            "go mate 1",
            "go",
        ]
        .map(String::from),
    );
    commands.extend(uci_option_commands(&hello, false));
    p.every_command_stays_answered(&commands);
    p.e.quit();
}

#[test]
fn ucci_answers_isready_after_every_command() {
    let (mut p, hello) = Probe::start(Dialect::Ucci);
    let mut commands = vec!["ucci".to_string()];
    commands.extend(shared_commands());
    commands.extend(
        [
            "go time 1 increment 0",
            "go depth 0",
            "go draw depth 1",
            "go ponder time 1",
            "ponderhit draw",
            "setoption usemillisec false",
        ]
        .map(String::from),
    );
    commands.extend(uci_option_commands(&hello, true));
    p.every_command_stays_answered(&commands);
    p.e.quit();
}

#[test]
fn xboard_answers_ping_after_every_command() {
    let (mut p, features) = Probe::start(Dialect::Xboard);
    let mut commands: Vec<String> = [
        "xboard",
        "protover 2",
        "accepted setboard",
        "rejected colors",
        "new",
        "variant xiangqi",
        "variant chess",
        "force",
        "go",
        "playother",
        "usermove h2e2",
        "h2e2",
        "usermove z9z9",
        "time 1000",
        "otim 1000",
        "level 40 5 0",
        "st 1",
        "sd 2",
        "nps 0",
        "nps 100000",
        &format!("setboard {FEN}"),
        "setboard not-a-fen",
        "undo",
        "remove",
        "result 1-0 {resign}",
        "draw",
        "hard",
        "easy",
        "post",
        "nopost",
        "memory 16",
        "cores 1",
        "ping 0",
        "?",
        "hint",
        "analyze",
        "exit",
        ".",
        "random",
        "computer",
        "name Somebody",
        "rating 2000 2000",
        "white",
        "black",
        "frobnicate",
        "",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    commands.extend(xboard_option_commands(&features));
    p.every_command_stays_answered(&commands);
    p.e.quit();
}
