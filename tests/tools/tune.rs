//! `cotuong tune` and the tunable constants through the binary. Ordinary builds keep the
//! constants compile-time: their names are not options, and the tuner refuses such an engine
//! before playing. With `--features tune` the constants are hidden options and a short run
//! writes its trajectory and plot, and resumes.

use crate::common;

use common::{cli, Engine};

fn tune(args: &[&str]) -> std::process::Output {
    cli::run("tune", args)
}

#[test]
fn bad_arguments_are_errors_with_status_2() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let out = dir.path().join("t.csv");
    let out = out.to_str().expect("a UTF-8 path");
    for (args, wanted) in [
        (
            vec!["--params", "NO_SUCH", "--out", out],
            "no tunable constant 'NO_SUCH'",
        ),
        (
            vec!["--iterations", "0", "--out", out],
            "--iterations must be at least 1",
        ),
        (
            vec!["--r-end=0", "--out", out],
            "--r-end must be a positive number",
        ),
        (
            vec!["--openings", "/no/such/file.epd", "--out", out],
            "/no/such/file.epd",
        ),
    ] {
        let err = cli::fails_cleanly("tune", &args);
        assert!(err.contains(wanted), "{args:?}: {err}");
    }
    assert!(!dir.path().join("t.csv").exists(), "no file after an error");
}

#[test]
fn the_list_shows_the_table() {
    let o = tune(&["--list"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    for name in ["RFP_MARGIN", "LMR_DIVISOR_X100", "STABLE_SHARE_PERMILLE"] {
        assert!(text.contains(name), "{name} missing:\n{text}");
    }
}

#[cfg(not(feature = "tune"))]
#[test]
fn ordinary_builds_have_no_tuning_options_and_the_tuner_says_so() {
    let mut e = Engine::uci();
    e.send("setoption name RFP_MARGIN value 90");
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("RFP_MARGIN")),
        "{lines:?}"
    );
    e.quit();

    let dir = tempfile::tempdir().expect("a temporary folder");
    let out = dir.path().join("t.csv");
    let o = tune(&[
        "--iterations",
        "2",
        "--nodes",
        "100",
        "--out",
        out.to_str().expect("UTF-8"),
    ]);
    let err = cli::stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--features tune"), "{err}");
    assert!(!out.exists(), "no trajectory for a run that cannot start");
}

#[cfg(feature = "tune")]
#[test]
fn a_short_run_writes_its_trajectory_and_plot_and_resumes() {
    let mut e = Engine::uci();
    e.send("setoption name RFP_MARGIN value 90");
    e.send("setoption name RFP_MARGIN value 100000");
    let lines = e.sync();
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(
        errors.len(),
        1,
        "only the out-of-range value refused: {lines:?}"
    );
    e.quit();

    let dir = tempfile::tempdir().expect("a temporary folder");
    let out = dir.path().join("t.csv");
    let out_text = out.to_str().expect("UTF-8");
    let args = |n: &'static str| {
        vec![
            "--iterations",
            n,
            "--nodes",
            "200",
            "--params",
            "RFP_MARGIN,LMR_BASE_X100",
            "--out",
            out_text,
            "--quiet",
        ]
    };
    let o = tune(&args("2"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(&out).expect("trajectory");
    let rows: Vec<&str> = csv.lines().skip(2).collect();
    assert_eq!(rows.len(), 2, "{csv}");
    assert!(csv.lines().nth(1) == Some("iteration,result,RFP_MARGIN,LMR_BASE_X100"));
    let svg = std::fs::read_to_string(dir.path().join("t.svg")).expect("plot");
    assert!(svg.contains("RFP_MARGIN"));
    // Other settings on the same file are refused; the same ones continue it.
    let o = tune(&args("3"));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("other settings"));
    let o = tune(&args("2"));
    assert!(o.status.success());
    assert_eq!(std::fs::read_to_string(&out).expect("trajectory"), csv);
}
