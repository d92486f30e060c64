//! Static evaluation behind one function, so the NNUE issue can swap the handcrafted
//! evaluation out without touching the search.
//!
//! Scores are in internal units from the side to move's point of view; a soldier before the
//! river is worth about 60, a horse about 400 (see [`hce`] for the values). The protocols scale
//! these for output (UCI `cp`, UCCI "100 = one minor piece").

pub mod hce;
pub mod pst;

use engine_core::Position;

/// The evaluator the search calls: side-to-move relative, never a mate score, always well inside
/// `±search::score::RULE_WIN`.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    hce::evaluate(pos)
}

/// A term-by-term breakdown for the `eval` protocol command (Red's point of view, tapered).
pub fn explain(pos: &Position) -> String {
    hce::explain(pos)
}
