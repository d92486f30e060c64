//! The trainer: gradients against finite differences, learning on synthetic data, determinism,
//! checkpoints, K fitting, and the exported net against a quantised forward pass written from the
//! documented file semantics.

use engine_core::SplitMix64;
use engine_core::{Color, Position};
use nnue::features::{Anchor, FeatureSet, OutputBuckets};
use nnue::format::{Architecture, NetFile};
use nnue_train::data::{synthetic_games, Filters, Game, PackedPosition};
use nnue_train::train::{
    fit_k, game_key, gradient, holdout, load, net_loss, quantise, run, scan, stream_chunks,
    Activation, Args, Checkpoint, LoadOptions, Network, ParamGroup, Target, TrainError,
    ValidationSet,
};
use std::path::{Path, PathBuf};

/// A scratch folder for the test `name`, removed when dropped, pass or fail.
struct Scratch(tempfile::TempDir);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = tempfile::Builder::new()
            .prefix(&format!("nnue-trainer-{name}-"))
            .tempdir()
            .expect("a temporary folder");
        Scratch(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }
}

fn write_games(path: &Path, seeds: std::ops::Range<u64>, max_plies: usize) -> Vec<Game> {
    let games: Vec<Game> = seeds
        .map(|s| synthetic_games::random_game(s, max_plies))
        .collect();
    let mut bytes = Vec::new();
    for g in &games {
        g.encode_into(&mut bytes);
    }
    std::fs::write(path, bytes).unwrap();
    games
}

fn args(words: &[&str]) -> Args {
    let mut a = Args::parse_from(words).unwrap();
    a.quiet = true;
    a
}

fn packed_positions(
    games: &[Game],
    buckets: OutputBuckets,
    filters: &Filters,
) -> Vec<PackedPosition> {
    let mut out = Vec::new();
    for g in games {
        for p in g.positions() {
            if let Ok(score) = filters.check(&p) {
                out.push(PackedPosition::new(&p.position, score, g.result(), buckets));
            }
        }
    }
    out
}

/// The mean loss in `f64`, written from the documented semantics, for finite differences.
fn reference_loss(
    params: &[f64],
    net: &Network,
    positions: &[PackedPosition],
    target: Target,
) -> f64 {
    let layout = net.layout();
    let h = layout.hidden;
    let fw = layout.range(ParamGroup::FeatureWeights).start;
    let fb = layout.range(ParamGroup::FeatureBiases).start;
    let ow = layout.range(ParamGroup::OutputWeights).start;
    let ob = layout.range(ParamGroup::OutputBiases).start;
    let act = |x: f64| {
        let c = x.clamp(0.0, 1.0);
        match net.activation() {
            Activation::Screlu => c * c,
            Activation::Crelu => c,
        }
    };
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    let mut total = 0.0;
    for p in positions {
        let (stm, other) = p.features(net.features());
        let b = p.bucket();
        let mut out = params[ob + b];
        for (half, active) in [(0, &stm), (1, &other)] {
            for j in 0..h {
                let mut acc = params[fb + j];
                for &i in active.iter() {
                    acc += params[fw + usize::from(i) * h + j];
                    if let Some(row) = layout.factor_row(usize::from(i)) {
                        acc += params[fw + row * h + j];
                    }
                }
                out += act(acc) * params[ow + b * 2 * h + half * h + j];
            }
        }
        let t = f64::from(target.lambda) * sigmoid(f64::from(p.score()) / f64::from(target.k))
            + f64::from(1.0 - target.lambda) * f64::from(p.result());
        let e = sigmoid(out) - t;
        total += e * e;
    }
    total / positions.len() as f64
}

/// Every accumulator of `positions` in `f64`.
fn accumulators(params: &[f64], net: &Network, positions: &[PackedPosition]) -> Vec<f64> {
    let layout = net.layout();
    let h = layout.hidden;
    let fb = layout.range(ParamGroup::FeatureBiases).start;
    let mut out = Vec::new();
    for p in positions {
        let (stm, other) = p.features(net.features());
        for active in [&stm, &other] {
            for j in 0..h {
                let row = |i: u16| {
                    let shared = layout.factor_row(usize::from(i));
                    params[usize::from(i) * h + j] + shared.map_or(0.0, |r| params[r * h + j])
                };
                out.push(params[fb + j] + active.iter().map(|&i| row(i)).sum::<f64>());
            }
        }
    }
    out
}

