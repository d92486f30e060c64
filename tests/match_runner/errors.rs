//! Bad input to `cotuong match` gives a clear error and a non-zero exit, never a panic.

use crate::common::{run_match, scratch_dir};

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn missing_engine_program() {
    let (ok, _, stderr) = run_match(&args(&[
        "--engine",
        "cmd=/nonexistent/engine",
        "name=a",
        "--engine",
        "cmd=/nonexistent/engine",
        "name=b",
        "--nodes",
        "10",
    ]));
    assert!(!ok);
    assert!(stderr.contains("could not start"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn bad_settings() {
    for (list, expected) in [
        (
            vec!["--engine", "cmd=x", "--engine", "cmd=x", "--nodes", "5"],
            "named",
        ),
        (
            vec!["--engine", "cmd=x", "name=a", "--engine", "cmd=y", "name=b"],
            "time control",
        ),
        (
            vec![
                "--engine",
                "cmd=x",
                "proto=cecp1",
                "--engine",
                "cmd=y",
                "--depth",
                "2",
            ],
            "unknown protocol",
        ),
        (
            vec![
                "--engine", "cmd=x", "name=a", "--engine", "cmd=y", "name=b", "--tc", "abc",
            ],
            "not a number",
        ),
        (
            vec![
                "--engine", "cmd=x", "name=a", "--engine", "cmd=y", "name=b", "--depth", "2",
                "--sprt", "elo0=5", "elo1=0",
            ],
            "elo0 < elo1",
        ),
        (
            vec![
                "--engine", "cmd=x", "name=a", "--engine", "cmd=y", "name=b", "--depth", "2",
                "--games", "3",
            ],
            "--games",
        ),
        (
            vec![
                "--engine", "cmd=x", "name=a", "--engine", "cmd=y", "name=b", "--depth", "2",
                "--format", "swiss",
            ],
            "three engines",
        ),
    ] {
        let (ok, _, stderr) = run_match(&args(&list));
        assert!(!ok, "{list:?} should fail");
        assert!(stderr.contains(expected), "{list:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn bad_opening_file() {
    let scratch = scratch_dir("bad-openings");
    let dir = scratch.path();
    let file = dir.join("openings.epd");
    std::fs::write(&file, "# header\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\nnot a fen at all\n").unwrap();
    let (ok, _, stderr) = run_match(&args(&[
        "--engine",
        "cmd=x",
        "name=a",
        "--engine",
        "cmd=y",
        "name=b",
        "--depth",
        "2",
        "--openings",
        file.to_str().unwrap(),
    ]));
    assert!(!ok);
    assert!(stderr.contains("openings.epd:3"), "{stderr}");
}
