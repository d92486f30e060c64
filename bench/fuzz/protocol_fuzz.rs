//! A long protocol fuzz of the `cotuong` binary: per dialect (UCI, UCCI, XBoard) it feeds a
//! stream of lines (valid commands with random arguments, mutations of them, token soup and raw
//! bytes) and every few hundred lines asks `isready` (XBoard: `ping N`). An answer that does not
//! come within the hang limit is a hang; an engine that exits by itself is a crash. After either
//! the engine is restarted and the run goes on, so that one run counts them all.
//!
//! ```sh
//! cargo build --release
//! cargo run --release -p cotuong-bench --bin protocol-fuzz -- \
//!     --engine target/release/cotuong --lines 1000000 --dialect all --seed 1
//! ```
//!
//! The lines before each hang are written to `--log-dir` (one file per hang) to replay them.

use cotuong_bench::PROTOCOL_WORDS;
use engine_core::{move_text, Position, RankBase, SplitMix64};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// XBoard `ping` numbers of the fuzz's own syncs start here, far from any the lines send.
const PING_BASE: u64 = 7_000_000_000;
/// The lines kept for a hang's log.
const HISTORY: usize = 400;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Dialect {
    Uci,
    Ucci,
    Xboard,
}

impl Dialect {
    fn name(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Ucci => "ucci",
            Dialect::Xboard => "xboard",
        }
    }
}

struct Args {
    engine: PathBuf,
    lines: u64,
    dialects: Vec<Dialect>,
    seed: u64,
    sync_min: u64,
    sync_max: u64,
    hang: Duration,
    log_dir: PathBuf,
}

fn usage() -> ! {
    eprintln!(
        "usage: protocol-fuzz --engine PATH [--lines N (1000000)] [--dialect uci|ucci|xboard|all] \
         [--seed N (1)] [--sync-every MIN MAX (100 500)] [--hang-secs S (30)] [--log-dir DIR (.)]"
    );
    std::process::exit(2)
}

fn parse_args() -> Args {
    let mut args = Args {
        engine: PathBuf::from("target/release/cotuong"),
        lines: 1_000_000,
        dialects: vec![Dialect::Uci, Dialect::Ucci, Dialect::Xboard],
        seed: 1,
        sync_min: 100,
        sync_max: 500,
        hang: Duration::from_secs(30),
        log_dir: PathBuf::from("."),
    };
    let mut it = std::env::args().skip(1);
    let number =
        |v: Option<String>| -> u64 { v.and_then(|v| v.parse().ok()).unwrap_or_else(|| usage()) };
    while let Some(a) = it.next() {
        match a.as_str() {
            "--engine" => args.engine = it.next().map(PathBuf::from).unwrap_or_else(|| usage()),
            "--lines" => args.lines = number(it.next()),
            "--seed" => args.seed = number(it.next()),
            "--sync-every" => {
                args.sync_min = number(it.next()).max(1);
                args.sync_max = number(it.next()).max(args.sync_min);
            }
            "--hang-secs" => args.hang = Duration::from_secs(number(it.next()).max(1)),
            "--log-dir" => args.log_dir = it.next().map(PathBuf::from).unwrap_or_else(|| usage()),
            "--dialect" => {
                args.dialects = match it.next().as_deref() {
                    Some("uci") => vec![Dialect::Uci],
                    Some("ucci") => vec![Dialect::Ucci],
                    Some("xboard") => vec![Dialect::Xboard],
                    Some("all") => vec![Dialect::Uci, Dialect::Ucci, Dialect::Xboard],
                    _ => usage(),
                }
            }
            _ => usage(),
        }
    }
    args
}

