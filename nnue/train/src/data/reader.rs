//! Reading game records back: every field validated, every move replayed and checked for
//! legality, every problem a [`DataError`] with the byte offset where it was found.

use super::board::{BoardError, PackedBoard, PIECE_CODE_BYTES};
use super::outcome::{check_outcome, result_from_code, OutcomeError, Termination};
use super::record::{checksum, Game, Ply, CHECKSUM_BYTES, HEADER_BYTES, MAGIC, PLY_BYTES, VERSION};
use super::score::Score;
use engine_core::{Color, FenError, Move, Position};
use std::fmt;
use std::io::{self, BufReader, Read};

/// Offsets of the header fields within a record (see the module documentation of
/// [`crate::data`]).
mod field {
    pub const VERSION: usize = 3;
    pub const OCCUPANCY: usize = 4;
    pub const CODES: usize = 20;
    pub const SIDE: usize = 36;
    pub const RESULT: usize = 37;
    pub const TERMINATION: usize = 38;
    pub const RESERVED: usize = 39;
    pub const NO_CAPTURE: usize = 40;
    pub const FULLMOVE: usize = 42;
    pub const PLY_COUNT: usize = 44;
}

/// What is wrong with a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataErrorKind {
    /// Reading failed.
    Io {
        /// The I/O error kind.
        kind: io::ErrorKind,
        /// Its message.
        message: String,
    },
    /// The data ended inside a record, in `field`.
    Truncated {
        /// The field being read.
        field: &'static str,
    },
    /// The record does not start with [`MAGIC`].
    BadMagic([u8; 3]),
    /// A record version this build does not read.
    UnsupportedVersion(u8),
    /// The start position's packed board is malformed.
    BadBoard(BoardError),
    /// The side-to-move byte is not 0 or 1.
    BadSideToMove(u8),
    /// The result byte is not 0, 1 or 2.
    BadResult(u8),
    /// The termination byte names no [`Termination`].
    BadTermination(u8),
    /// The reserved byte is not zero.
    BadReserved(u8),
    /// The full-move number is zero.
    BadFullmove,
    /// The start position is not a legal xiangqi position.
    BadStartPosition(FenError),
    /// The stored checksum does not match the record's bytes.
    ChecksumMismatch {
        /// Stored in the record.
        stored: u32,
        /// Computed from the bytes.
        computed: u32,
    },
    /// A move field names a square off the board.
    BadMove {
        /// 0-based ply index.
        ply: usize,
        /// The stored value.
        raw: u16,
    },
    /// A move that is not legal where it is played.
    IllegalMove {
        /// 0-based ply index.
        ply: usize,
        /// The move.
        mv: Move,
        /// The position it was played in.
        fen: String,
    },
    /// A score field outside every band of the encoding.
    BadScore {
        /// 0-based ply index.
        ply: usize,
        /// The stored value.
        raw: i16,
    },
    /// The result and reason do not fit the final position.
    Outcome(OutcomeError),
}

impl fmt::Display for DataErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataErrorKind::Io { message, .. } => write!(f, "read error: {message}"),
            DataErrorKind::Truncated { field } => write!(f, "data ends inside the {field}"),
            DataErrorKind::BadMagic(m) => write!(
                f,
                "not a game record (starts with bytes {:02x} {:02x} {:02x}, expected \"XQG\")",
                m[0], m[1], m[2]
            ),
            DataErrorKind::UnsupportedVersion(v) => write!(
                f,
                "game record version {v}, this build reads version {VERSION}"
            ),
            DataErrorKind::BadBoard(e) => write!(f, "start position: {e}"),
            DataErrorKind::BadSideToMove(v) => write!(f, "side to move {v} (expected 0 or 1)"),
            DataErrorKind::BadResult(v) => write!(f, "result code {v} (expected 0, 1 or 2)"),
            DataErrorKind::BadTermination(v) => write!(f, "unknown termination code {v}"),
            DataErrorKind::BadReserved(v) => write!(f, "reserved byte is {v}, expected 0"),
            DataErrorKind::BadFullmove => write!(f, "full-move number 0"),
            DataErrorKind::BadStartPosition(e) => write!(f, "start position: {e}"),
            DataErrorKind::ChecksumMismatch { stored, computed } => write!(
                f,
                "checksum mismatch (stored {stored:08x}, computed {computed:08x})"
            ),
            DataErrorKind::BadMove { ply, raw } => {
                write!(f, "ply {ply}: move field {raw:#06x} is off the board")
            }
            DataErrorKind::IllegalMove { ply, mv, fen } => {
                write!(f, "ply {ply}: move {mv} is not legal in {fen}")
            }
            DataErrorKind::BadScore { ply, raw } => {
                write!(f, "ply {ply}: score field {raw} is outside every band")
            }
            DataErrorKind::Outcome(e) => write!(f, "{e}"),
        }
    }
}

