//! `cotuong play` end to end, driven on a pipe as a script would drive it: moves in several
//! notations, undo, hint, bad input, the referee's endings with the article of the Law, draw
//! offers, options, PGN saved and judged again, and the exit status at `quit` and at the end of
//! input. One test draws the game in a real terminal (tmux) and reads the screen.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_cotuong");
/// Nodes per engine move: quick, and the same moves every run.
const NODES: &str = "20000";
/// Longest a scripted game may take before the test gives up on it.
const GAME_TIMEOUT: Duration = Duration::from_secs(60);
/// Red mates with the chariot b0-b9 (车八进九): the other chariot holds rank 8.
const MATE_IN_ONE: &str = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1";
/// Red stalemates with i7-i8 (车一进一): the chariot on e5 holds the e-file, the black general
/// on d9 is not in check and can go nowhere.
const STALEMATE_IN_ONE: &str = "3k5/9/8R/9/4R4/9/9/9/9/5K3 w - - 0 1";
/// Black to move wins at once: its chariots hold rank 1 and can come down to rank 0.
const BLACK_WINS_AT_ONCE: &str = "1r1k5/9/9/9/9/9/9/9/r8/4K4 b - - 0 1";
/// The initial position without Black's chariots: the engine as Black stands clearly worse.
const BLACK_WITHOUT_CHARIOTS: &str =
    "1nbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Runs `cotuong play ARGS` with `input` on its standard input (closed after it), and returns
/// its output; fails the test if it runs past [`GAME_TIMEOUT`].
fn play(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(BIN)
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cotuong starts");
    let mut stdin = child.stdin.take().expect("a pipe");
    stdin.write_all(input.as_bytes()).expect("input written");
    drop(stdin);
    let (tx, rx) = crossbeam_channel::bounded(1);
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    rx.recv_timeout(GAME_TIMEOUT)
        .expect("cotuong play finishes in time")
        .expect("its output")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The lines of `text` that start with `prefix`.
fn lines_starting<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.starts_with(prefix)).collect()
}

#[test]
fn a_scripted_game_in_four_notations_with_undo_hint_and_bad_input() {
    // Chinese, ICCS, WXF and Vietnamese moves that stay legal whatever Black answers.
    let out = play(
        &["--nodes", NODES],
        "炮二平五\nh0g2\nR1+1\nX1.1\nfen\nundo\nfen\nxyzzy\nhint\nfen\nquit\n",
    );
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    let mine = lines_starting(&text, "You play ");
    assert_eq!(
        mine,
        [
            "You play 炮二平五.",
            "You play 马二进三.",
            "You play 车一进一.",
            "You play 车一进一."
        ],
        "{text}"
    );
    assert_eq!(
        lines_starting(&text, "Cotuong plays ").len(),
        4,
        "the engine answers every move: {text}"
    );
    // The board in Chinese characters, each side's file numbers, the last move marked.
    assert!(text.contains("9  車 馬 象 士 將 士 象 馬 車"), "{text}");
    assert!(text.contains("   九 八 七 六 五 四 三 二 一"), "{text}");
    assert!(text.contains("   1  2  3  4  5  6  7  8  9"), "{text}");
    assert!(text.contains('〇') && text.contains('['), "{text}");
    assert!(!text.contains('\x1b'), "no colour on a pipe");
    // Undo takes back the last move of each side: move 5 becomes move 4 again.
    let fens = lines_starting(&text, "FEN: ");
    assert_eq!(fens.len(), 3, "{text}");
    // The last two fields: the no-capture clock and the move number. The clock depends on
    // whether the engine captured, so only its step back is checked.
    let counters = |fen: &str| -> (u32, u32) {
        let fields: Vec<u32> = fen
            .split_whitespace()
            .rev()
            .take(2)
            .filter_map(|f| f.parse().ok())
            .collect();
        assert_eq!(fields.len(), 2, "{fen}");
        (fields[1], fields[0])
    };
    let (clock_before, move_before) = counters(fens[0]);
    let (clock_after, move_after) = counters(fens[1]);
    assert!(fens[0].contains(" w "), "{}", fens[0]);
    assert!(fens[1].contains(" w "), "{}", fens[1]);
    assert_eq!((move_before, move_after), (5, 4), "{fens:?}");
    assert!(
        clock_before == clock_after + 2 || clock_before < 2,
        "the clock steps back two plies unless a capture reset it: {fens:?}"
    );
    assert_ne!(fens[0], fens[1]);
    assert!(
        fens[1].contains("/8R/"),
        "the chariot is back on i1 after the undo: {}",
        fens[1]
    );
    assert_eq!(
        lines_starting(&text, "Took back 车一进一 ").len(),
        1,
        "{text}"
    );
    // Bad input: one line naming the notations tried and some legal moves; the game goes on.
    let hints = lines_starting(&text, "? ");
    assert_eq!(hints.len(), 1, "{text}");
    assert!(
        hints[0].contains("'xyzzy'")
            && hints[0].contains("tried iccs, wxf, chinese, vietnamese")
            && hints[0].contains("legal moves here include "),
        "{}",
        hints[0]
    );
    // A hint suggests a move without playing it.
    let hint = lines_starting(&text, "Hint: ");
    assert_eq!(hint.len(), 1, "{text}");
    assert!(
        hint[0].contains('[') && hint[0].contains(']'),
        "{}",
        hint[0]
    );
    assert_eq!(fens[1], fens[2], "neither bad input nor a hint moves");
}

