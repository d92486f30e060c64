//! `cotuong match --pairs FROM..TO --slice-json FILE`: a fixed-node match of `cotuong` against
//! itself played as two slices adds up to the pentanomial counts, W-D-L and terminations of one
//! run over the same pairs.

use crate::common::{run_match, scratch_dir};
use std::path::Path;

fn match_args(json: &Path, pgn: &Path, extra: &[&str]) -> Vec<String> {
    let exe = env!("CARGO_BIN_EXE_cotuong");
    let mut args: Vec<String> = vec![
        "--engine".into(),
        format!("cmd={exe}"),
        "name=a".into(),
        "option.Hash=1".into(),
        "--engine".into(),
        format!("cmd={exe}"),
        "name=b".into(),
        "option.Hash=2".into(),
        "--each".into(),
        "proto=uci".into(),
        "option.UCI_Variant=xiangqi".into(),
        "--nodes".into(),
        "400".into(),
        "--rounds".into(),
        "3".into(),
        "--concurrency".into(),
        "2".into(),
        "--maxmoves".into(),
        "40".into(),
        "--openings".into(),
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/bench/openings/xiangqi-openings.epd"
        )
        .into(),
        "--slice-json".into(),
        json.display().to_string(),
        "--pgnout".into(),
        pgn.display().to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("slice json");
    serde_json::from_str(&text).expect("valid json")
}

fn counts(v: &serde_json::Value, key: &str) -> Vec<u64> {
    v[key]
        .as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_u64().expect("count"))
        .collect()
}

#[test]
fn two_slices_add_up_to_one_run() {
    let scratch = scratch_dir("slices");
    let dir = scratch.path();
    let whole = dir.join("whole.json");
    let (ok, out, err) = run_match(&match_args(&whole, &dir.join("whole.pgn"), &[]));
    assert!(ok, "{out}\n{err}");
    let whole = read_json(&whole);
    assert_eq!(whole["pair_count"], 3);

    let mut penta = vec![0u64; 5];
    let mut wdl = vec![0u64; 3];
    let mut games = 0;
    let mut terminations = std::collections::BTreeMap::<String, u64>::new();
    for (i, range) in ["0..2", "2..3"].iter().enumerate() {
        let json = dir.join(format!("slice-{i}.json"));
        let pgn = dir.join(format!("slice-{i}.pgn"));
        let (ok, out, err) = run_match(&match_args(&json, &pgn, &["--pairs", range]));
        assert!(ok, "{out}\n{err}");
        let v = read_json(&json);
        for (sum, n) in penta.iter_mut().zip(counts(&v, "pentanomial")) {
            *sum += n;
        }
        for (sum, n) in wdl.iter_mut().zip(counts(&v, "wdl")) {
            *sum += n;
        }
        games += v["games"].as_u64().expect("games");
        for (k, n) in v["terminations"].as_object().expect("object") {
            *terminations.entry(k.clone()).or_default() += n.as_u64().expect("count");
        }
        let text = std::fs::read_to_string(&pgn).expect("slice pgn");
        assert_eq!(
            text.matches("[Event ").count() as u64,
            v["games"].as_u64().unwrap_or(0)
        );
    }
    assert_eq!(penta, counts(&whole, "pentanomial"));
    assert_eq!(wdl, counts(&whole, "wdl"));
    assert_eq!(games, whole["games"].as_u64().expect("games"));
    let whole_terms: std::collections::BTreeMap<String, u64> = whole["terminations"]
        .as_object()
        .expect("object")
        .iter()
        .map(|(k, n)| (k.clone(), n.as_u64().expect("count")))
        .collect();
    assert_eq!(terminations, whole_terms);

    // A slice outside the schedule is refused before any game.
    let (ok, _, err) = run_match(&match_args(
        &dir.join("x.json"),
        &dir.join("x.pgn"),
        &["--pairs", "2..9"],
    ));
    assert!(!ok && err.contains("--pairs"), "{err}");
}

