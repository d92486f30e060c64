//! `cotuong match` run the way users run it, `cotuong` against `cotuong` at small node limits:
//! two games at once (overlapping in time), an SPRT that stops at its decision, a Swiss tournament of four engines,
//! score adjudication, and a run killed with SIGKILL and resumed from its recovery file.
//!
//! Every engine searches on one thread at a fixed node limit, so the games do not depend on the
//! machine's speed.

use crate::common::{check_games, replay_pgn, run_match, scratch_dir};
use engine_core::Position;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const OPENINGS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/bench/openings/xiangqi-openings.epd"
);

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// `--engine cmd=cotuong name=NAME` followed by `settings`.
fn cotuong(name: &str, settings: &[&str]) -> Vec<String> {
    let mut args = vec![
        "--engine".to_string(),
        format!("cmd={}", env!("CARGO_BIN_EXE_cotuong")),
        format!("name={name}"),
    ];
    args.extend(strings(settings));
    args
}

/// The settings every engine shares, the opening suite, and the output files in `dir`.
fn shared(dir: &Path, nodes: &str) -> Vec<String> {
    let mut args = strings(&[
        "--each",
        "proto=uci",
        "option.Hash=1",
        "option.Threads=1",
        "--nodes",
        nodes,
        "--openings",
        OPENINGS,
        "--pgnout",
    ]);
    args.push(dir.join("games.pgn").display().to_string());
    args.push("--recover".into());
    args.push(dir.join("run.json").display().to_string());
    args
}

fn recovery(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("run.json")).expect("recovery file");
    serde_json::from_str(&text).expect("recovery JSON")
}

fn saved_games(dir: &Path) -> Vec<Value> {
    recovery(dir)["games"].as_array().expect("games").clone()
}

/// A PGN tag of one game's text.
fn pgn_tag(pgn: &str, name: &str) -> Option<String> {
    let prefix = format!("[{name} \"");
    pgn.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .and_then(|rest| rest.strip_suffix("\"]"))
        .map(str::to_string)
}

/// The games of a PGN file, each as its text.
fn pgn_games(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("PGN file");
    text.split("[Event ")
        .filter(|g| !g.trim().is_empty())
        .map(|g| format!("[Event {g}"))
        .collect()
}

/// The openings of the suite, in file order, as FENs the way `Position` writes them.
fn suite_fens() -> Vec<String> {
    std::fs::read_to_string(OPENINGS)
        .expect("suite")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| Position::from_fen(l).expect("suite FEN").to_fen())
        .collect()
}

