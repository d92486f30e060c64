//! The incremental accumulator stack against from-scratch refreshes, along random walks through
//! legal play with captures, null moves and take-backs.

use crate::common;

use common::{apply, assert_stack_matches_refresh, random_walk, Step};
use engine_core::{Position, START_FEN};
use nnue::format::Architecture;
use nnue::random_net::Spec;
use nnue::simd::Block;
use nnue::{AccumulatorStack, Network, Simd};

/// Walks `steps` random steps; at the plies `check` selects, compares both perspectives'
/// incremental accumulators and the evaluation with a from-scratch computation.
fn walk_and_compare(
    net: &Network,
    seed: u64,
    steps: usize,
    check: impl Fn(usize) -> bool,
) -> usize {
    let start = Position::from_fen(START_FEN).unwrap();
    let mut stack = AccumulatorStack::new(net, &start);
    let mut checked = 0;
    let mut captures = 0;
    let mut nulls = 0;
    let mut step_no = 0;
    random_walk(seed, steps, 160, 48, |pos, step| {
        apply(&mut stack, pos, step);
        match step {
            Step::Move(_, undo) if undo.captured.is_some() => captures += 1,
            Step::Null(_) => nulls += 1,
            _ => {}
        }
        step_no += 1;
        if check(step_no) {
            assert_stack_matches_refresh(&mut stack, net, pos, &format!("step {step_no}"));
            checked += 1;
        }
    });
    assert!(captures > steps / 20, "the walk must capture: {captures}");
    assert!(nulls > steps / 20, "the walk must pass: {nulls}");
    checked
}

fn nets() -> Vec<Network> {
    let mut out = Vec::new();
    for (hidden, extreme, architecture) in [
        (256, false, Architecture::PerspectiveScrelu),
        (512, true, Architecture::PerspectiveScrelu),
        (256, true, Architecture::PerspectiveCrelu),
    ] {
        let spec = Spec {
            architecture,
            hidden,
            extreme,
            ..Spec::screlu(hidden)
        };
        out.push(Network::from_net_file(&spec.build(hidden as u64)).unwrap());
    }
    out
}

#[test]
fn incremental_equals_refresh_at_every_ply() {
    for net in nets() {
        for simd in Simd::available() {
            let net = net.clone().with_simd(simd);
            let checked = walk_and_compare(&net, 11, 10_000, |_| true);
            assert_eq!(checked, 10_000);
        }
    }
}

#[test]
fn long_lazy_chains_equal_refresh() {
    // Evaluating only now and then leaves long runs of pending updates (across null moves and
    // take-backs) to be computed at once.
    for net in nets() {
        for simd in Simd::available() {
            let net = net.clone().with_simd(simd);
            let checked = walk_and_compare(&net, 23, 10_000, |i| i % 37 == 0 || i % 53 == 0);
            assert!(checked > 400);
        }
    }
}

#[test]
fn null_moves_share_their_parents_accumulators() {
    let net = Network::from_net_file(&Spec::screlu(256).build(5)).unwrap();
    let mut pos = Position::from_fen(START_FEN).unwrap();
    let mut stack = AccumulatorStack::new(&net, &pos);
    let before: Vec<Vec<Block>> = stack
        .accumulators(&net, &pos)
        .iter()
        .map(|a| a.to_vec())
        .collect();
    let undo = pos.make_null();
    stack.push_null();
    assert_eq!(stack.ply(), 1);
    let after: Vec<Vec<Block>> = stack
        .accumulators(&net, &pos)
        .iter()
        .map(|a| a.to_vec())
        .collect();
    assert_eq!(before, after);
    // The side to move changed, so the evaluation swaps the halves.
    assert_eq!(stack.evaluate(&net, &pos), net.evaluate(&pos));
    stack.pop();
    pos.unmake_null(undo);
    assert_eq!(stack.ply(), 0);
    assert_eq!(stack.evaluate(&net, &pos), net.evaluate(&pos));
}

#[test]
fn a_new_net_is_adopted_without_a_reset() {
    // Evaluating with another net than the one the stack was built with must still be right.
    let a = Network::from_net_file(&Spec::screlu(256).build(1)).unwrap();
    let b = Network::from_net_file(&Spec::screlu(512).build(2)).unwrap();
    let start = Position::from_fen(START_FEN).unwrap();
    let mut stack = AccumulatorStack::new(&a, &start);
    let mut step_no = 0;
    random_walk(3, 600, 128, 48, |pos, step| {
        apply(&mut stack, pos, step);
        step_no += 1;
        let net = if step_no < 300 { &a } else { &b };
        assert_eq!(
            stack.evaluate(net, pos),
            net.evaluate(pos),
            "step {step_no}"
        );
    });
}

#[test]
fn reset_at_a_new_root() {
    let net = Network::from_net_file(&Spec::screlu(256).build(9)).unwrap();
    let start = Position::from_fen(START_FEN).unwrap();
    let mut stack = AccumulatorStack::new(&net, &start);
    let mut roots = Vec::new();
    random_walk(4, 200, 128, 200, |pos, _| roots.push(pos.clone()));
    for root in roots.iter().step_by(17) {
        stack.reset(&net, root);
        assert_eq!(stack.ply(), 0);
        assert_eq!(stack.evaluate(&net, root), net.evaluate(root));
    }
}