fn check_gradient(activation: Activation, features: FeatureSet, factorised: bool) {
    let buckets = OutputBuckets::PieceCount(3);
    let games: Vec<Game> = (40..46)
        .map(|s| synthetic_games::random_game(s, 160))
        .collect();
    let all = packed_positions(&games, buckets, &Filters::keep_all());
    // Eight positions spread over the games, several buckets, scores and results.
    let positions: Vec<PackedPosition> =
        all.iter().step_by(all.len() / 8).copied().take(8).collect();
    let used_buckets: std::collections::HashSet<_> = positions.iter().map(|p| p.bucket()).collect();
    assert!(
        used_buckets.len() >= 2,
        "the sample should use several buckets"
    );
    let mut net = if factorised {
        let mut net = Network::factorised(features, 32, buckets, activation, 7).unwrap();
        // The buckets' own rows start at zero: give them values so that both parts count.
        let own = 0..net.layout().inputs * 32;
        let mut rng = SplitMix64::new(9);
        for w in &mut net.params_mut()[own] {
            *w = (rng.unit_f32() * 2.0 - 1.0) * 0.05;
        }
        net
    } else {
        Network::with_features(features, 32, buckets, activation, 7)
    };
    // Biases spread the accumulators over both clip points, so all three activation regions
    // (below 0, inside, above 1) are exercised.
    let fb = net.layout().range(ParamGroup::FeatureBiases);
    let mut rng = SplitMix64::new(4);
    for b in &mut net.params_mut()[fb] {
        *b = rng.unit_f32() * 1.6 - 0.4;
    }
    let ob = net.layout().range(ParamGroup::OutputBiases);
    for b in &mut net.params_mut()[ob] {
        *b = rng.unit_f32() - 0.5;
    }
    let target = Target {
        k: 300.0,
        lambda: 0.6,
    };
    let (loss, analytic) = gradient(&net, &positions, target);
    let params: Vec<f64> = net.params().iter().map(|&x| f64::from(x)).collect();
    assert!((reference_loss(&params, &net, &positions, target) - loss).abs() < 1e-6);

    // A finite difference is only valid away from the activation's kinks.
    const EPS: f64 = 1e-4;
    let acc = accumulators(&params, &net, &positions);
    assert!(acc.iter().any(|&a| a > 1.0) && acc.iter().any(|&a| a < 0.0));
    let near: Vec<f64> = acc
        .iter()
        .copied()
        .filter(|&a| a.abs() <= 2.0 * EPS || (a - 1.0).abs() <= 2.0 * EPS)
        .collect();
    assert!(
        near.is_empty(),
        "accumulators on a kink {near:?}; pick other seeds"
    );

    let mut active_rows = std::collections::BTreeSet::new();
    for p in &positions {
        let (a, b) = p.features(net.features());
        for i in a.iter().chain(b.iter()).map(|&i| usize::from(i)) {
            active_rows.insert(i);
            active_rows.extend(net.layout().factor_row(i));
        }
    }
    if factorised {
        assert!(active_rows.iter().any(|&r| r >= net.layout().inputs));
    }
    let h = net.hidden();
    let mut checked = [0usize; 4];
    for (g, group) in ParamGroup::ALL.into_iter().enumerate() {
        let range = net.layout().range(group);
        for idx in range {
            if group == ParamGroup::FeatureWeights && !active_rows.contains(&(idx / h)) {
                // Inputs no position uses have exactly zero gradient.
                assert_eq!(analytic[idx], 0.0, "inactive input {}", idx / h);
                continue;
            }
            let mut p = params.clone();
            p[idx] = params[idx] + EPS;
            let up = reference_loss(&p, &net, &positions, target);
            p[idx] = params[idx] - EPS;
            let down = reference_loss(&p, &net, &positions, target);
            let numeric = (up - down) / (2.0 * EPS);
            let a = f64::from(analytic[idx]);
            let tolerance = 1e-3 * numeric.abs().max(a.abs()) + 2e-7;
            assert!(
                (a - numeric).abs() <= tolerance,
                "{group:?}[{idx}]: analytic {a:e}, numeric {numeric:e}"
            );
            checked[g] += 1;
        }
    }
    assert!(checked.iter().all(|&c| c > 0), "{checked:?}");
    assert_eq!(checked[1], 32);
    assert_eq!(checked[2], 3 * 64);
    assert_eq!(checked[3], 3);
}

#[test]
fn screlu_gradients_match_finite_differences_in_every_parameter_group() {
    check_gradient(Activation::Screlu, FeatureSet::PieceSquare, false);
}

#[test]
fn king_bucket_gradients_match_finite_differences_in_every_parameter_group() {
    check_gradient(Activation::Screlu, FeatureSet::KingBuckets, false);
}

#[test]
fn factorised_king_bucket_gradients_match_finite_differences_in_every_parameter_group() {
    check_gradient(Activation::Screlu, FeatureSet::KingBuckets, true);
}

#[test]
fn factorised_attack_bucket_gradients_match_finite_differences_in_every_parameter_group() {
    check_gradient(Activation::Screlu, FeatureSet::AttackBuckets, true);
}

