//! The commands of the XBoard dialect, as parsed by [`parse`](super::parse) and applied by
//! the [`session`](super::session).

/// One XBoard command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XCommand {
    /// `xboard`: the session starts (no answer).
    Xboard,
    /// `protover N`: the features are announced.
    Protover(u32),
    /// `new`: the start position, the engine plays Black, no depth limit.
    New,
    /// `variant NAME`.
    Variant(String),
    /// `force`: play neither side.
    Force,
    /// `go`: play the side to move, now.
    Go,
    /// `playother`: play the side not to move.
    PlayOther,
    /// `usermove MOVE`, or a bare move.
    UserMove(String),
    /// `time N`: the engine's clock, centiseconds.
    Time(i64),
    /// `otim N`: the opponent's clock, centiseconds.
    Otim(i64),
    /// `level MPS BASE INC`: moves per control (0 = all), base time, increment.
    Level {
        /// Moves per time control; 0 for the whole game.
        mps: u32,
        /// Base time in milliseconds.
        base_ms: u64,
        /// Increment per move in milliseconds.
        inc_ms: u64,
    },
    /// `st N`: exactly this long per move (seconds, fractions allowed), as milliseconds.
    St(u64),
    /// `sd N`: depth limit.
    Sd(u32),
    /// `nps N`: nodes per second of clock time instead of the wall clock.
    Nps(u64),
    /// `setboard FEN`.
    SetBoard(String),
    /// `undo`: take back one ply.
    Undo,
    /// `remove`: take back two plies.
    Remove,
    /// `result RESULT {COMMENT}`: the game is over.
    Result(String),
    /// `draw`: the opponent offers a draw.
    Draw,
    /// `hard`: ponder on.
    Hard,
    /// `easy`: ponder off.
    Easy,
    /// `post`: show thinking.
    Post,
    /// `nopost`: do not.
    NoPost,
    /// `memory N`: the hash size in MB.
    Memory(u64),
    /// `cores N`: search threads.
    Cores(u64),
    /// `option NAME=VALUE` or `option NAME` (a button).
    SetOption {
        /// The option's name.
        name: String,
        /// Its value, if any.
        value: Option<String>,
    },
    /// `ping N`.
    Ping(String),
    /// `?`: move now.
    MoveNow,
    /// `hint`.
    Hint,
    /// `analyze`.
    Analyze,
    /// `exit`: leave analysis.
    Exit,
    /// `help`: the dialects and the extra commands (not a CECP command; answered as comments).
    Help,
    /// `.`: an analysis status update.
    Status,
    /// Sent by the session to itself after its own move: start pondering on that game.
    PonderAfter(usize),
    /// Commands answered with silence: `accepted`, `rejected`, `random`, `computer`, `name`,
    /// `rating`, `ics`, `white`, `black`, `post`-like GUI information.
    Ignored,
    /// Not a command, or a command with a bad argument: `Error (reason): line`.
    Bad {
        /// Why (`unknown command`, `bad value` ...).
        reason: String,
        /// The line as received (shortened).
        line: String,
    },
}
