//! `cotuong gui` at the HTTP and WebSocket level, as a browser and as a hostile page would reach
//! it: the page and its WebSocket need the run's token, the server's own name and, for the
//! WebSocket, the page's own origin; a session plays, refuses bad requests without changing
//! anything, analyses and reviews. The browser's own tests are in `tests/gui/e2e.py`.
//!
//! They start servers, so they run where only loopback exists: `tests/gui/run_tests.sh` (which
//! `.ci/run` calls) runs them with `--ignored` in a network namespace of their own.

use base64::Engine as _;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

const BIN: &str = env!("CARGO_BIN_EXE_cotuong");
/// Longest wait for one answer of the server.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

/// A running `cotuong gui`, stopped when dropped.
struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    host: String,
    token: String,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(BIN)
            .args(["gui", "--no-browser"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cotuong gui starts");
        let stdout = child.stdout.take().expect("a pipe");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("its first line");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("an address in {line:?}"));
        let rest = url.trim_start_matches("http://");
        let (host, token) = rest.split_once("/?token=").expect("host and token");
        assert!(
            host.starts_with("127.0.0.1:"),
            "loopback by default: {host}"
        );
        Server {
            host: host.to_string(),
            token: token.to_string(),
            child,
        }
    }

    /// The status code of a raw HTTP/1.1 GET of `path` with `Host: host` and `extra` headers.
    fn get(&self, path: &str, host: &str, extra: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.host).expect("connects");
        stream
            .set_read_timeout(Some(ANSWER_TIMEOUT))
            .expect("a timeout");
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Connection: close\r\n\r\n"
        )
        .expect("request sent");
        let mut answer = Vec::new();
        // A 101 answer keeps the connection open: read what came, up to the timeout.
        let mut buf = [0u8; 65536];
        loop {
            match stream.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    answer.extend_from_slice(&buf[..n]);
                    if answer.starts_with(b"HTTP/1.1 101") {
                        break;
                    }
                }
                Err(_) => break,
            }
        }
        let text = String::from_utf8_lossy(&answer).to_string();
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("a status line in {text:?}"));
        (status, text)
    }

    /// A WebSocket as the page opens it.
    fn connect(&self) -> Page {
        let url = format!("ws://{}/ws?token={}", self.host, self.token);
        let mut request = url.into_client_request().expect("a request");
        let origin = format!("http://{}", self.host);
        request
            .headers_mut()
            .insert("Origin", origin.parse().expect("a header value"));
        let stream = TcpStream::connect(&self.host).expect("connects");
        stream
            .set_read_timeout(Some(ANSWER_TIMEOUT))
            .expect("a timeout");
        let (socket, _) = tungstenite::client(request, stream).expect("the handshake");
        Page { socket }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The page's side of a session.
struct Page {
    socket: WebSocket<TcpStream>,
}

impl Page {
    fn send(&mut self, message: Value) {
        self.socket
            .send(Message::text(message.to_string()))
            .expect("sent");
    }

    fn next(&mut self) -> Value {
        loop {
            match self.socket.read().expect("a message") {
                Message::Text(t) => return serde_json::from_str(&t).expect("JSON"),
                Message::Close(_) => panic!("the server closed the socket"),
                _ => {}
            }
        }
    }

    /// The next message of `kind`, skipping others (fails on an unexpected `error`).
    fn until(&mut self, kind: &str) -> Value {
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        while Instant::now() < deadline {
            let m = self.next();
            if m["type"] == kind {
                return m;
            }
            assert_ne!(m["type"], "error", "unexpected {m}");
        }
        panic!("no {kind} message in time");
    }

    /// The next `state` for which `done` holds.
    fn state_until(&mut self, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        while Instant::now() < deadline {
            let s = self.until("state");
            if done(&s) {
                return s;
            }
        }
        panic!("no such state in time");
    }

    /// The `error` the last request earned; no `state` may come before it (nothing changed).
    fn error(&mut self) -> String {
        let m = self.next();
        assert_eq!(m["type"], "error", "{m}");
        m["message"].as_str().expect("a message").to_string()
    }
}

fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["iccs"].as_str().expect("iccs").to_string())
        .collect()
}