/// A fresh factorised net is one piece-square net in every king bucket (its shared block, seen
/// from a general on the d- or e-file: mirrored while the general stands on the f-file), and
/// folding the shared block into the buckets keeps the function: the folded net (the one a net
/// file holds) evaluates every position as the factorised one does.
#[test]
fn a_folded_factorised_net_is_the_same_function() {
    let buckets = OutputBuckets::PieceCount(2);
    let fresh =
        Network::factorised(FeatureSet::KingBuckets, 32, buckets, Activation::Screlu, 5).unwrap();
    assert!(
        Network::factorised(FeatureSet::PieceSquare, 32, buckets, Activation::Screlu, 5).is_none()
    );
    let games: Vec<Game> = (0..6)
        .map(|s| synthetic_games::random_game(300 + s, 150))
        .collect();
    let positions: Vec<Position> = games
        .iter()
        .flat_map(|g| g.positions().map(|p| p.position))
        .collect();
    assert!(positions.len() > 300);

    // The piece-square net whose weights are the shared block.
    let mut shared = Network::zeroed(32, buckets, Activation::Screlu);
    let layout = fresh.layout().clone();
    let block = layout.inputs * 32..layout.range(ParamGroup::FeatureWeights).end;
    shared.params_mut()[..block.len()].copy_from_slice(&fresh.params()[block]);
    for group in [
        ParamGroup::FeatureBiases,
        ParamGroup::OutputWeights,
        ParamGroup::OutputBiases,
    ] {
        let to = shared.layout().range(group);
        shared.params_mut()[to].copy_from_slice(fresh.group(group));
    }
    let unmirrored = |pos: &Position| {
        [Color::Red, Color::Black].into_iter().all(|c| {
            FeatureSet::KingBuckets
                .mapping(c, Anchor::with_general(pos.general_square(c)))
                .is_multiple_of(2)
        })
    };
    let mut compared = 0;
    for pos in positions.iter().filter(|p| unmirrored(p)) {
        let (a, b) = (fresh.output_position(pos), shared.output_position(pos));
        assert_eq!(a.to_bits(), b.to_bits(), "{}", pos.to_fen());
        compared += 1;
    }
    assert!(compared > 100, "{compared}");

    let mut net = fresh;
    let own = 0..net.layout().inputs * 32;
    let mut rng = SplitMix64::new(12);
    for w in &mut net.params_mut()[own] {
        *w = (rng.unit_f32() * 2.0 - 1.0) * 0.1;
    }
    let (folded, clamped) = net.folded(1.98);
    assert_eq!(clamped, 0);
    assert!(!folded.is_factorised());
    assert_eq!(folded.layout().factor_rows, 0);
    let mut differ = 0;
    for pos in &positions {
        let (a, b) = (net.output_position(pos), folded.output_position(pos));
        assert!((a - b).abs() <= 1e-5, "{}: {a} vs {b}", pos.to_fen());
        differ += usize::from(shared.output_position(pos) != a);
    }
    assert!(differ > 0, "the buckets' own rows change the function");
    // Sums beyond the bound are clamped and counted.
    let (_, clamped) = net.folded(0.05);
    assert!(clamped > 0);
}

#[test]
fn crelu_gradients_match_finite_differences_in_every_parameter_group() {
    check_gradient(Activation::Crelu, FeatureSet::PieceSquare, false);
}

#[test]
fn k_fitting_recovers_a_known_k() {
    for true_k in [150.0f64, 400.0, 900.0] {
        let mut rng = SplitMix64::new(true_k as u64);
        let samples: Vec<(i32, f32)> = (0..400_000)
            .map(|_| {
                let score = rng.below(4001) as i32 - 2000;
                let p = 1.0 / (1.0 + (-f64::from(score) / true_k).exp());
                (score, if rng.unit_f64() < p { 1.0 } else { 0.0 })
            })
            .collect();
        let fit = fit_k(samples.iter().copied()).unwrap();
        assert!(
            (fit.k / true_k - 1.0).abs() < 0.03,
            "true K {true_k}, fitted {}",
            fit.k
        );
        assert_eq!(fit.positions, 400_000);
    }
    assert!(fit_k(std::iter::empty()).is_none());
    assert!(fit_k([(0, 1.0f32), (0, 0.0)]).is_none());
}

#[test]
fn loss_falls_on_material_labels() {
    let dir = Scratch::new("falls");
    let data = dir.path("games.xqg");
    write_games(&data, 0..160, 240);
    let out = dir.path("net.nnue");
    let a = args(&[
        data.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--hidden",
        "32",
        "--epochs",
        "8",
        "--batch-size",
        "256",
        "--lr",
        "0.005",
        "--lambda",
        "1",
        "--k",
        "400",
        "--min-ply",
        "0",
        "--validation",
        "0.1",
        "--threads",
        "2",
    ]);
    let report = run(&a).unwrap();
    assert_eq!(report.eval_scale, 400);
    assert!(report.validation_games > 0 && report.validation_positions > 0);

    // The loss of always predicting one half, on the same validation positions.
    let load_mirrored = |mirror: bool| {
        let options = LoadOptions::new(
            a.filters(),
            a.output_buckets(),
            a.validation,
            a.seed,
            mirror,
        );
        load(&a.data, &options, &|_| {}).unwrap()
    };
    let loaded = load_mirrored(false);
    assert_eq!(loaded.validation.len(), report.validation_positions);

    // Mirroring adds each training position's mirror image right after it, and leaves the
    // validation positions alone.
    let mirrored = load_mirrored(true);
    assert_eq!(mirrored.validation, loaded.validation);
    assert_eq!(mirrored.train.len(), 2 * loaded.train.len());
    for (pair, original) in mirrored.train.chunks(2).zip(&loaded.train) {
        assert_eq!((pair[0], pair[1]), (*original, original.mirrored_files()));
    }

    let target = Target {
        k: 400.0,
        lambda: 1.0,
    };
    let baseline: f64 = loaded
        .validation
        .iter()
        .map(|p| f64::from((0.5 - target.of(p)).powi(2)))
        .sum::<f64>()
        / loaded.validation.len() as f64;
    let first = &report.epochs[0];
    let last = report.epochs.last().unwrap();
    let final_validation = last.validation_loss.unwrap();
    assert!(
        last.train_loss < first.train_loss / 2.0,
        "{:?}",
        report.epochs
    );
    assert!(
        final_validation < baseline / 10.0,
        "validation {final_validation} vs constant guess {baseline}"
    );
}

fn small_run_args(data: &Path, out: &Path, extra: &[&str]) -> Args {
    let mut words = vec![
        data.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--hidden",
        "32",
        "--buckets",
        "2",
        "--epochs",
        "3",
        "--batch-size",
        "512",
        "--shards",
        "4",
        "--min-ply",
        "4",
        "--lr",
        "0.003",
        "--save-every",
        "0",
    ];
    words.extend_from_slice(extra);
    args(&words)
}