const UCI_OPTIONS: &[(&str, &[&str])] = &[
    ("Hash", &["1", "8", "16", "32"]),
    ("Threads", &["1", "2"]),
    ("MultiPV", &["1", "2", "3"]),
    ("Ponder", &["true", "false"]),
    ("Move Overhead", &["0", "30", "100"]),
    ("Clear Hash", &[]),
    ("EvalFile", &["<embedded>", "no-such.nnue"]),
    ("Use NNUE", &["true", "false"]),
    ("RuleSet", &["Vietnamese", "Asian"]),
    ("Skill Level", &["0", "10", "20"]),
    ("UCI_LimitStrength", &["true", "false"]),
    ("UCI_Elo", &["526", "1500", "2120"]),
    ("NoCaptureMoves", &["0", "60", "200"]),
    ("CheckCounting", &["PerSide", "Total", "All"]),
    ("CheckCap", &["0", "5"]),
    ("CheckVsChase", &["CheckerLoses", "Draw"]),
    ("ImmobileTargetRule", &["true", "false"]),
    ("RepetitionThreshold", &["2", "3", "5"]),
    ("BareMaterialDraw", &["true", "false"]),
    ("UCI_ShowWDL", &["true", "false"]),
    ("UCI_Variant", &["xiangqi"]),
    ("RanksOneToTen", &["true", "false"]),
];

const UCCI_OPTIONS: &[(&str, &[&str])] = &[
    ("hashsize", &["1", "8", "16"]),
    ("threads", &["1", "2"]),
    ("multipv", &["1", "2"]),
    ("ponder", &["true", "false"]),
    ("moveoverhead", &["0", "30"]),
    ("newgame", &[]),
    ("evalfile", &["<embedded>"]),
    ("usennue", &["true", "false"]),
    ("ruleset", &["vietnamese", "asian"]),
    ("knowledge", &["none", "small", "medium", "large"]),
    ("randomness", &["none", "small", "medium", "large"]),
    ("nocapturemoves", &["0", "60"]),
    ("checkcounting", &["perside", "total", "all"]),
    ("repetitionthreshold", &["2", "3"]),
    ("usemillisec", &["true", "false"]),
];

const XBOARD_OPTIONS: &[(&str, &[&str])] = &[
    ("MultiPV", &["1", "2"]),
    ("Ponder", &["0", "1"]),
    ("Move Overhead", &["0", "30"]),
    ("Clear Hash", &[]),
    ("Use NNUE", &["0", "1"]),
    ("RuleSet", &["Vietnamese", "Asian"]),
    ("Skill Level", &["0", "20"]),
    ("UCI_LimitStrength", &["0", "1"]),
    ("UCI_Elo", &["1500"]),
    ("Result claims", &["Safe", "All"]),
    ("RepetitionThreshold", &["2", "3"]),
];

/// The generator: random numbers and a game that valid move lists follow.
struct Gen {
    rng: SplitMix64,
    dialect: Dialect,
    /// Moves played from the start position by the last valid `position` / XBoard moves.
    game: Vec<String>,
    pos: Position,
}

impl Gen {
    fn new(seed: u64, dialect: Dialect) -> Gen {
        Gen {
            rng: SplitMix64::stream(seed, dialect as u64),
            dialect,
            game: Vec::new(),
            pos: Position::startpos(),
        }
    }

