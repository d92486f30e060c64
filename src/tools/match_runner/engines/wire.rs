//! The text an engine expects and sends, per dialect: UCI or UCCI (XBoard's in `xboard_wire.rs`),
//! ranks 0-9 or 1-10, FEN piece letters N/B or H/E. Everything else in the runner works on typed
//! values; only this file knows the wire format.

use engine_core::{move_text, Move, Position, RankBase};
use std::time::Duration;

pub use cotuong::protocol::Dialect;

/// Which letters the engine's FEN parser accepts for horses and elephants.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FenLetters {
    /// `N` for the horse, `B` for the elephant (Pikafish, Fairy-Stockfish, engine-core).
    NB,
    /// `H` for the horse, `E` for the elephant (SjaakII, some UCCI engines).
    HE,
}

impl FenLetters {
    /// Parses the `letters=` value of an engine spec.
    pub fn parse(text: &str) -> Result<FenLetters, String> {
        match text.to_ascii_lowercase().as_str() {
            "nb" => Ok(FenLetters::NB),
            "he" => Ok(FenLetters::HE),
            other => Err(format!("unknown FEN letters '{other}' (expected nb or he)")),
        }
    }

    /// Rewrites the board field of an N/B FEN into this letter set.
    pub fn convert(self, fen: &str) -> String {
        match self {
            FenLetters::NB => fen.to_string(),
            FenLetters::HE => {
                let (board, rest) = fen.split_once(' ').unwrap_or((fen, ""));
                let board: String = board
                    .chars()
                    .map(|c| match c {
                        'N' => 'H',
                        'n' => 'h',
                        'B' => 'E',
                        'b' => 'e',
                        other => other,
                    })
                    .collect();
                if rest.is_empty() {
                    board
                } else {
                    format!("{board} {rest}")
                }
            }
        }
    }
}

/// How one engine is addressed on the wire.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct WireFormat {
    /// Protocol family.
    pub dialect: Dialect,
    /// Rank numbering in move text.
    pub ranks: RankBase,
    /// FEN piece letters.
    pub letters: FenLetters,
}

/// What the engine is asked to do for one move.
#[derive(Clone, Debug, PartialEq)]
pub enum GoLimits {
    /// A running clock: both sides' remaining time, increments and moves to the next control.
    Clock {
        own_time: Duration,
        own_inc: Duration,
        opp_time: Duration,
        opp_inc: Duration,
        moves_to_go: Option<u32>,
        /// True when the engine to move plays Red (UCI needs wtime/btime, not own/opp).
        engine_is_red: bool,
    },
    /// Fixed time for this move.
    MoveTime(Duration),
    /// Fixed node budget.
    Nodes(u64),
    /// Fixed depth.
    Depth(u32),
}

impl WireFormat {
    /// Formats a move in this engine's rank numbering.
    pub fn move_text(&self, mv: Move) -> String {
        move_text(mv, self.ranks)
    }

    /// Parses the engine's move text in `pos`, checking legality.
    pub fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, String> {
        pos.parse_move(text, self.ranks).map_err(|e| e.to_string())
    }
}

/// The two wordings of the UCI family: UCCI is UCI with other command words, times in seconds
/// unless the engine takes milliseconds, and the position since the last capture.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UciWording {
    /// `uci`, `setoption name X value Y`, `go wtime .. btime ..`.
    Uci,
    /// `ucci`, `setoption X Y`, `go time .. opptime ..`.
    Ucci,
}

impl UciWording {
    fn dialect(self) -> Dialect {
        match self {
            UciWording::Uci => Dialect::Uci,
            UciWording::Ucci => Dialect::Ucci,
        }
    }