#[test]
fn the_same_seed_gives_the_same_bytes_whatever_the_thread_count() {
    let dir = Scratch::new("determinism");
    let data = dir.path("games.xqg");
    write_games(&data, 0..60, 200);
    let out = dir.path("net.nnue");
    let mut bytes = Vec::new();
    for threads in ["1", "2", "3"] {
        run(&small_run_args(&data, &out, &["--threads", threads])).unwrap();
        bytes.push(std::fs::read(&out).unwrap());
    }
    assert_eq!(bytes[0], bytes[1]);
    assert_eq!(bytes[0], bytes[2]);
    run(&small_run_args(&data, &out, &["--seed", "2"])).unwrap();
    assert_ne!(std::fs::read(&out).unwrap(), bytes[0]);
}

#[test]
fn a_resumed_run_ends_where_an_uninterrupted_one_does() {
    let dir = Scratch::new("resume");
    let data = dir.path("games.xqg");
    write_games(&data, 0..40, 200);
    let straight = dir.path("straight.nnue");
    let step = [
        "--lr-schedule",
        "step",
        "--lr-step-epochs",
        "1",
        "--lr-gamma",
        "0.5",
    ];
    run(&small_run_args(&data, &straight, &step)).unwrap();

    let halves = dir.path("halves.nnue");
    let mut first = small_run_args(&data, &halves, &step);
    first.epochs = 2;
    run(&first).unwrap();
    let mut second = small_run_args(&data, &halves, &step);
    second.resume = Some(second.checkpoint_path());
    let report = run(&second).unwrap();
    assert_eq!(report.epochs.len(), 3);
    assert_eq!(
        report.epochs[0].seconds, 0.0,
        "restored epochs are reported"
    );

    let a = NetFile::parse(&std::fs::read(&straight).unwrap()).unwrap();
    let b = NetFile::parse(&std::fs::read(&halves).unwrap()).unwrap();
    assert_eq!(a.feature_weights, b.feature_weights);
    assert_eq!(a.feature_biases, b.feature_biases);
    assert_eq!(a.output_weights, b.output_weights);
    assert_eq!(a.output_biases, b.output_biases);
    assert_eq!(a.header.eval_scale, b.header.eval_scale);

    // Streaming, in chunks smaller than the data (5 chunks of 1024 positions an epoch): cut
    // after epoch 1 and resumed, it ends on the bytes of the uninterrupted streamed run.
    let chunked = [&step[..], &["--stream", "--chunk", "1024"]].concat();
    let streamed = dir.path("streamed.nnue");
    let straight_stream = run(&small_run_args(&data, &streamed, &chunked)).unwrap();
    assert!(straight_stream.train_positions > 4 * 1024);
    let stream_halves = dir.path("stream-halves.nnue");
    let mut first = small_run_args(&data, &stream_halves, &chunked);
    first.epochs = 1;
    run(&first).unwrap();
    let mut second = small_run_args(&data, &stream_halves, &chunked);
    second.resume = Some(second.checkpoint_path());
    let resumed = run(&second).unwrap();
    assert_eq!(resumed.epochs.len(), 3);
    assert_eq!(weights_hash(&streamed), weights_hash(&stream_halves));
    assert_eq!(
        resumed.epochs.last().unwrap().validation_loss,
        straight_stream.epochs.last().unwrap().validation_loss
    );
    // Smaller chunks shuffle less widely: another run than the in-memory one.
    assert_ne!(weights_hash(&streamed), weights_hash(&straight));

    // An in-memory checkpoint resumed by streaming in one chunk ends as the in-memory run.
    let mixed = dir.path("mixed.nnue");
    let mut first = small_run_args(&data, &mixed, &step);
    first.epochs = 2;
    run(&first).unwrap();
    let whole = [&step[..], &["--stream", "--chunk", "100000000"]].concat();
    let mut second = small_run_args(&data, &mixed, &whole);
    second.resume = Some(second.checkpoint_path());
    run(&second).unwrap();
    assert_eq!(weights_hash(&mixed), weights_hash(&straight));

    // A checkpoint only resumes the same architecture and data.
    let mut wrong = small_run_args(&data, &halves, &["--hidden", "64"]);
    wrong.resume = Some(second.checkpoint_path());
    assert!(matches!(run(&wrong), Err(TrainError::Checkpoint { .. })));
    let mut other_seed = small_run_args(&data, &halves, &["--seed", "9"]);
    other_seed.resume = Some(second.checkpoint_path());
    assert!(matches!(
        run(&other_seed),
        Err(TrainError::Checkpoint { .. })
    ));
    let mut unmirrored = small_run_args(&data, &halves, &["--no-mirror"]);
    unmirrored.resume = Some(second.checkpoint_path());
    assert!(matches!(
        run(&unmirrored),
        Err(TrainError::Checkpoint { .. })
    ));
    // Nor a factorised run a plain one, and --factorise needs king buckets.
    let king = ["--features", "king-bucket"];
    let kb = dir.path("kb.nnue");
    let mut plain = small_run_args(&data, &kb, &king);
    plain.epochs = 1;
    run(&plain).unwrap();
    let mut factorised = small_run_args(&data, &kb, &[&king[..], &["--factorise"]].concat());
    factorised.resume = Some(factorised.checkpoint_path());
    let err = run(&factorised).unwrap_err();
    assert!(err.to_string().contains("factorised"), "{err}");
    let err = run(&small_run_args(&data, &kb, &["--factorise"])).unwrap_err();
    assert!(matches!(err, TrainError::BadArgs(_)), "{err}");
    assert!(err.to_string().contains("--factorise needs"), "{err}");
    // A piece-count bucket count with the piece-configuration scheme is refused, not ignored
    // (small_run_args gives --buckets 2).
    let config = ["--output-buckets", "piece-configuration"];
    let err = run(&small_run_args(&data, &kb, &config)).unwrap_err();
    assert!(matches!(err, TrainError::BadArgs(_)), "{err}");
    assert!(err.to_string().contains("--buckets 2"), "{err}");
}

