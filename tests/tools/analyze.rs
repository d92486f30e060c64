//! `cotuong analyze` end to end: a planted blunder (a chariot left hanging) and a mate allowed
//! are marked, a won game's slips are not, the best move never scores below the move played,
//! accuracy comes from the moves, the annotated PGN reads back, games in every notation and in
//! UTF-8 and GB18030 are analyzed the same, positions get their MultiPV lines, the graph puts
//! each move at its number, `[White]` names the players, an interrupted review keeps its
//! finished games and resumes, and bad input fails cleanly (status 2, the place named, no output
//! file written or touched).
//!
//! Searches are limited by nodes with one thread, so the results do not depend on the machine.

use engine_core::pgn::read_games;
use engine_core::{Move, Notation, Position, RankBase};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;
use tempfile::TempDir;

use crate::common;
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

/// A fresh folder for the test `name`, removed when dropped, pass or fail.
fn temp_dir(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("cotuong-analyze-{name}-"))
        .tempdir()
        .expect("temp dir")
}

fn path_text(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Writes `contents` to the file `name` in `dir` and returns its path.
fn write_file(dir: &Path, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("written");
    path
}

/// The arguments `--pgn PGN --nodes NODES`, then `extra`.
fn pgn_args<'a>(pgn: &'a Path, nodes: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    [&["--pgn", path_text(pgn), "--nodes", nodes][..], extra].concat()
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

/// The blunder game in ICCS, written to `game.pgn` in `dir`; its path.
fn blunder_file(dir: &Path) -> PathBuf {
    write_file(dir, "game.pgn", blunder_pgn(Notation::Iccs(RankBase::Zero)))
}

/// The JSON review of the planted-blunder game at [`NODES`] nodes a move, with `extra` options.
fn review_blunder_game(name: &str, extra: &[&str]) -> Value {
    let scratch = temp_dir(name);
    let dir = scratch.path();
    let pgn = blunder_file(dir);
    let mut args = pgn_args(&pgn, NODES, &["--format", "json"]);
    args.extend_from_slice(extra);
    analyze_json(&args)
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
    let scratch = temp_dir("blunder");
    let dir = scratch.path();
    let pgn = blunder_file(dir);
    let doc = analyze_json(&pgn_args(
        &pgn,
        NODES,
        &["--format", "json", "--notation", "wxf"],
    ));
    let moves = doc["games"][0]["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), BLUNDER_MOVES.len());
    let blunder = &moves[BLUNDER_PLY as usize - 1];
    assert_eq!(blunder["iccs"], "h5g5");
    assert_eq!(blunder["text"], "R2=3");
    assert_eq!(blunder["judgement"], "blunder", "{blunder:#}");
    // A chariot lost from a level game: most of Red's winning chances.
    assert!(
        blunder["loss"].as_f64().expect("loss") >= 30.0,
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
    let out = analyze(&pgn_args(&pgn, NODES, &["--notation", "chinese"]));
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
    let scratch = temp_dir("consistent");
    let dir = scratch.path();
    let pgn = write_file(dir, "game.pgn", blunder_pgn(Notation::Chinese));
    let doc = analyze_json(&pgn_args(&pgn, NODES, &["--format", "json"]));
    let game = &doc["games"][0];
    let scores = game["scores"].as_array().expect("scores");
    let moves = game["moves"].as_array().expect("moves");
    for (i, m) in moves.iter().enumerate() {
        let loss = m["loss"].as_f64().expect("loss");
        // The move's score is the graph's, and its verdict follows from it and the best's.
        assert_eq!(m["score"], scores[i + 1], "{m:#}");
        assert_eq!(loss, expected_drop(m), "{m:#}");
        assert!(loss >= 0.0, "{m:#}");
        assert_eq!(m["line_iccs"][0], m["iccs"], "{m:#}");
    }
    // 1. 炮二平五, the most played first move, is not judged.
    assert_eq!(judgement(&doc, 1), Value::Null);
    // The position after three moves gets the lines it gets alone (`--fen ... moves`): the
    // same best move, unless the player's move scored as well.
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
    let fourth = &moves[3];
    assert!(
        fourth["found_best"] == true
            || alone["positions"][0]["lines"][0]["iccs"][0] == fourth["best"]["iccs"][0],
        "{fourth:#}"
    );

    // The table: one header, columns aligned by display width, plurals right.
    let out = analyze(&pgn_args(&pgn, NODES, &[]));
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    assert_eq!(table.matches("judgement").count(), 1, "{table}");
    assert!(table.contains(", 1 blunder\n"), "{table}");
    assert!(!table.contains("1 blunders"), "{table}");
    // A diagram of the position before the blunder, in characters and in letters.
    assert!(table.contains("Before 5. 车二平三??"), "{table}");
    assert!(table.contains("9  ＋＋象士將士象車＋"), "{table}");
    let out = analyze(&pgn_args(&pgn, NODES, &["--ascii"]));
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
    let scratch = temp_dir("annotated");
    let dir = scratch.path();
    let pgn = blunder_file(dir);
    for notation in ["iccs", "wxf", "chinese", "vietnamese"] {
        let out_path = dir.join(format!("annotated-{notation}.pgn"));
        let out = analyze(&pgn_args(
            &pgn,
            NODES,
            &[
                "--format",
                "pgn",
                "--notation",
                notation,
                "--output",
                path_text(&out_path),
            ],
        ));
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
    let scratch = temp_dir("notations");
    let dir = scratch.path();
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
        let path = write_file(dir, &name, bytes);
        let doc = analyze_json(&pgn_args(
            &path,
            "3000",
            &["--format", "json", "--notation", "iccs"],
        ));
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
    // Sorted first: dedup only merges neighbours.
    firsts.sort_unstable();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "three different first moves: {firsts:?}");
    assert_eq!(doc["notation"], "wxf");

    // A file of positions (FEN, EPD, and a FEN with moves), as a table and as PGN.
    let scratch = temp_dir("positions");
    let dir = scratch.path();
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
    let scratch = temp_dir("graph");
    let dir = scratch.path();
    let one = blunder_pgn(Notation::Wxf);
    let pgn = write_file(dir, "two.pgn", format!("{one}{one}"));
    let graph = dir.join("eval.svg");
    let out = analyze(&pgn_args(
        &pgn,
        "3000",
        &["--graph", path_text(&graph), "--quiet"],
    ));
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
    let pgn = write_file(dir, "game.pgn", blunder_pgn(Notation::Chinese));
    let page = dir.join("review.html");
    let out = analyze(&pgn_args(
        &pgn,
        NODES,
        &["--format", "html", "--output", path_text(&page)],
    ));
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&page).expect("the page");
    (page, text)
}

#[test]
fn the_html_page_is_self_contained_with_moves_board_graph_and_judgements() {
    let scratch = temp_dir("html");
    let dir = scratch.path();
    let (_, page) = html_page(dir);
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
    // The board's marks: the two palaces' diagonals and the river's words.
    let marks = &page[page
        .find("<template id=\"marks\">")
        .expect("the board's marks")..];
    let marks = &marks[..marks.find("</template>").expect("closed")];
    assert_eq!(marks.matches("<line ").count(), 4, "{marks}");
    assert!(
        marks.contains("楚 河") && marks.contains("漢 界"),
        "{marks}"
    );
    // The move list follows the move shown.
    assert!(page.contains("box.scrollTop="), "the move list scrolls");
    // Several games need a file name to number; positions have no page.
    let one = blunder_pgn(Notation::Wxf);
    let two = write_file(dir, "two.pgn", format!("{one}{one}"));
    fails_cleanly(
        &["--pgn", path_text(&two), "--format", "html"],
        &["--output"],
    );
    fails_cleanly(&["--fen", START, "--format", "html"], &["games"]);
    // With a file name, one page per game and an index linking them.
    let index = dir.join("review.html");
    let out = analyze(&pgn_args(
        &two,
        "3000",
        &["--format", "html", "-o", path_text(&index)],
    ));
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&index).expect("the index");
    for n in [1, 2] {
        assert!(
            text.contains(&format!("<a href=\"review-{n}.html\">")),
            "{text}"
        );
        assert!(dir.join(format!("review-{n}.html")).exists());
    }
    assert!(text.contains("Red accuracy"), "{text}");
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
    let scratch = temp_dir("browser");
    let dir = scratch.path();
    let (page, _) = html_page(dir);
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
    let scratch = temp_dir("bad");
    let dir = scratch.path();
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
    let scratch = temp_dir("movetime");
    let dir = scratch.path();
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
    // Against one thread: two threads search other nodes, so scores and depths may differ, but
    // not the game as read, its moves as written, which moves are blunders, or each side's
    // counts.
    let one = review_blunder_game("one-thread", &["--threads", "1"]);
    let alone = &one["games"][0];
    for key in ["number", "tags", "start", "written_in", "result"] {
        assert_eq!(game[key], alone[key], "{key}");
    }
    let facts = |g: &Value| -> Vec<(Value, Value, Value, Value, bool)> {
        g["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| {
                let blunder = m["judgement"] == "blunder";
                let fields = ["ply", "side", "iccs", "text"].map(|k| m[k].clone());
                let [ply, side, iccs, text] = fields;
                (ply, side, iccs, text, blunder)
            })
            .collect()
    };
    assert_eq!(facts(game), facts(alone));
    for side in ["red", "black"] {
        for count in ["moves", "blunders"] {
            assert_eq!(game[side][count], alone[side][count], "{side} {count}");
        }
    }
}