/// The initial position without Black's chariots: the engine as Black stands clearly worse.
const BLACK_WITHOUT_CHARIOTS: &str =
    "1nbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

const UPGRADE: &str = "Upgrade: websocket\r\nConnection: Upgrade\r\n\
                       Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n";

#[test]
#[ignore = "starts a server: tests/gui/run_tests.sh runs it with only loopback"]
fn the_page_needs_the_token_and_the_servers_own_name() {
    let server = Server::start();
    let host = server.host.clone();
    let with_token = format!("/?token={}", server.token);
    let (status, page) = server.get(&with_token, &host, "");
    assert_eq!(status, 200);
    assert!(page.contains("app.js"), "{page}");
    assert_eq!(server.get("/", &host, "").0, 403);
    assert_eq!(server.get("/?token=00", &host, "").0, 403);
    let wrong = format!("/?token={}0", &server.token[1..]);
    assert_eq!(server.get(&wrong, &host, "").0, 403);
    // Another site's name resolved to 127.0.0.1 (DNS rebinding) is turned away.
    let port = host.rsplit(':').next().expect("a port");
    let rebound = format!("evil.example:{port}");
    assert_eq!(server.get(&with_token, &rebound, "").0, 403);
    assert_eq!(server.get("/app.js", &host, "").0, 200);
    assert_eq!(server.get("/app.js", &rebound, "").0, 403);
    let localhost = format!("localhost:{port}");
    assert_eq!(server.get(&with_token, &localhost, "").0, 200);
}

#[test]
#[ignore = "starts a server: tests/gui/run_tests.sh runs it with only loopback"]
fn the_websocket_refuses_other_origins_and_missing_tokens() {
    let server = Server::start();
    let host = server.host.clone();
    let path = format!("/ws?token={}", server.token);
    let own = format!("{UPGRADE}Origin: http://{host}\r\n");
    let evil = format!("{UPGRADE}Origin: http://evil.example\r\n");
    let other_port = format!("{UPGRADE}Origin: http://127.0.0.1:1\r\n");
    assert_eq!(server.get(&path, &host, &evil).0, 403);
    assert_eq!(server.get(&path, &host, &other_port).0, 403);
    assert_eq!(server.get(&path, &host, UPGRADE).0, 403, "no Origin");
    assert_eq!(server.get("/ws?token=nope", &host, &own).0, 403);
    assert_eq!(server.get("/ws", &host, &own).0, 403);
    assert_eq!(server.get(&path, &host, &own).0, 101);
}