    fn below(&mut self, n: u64) -> u64 {
        self.rng.below(n.max(1))
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// A random legal move of the current position, played; `None` when there is none.
    fn play_random(&mut self) -> Option<String> {
        let moves = self.pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let mv = moves[self.below(moves.len() as u64) as usize];
        self.pos.make_move(mv);
        let text = move_text(mv, RankBase::Zero);
        self.game.push(text.clone());
        Some(text)
    }

    /// A fresh random game of up to `max` plies.
    fn random_game(&mut self, max: u64) {
        self.pos = Position::startpos();
        self.game.clear();
        for _ in 0..self.below(max + 1) {
            if self.play_random().is_none() {
                break;
            }
        }
    }

    /// A legal move of the current position, not played.
    fn some_legal_move(&mut self) -> String {
        let moves = self.pos.legal_moves();
        if moves.is_empty() {
            return "h2e2".into();
        }
        move_text(
            moves[self.below(moves.len() as u64) as usize],
            RankBase::Zero,
        )
    }

    fn option_line(&mut self, options: &[(&str, &[&str])]) -> String {
        let (name, values) = options[self.below(options.len() as u64) as usize];
        let value = (!values.is_empty()).then(|| self.pick(values));
        match (self.dialect, value) {
            (Dialect::Uci, Some(v)) => format!("setoption name {name} value {v}"),
            (Dialect::Uci, None) => format!("setoption name {name}"),
            (Dialect::Ucci, Some(v)) => format!("setoption {name} {v}"),
            (Dialect::Ucci, None) => format!("setoption {name}"),
            (Dialect::Xboard, Some(v)) => format!("option {name}={v}"),
            (Dialect::Xboard, None) => format!("option {name}"),
        }
    }

    fn position_line(&mut self) -> String {
        self.random_game(60);
        if self.chance(30) && !self.game.is_empty() {
            // The position reached as a FEN, then some of its moves again.
            let fen = self.pos.to_fen();
            self.game.clear();
            let extra: Vec<String> = (0..self.below(4))
                .filter_map(|_| self.play_random())
                .collect();
            let moves = if extra.is_empty() {
                String::new()
            } else {
                format!(" moves {}", extra.join(" "))
            };
            return format!("position fen {fen}{moves}");
        }
        if self.game.is_empty() {
            "position startpos".into()
        } else {
            format!("position startpos moves {}", self.game.join(" "))
        }
    }

    fn go_line(&mut self) -> String {
        let ucci = self.dialect == Dialect::Ucci;
        let n = self.below(14);
        match n {
            0 => format!("go depth {}", 1 + self.below(6)),
            1 => format!("go nodes {}", 100 + self.below(20_000)),
            2 if ucci => format!("go time {} increment 0", 1 + self.below(3)),
            2 => format!("go movetime {}", 1 + self.below(100)),
            3 => "go infinite".into(),
            4 => "go ponder".into(),
            5 if ucci => format!("go depth {}", self.below(3)),
            5 => format!("go mate {}", 1 + self.below(3)),
            6 => format!("go perft {}", 1 + self.below(3)),
            7 if ucci => "go draw depth 2".into(),
            7 => format!("go depth 3 searchmoves {}", self.some_legal_move()),
            8 if ucci => format!(
                "go time {} increment {} opptime 100 oppincrement 1",
                50 + self.below(500),
                self.below(5)
            ),
            8 => format!(
                "go wtime {} btime {} winc 10 binc 10",
                self.below(5000),
                self.below(5000)
            ),
            9 => "go".into(),
            _ => format!("go depth {}", 1 + self.below(4)),
        }
    }

    /// A command the dialect understands, with arguments in range.
    fn valid(&mut self) -> String {
        match self.dialect {
            Dialect::Uci | Dialect::Ucci => self.valid_uci(),
            Dialect::Xboard => self.valid_xboard(),
        }
    }

    fn valid_uci(&mut self) -> String {
        let ucci = self.dialect == Dialect::Ucci;
        match self.below(20) {
            0..=3 => self.position_line(),
            4..=8 => self.go_line(),
            9..=11 => "stop".into(),
            12 => if ucci && self.chance(50) {
                "ponderhit draw"
            } else {
                "ponderhit"
            }
            .into(),
            13 => "ucinewgame".into(),
            14 => {
                let options = if ucci { UCCI_OPTIONS } else { UCI_OPTIONS };
                self.option_line(options)
            }
            15 => self.pick(&["d", "eval", "bench 1", "uci"]).into(),
            16 => format!("probe startpos moves {}", self.some_legal_move()),
            17 => format!("banmoves {}", self.some_legal_move()),
            18 => "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1".into(),
            _ => format!("position startpos moves {} z9z9", self.some_legal_move()),
        }
    }

    fn valid_xboard(&mut self) -> String {
        match self.below(24) {
            0 => {
                self.random_game(0);
                "new".into()
            }
            1 => "force".into(),
            2 => "go".into(),
            3 => "playother".into(),
            4..=7 => {
                let mv = self.play_random().unwrap_or_else(|| "h2e2".into());
                if self.chance(50) {
                    format!("usermove {mv}")
                } else {
                    mv
                }
            }
            8 => format!("time {}", self.below(10_000)),
            9 => format!("otim {}", self.below(10_000)),
            10 => self
                .pick(&[
                    "level 40 5 0",
                    "level 0 1 0",
                    "level 0 0:30 0.1",
                    "st 1",
                    "st 0.05",
                ])
                .into(),
            11 => format!("sd {}", 1 + self.below(5)),
            12 => format!("nps {}", self.below(3) * 10_000),
            13 => {
                self.random_game(40);
                format!("setboard {}", self.pos.to_fen())
            }
            14 => "setboard 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1".into(),
            15 => self.pick(&["undo", "remove"]).into(),
            16 => self
                .pick(&["result 1-0 {resign}", "draw", "hard", "easy"])
                .into(),
            17 => self.pick(&["post", "nopost", "hint", "?", "."]).into(),
            18 => self.pick(&["analyze", "exit"]).into(),
            19 => self
                .pick(&["memory 8", "memory 16", "cores 1", "cores 2"])
                .into(),
            20 => self.option_line(XBOARD_OPTIONS),
            21 => self
                .pick(&[
                    "accepted setboard",
                    "rejected colors",
                    "random",
                    "computer",
                    "variant xiangqi",
                ])
                .into(),
            22 => "protover 2".into(),
            _ => "usermove z9z9".into(),
        }
    }

    fn token_soup(&mut self) -> Vec<u8> {
        let words: Vec<&str> = (0..self.below(8))
            .map(|_| self.pick(PROTOCOL_WORDS))
            .collect();
        words.join(" ").into_bytes()
    }

    fn raw_bytes(&mut self) -> Vec<u8> {
        (0..self.below(40)).map(|_| self.below(256) as u8).collect()
    }

    /// A valid command with one to three small changes.
    fn mutated(&mut self) -> Vec<u8> {
        let mut line = self.valid().into_bytes();
        for _ in 0..1 + self.below(3) {
            let len = line.len() as u64;
            match self.below(6) {
                0 if len > 0 => {
                    line.remove(self.below(len) as usize);
                }
                1 => {
                    let b = if self.chance(70) {
                        b' ' + self.below(95) as u8
                    } else {
                        self.below(256) as u8
                    };
                    line.insert(self.below(len + 1) as usize, b);
                }
                2 if len > 0 => {
                    let i = self.below(len) as usize;
                    line[i] = self.below(256) as u8;
                }
                3 if len > 0 => line.truncate(self.below(len) as usize),
                4 => {
                    let text = String::from_utf8_lossy(&line).into_owned();
                    let mut words: Vec<&str> = text.split(' ').collect();
                    let i = self.below(words.len() as u64) as usize;
                    let j = self.below(words.len() as u64) as usize;
                    words.swap(i, j);
                    line = words.join(" ").into_bytes();
                }
                _ => {
                    let word = self.pick(PROTOCOL_WORDS).as_bytes().to_vec();
                    let at = self.below(len + 1) as usize;
                    line.splice(at..at, word.into_iter().chain([b' ']));
                }
            }
        }
        line
    }

    /// The next line: valid, mutated or random, made safe to send.
    fn line(&mut self) -> Vec<u8> {
        loop {
            let line = match self.below(100) {
                0..=44 => self.valid().into_bytes(),
                45..=74 => self.mutated(),
                75..=89 => self.token_soup(),
                _ => self.raw_bytes(),
            };
            if let Some(line) = self.safe(line) {
                return line;
            }
        }
    }

    /// The line without what would end the session, answer the fuzz's own syncs, or run for
    /// minutes (deep perft or bench, huge tables); `None` to draw another.
    fn safe(&mut self, line: Vec<u8>) -> Option<Vec<u8>> {
        let line: Vec<u8> = line
            .into_iter()
            .map(|b| if b == b'\n' { b' ' } else { b })
            .collect();
        let Ok(text) = std::str::from_utf8(&line) else {
            // Not UTF-8: the engine refuses the whole line.
            return Some(line);
        };
        let mut words: Vec<String> = text.split_whitespace().map(String::from).collect();
        let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
        if matches!(
            lower.first().map(String::as_str),
            Some("quit" | "isready" | "ping")
        ) {
            return None;
        }
        let has = |w: &str| lower.iter().any(|l| l.contains(w));
        // Every number of the line is capped by the smallest limit any of its words calls for.
        let mut limit = None::<u64>;
        let mut cap_at = |max: u64| limit = Some(limit.map_or(max, |l| l.min(max)));
        if has("hash") || has("memory") {
            cap_at(64);
        }
        if has("thread") || has("cores") {
            cap_at(4);
        }
        if has("perft") {
            cap_at(3);
        }
        let bench = lower.first().is_some_and(|w| w.starts_with("bench"));
        if bench {
            cap_at(2);
        }
        let Some(max) = limit else {
            return Some(line);
        };
        for w in words.iter_mut() {
            if w.parse::<u64>().is_ok_and(|n| n > max) || w.starts_with(['-', '+']) {
                *w = "1".to_string();
            }
        }
        if bench && words.len() == 1 {
            words.push("1".into());
        }
        Some(words.join(" ").into_bytes())
    }
}

/// A running engine: its input, and its answers to the fuzz's syncs.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    /// Sync answers (`readyok`, `pong N`), `None` at the end of output.
    answers: Receiver<Option<String>>,
    /// Lines the engine printed on standard error that say it panicked.
    panics: Receiver<String>,
}

