//! Cutting a fixed validation file: the last games of a data file go to a file of their own
//! (`nnue holdout`), to be given to every later run with `--validation-file`, so that validation
//! losses stay comparable from net to net.

use super::dataset::open_data_file;
use super::error::TrainError;
use crate::data::GameReader;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What [`holdout`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holdout {
    /// Games in the input.
    pub games: u64,
    /// Games written to the validation file (the input's last ones).
    pub validation_games: u64,
    /// Bytes of game records in the validation file (before compression).
    pub validation_bytes: u64,
}

/// Writes the last `games` games of `input` (all of them if it has fewer) to `validation`, and
/// the others to `rest` when given: each record's bytes as they are, gzip-compressed when the
/// output's name ends in `.gz`, written through a temporary file. Every record is read and
/// checked first.
///
/// The training run needs no `rest`: given `--validation-file`, it leaves a data file's games
/// that are also in the validation file out of training, so the input may stay a data file.
pub fn holdout(
    input: &Path,
    games: u64,
    validation: &Path,
    rest: Option<&Path>,
) -> Result<Holdout, TrainError> {
    let data_error = |error| TrainError::Data {
        path: input.to_path_buf(),
        error,
    };
    let read_error = |error| TrainError::Read {
        path: input.to_path_buf(),
        error,
    };
    // First pass: count (and check) the games.
    let mut total = 0u64;
    for game in GameReader::new(open_data_file(input).map_err(read_error)?) {
        game.map_err(data_error)?;
        total += 1;
    }
    let first_held_out = total.saturating_sub(games);
    // Second pass: copy the records (a record's encoding is the bytes it was read from).
    let mut held = Output::create(validation)?;
    let mut kept = rest.map(Output::create).transpose()?;
    let mut record = Vec::new();
    for (i, game) in GameReader::new(open_data_file(input).map_err(read_error)?).enumerate() {
        let game = game.map_err(data_error)?;
        record.clear();
        game.encode_into(&mut record);
        if (i as u64) >= first_held_out {
            held.write(&record)?;
        } else if let Some(kept) = &mut kept {
            kept.write(&record)?;
        }
    }
    let validation_bytes = held.bytes;
    held.finish()?;
    if let Some(kept) = kept {
        kept.finish()?;
    }
    Ok(Holdout {
        games: total,
        validation_games: total - first_held_out,
        validation_bytes,
    })
}

/// A file being written through `NAME.tmp`, gzip-compressed if its name ends in `.gz`.
struct Output {
    path: PathBuf,
    tmp: PathBuf,
    writer: Sink,
    bytes: u64,
}

/// The writer of an [`Output`].
enum Sink {
    Plain(std::io::BufWriter<std::fs::File>),
    Gzip(flate2::write::GzEncoder<std::io::BufWriter<std::fs::File>>),
}

impl Output {
    fn create(path: &Path) -> Result<Output, TrainError> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let file = std::fs::File::create(&tmp).map_err(|error| TrainError::Write {
            path: path.to_path_buf(),
            error,
        })?;
        let file = std::io::BufWriter::new(file);
        let writer = if path.extension().is_some_and(|e| e == "gz") {
            Sink::Gzip(flate2::write::GzEncoder::new(
                file,
                flate2::Compression::best(),
            ))
        } else {
            Sink::Plain(file)
        };
        Ok(Output {
            path: path.to_path_buf(),
            tmp,
            writer,
            bytes: 0,
        })
    }

    fn error(&self, error: std::io::Error) -> TrainError {
        let _ = std::fs::remove_file(&self.tmp);
        TrainError::Write {
            path: self.path.clone(),
            error,
        }
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), TrainError> {
        self.bytes += bytes.len() as u64;
        let result = match &mut self.writer {
            Sink::Plain(w) => w.write_all(bytes),
            Sink::Gzip(w) => w.write_all(bytes),
        };
        result.map_err(|e| self.error(e))
    }

    /// Ends the gzip stream, flushes and renames the file into place.
    fn finish(self) -> Result<(), TrainError> {
        let file = match self.writer {
            Sink::Plain(w) => w.into_inner().map_err(|e| e.into_error()),
            Sink::Gzip(w) => w
                .finish()
                .and_then(|w| w.into_inner().map_err(|e| e.into_error())),
        };
        let done = file
            .and_then(|f| f.sync_all())
            .and_then(|()| std::fs::rename(&self.tmp, &self.path));
        done.map_err(|error| {
            let _ = std::fs::remove_file(&self.tmp);
            TrainError::Write {
                path: self.path.clone(),
                error,
            }
        })
    }
}
