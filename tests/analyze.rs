//! `cotuong analyze` end to end: a planted blunder (a chariot left hanging) is marked, the
//! annotated PGN reads back, games in every notation and in UTF-8 and GB18030 are analyzed the
//! same, positions get their MultiPV lines, the graph is drawn, and bad input fails cleanly
//! (status 2, the place named, no output file written or touched).
//!
//! Searches are limited by nodes with one thread, so the results do not depend on the machine.

use engine_core::pgn::read_games;
use engine_core::{Move, Notation, Position, RankBase};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::cli::{self, stderr, stdout};

/// The initial position.
const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Nodes per searched position: enough to see a hanging chariot, little enough to be quick.
const NODES: &str = "20000";

/// A short game in which Red's 5th move (ply 9) puts its chariot where a pawn takes it for
/// nothing: `5. h5g5` (R2=3), answered by `g6g5`. The moves before it are ordinary opening moves.
const BLUNDER_MOVES: [&str; 10] = [
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "h0h5", "a9a8", "h5g5", "g6g5",
];
/// Ply (from 1) of the blunder.
const BLUNDER_PLY: u64 = 9;

fn analyze(args: &[&str]) -> Output {
    cli::run("analyze", args)
}

/// A folder unique to this test process and `name`.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cotuong-analyze-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn path_text(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// The blunder game's moves.
fn blunder_moves() -> Vec<Move> {
    let mut pos = Position::startpos();
    BLUNDER_MOVES
        .iter()
        .map(|t| {
            let mv = pos.parse_move(t, RankBase::Zero).expect("legal");
            pos.make_move(mv);
            mv
        })
        .collect()
}

/// The blunder game written in `notation`, as PGN.
fn blunder_pgn(notation: Notation) -> String {
    let texts = notation.format_line(&Position::startpos(), &blunder_moves());
    let mut body = String::new();
    for (i, t) in texts.iter().enumerate() {
        if i % 2 == 0 {
            body.push_str(&format!("{}. ", i / 2 + 1));
        }
        body.push_str(t);
        body.push(' ');
    }
    format!("[Event \"planted blunder\"]\n[Red \"红方\"]\n[Black \"黑方\"]\n\n{body}*\n\n")
}

