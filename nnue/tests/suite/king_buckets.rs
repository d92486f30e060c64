//! The king-bucket feature set ([`FeatureSet::KingBuckets`]) in the accumulator stack: incremental
//! updates and cached rebuilds against from-scratch refreshes along walks where the generals move
//! a lot (bucket changes, mirror crossings), on every SIMD path, with and without the accumulator
//! cache; colour-flip and file-mirror symmetry.

use crate::common;

use common::{
    apply, assert_colour_flip_symmetric, assert_stack_matches_refresh, collect_into, file_mirror,
    general_walk, random_positions, refreshed, Step, ENDGAMES,
};
use engine_core::{Color, PieceKind, Position, START_FEN};
use nnue::features::{Anchor, FeatureSet};
use nnue::format::Architecture;
use nnue::random_net::Spec;
use nnue::simd::Block;
use nnue::{AccumulatorStack, FinnyTable, Network, Simd};

fn net(spec: Spec, seed: u64) -> Network {
    Network::from_net_file(&spec.build(seed)).unwrap()
}

/// What a walk did, to prove it exercised the mapping changes.
#[derive(Default, Debug)]
struct Counts {
    checked: usize,
    general_moves: usize,
    bucket_changes: usize,
    mirror_crossings: usize,
    rebuilds: usize,
}

/// Walks from every endgame (and the start position), comparing the stack's accumulators and
/// evaluation with from-scratch ones at the plies `check` selects.
fn walk_and_compare(
    net: &Network,
    cache: bool,
    seed: u64,
    steps: usize,
    check: impl Fn(usize) -> bool,
) -> Counts {
    let set = net.features();
    let mut counts = Counts::default();
    for (g, fen) in ENDGAMES
        .iter()
        .chain(std::iter::once(&START_FEN))
        .enumerate()
    {
        let start = Position::from_fen(fen).unwrap();
        let mut stack = AccumulatorStack::new(net, &start);
        stack.set_cache(cache);
        let mut step_no = 0;
        general_walk(&start, seed + g as u64, steps, 128, 40, |pos, step| {
            apply(&mut stack, pos, step);
            if let Step::Move(mv, _) = *step {
                let piece = pos.piece_at(mv.to()).unwrap();
                if piece.kind() == PieceKind::General {
                    let p = piece.color();
                    counts.general_moves += 1;
                    let (from, to) = (mv.from(), mv.to());
                    let (mf, mt) = (
                        set.mapping(p, Anchor::with_general(from)),
                        set.mapping(p, Anchor::with_general(to)),
                    );
                    counts.bucket_changes += usize::from(mf / 2 != mt / 2);
                    counts.mirror_crossings += usize::from(mf % 2 != mt % 2);
                }
            }
            step_no += 1;
            if check(step_no) {
                assert_stack_matches_refresh(&mut stack, net, pos, &format!("step {step_no}"));
                counts.checked += 1;
            }
        });
        counts.rebuilds += stack.rebuilds();
    }
    counts
}

fn specs() -> Vec<Spec> {
    vec![
        Spec::king_buckets(256),
        Spec {
            extreme: true,
            ..Spec::king_buckets(512)
        },
        Spec {
            architecture: Architecture::PerspectiveCrelu,
            ..Spec::king_buckets(1024)
        },
    ]
}

#[test]
fn king_bucket_stacks_equal_refresh_with_and_without_the_cache_on_every_path() {
    for (seed, spec) in specs().into_iter().enumerate() {
        let base = net(spec, 40 + seed as u64);
        let steps = if spec.hidden == 1024 { 600 } else { 1500 };
        for simd in Simd::available() {
            let net = base.clone().with_simd(simd);
            for cache in [true, false] {
                let every = walk_and_compare(&net, cache, 3, steps, |_| true);
                let sparse = walk_and_compare(&net, cache, 4, steps, |i| i % 23 == 0);
                eprintln!(
                    "{} cache {cache} {spec:?}: {every:?} {sparse:?}",
                    simd.name()
                );
                for c in [&every, &sparse] {
                    assert!(c.general_moves > steps, "{c:?}");
                    assert!(c.bucket_changes > steps / 4, "{c:?}");
                    assert!(c.mirror_crossings > steps / 8, "{c:?}");
                    assert!(c.rebuilds > steps / 4, "{c:?}");
                }
            }
        }
    }
}

