//! The quantised evaluation against the float evaluation of the same (dequantised) weights.
//!
//! Bound: the integer evaluation computes the float one exactly except for two floor divisions
//! (see `nnue::reference`), so `0 <= float - quantised < 1 + eval_scale / (QA·QB)` for SCReLU
//! (about 1.025 engine units with QA 255, QB 64, scale 400) and `< 1` for CReLU, after clamping
//! both to ±EVAL_LIMIT. A margin of 1e-6 covers f64 rounding.

use crate::common;

use common::random_positions;
use engine_core::Color;
use nnue::features::{Anchor, FeatureSet, OutputBuckets};
use nnue::format::Architecture;
use nnue::random_net::Spec;
use nnue::reference::FloatNetwork;
use nnue::{Network, EVAL_LIMIT};

const F64_MARGIN: f64 = 1e-6;

fn check(spec: Spec, seed: u64, positions: &[engine_core::Position]) {
    let file = spec.build(seed);
    let net = Network::from_net_file(&file).unwrap();
    let float = FloatNetwork::dequantise(&file);
    let bound = float.error_bound();
    let limit = f64::from(EVAL_LIMIT);
    let mut worst: f64 = 0.0;
    let mut unclamped = 0;
    for pos in positions {
        let q = f64::from(net.evaluate(pos));
        let raw = float.evaluate(pos);
        unclamped += usize::from(raw.abs() < limit);
        let f = raw.clamp(-limit, limit);
        let diff = f - q;
        assert!(
            (-F64_MARGIN..bound + F64_MARGIN).contains(&diff),
            "{spec:?}: float {f} quantised {q} at {pos}"
        );
        worst = worst.max(diff.abs());
    }
    // The nets must exercise the range, not sit on the clamp.
    assert!(
        unclamped * 10 > positions.len() * 9,
        "{spec:?}: {unclamped} unclamped"
    );
    eprintln!("{spec:?}: worst |float - quantised| = {worst:.4} (bound {bound:.4})");
}

#[test]
fn quantised_equals_float_within_the_rounding_bound_on_10000_positions() {
    let positions = random_positions(1, 10_000);
    check(Spec::screlu(256), 1, &positions);
    check(Spec::screlu(512), 2, &positions);
    check(
        Spec {
            architecture: Architecture::PerspectiveCrelu,
            ..Spec::screlu(256)
        },
        3,
        &positions,
    );
    check(
        Spec {
            buckets: OutputBuckets::PieceConfiguration,
            ..Spec::screlu(256)
        },
        5,
        &positions,
    );
    // The attack-bucket feature sets, as the trainer exports them (its own export test compares
    // its float net with the file; this compares the engine's integer pass with the reference).
    check(
        Spec::with_features(FeatureSet::AttackBuckets, 256),
        6,
        &positions,
    );
    check(
        Spec {
            buckets: OutputBuckets::PieceConfiguration,
            ..Spec::with_features(FeatureSet::KingAttackBuckets, 256)
        },
        7,
        &positions,
    );
}

#[test]
fn random_games_reach_every_piece_configuration_bucket() {
    // Guards the piece-configuration check above: its positions must exercise every bucket, not
    // only the full-material one.
    let positions = random_positions(1, 10_000);
    let buckets: std::collections::BTreeSet<usize> = positions
        .iter()
        .map(|p| OutputBuckets::PieceConfiguration.bucket(p))
        .collect();
    eprintln!("piece-configuration buckets reached: {buckets:?}");
    assert_eq!(buckets.len(), 16, "buckets reached: {buckets:?}");
}

#[test]
fn random_games_reach_every_attack_bucket() {
    // Guards the attack-bucket checks above: both perspectives must reach every bucket (with and
    // without chariots, with and without horses or cannons), not only the full-material one.
    let positions = random_positions(1, 10_000);
    for color in [Color::Red, Color::Black] {
        let buckets: std::collections::BTreeSet<usize> = positions
            .iter()
            .map(|p| Anchor::of(p, color).attack_bucket())
            .collect();
        assert_eq!(
            buckets.len(),
            4,
            "{color:?}: attack buckets reached: {buckets:?}"
        );
    }
}

#[test]
fn evaluations_spread_over_a_realistic_range() {
    // Guards the test above against a degenerate net (all zero or all clamped).
    let positions = random_positions(2, 500);
    let net = Network::from_net_file(&Spec::screlu(256).build(4)).unwrap();
    let evals: Vec<i32> = positions.iter().map(|p| net.evaluate(p)).collect();
    let distinct: std::collections::BTreeSet<i32> = evals.iter().copied().collect();
    assert!(
        distinct.len() > 300,
        "{} distinct evaluations",
        distinct.len()
    );
    assert!(evals.iter().any(|&e| e > 100) && evals.iter().any(|&e| e < -100));
}
