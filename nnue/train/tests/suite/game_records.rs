//! The game-record format: round trips, concatenation, and corrupt data reported with its byte
//! offset, never a panic.

use engine_core::{GameResult, Move, Position, Square};
use nnue_train::data::{
    checksum, dump, synthetic_games, DataErrorKind, Filters, Game, GameReader, GameRecord,
    OutcomeError, Ply, PlyPosition, RecordError, Rejection, Score, Termination, HEADER_BYTES,
    PLY_BYTES,
};
use proptest::prelude::*;

fn games(seeds: std::ops::Range<u64>) -> Vec<Game> {
    seeds
        .map(|s| synthetic_games::random_game(s, 200))
        .collect()
}

fn encode(games: &[Game]) -> Vec<u8> {
    let mut out = Vec::new();
    for g in games {
        g.write_to(&mut out).unwrap();
    }
    out
}

fn read_all(bytes: &[u8]) -> Result<Vec<Game>, nnue_train::data::DataError> {
    GameReader::new(bytes).collect()
}

/// Recomputes the checksum of the record at `start` with `plies` plies after an edit.
fn fix_checksum(bytes: &mut [u8], start: usize, plies: usize) {
    let end = start + HEADER_BYTES + PLY_BYTES * plies;
    let sum = checksum(&bytes[start..end]);
    bytes[end..end + 4].copy_from_slice(&sum.to_le_bytes());
}

fn square(file: u8, rank: u8) -> Square {
    Square::new(file, rank).unwrap()
}

#[test]
fn round_trip_gives_the_same_positions_moves_scores_and_results() {
    let original = games(0..30);
    let terminations: std::collections::HashSet<_> =
        original.iter().map(|g| g.termination()).collect();
    assert!(
        terminations.len() >= 2,
        "the sample should end in several ways"
    );
    let bytes = encode(&original);
    assert_eq!(
        bytes.len(),
        original.iter().map(Game::encoded_len).sum::<usize>()
    );
    let read = read_all(&bytes).unwrap();
    assert_eq!(read, original);
    for (a, b) in original.iter().zip(&read) {
        assert_eq!(a.result(), b.result());
        assert_eq!(a.termination(), b.termination());
        let pa: Vec<PlyPosition> = a.positions().collect();
        let pb: Vec<PlyPosition> = b.positions().collect();
        assert_eq!(pa.len(), pb.len());
        for (x, y) in pa.iter().zip(&pb) {
            assert_eq!(x.index, y.index);
            assert_eq!(x.position.to_fen(), y.position.to_fen());
            assert_eq!(x.ply, y.ply);
        }
        assert_eq!(a.final_position(), b.final_position());
    }
    // Encoding is deterministic: the same games give the same bytes.
    assert_eq!(encode(&read), bytes);
}

#[test]
fn concatenated_files_read_as_one_stream() {
    let first = games(0..5);
    let second = games(100..107);
    let mut joined = encode(&first);
    let boundary = joined.len() as u64;
    joined.extend_from_slice(&encode(&second));
    let mut reader = GameReader::new(&joined[..]);
    let mut all = Vec::new();
    for g in &mut reader {
        all.push(g.unwrap());
    }
    assert_eq!(all.len(), 12);
    assert_eq!(&all[..5], &first[..]);
    assert_eq!(&all[5..], &second[..]);
    assert_eq!(reader.games_read(), 12);
    assert_eq!(reader.offset(), joined.len() as u64);
    assert!(boundary < reader.offset());
}

#[test]
fn an_empty_stream_has_no_games() {
    assert_eq!(read_all(&[]).unwrap(), Vec::<Game>::new());
}

#[test]
fn every_truncation_is_an_error_at_the_end_of_the_data() {
    let games = games(0..2);
    let bytes = encode(&games);
    let first_len = games[0].encoded_len();
    for cut in 1..bytes.len() {
        let result = read_all(&bytes[..cut]);
        if cut == first_len {
            assert_eq!(result.unwrap().len(), 1);
            continue;
        }
        let err = result.unwrap_err();
        assert!(
            matches!(err.kind, DataErrorKind::Truncated { .. }),
            "cut {cut}: {err}"
        );
        assert_eq!(err.offset, cut as u64, "cut {cut}");
        let expected_start = if cut < first_len { 0 } else { first_len as u64 };
        assert_eq!(err.game_offset, expected_start);
        assert_eq!(err.game_index, u64::from(cut >= first_len));
        assert!(err.to_string().contains(&format!("byte {cut}")), "{err}");
    }
}

