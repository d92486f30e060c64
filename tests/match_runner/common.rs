//! Helpers shared by the match-runner integration tests: locating engines, running
//! `cotuong match`, and checking that a PGN file replays legally with a reason for every ending.

use engine_core::{Position, RankBase, START_FEN};
use std::path::{Path, PathBuf};
use std::process::Command;
use tempfile::TempDir;

/// Finds a program on PATH or in /usr/games (where Debian installs engines).
pub fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(std::iter::once(PathBuf::from("/usr/games")))
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// A fresh scratch folder for one test, named after it and removed when dropped, pass or fail.
pub fn scratch_dir(test: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("cotuong-{test}-"))
        .tempdir()
        .expect("create scratch dir")
}

/// Runs `cotuong match` with `args`; returns (exit success, stdout, stderr).
pub fn run_match(args: &[String]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cotuong"))
        .arg("match")
        .args(args)
        .output()
        .expect("run cotuong");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// One game read back from a PGN file.
pub struct ReplayedGame {
    pub result: String,
    pub termination: String,
    pub details: String,
    pub plies: usize,
    pub final_position: Position,
}

fn tag<'a>(header: &'a str, name: &str) -> Option<&'a str> {
    let prefix = format!("[{name} \"");
    header
        .lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .and_then(|rest| rest.strip_suffix("\"]"))
}

/// Parses every game in `path`, replaying its ICCS moves from its start position; panics with a
/// precise message on any illegal move or missing tag.
pub fn replay_pgn(path: &Path) -> Vec<ReplayedGame> {
    let text = std::fs::read_to_string(path).expect("read PGN");
    let mut games = Vec::new();
    let mut parts = text.split("\n\n").filter(|p| !p.trim().is_empty());
    while let Some(header) = parts.next() {
        let body = parts.next().expect("every header has a move text");
        assert_eq!(tag(header, "Variant"), Some("xiangqi"), "{header}");
        let result = tag(header, "Result").expect("Result tag").to_string();
        let termination = tag(header, "Termination")
            .expect("Termination tag")
            .to_string();
        let details = tag(header, "TerminationDetails")
            .expect("TerminationDetails tag")
            .to_string();
        assert!(!details.trim().is_empty(), "empty termination reason");
        let fen = tag(header, "FEN").unwrap_or(START_FEN);
        let mut pos = Position::from_fen(fen).expect("FEN tag parses");
        // Strip comments, then keep the ICCS tokens.
        let mut plain = String::new();
        let mut depth = 0;
        for c in body.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => plain.push(c),
                _ => {}
            }
        }
        let mut plies = 0;
        let mut last = "";
        for token in plain.split_whitespace() {
            last = token;
            if token.ends_with('.') || ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
                continue;
            }
            let mv = pos
                .parse_move(token, RankBase::Zero)
                .unwrap_or_else(|e| panic!("illegal move {token} in game:\n{header}\n{body}\n{e}"));
            pos.make_move(mv);
            plies += 1;
        }
        assert_eq!(last, result, "move text ends with the result");
        let ply_count: usize = tag(header, "PlyCount").expect("PlyCount").parse().unwrap();
        assert_eq!(ply_count, plies);
        games.push(ReplayedGame {
            result,
            termination,
            details,
            plies,
            final_position: pos,
        });
    }
    games
}

/// Checks the games of a finished run: every one replays, has a result and a reason, and
/// rule endings agree with the final position.
pub fn check_games(games: &[ReplayedGame]) {
    for g in games {
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&g.result.as_str()));
        assert!(!g.termination.is_empty());
        if g.details.contains("checkmate") || g.details.contains("stalemate") {
            assert!(!g.final_position.has_legal_move(), "{}", g.details);
            let loser_red = g.final_position.side_to_move() == engine_core::Color::Red;
            assert_eq!(g.result, if loser_red { "0-1" } else { "1-0" });
        }
    }
}