#[test]
fn the_player_mates_and_the_referee_names_the_article_then_judge_agrees() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let pgn = dir.path().join("mate.pgn");
    let script = format!(
        "fen {MATE_IN_ONE}\n车八进九\nh2e2\nsave {}\nquit\n",
        pgn.display()
    );
    let out = play(&["--nodes", NODES], &script);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    let over = lines_starting(&text, "Game over: ");
    assert_eq!(
        over,
        ["Game over: Red wins: Black is checkmated after ply 1 (Điều 7 win a). Result 1-0."],
        "{text}"
    );
    assert!(
        text.contains("The game is over"),
        "no move after the end: {text}"
    );
    assert!(lines_starting(&text, "Cotuong plays").is_empty(), "{text}");
    let saved = std::fs::read_to_string(&pgn).expect("the PGN was written");
    for tag in [
        "[Variant \"xiangqi\"]",
        "[Red \"Human\"]",
        "[Black \"Cotuong ",
        "[Result \"1-0\"]",
        "[FEN \"4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1\"]",
        "[TerminationDetails \"Red wins: Black is checkmated after ply 1 (Điều 7 win a)\"]",
    ] {
        assert!(saved.contains(tag), "{tag} in {saved}");
    }
    let judged = Command::new(BIN)
        .args(["judge", "--pgn"])
        .arg(&pgn)
        .output()
        .expect("judge runs");
    assert!(judged.status.success(), "{judged:?}");
    assert!(
        stdout(&judged).starts_with("result 1-0 checkmate\n"),
        "{}",
        stdout(&judged)
    );
}

#[test]
fn a_stalemate_loses_for_the_engine_and_the_engine_wins_as_black() {
    let out = play(&["--nodes", NODES, "--fen", STALEMATE_IN_ONE], "R1+1\n");
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert_eq!(
        lines_starting(&text, "Game over: "),
        [
            "Game over: Red wins: Black is not in check but has no legal move after ply 1; a \
          stalemated side loses (Điều 7 win b). Result 1-0."
        ],
        "{text}"
    );
    // The player is Red, the engine Black to move: it ends the game at once.
    let out = play(&["--nodes", NODES, "--fen", BLACK_WINS_AT_ONCE], "");
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert_eq!(lines_starting(&text, "Cotuong plays ").len(), 1, "{text}");
    let over = lines_starting(&text, "Game over: Black wins: Red ");
    assert_eq!(over.len(), 1, "{text}");
    assert!(
        over[0].contains("(Điều 7 win ") && over[0].ends_with("Result 0-1."),
        "{}",
        over[0]
    );
}

#[test]
fn the_sixty_move_rule_draws() {
    let out = play(
        &[
            "--nodes",
            NODES,
            "--fen",
            "3k5/9/9/9/9/9/9/9/R8/5K3 w - - 119 80",
        ],
        "a1a2\n",
    );
    let text = stdout(&out);
    let over = lines_starting(
        &text,
        "Game over: Draw after ply 1: 120 plies without a capture",
    );
    assert_eq!(over.len(), 1, "{text}");
    assert!(over[0].contains("(Điều 7 draw e, Điều 12)"), "{}", over[0]);
}