#[test]
fn a_flipped_byte_anywhere_is_detected_inside_its_record() {
    let games = games(3..5);
    let bytes = encode(&games);
    let first_len = games[0].encoded_len();
    for i in 0..bytes.len() {
        for flip in [0x01u8, 0x80] {
            let mut bad = bytes.clone();
            bad[i] ^= flip;
            let err = match read_all(&bad) {
                Err(e) => e,
                // A length change can make the first record swallow the second and still fail
                // later; any success would be a missed corruption.
                Ok(_) => panic!("flip {flip:#x} at {i} not detected"),
            };
            let record_start = if i < first_len { 0 } else { first_len as u64 };
            assert_eq!(err.game_offset, record_start, "byte {i}: {err}");
            assert!(err.offset >= record_start, "byte {i}: {err}");
        }
    }
}

#[test]
fn header_fields_are_reported_at_their_offsets() {
    let game = synthetic_games::random_game(9, 60);
    let good = game.to_bytes();
    let plies = game.plies().len();
    let corrupt = |at: usize, value: u8| {
        let mut b = good.clone();
        b[at] = value;
        fix_checksum(&mut b, 0, plies);
        read_all(&b).unwrap_err()
    };
    let e = corrupt(0, b'Y');
    assert_eq!((e.offset, &e.kind), (0, &DataErrorKind::BadMagic(*b"YQG")));
    let e = corrupt(3, 2);
    assert_eq!(
        (e.offset, &e.kind),
        (3, &DataErrorKind::UnsupportedVersion(2))
    );
    let e = corrupt(4 + 15, 0xFF);
    assert_eq!(e.offset, 4);
    assert!(matches!(e.kind, DataErrorKind::BadBoard(_)), "{e}");
    let e = corrupt(20 + 2, 0x77);
    assert_eq!(e.offset, 22);
    assert!(matches!(e.kind, DataErrorKind::BadBoard(_)), "{e}");
    let e = corrupt(36, 2);
    assert_eq!((e.offset, &e.kind), (36, &DataErrorKind::BadSideToMove(2)));
    let e = corrupt(37, 3);
    assert_eq!((e.offset, &e.kind), (37, &DataErrorKind::BadResult(3)));
    let e = corrupt(38, 10);
    assert_eq!(
        (e.offset, &e.kind),
        (38, &DataErrorKind::BadTermination(10))
    );
    let e = corrupt(39, 1);
    assert_eq!((e.offset, &e.kind), (39, &DataErrorKind::BadReserved(1)));
    let mut b = good.clone();
    b[42] = 0;
    b[43] = 0;
    fix_checksum(&mut b, 0, plies);
    let e = read_all(&b).unwrap_err();
    assert_eq!((e.offset, &e.kind), (42, &DataErrorKind::BadFullmove));
    // Swapping the two generals' codes leaves each general outside its palace: a position
    // engine-core refuses.
    let mut b = good.clone();
    let black_general_at = game.start().general_square(engine_core::Color::Black);
    assert!(black_general_at.index() > 4);
    let e = {
        // Red general is the 5th piece (a0 b0 c0 d0 e0), Black's the 28th (..., d9 e9).
        let mut codes: Vec<u8> = b[20..36].iter().flat_map(|&x| [x & 15, x >> 4]).collect();
        codes.swap(4, 27);
        for (k, pair) in codes.chunks(2).enumerate() {
            b[20 + k] = pair[0] | pair[1] << 4;
        }
        fix_checksum(&mut b, 0, plies);
        read_all(&b).unwrap_err()
    };
    assert_eq!(e.offset, 4);
    assert!(matches!(e.kind, DataErrorKind::BadStartPosition(_)), "{e}");
    // The checksum itself.
    let mut b = good.clone();
    let last = b.len() - 1;
    b[last] ^= 0x10;
    let e = read_all(&b).unwrap_err();
    assert_eq!(e.offset, (HEADER_BYTES + PLY_BYTES * plies) as u64);
    assert!(matches!(e.kind, DataErrorKind::ChecksumMismatch { .. }));
}

#[test]
fn an_illegal_move_is_reported_at_its_offset() {
    let games = games(20..22);
    let mut bytes = encode(&games);
    let base = games[0].encoded_len();
    let plies = games[1].plies().len();
    let ply = 5;
    let at = base + HEADER_BYTES + PLY_BYTES * ply;
    // a4 to i9: no piece moves like that.
    let illegal = Move::new(square(0, 4), square(8, 9));
    bytes[at..at + 2].copy_from_slice(&illegal.raw().to_le_bytes());
    fix_checksum(&mut bytes, base, plies);
    let err = read_all(&bytes).unwrap_err();
    assert_eq!(err.offset, at as u64);
    assert_eq!(err.game_offset, base as u64);
    assert_eq!(err.game_index, 1);
    match &err.kind {
        DataErrorKind::IllegalMove { ply: p, mv, fen } => {
            assert_eq!((*p, *mv), (ply, illegal));
            assert!(!fen.is_empty());
        }
        other => panic!("{other:?}"),
    }
    // A move field naming an off-board square.
    bytes[at..at + 2].copy_from_slice(&0xFFFFu16.to_le_bytes());
    fix_checksum(&mut bytes, base, plies);
    let err = read_all(&bytes).unwrap_err();
    assert_eq!(err.offset, at as u64);
    assert_eq!(err.kind, DataErrorKind::BadMove { ply, raw: 0xFFFF });
}

