//! The three protocol dialects and the words that tell them apart on the wire, shared by the
//! engine's front end and the match runner (which speaks them as a client).

use std::fmt;

/// The protocol family an engine speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// `uci`/`uciok`, `setoption name X value Y`, `go wtime .. btime ..` in milliseconds.
    Uci,
    /// `ucci`/`ucciok`, `setoption X Y`, `go time .. opptime ..` in seconds unless the engine
    /// announces `usemillisec`, FEN of the last capture plus the moves since.
    Ucci,
    /// XBoard/WinBoard (CECP v2): `xboard`, `protover 2` → `feature ...`, the engine keeps the
    /// game (`usermove`, `go`, `force`), answers `move m`, clocks in centiseconds.
    Xboard,
}

impl Dialect {
    /// Parses a dialect name, `uci`, `ucci` or `xboard` (also `cecp`, `winboard`) in any case
    /// (the match runner's `proto=`).
    pub fn parse(text: &str) -> Result<Dialect, String> {
        match text.to_ascii_lowercase().as_str() {
            "uci" => Ok(Dialect::Uci),
            "ucci" => Ok(Dialect::Ucci),
            "xboard" | "cecp" | "winboard" => Ok(Dialect::Xboard),
            other => Err(format!(
                "unknown protocol '{other}' (expected uci, ucci or xboard)"
            )),
        }
    }

    /// The command that opens a session in this dialect (and decides it).
    pub fn hello(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Ucci => "ucci",
            Dialect::Xboard => "xboard",
        }
    }

    /// The line that ends the engine's identification block and option list.
    pub fn hello_ok(self) -> &'static str {
        match self {
            Dialect::Uci => "uciok",
            Dialect::Ucci => "ucciok",
            Dialect::Xboard => "feature done=1",
        }
    }

    /// One `setoption` line.
    pub fn setoption(self, name: &str, value: &str) -> String {
        match self {
            Dialect::Uci => format!("setoption name {name} value {value}"),
            Dialect::Ucci => format!("setoption {name} {value}"),
            Dialect::Xboard => format!("option {name}={value}"),
        }
    }

    /// The line sent before each new game (UCCI has no such command).
    pub fn new_game(self) -> Option<&'static str> {
        match self {
            Dialect::Uci => Some("ucinewgame"),
            Dialect::Ucci => None,
            Dialect::Xboard => Some("new"),
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dialect::Uci => "uci",
            Dialect::Ucci => "ucci",
            Dialect::Xboard => "xboard",
        })
    }
}
