//! Standard output of the subcommands. A reader that stops early (`cotuong perft 3 | head -1`)
//! closes the pipe: the command then ends quietly and successfully, as the usual command-line
//! tools do. Any other failure to write (a full disk) is an error, never a panic (which
//! `println!` gives).

use std::io::{ErrorKind, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once a write to standard output met a closed pipe.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Standard output (locked for each write); a write that finds the pipe closed is remembered,
/// so that the error it causes, whatever message it is wrapped in, ends the command quietly.
pub struct Stdout(std::io::Stdout);

/// Standard output.
pub fn writer() -> Stdout {
    Stdout(std::io::stdout())
}

fn note(e: &std::io::Error) {
    if e.kind() == ErrorKind::BrokenPipe {
        CLOSED.store(true, Ordering::Relaxed);
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf).inspect_err(note)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush().inspect_err(note)
    }
}

/// Writes `text` to standard output and flushes it.
pub fn print(text: &str) -> Result<(), String> {
    let mut out = writer();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| describe(&e))
}

/// The message for a failed write to standard output.
pub fn describe(e: &std::io::Error) -> String {
    note(e);
    format!("cannot write to standard output: {e}")
}

/// The exit of a subcommand: success; success without a word when its reader closed standard
/// output; else `error: ...` on standard error and `code`.
pub fn exit(result: Result<(), String>, code: u8) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) if closed() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(code)
        }
    }
}

/// Whether a write to standard output found the pipe closed.
pub fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}
