//! The search's tunable parameters in one place: aspiration windows, pruning margins and depth
//! limits, reductions. Everything a tuner (SPSA) may want to move is named here; the search code
//! only refers to these names.

use once_cell::sync::Lazy;

/// Aspiration windows start at this half-width once the depth reaches [`ASPIRATION_MIN_DEPTH`].
pub const ASPIRATION_WINDOW: i32 = 24;
/// Shallower iterations use a full window.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
/// After a failed aspiration search the half-width grows by this fraction (1/n) of itself ...
pub const ASPIRATION_GROWTH_DIVISOR: i32 = 2;
/// ... and once it exceeds this the window opens fully.
pub const ASPIRATION_MAX_WINDOW: i32 = 1000;

/// Reverse futility pruning: depth limit.
pub const RFP_MAX_DEPTH: i32 = 7;
/// Reverse futility pruning: margin per ply of depth.
pub const RFP_MARGIN: i32 = 80;

/// Null-move pruning: minimum depth.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Null-move pruning: base reduction.
pub const NMP_BASE_REDUCTION: i32 = 3;
/// Null-move pruning: one more ply of reduction per this many plies of depth ...
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// ... and one more per this much of static eval above beta ...
pub const NMP_EVAL_DIVISOR: i32 = 200;
/// ... up to this many plies.
pub const NMP_EVAL_MAX_REDUCTION: i32 = 3;
/// Null-move verification search is done when the side to move has at most this many
/// chariots, horses and cannons (zugzwang-prone endings) ...
pub const NMP_VERIFY_MAX_PIECES: u32 = 2;
/// ... or at this depth and above.
pub const NMP_VERIFY_MIN_DEPTH: i32 = 12;
/// During a verification search null moves are off for this fraction (numerator / denominator)
/// of the reduced depth below the node.
pub const NMP_VERIFY_PLIES: (i32, i32) = (3, 4);

/// Internal iterative reduction: without a TT move, reduce nodes this deep by one ply.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Late move pruning applies up to this depth.
pub const LMP_MAX_DEPTH: i32 = 8;
/// Late move pruning: quiet moves beyond `LMP_BASE + depth²` are skipped (half as many when
/// the static eval is not improving).
pub const LMP_BASE: i32 = 3;

/// Futility pruning of quiet moves: depth limit (after reduction).
pub const FUTILITY_MAX_DEPTH: i32 = 7;
/// Futility pruning: base margin.
pub const FUTILITY_BASE: i32 = 120;
/// Futility pruning: margin per ply.
pub const FUTILITY_PER_DEPTH: i32 = 90;

/// SEE pruning of captures: depth limit.
pub const SEE_CAPTURE_MAX_DEPTH: i32 = 6;
/// SEE pruning of captures: allowed loss per ply of depth.
pub const SEE_CAPTURE_MARGIN: i32 = 100;
/// SEE pruning of quiet moves: depth limit.
pub const SEE_QUIET_MAX_DEPTH: i32 = 8;
/// SEE pruning of quiet moves: allowed loss per ply of depth.
pub const SEE_QUIET_MARGIN: i32 = 60;

/// Late move reductions: minimum depth.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Base reduction: `LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR` ...
pub const LMR_BASE: f64 = 0.8;
/// ... (see [`LMR_BASE`]).
pub const LMR_DIVISOR: f64 = 2.3;
/// History that changes the reduction by one ply.
pub const LMR_HISTORY_DIVISOR: i32 = 6_000;

/// History bonus of a cutoff at depth `d`: `QUADRATIC * d² + LINEAR * d`, at most `MAX`.
pub const HISTORY_BONUS_QUADRATIC: i32 = 16;
/// See [`HISTORY_BONUS_QUADRATIC`].
pub const HISTORY_BONUS_LINEAR: i32 = 32;
/// See [`HISTORY_BONUS_QUADRATIC`].
pub const HISTORY_BONUS_MAX: i32 = 2_000;

/// Quiescence delta pruning margin.
pub const QS_DELTA_MARGIN: i32 = 200;

/// `LMR[depth][move_number]`: the base late-move reduction.
static LMR: Lazy<[[i32; 64]; 64]> = Lazy::new(|| {
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR) as i32;
        }
    }
    t
});

/// The base late-move reduction of the `move_count`-th move at `depth`.
#[inline(always)]
pub fn lmr(depth: i32, move_count: usize) -> i32 {
    LMR[(depth as usize).min(63)][move_count.min(63)]
}

/// Late move pruning: quiet moves beyond this count are skipped at shallow depth.
#[inline(always)]
pub fn lmp_threshold(depth: i32, improving: bool) -> usize {
    let base = (LMP_BASE + depth * depth) as usize;
    if improving {
        base
    } else {
        base / 2
    }
}