/// A corrupt or unreadable record, located in the stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    /// Byte offset from the start of the stream of the field where the problem was found (for a
    /// truncation: the end of the data).
    pub offset: u64,
    /// Byte offset of the start of the record it is in: the data before it holds only complete,
    /// valid records (a generator resuming a file truncates it here).
    pub game_offset: u64,
    /// 0-based index of that record in the stream.
    pub game_index: u64,
    /// What is wrong.
    pub kind: DataErrorKind,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "byte {} (game {} starting at byte {}): {}",
            self.offset,
            self.game_index + 1,
            self.game_offset,
            self.kind
        )
    }
}

impl std::error::Error for DataError {}

/// Reads the games of a stream of concatenated records, in order. Iteration stops after the first
/// error (the stream cannot be resynchronised reliably), which is yielded once.
///
/// ```
/// use nnue_train::data::{synthetic_games, GameReader};
///
/// let bytes: Vec<u8> = (0..3).flat_map(|seed| synthetic_games::random_game(seed, 40).to_bytes()).collect();
/// let games: Result<Vec<_>, _> = GameReader::new(&bytes[..]).collect();
/// assert_eq!(games.unwrap().len(), 3);
/// let truncated = GameReader::new(&bytes[..bytes.len() - 1]).last().unwrap();
/// assert!(truncated.is_err());
/// ```
pub struct GameReader<R: Read> {
    input: BufReader<R>,
    /// Bytes consumed so far (always at a record boundary between games).
    offset: u64,
    games: u64,
    failed: bool,
    /// Buffer of the record being read.
    record: Vec<u8>,
}

impl<R: Read> GameReader<R> {
    /// A reader of the records in `input`.
    pub fn new(input: R) -> GameReader<R> {
        GameReader {
            input: BufReader::with_capacity(1 << 16, input),
            offset: 0,
            games: 0,
            failed: false,
            record: Vec::new(),
        }
    }

    /// Bytes of complete, valid records read so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Games read so far.
    pub fn games_read(&self) -> u64 {
        self.games
    }