#[test]
fn corrupt_or_missing_data_is_a_clear_error() {
    let dir = Scratch::new("corrupt");
    let data = dir.path("games.xqg");
    write_games(&data, 0..3, 100);
    let bytes = std::fs::read(&data).unwrap();
    std::fs::write(&data, &bytes[..bytes.len() - 5]).unwrap();
    let out = dir.path("net.nnue");
    let err = run(&small_run_args(&data, &out, &[])).unwrap_err();
    match &err {
        TrainError::Data { path, error } => {
            assert_eq!(path, &data);
            assert_eq!(error.offset, bytes.len() as u64 - 5);
        }
        other => panic!("{other}"),
    }
    assert!(err.to_string().contains("games.xqg"), "{err}");
    assert!(!out.exists(), "no net is written");
    let missing = dir.path("missing.xqg");
    assert!(matches!(
        run(&small_run_args(&missing, &out, &[])),
        Err(TrainError::Read { .. })
    ));
    // An output folder that does not exist is refused before any work.
    let nowhere = dir.path("no-such-folder").join("net.nnue");
    match run(&small_run_args(&data, &nowhere, &[])) {
        Err(TrainError::BadArgs(m)) => assert!(m.contains("no-such-folder"), "{m}"),
        other => panic!("{other:?}"),
    }
    // Filters that keep nothing.
    write_games(&data, 0..3, 100);
    assert!(matches!(
        run(&small_run_args(&data, &out, &["--min-ply", "100000"])),
        Err(TrainError::NoPositions)
    ));
}

/// The evaluation of `pos` by a net file, computed from the documented semantics with the stored
/// integers: `acc = b + Σ W` (checked to fit an `i16`), `v = clamp(acc, 0, QA)`, then
/// `out = (Σ v·(v·w) / QA + bias) / (QA·QB)` for SCReLU (`v·w` checked to fit an `i16`) or
/// `(Σ v·w + bias) / (QA·QB)` for CReLU; `eval = out · eval_scale`.
fn quantised_eval(net: &NetFile, pos: &Position) -> f64 {
    let h = net.header.hidden;
    let (qa, qb) = (i64::from(net.header.qa), i64::from(net.header.qb));
    let stm = pos.side_to_move();
    let bucket = net.header.buckets.bucket(pos);
    let w = &net.output_weights[bucket * 2 * h..(bucket + 1) * 2 * h];
    let mut sum: i64 = 0;
    for (half, perspective) in [stm, stm.opponent()].into_iter().enumerate() {
        let active = net.header.features.active(pos, perspective);
        for j in 0..h {
            let mut acc = i32::from(net.feature_biases[j]);
            for &i in &active {
                acc += i32::from(net.feature_weights[usize::from(i) * h + j]);
            }
            assert!(
                i16::try_from(acc).is_ok(),
                "accumulator {acc} overflows i16"
            );
            let v = i64::from(acc).clamp(0, qa);
            let wj = i64::from(w[half * h + j]);
            match net.header.architecture {
                Architecture::PerspectiveScrelu => {
                    assert!(
                        i16::try_from(v * wj).is_ok(),
                        "v·w {} overflows i16",
                        v * wj
                    );
                    sum += v * (v * wj);
                }
                Architecture::PerspectiveCrelu => sum += v * wj,
            }
        }
    }
    let bias = f64::from(net.output_biases[bucket]);
    let out = match net.header.architecture {
        Architecture::PerspectiveScrelu => (sum as f64 / qa as f64 + bias) / (qa * qb) as f64,
        Architecture::PerspectiveCrelu => (sum as f64 + bias) / (qa * qb) as f64,
    };
    out * f64::from(net.header.eval_scale)
}