#[test]
fn two_games_at_once_play_every_scheduled_game_once() {
    let scratch = scratch_dir("runs-concurrency");
    let dir = scratch.path();
    let mut args = cotuong("a", &[]);
    args.extend(cotuong("b", &["option.Skill Level=10"]));
    args.extend(shared(dir, "500"));
    args.extend(strings(&[
        "--rounds",
        "4",
        "--concurrency",
        "2",
        "--maxmoves",
        "40",
        "--debug-log",
    ]));
    args.push(dir.join("protocol.log").display().to_string());
    let (ok, out, err) = run_match(&args);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("(8 games)"), "{out}");
    let games = replay_pgn(&dir.join("games.pgn"));
    assert_eq!(games.len(), 8);
    check_games(&games);

    // The games overlapped: in one game only the side to move searches (no pondering here),
    // and its `bestmove` is logged before the other side's `go`, so two searches running at
    // once (a `go` sent while another's `bestmove` is still due) mean two games in progress.
    let log = std::fs::read_to_string(dir.join("protocol.log")).expect("the protocol log");
    let (mut searching, mut most) = (0i32, 0);
    for line in log.lines() {
        if line.contains(" > go ") || line.ends_with(" > go") {
            searching += 1;
            most = most.max(searching);
        } else if line.contains(" < bestmove") {
            searching -= 1;
        }
    }
    assert_eq!(searching, 0, "every go answered:\n{log}");
    assert_eq!(most, 2, "two games never searched at the same time");

    // Each game id once; each pair two games of the pair's opening, colours reversed.
    let saved = saved_games(dir);
    let ids: BTreeSet<u64> = saved
        .iter()
        .map(|g| g["game_id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, (0..8).collect(), "game ids");
    let fens = suite_fens();
    let mut pairs: BTreeMap<u64, Vec<&Value>> = BTreeMap::new();
    for g in &saved {
        pairs
            .entry(g["pair_id"].as_u64().expect("paired"))
            .or_default()
            .push(g);
    }
    assert_eq!(pairs.keys().copied().collect::<Vec<_>>(), vec![0, 1, 2, 3]);
    for (pair, games) in &pairs {
        assert_eq!(games.len(), 2, "pair {pair}");
        let (x, y) = (&games[0]["outcome"], &games[1]["outcome"]);
        assert_eq!(
            (x["white"].clone(), x["black"].clone()),
            (y["black"].clone(), y["white"].clone())
        );
        for g in games {
            let fen = pgn_tag(g["pgn"].as_str().unwrap(), "FEN").expect("FEN tag");
            assert_eq!(fen, fens[*pair as usize], "pair {pair}'s opening");
        }
    }
}

#[test]
fn sprt_stops_at_its_decision() {
    let scratch = scratch_dir("runs-sprt");
    let dir = scratch.path();
    let mut args = cotuong("strong", &[]);
    args.extend(cotuong("weak", &["option.Skill Level=0"]));
    args.extend(shared(dir, "1000"));
    args.extend(strings(&[
        "--rounds",
        "100",
        "--concurrency",
        "2",
        "--maxmoves",
        "80",
        "--sprt",
        "elo0=0",
        "elo1=150",
    ]));
    let (ok, out, err) = run_match(&args);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("H1 accepted, stopped early"), "{out}");
    let played = pgn_games(&dir.join("games.pgn")).len();
    // At least the 10 pairs the SPRT waits for, far fewer than the 200 scheduled.
    assert!((20..=60).contains(&played), "{played} games\n{out}");
    assert!(out.contains(&format!("({played} games)")), "{out}");
}

#[test]
fn swiss_of_four_engines() {
    let scratch = scratch_dir("runs-swiss");
    let dir = scratch.path();
    let names = ["e20", "e10", "e5", "e0"];
    let mut args = cotuong("e20", &[]);
    args.extend(cotuong("e10", &["option.Skill Level=10"]));
    args.extend(cotuong("e5", &["option.Skill Level=5"]));
    args.extend(cotuong("e0", &["option.Skill Level=0"]));
    args.extend(shared(dir, "500"));
    args.extend(strings(&[
        "--format",
        "swiss",
        "--rounds",
        "3",
        "--concurrency",
        "2",
        "--maxmoves",
        "60",
    ]));
    let (ok, out, err) = run_match(&args);
    assert!(ok, "{out}\n{err}");
    let games = pgn_games(&dir.join("games.pgn"));
    assert_eq!(games.len(), 6, "two games a round");
    check_games(&replay_pgn(&dir.join("games.pgn")));

    // Every engine plays once a round, and no pairing repeats.
    let mut played: BTreeMap<&str, usize> = BTreeMap::new();
    let mut points: BTreeMap<&str, f64> = BTreeMap::new();
    let mut pairings = BTreeSet::new();
    let mut per_round: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for g in &games {
        let round = pgn_tag(g, "Round").expect("Round tag");
        let round = round.split('.').next().unwrap().to_string();
        let red = pgn_tag(g, "White").unwrap();
        let black = pgn_tag(g, "Black").unwrap();
        let red = *names.iter().find(|n| **n == red).expect("known engine");
        let black = *names.iter().find(|n| **n == black).expect("known engine");
        let (r, b) = match pgn_tag(g, "Result").unwrap().as_str() {
            "1-0" => (1.0, 0.0),
            "0-1" => (0.0, 1.0),
            _ => (0.5, 0.5),
        };
        *played.entry(red).or_default() += 1;
        *played.entry(black).or_default() += 1;
        *points.entry(red).or_default() += r;
        *points.entry(black).or_default() += b;
        let pairing: BTreeSet<&str> = [red, black].into();
        assert!(pairings.insert(pairing), "{red}-{black} paired twice");
        per_round
            .entry(round)
            .or_default()
            .extend([red.to_string(), black.to_string()]);
    }
    assert_eq!(per_round.len(), 3, "{per_round:?}");
    for (round, players) in &per_round {
        let distinct: BTreeSet<&String> = players.iter().collect();
        assert_eq!(distinct.len(), 4, "round {round}: {players:?}");
    }
    assert!(played.values().all(|&n| n == 3), "{played:?}");

    // The standings list every engine with the points of its games, best first.
    let mut listed = Vec::new();
    for line in out.lines() {
        let cols: Vec<&str> = line.split_whitespace().collect();
        if cols.len() > 3 && names.contains(&cols[1]) {
            let p: f64 = cols[2].parse().expect("points");
            let g: usize = cols[3].parse().expect("games");
            assert_eq!(p, points[cols[1]], "{line}\n{out}");
            assert_eq!(g, 3, "{line}");
            listed.push(p);
        }
    }
    assert_eq!(listed.len(), 4, "{out}");
    assert!(listed.windows(2).all(|w| w[0] >= w[1]), "{out}");
    // The recovery file holds the three rounds' pairings.
    assert_eq!(
        recovery(dir)["swiss_rounds"].as_array().map(Vec::len),
        Some(3)
    );
}