#[test]
fn each_sides_accuracy_comes_from_its_moves_and_a_blunder_counts() {
    let doc = review_blunder_game("accuracy", &[]);
    let game = &doc["games"][0];
    let moves = game["moves"].as_array().expect("moves");
    for side in ["red", "black"] {
        let accuracies: Vec<f64> = moves
            .iter()
            .filter(|m| m["side"] == side)
            .map(|m| m["accuracy"].as_f64().expect("accuracy"))
            .collect();
        assert_eq!(accuracies.len(), 5, "{side}");
        let mean = accuracies.iter().sum::<f64>() / 5.0;
        let accuracy = game[side]["accuracy"].as_f64().expect("accuracy");
        // Weighted towards the worst moves: never above the plain mean.
        assert!(accuracy <= mean + 0.05, "{side}: {accuracy} > {mean}");
        assert!((0.0..=100.0).contains(&accuracy), "{side}: {accuracy}");
    }
    // Red's blunder costs Red far more than its share: one move of five.
    let red = game["red"]["accuracy"].as_f64().expect("accuracy");
    let black = game["black"]["accuracy"].as_f64().expect("accuracy");
    assert!(red < 70.0 && black > red + 20.0, "red {red}, black {black}");
    // The same figures in the table, the annotated PGN's header and the HTML page.
    let scratch = temp_dir("accuracy-views");
    let dir = scratch.path();
    let pgn = blunder_file(dir);
    let text = format!("accuracy {red:.1}%");
    for (format, wanted) in [
        ("table", text.clone()),
        ("pgn", format!("[RedAccuracy \"{red:.1}%\"]")),
        ("html", text.clone()),
    ] {
        let out = analyze(&pgn_args(&pgn, NODES, &["--format", format]));
        assert!(out.status.success(), "{format}: {}", stderr(&out));
        assert!(stdout(&out).contains(&wanted), "{format}: {}", stdout(&out));
    }
}