#[test]
fn scores_outside_every_band_and_false_outcomes_are_reported() {
    let game = synthetic_games::random_game(31, 80);
    let plies = game.plies().len();
    let mut b = game.to_bytes();
    let at = HEADER_BYTES + PLY_BYTES * 7 + 2;
    b[at..at + 2].copy_from_slice(&25_000i16.to_le_bytes());
    fix_checksum(&mut b, 0, plies);
    let e = read_all(&b).unwrap_err();
    assert_eq!(e.offset, at as u64);
    assert_eq!(
        e.kind,
        DataErrorKind::BadScore {
            ply: 7,
            raw: 25_000
        }
    );

    // The game ends by the ply cap (a draw); claiming a checkmate is caught on the board.
    assert_eq!(game.termination(), Termination::PlyCap);
    let mut b = game.to_bytes();
    b[38] = Termination::Checkmate.code();
    b[37] = if game.final_position().side_to_move() == engine_core::Color::Red {
        0
    } else {
        2
    };
    fix_checksum(&mut b, 0, plies);
    let e = read_all(&b).unwrap_err();
    assert_eq!(e.offset, 37);
    assert_eq!(e.kind, DataErrorKind::Outcome(OutcomeError::NotCheckmate));
    let mut b = game.to_bytes();
    b[37] = 2;
    fix_checksum(&mut b, 0, plies);
    let e = read_all(&b).unwrap_err();
    assert!(matches!(
        e.kind,
        DataErrorKind::Outcome(OutcomeError::ResultContradictsReason { .. })
    ));
}

#[test]
fn the_writer_refuses_what_the_reader_would_refuse() {
    let mut record = GameRecord::new(&Position::startpos()).unwrap();
    let illegal = Move::new(square(0, 0), square(0, 5));
    assert!(matches!(
        record.push(illegal, Score::eval(0)),
        Err(RecordError::IllegalMove { ply: 0, .. })
    ));
    let legal = Move::new(square(7, 2), square(4, 2));
    assert!(matches!(
        record.push(legal, Score::Eval(30_000)),
        Err(RecordError::ScoreOutOfRange { ply: 0, .. })
    ));
    assert!(
        record.is_empty(),
        "refused plies leave the record unchanged"
    );
    record.push(legal, Score::from_search(31_990)).unwrap();
    assert_eq!(record.len(), 1);
    assert!(matches!(
        record
            .clone()
            .finish(GameResult::RedWins, Termination::Stalemate),
        Err(RecordError::Outcome(_))
    ));
    let game = record
        .finish(GameResult::BlackWins, Termination::PerpetualChase)
        .unwrap();
    let read = read_all(&game.to_bytes()).unwrap();
    assert_eq!(read, vec![game.clone()]);
    assert_eq!(
        read[0].plies()[0],
        Ply {
            mv: legal,
            score: Score::Mate {
                wins: true,
                plies: 10
            }
        }
    );
}

#[test]
fn a_start_position_with_counters_round_trips() {
    let start = Position::from_fen("4k4/9/9/9/4p4/9/9/9/4A4/3AK4 w - - 37 112").unwrap();
    let mut record = GameRecord::new(&start).unwrap();
    let mv = start.legal_moves()[0];
    record.push(mv, Score::None).unwrap();
    let game = record
        .finish(GameResult::Draw, Termination::AdjudicatedDraw)
        .unwrap();
    let read = read_all(&game.to_bytes()).unwrap();
    assert_eq!(read[0].start().to_fen(), start.to_fen());
    assert_eq!(read[0].plies()[0].score, Score::None);
}

#[test]
fn the_dump_prints_fen_score_and_result_from_reds_view() {
    let mut record = GameRecord::new(&Position::startpos()).unwrap();
    record
        .push(Move::new(square(7, 2), square(4, 2)), Score::eval(40))
        .unwrap();
    record
        .push(Move::new(square(7, 9), square(6, 7)), Score::eval(-25))
        .unwrap();
    let game = record
        .finish(GameResult::RedWins, Termination::AdjudicatedWin)
        .unwrap();
    let mut text = Vec::new();
    let summary = dump(&game.to_bytes()[..], &mut text, None).unwrap();
    assert_eq!((summary.games, summary.positions), (1, 2));
    let text = String::from_utf8(text).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 40 | 1.0",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1 | 25 | 1.0",
        ]
    );
    // With the default filters both positions are early plies.
    let mut filtered = Vec::new();
    let s = dump(
        &game.to_bytes()[..],
        &mut filtered,
        Some(&Filters::default()),
    )
    .unwrap();
    assert_eq!(s.positions, 0);
    // Corrupt data stops the dump with the reader's error.
    let bytes = game.to_bytes();
    assert!(dump(&bytes[..bytes.len() - 2], &mut Vec::new(), None).is_err());
}

