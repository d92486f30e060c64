//! Protocol front ends: the input thread, command parsing per dialect and output formatting.
//!
//! The first command decides the dialect (`ucci` → UCCI, anything else → UCI). The input thread
//! parses each line and sends it over a channel, so the controller (and through it the search)
//! is never blocked on stdin and `stop`/`isready` are answered while searching.

pub mod command;
pub mod output;
pub mod ucci;
pub mod uci;

use crate::engine::{Engine, Flow};
use command::{Command, Dialect};
use std::io::BufRead;

/// Reads stdin on its own thread and sends parsed commands (or parse errors).
fn spawn_input(tx: crossbeam_channel::Sender<Result<Command, String>>) {
    let spawned = std::thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut dialect: Option<Dialect> = None;
            for line in stdin.lock().lines() {
                let Ok(line) = line else {
                    break;
                };
                let first = line.split_whitespace().next();
                if dialect.is_none() && first.is_some() {
                    dialect = Some(if first == Some("ucci") {
                        Dialect::Ucci
                    } else {
                        Dialect::Uci
                    });
                }
                let parsed = command::parse(&line, dialect.unwrap_or(Dialect::Uci));
                let quit = parsed == Ok(Command::Quit);
                if tx.send(parsed).is_err() || quit {
                    return;
                }
            }
            // End of input behaves like `quit`.
            let _ = tx.send(Ok(Command::Quit));
        });
    if let Err(e) = spawned {
        output::emit(&output::error(&format!(
            "cannot start the input thread: {e}"
        )));
    }
}

/// Runs the protocol loop until `quit` or end of input.
pub fn run() {
    let (tx, rx) = crossbeam_channel::unbounded();
    spawn_input(tx);
    let mut engine = Engine::new(Dialect::Uci);
    for msg in rx {
        match msg {
            Ok(cmd) => {
                if engine.handle(cmd) == Flow::Quit {
                    break;
                }
            }
            Err(e) => output::emit(&output::error(&e)),
        }
    }
}