#[test]
fn the_cache_equals_a_full_refresh_on_unrelated_positions_and_across_nets() {
    let a = net(Spec::king_buckets(256), 1);
    let b = net(Spec::screlu(256), 2);
    let c = net(Spec::king_buckets(512), 3);
    let mut positions = random_positions(5, 300);
    for fen in ENDGAMES {
        general_walk(
            &Position::from_fen(fen).unwrap(),
            9,
            200,
            128,
            40,
            collect_into(&mut positions),
        );
    }
    let mut table = FinnyTable::new();
    for (i, pos) in positions.iter().enumerate() {
        // Switch nets now and then: the table starts over for a new one.
        let net = match (i / 50) % 3 {
            0 => &a,
            1 => &b,
            _ => &c,
        };
        for p in Color::BOTH {
            let mut got = vec![Block::ZERO; net.hidden() / 32];
            table.refresh(net, pos, p, &mut got);
            assert_eq!(got, refreshed(net, pos, p), "{i} {p:?} {pos}");
        }
    }
}

#[test]
fn king_bucket_nets_are_colour_flip_symmetric() {
    let net = net(Spec::king_buckets(256), 11);
    let mut positions = random_positions(8, 500);
    for fen in ENDGAMES {
        general_walk(
            &Position::from_fen(fen).unwrap(),
            2,
            300,
            128,
            40,
            collect_into(&mut positions),
        );
    }
    assert_colour_flip_symmetric(&net, &positions);
}

/// Under the file mirror, a perspective whose general is on the d- or f-file lights exactly the
/// same inputs (one of the two is mirrored by the feature set); one whose general is on the
/// e-file (never mirrored) lights the file-mirrored inputs of the same bucket. So a position and
/// its mirror image evaluate identically when neither general is on the e-file, and a net can
/// tell them apart otherwise.
#[test]
fn file_mirror_images_evaluate_identically_when_no_general_is_on_the_e_file() {
    let set = FeatureSet::KingBuckets;
    let net = net(Spec::king_buckets(256), 12);
    let mut positions = Vec::new();
    for fen in ENDGAMES.iter().chain(std::iter::once(&START_FEN)) {
        general_walk(
            &Position::from_fen(fen).unwrap(),
            6,
            400,
            128,
            40,
            collect_into(&mut positions),
        );
    }
    let on_e = |pos: &Position, p: Color| pos.general_square(p).file() == 4;
    let (mut symmetric, mut e_file, mut e_file_differ) = (0, 0, 0);
    for pos in &positions {
        let mirror = file_mirror(pos);
        for p in Color::BOTH {
            let mut got = set.active(&mirror, p).to_vec();
            let mut want: Vec<u16> = if on_e(pos, p) {
                let anchor = Anchor::of(pos, p);
                pos.occupied()
                    .map(|sq| {
                        set.index(p, anchor, pos.piece_at(sq).unwrap(), sq.flip_file()) as u16
                    })
                    .collect()
            } else {
                set.active(pos, p).to_vec()
            };
            got.sort_unstable();
            want.sort_unstable();
            assert_eq!(got, want, "{p:?} {pos} vs {mirror}");
        }
        if Color::BOTH.iter().all(|&p| !on_e(pos, p)) {
            assert_eq!(
                net.evaluate(pos),
                net.evaluate(&mirror),
                "{pos} vs {mirror}"
            );
            symmetric += 1;
        } else {
            e_file += 1;
            e_file_differ += usize::from(net.evaluate(pos) != net.evaluate(&mirror));
        }
    }
    assert!(
        symmetric > 200,
        "{symmetric} positions with both generals off the e-file"
    );
    assert!(
        e_file_differ > e_file / 2,
        "{e_file_differ} of {e_file} e-file positions differ"
    );
}