/// Red's chariot checks on rank 9 and rank 8 in turn; Black's general has one legal answer each
/// time (the pawn e6 holds e7, the chariot's line the rest; Black's chariots on a9 and a8 sit
/// behind their general and cannot block), so the engine's replies are forced.
const PERPETUAL_CHECK: &str = "r3k4/r8/9/4P4/9/9/9/9/8R/3K5 w - - 0 1";

#[test]
fn the_player_who_checks_perpetually_loses_and_the_article_is_named() {
    let out = play(
        &["--nodes", NODES, "--fen", PERPETUAL_CHECK],
        "i1i9\ni9i8\ni8i9\ni9i8\ni8i9\ni9i8\n",
    );
    let text = stdout(&out);
    let replies = lines_starting(&text, "Cotuong plays");
    assert_eq!(replies.len(), 4, "{text}");
    let over = lines_starting(&text, "Game over: Black wins: Red checked on every one");
    assert_eq!(over.len(), 1, "{text}");
    assert!(
        over[0].contains("perpetual check, Điều 7 win g") && over[0].ends_with("Result 0-1."),
        "{}",
        over[0]
    );
}

#[test]
fn draw_offers_are_declined_when_level_and_accepted_when_worse() {
    let out = play(
        &["--nodes", NODES],
        &format!("draw\nfen {BLACK_WITHOUT_CHARIOTS}\ndraw\n炮二平五\n"),
    );
    let text = stdout(&out);
    assert_eq!(
        lines_starting(&text, "Cotuong declines the draw").len(),
        1,
        "{text}"
    );
    assert_eq!(
        lines_starting(&text, "Cotuong accepts the draw").len(),
        1,
        "{text}"
    );
    assert_eq!(
        lines_starting(&text, "Game over: Draw agreed").len(),
        1,
        "{text}"
    );
    assert!(text.contains("Result 1/2-1/2."), "{text}");
    assert!(
        text.contains("The game is over"),
        "no move after the draw: {text}"
    );
}

#[test]
fn options_sides_and_letters() {
    let out = play(
        &["--nodes", NODES, "--ascii", "--side", "black"],
        "level 25\nlevel 3\nlevel elo 1500\ntime 60+1\nmovetime 0\nnodes 5000\nflip\nside red\nresign\nhelp\n",
    );
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    // As Black the engine opens, and after the change of sides it moves for Black.
    assert_eq!(lines_starting(&text, "Cotuong plays ").len(), 2, "{text}");
    assert!(
        text.contains("   9  8  7  6  5  4  3  2  1\n   i  h  g"),
        "{text}"
    );
    assert!(
        text.contains("? 25 is out of range for option 'Skill Level' (0..20)"),
        "{text}"
    );
    assert!(
        text.contains("The engine plays at Skill Level 3."),
        "{text}"
    );
    assert!(text.contains("The engine plays at Elo 1500."), "{text}");
    assert!(text.contains("The engine thinks 60+1 (seconds"), "{text}");
    assert!(text.contains("? the move time must be above 0"), "{text}");
    assert!(
        text.contains("The engine thinks 5000 nodes a move."),
        "{text}"
    );
    assert!(text.contains("You play Red."), "{text}");
    assert!(
        text.contains("Game over: Red resigns. Result 0-1."),
        "{text}"
    );
    assert!(text.contains("  undo "), "help lists the commands: {text}");
}

#[test]
fn quit_and_the_end_of_input_exit_with_status_zero() {
    let out = play(&["--nodes", NODES], "quit\n炮二平五\n");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        lines_starting(&stdout(&out), "You play").is_empty(),
        "quit stops reading"
    );
    let out = play(&["--nodes", NODES], "h2e2");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(lines_starting(&stdout(&out), "Cotuong plays ").len(), 1);
    let out = play(&["--fen", "not a fen"], "");
    assert_eq!(
        out.status.code(),
        Some(2),
        "a bad --fen is an error: {out:?}"
    );
}

