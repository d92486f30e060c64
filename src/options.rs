//! Engine options: their declarations per dialect, parsing and validation.
//!
//! Names are matched case-insensitively ignoring spaces, `_` and `-`, so `Move Overhead`,
//! `moveoverhead` and `UCI_ShowWDL`/`ucishowwdl` all work in either dialect.

use crate::protocol::command::Dialect;
use engine_core::rules::RuleOptions;

/// Largest `Hash` in MB.
pub const MAX_HASH_MB: usize = 65_536;
/// Largest `Threads`.
pub const MAX_THREADS: usize = 256;
/// Largest `MultiPV`.
pub const MAX_MULTIPV: usize = 128;
/// Largest `Move Overhead` in ms.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;
/// `NoCaptureMoves` range (full moves; the draw comes after twice as many plies).
pub const NO_CAPTURE_MOVES_RANGE: (u32, u32) = (20, 200);
/// Default hash in MB (also what UCCI `hashsize 0` = "auto" selects).
pub const DEFAULT_HASH_MB: usize = 16;
/// Default move overhead in ms.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;

/// Current option values.
#[derive(Clone, Debug)]
pub struct Options {
    /// Transposition table size (MB).
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// The GUI may send `go ponder` (affects nothing in the search itself).
    pub ponder: bool,
    /// Time kept back per move for communication lag (ms).
    pub move_overhead_ms: u64,
    /// Append `wdl` to UCI scores.
    pub show_wdl: bool,
    /// Move text with ranks 1-10 (cutechess, Fairy-Stockfish).
    pub ranks_from_one: bool,
    /// No-capture rule in full moves.
    pub no_capture_moves: u32,
    /// UCCI: times are in milliseconds.
    pub use_millisec: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            show_wdl: false,
            ranks_from_one: false,
            no_capture_moves: RuleOptions::default().no_capture_moves,
            use_millisec: false,
        }
    }
}

/// What the controller must do after an option changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing beyond storing the value.
    None,
    /// Reallocate the hash table.
    ResizeHash,
    /// Clear the hash table.
    ClearHash,
    /// New game: clear hash and history.
    NewGame,
    /// Thread count changed.
    Threads,
}

/// Why `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// Not an option of this engine.
    Unknown(String),
    /// A value the option does not accept.
    BadValue(String),
}

fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

fn spin<T>(name: &str, value: Option<&str>, min: T, max: T) -> Result<T, OptionError>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    let v = value.ok_or_else(|| OptionError::BadValue(format!("option '{name}' needs a value")))?;
    let n: T = v
        .trim()
        .parse()
        .map_err(|_| OptionError::BadValue(format!("'{v}' is not a number for option '{name}'")))?;
    if n < min || n > max {
        return Err(OptionError::BadValue(format!(
            "{n} is out of range for option '{name}' ({min}..{max})"
        )));
    }
    Ok(n)
}

fn check(name: &str, value: Option<&str>) -> Result<bool, OptionError> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("true") | Some("on") => Ok(true),
        Some("false") | Some("off") => Ok(false),
        Some(v) => Err(OptionError::BadValue(format!(
            "'{v}' is not true/false for option '{name}'"
        ))),
        None => Err(OptionError::BadValue(format!(
            "option '{name}' needs true or false"
        ))),
    }
}

impl Options {
    /// The rank convention for move text.
    pub fn rank_base(&self) -> engine_core::RankBase {
        if self.ranks_from_one {
            engine_core::RankBase::One
        } else {
            engine_core::RankBase::Zero
        }
    }

    /// The no-capture draw limit in plies.
    pub fn no_capture_plies(&self) -> u16 {
        (self.no_capture_moves * 2) as u16
    }

