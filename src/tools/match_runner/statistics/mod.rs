//! What a match's results say: the tally of outcomes, W/D/L and pentanomial statistics with Elo,
//! the SPRT, standings with tie-breaks, the smallest useful sample, and the printed report.

mod report;
mod sample_size;
mod sprt;
mod stats;
mod tally;
mod tiebreak;

pub(crate) use report::{final_report, status_line};
pub(crate) use sprt::{Sprt, SprtDecision};
pub(crate) use tally::Tally;
pub(crate) use tiebreak::Outcome;
