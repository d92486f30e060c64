//! A text dump of game records for people: one line per position, `FEN | score | result`.

use super::filter::Filters;
use super::reader::{DataError, GameReader};
use super::record::points_for;
use engine_core::Color;
use std::fmt;
use std::io::{self, Read, Write};

/// Why a dump stopped.
#[derive(Debug)]
pub enum DumpError {
    /// The data is corrupt or unreadable.
    Data(DataError),
    /// Writing the text failed.
    Write(io::Error),
}

impl fmt::Display for DumpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DumpError::Data(e) => write!(f, "{e}"),
            DumpError::Write(e) => write!(f, "writing the dump: {e}"),
        }
    }
}

impl std::error::Error for DumpError {}

/// What a dump wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DumpSummary {
    /// Games read.
    pub games: u64,
    /// Lines written.
    pub positions: u64,
}

/// Writes every position before a recorded move (only those `filters` keep, if given) as
///
/// ```text
/// rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 35 | 0.5
/// ```
///
/// with the score and the result from Red's point of view, as in bullet's text format (the
/// records store the score from the side to move's point of view). Scores print as in
/// [`super::Score`]'s `Display` (`#5` mate in 5 plies, `R3` rule win in 3, `none`); the result
/// is `1.0` Red won, `0.5` draw, `0.0` Black won.
pub fn dump<R: Read, W: Write + ?Sized>(
    input: R,
    out: &mut W,
    filters: Option<&Filters>,
) -> Result<DumpSummary, DumpError> {
    let mut summary = DumpSummary::default();
    for game in GameReader::new(input) {
        let game = game.map_err(DumpError::Data)?;
        summary.games += 1;
        let red_points = points_for(game.result(), Color::Red);
        for p in game.positions() {
            if let Some(f) = filters {
                if f.check(&p).is_err() {
                    continue;
                }
            }
            let red_score = match p.position.side_to_move() {
                Color::Red => p.ply.score,
                Color::Black => p.ply.score.negated(),
            };
            writeln!(
                out,
                "{} | {red_score} | {red_points:.1}",
                p.position.to_fen()
            )
            .map_err(DumpError::Write)?;
            summary.positions += 1;
        }
    }
    Ok(summary)
}
