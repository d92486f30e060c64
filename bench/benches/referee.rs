//! Cost of the repetition referee as the search pays it: `judge_cycle_with` on one cycle.
//!
//! Run: `cargo bench -p cotuong-bench --bench referee`. Two sets, reported per cycle:
//! - `axf`: the last cycle of each of the 33 cases of `engine-core/tests/data/axf-repetition.tsv`
//!   (checks, chases, offers, pins: the expensive cycles), under each rule set;
//! - `shuffles`: one quiet 4-ply cycle (each side moves a piece out and back) from each bench
//!   position, the common case inside the search.

use std::time::Duration;

use cotuong_bench::bench_positions;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use engine_core::{judge_cycle_with, Move, Position, RankBase, RuleOptions, RuleSet};

/// The AXF cases, in engine-core's test data (`engine-core/tests/data/README.md` gives the source).
const AXF_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../engine-core/tests/data/axf-repetition.tsv"
);

/// A repetition as the search meets it: the repeated position and the cycle leading back to it.
struct Cycle {
    end: Position,
    moves: Vec<Move>,
}

/// The last (shortest) cycle of every AXF case.
fn axf_cycles() -> Vec<Cycle> {
    let data =
        std::fs::read_to_string(AXF_PATH).unwrap_or_else(|e| panic!("cannot read {AXF_PATH}: {e}"));
    let mut out = Vec::new();
    for line in data.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let mut pos = Position::from_fen(fields[1]).expect("valid FEN");
        let mut keys = vec![pos.key()];
        let mut moves = Vec::new();
        for text in fields[2].split_whitespace() {
            let mv = pos.parse_move(text, RankBase::Zero).expect("legal move");
            pos.make_move(mv);
            keys.push(pos.key());
            moves.push(mv);
        }
        let n = moves.len();
        let len = (2..=n)
            .step_by(2)
            .find(|&len| keys[n - len] == pos.key())
            .expect("the final position repeats");
        out.push(Cycle {
            end: pos,
            moves: moves[n - len..].to_vec(),
        });
    }
    out
}

/// A quiet move of the side to move whose reverse is legal afterwards, with that reverse.
fn out_and_back(pos: &Position, skip: usize) -> Option<(Move, Move)> {
    pos.legal_moves()
        .iter()
        .filter(|m| pos.piece_at(m.to()).is_none())
        .filter_map(|&m| {
            let mut after = pos.clone();
            after.make_move(m);
            let back = Move::new(m.to(), m.from());
            // The reverse is played after the opponent's move; checking it here is enough for
            // the quiet pieces chosen below, and the cycle is verified at the end.
            after.make_null();
            after.is_legal(back).then_some((m, back))
        })
        .nth(skip)
}

/// One quiet 4-ply cycle from each bench position.
fn shuffle_cycles() -> Vec<Cycle> {
    let mut out = Vec::new();
    for start in bench_positions() {
        'search: for skip_a in 0..8 {
            let Some((a, a_back)) = out_and_back(&start, skip_a) else {
                break;
            };
            let mut pos = start.clone();
            pos.make_move(a);
            for skip_b in 0..8 {
                let Some((b, b_back)) = out_and_back(&pos, skip_b) else {
                    break;
                };
                let mut end = pos.clone();
                end.make_move(b);
                if !end.is_legal(a_back) {
                    continue;
                }
                end.make_move(a_back);
                if !end.is_legal(b_back) {
                    continue;
                }
                end.make_move(b_back);
                if end.key() == start.key() {
                    out.push(Cycle {
                        end,
                        moves: vec![a, b, a_back, b_back],
                    });
                    break 'search;
                }
            }
        }
    }
    out
}

fn judge_all(cycles: &[Cycle], options: &RuleOptions) -> usize {
    cycles
        .iter()
        .filter(|c| {
            judge_cycle_with(black_box(&c.end), black_box(&c.moves), options)
                != engine_core::CycleVerdict::Draw
        })
        .count()
}

fn referee(c: &mut Criterion) {
    let axf = axf_cycles();
    let shuffles = shuffle_cycles();
    assert!(!shuffles.is_empty(), "no quiet cycle found");
    let mut group = c.benchmark_group("judge_cycle");
    group.measurement_time(Duration::from_secs(4));
    for rule_set in [RuleSet::Vietnamese, RuleSet::Asian] {
        let options = RuleOptions::for_rule_set(rule_set);
        group.throughput(Throughput::Elements(axf.len() as u64));
        group.bench_function(format!("axf/{}", rule_set.name()), |b| {
            b.iter(|| judge_all(&axf, &options))
        });
        group.throughput(Throughput::Elements(shuffles.len() as u64));
        group.bench_function(format!("shuffles/{}", rule_set.name()), |b| {
            b.iter(|| judge_all(&shuffles, &options))
        });
    }
    group.finish();
}

criterion_group!(benches, referee);
criterion_main!(benches);
