//! Misbehaving engines lose, with the reason recorded: a crash, an illegal move, running out of
//! time, and no answer at all. The engines are tiny shell scripts speaking just enough UCI or
//! UCCI; the well-behaved one answers every `go` with h2e2, which is legal as Red's first move
//! from the start position, so with colours reversed each game reaches the bad engine at once.

use crate::common::{replay_pgn, run_match, scratch_dir};
use std::path::{Path, PathBuf};

/// Writes an engine script: `hello`/`ok` are the handshake words, `on_go` the shell lines run
/// when `go` arrives.
fn script(dir: &Path, name: &str, hello: &str, ok: &str, on_go: &str) -> PathBuf {
    let path = dir.join(name);
    let text = format!(
        "#!/bin/sh\nwhile read -r cmd rest; do\n  case \"$cmd\" in\n    {hello}) echo 'id name {name}'; echo '{ok}';;\n    isready) echo readyok;;\n    go) {on_go};;\n    quit) exit 0;;\n  esac\ndone\n"
    );
    std::fs::write(&path, text).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

/// Plays the bad engine against the good one (two games, colours reversed) and returns each
/// game's (result, termination tag, details), in PGN order.
fn play(test: &str, on_go: &str, limits: &[&str]) -> Vec<(String, String, String)> {
    let scratch = scratch_dir(test);
    let dir = scratch.path();
    let good = script(
        dir,
        "good",
        "uci",
        "uciok",
        "echo 'info depth 1 score cp 5'; echo 'bestmove h2e2'",
    );
    let bad = script(dir, "bad", "uci", "uciok", on_go);
    let pgn = dir.join("games.pgn");
    let mut args: Vec<String> = vec![
        "--engine".into(),
        format!("cmd={}", bad.display()),
        "name=bad".into(),
        "--engine".into(),
        format!("cmd={}", good.display()),
        "name=good".into(),
        "--concurrency".into(),
        "1".into(),
        "--timemargin".into(),
        "50".into(),
        "--pgnout".into(),
        pgn.display().to_string(),
    ];
    args.extend(limits.iter().map(|s| s.to_string()));
    let (ok, stdout, stderr) = run_match(&args);
    assert!(ok, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("W-D-L: 0-0-2"),
        "bad engine must lose both:\n{stdout}"
    );
    let games: Vec<_> = replay_pgn(&pgn)
        .into_iter()
        .map(|g| (g.result, g.termination, g.details))
        .collect();
    games
}

#[test]
fn crash_loses_and_engine_restarts() {
    let games = play("crash", "exit 3", &["--nodes", "100"]);
    assert_eq!(games.len(), 2);
    for (_, term, details) in &games {
        assert_eq!(term, "abandoned");
        // The second game also reaches "exited", so the crashed engine was started again.
        assert!(
            details.contains("bad") && details.contains("exited"),
            "{details}"
        );
    }
}

#[test]
fn illegal_move_loses() {
    let games = play("illegal", "echo 'bestmove a0a5'", &["--nodes", "100"]);
    for (_, term, details) in &games {
        assert_eq!(term, "illegal move");
        assert!(details.contains("a0a5"), "{details}");
    }
}

#[test]
fn running_out_of_time_loses() {
    let games = play("time", "sleep 3; echo 'bestmove h2e2'", &["--tc", "0.8"]);
    for (_, term, details) in &games {
        assert_eq!(term, "time forfeit");
        assert!(details.contains("on time"), "{details}");
    }
}

#[test]
fn no_answer_on_a_node_limit_loses() {
    let games = play(
        "hang",
        "sleep 5",
        &["--nodes", "100", "--hang-timeout", "1"],
    );
    for (_, term, details) in &games {
        assert_eq!(term, "abandoned");
        assert!(details.contains("no answer"), "{details}");
    }
}

#[test]
fn ucci_engines_are_driven_in_their_dialect() {
    // A UCCI engine that only understands `go time ... increment ...` in milliseconds after
    // `setoption usemillisec true`; any other go line makes it answer an illegal move.
    let scratch = scratch_dir("ucci");
    let dir = scratch.path();
    let path = dir.join("ucci-engine");
    let text = "#!/bin/sh\nms=no\nwhile read -r cmd a b rest; do\n  case \"$cmd\" in\n    ucci) echo 'option usemillisec type check default false'; echo ucciok;;\n    setoption) [ \"$a $b\" = 'usemillisec true' ] && ms=yes;;\n    isready) echo readyok;;\n    position) pos=\"$a $b $rest\";;\n    go) if [ \"$ms\" = yes ] && [ \"$a\" = time ] && [ \"$b\" -gt 1000 ]; then\n          case \"$pos\" in *moves*) echo 'bestmove h7e7';; *) echo 'bestmove h2e2';; esac\n        else echo 'bestmove a0a5'; fi;;\n    quit) exit 0;;\n  esac\ndone\n";
    std::fs::write(&path, text).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let pgn = dir.join("games.pgn");
    let args: Vec<String> = vec![
        "--engine".into(),
        format!("cmd={}", path.display()),
        "name=u1".into(),
        "--engine".into(),
        format!("cmd={}", path.display()),
        "name=u2".into(),
        "--each".into(),
        "proto=ucci".into(),
        "--tc".into(),
        "5+0.1".into(),
        "--maxmoves".into(),
        "1".into(),
        "--rounds".into(),
        "1".into(),
        "--games".into(),
        "1".into(),
        "--pgnout".into(),
        pgn.display().to_string(),
    ];
    let log = dir.join("protocol.log");
    let mut args = args;
    args.extend(["--debug-log".to_string(), log.display().to_string()]);
    let (ok, stdout, stderr) = run_match(&args);
    assert!(ok, "{stdout}\n{stderr}");
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(log.contains("u1 < ucciok"), "{log}");
    assert!(log.contains("u1 > setoption usemillisec true"), "{log}");
    assert!(
        log.contains("u2 > go time 5000 increment 100 opptime"),
        "{log}"
    );
    let games = replay_pgn(&pgn);
    assert_eq!(games.len(), 1);
    // Both moves were legal, so the game reached the one-move limit.
    assert_eq!(games[0].plies, 2, "{}", games[0].details);
    assert_eq!(games[0].result, "1/2-1/2");
}