    /// The command that opens the session.
    pub fn hello(self) -> &'static str {
        self.dialect().hello()
    }

    /// The line that ends the engine's identification block and option list.
    pub fn hello_ok(self) -> &'static str {
        self.dialect().hello_ok()
    }

    /// One `setoption` line.
    pub fn setoption(self, name: &str, value: &str) -> String {
        self.dialect().setoption(name, value)
    }

    /// The line sent before each new game (UCCI has no such command).
    pub fn new_game(self) -> Option<&'static str> {
        self.dialect().new_game()
    }

    /// The option name of a listing line: UCI `option name NAME type ...`, UCCI
    /// `option NAME type ...`.
    pub fn listed_option(self, line: &str) -> Option<String> {
        let rest = line.trim().strip_prefix("option ")?;
        let rest = match self {
            UciWording::Uci => rest.strip_prefix("name ")?,
            UciWording::Ucci => rest,
        };
        let end = rest.find(" type ").unwrap_or(rest.len());
        let name = rest[..end].trim();
        (!name.is_empty()).then(|| name.to_string())
    }

    /// The `position` command for the game that started at `start` and continued with `moves`.
    /// UCI gets the start FEN and every move, so the engine sees the whole history; UCCI gets the
    /// position after the last capture plus the moves since, as its specification asks.
    pub fn position_command(self, wire: &WireFormat, start: &Position, moves: &[Move]) -> String {
        let (base, tail) = match self {
            UciWording::Uci => (start.clone(), moves),
            UciWording::Ucci => {
                let mut pos = start.clone();
                let mut since = 0;
                for (i, &mv) in moves.iter().enumerate() {
                    let capture = pos.piece_at(mv.to()).is_some();
                    pos.make_move(mv);
                    if capture {
                        since = i + 1;
                    }
                }
                let mut base = start.clone();
                for &mv in &moves[..since] {
                    base.make_move(mv);
                }
                (base, &moves[since..])
            }
        };
        let mut cmd = format!("position fen {}", wire.letters.convert(&base.to_fen()));
        if !tail.is_empty() {
            cmd.push_str(" moves");
            for &mv in tail {
                cmd.push(' ');
                cmd.push_str(&wire.move_text(mv));
            }
        }
        cmd
    }

    /// The `go` command. `millis` tells whether a UCCI engine was switched to milliseconds.
    pub fn go_command(self, limits: &GoLimits, millis: bool) -> String {
        let ms = |d: &Duration| d.as_millis().max(1);
        match (self, limits) {
            (_, GoLimits::Depth(d)) => format!("go depth {d}"),
            (_, GoLimits::Nodes(n)) => format!("go nodes {n}"),
            (UciWording::Uci, GoLimits::MoveTime(t)) => {
                format!("go movetime {}", ms(t))
            }
            (UciWording::Ucci, GoLimits::MoveTime(t)) => {
                // UCCI has no movetime: give the whole budget as the remaining time of the last
                // move before a control.
                format!("go time {} movestogo 1", ucci_time(t, millis))
            }
            (
                UciWording::Uci,
                GoLimits::Clock {
                    own_time,
                    own_inc,
                    opp_time,
                    opp_inc,
                    moves_to_go,
                    engine_is_red,
                },
            ) => {
                let (wt, bt, wi, bi) = if *engine_is_red {
                    (own_time, opp_time, own_inc, opp_inc)
                } else {
                    (opp_time, own_time, opp_inc, own_inc)
                };
                let mut cmd = format!(
                    "go wtime {} btime {} winc {} binc {}",
                    ms(wt),
                    ms(bt),
                    wi.as_millis(),
                    bi.as_millis()
                );
                if let Some(m) = moves_to_go {
                    cmd.push_str(&format!(" movestogo {m}"));
                }
                cmd
            }
            (
                UciWording::Ucci,
                GoLimits::Clock {
                    own_time,
                    own_inc,
                    opp_time,
                    opp_inc,
                    moves_to_go,
                    ..
                },
            ) => {
                let mut cmd = format!("go time {}", ucci_time(own_time, millis));
                match moves_to_go {
                    Some(m) => cmd.push_str(&format!(" movestogo {m}")),
                    None => cmd.push_str(&format!(" increment {}", ucci_time(own_inc, millis))),
                }
                cmd.push_str(&format!(" opptime {}", ucci_time(opp_time, millis)));
                match moves_to_go {
                    Some(m) => cmd.push_str(&format!(" oppmovestogo {m}")),
                    None => cmd.push_str(&format!(" oppincrement {}", ucci_time(opp_inc, millis))),
                }
                cmd
            }
        }
    }
}

