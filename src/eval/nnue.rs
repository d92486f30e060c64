//! The network evaluation in the engine: which net is in use (the one embedded in the binary, or
//! one loaded from a file with `EvalFile`), and the per-thread evaluator that keeps the
//! accumulators up to date as the search moves.
//!
//! The net is immutable and shared by every search thread (`Arc`); each thread owns its
//! accumulator stack. Loading never panics: a missing, truncated or foreign file is an error
//! message, and the caller keeps the net it had.

use engine_core::{Move, Position, Undo};
use nnue::{AccumulatorStack, LoadError, Network};
use once_cell::sync::Lazy;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// File name (in `nnue/nets/`) of the net built into the binary.
macro_rules! embedded_net_file {
    () => {
        "cotuong-20.nnue"
    };
}

/// Name of the embedded net's file in `nnue/nets/`.
pub const EMBEDDED_NET_FILE: &str = embedded_net_file!();

/// The value of `EvalFile` that selects the embedded net (also its default).
pub const EMBEDDED_NET_OPTION: &str = "<embedded>";

/// The embedded net's bytes: nothing to download and nothing to place next to the binary.
static EMBEDDED_BYTES: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/nnue/nets/",
    embedded_net_file!()
));

/// The embedded net, parsed and checked once.
static EMBEDDED: Lazy<Result<Arc<Network>, NetLoadError>> = Lazy::new(|| {
    Network::from_bytes(EMBEDDED_BYTES)
        .map(Arc::new)
        .map_err(NetLoadError::Embedded)
});

/// The embedded net (an error only if the binary was built with a broken net file, which the
/// tests rule out).
pub fn embedded_net() -> Result<Arc<Network>, NetLoadError> {
    EMBEDDED.clone()
}

/// Why a net did not load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetLoadError {
    /// The net built into the binary is broken.
    Embedded(LoadError),
    /// The path names a directory.
    Directory(PathBuf),
    /// The file cannot be read, or is not a net this engine can use.
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: LoadError,
    },
}

impl fmt::Display for NetLoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetLoadError::Embedded(e) => {
                write!(f, "the embedded net {EMBEDDED_NET_FILE} does not load: {e}")
            }
            NetLoadError::Directory(path) => {
                write!(f, "cannot load net '{}': it is a directory", path.display())
            }
            NetLoadError::File { path, error } => {
                write!(f, "cannot load net '{}': {error}", path.display())
            }
        }
    }
}

impl std::error::Error for NetLoadError {}

/// Where a net comes from: the `EvalFile` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetSource {
    /// The net built into the binary.
    Embedded,
    /// A net file.
    File(PathBuf),
}

impl NetSource {
    /// The source an `EvalFile` value names: empty or [`EMBEDDED_NET_OPTION`] is the embedded
    /// net, anything else a path.
    pub fn from_option(value: &str) -> NetSource {
        let value = value.trim();
        if value.is_empty() || value == EMBEDDED_NET_OPTION {
            NetSource::Embedded
        } else {
            NetSource::File(PathBuf::from(value))
        }
    }

    /// Loads the net; the error names the file and says what is wrong with it.
    pub fn load(&self) -> Result<Arc<Network>, NetLoadError> {
        match self {
            NetSource::Embedded => embedded_net(),
            NetSource::File(path) => load_file(path),
        }
    }
}

/// Loads a net file, with an error that names it.
fn load_file(path: &Path) -> Result<Arc<Network>, NetLoadError> {
    if path.is_dir() {
        return Err(NetLoadError::Directory(path.to_path_buf()));
    }
    Network::load_file(path)
        .map(Arc::new)
        .map_err(|error| NetLoadError::File {
            path: path.to_path_buf(),
            error,
        })
}

/// One search thread's network evaluator: the shared net and this thread's accumulators.
#[derive(Clone, Debug)]
pub struct NnueEvaluator {
    net: Arc<Network>,
    stack: AccumulatorStack,
}

impl NnueEvaluator {
    /// An evaluator for `net` (its accumulators start at the initial position until `reset`).
    pub fn new(net: Arc<Network>) -> NnueEvaluator {
        let stack = AccumulatorStack::new(&net, &Position::startpos());
        NnueEvaluator { net, stack }
    }

    /// The net.
    pub fn net(&self) -> &Arc<Network> {
        &self.net
    }

    /// See [`super::Evaluator::reset`].
    #[inline]
    pub fn reset(&mut self, pos: &Position) {
        self.stack.reset(&self.net, pos);
    }

    /// See [`super::Evaluator::did_move`].
    #[inline(always)]
    pub fn did_move(&mut self, pos: &Position, mv: Move, undo: &Undo) {
        self.stack.push_move(pos, mv, undo);
    }

    /// See [`super::Evaluator::undid_move`] (also takes back a null move).
    #[inline(always)]
    pub fn undo(&mut self) {
        self.stack.pop();
    }

    /// See [`super::Evaluator::did_null_move`].
    #[inline(always)]
    pub fn did_null_move(&mut self) {
        self.stack.push_null();
    }

    /// See [`super::Evaluator::evaluate`].
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        self.stack.evaluate(&self.net, pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_net_loads_and_evaluates_both_colours_alike() {
        let net = embedded_net().expect("the embedded net loads");
        let start = Position::startpos();
        // The initial position is symmetric: both sides to move see the same board.
        let red = net.evaluate(&start);
        let black = net.evaluate(
            &Position::from_fen(
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
            )
            .expect("a legal FEN"),
        );
        assert_eq!(red, black);
        assert!(red.abs() < 200, "start position scored {red}");
    }

    #[test]
    fn option_values_name_their_source() {
        assert_eq!(NetSource::from_option(""), NetSource::Embedded);
        assert_eq!(NetSource::from_option("<embedded>"), NetSource::Embedded);
        assert_eq!(
            NetSource::from_option(" nets/a.nnue "),
            NetSource::File(PathBuf::from("nets/a.nnue"))
        );
    }

    #[test]
    fn bad_files_are_errors_that_name_them() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let missing = NetSource::File(dir.path().join("cotuong-no-such-net.nnue")).load();
        assert!(missing
            .unwrap_err()
            .to_string()
            .contains("cotuong-no-such-net.nnue"));
        let directory = NetSource::File(dir.path().to_path_buf())
            .load()
            .unwrap_err();
        assert!(matches!(directory, NetLoadError::Directory(_)));
        assert!(directory.to_string().contains("directory"), "{directory}");
    }

    #[test]
    fn incremental_evaluation_matches_a_fresh_one_along_a_game() {
        let net = embedded_net().expect("the embedded net loads");
        let mut ev = NnueEvaluator::new(net.clone());
        let mut pos = Position::startpos();
        ev.reset(&pos);
        let mut undos = Vec::new();
        for i in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[(i * 7919) % moves.len()];
            let undo = pos.make_move(mv);
            ev.did_move(&pos, mv, &undo);
            undos.push((mv, undo));
            assert_eq!(ev.evaluate(&pos), net.evaluate(&pos), "after {i} plies");
        }
        while let Some((mv, undo)) = undos.pop() {
            pos.unmake_move(mv, undo);
            ev.undo();
            assert_eq!(ev.evaluate(&pos), net.evaluate(&pos));
        }
    }
}
