//! Every SIMD path this CPU has against the portable path, bit for bit: accumulators and
//! evaluations along random walks, on typical nets and on nets at the loader's limits.

use crate::common;

use common::{random_walk, Step};
use engine_core::{Position, START_FEN};
use nnue::features::{FeatureSet, OutputBuckets};
use nnue::format::Architecture;
use nnue::random_net::Spec;
use nnue::{AccumulatorStack, Network, Simd};

fn specs() -> Vec<Spec> {
    let mut out = Vec::new();
    for architecture in [
        Architecture::PerspectiveScrelu,
        Architecture::PerspectiveCrelu,
    ] {
        for hidden in [256, 512] {
            for extreme in [false, true] {
                out.push(Spec {
                    architecture,
                    hidden,
                    extreme,
                    ..Spec::screlu(hidden)
                });
            }
        }
        // Hidden 1024 and the bucketed sets, at the bounds and typical.
        for (spec, extreme) in [
            (Spec::screlu(1024), true),
            (Spec::king_buckets(256), false),
            (Spec::king_buckets(512), true),
            (Spec::king_buckets(1024), false),
            (Spec::king_buckets(1024), true),
            (Spec::with_features(FeatureSet::AttackBuckets, 256), true),
            (
                Spec::with_features(FeatureSet::KingAttackBuckets, 512),
                false,
            ),
            (
                Spec {
                    buckets: OutputBuckets::PieceConfiguration,
                    ..Spec::screlu(256)
                },
                true,
            ),
        ] {
            out.push(Spec {
                architecture,
                extreme,
                ..spec
            });
        }
    }
    out
}

#[test]
fn every_available_path_equals_the_portable_path() {
    let paths = Simd::available();
    eprintln!(
        "paths on this CPU: {:?}",
        paths.iter().map(|s| s.name()).collect::<Vec<_>>()
    );
    let start = Position::from_fen(START_FEN).unwrap();
    for (seed, spec) in specs().into_iter().enumerate() {
        let file = spec.build(100 + seed as u64);
        let portable = Network::from_net_file(&file)
            .unwrap()
            .with_simd(Simd::PORTABLE);
        let nets: Vec<Network> = paths
            .iter()
            .map(|&s| portable.clone().with_simd(s))
            .collect();
        let mut stacks: Vec<AccumulatorStack> = nets
            .iter()
            .map(|n| AccumulatorStack::new(n, &start))
            .collect();
        let mut reference = AccumulatorStack::new(&portable, &start);
        random_walk(seed as u64, 2000, 160, 48, |pos, step| {
            for stack in stacks.iter_mut().chain(std::iter::once(&mut reference)) {
                match *step {
                    Step::Move(mv, undo) => stack.push_move(pos, mv, &undo),
                    Step::Null(_) => stack.push_null(),
                    Step::Pop => stack.pop(),
                }
            }
            let want_eval = reference.evaluate(&portable, pos);
            let want: Vec<_> = reference
                .accumulators(&portable, pos)
                .iter()
                .map(|a| a.to_vec())
                .collect();
            for (stack, net) in stacks.iter_mut().zip(&nets) {
                assert_eq!(
                    stack.evaluate(net, pos),
                    want_eval,
                    "{} {spec:?}",
                    net.simd().name()
                );
                let got: Vec<_> = stack
                    .accumulators(net, pos)
                    .iter()
                    .map(|a| a.to_vec())
                    .collect();
                assert_eq!(got, want, "{} {spec:?} at {pos}", net.simd().name());
                assert_eq!(net.evaluate(pos), want_eval);
            }
        });
    }
}

#[test]
fn the_detected_path_is_the_widest_available() {
    // Unless the environment caps it (COTUONG_SIMD), detection picks the last available path.
    if std::env::var(nnue::simd::SIMD_ENV).is_err() {
        assert_eq!(Some(&Simd::detected()), Simd::available().last());
    }
    let net = Network::from_net_file(&Spec::screlu(256).build(1)).unwrap();
    assert_eq!(net.simd(), Simd::detected());
}