/// UCCI times: milliseconds after `setoption usemillisec true`, whole seconds otherwise (at least
/// 1 so that an engine never reads "no time").
fn ucci_time(d: &Duration, millis: bool) -> u128 {
    if millis {
        d.as_millis()
    } else {
        (d.as_millis() / 1000).max(1)
    }
}

/// The engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// A move, with the UCCI `draw` (offer/accept) or `resign` suffix noted.
    Move {
        text: String,
        resign: bool,
        draw: bool,
    },
    /// UCCI `nobestmove` or UCI `bestmove (none)`/`0000`: the engine claims it has no move.
    NoMove,
}

/// Parses a `bestmove`/`nobestmove` line; `None` for any other line.
pub fn parse_bestmove(line: &str) -> Option<BestMove> {
    let mut words = line.split_whitespace();
    match words.next()? {
        "nobestmove" => Some(BestMove::NoMove),
        "bestmove" => {
            let text = match words.next() {
                None | Some("(none)") | Some("0000") | Some("none") => {
                    return Some(BestMove::NoMove)
                }
                Some(t) => t.to_string(),
            };
            let rest: Vec<&str> = words.collect();
            Some(BestMove::Move {
                text,
                resign: rest.contains(&"resign"),
                draw: rest.contains(&"draw"),
            })
        }
        _ => None,
    }
}

/// A search score as reported in `info` lines, from the engine's own point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (UCCI's plain `score` is in the same unit for our purposes).
    Cp(i32),
    /// Mate in this many moves (negative: getting mated).
    Mate(i32),
}

impl Score {
    /// A comparable centipawn value, mates mapped far outside the normal range.
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(m) if m > 0 => 100_000 - m,
            Score::Mate(m) => -100_000 - m,
        }
    }

    /// Cutechess-style comment text: `+0.35`, `-M4`.
    pub fn comment(self) -> String {
        match self {
            Score::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
            Score::Mate(m) if m >= 0 => format!("+M{m}"),
            Score::Mate(m) => format!("-M{}", -m),
        }
    }
}

/// The parts of an `info` line the runner records.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoFields {
    /// Reported depth.
    pub depth: Option<u32>,
    /// Reported score.
    pub score: Option<Score>,
}

