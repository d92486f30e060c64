//! `cotuong judge` end to end: the machine-readable first line, the explanation, PGN input with
//! both rank numberings, in every notation and in UTF-8 and GB18030, several games, options,
//! and clean errors on bad input.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output};
use tempfile::NamedTempFile;

use crate::common;
use common::cli::{self, stderr, stdout};

const BIN: &str = env!("CARGO_BIN_EXE_cotuong");

/// Red's chariot chases an unprotected black cannon (Điều 24.14): Black wins at ply 8.
const CHASE_FEN: &str = "3k5/9/c8/9/9/9/9/1R7/9/4K4 w - - 0 1";
const CHASE_MOVES: &str = "b2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7";

fn judge(args: &[&str]) -> Output {
    cli::run("judge", args)
}

/// A fresh temporary file holding `contents`, removed when dropped, pass or fail; its name ends
/// in `-NAME` (the extension and the name in messages are the test's).
fn temp_file(name: &str, contents: impl AsRef<[u8]>) -> NamedTempFile {
    let mut file = tempfile::Builder::new()
        .prefix("cotuong-judge-cli-")
        .suffix(&format!("-{name}"))
        .tempfile()
        .expect("temp file");
    file.write_all(contents.as_ref()).expect("write temp file");
    file
}

/// The chase of `CHASE_MOVES`, written in each notation.
const CHASE_RECORDS: [(&str, &str); 4] = [
    ("wxf", "R8=9 C1=2 R9=8 C2=1 R8=9 C1=2 R9=8 C2=1"),
    (
        "chinese",
        "车八平九 炮1平2 车九平八 炮2平1 车八平九 炮1平2 车九平八 炮2平1",
    ),
    ("vietnamese", "X8-9 P1-2 X9-8 P2-1 X8-9 P1-2 X9-8 P2-1"),
    (
        "vietnamese-asian",
        "X8=9 P1=2 X9=8 P2=1 X8=9 P1=2 X9=8 P2=1",
    ),
];

/// A PGN game with the chase position and `moves` numbered in pairs.
fn chase_pgn(event: &str, moves: &str) -> String {
    let mut body = String::new();
    for (i, m) in moves.split(' ').enumerate() {
        if i % 2 == 0 {
            body.push_str(&format!("{}. ", i / 2 + 1));
        }
        body.push_str(m);
        body.push(' ');
    }
    format!("[Event \"{event}\"]\n[SetUp \"1\"]\n[FEN \"{CHASE_FEN}\"]\n\n{body}0-1\n\n")
}

/// Runs the judge and asserts a clean failure: status 2, nothing on stdout, one error line.
fn fails_cleanly(args: &[&str]) -> String {
    cli::fails_cleanly("judge", args)
}

#[test]
fn perpetual_chase_from_fen_and_moves() {
    let out = judge(&["--fen", CHASE_FEN, "--moves", CHASE_MOVES]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("result 0-1 perpetual-chase"));
    let explanation = lines.next().expect("explanation line");
    assert!(
        explanation.contains("Red chased the black cannon on a7"),
        "{explanation}"
    );
    assert!(explanation.contains("Điều 23 point 3"), "{explanation}");
}

