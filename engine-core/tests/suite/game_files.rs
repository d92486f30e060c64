//! The archive readers (XQF plain and encrypted, CBF, DhtmlXQ) against the PyPI `cchess`
//! package: `tests/data/archive/expected.tsv` holds what cchess reads from the files beside it
//! (see bench/oracle/game_files_cchess.py), and each reader must read the same start position
//! and main line, and for XQF the same players and result. Broken files give errors, never
//! panics.

use encoding_rs::GB18030;
use engine_core::archive::{self, ArchiveFormat};
use engine_core::pgn::Game;
use engine_core::{move_text, RankBase};
use std::path::{Path, PathBuf};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/archive")
}

/// UTF-8, else GB18030, as the command line's game files are decoded.
fn decode(bytes: &[u8]) -> Result<String, String> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok(text.to_string());
    }
    GB18030
        .decode_without_bom_handling_and_without_replacement(bytes)
        .map(|t| t.into_owned())
        .ok_or_else(|| "neither UTF-8 nor GB18030".to_string())
}

fn format_of(name: &str) -> ArchiveFormat {
    let ext = name.rsplit('.').next().unwrap_or("");
    ArchiveFormat::from_extension(ext).expect("a known extension")
}

fn read(name: &str) -> Game {
    let bytes = std::fs::read(data_dir().join(name)).expect("the test file");
    assert_eq!(
        ArchiveFormat::sniff(&bytes),
        Some(format_of(name)),
        "{name}"
    );
    archive::read(format_of(name), &bytes, &decode).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// One line of expected.tsv.
struct Expected {
    file: String,
    board: String,
    side: String,
    moves: Vec<String>,
    xqf_tags: Option<[String; 3]>,
}

fn expectations() -> Vec<Expected> {
    let text = std::fs::read_to_string(data_dir().join("expected.tsv")).expect("expected.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let (board, side) = f[1].split_once(' ').expect("board and side");
            Expected {
                file: f[0].to_string(),
                board: board.to_string(),
                side: side.to_string(),
                moves: f[2].split_whitespace().map(str::to_string).collect(),
                xqf_tags: (f.len() == 6).then(|| [f[3], f[4], f[5]].map(str::to_string)),
            }
        })
        .collect()
}

#[test]
fn every_reader_reads_what_cchess_reads() {
    let all = expectations();
    assert_eq!(all.len(), 8, "the files of the oracle script");
    let mut moves = 0;
    for e in &all {
        let game = read(&e.file);
        let fen = game.start.to_fen();
        let mut fields = fen.split(' ');
        assert_eq!(fields.next(), Some(e.board.as_str()), "{}", e.file);
        let side = fields.next().unwrap_or("");
        let played: Vec<String> = game
            .moves
            .iter()
            .map(|m| move_text(m.mv, RankBase::Zero))
            .collect();
        assert_eq!(played, e.moves, "{}", e.file);
        // cchess's DhtmlXQ reader infers the first mover for its moves but leaves its board's
        // side at Red; every other reader's side is compared.
        if format_of(&e.file) != ArchiveFormat::DhtmlXq {
            assert_eq!(side, e.side, "{}", e.file);
        }
        if let Some([red, black, result]) = &e.xqf_tags {
            assert_eq!(game.red_player().unwrap_or(""), red, "{}", e.file);
            assert_eq!(game.black_player().unwrap_or(""), black, "{}", e.file);
            assert_eq!(game.tag("Result").unwrap_or("*"), result, "{}", e.file);
        }
        moves += played.len();
    }
    assert!(moves > 200, "{moves} moves compared");
}

#[test]
fn tags_of_each_format() {
    let game = read("plain.xqf");
    assert_eq!(game.tag("Red"), Some("许银川"));
    assert_eq!(game.tag("Event"), Some("全国象棋个人赛"));
    assert_eq!(game.tag("Date"), Some("2001-10-01"));
    assert_eq!(game.tag("Site"), Some("北京"));
    assert_eq!(game.result.as_deref(), Some("1-0"));
    let endgame = read("endgame.xqf");
    assert!(endgame
        .tag("FEN")
        .is_some_and(|f| f.ends_with(" b - - 0 1")));
    assert_eq!(endgame.tag("Result"), None, "result code 0 is unknown");
    let cbf = read("position.cbf");
    assert_eq!(cbf.tag("Event"), Some("残局 & 排局"));
    assert_eq!(cbf.tag("SetUp"), Some("1"));
    let cbf = read("game.cbf");
    assert_eq!(cbf.tag("Black"), Some("吕钦"));
    assert_eq!(
        cbf.tag("FEN"),
        None,
        "the initial position needs no FEN tag"
    );
    let dhtml = read("game.dhtmlxq");
    assert_eq!(dhtml.tag("Red"), Some("许银川"));
    assert_eq!(dhtml.tag("Result"), Some("1-0"));
    assert_eq!(read("endgame.dhtmlxq").tag("Result"), Some("1/2-1/2"));
}

