//! The training pipeline end to end through the binary: `cotuong train` on the committed data
//! writes a net (briefly trained) that the engine loads with `EvalFile`, evaluates with and
//! searches with.

use crate::common;

use common::{best_move, Engine};
use std::path::PathBuf;
use std::process::Command;

/// The smallest committed game file (the fixed validation set: 1,000 games of the engine with
/// net 13, from round 13), trained on here like any other.
const DATA: &str = "nnue/data/validation-2.xqg.gz";

#[test]
fn a_net_trained_briefly_on_the_committed_data_loads_and_plays() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let net = dir.path().join("brief.nnue");
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(DATA);
    let output = Command::new(env!("CARGO_BIN_EXE_cotuong"))
        .arg("train")
        .arg(&data)
        .arg("-o")
        .arg(&net)
        .args(["--epochs", "1", "--save-every", "0", "--quiet"])
        .output()
        .expect("cotuong runs");
    assert!(
        output.status.success(),
        "train failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );

    let mut e = Engine::uci();
    e.send(&format!("setoption name EvalFile value {}", net.display()));
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string evaluation: NNUE ") && lines[0].contains("cotuong train"),
        "{lines:?}"
    );
    e.send("position startpos moves h2e2 h9g7");
    e.send("eval");
    let lines = e.sync();
    let nnue_line = lines
        .iter()
        .find(|l| l.starts_with("NNUE evaluation: cp "))
        .unwrap_or_else(|| panic!("{lines:?}"));
    let score: i32 = nnue_line["NNUE evaluation: cp ".len()..].parse().unwrap();
    assert!(score.abs() < 1000, "an opening position scored {score}");
    let lines = e.go("depth 5");
    assert_eq!(best_move(&lines).len(), 4);
    e.quit();
}
