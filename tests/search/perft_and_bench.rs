//! `cotuong perft` and `cotuong bench` as a user runs them: perft with threads against the
//! published counts, and bench's node lines, its signature, that the signature is reproducible
//! and that it is the one pinned here.

use crate::common;

use common::cli::{run, stderr, stdout};

/// Published counts (the CPW "Chinese Chess Perft Results" suite, also in
/// `shared/testdata/perft.tsv`): the start position and a middle game, depths 1-4.
const COUNTS: &[(&str, [u64; 4])] = &[
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        [44, 1920, 79666, 3290240],
    ),
    (
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        [38, 1128, 43929, 1339047],
    ),
];

/// The count `cotuong perft` reports on standard error ("perft D: N nodes in ...").
fn perft_nodes(args: &[&str]) -> (u64, String) {
    let out = run("perft", args);
    let err = stderr(&out);
    assert!(out.status.success(), "perft {args:?}: {err}");
    let nodes = err
        .lines()
        .find_map(|l| l.split(": ").nth(1)?.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("no node count in: {err}"));
    (nodes, stdout(&out))
}

#[test]
fn perft_with_threads_matches_the_published_counts() {
    for (fen, counts) in COUNTS {
        for threads in ["1", "3"] {
            for (depth, &expected) in counts.iter().enumerate().skip(1) {
                let depth = (depth + 1).to_string();
                let (nodes, _) = perft_nodes(&[&depth, "--fen", fen, "--threads", threads]);
                assert_eq!(nodes, expected, "{fen} depth {depth}, {threads} threads");
            }
        }
        // `--divide`: one line per root move, summing to the total.
        let (nodes, out) = perft_nodes(&["3", "--fen", fen, "--threads", "2", "--divide"]);
        let per_move: Vec<u64> = out
            .lines()
            .filter(|l| !l.starts_with("Nodes searched"))
            .filter_map(|l| l.split(": ").nth(1)?.trim().parse().ok())
            .collect();
        assert_eq!(per_move.len() as u64, counts[0], "{out}");
        assert_eq!(per_move.iter().sum::<u64>(), nodes, "{out}");
        assert_eq!(nodes, counts[2]);
        assert!(out.contains(&format!("Nodes searched: {nodes}")), "{out}");
    }
}

/// The signature of `cotuong bench` at its default depth (one thread, 16 MB). A change to the
/// search or the evaluation that moves it updates this constant in the same commit, and the
/// commit message quotes the new value.
const BENCH_SIGNATURE: u64 = 1592449;

/// Runs `cotuong bench` and returns (per-position node counts, the "Nodes searched" total, the
/// stderr summary line).
fn bench(args: &[&str]) -> (Vec<u64>, u64, String) {
    let out = run("bench", args);
    let (text, err) = (stdout(&out), stderr(&out));
    assert!(out.status.success(), "bench {args:?}: {err}");
    let per_position: Vec<u64> = text
        .lines()
        .filter(|l| l.starts_with("position "))
        .map(|l| {
            l.split(": ")
                .nth(1)
                .and_then(|r| r.split(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("bad line '{l}'"))
        })
        .collect();
    let total = text
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched  : "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no 'Nodes searched' line in:\n{text}"));
    assert!(
        text.lines().any(|l| l.starts_with("Nodes/second    : ")),
        "{text}"
    );
    (per_position, total, err)
}

#[test]
fn bench_prints_its_nodes_and_a_reproducible_signature() {
    let (per_position, total, err) = bench(&["5"]);
    assert!(per_position.len() >= 10, "{per_position:?}");
    assert!(per_position.iter().all(|&n| n > 0), "{per_position:?}");
    assert_eq!(per_position.iter().sum::<u64>(), total);
    assert!(
        err.contains(&format!("bench depth 5: signature {total} nodes in ")),
        "{err}"
    );
    // The signature is the search's fingerprint: the same on every run.
    let (_, again, _) = bench(&["5"]);
    assert_eq!(again, total, "the signature changed between two runs");
    // A deeper search visits more nodes.
    let (_, deeper, _) = bench(&["6"]);
    assert!(deeper > total, "depth 6 {deeper} nodes, depth 5 {total}");
    // Other threads or table sizes are not the signature, and say so.
    let (_, _, err) = bench(&["5", "--threads", "2"]);
    assert!(err.contains("not the signature"), "{err}");
    assert!(!err.contains(": signature"), "{err}");
}

#[test]
fn bench_at_its_default_depth_gives_the_pinned_signature() {
    let (_, total, err) = bench(&[]);
    let depth = cotuong::bench::DEFAULT_DEPTH;
    assert!(
        err.contains(&format!("bench depth {depth}: signature {total} nodes in ")),
        "{err}"
    );
    assert_eq!(
        total, BENCH_SIGNATURE,
        "the bench signature moved: update BENCH_SIGNATURE and quote it in the commit message"
    );
}
