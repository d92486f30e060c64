//! Trainer throughput: positions per second of the training step (gradient + AdamW) on synthetic
//! games, for the piece-square set at hidden sizes 256, 512 and 1024 and the factorised king- and
//! attack-bucket sets at 256, as the median of several timed passes.
//!
//! `cargo run --release -p nnue-train --example train_speed -- [THREADS] [PASSES]`

use nnue::features::{FeatureSet, OutputBuckets};
use nnue_train::data::{synthetic_games, Filters, PackedPosition};
use nnue_train::train::{
    batch_gradient, Activation, AdamW, Network, ShardGradient, Target, DEFAULT_QB,
};
use std::time::Instant;

/// Positions per batch (the trainer's default).
const BATCH: usize = 16384;
/// Gradient shards (the trainer's default).
const SHARDS: usize = 8;

fn main() {
    let mut args = std::env::args().skip(1);
    let threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let passes: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let filters = Filters::default();
    let mut data = Vec::new();
    let mut seed = 0;
    while data.len() < 8 * BATCH {
        let game = synthetic_games::random_game(seed, 300);
        seed += 1;
        for p in game.positions() {
            if let Ok(score) = filters.check(&p) {
                data.push(PackedPosition::new(
                    &p.position,
                    score,
                    game.result(),
                    OutputBuckets::Single,
                ));
            }
        }
    }
    let order: Vec<u32> = (0..data.len() as u32).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    let nets = [
        (FeatureSet::PieceSquare, 256),
        (FeatureSet::PieceSquare, 512),
        (FeatureSet::PieceSquare, 1024),
        (FeatureSet::AttackBuckets, 256),
        (FeatureSet::KingBuckets, 256),
    ];
    for (features, hidden) in nets {
        pool.install(|| {
            let mut net = match features {
                FeatureSet::PieceSquare => {
                    Network::new(hidden, OutputBuckets::Single, Activation::Screlu, 1)
                }
                _ => Network::factorised(
                    features,
                    hidden,
                    OutputBuckets::Single,
                    Activation::Screlu,
                    1,
                )
                .expect("a bucketed feature set factorises"),
            };
            let mut adam = AdamW::new(net.params().len(), 0.01);
            let mut shards = vec![ShardGradient::new(net.layout()); SHARDS];
            let target = Target {
                k: 400.0,
                lambda: 0.7,
            };
            let mut rates = Vec::new();
            for _ in 0..passes {
                let start = Instant::now();
                for batch in order.chunks(BATCH) {
                    batch_gradient(&net, &data, batch, target, &mut shards);
                    adam.step(&mut net, &shards, 1e-3, DEFAULT_QB);
                }
                rates.push(order.len() as f64 / start.elapsed().as_secs_f64());
            }
            rates.sort_by(f64::total_cmp);
            let shown: Vec<String> = rates.iter().map(|r| format!("{:.0}k", r / 1e3)).collect();
            println!(
                "{}{}->{hidden} SCReLU, {threads} thread(s): median {:.0}k positions/s (passes: {})",
                net.layout().inputs,
                if net.is_factorised() { " factorised" } else { "" },
                rates[rates.len() / 2] / 1e3,
                shown.join(" ")
            );
        });
    }
}