/// The float evaluation of `pos` by `net` (in `f64` from its `f32` weights, engine units at scale
/// `k`) and a bound on how far the quantised net `file` may be from it. With `â`, `ŵ`, `b̂` the
/// dequantised activations, output weights and bias:
///
/// ```text
/// out_q - out_f = Σ (â - a)·ŵ + Σ a·(ŵ - w) + (b̂ - b)
/// |â - a| <= L·|acc_q - acc_f|        (L = 2 for SCReLU, 1 for CReLU: Lipschitz constants)
/// |eval_q - eval_f| <= k·(Σ L·|Δacc|·|ŵ| + Σ a·|Δw| + |Δb|)
/// ```
///
/// Every rounding is accounted for and nothing else: a quantised pass that indexed, ordered or
/// scaled anything differently from the float net would break the bound.
fn float_eval_and_bound(net: &Network, file: &NetFile, pos: &Position, k: f64) -> (f64, f64) {
    let h = net.hidden();
    let layout = net.layout();
    let params = net.params();
    let (qa, qb) = (f64::from(file.header.qa), f64::from(file.header.qb));
    let lipschitz = match net.activation() {
        Activation::Screlu => 2.0,
        Activation::Crelu => 1.0,
    };
    let act = |x: f64| {
        let c = x.clamp(0.0, 1.0);
        match net.activation() {
            Activation::Screlu => c * c,
            Activation::Crelu => c,
        }
    };
    let stm = pos.side_to_move();
    let bucket = net.buckets().bucket(pos);
    let ow = layout.range(ParamGroup::OutputWeights).start + bucket * 2 * h;
    let ob = layout.range(ParamGroup::OutputBiases).start + bucket;
    let fb = layout.range(ParamGroup::FeatureBiases).start;
    let mut out = f64::from(params[ob]);
    let mut bound =
        (f64::from(file.output_biases[bucket]) / (qa * qb) - f64::from(params[ob])).abs();
    for (half, perspective) in [stm, stm.opponent()].into_iter().enumerate() {
        let active = net.features().active(pos, perspective);
        for j in 0..h {
            let mut acc_f = f64::from(params[fb + j]);
            let mut acc_q = f64::from(file.feature_biases[j]);
            for &i in &active {
                acc_f += f64::from(params[usize::from(i) * h + j]);
                acc_q += f64::from(file.feature_weights[usize::from(i) * h + j]);
            }
            let w = f64::from(params[ow + half * h + j]);
            let w_q = f64::from(file.output_weights[bucket * 2 * h + half * h + j]) / qb;
            out += act(acc_f) * w;
            bound +=
                lipschitz * (acc_q / qa - acc_f).abs() * w_q.abs() + act(acc_f) * (w_q - w).abs();
        }
    }
    (out * k, bound * k)
}

#[test]
fn the_exported_net_parses_and_its_quantised_eval_matches_the_float_net() {
    let dir = Scratch::new("export");
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/synthetic-8.xqg");
    for (activation, features, factorise, configuration) in [
        ("screlu", "piece-square", false, false),
        ("crelu", "piece-square", false, false),
        ("screlu", "king-bucket", false, false),
        ("screlu", "king-bucket", true, false),
        ("screlu", "attack-bucket", false, true),
        // Factorised, as the attack-bucket nets are trained: the folded shared block too.
        ("screlu", "attack-bucket", true, false),
    ] {
        let out = dir.path(&format!(
            "{activation}-{features}-{factorise}-{configuration}.nnue"
        ));
        let mut extra = vec![
            "--activation",
            activation,
            "--features",
            features,
            "--epochs",
            "4",
            "--validation",
            "0",
            "--k",
            "410",
        ];
        if factorise {
            extra.push("--factorise");
        }
        // small_run_args asks for 2 piece-count buckets; piece-configuration takes no count.
        let expected_buckets = if configuration {
            extra.extend(["--output-buckets", "piece-configuration", "--buckets", "1"]);
            OutputBuckets::PieceConfiguration
        } else {
            OutputBuckets::PieceCount(2)
        };
        let a = small_run_args(&committed, &out, &extra);
        let report = run(&a).unwrap();
        let bytes = std::fs::read(&out).unwrap();
        let file = NetFile::parse(&bytes).unwrap();
        assert_eq!(file.header.eval_scale, 410);
        assert_eq!(file.header.hidden, 32);
        assert_eq!(file.header.buckets, expected_buckets);
        assert_eq!((file.header.qa, file.header.qb), (255, 64));
        assert_eq!(
            file.header.architecture.name(),
            a.activation.architecture().name()
        );
        assert!(file.header.description.starts_with("cotuong train "));
        assert!(file.header.description.contains(&a.command_line()));
        assert!(file.header.description.contains("K given, eval scale 410"));
        assert!(file.header.description.contains("fnv1a64"));
        assert_eq!(file.weights_hash(), report.net_hash);
        assert_eq!(file.header.features, a.features);
        assert!(file
            .feature_weights
            .iter()
            .chain(&file.feature_biases)
            .all(|w| w.abs() <= 505));
        assert!(file.output_weights.iter().all(|w| w.abs() <= 127));

        // The float net is in the checkpoint.
        let ckpt = Checkpoint::parse(&std::fs::read(a.checkpoint_path()).unwrap(), 0.0).unwrap();
        assert_eq!(ckpt.epochs_done, 4);
        assert_eq!(ckpt.net.is_factorised(), factorise);
        assert_eq!(
            file.header
                .description
                .contains("factorised: shared block folded"),
            factorise
        );
        assert_eq!(
            quantise(&ckpt.net, 64, 410, file.header.description.clone()).unwrap(),
            file
        );
        // The file holds the folded net; the factorised one is the same function.
        let (float_net, _) = ckpt.net.folded(1.98);
        let (mut worst, mut sum, mut count) = (0.0f64, 0.0, 0);
        for g in (0..12).map(|s| synthetic_games::random_game(1000 + s, 150)) {
            for p in g.positions() {
                let (float, bound) = float_eval_and_bound(&float_net, &file, &p.position, 410.0);
                let f32_float = f64::from(ckpt.net.output_position(&p.position)) * 410.0;
                assert!(
                    (float - f32_float).abs() < 1e-3,
                    "{activation} {features} factorised {factorise}: f32 and f64 float passes agree"
                );
                let quantised = quantised_eval(&file, &p.position);
                let diff = (float - quantised).abs();
                // 1e-6 engine units of slack for the f64 arithmetic itself.
                assert!(
                    diff <= bound + 1e-6,
                    "{activation} {features} {factorise} {}: quantised {quantised}, float {float}, bound {bound}",
                    p.position.to_fen()
                );
                worst = worst.max(diff);
                sum += diff;
                count += 1;
            }
        }
        assert!(count > 1000);
        eprintln!(
            "{activation} {features} factorised {factorise}: |quantised - float| mean {:.3}, worst {worst:.3} engine units over {count} positions",
            sum / count as f64
        );
    }
}