impl Engine {
    fn start(path: &PathBuf, dialect: Dialect) -> std::io::Result<Engine> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(std::io::Error::other("no pipes"));
        };
        let (tx, answers) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let line = String::from_utf8_lossy(&buf);
                let line = line.trim_end();
                let answer = line == "readyok" || line.starts_with("pong ");
                if answer && tx.send(Some(line.to_string())).is_err() {
                    return;
                }
            }
            let _ = tx.send(None);
        });
        let (ptx, panics) = mpsc::channel();
        std::thread::spawn(move || {
            let mut text = String::new();
            let mut reader = BufReader::new(stderr);
            loop {
                text.clear();
                let mut bytes = Vec::new();
                match reader.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => text.push_str(&String::from_utf8_lossy(&bytes)),
                }
                if text.contains("panicked") && ptx.send(text.trim_end().to_string()).is_err() {
                    return;
                }
            }
        });
        let mut e = Engine {
            child,
            stdin,
            answers,
            panics,
        };
        let hello: &[u8] = match dialect {
            Dialect::Uci => b"uci\n",
            Dialect::Ucci => b"ucci\n",
            Dialect::Xboard => b"xboard\nprotover 2\n",
        };
        e.stdin.write_all(hello)?;
        Ok(e)
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What one dialect's run measured.
#[derive(Default)]
struct Report {
    lines: u64,
    syncs: u64,
    hangs: u64,
    crashes: u64,
    panics: u64,
    bad_exit: u64,
    latencies_us: Vec<u64>,
    seconds: f64,
}