    /// Applies `setoption`; on error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, OptionError> {
        let auto_threads = || {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        };
        match normalize(name).as_str() {
            "hash" | "hashsize" => {
                let mb = spin(name, value, 0, MAX_HASH_MB)?;
                self.hash_mb = if mb == 0 { DEFAULT_HASH_MB } else { mb };
                Ok(Effect::ResizeHash)
            }
            "threads" => {
                let t = spin(name, value, 0, MAX_THREADS)?;
                self.threads = if t == 0 { auto_threads() } else { t };
                Ok(Effect::Threads)
            }
            "multipv" => {
                self.multipv = spin(name, value, 1, MAX_MULTIPV)?;
                Ok(Effect::None)
            }
            "ponder" => {
                self.ponder = check(name, value)?;
                Ok(Effect::None)
            }
            "moveoverhead" => {
                self.move_overhead_ms = spin(name, value, 0, MAX_MOVE_OVERHEAD_MS)?;
                Ok(Effect::None)
            }
            "clearhash" => Ok(Effect::ClearHash),
            "newgame" => Ok(Effect::NewGame),
            "ucishowwdl" => {
                self.show_wdl = check(name, value)?;
                Ok(Effect::None)
            }
            "ucivariant" => match value.map(str::trim) {
                Some(v) if v.eq_ignore_ascii_case("xiangqi") => Ok(Effect::None),
                Some(v) => Err(OptionError::BadValue(format!(
                    "variant '{v}' is not supported (only xiangqi)"
                ))),
                None => Err(OptionError::BadValue("UCI_Variant needs a value".into())),
            },
            "ranksonetoten" => {
                self.ranks_from_one = check(name, value)?;
                Ok(Effect::None)
            }
            "nocapturemoves" => {
                let (lo, hi) = NO_CAPTURE_MOVES_RANGE;
                self.no_capture_moves = spin(name, value, lo, hi)?;
                Ok(Effect::None)
            }
            "usemillisec" => {
                self.use_millisec = check(name, value)?;
                Ok(Effect::None)
            }
            _ => Err(OptionError::Unknown(name.to_string())),
        }
    }

    /// The `option ...` lines announced after `uci` / `ucci`.
    pub fn declarations(dialect: Dialect) -> Vec<String> {
        let d = Options::default();
        let (nc_lo, nc_hi) = NO_CAPTURE_MOVES_RANGE;
        match dialect {
            Dialect::Uci => vec![
                format!("option name Hash type spin default {} min 1 max {MAX_HASH_MB}", d.hash_mb),
                format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
                format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
                "option name Ponder type check default false".into(),
                format!(
                    "option name Move Overhead type spin default {} min 0 max {MAX_MOVE_OVERHEAD_MS}",
                    d.move_overhead_ms
                ),
                "option name Clear Hash type button".into(),
                "option name UCI_ShowWDL type check default false".into(),
                "option name UCI_Variant type combo default xiangqi var xiangqi".into(),
                "option name RanksOneToTen type check default false".into(),
                format!(
                    "option name NoCaptureMoves type spin default {} min {nc_lo} max {nc_hi}",
                    d.no_capture_moves
                ),
            ],
            Dialect::Ucci => vec![
                "option usemillisec type check default false".into(),
                format!(
                    "option hashsize type spin min 0 max {MAX_HASH_MB} default {}",
                    d.hash_mb
                ),
                format!("option threads type spin min 0 max {MAX_THREADS} default 1"),
                "option ponder type check default false".into(),
                format!("option multipv type spin min 1 max {MAX_MULTIPV} default 1"),
                format!(
                    "option moveoverhead type spin min 0 max {MAX_MOVE_OVERHEAD_MS} default {}",
                    d.move_overhead_ms
                ),
                format!(
                    "option nocapturemoves type spin min {nc_lo} max {nc_hi} default {}",
                    d.no_capture_moves
                ),
                "option newgame type button".into(),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_matched_loosely_and_values_checked() {
        let mut o = Options::default();
        assert_eq!(o.set("Move Overhead", Some("50")), Ok(Effect::None));
        assert_eq!(o.move_overhead_ms, 50);
        assert_eq!(o.set("hashsize", Some("0")), Ok(Effect::ResizeHash));
        assert_eq!(o.hash_mb, DEFAULT_HASH_MB);
        assert!(matches!(
            o.set("Hash", Some("-1")),
            Err(OptionError::BadValue(_))
        ));
        assert!(matches!(
            o.set("MultiPV", Some("0")),
            Err(OptionError::BadValue(_))
        ));
        assert!(matches!(
            o.set("Ponder", Some("maybe")),
            Err(OptionError::BadValue(_))
        ));
        assert!(matches!(
            o.set("Frobnicate", Some("1")),
            Err(OptionError::Unknown(_))
        ));
        assert!(matches!(
            o.set("UCI_Variant", Some("chess")),
            Err(OptionError::BadValue(_))
        ));
        assert_eq!(o.move_overhead_ms, 50, "failed sets change nothing");
        assert_eq!(o.set("NoCaptureMoves", Some("50")), Ok(Effect::None));
        assert_eq!(o.no_capture_plies(), 100);
    }
}