#[test]
#[ignore = "starts a server: tests/gui/run_tests.sh runs it with only loopback"]
fn a_page_plays_and_bad_requests_change_nothing() {
    let server = Server::start();
    let mut page = server.connect();
    let hello = page.until("hello");
    let rules: Vec<&str> = hello["rule_options"]
        .as_array()
        .expect("rule options")
        .iter()
        .map(|o| o["name"].as_str().expect("a name"))
        .collect();
    assert!(rules.contains(&"RuleSet") && rules.contains(&"NoCaptureMoves"));
    page.until("state");
    page.send(json!({"type": "new_game", "human": "red", "movetime_ms": 50}));
    let start = page.until("state");
    assert_eq!(start["legal"].as_array().map(Vec::len), Some(44));
    page.send(json!({"type": "move", "move": "h2e2"}));
    let replied = page.state_until(|s| moves(s).len() == 2 && s["thinking"] == false);
    assert_eq!(moves(&replied)[0], "h2e2");
    assert_eq!(replied["cursor"], 2);

    // Each refusal is one error and no state: nothing changed.
    page.send(json!({"type": "move", "move": "a0a5"}));
    assert!(page.error().contains("a0a5"));
    page.send(json!({"type": "move", "move": "zz"}));
    page.error();
    page.send(json!({"type": "analyse", "on": true}));
    assert!(page.error().contains("no analysis during a game"));
    page.send(json!({"type": "goto", "ply": 9}));
    assert!(page.error().contains("2 plies"));
    page.send(json!({"type": "new_game", "fen": "rnbakabnr/9/9 w"}));
    assert!(page.error().starts_with("bad FEN"));
    page.send(json!({"type": "new_game", "level": 99}));
    page.error();
    page.send(json!({"type": "new_game", "time": {"base_s": -1}}));
    page.error();
    page.send(json!({"type": "option", "name": "Hash", "value": "1"}));
    assert!(page.error().contains("not a rule option"));
    page.send(json!({"type": "option", "name": "NoCaptureMoves", "value": "-3"}));
    page.error();
    page.send(json!({"type": "open", "name": "x.pgn", "data": "***"}));
    assert!(page.error().contains("damaged"));
    page.socket.send(Message::text("{not json")).expect("sent");
    assert!(page.error().contains("cannot read"));
    page.send(json!({"type": "goto", "ply": 1}));
    let back = page.until("state");
    assert_eq!(moves(&back), moves(&replied), "the game is as it was");
    assert_eq!(back["cursor"], 1);
    assert_eq!(back["legal"].as_array().map(Vec::len), Some(0), "browsing");

    // Undo takes back the engine's reply and the move; resigning ends the game.
    page.send(json!({"type": "undo"}));
    let undone = page.until("state");
    assert!(moves(&undone).is_empty());
    page.send(json!({"type": "resign"}));
    let over = page.until("state");
    assert_eq!(over["result"]["result"], "0-1");
    page.send(json!({"type": "save_pgn"}));
    let saved = page.until("pgn");
    let text = saved["text"].as_str().expect("PGN text");
    assert!(
        text.contains("[Result \"0-1\"]") && text.contains("Red resigns"),
        "{text}"
    );
    assert!(text.contains("[TimeControl \"st=0.05\"]"), "{text}");
    assert!(text.contains("[Event \"Cotuong GUI\"]"), "{text}");
    page.send(json!({"type": "move", "move": "h2e2"}));
    assert!(page.error().contains("over"));
}

/// The next `notice`'s text (states in between are skipped).
fn notice(page: &mut Page) -> String {
    page.until("notice")["message"]
        .as_str()
        .expect("a message")
        .to_string()
}

#[test]
#[ignore = "starts a server: tests/gui/run_tests.sh runs it with only loopback"]
fn the_engine_weighs_a_draw_offer_at_full_strength_whatever_its_level() {
    let server = Server::start();
    let mut page = server.connect();
    page.until("state");
    // Level 3 at the start: a weakened search's score would say anything; the position is level.
    page.send(json!({"type": "new_game", "human": "red", "level": 3, "time": {"base_s": 300, "inc_s": 2}}));
    let clocked = page.until("state");
    assert_eq!(clocked["clocks"]["running"], "red", "{clocked}");
    assert!(clocked["clocks"]["black_ms"] == 300_000, "{clocked}");
    page.send(json!({"type": "save_pgn"}));
    let saved = page.until("pgn");
    assert!(
        saved["text"]
            .as_str()
            .is_some_and(|t| t.contains("[TimeControl \"300+2\"]")),
        "{saved}"
    );
    page.send(json!({"type": "offer_draw"}));
    assert!(notice(&mut page).contains("considers"));
    assert!(notice(&mut page).contains("declines"));
    page.send(
        json!({"type": "new_game", "human": "red", "level": 3, "fen": BLACK_WITHOUT_CHARIOTS}),
    );
    page.until("state");
    page.send(json!({"type": "offer_draw"}));
    assert!(notice(&mut page).contains("considers"));
    assert!(notice(&mut page).contains("accepts"));
    let drawn = page.until("state");
    assert_eq!(drawn["result"]["result"], "1/2-1/2", "{drawn}");
}

