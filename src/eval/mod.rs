//! Static evaluation. Each search thread owns one [`Evaluator`]: the search tells it about every
//! board change it makes (`did_move`, `undid_move`, `did_null_move`, `undid_null_move`, always
//! in stack order, starting from the position given to `reset`) and asks it for the score of the
//! current position with [`Evaluator::evaluate`]. An incremental evaluator (NNUE accumulators)
//! updates its state in those notifications; the handcrafted evaluation needs none and computes
//! the score from the position alone.
//!
//! Scores are in internal units from the side to move's point of view; a soldier before the
//! river is worth about 60, a horse about 400 (see [`hce`] for the values). The protocols scale
//! these for output (UCI `cp`, UCCI "100 = one minor piece").

pub mod hce;
pub mod nnue;
pub mod pst;

use engine_core::{Move, Position, Undo};
use std::sync::Arc;

/// The evaluator of one search thread. Cloning copies the accumulators but shares the net: a
/// search clones one per thread.
#[derive(Clone, Debug)]
pub enum Evaluator {
    /// The handcrafted evaluation ([`hce`]): stateless. The baseline for tests and comparisons
    /// (`Use NNUE false`).
    Handcrafted,
    /// The network ([`nnue`]), with this thread's accumulators.
    Nnue(Box<nnue::NnueEvaluator>),
}

impl Default for Evaluator {
    /// The engine's default evaluation: the embedded net (the handcrafted evaluation only if a
    /// broken net was built in, which the tests rule out).
    fn default() -> Self {
        nnue::embedded_net().map_or(Evaluator::Handcrafted, Evaluator::with_net)
    }
}

impl Evaluator {
    /// A network evaluator for `net`.
    pub fn with_net(net: Arc<::nnue::Network>) -> Evaluator {
        Evaluator::Nnue(Box::new(nnue::NnueEvaluator::new(net)))
    }

    /// The evaluation a command-line value names: `nnue` (the net built into the binary), `hce`
    /// (the handcrafted evaluation) or the path of a net file.
    pub fn from_choice(value: &str) -> Result<Evaluator, String> {
        match value {
            "hce" => Ok(Evaluator::Handcrafted),
            "nnue" => nnue::NetSource::Embedded
                .load()
                .map(Evaluator::with_net)
                .map_err(|e| e.to_string()),
            path => nnue::NetSource::File(path.into())
                .load()
                .map(Evaluator::with_net)
                .map_err(|e| e.to_string()),
        }
    }

    /// The net in use, if this is a network evaluator.
    pub fn net(&self) -> Option<&Arc<::nnue::Network>> {
        match self {
            Evaluator::Handcrafted => None,
            Evaluator::Nnue(n) => Some(n.net()),
        }
    }

    /// Starts from `pos` (the root of a search): forget any state of earlier positions.
    #[inline]
    pub fn reset(&mut self, pos: &Position) {
        match self {
            Evaluator::Handcrafted => {
                let _ = pos;
            }
            Evaluator::Nnue(n) => n.reset(pos),
        }
    }

    /// The search made `mv` (now `pos`); `undo` says what moved and what was captured.
    #[inline(always)]
    pub fn did_move(&mut self, pos: &Position, mv: Move, undo: &Undo) {
        match self {
            Evaluator::Handcrafted => {
                let _ = (pos, mv, undo);
            }
            Evaluator::Nnue(n) => n.did_move(pos, mv, undo),
        }
    }

    /// The search took back the last move it made.
    #[inline(always)]
    pub fn undid_move(&mut self) {
        match self {
            Evaluator::Handcrafted => {}
            Evaluator::Nnue(n) => n.undo(),
        }
    }

    /// The search passed the turn (null move): the board is unchanged, the side to move is not.
    #[inline(always)]
    pub fn did_null_move(&mut self) {
        match self {
            Evaluator::Handcrafted => {}
            Evaluator::Nnue(n) => n.did_null_move(),
        }
    }

    /// The search took back its null move.
    #[inline(always)]
    pub fn undid_null_move(&mut self) {
        match self {
            Evaluator::Handcrafted => {}
            Evaluator::Nnue(n) => n.undo(),
        }
    }

    /// The static evaluation of `pos`, the position the notifications led to: side-to-move
    /// relative, never a mate score, always well inside `±search::score::MATE_BOUND`.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        match self {
            Evaluator::Handcrafted => hce::evaluate(pos),
            Evaluator::Nnue(n) => n.evaluate(pos),
        }
    }
}

/// A term-by-term breakdown for the `eval` protocol command (Red's point of view, tapered).
pub fn explain(pos: &Position) -> String {
    hce::explain(pos)
}