/// Writes `games` to `path`, gzip-compressed.
fn write_gzip(path: &Path, games: &[Game]) {
    use std::io::Write;
    let mut bytes = Vec::new();
    for g in games {
        g.encode_into(&mut bytes);
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&bytes).unwrap();
    std::fs::write(path, gz.finish().unwrap()).unwrap();
}

#[test]
fn streaming_yields_the_positions_of_the_in_memory_loader() {
    let dir = Scratch::new("stream-load");
    let plain = dir.path("a.xqg");
    write_games(&plain, 0..25, 180);
    let compressed = dir.path("b.xqg.gz");
    let games: Vec<Game> = (100..120)
        .map(|s| synthetic_games::random_game(s, 220))
        .collect();
    write_gzip(&compressed, &games);
    let paths = vec![plain, compressed];
    for (validation, mirror) in [(0.0, false), (0.2, true), (0.3, false)] {
        let options = LoadOptions::new(
            Filters::default(),
            OutputBuckets::PieceCount(3),
            validation,
            5,
            mirror,
        );
        let memory = load(&paths, &options, &|_| {}).unwrap();
        let scanned = scan(&paths, &options, &|_| {}).unwrap();
        // The same files, split, counts and validation positions.
        assert_eq!(scanned.data.files, memory.files);
        assert_eq!(scanned.data.validation, memory.validation);
        assert!(scanned.data.train.is_empty());
        assert_eq!(scanned.train_positions as usize, memory.train.len());
        assert_eq!(scanned.scores.positions() as usize, memory.train.len());
        assert_eq!(
            fit_k(scanned.scores.samples()),
            fit_k(memory.train.iter().map(|p| (p.score(), p.result())))
        );
        if validation > 0.0 {
            assert!(memory.validation_games() > 0 && !memory.validation.is_empty());
        }
        // Chunk by chunk, in the same order: one chunk holding everything, chunks that cut
        // games and mirror pairs, and single positions.
        for chunk in [usize::MAX / 2, memory.train.len(), 1000, 37, 1] {
            let mut chunks = Vec::new();
            stream_chunks(&scanned.data.files, &options, chunk, |c| {
                chunks.push(c);
                true
            })
            .unwrap();
            assert!(chunks.iter().all(|c| c.len() <= chunk && !c.is_empty()));
            assert!(chunks[..chunks.len() - 1].iter().all(|c| c.len() == chunk));
            let joined: Vec<PackedPosition> = chunks.concat();
            assert_eq!(joined, memory.train, "chunk {chunk}");
        }
        // Stopping early reads no further.
        let mut taken = 0;
        stream_chunks(&scanned.data.files, &options, 10, |_| {
            taken += 1;
            taken < 3
        })
        .unwrap();
        assert_eq!(taken, 3);
    }
    // A file that changed between the passes is refused.
    let options = LoadOptions::new(Filters::default(), OutputBuckets::Single, 0.0, 1, true);
    let scanned = scan(&paths, &options, &|_| {}).unwrap();
    write_games(&paths[0], 0..24, 180);
    assert!(matches!(
        stream_chunks(&scanned.data.files, &options, 1000, |_| true),
        Err(TrainError::Read { .. })
    ));
}

#[test]
fn a_streamed_run_in_one_chunk_is_the_in_memory_run() {
    let dir = Scratch::new("stream-run");
    let data = dir.path("games.xqg");
    write_games(&data, 0..30, 200);
    let memory = dir.path("memory.nnue");
    let streamed = dir.path("streamed.nnue");
    let a = run(&small_run_args(&data, &memory, &["--validation", "0.2"])).unwrap();
    let b = run(&small_run_args(
        &data,
        &streamed,
        &["--validation", "0.2", "--stream", "--chunk", "1000000"],
    ))
    .unwrap();
    assert_eq!(
        (a.train_positions, a.validation_positions, a.eval_scale),
        (b.train_positions, b.validation_positions, b.eval_scale)
    );
    assert_eq!(a.k_fit, b.k_fit);
    assert_eq!(losses(&a), losses(&b));
    let (na, nb) = (
        NetFile::parse(&std::fs::read(&memory).unwrap()).unwrap(),
        NetFile::parse(&std::fs::read(&streamed).unwrap()).unwrap(),
    );
    assert_eq!(na.weights_hash(), nb.weights_hash());
    assert!(nb.header.description.contains(" --stream"));

    // Streamed in small chunks, the result does not depend on the thread count either.
    let mut bytes = Vec::new();
    for threads in ["1", "2"] {
        let r = run(&small_run_args(
            &data,
            &streamed,
            &["--stream", "--chunk", "700", "--threads", threads],
        ))
        .unwrap();
        assert!(r.epochs.iter().all(|e| e.train_loss.is_finite()));
        bytes.push(std::fs::read(&streamed).unwrap());
    }
    assert!(bytes[0] == bytes[1], "the same bytes with 1 and 2 threads");
}

