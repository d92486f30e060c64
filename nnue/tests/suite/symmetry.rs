//! Colour-flip symmetry: a position and its mirror with colours swapped (ranks reversed, the other
//! side to move) look the same to the side to move, so they must evaluate identically.

use crate::common;

use common::{colour_flip, random_positions};
use engine_core::Color;
use nnue::features::OutputBuckets;
use nnue::format::Architecture;
use nnue::random_net::Spec;
use nnue::{AccumulatorStack, Network};

#[test]
fn colour_flipped_positions_evaluate_identically() {
    let positions = random_positions(7, 2000);
    for spec in [
        Spec::screlu(256),
        Spec {
            architecture: Architecture::PerspectiveCrelu,
            extreme: true,
            ..Spec::screlu(512)
        },
        // Its buckets are relative to the side to move, so they swap with the colours.
        Spec {
            buckets: OutputBuckets::PieceConfiguration,
            ..Spec::screlu(256)
        },
    ] {
        let net = Network::from_net_file(&spec.build(31)).unwrap();
        let mut asymmetric_evals = 0;
        for pos in &positions {
            let flipped = colour_flip(pos);
            assert_eq!(flipped.side_to_move(), pos.side_to_move().opponent());
            let e = net.evaluate(pos);
            assert_eq!(e, net.evaluate(&flipped), "{pos} vs {flipped}");
            // Through the stack too, with Red's and Black's accumulators trading places.
            let mut a = AccumulatorStack::new(&net, pos);
            let mut b = AccumulatorStack::new(&net, &flipped);
            assert_eq!(a.evaluate(&net, pos), b.evaluate(&net, &flipped));
            let [a_red, a_black] = a.accumulators(&net, pos);
            let [b_red, b_black] = b.accumulators(&net, &flipped);
            assert_eq!(a_red, b_black);
            assert_eq!(a_black, b_red);
            // A net is not symmetric under a plain side-to-move swap: the test can tell.
            let mut pos_swapped_fen = pos.to_fen();
            let side = if pos.side_to_move() == Color::Red {
                " w "
            } else {
                " b "
            };
            let other = if pos.side_to_move() == Color::Red {
                " b "
            } else {
                " w "
            };
            pos_swapped_fen = pos_swapped_fen.replacen(side, other, 1);
            if let Ok(swapped) = engine_core::Position::from_fen(&pos_swapped_fen) {
                asymmetric_evals += usize::from(net.evaluate(&swapped) != e);
            }
        }
        // (The extreme net often sits on the clamp, where both agree.)
        assert!(asymmetric_evals > positions.len() / 5, "{asymmetric_evals}");
    }
}