/// Reads `bytes` as `format`; it must not panic, whatever the bytes.
fn survives(format: ArchiveFormat, bytes: &[u8]) -> bool {
    archive::read(format, bytes, &decode).is_ok()
}

/// Every cut of every file: an error, or the game's first moves. Where a format marks no end, a
/// cut at a record's boundary (XQF) or between tags or between a move list's four-digit groups
/// (DhtmlXQ) is a shorter file of the same kind; a CBF file reads only when the cut spares its
/// whole move list (it fell in the closing tags), and an XQF file never without its header.
#[test]
fn truncated_files_are_errors_or_the_first_moves_of_the_game() {
    for e in expectations() {
        let format = format_of(&e.file);
        let bytes = std::fs::read(data_dir().join(&e.file)).expect("the test file");
        let full = archive::read(format, &bytes, &decode).expect("the whole file");
        let full_moves: Vec<_> = full.moves.iter().map(|m| m.mv).collect();
        let mut errors = 0;
        for len in 0..bytes.len() {
            let Ok(game) = archive::read(format, &bytes[..len], &decode) else {
                errors += 1;
                continue;
            };
            let cut = format!("{} cut to {len} of {} bytes", e.file, bytes.len());
            let moves: Vec<_> = game.moves.iter().map(|m| m.mv).collect();
            assert!(
                full_moves.starts_with(&moves),
                "{cut}: moves not the game's first"
            );
            if !moves.is_empty() {
                assert_eq!(game.start.to_fen(), full.start.to_fen(), "{cut}");
            }
            match format {
                ArchiveFormat::Cbf => assert_eq!(moves.len(), full_moves.len(), "{cut}"),
                ArchiveFormat::Xqf => assert!(len >= archive::xqf::HEADER_LEN, "{cut}"),
                _ => {}
            }
        }
        assert!(errors > 0, "{}: no cut is an error", e.file);
    }
}

#[test]
fn garbled_files_and_noise_are_errors_not_panics() {
    let mut rng = engine_core::SplitMix64::new(0x5EED);
    for e in expectations() {
        let format = format_of(&e.file);
        let bytes = std::fs::read(data_dir().join(&e.file)).expect("the test file");
        for _ in 0..300 {
            let mut garbled = bytes.clone();
            for _ in 0..1 + rng.next_u64() % 8 {
                let at = (rng.next_u64() % garbled.len() as u64) as usize;
                garbled[at] = rng.next_u64() as u8;
            }
            survives(format, &garbled);
        }
        let noise: Vec<u8> = (0..2048).map(|_| rng.next_u64() as u8).collect();
        assert!(
            !survives(format, &noise),
            "{}: noise read as a game",
            e.file
        );
    }
}

#[test]
fn errors_say_what_is_wrong() {
    let err = |format, bytes: &[u8]| {
        archive::read(format, bytes, &decode)
            .expect_err("an error")
            .to_string()
    };
    let short = err(ArchiveFormat::Xqf, b"XQ\x0a\x00");
    assert!(
        short.contains("XQF") && short.contains("header is cut short"),
        "{short}"
    );
    let unsigned = err(ArchiveFormat::Xqf, b"PK\x03\x04");
    assert!(unsigned.contains("signature"), "{unsigned}");
    let mut cut = std::fs::read(data_dir().join("plain.xqf")).expect("the test file");
    // Into the second move's record: the header, the root (4 + 4), one move (4 + 4), 2 bytes.
    cut.truncate(archive::xqf::HEADER_LEN + 18);
    let cut = err(ArchiveFormat::Xqf, &cut);
    assert!(cut.contains("cut short"), "{cut}");
    let cbf = err(ArchiveFormat::Cbf, b"<html></html>");
    assert!(cbf.contains("ChineseChessRecord"), "{cbf}");
    let bad_move = err(
        ArchiveFormat::Cbf,
        b"<ChineseChessRecord><MoveList><Move value=\"00-00\"/><Move value=\"77-77\"/></MoveList></ChineseChessRecord>",
    );
    assert!(
        bad_move.contains("move 1 (h2h2) is not legal"),
        "{bad_move}"
    );
    let dh = err(
        ArchiveFormat::DhtmlXq,
        b"[DhtmlXQ_movelist]77471[/DhtmlXQ_movelist]",
    );
    assert!(dh.contains("four digits"), "{dh}");
    let dh = err(
        ArchiveFormat::DhtmlXq,
        b"[DhtmlXQ_binit]0919[/DhtmlXQ_binit]",
    );
    assert!(dh.contains("binit"), "{dh}");
}