/// The scores (in centipawns, each from its mover's view) of the engine moves of a PGN game,
/// in order; mate scores count as ±100000.
fn move_scores(pgn: &str) -> Vec<i32> {
    let mut scores = Vec::new();
    let mut rest = pgn;
    while let Some(start) = rest.find('{') {
        let end = rest[start..].find('}').expect("closed comment") + start;
        let comment = rest[start + 1..end].replace('\n', " ");
        rest = &rest[end + 1..];
        let Some((eval, _)) = comment.split_once('/') else {
            continue;
        };
        let score = if let Some(m) = eval.strip_prefix("+M") {
            m.parse::<i32>().map(|_| 100_000)
        } else if let Some(m) = eval.strip_prefix("-M") {
            m.parse::<i32>().map(|_| -100_000)
        } else {
            match eval.parse::<f64>() {
                Ok(p) => Ok((p * 100.0).round() as i32),
                Err(_) => continue,
            }
        };
        scores.push(score.expect("score"));
    }
    scores
}

#[test]
fn a_hidden_option_is_noted_once_per_engine_not_at_every_game() {
    // A run starts its engines anew many times (twice each here); the note that an option is
    // missing from the listing comes once for each engine that takes it.
    let scratch = scratch_dir("runs-hidden-option");
    let dir = scratch.path();
    let mut args = cotuong("a", &["option.StrengthSeed=4"]);
    args.extend(cotuong("b", &["option.StrengthSeed=5"]));
    args.extend(shared(dir, "200"));
    args.extend(strings(&["--rounds", "2", "--maxmoves", "10"]));
    let (ok, out, err) = run_match(&args);
    assert!(ok, "{out}\n{err}");
    assert_eq!(pgn_games(&dir.join("games.pgn")).len(), 4, "{out}");
    for engine in ["a", "b"] {
        let note = format!("engine '{engine}' does not list option 'StrengthSeed'");
        assert_eq!(err.matches(&note).count(), 1, "{err}");
    }
}