/// Extracts depth and score from an `info` line (`score cp N`, `score mate N`, UCCI `score N`).
/// Bound scores (`lowerbound`/`upperbound`) are skipped because they are not the final value.
pub fn parse_info(line: &str) -> Option<InfoFields> {
    let mut words = line.split_whitespace().peekable();
    if words.next()? != "info" {
        return None;
    }
    let mut fields = InfoFields::default();
    let mut bound = false;
    while let Some(w) = words.next() {
        match w {
            "depth" => fields.depth = words.next().and_then(|d| d.parse().ok()),
            "score" => match words.peek().copied() {
                Some("cp") => {
                    words.next();
                    fields.score = words.next().and_then(|v| v.parse().ok()).map(Score::Cp);
                }
                Some("mate") => {
                    words.next();
                    fields.score = words.next().and_then(|v| v.parse().ok()).map(Score::Mate);
                }
                Some(v) => {
                    if let Ok(cp) = v.parse() {
                        words.next();
                        fields.score = Some(Score::Cp(cp));
                    }
                }
                None => {}
            },
            "lowerbound" | "upperbound" => bound = true,
            "pv" | "string" | "message" => break,
            _ => {}
        }
    }
    if bound {
        fields.score = None;
    }
    Some(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wire(dialect: Dialect, ranks: RankBase, letters: FenLetters) -> WireFormat {
        WireFormat {
            dialect,
            ranks,
            letters,
        }
    }

    #[test]
    fn uci_position_sends_whole_history_in_one_based_ranks() {
        let start = Position::startpos();
        let w = wire(Dialect::Uci, RankBase::One, FenLetters::NB);
        let mv = start.parse_move("h2e2", RankBase::Zero).unwrap();
        assert_eq!(
            UciWording::Uci.position_command(&w, &start, &[mv]),
            format!("position fen {} moves h3e3", start.to_fen())
        );
    }

    #[test]
    fn ucci_position_restarts_after_the_last_capture() {
        let start = Position::startpos();
        let w = wire(Dialect::Ucci, RankBase::Zero, FenLetters::HE);
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for t in ["h2e2", "h7e7", "e2e6", "d9e8"] {
            let mv = pos.parse_move(t, RankBase::Zero).unwrap();
            pos.make_move(mv);
            moves.push(mv);
        }
        let cmd = UciWording::Ucci.position_command(&w, &start, &moves);
        // The example of the UCCI specification, in H/E letters.
        assert_eq!(
            cmd,
            "position fen rheakaehr/9/1c2c4/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RHEAKAEHR b - - 0 2 moves d9e8"
        );
    }

    #[test]
    fn go_commands_per_dialect() {
        let clock = GoLimits::Clock {
            own_time: Duration::from_millis(1500),
            own_inc: Duration::from_millis(100),
            opp_time: Duration::from_millis(2500),
            opp_inc: Duration::from_millis(100),
            moves_to_go: None,
            engine_is_red: false,
        };
        let uci = UciWording::Uci;
        assert_eq!(
            uci.go_command(&clock, false),
            "go wtime 2500 btime 1500 winc 100 binc 100"
        );
        let ucci = UciWording::Ucci;
        assert_eq!(
            ucci.go_command(&clock, true),
            "go time 1500 increment 100 opptime 2500 oppincrement 100"
        );
        assert_eq!(
            ucci.go_command(&clock, false),
            "go time 1 increment 1 opptime 2 oppincrement 1"
        );
        assert_eq!(uci.go_command(&GoLimits::Nodes(500), false), "go nodes 500");
        assert_eq!(
            uci.go_command(&GoLimits::MoveTime(Duration::from_millis(50)), false),
            "go movetime 50"
        );
    }

    #[test]
    fn bestmove_and_info_lines() {
        assert_eq!(
            parse_bestmove("bestmove h2e2 ponder h7e7"),
            Some(BestMove::Move {
                text: "h2e2".into(),
                resign: false,
                draw: false
            })
        );
        assert_eq!(
            parse_bestmove("bestmove h2e2 resign"),
            Some(BestMove::Move {
                text: "h2e2".into(),
                resign: true,
                draw: false
            })
        );
        assert_eq!(parse_bestmove("nobestmove"), Some(BestMove::NoMove));
        assert_eq!(parse_bestmove("bestmove (none)"), Some(BestMove::NoMove));
        assert_eq!(parse_bestmove("info depth 3"), None);
        let i = parse_info("info depth 7 seldepth 9 score cp -35 nodes 10 pv h2e2").unwrap();
        assert_eq!(i.depth, Some(7));
        assert_eq!(i.score, Some(Score::Cp(-35)));
        let i = parse_info("info depth 6 score 4 pv b0c2 b9c7").unwrap();
        assert_eq!(i.score, Some(Score::Cp(4)));
        let i = parse_info("info depth 9 score mate -3 pv a0a1").unwrap();
        assert_eq!(i.score, Some(Score::Mate(-3)));
        assert!(parse_info("info depth 9 score cp 30 lowerbound")
            .unwrap()
            .score
            .is_none());
        assert!(parse_info("readyok").is_none());
    }

    #[test]
    fn letters_convert_only_the_board() {
        assert_eq!(
            FenLetters::HE.convert("rnbakabnr/9/9/9/9/9/9/9/9/RNBAKABNR b - - 0 1"),
            "rheakaehr/9/9/9/9/9/9/9/9/RHEAKAEHR b - - 0 1"
        );
    }
}