#[test]
fn undecided_game_prints_star() {
    let out = judge(&["--moves", "h2e2 h9g7"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("result * none\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn pgn_with_tags_comments_numbers_and_ranks_1_10() {
    let pgn = format!(
        "[Event \"argument\"]\n[FEN \"{CHASE_FEN}\"]\n\n\
         1. b3a3 {{chariot to the a-file}} a8b8 2. a3b3 b8a8 ; a comment\n\
         3. b3a3 a8b8 (3... a8a9) 4. a3b3 b8a8 *\n"
    );
    let file = temp_file("chase.pgn", &pgn);
    let path = file.path();
    let out = judge(&["--pgn", path.to_str().expect("utf-8 path")]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("result 0-1 perpetual-chase\n"),
        "{}",
        stdout(&out)
    );
    // Forcing ranks 0-9 makes the same record illegal.
    let out = judge(&["--pgn", path.to_str().expect("utf-8 path"), "--ranks", "0"]);
    assert!(!out.status.success());
    assert!(stderr(&out).starts_with("error: "), "{}", stderr(&out));
}

#[test]
fn pgn_without_fen_starts_from_the_initial_position() {
    let file = temp_file("start.pgn", "1. h2-e2 h9-g7 2. h0-g2 1-0\n");
    let path = file.path();
    let out = judge(&["--pgn", path.to_str().expect("utf-8 path")]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("result * none\n"),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("after 3 plies"), "{}", stdout(&out));
}

#[test]
fn no_capture_options() {
    let fen = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 98 1";
    let out = judge(&["--fen", fen, "--moves", "d0d1 e9f9"]);
    assert!(
        stdout(&out).starts_with("result * none\n"),
        "{}",
        stdout(&out)
    );
    let out = judge(&[
        "--fen",
        fen,
        "--moves",
        "d0d1 e9f9",
        "--no-capture-moves",
        "50",
    ]);
    assert!(
        stdout(&out).starts_with("result 1/2-1/2 no-capture\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn check_versus_chase_option() {
    let fen = "5k3/9/9/4n4/9/9/9/4p4/4K4/4C4 w - - 0 1";
    let moves = "e1d1 e2d2 d1e1 d2e2 e1d1 e2d2 d1e1 d2e2";
    let out = judge(&["--fen", fen, "--moves", moves]);
    assert!(
        stdout(&out).starts_with("result 1-0 perpetual-check\n"),
        "{}",
        stdout(&out)
    );
    let out = judge(&["--fen", fen, "--moves", moves, "--check-vs-chase", "draw"]);
    assert!(
        stdout(&out).starts_with("result 1/2-1/2 repetition-draw\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn bad_input_is_a_clean_error() {
    let cases: [&[&str]; 10] = [
        &["--fen", "not a fen"],
        // Impossible for reasons other than composition: still refused.
        &["--fen", "4k4/9/9/9/9/9/9/9/4K4/3K5 w"],
        &["--fen", "4k4/4R4/9/9/9/9/9/9/9/3K5 w"],
        &["--fen", "4k4/9/9/9/9/9/9/9/9/6K2 w"],
        &["--rule-set", "chinese"],
        &["--moves", "h2e2 h2e2"],
        &["--moves", "zz99"],
        &["--pgn", "/nonexistent/cotuong/game.pgn"],
        &["--check-cap", "sometimes"],
        &["--fen", CHASE_FEN, "--pgn", "x.pgn"],
    ];
    for args in cases {
        let out = judge(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(out.stdout.is_empty(), "{args:?}: {}", stdout(&out));
        let err = stderr(&out);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let file = temp_file("bad.pgn", "1. h2e2 {never closed");
    let path = file.path();
    let out = judge(&["--pgn", path.to_str().expect("utf-8 path")]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("comment"), "{}", stderr(&out));
}

#[test]
fn rule_set_option() {
    // Red's c8f8 checks and attacks, f8c8 attacks the same horse again: one check, one chase.
    let fen = "2n1k4/2R6/2R6/9/5n3/9/9/9/5K3/N8 b - - 0 1";
    let moves = "e9f9 c8f8 f9e9 f8c8 e9f9 c8f8 f9e9 f8c8";
    let out = judge(&["--fen", fen, "--moves", moves]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with(
            "result 1/2-1/2 repetition-draw
"
        ),
        "{}",
        stdout(&out)
    );
    for flag in ["vietnamese", "Vietnamese"] {
        let out = judge(&["--fen", fen, "--moves", moves, "--rule-set", flag]);
        assert!(
            stdout(&out).starts_with(
                "result 1/2-1/2 repetition-draw
"
            ),
            "{flag}: {}{}",
            stdout(&out),
            stderr(&out)
        );
    }
    let out = judge(&["--fen", fen, "--moves", moves, "--rule-set", "asian"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("result 0-1 perpetual-chase\n"), "{text}");
    assert!(text.contains("Asian"), "{text}");
}

#[test]
fn composed_position_is_judged_after_a_warning() {
    // A red soldier behind its starting rank (a1) and a black elephant across the river (e4).
    let fen = "4k4/9/9/9/9/4b4/9/9/P8/3K5 w - - 0 1";
    let out = judge(&["--fen", fen, "--moves", "a1a2 e9e8"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("result * none\n"),
        "{}",
        stdout(&out)
    );
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("warning: composed position: black elephant on e4, red soldier on a1"),
        "{err}"
    );
    // An ordinary position prints no warning.
    let out = judge(&["--fen", CHASE_FEN, "--moves", CHASE_MOVES]);
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}

#[test]
fn pgn_from_standard_input() {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(BIN)
        .args(["judge", "--pgn", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let pgn = format!("[FEN \"{CHASE_FEN}\"]\n{CHASE_MOVES}\n");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(pgn.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("finishes");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("result 0-1 perpetual-chase\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn pgn_in_every_notation_detected_or_forced() {
    for (notation, moves) in CHASE_RECORDS {
        let file = temp_file(&format!("chase-{notation}.pgn"), chase_pgn(notation, moves));
        let path = file.path();
        let path = path.to_str().expect("utf-8 path");
        for args in [
            vec!["--pgn", path],
            vec!["--pgn", path, "--notation", notation],
        ] {
            let out = judge(&args);
            assert!(out.status.success(), "{args:?}: {}", stderr(&out));
            assert!(
                stdout(&out).starts_with("result 0-1 perpetual-chase\n"),
                "{args:?}: {}",
                stdout(&out)
            );
        }
        // The same moves on the command line.
        let out = judge(&["--fen", CHASE_FEN, "--moves", moves]);
        assert!(
            stdout(&out).starts_with("result 0-1 perpetual-chase\n"),
            "{notation}: {}{}",
            stdout(&out),
            stderr(&out)
        );
    }
}

#[test]
fn pgn_in_gb18030_and_utf8() {
    let (_, chinese) = CHASE_RECORDS[1];
    let text = format!(
        "[Red \"许银川\"]\n[Black \"吕钦\"]\n{}",
        chase_pgn("全国象棋个人赛", chinese)
            .replace("炮1", "炮１")
            .replace("炮2", "砲２")
    );
    let (gbk, _, unmappable) = encoding_rs::GB18030.encode(&text);
    assert!(!unmappable);
    assert!(
        std::str::from_utf8(&gbk).is_err(),
        "the GB18030 bytes are not UTF-8"
    );
    for (name, bytes) in [
        ("utf8.pgn", text.as_bytes().to_vec()),
        ("gbk.pgn", gbk.into_owned()),
    ] {
        let file = temp_file(name, bytes);
        let path = file.path();
        let out = judge(&["--pgn", path.to_str().expect("utf-8 path")]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        assert!(
            stdout(&out).starts_with("result 0-1 perpetual-chase\n"),
            "{name}: {}",
            stdout(&out)
        );
    }
}

#[test]
fn several_games_and_game_selection() {
    let text = format!(
        "{}[Event \"short\"]\n1. 炮二平五 马8进7 *\n\n{}",
        chase_pgn("chase", CHASE_RECORDS[0].1),
        chase_pgn("again", CHASE_RECORDS[2].1)
    );
    let file = temp_file("three.pgn", text);
    let path = file.path();
    let path = path.to_str().expect("utf-8 path");
    let out = judge(&["--pgn", path]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9, "{text}");
    assert_eq!(lines[0], "game 1");
    assert_eq!(lines[1], "result 0-1 perpetual-chase");
    assert_eq!(lines[3], "game 2");
    assert_eq!(lines[4], "result * none");
    assert_eq!(lines[6], "game 3");
    let out = judge(&["--pgn", path, "--game", "2"]);
    assert!(
        stdout(&out).starts_with("result * none\nNot decided after 2 plies"),
        "{}",
        stdout(&out)
    );
    let err = fails_cleanly(&["--pgn", path, "--game", "4"]);
    assert!(err.contains("holds 3 games"), "{err}");
}

#[test]
fn bad_pgn_input_names_the_place() {
    // An illegal move in the second game: game number, ply and text in the message.
    let text = format!(
        "{}[Event \"bad\"]\n1. C2=5 H8+7\n2. H2+3 H2+2 *\n",
        chase_pgn("fine", CHASE_RECORDS[0].1)
    );
    let file = temp_file("illegal.pgn", text);
    let path = file.path();
    let path = path.to_str().expect("utf-8 path");
    let err = fails_cleanly(&["--pgn", path]);
    assert!(
        err.contains("game 2, ply 4 (line 9): 'H2+2' is not a legal move here"),
        "{err}"
    );
    assert!(err.contains(path), "{err}");
    // A notation forced on moves written in another.
    let err = fails_cleanly(&["--pgn", path, "--notation", "chinese"]);
    assert!(
        err.contains("game 1, ply 1 (line 5): 'R8=9' is not a move in Chinese notation"),
        "{err}"
    );
    // Bytes that are neither UTF-8 nor GB18030.
    let file = temp_file("binary.pgn", b"1. h2e2 \xFF\xFF\xFF".as_slice());
    let path = file.path();
    let err = fails_cleanly(&["--pgn", path.to_str().expect("utf-8 path")]);
    assert!(err.contains("neither UTF-8"), "{err}");
    // An unknown notation, an empty file, a bad FEN tag.
    let err = fails_cleanly(&["--moves", "h2e2", "--notation", "klingon"]);
    assert!(err.contains("klingon") && err.contains("wxf"), "{err}");
    let file = temp_file("empty.pgn", "\n\n");
    let path = file.path();
    let err = fails_cleanly(&["--pgn", path.to_str().expect("utf-8 path")]);
    assert!(err.contains("no game"), "{err}");
    let file = temp_file("fen.pgn", "[FEN \"rnbakabnr/9 w\"]\n1. h2e2 *\n");
    let path = file.path();
    let err = fails_cleanly(&["--pgn", path.to_str().expect("utf-8 path")]);
    assert!(err.contains("game 1, line 1: bad FEN tag"), "{err}");
    // An ambiguous move on the command line.
    let err = fails_cleanly(&[
        "--fen",
        "3k5/9/9/9/9/6R2/9/9/6R2/4K4 w - - 0 1",
        "--moves",
        "R3=4",
    ]);
    assert!(
        err.contains("--moves, ply 1: 'R3=4' fits several legal moves"),
        "{err}"
    );
}

#[test]
fn a_result_tag_that_disagrees_with_the_referee_gets_a_note() {
    let agreeing = chase_pgn("agrees", CHASE_MOVES);
    let disagreeing = chase_pgn("disagrees", CHASE_MOVES).replace("0-1\n", "1-0\n");
    let tagged = format!(
        "[Result \"1/2-1/2\"]\n{}",
        chase_pgn("tag", CHASE_MOVES).replace("0-1\n", "*\n")
    );
    let resigned = "[Result \"1-0\"]\n\n1. h2e2 h9g7 1-0\n";
    let file = temp_file(
        "results.pgn",
        format!("{agreeing}{disagreeing}{tagged}{resigned}"),
    );
    let path = file.path();
    let out = judge(&["--pgn", path.to_str().expect("utf-8 path")]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).matches("result 0-1 perpetual-chase").count(),
        3
    );
    let err = stderr(&out);
    let notes: Vec<&str> = err.lines().collect();
    assert_eq!(
        notes,
        [
            "note: game 2: the [Result] tag says 1-0, the referee says 0-1 (perpetual-chase)",
            "note: game 3: the [Result] tag says 1/2-1/2, the referee says 0-1 (perpetual-chase)",
        ],
        "a resignation the referee cannot see (game 4) is no disagreement"
    );
}

#[test]
fn fen_startpos_is_the_initial_position() {
    let out = judge(&["--fen", "startpos", "--moves", "h2e2 h9g7"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("after 2 plies"), "{}", stdout(&out));
    let perft = Command::new(BIN)
        .args(["perft", "2", "--fen", "startpos"])
        .output()
        .expect("cotuong runs");
    assert!(perft.status.success(), "{}", stderr(&perft));
    assert!(stderr(&perft).contains("1920 nodes"), "{}", stderr(&perft));
}

/// The archive test files of engine-core (see engine-core/tests/data/archive/README.md).
fn archive_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("engine-core/tests/data/archive")
        .join(name)
}

#[test]
fn archive_files_are_judged_by_extension_or_content() {
    let expected = std::fs::read_to_string(archive_file("expected.tsv")).expect("expected.tsv");
    let mut judged = 0;
    for line in expected.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        let plies = fields[2].split_whitespace().count();
        let path = archive_file(fields[0]);
        let out = judge(&["--pgn", path.to_str().expect("utf-8 path")]);
        assert!(out.status.success(), "{}: {}", fields[0], stderr(&out));
        let text = stdout(&out);
        // The random playouts of the oracle script end undecided.
        assert!(
            text.starts_with("result * none\n") && text.contains(&format!("after {plies} plies")),
            "{}: {text}",
            fields[0]
        );
        judged += 1;
    }
    assert_eq!(judged, 8);
    // A DhtmlXQ page saved as .txt is recognised by its content.
    let page = std::fs::read(archive_file("game.dhtmlxq")).expect("the test file");
    let out = judge(&[
        "--pgn",
        temp_file("saved-page.txt", &page)
            .path()
            .to_str()
            .expect("utf-8 path"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    // A cut XQF file: one error naming the file and the format.
    let xqf = std::fs::read(archive_file("encrypted.xqf")).expect("the test file");
    let cut_file = temp_file("cut.xqf", &xqf[..500]);
    let cut = cut_file.path();
    let err = fails_cleanly(&["--pgn", cut.to_str().expect("utf-8 path")]);
    assert!(
        err.contains("cut.xqf") && err.contains("not a valid XQF file"),
        "{err}"
    );
}

/// The WXF manual's cases (`engine-core/tests/data/wxf-manual.tsv`) as the referee reads them.
#[path = "../../engine-core/tests/suite/repetition_cases.rs"]
#[allow(dead_code)]
mod repetition_cases;

#[test]
fn wxf_manual_cases_judged_as_the_referee_rules_them() {
    use engine_core::RuleSet;

    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/engine-core/tests/data/wxf-manual.tsv"
    );
    let cases = repetition_cases::read_cases(path);
    let mut pgn = String::new();
    for case in &cases {
        pgn.push_str(&format!(
            "[Event \"{}\"]\n[SetUp \"1\"]\n[FEN \"{}\"]\n\n{} *\n\n",
            case.id,
            case.fen,
            case.moves.join(" ")
        ));
    }
    let file = temp_file("wxf-manual.pgn", pgn);
    let file_path = file.path().to_str().expect("utf-8 path");
    for rule_set in RuleSet::ALL {
        let out = judge(&[
            "--pgn",
            file_path,
            "--notation",
            "iccs",
            "--ranks",
            "0",
            "--rule-set",
            rule_set.name(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        let results: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("result "))
            .collect();
        assert_eq!(results.len(), cases.len(), "{text}");
        for (case, printed) in cases.iter().zip(results) {
            let (verdict, _) = repetition_cases::judge(case, rule_set);
            let expected = format!("{} {}", verdict.result.pgn(), verdict.rule.id());
            assert_eq!(printed, expected, "{} ({})", case.id, rule_set.name());
        }
    }
}

#[test]
fn the_laws_immobile_target_rule_decides_wxf_diagram_97() {
    // The WXF manual's Diagram 97 (the Law's Hình 97): the chased advisors are pinned and cannot
    // move. Under the Law's Điều 23 point 7 (on by default) Red chases them; without it the
    // threat to check and capture is allowed (Điều 24.34): a draw, the manual's ruling.
    let fen = "C1Na5/3Rak3/4bc3/2p6/n5b2/9/1p6r/4B4/4A4/2B1KA3 w - - 0 1";
    let moves = "a9a8 f8f9 a8a9 f9f8 a9a8 f8f9 a8a9 f9f8 a9a8 f8f9";
    let first_line = |extra: &[&str]| {
        let mut args = vec!["--fen", fen, "--moves", moves, "--ranks", "0"];
        args.extend_from_slice(extra);
        let out = judge(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out).lines().next().unwrap_or_default().to_string()
    };
    assert_eq!(first_line(&[]), "result 0-1 perpetual-chase");
    assert_eq!(
        first_line(&["--no-immobile-rule"]),
        "result 1/2-1/2 repetition-draw"
    );
    assert_eq!(
        first_line(&["--rule-set", "asian"]),
        "result 1/2-1/2 repetition-draw"
    );
    assert_eq!(
        first_line(&["--rule-set", "asian", "--immobile-rule"]),
        "result 0-1 perpetual-chase"
    );
}