enum Sync {
    Answered(Duration),
    Hung,
    Ended,
}

/// Sends the sync and waits for its answer.
fn sync(e: &mut Engine, dialect: Dialect, n: u64, hang: Duration) -> Sync {
    let (line, expected) = match dialect {
        Dialect::Xboard => {
            let id = PING_BASE + n;
            (format!("ping {id}\n"), format!("pong {id}"))
        }
        Dialect::Uci | Dialect::Ucci => ("isready\n".to_string(), "readyok".to_string()),
    };
    if e.stdin.write_all(line.as_bytes()).is_err() || e.stdin.flush().is_err() {
        return Sync::Ended;
    }
    let sent = Instant::now();
    let deadline = sent + hang;
    loop {
        match e
            .answers
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(Some(a)) if a == expected => return Sync::Answered(sent.elapsed()),
            Ok(Some(_)) => {}
            Ok(None) | Err(RecvTimeoutError::Disconnected) => return Sync::Ended,
            Err(RecvTimeoutError::Timeout) => return Sync::Hung,
        }
    }
}

fn run(args: &Args, dialect: Dialect) -> std::io::Result<Report> {
    let mut gen = Gen::new(args.seed, dialect);
    let mut report = Report::default();
    let mut history: std::collections::VecDeque<Vec<u8>> = Default::default();
    let mut engine = Engine::start(&args.engine, dialect)?;
    let start = Instant::now();
    let mut next_sync = args.sync_min + gen.below(args.sync_max - args.sync_min + 1);
    let mut since_sync = 0;
    let mut last_report = Instant::now();
    while report.lines < args.lines {
        let line = gen.line();
        let mut bytes = line.clone();
        bytes.push(b'\n');
        let written = engine.stdin.write_all(&bytes);
        history.push_back(line);
        if history.len() > HISTORY {
            history.pop_front();
        }
        report.lines += 1;
        since_sync += 1;
        if written.is_err() {
            since_sync = next_sync;
        }
        if since_sync < next_sync && report.lines < args.lines {
            continue;
        }
        since_sync = 0;
        next_sync = args.sync_min + gen.below(args.sync_max - args.sync_min + 1);
        report.syncs += 1;
        let outcome = sync(&mut engine, dialect, report.syncs, args.hang);
        while let Ok(p) = engine.panics.try_recv() {
            report.panics += 1;
            eprintln!("{}: engine panicked: {p}", dialect.name());
        }
        let failed = match outcome {
            Sync::Answered(t) => {
                report.latencies_us.push(t.as_micros() as u64);
                None
            }
            Sync::Hung => {
                report.hangs += 1;
                Some("hang")
            }
            Sync::Ended => {
                report.crashes += 1;
                Some("exit")
            }
        };
        if let Some(what) = failed {
            let file = args.log_dir.join(format!(
                "protocol-fuzz-{}-{}-line{}.txt",
                dialect.name(),
                what,
                report.lines
            ));
            let mut text = Vec::new();
            text.extend_from_slice(match dialect {
                Dialect::Uci => b"uci\n".as_slice(),
                Dialect::Ucci => b"ucci\n",
                Dialect::Xboard => b"xboard\nprotover 2\n",
            });
            for l in &history {
                text.extend_from_slice(l);
                text.push(b'\n');
            }
            let _ = std::fs::write(&file, text);
            eprintln!(
                "{}: {what} after line {}; the last {} lines: {}",
                dialect.name(),
                report.lines,
                history.len(),
                file.display()
            );
            engine.kill();
            engine = Engine::start(&args.engine, dialect)?;
            history.clear();
        }
        if last_report.elapsed() > Duration::from_secs(30) {
            last_report = Instant::now();
            eprintln!(
                "{}: {} lines, {} syncs, {} hangs, {} crashes, {:.0} s",
                dialect.name(),
                report.lines,
                report.syncs,
                report.hangs,
                report.crashes,
                start.elapsed().as_secs_f64()
            );
        }
    }
    // The end: `quit` must end the engine, with status 0.
    let _ = engine.stdin.write_all(b"quit\n");
    let _ = engine.stdin.flush();
    let deadline = Instant::now() + args.hang;
    let status = loop {
        if let Ok(Some(s)) = engine.child.try_wait() {
            break Some(s);
        }
        if Instant::now() > deadline {
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    if !status.is_some_and(|s| s.success()) {
        report.bad_exit += 1;
        eprintln!("{}: quit ended the engine with {status:?}", dialect.name());
    }
    engine.kill();
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

fn main() {
    let args = parse_args();
    let mut failed = false;
    println!(
        "{:<7} {:>9} {:>7} {:>6} {:>7} {:>6} {:>8} {:>9} {:>9} {:>9} {:>9}",
        "dialect",
        "lines",
        "syncs",
        "hangs",
        "crashes",
        "panics",
        "time s",
        "lines/s",
        "sync p50",
        "sync p99",
        "sync max"
    );
    for &dialect in &args.dialects {
        let mut r = match run(&args, dialect) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: cannot run {}: {e}", args.engine.display());
                std::process::exit(1);
            }
        };
        r.latencies_us.sort_unstable();
        println!(
            "{:<7} {:>9} {:>7} {:>6} {:>7} {:>6} {:>8.0} {:>9.0} {:>7.1}ms {:>7.1}ms {:>7.1}ms",
            dialect.name(),
            r.lines,
            r.syncs,
            r.hangs,
            r.crashes + r.bad_exit,
            r.panics,
            r.seconds,
            r.lines as f64 / r.seconds.max(1e-9),
            percentile(&r.latencies_us, 0.5),
            percentile(&r.latencies_us, 0.99),
            percentile(&r.latencies_us, 1.0),
        );
        failed |= r.hangs + r.crashes + r.panics + r.bad_exit > 0;
    }
    std::process::exit(i32::from(failed));
}