/// Runs `analyze` and reads its JSON output.
fn analyze_json(args: &[&str]) -> Value {
    let out = analyze(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

/// The JSON review of the planted-blunder game at [`NODES`] nodes a move, with `extra` options.
fn review_blunder_game(name: &str, extra: &[&str]) -> Value {
    let dir = temp_dir(name);
    let pgn = dir.join("game.pgn");
    std::fs::write(&pgn, blunder_pgn(Notation::Iccs(RankBase::Zero))).expect("written");
    let mut args = vec![
        "--pgn",
        path_text(&pgn),
        "--nodes",
        NODES,
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let doc = analyze_json(&args);
    let _ = std::fs::remove_dir_all(&dir);
    doc
}

/// The judgement of ply `ply` (from 1) of the first game of an analysis.
fn judgement(doc: &Value, ply: u64) -> Value {
    doc["games"][0]["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .find(|m| m["ply"] == ply)
        .expect("the ply")["judgement"]
        .clone()
}

#[test]
fn a_hanging_chariot_is_marked_as_a_blunder() {
    let dir = temp_dir("blunder");
    let pgn = dir.join("game.pgn");
    std::fs::write(&pgn, blunder_pgn(Notation::Iccs(RankBase::Zero))).expect("written");
    let doc = analyze_json(&[
        "--pgn",
        path_text(&pgn),
        "--nodes",
        NODES,
        "--format",
        "json",
        "--notation",
        "wxf",
    ]);
    let moves = doc["games"][0]["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), BLUNDER_MOVES.len());
    let blunder = &moves[BLUNDER_PLY as usize - 1];
    assert_eq!(blunder["iccs"], "h5g5");
    assert_eq!(blunder["text"], "R2=3");
    assert_eq!(blunder["judgement"], "blunder", "{blunder:#}");
    assert!(
        blunder["loss"].as_i64().expect("loss") >= 700,
        "{blunder:#}"
    );
    assert_ne!(blunder["best"]["iccs"][0], "h5g5");
    // The pawn taking the chariot is the best move, and no opening move is a blunder.
    assert_eq!(judgement(&doc, BLUNDER_PLY + 1), Value::Null);
    for ply in 1..BLUNDER_PLY {
        assert_ne!(judgement(&doc, ply), "blunder", "ply {ply}");
    }
    // Red's summary counts it; the graph's scores have one entry per position.
    assert_eq!(doc["games"][0]["red"]["blunders"], 1);
    assert_eq!(
        doc["games"][0]["scores"].as_array().map(Vec::len),
        Some(BLUNDER_MOVES.len() + 1)
    );

    // The table marks it too, in the notation asked for.
    let out = analyze(&[
        "--pgn",
        path_text(&pgn),
        "--nodes",
        NODES,
        "--notation",
        "chinese",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    let row = table
        .lines()
        .find(|l| l.trim_start().starts_with("5. "))
        .expect("a row for move 5");
    assert!(
        row.contains("车二平三") && row.contains("?? blunder"),
        "{table}"
    );
}

#[test]
fn the_review_agrees_with_itself_and_with_fen() {
    let dir = temp_dir("consistent");
    let pgn = dir.join("game.pgn");
    std::fs::write(&pgn, blunder_pgn(Notation::Chinese)).expect("written");
    let doc = analyze_json(&[
        "--pgn",
        path_text(&pgn),
        "--nodes",
        NODES,
        "--format",
        "json",
    ]);
    let game = &doc["games"][0];
    let scores = game["scores"].as_array().expect("scores");
    let cp = |v: &Value| v["cp"].as_i64().expect("a centipawn score");
    for (i, m) in game["moves"].as_array().expect("moves").iter().enumerate() {
        let sign = if m["side"] == "red" { 1 } else { -1 };
        let loss = m["loss"].as_i64().expect("loss");
        assert!(loss >= 0, "{m:#}");
        // One search per position: the move's score is the next position's, the best line's
        // score the position's own; the best never scores below the move played.
        assert_eq!(m["score"], scores[i + 1], "{m:#}");
        assert_eq!(m["best"]["score"], scores[i], "{m:#}");
        if m["best_shown"] == true {
            assert!(
                sign * cp(&m["best"]["score"]) > sign * cp(&m["score"]),
                "{m:#}"
            );
        }
        if m["best"]["iccs"][0] != m["iccs"] {
            let drop = sign * (cp(&scores[i]) - cp(&scores[i + 1]));
            assert_eq!(loss, drop.max(0), "{m:#}");
        }
        assert_eq!(m["depth"], game["depths"][i + 1]);
    }
    // 1. 炮二平五, the most played first move, is not judged.
    assert_eq!(judgement(&doc, 1), Value::Null);
    // The position after three moves gets the score it gets alone (`--fen ... moves`).
    let fen = format!("{START} moves {}", BLUNDER_MOVES[..3].join(" "));
    let alone = analyze_json(&[
        "--fen",
        &fen,
        "--nodes",
        NODES,
        "--multipv",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(alone["positions"][0]["lines"][0]["score"], scores[3]);

    // The table: one header, columns aligned by display width, plurals right.
    let out = analyze(&["--pgn", path_text(&pgn), "--nodes", NODES]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    assert_eq!(table.matches("judgement").count(), 1, "{table}");
    assert!(table.contains("1 blunder,"), "{table}");
    assert!(!table.contains("1 blunders"), "{table}");
    // A diagram of the position before the blunder, in characters and in letters.
    assert!(table.contains("Before 5. 车二平三??"), "{table}");
    assert!(table.contains("9  ＋＋象士將士象車＋"), "{table}");
    let out = analyze(&["--pgn", path_text(&pgn), "--nodes", NODES, "--ascii"]);
    assert!(
        stdout(&out).contains("9  . . b a k a b r ."),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_finished_game_is_reported_with_its_result() {
    // Black is mated: two red chariots, one on e8 held by the red general along the file.
    let mated = "R3k4/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1";
    let doc = analyze_json(&["--fen", mated, "--nodes", "2000", "--format", "json"]);
    let p = &doc["positions"][0];
    assert_eq!(p["lines"].as_array().map(Vec::len), Some(0), "{p:#}");
    assert!(
        p["result"].as_str().is_some_and(|r| r.starts_with("1-0")),
        "{p:#}"
    );
    let out = analyze(&["--fen", mated, "--nodes", "2000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("The game is over: 1-0"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn the_annotated_pgn_reads_back_with_nags_comments_and_the_best_line() {
    let dir = temp_dir("annotated");
    let pgn = dir.join("game.pgn");
    std::fs::write(&pgn, blunder_pgn(Notation::Iccs(RankBase::Zero))).expect("written");
    for notation in ["iccs", "wxf", "chinese", "vietnamese"] {
        let out_path = dir.join(format!("annotated-{notation}.pgn"));
        let out = analyze(&[
            "--pgn",
            path_text(&pgn),
            "--nodes",
            NODES,
            "--format",
            "pgn",
            "--notation",
            notation,
            "--output",
            path_text(&out_path),
        ]);
        assert!(out.status.success(), "{notation}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "the analysis went to the file");
        let text = std::fs::read_to_string(&out_path).expect("the output file");
        let games: Vec<_> = read_games(&text, &Notation::ALL)
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{notation}: {e}\n{text}"));
        assert_eq!(games.len(), 1);
        let game = &games[0];
        assert_eq!(game.move_list(), blunder_moves(), "{notation}: {text}");
        assert_eq!(game.tag("Red"), Some("红方"));
        assert_eq!(game.tag("Variant"), Some("xiangqi"), "{text}");
        assert!(game.tag("Annotator").is_some_and(|a| a.contains("nodes")));
        let blunder = &game.moves[BLUNDER_PLY as usize - 1];
        assert_eq!(blunder.nags, [4], "{notation}: {text}");
        assert!(
            blunder
                .comments
                .iter()
                .any(|c| c.contains("blunder") && c.contains("best")),
            "{notation}: {:?}",
            blunder.comments
        );
        assert_eq!(blunder.variations.len(), 1, "the best line as a variation");
        // Every move has its score and depth.
        assert!(game
            .moves
            .iter()
            .all(|m| m.comments.iter().any(|c| c.contains('/'))));
    }
}

#[test]
fn games_in_every_notation_and_encoding_are_analyzed_alike() {
    let dir = temp_dir("notations");
    let mut files: Vec<(String, Vec<u8>)> = [
        Notation::Iccs(RankBase::Zero),
        Notation::Iccs(RankBase::One),
        Notation::Wxf,
        Notation::Chinese,
        Notation::Vietnamese,
    ]
    .iter()
    .map(|&n| (format!("{}.pgn", n.label()), blunder_pgn(n).into_bytes()))
    .collect();
    let (gbk, _, unmappable) =
        encoding_rs::GB18030.encode(std::str::from_utf8(&files[3].1).expect("utf-8"));
    assert!(!unmappable && std::str::from_utf8(&gbk).is_err());
    files.push(("chinese-gbk.pgn".into(), gbk.into_owned()));
    let mut reference: Option<Value> = None;
    for (name, bytes) in files {
        let path = dir.join(&name);
        std::fs::write(&path, bytes).expect("written");
        let doc = analyze_json(&[
            "--pgn",
            path_text(&path),
            "--nodes",
            "3000",
            "--format",
            "json",
            "--notation",
            "iccs",
        ]);
        let game = &doc["games"][0];
        let played: Vec<&str> = game["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| m["iccs"].as_str().expect("text"))
            .collect();
        assert_eq!(played, BLUNDER_MOVES, "{name}");
        // The same moves searched the same way: the same scores, whatever the notation.
        let scores = game["scores"].clone();
        match &reference {
            None => reference = Some(scores),
            Some(r) => assert_eq!(&scores, r, "{name}"),
        }
    }
}

#[test]
fn positions_get_their_best_lines() {
    let start = START;
    let doc = analyze_json(&[
        "--fen",
        start,
        "--nodes",
        NODES,
        "--multipv",
        "3",
        "--format",
        "json",
    ]);
    let lines = doc["positions"][0]["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 3);
    let mut firsts: Vec<&str> = lines
        .iter()
        .map(|l| l["iccs"][0].as_str().expect("a move"))
        .collect();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "three different first moves");
    assert_eq!(doc["notation"], "wxf");

    // A file of positions (FEN, EPD, and a FEN with moves), as a table and as PGN.
    let dir = temp_dir("positions");
    let file = dir.join("positions.epd");
    std::fs::write(
        &file,
        format!(
            "# test positions\n{start}\n\n\
             rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - -; id \"black\"\n\
             startpos moves h2e2 h9g7\n"
        ),
    )
    .expect("written");
    let out = analyze(&[
        "--positions",
        path_text(&file),
        "--nodes",
        "5000",
        "--notation",
        "vietnamese",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    assert_eq!(table.matches("Position ").count(), 3, "{table}");
    assert!(table.contains("positions.epd:4"), "{table}");
    assert!(table.contains("Black to move"), "{table}");
    let out = analyze(&[
        "--positions",
        path_text(&file),
        "--nodes",
        "5000",
        "--format",
        "pgn",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let games: Vec<_> = read_games(&stdout(&out), &Notation::ALL)
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{e}\n{}", stdout(&out)));
    assert_eq!(games.len(), 3);
    assert!(games.iter().all(|g| g.tag("Variant") == Some("xiangqi")));
    let after_two = games[2].start.clone();
    let mut expected = Position::startpos();
    for t in ["h2e2", "h9g7"] {
        let mv = expected.parse_move(t, RankBase::Zero).expect("legal");
        expected.make_move(mv);
    }
    assert_eq!(after_two.to_fen(), expected.to_fen());
    assert!(games
        .iter()
        .all(|g| !g.moves.is_empty() && !g.moves[0].variations.is_empty()));
}

#[test]
fn evaluation_graphs_are_svg_files() {
    let dir = temp_dir("graph");
    let pgn = dir.join("two.pgn");
    let one = blunder_pgn(Notation::Wxf);
    std::fs::write(&pgn, format!("{one}{one}")).expect("written");
    let graph = dir.join("eval.svg");
    let out = analyze(&[
        "--pgn",
        path_text(&pgn),
        "--nodes",
        "3000",
        "--graph",
        path_text(&graph),
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    for n in [1, 2] {
        let svg = std::fs::read_to_string(dir.join(format!("eval-{n}.svg"))).expect("a graph");
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("<circle"), "the blunder is marked");
    }
    assert!(!graph.exists(), "several games: numbered files only");
    let out = analyze(&[
        "--pgn",
        path_text(&pgn),
        "--game",
        "2",
        "--nodes",
        "3000",
        "--graph",
        path_text(&graph),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(graph.exists());
}

/// The blunder game's review as an HTML page (in `dir`), written in Chinese notation.
fn html_page(dir: &Path) -> (PathBuf, String) {
    let pgn = dir.join("game.pgn");
    std::fs::write(&pgn, blunder_pgn(Notation::Chinese)).expect("written");
    let page = dir.join("review.html");
    let out = analyze(&[
        "--pgn",
        path_text(&pgn),
        "--nodes",
        NODES,
        "--format",
        "html",
        "--output",
        path_text(&page),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&page).expect("the page");
    (page, text)
}

#[test]
fn the_html_page_is_self_contained_with_moves_board_graph_and_judgements() {
    let dir = temp_dir("html");
    let (_, page) = html_page(&dir);
    assert!(page.starts_with("<!DOCTYPE html>"), "{}", &page[..60]);
    assert!(page.trim_end().ends_with("</html>"));
    // Nothing loaded from elsewhere: no external scripts, styles, images or fonts.
    for outside in ["<link", " src=", "url(", "@import"] {
        assert!(!page.contains(outside), "{outside} in the page");
    }
    assert!(page.contains("<style>") && page.contains("<script>"));
    assert!(page.contains("id=\"board\""));
    assert!(page.contains("<svg"), "the graph");
    // Every move is a link to its position, in the chosen notation; the start too.
    for ply in 0..=BLUNDER_MOVES.len() {
        assert!(
            page.contains(&format!("<a href=\"#ply={ply}\" data-ply=\"{ply}\"")),
            "ply {ply}"
        );
    }
    assert!(page.contains(">车二平三</a>"));
    // The blunder with its best line.
    assert!(page.contains("?? blunder"), "the judgement");
    assert!(page.contains("; best "), "the best line");
    // Several games need a file name to number; positions have no page.
    let two = dir.join("two.pgn");
    let one = blunder_pgn(Notation::Wxf);
    std::fs::write(&two, format!("{one}{one}")).expect("written");
    fails_cleanly(
        &["--pgn", path_text(&two), "--format", "html"],
        &["--output"],
    );
    fails_cleanly(&["--fen", START, "--format", "html"], &["games"]);
}

/// Headless Chromium, if installed (Debian's `chromium`).
fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            std::process::Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

/// The board element (`<div id="board" ...>`) of `page` at `fragment`, after its script ran.
fn board_in_browser(browser: &str, page: &Path, fragment: &str) -> String {
    let out = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=3000",
            "--dump-dom",
        ])
        .arg(format!("file://{}#{fragment}", path_text(page)))
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&out.stdout).into_owned();
    let start = dom.find("id=\"board\"").expect("a board in the DOM");
    dom[start..].split('>').next().unwrap_or("").to_string()
}

#[test]
#[ignore = "needs chromium (apt-get install chromium); .ci/run runs it"]
fn in_a_browser_a_chosen_move_shows_its_position() {
    let browser = chromium().expect("chromium not found: apt-get install chromium");
    let dir = temp_dir("browser");
    let (page, _) = html_page(&dir);
    let mut after_blunder = Position::startpos();
    for &mv in &blunder_moves()[..BLUNDER_PLY as usize] {
        after_blunder.make_move(mv);
    }
    let start = board_in_browser(browser, &page, "ply=0");
    assert!(start.contains("data-ply=\"0\""), "{start}");
    assert!(start.contains(&Position::startpos().to_fen()), "{start}");
    // The move chosen (the link's address, which a click sets) changes the board.
    let chosen = board_in_browser(browser, &page, &format!("ply={BLUNDER_PLY}"));
    assert!(
        chosen.contains(&format!("data-ply=\"{BLUNDER_PLY}\"")),
        "{chosen}"
    );
    assert!(chosen.contains(&after_blunder.to_fen()), "{chosen}");
    assert_ne!(start, chosen);
}

/// Runs `analyze` and asserts a clean failure: status 2, nothing on stdout, one `error:` line
/// that contains every one of `wanted`.
fn fails_cleanly(args: &[&str], wanted: &[&str]) {
    let err = cli::fails_cleanly("analyze", args);
    for w in wanted {
        assert!(err.contains(w), "{args:?}: '{w}' missing from {err}");
    }
}

#[test]
fn bad_input_names_the_place_and_writes_nothing() {
    let dir = temp_dir("bad");
    let output = dir.join("kept.txt");
    std::fs::write(&output, "earlier output").expect("written");
    let out_arg = path_text(&output).to_string();
    let with_output = |args: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        v.extend(["--output".to_string(), out_arg.clone()]);
        v
    };
    let run = |args: &[&str], wanted: &[&str]| {
        let owned = with_output(args);
        let refs: Vec<&str> = owned.iter().map(String::as_str).collect();
        fails_cleanly(&refs, wanted);
        assert_eq!(
            std::fs::read_to_string(&output).expect("still there"),
            "earlier output",
            "{args:?} touched the output file"
        );
    };

    // Unreadable FEN.
    run(&["--fen", "rnbakabnr/9/1c5c1/p1p1p1p1p/9 w"], &["--fen"]);
    run(
        &[
            "--fen",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2h8",
        ],
        &["--fen", "h2h8"],
    );
    // A position file with a bad line.
    let file = dir.join("bad.epd");
    std::fs::write(
        &file,
        "# fine\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\nnot a position\n",
    )
    .expect("written");
    run(&["--positions", path_text(&file)], &["bad.epd:3"]);
    // An illegal move in a game: the game, the ply and the text.
    let pgn = dir.join("illegal.pgn");
    std::fs::write(
        &pgn,
        "[Event \"one\"]\n\n1. h2e2 h9g7 *\n\n[Event \"two\"]\n\n1. h2e2 h9g7 2. h0g2 a9a5 3. i0h0 *\n",
    )
    .expect("written");
    run(
        &["--pgn", path_text(&pgn)],
        &["illegal.pgn", "game 2", "ply 4", "a9a5"],
    );
    // Unreadable PGN: an unterminated comment.
    std::fs::write(&pgn, "[Event \"x\"]\n\n1. h2e2 {unfinished\n").expect("written");
    run(&["--pgn", path_text(&pgn)], &["game 1", "comment"]);
    // A file that is not there, an unknown notation, bad thresholds, a bad graph name.
    run(
        &["--pgn", path_text(&dir.join("missing.pgn"))],
        &["missing.pgn"],
    );
    run(
        &["--pgn", path_text(&pgn), "--notation", "morse"],
        &["morse"],
    );
    run(
        &["--pgn", path_text(&pgn), "--input-notation", "morse"],
        &["morse"],
    );
    run(
        &["--fen", START, "--mistake", "300", "--blunder", "200"],
        &["thresholds"],
    );
    std::fs::write(&pgn, blunder_pgn(Notation::Wxf)).expect("written");
    run(
        &["--pgn", path_text(&pgn), "--graph", "eval.png"],
        &["--graph", ".svg"],
    );
    run(
        &["--pgn", path_text(&pgn), "--game", "3"],
        &["--game 3", "1 game"],
    );
    // No input at all.
    run(&["--depth", "3"], &[]);
    // A failed write leaves no file: the output folder does not exist.
    let missing = dir.join("no-such-folder").join("out.txt");
    fails_cleanly(
        &[
            "--fen",
            START,
            "--depth",
            "2",
            "--output",
            path_text(&missing),
        ],
        &["cannot write", "out.txt"],
    );
    assert!(!missing.exists());
}

/// A score of the JSON output in centipawns (Red's view), `None` for a mate.
fn centipawns(score: &Value) -> Option<i64> {
    score["cp"].as_i64()
}

#[test]
fn movetime_is_spent_on_each_position_and_gives_a_depth() {
    let dir = temp_dir("movetime");
    let file = dir.join("positions.epd");
    std::fs::write(
        &file,
        format!("{START}\n{START} moves h2e2\n{START} moves h2e2 h9g7\n"),
    )
    .expect("written");
    let movetime = 300u64;
    let started = std::time::Instant::now();
    let doc = analyze_json(&[
        "--positions",
        path_text(&file),
        "--movetime",
        &movetime.to_string(),
        "--format",
        "json",
    ]);
    let elapsed = started.elapsed().as_millis() as u64;
    let positions = doc["positions"].as_array().expect("positions");
    assert_eq!(positions.len(), 3);
    for p in positions {
        let ms = p["time_ms"].as_u64().expect("time_ms");
        assert!(
            (movetime / 2..=movetime + 700).contains(&ms),
            "searched {ms} ms on a {movetime} ms limit: {p:#}"
        );
        assert!(p["depth"].as_i64().expect("depth") > 0, "{p:#}");
    }
    // The whole run: about three times the limit, plus start-up.
    assert!(
        elapsed >= 3 * movetime * 8 / 10 && elapsed <= 3 * movetime + 5000,
        "{elapsed} ms for three positions at {movetime} ms"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_threads_review_the_game_the_same_way() {
    let doc = review_blunder_game("threads", &["--threads", "2"]);
    let game = &doc["games"][0];
    let moves = game["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), BLUNDER_MOVES.len());
    let scores = game["scores"].as_array().expect("scores");
    assert_eq!(scores.len(), BLUNDER_MOVES.len() + 1);
    // Before the blunder the opening is about level; after it Black is a chariot up.
    for (ply, s) in scores.iter().enumerate() {
        let cp = centipawns(s).unwrap_or_else(|| panic!("a mate score at ply {ply}: {s}"));
        if ply < BLUNDER_PLY as usize {
            assert!(cp.abs() <= 200, "ply {ply}: {cp}");
        } else {
            assert!(cp <= -500, "ply {ply}: {cp} after the chariot is lost");
        }
    }
    assert!(game["depths"]
        .as_array()
        .expect("depths")
        .iter()
        .all(|d| d.as_i64().expect("depth") > 0));
    assert_eq!(judgement(&doc, BLUNDER_PLY), "blunder");
    assert_eq!(game["red"]["blunders"], 1);
    assert_eq!(game["red"]["moves"], 5);
    assert_eq!(game["black"]["moves"], 5);
}

#[test]
fn each_sides_average_loss_is_the_mean_of_its_move_losses() {
    let doc = review_blunder_game("average-loss", &[]);
    let game = &doc["games"][0];
    let moves = game["moves"].as_array().expect("moves");
    for side in ["red", "black"] {
        let losses: Vec<i64> = moves
            .iter()
            .filter(|m| m["side"] == side)
            .map(|m| m["loss"].as_i64().expect("loss"))
            .collect();
        assert_eq!(losses.len(), 5, "{side}");
        let mean = losses.iter().sum::<i64>() / losses.len() as i64;
        assert_eq!(
            game[side]["average_loss"].as_i64(),
            Some(mean),
            "{side}: losses {losses:?}"
        );
        assert_eq!(game[side]["moves"].as_u64(), Some(losses.len() as u64));
    }
    // The blunder makes Red's average large: the summary is not a constant.
    assert!(game["red"]["average_loss"].as_i64().expect("average") >= 700 / 5);
}

/// The mates in one of `pos`, and a legal move that does not mate.
fn mates_and_other_move(pos: &Position) -> (Vec<Move>, Move) {
    let (mates, others): (Vec<Move>, Vec<Move>) = pos.legal_moves().into_iter().partition(|&mv| {
        let mut after = pos.clone();
        after.make_move(mv);
        !after.has_legal_move()
    });
    assert!(!mates.is_empty(), "a mate in one");
    (mates, others[0])
}

/// Red mates in one (a position of tests/mate_positions.in), as EPD's four fields.
const MATE_IN_ONE: &str = "3R5/9/4k4/9/6R2/9/9/9/5K3/9 w - -";

#[test]
fn an_epd_test_suite_is_scored() {
    let pos = Position::from_fen(MATE_IN_ONE).expect("a position");
    let (mates, other) = mates_and_other_move(&pos);
    let texts = |notation: Notation, moves: &[Move]| -> String {
        let texts: Vec<String> = moves.iter().map(|&m| notation.format(&pos, m)).collect();
        texts.join(" ")
    };
    let wxf_mates = texts(Notation::Wxf, &mates);
    let dir = temp_dir("suite");
    let file = dir.join("suite.epd");
    // Standard EPD (four fields, then operations), moves in three notations, a position
    // without bm/am that is analyzed but not scored, and a comment operation.
    std::fs::write(
        &file,
        format!(
            "{MATE_IN_ONE} bm {wxf_mates}; id \"mate\"; c0 \"solved\";\n\
             {MATE_IN_ONE} bm {}; id \"not the mate\";\n\
             {MATE_IN_ONE} am {}; id \"avoid the mate\";\n\
             {START}\n",
            texts(Notation::Iccs(RankBase::Zero), &[other]),
            texts(Notation::Chinese, &mates),
        ),
    )
    .expect("written");
    let out = analyze(&["--positions", path_text(&file), "--nodes", NODES, "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    assert_eq!(table.matches("Position ").count(), 4, "{table}");
    assert!(table.contains("Test suite: solved 1 of 3\n"), "{table}");
    let failures: Vec<&str> = table
        .lines()
        .filter(|l| l.starts_with("  failed: "))
        .collect();
    assert_eq!(failures.len(), 2, "{table}");
    let found_a_mate = |line: &str| {
        let found = line.rsplit("found ").next().unwrap_or_default();
        mates
            .iter()
            .any(|&m| Notation::Wxf.format(&pos, m) == found)
    };
    let name = file.display();
    assert!(
        failures[0].starts_with(&format!(
            "  failed: id \"not the mate\" ({name}:2): expected bm {}, found ",
            texts(Notation::Wxf, &[other])
        )) && found_a_mate(failures[0]),
        "{table}"
    );
    assert!(
        failures[1].starts_with(&format!(
            "  failed: id \"avoid the mate\" ({name}:3): expected am {wxf_mates}, found "
        )) && found_a_mate(failures[1]),
        "{table}"
    );
    let doc = analyze_json(&[
        "--positions",
        path_text(&file),
        "--nodes",
        NODES,
        "--format",
        "json",
        "-q",
    ]);
    assert_eq!(doc["suite"]["solved"], 1);
    assert_eq!(doc["suite"]["total"], 3);
    assert_eq!(doc["suite"]["failures"][0]["id"], "not the mate");

    // A bm move that no notation reads is an error naming the line, before any search.
    std::fs::write(&file, format!("{MATE_IN_ONE} bm x9x9; id \"bad\";\n")).expect("written");
    let err = cli::fails_cleanly("analyze", &["--positions", path_text(&file)]);
    assert!(err.contains("suite.epd:1: bm x9x9: "), "{err}");
}
