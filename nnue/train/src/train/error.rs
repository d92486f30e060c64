//! Why a training run failed.

use crate::data::{DataError, DataErrorKind};
use nnue::format::NetError;
use std::fmt;
use std::io;
use std::path::PathBuf;

/// A failed training run; every variant names the file involved, if any.
#[derive(Debug)]
pub enum TrainError {
    /// Options that do not fit together.
    BadArgs(String),
    /// A file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// A data file is corrupt.
    Data {
        /// The file.
        path: PathBuf,
        /// Where and what.
        error: DataError,
    },
    /// The filters left no training position.
    NoPositions,
    /// K cannot be fitted (every score is 0); give it with `--k`.
    CannotFitK,
    /// A checkpoint cannot be used.
    Checkpoint {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A file could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// The network could not be exported.
    Export(NetError),
    /// The worker threads could not be started.
    Threads(String),
    /// A net file could not be loaded.
    Net {
        /// The file.
        path: PathBuf,
        /// Why.
        error: nnue::LoadError,
    },
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::BadArgs(m) => write!(f, "{m}"),
            TrainError::Read { path, error } => {
                write!(f, "cannot read {}: {error}", path.display())
            }
            TrainError::Data { path, error } => match error.kind {
                DataErrorKind::BadMagic(m) if error.game_index == 0 => write!(
                    f,
                    "{} is not game records (`cotuong datagen --out` writes them): it starts \
                     with bytes {:02x} {:02x} {:02x}, not \"XQG\"",
                    path.display(),
                    m[0],
                    m[1],
                    m[2]
                ),
                _ => write!(f, "{}: {error}", path.display()),
            },
            TrainError::NoPositions => write!(
                f,
                "no training positions: the data is empty or the filters keep nothing"
            ),
            TrainError::CannotFitK => write!(
                f,
                "cannot fit K: every kept score is 0 (give the scale with --k)"
            ),
            TrainError::Checkpoint { path, reason } => {
                write!(f, "checkpoint {}: {reason}", path.display())
            }
            TrainError::Write { path, error } => {
                write!(f, "cannot write {}: {error}", path.display())
            }
            TrainError::Export(e) => write!(f, "cannot export the net: {e}"),
            TrainError::Threads(m) => write!(f, "cannot start worker threads: {m}"),
            TrainError::Net { path, error } => write!(f, "net {}: {error}", path.display()),
        }
    }
}

impl std::error::Error for TrainError {}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename, so
/// `path` never holds a half-written file.
pub(crate) fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> Result<(), TrainError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let wrap = |error| TrainError::Write {
        path: path.to_path_buf(),
        error,
    };
    std::fs::write(&tmp, bytes).map_err(wrap)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        wrap(e)
    })
}