#[test]
fn resign_and_draw_adjudication_end_games_by_the_scores() {
    // A strong engine against a very weak one: games end by resign adjudication, and the last
    // three moves of each side carry the scores that decided it. The weak engine's random choice
    // is seeded and the games run one at a time, so each engine process plays the same games in
    // the same order and draws the same numbers: the games are the same on every run (with seed
    // 4, three of the four end by adjudication and one by checkmate).
    let scratch = scratch_dir("runs-resign");
    let dir = scratch.path();
    let mut args = cotuong("strong", &[]);
    args.extend(cotuong(
        "weak",
        &["option.Skill Level=0", "option.StrengthSeed=4"],
    ));
    args.extend(shared(dir, "1000"));
    args.extend(strings(&[
        "--rounds",
        "2",
        "--concurrency",
        "1",
        "--maxmoves",
        "80",
        "--resign",
        "movecount=3",
        "score=500",
    ]));
    let (ok, out, err) = run_match(&args);
    assert!(ok, "{out}\n{err}");
    let mut adjudicated = 0;
    for g in pgn_games(&dir.join("games.pgn")) {
        if pgn_tag(&g, "Termination").as_deref() != Some("adjudication") {
            continue;
        }
        adjudicated += 1;
        let details = pgn_tag(&g, "TerminationDetails").unwrap();
        assert!(details.contains("wins by adjudication"), "{details}");
        let scores = move_scores(&g);
        let last: Vec<i32> = scores[scores.len() - 6..].to_vec();
        // Moves alternate; the last was the loser's or the winner's: either way the winner's
        // three scores are at least +500 and the loser's at most -500.
        let plies: usize = pgn_tag(&g, "PlyCount").unwrap().parse().unwrap();
        let red_to_move_first = pgn_tag(&g, "FEN").is_none_or(|f| f.contains(" w "));
        let last_mover_red = (plies % 2 == 1) == red_to_move_first;
        let red_scores: Vec<i32> = last
            .iter()
            .rev()
            .enumerate()
            .map(|(i, s)| {
                if (i % 2 == 0) == last_mover_red {
                    *s
                } else {
                    -*s
                }
            })
            .collect();
        let result = pgn_tag(&g, "Result").unwrap();
        match result.as_str() {
            "1-0" => assert!(red_scores.iter().all(|&s| s >= 500), "{red_scores:?}\n{g}"),
            "0-1" => assert!(red_scores.iter().all(|&s| s <= -500), "{red_scores:?}\n{g}"),
            other => panic!("resign adjudication gave {other}\n{g}"),
        }
        assert!(details.starts_with(if result == "1-0" { "Red" } else { "Black" }));
    }
    assert!(adjudicated >= 1, "no game was adjudicated:\n{out}");
    assert!(out.contains("score-resign"), "{out}");
    drop(scratch);

    // Two equal engines: games end by draw adjudication once both scores stay small.
    let scratch = scratch_dir("runs-draw");
    let dir = scratch.path();
    let mut args = cotuong("a", &[]);
    args.extend(cotuong("b", &["option.Hash=2"]));
    args.extend(shared(dir, "1000"));
    args.extend(strings(&[
        "--rounds",
        "3",
        "--concurrency",
        "2",
        "--maxmoves",
        "80",
        "--draw",
        "movenumber=5",
        "movecount=3",
        "score=300",
    ]));
    let (ok, out, err) = run_match(&args);
    assert!(ok, "{out}\n{err}");
    let mut adjudicated = 0;
    for g in pgn_games(&dir.join("games.pgn")) {
        let details = pgn_tag(&g, "TerminationDetails").unwrap();
        if !details.contains("draw by adjudication") {
            continue;
        }
        adjudicated += 1;
        assert_eq!(pgn_tag(&g, "Termination").as_deref(), Some("adjudication"));
        assert_eq!(pgn_tag(&g, "Result").as_deref(), Some("1/2-1/2"));
        let plies: usize = pgn_tag(&g, "PlyCount").unwrap().parse().unwrap();
        assert!(plies >= 10, "drawn before move 5: {g}");
        let scores = move_scores(&g);
        let last = &scores[scores.len() - 6..];
        assert!(last.iter().all(|s| s.abs() <= 300), "{last:?}\n{g}");
    }
    assert!(adjudicated >= 1, "no game was adjudicated:\n{out}");
}