#[test]
fn the_saved_game_records_the_engine_level_and_time_control() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let pgn = dir.path().join("settings.pgn");
    let input = format!("h2e2\nsave {}\nquit\n", pgn.display());
    let out = play(&["--nodes", NODES, "--level", "7"], &input);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let saved = std::fs::read_to_string(&pgn).expect("the PGN was written");
    assert!(saved.contains("[EngineLevel \"Skill Level 7\"]"), "{saved}");
    assert!(saved.contains("[Event \"Cotuong play\"]"), "{saved}");
    assert!(
        saved.contains(&format!("[TimeControl \"nodes={NODES}\"]")),
        "{saved}"
    );
    // The level and the clock as they stand when the game is saved.
    let input = format!("level elo 1500\ntime 60+1\nsave {}\nquit\n", pgn.display());
    let out = play(&["--side", "black", "--nodes", NODES], &input);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let saved = std::fs::read_to_string(&pgn).expect("the PGN was written");
    assert!(saved.contains("[EngineLevel \"Elo 1500\"]"), "{saved}");
    assert!(saved.contains("[TimeControl \"60+1\"]"), "{saved}");
}

/// `tmux` with a private server socket, so that the test never touches anyone else's sessions.
fn tmux(socket: &str, args: &[&str]) -> Option<Output> {
    Command::new("tmux")
        .args(["-u", "-L", socket])
        .args(args)
        .output()
        .ok()
}

/// The visible screen of the session's pane.
fn capture(socket: &str) -> String {
    tmux(socket, &["capture-pane", "-p", "-t", "play"])
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
}

/// Waits until the pane shows `text`; the screen at that point (or at the timeout).
fn wait_for(socket: &str, text: &str) -> String {
    let deadline = Instant::now() + GAME_TIMEOUT;
    loop {
        let screen = capture(socket);
        if screen.contains(text) || Instant::now() > deadline {
            return screen;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Whether `tmux` can be run here.
fn tmux_present() -> bool {
    Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Plays one move in a detached tmux session of fixed size and reads the screen.
fn terminal_session() {
    let socket = format!("cotuong-play-test-{}", std::process::id());
    let command = format!("{BIN} play --nodes {NODES}");
    let started = tmux(
        &socket,
        &[
            "new-session",
            "-d",
            "-s",
            "play",
            "-x",
            "100",
            "-y",
            "40",
            &command,
        ],
    )
    .expect("tmux runs");
    assert!(started.status.success(), "{started:?}");
    let first = wait_for(&socket, "to move (you)");
    tmux(&socket, &["send-keys", "-t", "play", "-l", "炮二平五"]);
    tmux(&socket, &["send-keys", "-t", "play", "Enter"]);
    let screen = wait_for(&socket, "Cotuong plays ");
    if let Ok(path) = std::env::var("COTUONG_PLAY_CAPTURE") {
        let _ = std::fs::write(Path::new(&path), &screen);
    }
    // An unsaved game is not lost to one `quit` typed on a terminal; a second one leaves.
    tmux(&socket, &["send-keys", "-t", "play", "-l", "quit"]);
    tmux(&socket, &["send-keys", "-t", "play", "Enter"]);
    let offer = wait_for(&socket, "not saved");
    tmux(&socket, &["send-keys", "-t", "play", "-l", "quit"]);
    tmux(&socket, &["send-keys", "-t", "play", "Enter"]);
    let deadline = Instant::now() + GAME_TIMEOUT;
    let mut left = false;
    while !left && Instant::now() < deadline {
        left = tmux(&socket, &["has-session", "-t", "play"]).is_none_or(|o| !o.status.success());
        std::thread::sleep(Duration::from_millis(100));
    }
    tmux(&socket, &["kill-server"]);
    assert!(offer.contains("The game is not saved"), "{offer}");
    assert!(left, "the second quit leaves");
    assert!(first.contains("帥") && first.contains("將"), "{first}");
    assert!(screen.contains("You play 炮二平五."), "{screen}");
    assert!(
        screen.contains("Cotuong plays "),
        "the engine replied: {screen}"
    );
    assert!(screen.contains("   九 八 七 六 五 四 三 二 一"), "{screen}");
    assert!(screen.contains('〇'), "the last move is marked: {screen}");
    assert!(screen.contains("Red> "), "a prompt on a terminal: {screen}");
}

#[test]
#[ignore = "needs tmux (apt-get install tmux); .ci/run runs it"]
fn the_game_in_a_terminal() {
    assert!(tmux_present(), "tmux is not installed");
    terminal_session();
}
