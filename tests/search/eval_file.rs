//! The network options through the binary: the embedded net is announced and used by default,
//! `EvalFile` loads another net, `Use NNUE` switches to the handcrafted evaluation, and a bad net
//! file gives one error line while the engine keeps the net it had.

use crate::common;

use common::{best_move, Engine};
use nnue::random_net::Spec;
use std::path::PathBuf;
use tempfile::TempDir;

/// A scratch folder for net files, removed at the end of the test, pass or fail.
struct Scratch(TempDir);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = tempfile::Builder::new()
            .prefix(&format!("cotuong-eval-file-{name}-"))
            .tempdir()
            .expect("a temporary folder");
        Scratch(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }

    fn file(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.path(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_string()
    }
}

/// The `Evaluation:` line of `d`.
fn evaluation(e: &mut Engine) -> String {
    e.send("d");
    let lines = e.sync();
    lines
        .iter()
        .find_map(|l| l.strip_prefix("Evaluation: "))
        .unwrap_or_else(|| panic!("no Evaluation line in {lines:?}"))
        .to_string()
}

/// The hash the summary of a net shows.
fn hash_text(hash: u64) -> String {
    format!("hash {hash:016x}")
}

#[test]
fn the_embedded_net_is_announced_and_used_by_default() {
    for (hello, ok) in [("uci", "uciok"), ("ucci", "ucciok")] {
        let mut e = Engine::start();
        e.send(hello);
        let lines = e.expect_line(ok);
        let announced = lines
            .iter()
            .find_map(|l| l.strip_prefix("info string evaluation: "))
            .unwrap_or_else(|| panic!("no evaluation line in {lines:?}"));
        assert!(announced.starts_with("NNUE "), "{announced}");
        assert!(announced.contains("hash "), "{announced}");
        let (file, switch) = if hello == "uci" {
            (
                "option name EvalFile type string default <embedded>",
                "option name Use NNUE type check default true",
            )
        } else {
            (
                "option evalfile type string default <embedded>",
                "option usennue type check default true",
            )
        };
        assert!(lines.iter().any(|l| l == file), "{lines:?}");
        assert!(lines.iter().any(|l| l == switch), "{lines:?}");
        assert_eq!(evaluation(&mut e), announced);
        e.quit();
    }
}

#[test]
fn eval_prints_both_evaluations_and_use_nnue_switches() {
    let mut e = Engine::uci();
    e.send("position startpos moves h2e2");
    e.send("eval");
    let lines = e.sync();
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Handcrafted evaluation: cp ")));
    assert!(lines.iter().any(|l| l.starts_with("NNUE evaluation: cp ")));
    assert!(lines.iter().any(|l| l.starts_with("Search uses: NNUE ")));

    e.send("setoption name Use NNUE value false");
    let lines = e.sync();
    assert_eq!(
        lines,
        vec!["info string evaluation: handcrafted evaluation".to_string()]
    );
    assert_eq!(evaluation(&mut e), "handcrafted evaluation");
    let lines = e.go("depth 4");
    assert_eq!(best_move(&lines).len(), 4);

    e.send("setoption name Use NNUE value true");
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("info string evaluation: NNUE "));
    e.quit();
}

#[test]
fn eval_file_loads_a_net_and_the_embedded_one_back() {
    let scratch = Scratch::new("good");
    let net = Spec::screlu(256).build(7);
    let path = scratch.file("other.nnue", &net.to_bytes());
    for (mut e, set) in [
        (Engine::uci(), "setoption name EvalFile value"),
        (Engine::ucci(), "setoption evalfile"),
    ] {
        let embedded = evaluation(&mut e);
        e.send(&format!("{set} {path}"));
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].contains(&hash_text(net.weights_hash())),
            "{lines:?}"
        );
        assert!(evaluation(&mut e).contains(&hash_text(net.weights_hash())));
        let lines = e.go("depth 3");
        assert_eq!(best_move(&lines).len(), 4);

        e.send(&format!("{set} <embedded>"));
        e.sync();
        assert_eq!(evaluation(&mut e), embedded);
        e.quit();
    }
}

#[test]
fn a_bad_net_file_is_one_error_and_the_previous_net_stays() {
    let scratch = Scratch::new("bad");
    let mut random = Vec::new();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..100_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        random.push(x as u8);
    }
    let good = Spec::screlu(256).build(3).to_bytes();
    let wide = Spec::screlu(2048).build(3).to_bytes();
    let cases = [
        ("random bytes", scratch.file("random.nnue", &random)),
        ("empty", scratch.file("empty.nnue", &[])),
        (
            "truncated",
            scratch.file("cut.nnue", &good[..good.len() / 2]),
        ),
        ("hidden 2048", scratch.file("wide.nnue", &wide)),
        (
            "missing",
            scratch.path("no-such.nnue").to_str().unwrap().to_string(),
        ),
        ("directory", scratch.0.path().to_str().unwrap().to_string()),
    ];
    for (mut e, set) in [
        (Engine::uci(), "setoption name EvalFile value"),
        (Engine::ucci(), "setoption evalfile"),
    ] {
        let before = evaluation(&mut e);
        for (what, path) in &cases {
            e.send(&format!("{set} {path}"));
            let lines = e.sync();
            assert_eq!(lines.len(), 1, "{what}: {lines:?}");
            assert!(
                lines[0].starts_with("info string error: ") && lines[0].contains(path.as_str()),
                "{what}: {lines:?}"
            );
            assert!(lines[0].contains("keeping net"), "{what}: {lines:?}");
            assert_eq!(evaluation(&mut e), before, "{what}");
        }
        let lines = e.go("depth 3");
        assert_eq!(best_move(&lines).len(), 4);
        e.quit();
    }
}