/// The expected score (thousandths) of `mover` (1 Red, -1 Black) for a score of the JSON output,
/// under the engine's WDL model.
fn expected_score(score: &Value, mover: i64) -> i64 {
    if score["mate"].is_i64() {
        return if (score["winner"] == "red") == (mover == 1) {
            1000
        } else {
            0
        };
    }
    let cp = score["cp"].as_i64().expect("a score") * mover;
    let (w, d, _) = cotuong::protocol::wdl(i32::try_from(cp).expect("small"));
    (2 * i64::from(w) + i64::from(d)) / 2
}

/// The mover of a reviewed move of the JSON output: 1 Red, -1 Black.
fn mover(m: &Value) -> i64 {
    if m["side"] == "red" {
        1
    } else {
        -1
    }
}

/// The drop of the mover's winning chances (percentage points) from the best move to the move
/// played of a reviewed move of the JSON output.
fn expected_drop(m: &Value) -> f64 {
    let drop =
        expected_score(&m["best"]["score"], mover(m)) - expected_score(&m["score"], mover(m));
    drop.max(0) as f64 / 10.0
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

/// Red mates in one (a position of tests/search/mate_positions.in), as EPD's four fields.
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
    let scratch = temp_dir("suite");
    let dir = scratch.path();
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

/// Two games of `cotuong match` (nodes 20,000 a move): a full-strength engine beating one at
/// Skill Level 2 in 37 plies, with `[White]`/`[Black]` tags; two equal engines, 141 plies.
const MATCH_GAMES: &str = "tests/data/analyze-games.pgn";

/// A score of the JSON output as an order from the mover's view: mates beyond any centipawn
/// score, a quicker mate better, a later mate against less bad.
fn mover_order(score: &Value, side: &Value) -> i64 {
    let mover = if *side == "red" { 1 } else { -1 };
    match (score["cp"].as_i64(), score["mate"].as_i64()) {
        (Some(cp), _) => cp * mover,
        (None, Some(mate)) => {
            let ours = (score["winner"] == "red") == (mover == 1);
            if ours {
                1_000_000 - mate.abs()
            } else {
                -1_000_000 + mate.abs()
            }
        }
        _ => panic!("a score: {score}"),
    }
}

#[test]
fn the_best_move_never_scores_below_the_move_played() {
    let doc = analyze_json(&[
        "--pgn",
        MATCH_GAMES,
        "--nodes",
        NODES,
        "--format",
        "json",
        "--quiet",
    ]);
    let mut found = 0;
    for game in doc["games"].as_array().expect("games") {
        for m in game["moves"].as_array().expect("moves") {
            let played = mover_order(&m["score"], &m["side"]);
            let best = mover_order(&m["best"]["score"], &m["side"]);
            assert!(
                best >= played,
                "the best scores below the move played: {m:#}"
            );
            if m["found_best"] == true {
                found += 1;
                // One score: the best's is the move's.
                assert_eq!(m["best"]["score"], m["score"], "{m:#}");
                assert_eq!(m["loss"], 0.0, "{m:#}");
            } else {
                assert_ne!(m["best"]["iccs"][0], m["iccs"], "{m:#}");
            }
        }
    }
    assert!(found > 20, "{found} best moves found in 178 plies");
    // The table shows the best move's score only where the player missed it.
    let out = analyze(&[
        "--pgn",
        MATCH_GAMES,
        "--game",
        "1",
        "--nodes",
        NODES,
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    let rows: Vec<&str> = table.lines().filter(|l| l.contains("(played)")).collect();
    assert!(!rows.is_empty(), "{table}");
    for row in rows {
        assert_eq!(row.matches('/').count(), 1, "one score: {row}");
    }
}

#[test]
fn a_won_game_with_small_slips_marks_no_mistakes_for_the_winner() {
    // Red has two chariots against a bare king and advisors, and pushes soldiers instead of
    // mating: every move keeps the game won, most miss a mate.
    let scratch = temp_dir("slips");
    let dir = scratch.path();
    let pgn = write_file(
        dir,
        "slips.pgn",
        "[White \"Winner\"]\n[Black \"Loser\"]\n[SetUp \"1\"]\n\
         [FEN \"3ak4/5a3/9/9/9/9/P1P3P1P/9/9/R2K4R w - - 0 1\"]\n\n\
         1. a3a4 e9e8 2. c3c4 e8e9 3. g3g4 e9e8 4. i3i4 e8e9 5. a4a5 e9e8 6. c4c5 e8e9 \
         7. g4g5 e9e8 8. i4i5 e8e9 *\n",
    );
    let doc = analyze_json(&pgn_args(&pgn, NODES, &["--format", "json"]));
    let game = &doc["games"][0];
    for side in ["red", "black"] {
        assert_eq!(game[side]["mistakes"], 0, "{side}: {game:#}");
        assert_eq!(game[side]["blunders"], 0, "{side}: {game:#}");
    }
    let moves = game["moves"].as_array().expect("moves");
    let missed = moves
        .iter()
        .filter(|m| m["mate"]["kind"] == "missed" || m["mate"]["kind"] == "changed")
        .count();
    assert!(missed >= 4, "the mates missed are named: {game:#}");
    // Named in the table too, and no mate is written `#-0`.
    let out = analyze(&pgn_args(&pgn, NODES, &["--quiet"]));
    let table = stdout(&out);
    assert!(
        table.contains("missed mate in") || table.contains("became mate in"),
        "{table}"
    );
    assert!(!table.contains("#-0") && !table.contains("#0"), "{table}");
    // The winner of a real game against a weak engine: no mistake, no blunder.
    let doc = analyze_json(&[
        "--pgn",
        MATCH_GAMES,
        "--game",
        "1",
        "--nodes",
        NODES,
        "--format",
        "json",
    ]);
    let red = &doc["games"][0]["red"];
    assert_eq!(
        (&red["mistakes"], &red["blunders"]),
        (&Value::from(0), &Value::from(0)),
        "{red:#}"
    );
    // With thresholds small enough for the drops of a decided game to count, the moves of the
    // long match game, and of the short one's first 30 plies followed by a horse retreat that
    // gives back about four pawns of Red's lead (still decided), that keep the mover's game
    // decided either way are at worst inaccuracies.
    let slip = write_file(
        dir,
        "slip.pgn",
        "[White \"Full\"]\n[Black \"Weak\"]\n\n\
         1. c3c4 h9g7 2. g0e2 b9a7 3. g3g4 g7e8 4. b0c2 a6a5 5. h0g2 h7h5 6. g2f4 h5i5 \
         7. i0h0 b7h7 8. h2g2 h7d7 9. b2b6 e8g7 10. g4g5 a9a8 11. g5h5 a7c8 12. b6b7 g7e8 \
         13. h5i5 a8a7 14. a0b0 c8a9 15. b7b6 d7e7 16. c2e1 *\n",
    );
    let small_thresholds = ["--inaccuracy", "1", "--mistake", "2", "--blunder", "3"];
    let long_game = ["--pgn", MATCH_GAMES, "--game", "2"];
    let slip_game = ["--pgn", path_text(&slip)];
    let reviews = [long_game.as_slice(), slip_game.as_slice()];
    let mut large_drops = 0;
    for review in reviews {
        let args = [
            review,
            &["--nodes", NODES, "--format", "json"],
            &small_thresholds,
        ]
        .concat();
        let doc = analyze_json(&args);
        large_drops += decided_moves_at_worst_inaccuracies(&doc);
    }
    assert!(
        large_drops > 0,
        "no drop of 2 points in a decided game to check"
    );
}

/// Checks that every move of the review `doc` that keeps the mover's game decided the same way
/// is at worst an inaccuracy; returns how many of them drop 2 points or more.
fn decided_moves_at_worst_inaccuracies(doc: &Value) -> usize {
    let mut large_drops = 0;
    for m in doc["games"][0]["moves"].as_array().expect("moves") {
        let best = expected_score(&m["best"]["score"], mover(m));
        let played = expected_score(&m["score"], mover(m));
        let decided = |e: i64| {
            if e >= 900 {
                1
            } else if e <= 100 {
                -1
            } else {
                0
            }
        };
        if decided(best) != 0 && decided(best) == decided(played) {
            assert!(
                m["judgement"].is_null() || m["judgement"] == "inaccuracy",
                "{m:#}"
            );
            large_drops += usize::from(best - played >= 20);
        }
    }
    large_drops
}

#[test]
fn a_mate_allowed_from_a_won_position_is_a_blunder() {
    // From a match game: Red, four pawns up, plays C3=5 (g1e1), and Black's cannon mates at
    // once along Red's back rank (i3i0, the advisor on f0 its screen).
    let scratch = temp_dir("allows-mate");
    let dir = scratch.path();
    let pgn = write_file(
        dir,
        "mate.pgn",
        "[SetUp \"1\"]\n[FEN \"3aka1n1/9/2n6/2N1p1N1p/2b6/2B3P2/4P3c/9/6C2/2BAKA3 w - - 0 30\"]\n\n\
         30. g1e1 i3i0 0-1\n",
    );
    let doc = analyze_json(&pgn_args(&pgn, NODES, &["--format", "json"]));
    let game = &doc["games"][0];
    assert_eq!(judgement(&doc, 1), "blunder", "{game:#}");
    let m = &game["moves"][0];
    assert_eq!(
        m["mate"],
        serde_json::json!({"kind": "allows", "moves": 1}),
        "{m:#}"
    );
    // Won before (about 80% for Red with net 16), lost after: a loss of about that much, far
    // above the blunder threshold (24).
    assert!(m["loss"].as_f64().expect("loss") > 70.0, "{m:#}");
    assert_eq!(game["red"]["blunders"], 1);
    let out = analyze(&pgn_args(&pgn, NODES, &["--quiet"]));
    assert!(
        stdout(&out).contains("?? blunder, allows mate in 1"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn white_and_black_tags_name_the_players_in_every_view() {
    let scratch = temp_dir("names");
    let dir = scratch.path();
    let out_pgn = dir.join("annotated.pgn");
    let page = dir.join("review.html");
    let args = [
        "--pgn",
        MATCH_GAMES,
        "--game",
        "1",
        "--nodes",
        "3000",
        "--quiet",
    ];
    let table = analyze(&args);
    assert!(
        stdout(&table).contains("Game 1: Full - Weak 1-0"),
        "{}",
        stdout(&table)
    );
    assert!(
        stdout(&table).contains("Red (Full): 19 moves"),
        "{}",
        stdout(&table)
    );
    let doc = analyze_json(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(doc["games"][0]["red"]["player"], "Full");
    assert_eq!(doc["games"][0]["black"]["player"], "Weak");
    for (format, file) in [("pgn", &out_pgn), ("html", &page)] {
        let out = analyze(&[&args[..], &["--format", format, "-o", path_text(file)]].concat());
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let html = std::fs::read_to_string(&page).expect("the page");
    assert!(html.contains("<title>Full - Weak 1-0</title>"), "{html}");
    assert!(html.contains("Red (Full)"), "{html}");
    let pgn = std::fs::read_to_string(&out_pgn).expect("the PGN");
    assert!(
        pgn.contains("[White \"Full\"]") && pgn.contains("[RedAccuracy "),
        "{pgn}"
    );
}

/// The x-coordinates of the graph, from the HTML page's data: the start's and the last move's.
fn graph_ends(page: &str) -> (f64, f64) {
    let start = page.find("\"graph\":[").expect("graph data") + "\"graph\":[".len();
    let numbers: Vec<f64> = page[start..]
        .split(']')
        .next()
        .unwrap_or("")
        .split(',')
        .map(|n| n.parse().expect("a number"))
        .collect();
    (numbers[2], numbers[3])
}

/// The review of `pgn` at 3,000 nodes a move as an HTML page written to `page`; the page.
fn html_review(pgn: &Path, page: &Path) -> String {
    let out = analyze(&pgn_args(
        pgn,
        "3000",
        &["--format", "html", "-o", path_text(page)],
    ));
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::read_to_string(page).expect("page")
}

#[test]
fn the_graph_puts_each_move_at_its_number() {
    let scratch = temp_dir("graph-x");
    let dir = scratch.path();
    // Red moves first: ten plies, Black's fifth move last, at 5.5; the start half a move before
    // Red's first, at 0.5.
    let page = dir.join("red.html");
    let red = write_file(dir, "red.pgn", blunder_pgn(Notation::Iccs(RankBase::Zero)));
    let html = html_review(&red, &page);
    assert_eq!(graph_ends(&html), (0.5, 5.5));
    assert!(html.contains("Black&apos;s at N + 0.5"));
    // Black moves first, at move 30: Black's move 30 at 30.5, Red's move 31 at 31.
    let black = write_file(
        dir,
        "black.pgn",
        "[SetUp \"1\"]\n[FEN \"3aka1n1/9/2n6/2N1p1N1p/2b6/2B3P2/4P3c/9/4C4/2BAKA3 b - - 1 30\"]\n\n\
         30... i6i5 31. e3e4 *\n",
    );
    let page = dir.join("black.html");
    let html = html_review(&black, &page);
    assert_eq!(graph_ends(&html), (30.0, 31.0));
}

/// Sends Ctrl-C (SIGINT) to the process `pid`.
fn interrupt(pid: u32) {
    let sent = std::process::Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
}

#[test]
fn an_interrupted_review_keeps_its_finished_games_and_resumes() {
    let scratch = temp_dir("interrupted");
    let dir = scratch.path();
    // A short game, then the long one of the match games: Ctrl-C comes during the second.
    let long = std::fs::read_to_string(MATCH_GAMES).expect("the match games");
    let second = &long[long.rfind("[Event").expect("two games")..];
    let pgn = write_file(
        dir,
        "two.pgn",
        format!("{}\n{second}", blunder_pgn(Notation::Iccs(RankBase::Zero))),
    );
    for format in ["json", "pgn"] {
        let out_file = dir.join(format!("review.{format}"));
        let args = pgn_args(
            &pgn,
            NODES,
            &["--format", format, "-o", path_text(&out_file), "--quiet"],
        );
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_cotuong"))
            .arg("analyze")
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("analyze starts");
        // The first game is written as soon as it is reviewed.
        let started = std::time::Instant::now();
        while !out_file.exists() {
            assert!(
                started.elapsed().as_secs() < 60,
                "the first game was not written"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        interrupt(child.id());
        let out = child.wait_with_output().expect("analyze ends");
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("interrupted after 1 of 2 games"),
            "{}",
            stderr(&out)
        );
        let text = std::fs::read_to_string(&out_file).expect("the output");
        if format == "json" {
            let doc: Value = serde_json::from_str(&text).expect("whole JSON");
            assert_eq!(doc["interrupted"], true);
            assert_eq!(doc["games"].as_array().map(Vec::len), Some(1));
            // --resume reviews the second game only and completes the document.
            let out = analyze(&[&args[..], &["--resume"]].concat());
            assert!(out.status.success(), "{}", stderr(&out));
            let doc: Value =
                serde_json::from_str(&std::fs::read_to_string(&out_file).expect("output"))
                    .expect("whole JSON");
            assert_eq!(doc["interrupted"], false);
            let numbers: Vec<&Value> = doc["games"]
                .as_array()
                .expect("games")
                .iter()
                .map(|g| &g["number"])
                .collect();
            assert_eq!(numbers, [&Value::from(1), &Value::from(2)]);
        } else {
            let games: Vec<_> = read_games(&text, &Notation::ALL)
                .collect::<Result<_, _>>()
                .unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(games.len(), 1, "{text}");
            assert!(text.contains("% interrupted: 1 of 2 games"), "{text}");
        }
    }
}
