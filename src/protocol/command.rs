//! Typed commands, parsed from one input line per dialect. Move text stays text here: it is
//! parsed against the position (and the current rank convention) by the controller.

/// `startpos` or a FEN, plus moves.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PositionSpec {
    /// `None` = the start position.
    pub fen: Option<String>,
    /// Moves after the FEN, as text.
    pub moves: Vec<String>,
}

/// The parameters of `go`, in the units the GUI sent (converted by the controller).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GoParams {
    /// Ponder search (clock stopped until `ponderhit`).
    pub ponder: bool,
    /// UCCI: the opponent offers a draw.
    pub draw: bool,
    /// Search until `stop`.
    pub infinite: bool,
    /// Depth limit.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Mate in N moves.
    pub mate: Option<u32>,
    /// UCI fixed time per move (ms).
    pub movetime: Option<u64>,
    /// UCI Red's time (ms; negative values from a late GUI become 0).
    pub wtime: Option<u64>,
    /// UCI Black's time (ms).
    pub btime: Option<u64>,
    /// UCI Red's increment (ms).
    pub winc: Option<u64>,
    /// UCI Black's increment (ms).
    pub binc: Option<u64>,
    /// Moves to the next time control (both dialects).
    pub movestogo: Option<u32>,
    /// UCCI `time`: the side to move's time (seconds, or ms after `usemillisec`).
    pub time: Option<u64>,
    /// UCCI `increment` (same unit as `time`).
    pub increment: Option<u64>,
    /// UCCI `opptime` (parsed for completeness; our time manager needs only our clock).
    pub opptime: Option<u64>,
    /// UCCI `oppmovestogo`.
    pub oppmovestogo: Option<u32>,
    /// UCCI `oppincrement`.
    pub oppincrement: Option<u64>,
    /// UCI `searchmoves`.
    pub searchmoves: Vec<String>,
    /// `go perft N`.
    pub perft: Option<u32>,
}

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`.
    Uci,
    /// `ucci`.
    Ucci,
    /// `isready`.
    IsReady,
    /// `setoption` in either form.
    SetOption {
        /// Option name as sent.
        name: String,
        /// Value, if any.
        value: Option<String>,
    },
    /// `ucinewgame`.
    NewGame,
    /// `position`.
    Position(PositionSpec),
    /// A `position` line that could not be read (the reason): the GUI's board is unknown.
    BadPosition(String),
    /// `banmoves` (UCCI; also accepted in UCI).
    BanMoves(Vec<String>),
    /// `go`.
    Go(GoParams),
    /// `stop`.
    Stop,
    /// `ponderhit [draw]`.
    PonderHit {
        /// UCCI: the opponent offers a draw.
        draw: bool,
    },
    /// UCCI `probe`.
    Probe(PositionSpec),
    /// `d`: show the board.
    Display,
    /// `eval`: show the evaluation.
    Eval,
    /// `bench [depth]`.
    Bench {
        /// Depth override.
        depth: Option<u32>,
    },
    /// `help`: the dialects and the extra commands, for a person.
    Help,
    /// `quit`.
    Quit,
    /// An empty line.
    Nothing,
    /// A line of the XBoard dialect (every one but `quit`).
    Xboard(super::xboard::XCommand),
}

/// Parses a number token with a clear error.
pub fn number<T: std::str::FromStr>(what: &str, tok: Option<&str>) -> Result<T, String> {
    let tok = tok.ok_or_else(|| format!("'{what}' needs a value"))?;
    tok.parse()
        .map_err(|_| format!("'{tok}' is not a valid value for '{what}'"))
}

/// Parses a time token: integers, clamping negative values (a GUI already over time) to 0.
pub fn time_value(what: &str, tok: Option<&str>) -> Result<u64, String> {
    let v: i64 = number(what, tok)?;
    Ok(v.max(0) as u64)
}

/// Parses `startpos | fen <fields..> [moves ..]` from the tokens after `position`/`probe`.
pub fn position_spec(tokens: &[&str]) -> Result<PositionSpec, String> {
    let mut it = tokens.iter().copied().peekable();
    let fen = match it.next() {
        Some("startpos") => None,
        Some("fen") => {
            let mut fields = Vec::new();
            while let Some(&t) = it.peek() {
                if t == "moves" {
                    break;
                }
                fields.push(t);
                it.next();
            }
            if fields.is_empty() {
                return Err("'position fen' needs a FEN".into());
            }
            Some(fields.join(" "))
        }
        Some(other) => {
            return Err(format!(
                "expected 'startpos' or 'fen' after 'position', got '{}'",
                excerpt(other)
            ))
        }
        None => return Err("'position' needs 'startpos' or 'fen'".into()),
    };
    let moves = match it.next() {
        Some("moves") => it.map(str::to_string).collect(),
        Some(other) => return Err(format!("unexpected '{}' in position", excerpt(other))),
        None => Vec::new(),
    };
    Ok(PositionSpec { fen, moves })
}

/// `setoption name <words..> [value <words..>]` (UCI form) or `setoption <name> [<value..>]`
/// (UCCI form); real UCCI clients send both, so both dialects accept both.
pub fn setoption(tokens: &[&str]) -> Result<Command, String> {
    if tokens.first() == Some(&"name") {
        let rest = &tokens[1..];
        let vpos = rest.iter().position(|&t| t == "value");
        let (name, value) = match vpos {
            Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
            None => (rest.join(" "), None),
        };
        if name.is_empty() {
            return Err("'setoption name' needs an option name".into());
        }
        Ok(Command::SetOption { name, value })
    } else {
        let Some((name, rest)) = tokens.split_first() else {
            return Err("'setoption' needs an option name".into());
        };
        let value = if rest.is_empty() {
            None
        } else {
            Some(rest.join(" "))
        };
        Ok(Command::SetOption {
            name: name.to_string(),
            value,
        })
    }
}

/// At most 24 characters of user text, for error messages.
pub fn excerpt(text: &str) -> String {
    let mut s: String = text.chars().take(24).collect();
    if text.chars().count() > 24 {
        s.push_str("...");
    }
    s
}

/// Commands understood the same way in both dialects; `None` if `word` is not one of them.
pub fn common(word: &str, rest: &[&str]) -> Option<Result<Command, String>> {
    Some(match word {
        "isready" => Ok(Command::IsReady),
        "setoption" => setoption(rest),
        "position" => Ok(position_spec(rest).map_or_else(Command::BadPosition, Command::Position)),
        "banmoves" => Ok(Command::BanMoves(
            rest.iter().map(|s| s.to_string()).collect(),
        )),
        "probe" => position_spec(rest).map(Command::Probe),
        "stop" => Ok(Command::Stop),
        "quit" => Ok(Command::Quit),
        "d" => Ok(Command::Display),
        "eval" => Ok(Command::Eval),
        "help" => Ok(Command::Help),
        "bench" => match rest.first() {
            None => Ok(Command::Bench { depth: None }),
            Some(t) => number("bench", Some(t)).map(|d| Command::Bench { depth: Some(d) }),
        },
        _ => return None,
    })
}