    /// Reads into `buf` until it is full or the input ends; returns the bytes read.
    fn fill(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        while n < buf.len() {
            match self.input.read(&mut buf[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(n)
    }

    fn error(&self, at: usize, kind: DataErrorKind) -> DataError {
        DataError {
            offset: self.offset + at as u64,
            game_offset: self.offset,
            game_index: self.games,
            kind,
        }
    }

    fn io_error(&self, at: usize, e: &io::Error) -> DataError {
        self.error(
            at,
            DataErrorKind::Io {
                kind: e.kind(),
                message: e.to_string(),
            },
        )
    }

    /// Reads one record; `Ok(None)` at a clean end of the data.
    fn read_game(&mut self) -> Result<Option<Game>, DataError> {
        let mut header = [0u8; HEADER_BYTES];
        let got = self.fill(&mut header).map_err(|e| self.io_error(0, &e))?;
        if got == 0 {
            return Ok(None);
        }
        // A short file that is not game records at all is named so, not "cut short".
        let seen = got.min(MAGIC.len());
        if header[..seen] != MAGIC[..seen] {
            let mut magic = [0u8; 3];
            magic[..seen].copy_from_slice(&header[..seen]);
            return Err(self.error(0, DataErrorKind::BadMagic(magic)));
        }
        if got < HEADER_BYTES {
            return Err(self.error(
                got,
                DataErrorKind::Truncated {
                    field: header_field_name(got),
                },
            ));
        }
        let (start_fields, ply_count) = self.parse_header(&header)?;

        // The whole record in one buffer (reused between games) for the checksum.
        let record_len = HEADER_BYTES + PLY_BYTES * ply_count + CHECKSUM_BYTES;
        let mut record = std::mem::take(&mut self.record);
        record.clear();
        record.extend_from_slice(&header);
        record.resize(record_len, 0);
        let got = self.fill(&mut record[HEADER_BYTES..]);
        let result = match got {
            Err(e) => Err(self.io_error(HEADER_BYTES, &e)),
            Ok(n) if HEADER_BYTES + n < record_len => {
                let field = if n < PLY_BYTES * ply_count {
                    "plies"
                } else {
                    "checksum"
                };
                Err(self.error(HEADER_BYTES + n, DataErrorKind::Truncated { field }))
            }
            Ok(_) => self.parse_body(&record, start_fields, ply_count),
        };
        self.record = record;
        let game = result?;
        self.offset += record_len as u64;
        self.games += 1;
        Ok(Some(game))
    }

    /// Validates the header; returns the start position's fields and the ply count.
    fn parse_header(&self, h: &[u8; HEADER_BYTES]) -> Result<(StartFields, usize), DataError> {
        let magic = [h[0], h[1], h[2]];
        if magic != MAGIC {
            return Err(self.error(0, DataErrorKind::BadMagic(magic)));
        }
        if h[field::VERSION] != VERSION {
            return Err(self.error(
                field::VERSION,
                DataErrorKind::UnsupportedVersion(h[field::VERSION]),
            ));
        }
        let mut occupancy = [0u8; 16];
        occupancy.copy_from_slice(&h[field::OCCUPANCY..field::OCCUPANCY + 16]);
        let mut codes = [0u8; PIECE_CODE_BYTES];
        codes.copy_from_slice(&h[field::CODES..field::CODES + PIECE_CODE_BYTES]);
        let board = PackedBoard {
            occupancy: u128::from_le_bytes(occupancy),
            codes,
        };
        if let Err(e) = board.validate() {
            let at = match e {
                BoardError::OccupancyBeyondBoard | BoardError::TooManyPieces(_) => field::OCCUPANCY,
                BoardError::BadPieceCode { nth, .. } => field::CODES + nth / 2,
                BoardError::NonZeroPadding => field::CODES,
            };
            return Err(self.error(at, DataErrorKind::BadBoard(e)));
        }
        let side = match h[field::SIDE] {
            0 => Color::Red,
            1 => Color::Black,
            v => return Err(self.error(field::SIDE, DataErrorKind::BadSideToMove(v))),
        };
        let result = result_from_code(h[field::RESULT])
            .ok_or_else(|| self.error(field::RESULT, DataErrorKind::BadResult(h[field::RESULT])))?;
        let termination = Termination::from_code(h[field::TERMINATION]).ok_or_else(|| {
            self.error(
                field::TERMINATION,
                DataErrorKind::BadTermination(h[field::TERMINATION]),
            )
        })?;
        if h[field::RESERVED] != 0 {
            return Err(self.error(
                field::RESERVED,
                DataErrorKind::BadReserved(h[field::RESERVED]),
            ));
        }
        let u16_at = |at: usize| u16::from_le_bytes([h[at], h[at + 1]]);
        let no_capture = u16_at(field::NO_CAPTURE);
        let fullmove = u16_at(field::FULLMOVE);
        if fullmove == 0 {
            return Err(self.error(field::FULLMOVE, DataErrorKind::BadFullmove));
        }
        let fields = StartFields {
            fen: board.fen(side, no_capture, fullmove),
            result,
            termination,
        };
        Ok((fields, usize::from(u16_at(field::PLY_COUNT))))
    }

    /// Checks the checksum, builds the start position and replays the plies of `record` (the
    /// whole record, header included).
    fn parse_body(
        &self,
        record: &[u8],
        start: StartFields,
        ply_count: usize,
    ) -> Result<Game, DataError> {
        let plies_end = HEADER_BYTES + PLY_BYTES * ply_count;
        let stored = u32::from_le_bytes([
            record[plies_end],
            record[plies_end + 1],
            record[plies_end + 2],
            record[plies_end + 3],
        ]);
        let computed = checksum(&record[..plies_end]);
        if stored != computed {
            return Err(self.error(
                plies_end,
                DataErrorKind::ChecksumMismatch { stored, computed },
            ));
        }
        let start_pos = Position::from_fen(&start.fen)
            .map_err(|e| self.error(field::OCCUPANCY, DataErrorKind::BadStartPosition(e)))?;
        let mut pos = start_pos.clone();
        let mut plies = Vec::with_capacity(ply_count);
        for (ply, bytes) in record[HEADER_BYTES..plies_end]
            .chunks_exact(PLY_BYTES)
            .enumerate()
        {
            let at = HEADER_BYTES + ply * PLY_BYTES;
            let raw = u16::from_le_bytes([bytes[0], bytes[1]]);
            let mv = Move::from_raw(raw)
                .ok_or_else(|| self.error(at, DataErrorKind::BadMove { ply, raw }))?;
            let raw_score = i16::from_le_bytes([bytes[2], bytes[3]]);
            let score = Score::decode(raw_score).ok_or_else(|| {
                self.error(
                    at + 2,
                    DataErrorKind::BadScore {
                        ply,
                        raw: raw_score,
                    },
                )
            })?;
            if !pos.is_legal(mv) {
                return Err(self.error(
                    at,
                    DataErrorKind::IllegalMove {
                        ply,
                        mv,
                        fen: pos.to_fen(),
                    },
                ));
            }
            pos.make_move(mv);
            plies.push(Ply { mv, score });
        }
        check_outcome(&pos, start.result, start.termination)
            .map_err(|e| self.error(field::RESULT, DataErrorKind::Outcome(e)))?;
        Ok(Game::from_parts(
            start_pos,
            plies,
            start.result,
            start.termination,
        ))
    }
}

/// The header fields that become the game's start and outcome.
struct StartFields {
    fen: String,
    result: engine_core::GameResult,
    termination: Termination,
}

/// The header field that a record cut after `len` bytes ends in.
fn header_field_name(len: usize) -> &'static str {
    match len {
        0..=2 => "magic",
        3 => "version",
        4..=19 => "occupancy",
        20..=35 => "piece codes",
        36 => "side to move",
        37 => "result",
        38 => "termination",
        39 => "reserved byte",
        40..=41 => "no-capture counter",
        42..=43 => "full-move number",
        _ => "ply count",
    }
}

impl<R: Read> Iterator for GameReader<R> {
    type Item = Result<Game, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match self.read_game() {
            Ok(Some(game)) => Some(Ok(game)),
            Ok(None) => None,
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}
