//! Protocol front end: everything UCI, UCCI or XBoard, none of it in the engine. The input thread
//! reads lines, parses them per dialect (`parse`: `command`, `uci`, `ucci`, `xboard::parse`) and
//! sends typed commands over a channel; the `session::Session` (UCI and UCCI) or the
//! `xboard::XboardSession` applies them to the engine and writes its answers and events as wire
//! text (`output`, `xboard::output`), with the settings only the wire reads in `wire_options` and
//! `xboard::options`. The XBoard dialect is the folder `xboard/`. These submodules are private
//! (the names above are their paths in this folder, for the reader of the source); outside it
//! only [`run`], [`run_with`] and the items re-exported below are seen.
//!
//! The first command decides the dialect (`ucci` → UCCI, `xboard` → XBoard, anything else →
//! UCI). Input is read on
//! its own thread, so the engine (and through it the search) is never blocked on stdin, and
//! `stop`/`isready` are answered while searching. Input is read as bytes: a line that is not
//! valid UTF-8 (a GBK-encoded name from a Chinese GUI, say) gets one `info string error` and is
//! skipped, and the session goes on.

mod command;
mod dialect;
mod engine_errors;
mod help;
mod output;
mod parse;
mod rank_hint;
mod session;
mod ucci;
mod uci;
mod wire_options;
mod xboard;

// What the binary, the tools and the tests use: the dialect a session speaks, the output a
// session writes to (a test writes into memory), and the win/draw/loss model of the scores.
pub use dialect::Dialect;
pub use output::{wdl, Output};

use command::{excerpt, Command};
use session::{Flow, Session};
use std::io::{BufRead, BufReader, Read};
use xboard::XboardSession;

/// What the input thread sends: a command, or why a line was not one.
pub(crate) type Input = Result<Command, String>;

/// The session of the dialect the first command chose.
enum AnySession {
    /// UCI or UCCI.
    Uci(Session),
    /// XBoard.
    Xboard(XboardSession),
}

/// The line without its line ending (`\n` or `\r\n`).
fn trim_line_end(mut line: &[u8]) -> &[u8] {
    if let [rest @ .., b'\n'] = line {
        line = rest;
    }
    if let [rest @ .., b'\r'] = line {
        line = rest;
    }
    line
}

/// Reads `input` line by line on its own thread and sends parsed commands (or errors); the end
/// of input (or a read error) is sent as `quit`.
fn spawn_input(
    input: impl Read + Send + 'static,
    tx: crossbeam_channel::Sender<Input>,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            let mut reader = BufReader::new(input);
            let mut dialect: Option<Dialect> = None;
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) => break,
                    Ok(_) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(_) => break,
                }
                let bytes = trim_line_end(&buf);
                let line = match std::str::from_utf8(bytes) {
                    Ok(line) => line,
                    Err(e) => {
                        let shown = String::from_utf8_lossy(bytes);
                        let msg = format!(
                            "input is not UTF-8 text (byte {} of '{}'); line ignored",
                            e.valid_up_to() + 1,
                            excerpt(&shown)
                        );
                        // A `position` that cannot be read leaves the session without the
                        // GUI's board, like one that was refused.
                        let position = dialect != Some(Dialect::Xboard)
                            && shown.split_whitespace().next() == Some("position");
                        let sent = if position {
                            Ok(Command::BadPosition(msg))
                        } else {
                            Err(msg)
                        };
                        if tx.send(sent).is_err() {
                            return;
                        }
                        continue;
                    }
                };
                let first = line.split_whitespace().next();
                // `help` is for a person still choosing: it leaves the choice open.
                if dialect.is_none() && first.is_some() && first != Some("help") {
                    dialect = Some(match first {
                        Some("ucci") => Dialect::Ucci,
                        Some("xboard") => Dialect::Xboard,
                        _ => Dialect::Uci,
                    });
                }
                let parsed = parse::parse(line, dialect.unwrap_or(Dialect::Uci));
                let quit = parsed == Ok(Command::Quit);
                if tx.send(parsed).is_err() || quit {
                    return;
                }
            }
            // End of input behaves like `quit`.
            let _ = tx.send(Ok(Command::Quit));
        })
        .map(|_| ())
}

/// Runs a session on stdin and stdout until `quit` or end of input; a person at a terminal is
/// greeted first, on stderr. The error is a failed write to standard output other than a closed
/// pipe (a GUI that went away ends the engine quietly).
pub fn run() -> Result<(), String> {
    use std::io::IsTerminal;
    if help::greets(
        std::io::stdin().is_terminal(),
        std::io::stderr().is_terminal(),
    ) {
        eprintln!("{}", help::greeting());
    }
    match run_with(std::io::stdin(), Output::stdout()) {
        Some(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write to standard output: {e}"))
        }
        _ => Ok(()),
    }
}

/// Runs a session reading commands from `input` and writing to `out`, until `quit` or the end of
/// `input`, or until a write to `out` fails: that error is returned.
pub fn run_with(input: impl Read + Send + 'static, out: Output) -> Option<std::io::Error> {
    let (tx, rx) = crossbeam_channel::unbounded();
    if let Err(e) = spawn_input(input, tx.clone()) {
        out.line(&output::error(&format!(
            "cannot start the input thread: {e}"
        )));
        return out.take_error();
    }
    // The session starts with the first command, which decides the dialect.
    let mut session: Option<AnySession> = None;
    for msg in rx {
        // Lines written before any session (help) fail here too.
        if let Some(e) = out.take_error() {
            return Some(e);
        }
        let s = match &mut session {
            Some(s) => s,
            None => {
                if msg == Ok(Command::Nothing) {
                    continue;
                }
                if msg == Ok(Command::Help) {
                    out.lines(&help::lines(None));
                    continue;
                }
                let made = if matches!(msg, Ok(Command::Xboard(_))) {
                    XboardSession::new(out.clone(), tx.clone()).map(AnySession::Xboard)
                } else {
                    Session::new(out.clone()).map(AnySession::Uci)
                };
                match made {
                    Ok(s) => session.insert(s),
                    Err(e) => {
                        out.line(&output::error(&format!("cannot start the engine: {e}")));
                        return out.take_error();
                    }
                }
            }
        };
        let flow = match (s, msg) {
            (AnySession::Uci(s), Ok(cmd)) => s.handle(cmd),
            (AnySession::Xboard(s), Ok(cmd)) => s.handle(cmd),
            (AnySession::Uci(_), Err(e)) => {
                out.line(&output::error(&e));
                Flow::Continue
            }
            (AnySession::Xboard(s), Err(e)) => {
                s.input_error(&e);
                Flow::Continue
            }
        };
        if let Some(e) = out.take_error() {
            return Some(e);
        }
        if flow == Flow::Quit {
            break;
        }
    }
    out.take_error()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ends_are_trimmed() {
        assert_eq!(trim_line_end(b"go\r\n"), b"go");
        assert_eq!(trim_line_end(b"go\n"), b"go");
        assert_eq!(trim_line_end(b"go"), b"go");
        assert_eq!(trim_line_end(b"\r\n"), b"");
        assert_eq!(trim_line_end(b"a\rb\n"), b"a\rb");
    }
}