#[test]
fn each_filter_rejects_what_it_names() {
    let f = Filters::default();
    let view = |fen: &str, mv: Move, score: Score, index: usize| PlyPosition {
        index,
        position: Position::from_fen(fen).unwrap(),
        ply: Ply { mv, score },
    };
    let start = engine_core::START_FEN;
    let quiet = Move::new(square(7, 2), square(4, 2));
    assert_eq!(f.check(&view(start, quiet, Score::eval(12), 20)), Ok(12));
    assert_eq!(
        f.check(&view(start, quiet, Score::None, 20)),
        Err(Rejection::Unscored)
    );
    assert_eq!(
        f.check(&view(start, quiet, Score::eval(12), 15)),
        Err(Rejection::EarlyPly)
    );
    // The red cannon on h2 captures the horse on h9.
    let capture = Move::new(square(7, 2), square(7, 9));
    assert_eq!(
        f.check(&view(start, capture, Score::eval(12), 20)),
        Err(Rejection::Capture)
    );
    let mate = Score::Mate {
        wins: true,
        plies: 3,
    };
    assert_eq!(
        f.check(&view(start, quiet, mate, 20)),
        Err(Rejection::Decided)
    );
    assert_eq!(
        f.check(&view(start, quiet, Score::eval(3000), 20)),
        Err(Rejection::LargeScore)
    );
    assert_eq!(
        f.check(&view(start, quiet, Score::eval(-2999), 20)),
        Ok(-2999)
    );
    let late = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 80 41";
    assert_eq!(
        f.check(&view(late, quiet, Score::eval(5), 20)),
        Err(Rejection::NoCaptureCounter)
    );
    // Red in check from the black chariot on e5.
    let check = "3k5/9/9/9/4r4/9/9/9/9/4K4 w - - 0 1";
    let in_check = Position::from_fen(check).unwrap();
    assert!(in_check.in_check());
    let escape = in_check.legal_moves()[0];
    assert_eq!(
        f.check(&view(check, escape, Score::eval(1), 20)),
        Err(Rejection::InCheck)
    );
    let all = Filters::keep_all();
    assert_eq!(all.check(&view(start, capture, mate, 0)), Ok(19_000));
}

/// A small file of synthetic games, committed so that the byte format cannot change unnoticed.
/// Made with
/// `nnue synth --games 8 --seed 1 --max-plies 400 -o nnue/train/tests/data/synthetic-8.xqg`.
const COMMITTED: &[u8] = include_bytes!("../data/synthetic-8.xqg");

#[test]
fn the_committed_file_still_reads_and_re_encodes_to_the_same_bytes() {
    let games = read_all(COMMITTED).unwrap();
    assert_eq!(games.len(), 8);
    assert_eq!(encode(&games), COMMITTED);
    assert_eq!(games[0].start().to_fen(), engine_core::START_FEN);
    assert_eq!(
        COMMITTED.len(),
        8 * 50 + 4 * games.iter().map(|g| g.plies().len()).sum::<usize>()
    );
    assert_eq!(nnue::format::fnv1a64(COMMITTED), COMMITTED_HASH);
}

/// FNV-1a 64 of the committed file.
const COMMITTED_HASH: u64 = 0x05f8_036c_9187_df55;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let mut reader = GameReader::new(&bytes[..]);
        for item in &mut reader {
            if let Err(e) = item {
                prop_assert!(e.offset <= bytes.len() as u64);
                prop_assert!(e.game_offset <= e.offset);
            }
        }
    }

    #[test]
    fn random_bytes_after_a_magic_never_panic(tail in proptest::collection::vec(any::<u8>(), 0..600)) {
        let mut bytes = b"XQG\x01".to_vec();
        bytes.extend_from_slice(&tail);
        let results: Vec<_> = GameReader::new(&bytes[..]).collect();
        prop_assert!(results.iter().any(|r| r.is_err()));
    }

    #[test]
    fn mutated_records_never_panic(seed in 0u64..1000, at in any::<prop::sample::Index>(), value in any::<u8>()) {
        let mut bytes = synthetic_games::random_game(seed, 60).to_bytes();
        let i = at.index(bytes.len());
        let changed = bytes[i] != value;
        bytes[i] = value;
        let result = read_all(&bytes);
        if changed {
            prop_assert!(result.is_err());
        }
    }
}