#[test]
fn a_run_killed_mid_game_resumes_from_its_recovery_file() {
    let scratch = scratch_dir("runs-kill");
    let dir = scratch.path();
    let mut args = cotuong("a", &[]);
    args.extend(cotuong("b", &["option.Skill Level=10"]));
    args.extend(shared(dir, "3000"));
    args.extend(strings(&[
        "--rounds",
        "4",
        "--concurrency",
        "1",
        "--maxmoves",
        "60",
    ]));
    let mut child = Command::new(env!("CARGO_BIN_EXE_cotuong"))
        .arg("match")
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the runner");
    // Kill it once two games are saved: the third is then being played.
    let deadline = Instant::now() + Duration::from_secs(60);
    let before = loop {
        if let Ok(text) = std::fs::read_to_string(dir.join("run.json")) {
            if let Ok(v) = serde_json::from_str::<Value>(&text) {
                if v["games"].as_array().map_or(0, Vec::len) >= 2 {
                    break v["games"].as_array().unwrap().clone();
                }
            }
        }
        assert!(
            child.try_wait().expect("poll").is_none(),
            "the run ended before it was killed"
        );
        assert!(Instant::now() < deadline, "no two games within a minute");
        std::thread::sleep(Duration::from_millis(20));
    };
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    let saved = saved_games(dir);
    assert!(saved.len() < 8, "the run had finished: {}", saved.len());

    let (ok, out, err) = run_match(&args);
    assert!(ok, "{out}\n{err}");
    let after = saved_games(dir);
    let ids: Vec<u64> = after
        .iter()
        .map(|g| g["game_id"].as_u64().unwrap())
        .collect();
    assert_eq!(
        ids.iter().copied().collect::<BTreeSet<_>>(),
        (0..8).collect(),
        "{ids:?}"
    );
    assert_eq!(ids.len(), 8, "a game was saved twice: {ids:?}");
    // The games finished before the kill are kept as they were.
    for g in &saved {
        let again = after
            .iter()
            .find(|a| a["game_id"] == g["game_id"])
            .expect("kept");
        assert_eq!(again, g);
    }
    assert!(before.iter().all(|g| saved.contains(g)));
    let pgn = pgn_games(&dir.join("games.pgn"));
    assert_eq!(pgn.len(), 8);
    for g in &saved {
        assert!(pgn
            .iter()
            .any(|p| p.trim() == g["pgn"].as_str().unwrap().trim()));
    }
    check_games(&replay_pgn(&dir.join("games.pgn")));
    assert!(out.contains("(8 games)"), "{out}");
}

/// A recovery file written by version 1 of its format (the settings as one line of text) is
/// resumed by the same run, which then saves it in the current format, and refused, with what
/// to do, by a run with other settings.
#[test]
fn a_version_1_recovery_file_resumes_or_is_refused() {
    let scratch = scratch_dir("runs-recovery-v1");
    let dir = scratch.path();
    let exe = env!("CARGO_BIN_EXE_cotuong");
    // Two engines at depth 1 with asian rules, one of the two games played; the engine command
    // was replaced by a placeholder.
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/match-recovery-v1.json"
    );
    let mut old: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture).expect("fixture")).expect("JSON");
    let fingerprint = old["fingerprint"]
        .as_str()
        .expect("fingerprint")
        .replace("@COTUONG@", exe);
    old["fingerprint"] = Value::String(fingerprint);
    let write_old = || std::fs::write(dir.join("run.json"), old.to_string()).expect("write");
    let mut args = cotuong("a", &[]);
    args.extend(cotuong("b", &[]));
    args.extend(strings(&[
        "--each",
        "option.Hash=16",
        "--depth",
        "1",
        "--games",
        "1",
        "--concurrency",
        "1",
        "--rule-set",
        "asian",
        "--nocapture",
        "50",
        "--recover",
    ]));
    args.push(dir.join("run.json").display().to_string());

    write_old();
    let mut other = args.clone();
    other.extend(strings(&["--rounds", "3"]));
    let (ok, out, err) = run_match(&other);
    assert!(!ok, "{out}\n{err}");
    assert!(
        err.contains("belongs to a run with other settings"),
        "{err}"
    );
    assert!(err.contains("rounds 2 games 1"), "{err}");
    assert!(
        err.contains("delete it or choose another --recover path"),
        "{err}"
    );

    args.extend(strings(&["--rounds", "2"]));
    let (ok, out, err) = run_match(&args);
    assert!(ok, "{out}\n{err}");
    let all = format!("{out}{err}");
    assert!(all.contains("Finished game 2"), "{all}");
    assert!(
        !all.contains("Finished game 1 "),
        "game 1 was played again: {all}"
    );
    assert!(out.contains("(2 games)"), "{out}");
    let saved = recovery(dir);
    assert_eq!(saved["version"], 2);
    assert_eq!(saved["settings"]["rounds"], 2);
    assert_eq!(saved["settings"]["rule_set"], "asian");
    let games = saved["games"].as_array().expect("games");
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0], old["games"][0],
        "the saved game is kept as it was"
    );
}