#[test]
#[ignore = "starts a server: tests/gui/run_tests.sh runs it with only loopback"]
fn a_page_analyses_and_reviews_an_opened_game() {
    let server = Server::start();
    let mut page = server.connect();
    page.until("state");
    // The board editor's positions are checked: generals facing, a general out of its palace,
    // the side not to move in check.
    for (fen, why) in [
        ("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "face each other"),
        ("9/9/9/9/4k4/9/9/9/9/4K4 w - - 0 1", "palace"),
        ("3k5/9/9/9/9/9/9/9/9/3RK4 w - - 0 1", "in check"),
    ] {
        page.send(json!({"type": "set_fen", "fen": fen}));
        let error = page.error();
        assert!(error.contains(why), "{fen}: {error}");
    }
    page.send(json!({"type": "set_fen", "fen": "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1"}));
    let set = page.until("state");
    assert_eq!(set["human"], "both");
    assert_eq!(set["in_check"], "d9");
    page.send(json!({"type": "set_fen", "fen": "startpos"}));
    page.until("state");
    page.send(json!({"type": "analyse", "on": true, "multipv": 2}));
    let mut deepest = 0;
    let deadline = Instant::now() + ANSWER_TIMEOUT;
    while deepest < 4 && Instant::now() < deadline {
        let a = page.until("analysis");
        let lines = a["lines"].as_array().expect("lines");
        if let Some(first) = lines.first() {
            deepest = first["depth"].as_i64().expect("a depth");
            assert!(first["pv"].as_array().is_some_and(|pv| !pv.is_empty()));
        }
    }
    assert!(deepest >= 4, "the analysis deepens");
    page.send(json!({"type": "analyse", "on": false}));

    let pgn = "[Red \"A\"]\n[Black \"B\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n";
    let data = base64::engine::general_purpose::STANDARD.encode(pgn);
    page.send(json!({"type": "open", "name": "game.pgn", "data": data}));
    let opened = page.state_until(|s| moves(s).len() == 4);
    assert_eq!(opened["cursor"], 0);
    assert_eq!(opened["human"], "both");
    page.send(json!({"type": "review", "depth": 3}));
    let review = page.until("review");
    let game = &review["game"];
    assert_eq!(game["moves"].as_array().map(Vec::len), Some(4));
    assert_eq!(game["scores"].as_array().map(Vec::len), Some(5));
    assert!(game["red"]["accuracy"].is_number(), "{game}");
    assert_eq!(game["moves"][0]["text"], "炮二平五");
    // Another notation writes the finished review again: its moves and best lines too.
    page.send(json!({"type": "notation", "notation": "iccs"}));
    let again = page.until("review");
    let moves_again = again["game"]["moves"].as_array().expect("moves");
    assert_eq!(moves_again[0]["text"], "h2e2");
    for m in moves_again {
        let best = m["best"]["text"][0].as_str().expect("a best move");
        assert_eq!(best, m["best"]["iccs"][0], "{m}");
    }
    page.send(json!({"type": "save_pgn"}));
    let saved = page.until("pgn");
    let text = saved["text"].as_str().expect("PGN text");
    assert!(
        text.contains("[Red \"A\"]") && text.contains("1. h2e2 h9g7"),
        "{text}"
    );
}

#[test]
#[ignore = "starts a server: tests/gui/run_tests.sh runs it with only loopback"]
fn floods_and_oversized_messages_are_refused() {
    let server = Server::start();
    let mut page = server.connect();
    page.until("state");
    // Far more than the burst a page may send at once: the excess is dropped with an error.
    for _ in 0..120 {
        page.send(json!({"type": "goto", "ply": 0}));
    }
    let mut dropped = 0;
    for _ in 0..120 {
        let m = page.next();
        if m["type"] == "error" {
            assert!(
                m["message"]
                    .as_str()
                    .is_some_and(|t| t.contains("too many")),
                "{m}"
            );
            dropped += 1;
        }
    }
    assert!(dropped > 0, "a flood is cut");
    // A message over the size limit ends the connection, not the server.
    let huge = "x".repeat(4 << 20);
    let _ = page.socket.send(Message::text(huge));
    let closed = (0..200).any(|_| page.socket.read().is_err());
    assert!(closed, "the oversized message closes the socket");
    let mut again = server.connect();
    assert_eq!(again.until("hello")["type"], "hello");
}