/// `args` with 4 rounds (pairs) instead of 3.
fn four_rounds(mut args: Vec<String>) -> Vec<String> {
    let at = args.iter().position(|a| a == "--rounds").expect("--rounds");
    args[at + 1] = "4".into();
    args
}

/// The report lines that `--merge` must print as one run does.
fn report_lines(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|l| {
            [
                "W-D-L:",
                "Pentanomial",
                "Elo:",
                "Terminations:",
                "SPRT",
                "Results of",
            ]
            .iter()
            .any(|p| l.starts_with(p))
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn merged_slices_print_the_report_of_one_run() {
    let scratch = scratch_dir("merge");
    let dir = scratch.path();
    let four = ["--sprt", "elo0=0", "elo1=10"];
    let whole_json = dir.join("whole.json");
    let mut args = four_rounds(match_args(&whole_json, &dir.join("whole.pgn"), &four));
    // A whole run would stop at an SPRT decision; these bounds are not reached in 4 pairs.
    let (ok, whole, err) = run_match(&args);
    assert!(ok, "{whole}\n{err}");
    let mut slices = Vec::new();
    let mut pgn = String::new();
    for (i, range) in ["0..2", "2..4"].iter().enumerate() {
        let json = dir.join(format!("slice-{i}.json"));
        let slice_pgn = dir.join(format!("slice-{i}.pgn"));
        let mut extra = four.to_vec();
        extra.extend(["--pairs", range]);
        let (ok, out, err) = run_match(&four_rounds(match_args(&json, &slice_pgn, &extra)));
        assert!(ok, "{out}\n{err}");
        pgn.push_str(&std::fs::read_to_string(&slice_pgn).expect("slice pgn"));
        slices.push(json.display().to_string());
    }
    // Slices given out of order are added up in pair order.
    let merge = |files: &[&String]| {
        let mut words = vec!["--merge".to_string()];
        words.extend(files.iter().map(|s| s.to_string()));
        run_match(&words)
    };
    let (ok, merged, err) = merge(&[&slices[1], &slices[0]]);
    assert!(ok, "{merged}\n{err}");
    let lines = report_lines(&merged);
    assert_eq!(lines, report_lines(&whole), "{merged}\n---\n{whole}");
    assert!(
        lines.iter().any(|l| l.starts_with("Pentanomial")),
        "{merged}"
    );
    assert!(lines.iter().any(|l| l.starts_with("SPRT")), "{merged}");
    assert_eq!(
        pgn.matches("[Event ").count(),
        std::fs::read_to_string(dir.join("whole.pgn"))
            .expect("pgn")
            .matches("[Event ")
            .count()
    );

    // Overlapping pairs, and slices of another match, are refused with one message.
    let (ok, _, err) = merge(&[&slices[0], &slices[0]]);
    assert!(!ok && err.contains("overlap"), "{err}");
    let other = dir.join("other.json");
    args = four_rounds(match_args(&other, &dir.join("other.pgn"), &[]));
    args.extend(["--pairs".into(), "2..3".into(), "--seed".into(), "5".into()]);
    let (ok, out, err) = run_match(&args);
    assert!(ok, "{out}\n{err}");
    let other = other.display().to_string();
    let (ok, _, err) = merge(&[&slices[0], &other]);
    assert!(!ok && err.contains("different matches"), "{err}");
}

#[test]
fn check_validates_without_playing() {
    let scratch = scratch_dir("check");
    let dir = scratch.path();
    let mut args = match_args(&dir.join("c.json"), &dir.join("c.pgn"), &["--check"]);
    let (ok, out, err) = run_match(&args);
    assert!(ok && out.is_empty(), "{out}\n{err}");
    assert!(!dir.join("c.json").exists() && !dir.join("c.pgn").exists());
    args.extend(["--rounds".into(), "x".into()]);
    let (ok, _, err) = run_match(&args);
    assert!(!ok && err.contains("--rounds"), "{err}");
}
