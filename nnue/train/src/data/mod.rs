//! Self-play training data: the game-record format, its writer and reader, load-time filters,
//! the packed in-memory training position and a text dump.
//!
//! # The game-record format
//!
//! A data file is a sequence of game records and nothing else: no file header, so shards join by
//! concatenation (`cat a.xqg b.xqg > all.xqg`) and a generator appends. Each record starts with a
//! magic and version, so a reader notices a foreign or newer file at once. All numbers are
//! little-endian. One record, offsets from its first byte:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 3 | magic `XQG` ([`MAGIC`]) |
//! | 3 | 1 | version, `u8` ([`VERSION`] = 1) |
//! | 4 | 16 | occupancy of the start position, `u128`: bit `s` set when square `s` = `rank * 9 + file` holds a piece (a0 = 0, i0 = 8, a9 = 81; rank 0 is Red's back rank); bits 90-127 zero |
//! | 20 | 16 | piece codes: 4 bits per occupied square in ascending square order, the first square in the low nibble of byte 20, the second in its high nibble, and so on; nibbles after the last piece zero. Code = `colour * 8 + kind`, colour 0 Red / 1 Black, kind 0 general, 1 advisor, 2 elephant, 3 horse, 4 chariot, 5 cannon, 6 soldier (so 7 and 15 are invalid) |
//! | 36 | 1 | side to move: 0 Red, 1 Black |
//! | 37 | 1 | result: 0 Black won, 1 draw, 2 Red won (Red's points × 2) |
//! | 38 | 1 | termination code ([`Termination`], table below) |
//! | 39 | 1 | reserved, 0 |
//! | 40 | 2 | no-capture plies of the start position (the FEN half-move clock), `u16` |
//! | 42 | 2 | full-move number of the start position, `u16`, at least 1 |
//! | 44 | 2 | ply count N, `u16` |
//! | 46 | 4·N | per ply, in order: the move, `u16` (from-square in bits 0-6, to-square in bits 7-13, bits 14-15 zero: engine-core's `Move::raw`), then the score, `i16` ([`Score`], table below) |
//! | 46 + 4N | 4 | checksum, `u32`: the low 32 bits of FNV-1a 64 over bytes 0 .. 46 + 4N of this record ([`checksum`]) |
//!
//! A record is 50 + 4N bytes: 4 bytes per position plus 50 per game (about 4.3 bytes per
//! position in games of 150 plies). The writer produces exactly these bytes for a given game (no
//! padding, no timestamps), so a deterministic generator gives identical files.
//!
//! The start position is stored as a FEN holds it; the no-capture rule's per-side counts of
//! checking moves start at zero on replay, as after a FEN. The score of ply `k` is the search
//! score of the position before move `k`, from the point of view of the side to move there:
//!
//! | stored `i16` `v` | meaning |
//! |---|---|
//! | `-32768` | no score (a move not chosen by a search, e.g. a random opening move) |
//! | `-19000 ..= 19000` | evaluation, engine units |
//! | `19001 ..= 20000` / `-20000 ..= -19001` | the side to move wins / loses by a rule (perpetual check or chase) in `20000 - abs(v)` plies |
//! | `31000 ..= 32000` / `-32000 ..= -31000` | the side to move mates / is mated in `32000 - abs(v)` plies |
//!
//! Other values are invalid. Termination codes and the result each allows:
//!
//! | code | termination | result |
//! |---|---|---|
//! | 0 | checkmate (verified on the final position) | the side to move in the final position lost |
//! | 1 | stalemate (verified; stalemate loses in xiangqi) | the side to move in the final position lost |
//! | 2 | perpetual check | a win |
//! | 3 | perpetual chase | a win |
//! | 4 | repetition draw | draw |
//! | 5 | no-capture limit | draw |
//! | 6 | insufficient material (verified) | draw |
//! | 7 | adjudicated win | a win |
//! | 8 | adjudicated draw | draw |
//! | 9 | ply cap | draw |
//!
//! A final position without a legal move must be recorded as checkmate or stalemate.
//!
//! # Reading
//!
//! [`GameReader`] validates every field, checks the checksum, rebuilds the start position with
//! engine-core (which rejects illegal placements) and replays every move, checking that it is
//! legal, then checks the outcome. Any problem is a [`DataError`] with the byte offset of the
//! field and of the record's start; nothing panics.
//!
//! # Writing
//!
//! ```
//! use engine_core::GameResult;
//! use engine_core::Position;
//! use nnue_train::data::{GameRecord, Score, Termination};
//!
//! let mut record = GameRecord::new(&Position::startpos()).unwrap();
//! let mv = record.position().legal_moves()[0];
//! record.push(mv, Score::from_search(12)).unwrap();
//! let game = record.finish(GameResult::Draw, Termination::PlyCap).unwrap();
//! let mut file: Vec<u8> = Vec::new(); // or a `File` opened for appending
//! game.write_to(&mut file).unwrap();
//! ```

mod board;
mod dump;
mod filter;
mod outcome;
mod packed;
mod reader;
mod record;
mod score;
pub mod synthetic_games;

pub use board::{piece_code, piece_from_code, BoardError, PackedBoard, MAX_PIECES};
pub use dump::{dump, DumpError, DumpSummary};
pub use filter::{training_score, FilterStats, Filters, Rejection};
pub use outcome::{check_outcome, result_code, result_from_code, OutcomeError, Termination};
pub use packed::{ActiveFeatures, PackedPosition};
pub use reader::{DataError, DataErrorKind, GameReader};
pub use record::{
    checksum, points_for, Game, GameRecord, Ply, PlyPosition, RecordError, CHECKSUM_BYTES,
    HEADER_BYTES, MAGIC, MAX_PLIES, PLY_BYTES, VERSION,
};
pub use score::{
    Score, EVAL_LIMIT, MATE_SCORE, MAX_MATE_PLIES, MAX_RULE_PLIES, NO_SCORE, RULE_WIN_SCORE,
};
