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
    let dir = scratch_dir("slices");
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
    let _ = std::fs::remove_dir_all(&dir);
}
