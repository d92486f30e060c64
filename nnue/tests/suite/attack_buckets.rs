//! The attack-bucket feature sets ([`FeatureSet::AttackBuckets`] and
//! [`FeatureSet::KingAttackBuckets`]) in the accumulator stack: incremental updates and cached
//! rebuilds against from-scratch refreshes along capture-heavy walks, where sides lose their last
//! chariot or their last horse or cannon (and get it back when the capture is taken back), on
//! every SIMD path, with and without the accumulator cache; colour-flip symmetry.

use crate::common;

use common::{
    apply, assert_colour_flip_symmetric, assert_stack_matches_refresh, capture_walk, collect_into,
    random_positions, Step,
};
use engine_core::{Color, Position, START_FEN};
use nnue::features::{Anchor, FeatureSet};
use nnue::format::Architecture;
use nnue::random_net::Spec;
use nnue::{AccumulatorStack, Network, Simd};

fn net(spec: Spec, seed: u64) -> Network {
    Network::from_net_file(&spec.build(seed)).unwrap()
}

/// Start points with few attackers, so that captures often take a side's last one: one chariot
/// each; one horse or cannon each and no chariot; a mix; and the full board.
const FEW_ATTACKERS: [&str; 4] = [
    "4k4/4a4/4b4/9/2r6/9/6R2/4B4/4A4/3K5 w - - 0 1",
    "3ak4/9/4b4/9/2h6/6C2/9/4B4/9/4K4 w - - 0 1",
    "4k4/9/9/2c6/2r6/6R2/6H2/9/9/3K5 w - - 0 1",
    START_FEN,
];

/// What a walk did, to prove it exercised the attack-bucket changes.
#[derive(Default, Debug)]
struct Counts {
    checked: usize,
    captures: usize,
    attack_changes: usize,
    rebuilds: usize,
}

fn walk_and_compare(net: &Network, cache: bool, seed: u64, steps: usize) -> Counts {
    let mut counts = Counts::default();
    for (g, fen) in FEW_ATTACKERS.iter().enumerate() {
        let start = Position::from_fen(fen).unwrap();
        let mut stack = AccumulatorStack::new(net, &start);
        stack.set_cache(cache);
        let mut before = [
            Anchor::of(&start, Color::Red),
            Anchor::of(&start, Color::Black),
        ];
        capture_walk(&start, seed + g as u64, steps, 160, 48, |pos, step| {
            apply(&mut stack, pos, step);
            let after = [Anchor::of(pos, Color::Red), Anchor::of(pos, Color::Black)];
            if let Step::Move(_, undo) = step {
                counts.captures += usize::from(undo.captured.is_some());
                counts.attack_changes += (0..2)
                    .filter(|&i| before[i].attack_bucket() != after[i].attack_bucket())
                    .count();
            }
            before = after;
            assert_stack_matches_refresh(&mut stack, net, pos, &format!("{fen}, seed {seed}"));
            counts.checked += 1;
        });
        counts.rebuilds += stack.rebuilds();
    }
    counts
}

fn specs() -> Vec<Spec> {
    vec![
        Spec::with_features(FeatureSet::AttackBuckets, 256),
        Spec {
            extreme: true,
            ..Spec::with_features(FeatureSet::AttackBuckets, 512)
        },
        Spec::with_features(FeatureSet::KingAttackBuckets, 256),
        Spec {
            architecture: Architecture::PerspectiveCrelu,
            ..Spec::with_features(FeatureSet::KingAttackBuckets, 1024)
        },
    ]
}

#[test]
fn attack_bucket_stacks_equal_refresh_with_and_without_the_cache_on_every_path() {
    for (seed, spec) in specs().into_iter().enumerate() {
        let base = net(spec, 60 + seed as u64);
        let steps = if spec.hidden == 1024 { 1000 } else { 3000 };
        for simd in Simd::available() {
            let net = base.clone().with_simd(simd);
            for cache in [true, false] {
                let c = walk_and_compare(&net, cache, 7, steps);
                eprintln!("{} cache {cache} {spec:?}: {c:?}", simd.name());
                // Every step is checked; at least one bucket change per 100 steps, each
                // rebuilt when it is evaluated.
                assert_eq!(c.checked, 4 * steps, "{c:?}");
                assert!(c.attack_changes >= steps / 100, "{c:?}");
                assert!(c.rebuilds >= c.attack_changes / 2, "{c:?}");
            }
        }
    }
}

#[test]
fn attack_bucket_nets_are_colour_flip_symmetric() {
    for set in [FeatureSet::AttackBuckets, FeatureSet::KingAttackBuckets] {
        let net = net(Spec::with_features(set, 256), 13);
        let mut positions = random_positions(9, 300);
        for fen in FEW_ATTACKERS {
            capture_walk(
                &Position::from_fen(fen).unwrap(),
                3,
                300,
                160,
                48,
                collect_into(&mut positions),
            );
        }
        assert_colour_flip_symmetric(&net, &positions);
    }
}