/// The weights hash of a net file (its description names the run, so bytes differ between
/// runs that differ only in paths or options such as --stream).
fn weights_hash(path: &Path) -> u64 {
    NetFile::parse(&std::fs::read(path).unwrap())
        .unwrap()
        .weights_hash()
}

fn losses(r: &nnue_train::train::TrainReport) -> Vec<(f64, Option<f64>)> {
    r.epochs
        .iter()
        .map(|e| (e.train_loss, e.validation_loss))
        .collect()
}

#[test]
fn a_validation_file_is_held_out_and_never_trained_on() {
    let dir = Scratch::new("validation-file");
    let data = dir.path("games.xqg");
    let games = write_games(&data, 0..40, 200);
    // The last 10 games, cut by the tool; the data file still holds them.
    let validation = dir.path("validation.xqg.gz");
    let rest = dir.path("rest.xqg");
    let h = holdout(&data, 10, &validation, Some(&rest)).unwrap();
    assert_eq!((h.games, h.validation_games), (40, 10));
    let mut rest_bytes = Vec::new();
    for g in &games[..30] {
        g.encode_into(&mut rest_bytes);
    }
    assert_eq!(std::fs::read(&rest).unwrap(), rest_bytes);
    let read_back = nnue_train::train::read_data_file(&validation).unwrap();
    let held: Vec<Game> = nnue_train::data::GameReader::new(&read_back[..])
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(held, games[30..]);
    assert_eq!(h.validation_bytes, read_back.len() as u64);
    // More games asked for than there are: all of them.
    let all = dir.path("all.xqg");
    assert_eq!(holdout(&data, 99, &all, None).unwrap().validation_games, 40);

    let out = dir.path("net.nnue");
    let with_file = |extra: &[&str]| {
        let mut words = vec!["--validation-file", validation.to_str().unwrap()];
        words.extend_from_slice(extra);
        run(&small_run_args(&data, &out, &words)).unwrap()
    };
    let report = with_file(&[]);
    let filters = small_run_args(&data, &out, &[]).filters();
    let buckets = OutputBuckets::PieceCount(2);
    assert_eq!(report.validation_games, 10);
    assert_eq!(report.excluded_games, 10);
    assert_eq!(
        report.games, 50,
        "40 data games and 10 validation games read"
    );
    assert_eq!(
        report.validation_positions,
        packed_positions(&games[30..], buckets, &filters).len()
    );
    assert_eq!(
        report.train_positions,
        2 * packed_positions(&games[..30], buckets, &filters).len()
    );
    let net = std::fs::read(&out).unwrap();
    let description = NetFile::parse(&net).unwrap().header.description;
    assert!(description.contains("--validation-file "), "{description}");
    assert!(description.contains("\nvalidation "), "{description}");
    assert!(!description.contains("--validation 0"), "{description}");

    // Training on the rest alone is the same run: the held-out games were left out.
    let mut on_rest = small_run_args(&rest, &out, &[]);
    on_rest.validation_file = vec![validation.clone()];
    let r = run(&on_rest).unwrap();
    assert_eq!(r.excluded_games, 0);
    assert_eq!(losses(&r), losses(&report));
    assert_eq!(
        weights_hash(&out),
        NetFile::parse(&net).unwrap().weights_hash()
    );

    // Streaming uses the same validation positions.
    let streamed = with_file(&["--stream", "--chunk", "1000000"]);
    assert_eq!(losses(&streamed), losses(&report));

    // The held-out games' keys are the validation file's.
    let keys: std::collections::HashSet<u64> = games[30..].iter().map(game_key).collect();
    assert_eq!(keys.len(), 10);
}

#[test]
fn a_net_files_validation_loss_at_its_own_k_is_the_trainers() {
    let dir = Scratch::new("validate");
    let data = dir.path("games.xqg");
    write_games(&data, 0..40, 200);
    let validation = dir.path("validation.xqg");
    write_games(&validation, 100..110, 200);
    let out = dir.path("net.nnue");
    let args = small_run_args(
        &data,
        &out,
        &["--validation-file", validation.to_str().unwrap()],
    );
    // The engine runs only its supported widths.
    let args = Args {
        hidden: 256,
        ..args
    };
    let report = run(&args).unwrap();
    let trained = report.epochs.last().unwrap().validation_loss.unwrap();

    let set = ValidationSet::load(std::slice::from_ref(&validation), &args.filters()).unwrap();
    assert_eq!(set.len(), report.validation_positions);
    assert_eq!(set.games, 10);
    let own = f64::from(report.eval_scale);
    // At the run's own lambda, so that the targets are the trainer's.
    let measured = net_loss(&out, &set, 2.0 * own, f64::from(args.lambda)).unwrap();
    assert_eq!(measured.eval_scale, report.eval_scale);
    // The quantised net against the float one the trainer measured: equal up to rounding.
    let gap = (measured.loss_at_own_scale - trained).abs();
    assert!(
        gap < 0.05 * trained,
        "own-scale loss {} against the trainer's {trained}",
        measured.loss_at_own_scale
    );
    // At twice the scale every target and prediction is nearer ½: a smaller loss.
    assert!(measured.loss < measured.loss_at_own_scale, "{measured:?}");

    // A file that is not a net is a clear error naming it.
    let err = net_loss(&validation, &set, own, 1.0)
        .unwrap_err()
        .to_string();
    assert!(err.contains("validation.xqg"), "{err}");
}
