//! The search's tunable parameters in one place: aspiration windows, pruning margins and depth
//! limits, reductions, history bonuses, and the time manager's factors. Everything a tuner (SPSA,
//! `cotuong tune`) may move is an entry of the one [`tunables!`] table below, with its range and
//! perturbation step; the code reads each through its accessor (`rfp_margin()`), which is the
//! constant itself in ordinary builds and a hidden option in builds with the `tune` feature (see
//! `tunable`). Structural constants that no tuner should move stay plain constants, the time
//! manager's (`time`) among them.

use super::tunable::tunables;
use once_cell::sync::Lazy;

tunables! {
    /// Aspiration windows start at this half-width once the depth reaches
    /// [`ASPIRATION_MIN_DEPTH`].
    ASPIRATION_WINDOW / aspiration_window: 24, 6..=80, 3;

    /// Reverse futility pruning: depth limit.
    RFP_MAX_DEPTH / rfp_max_depth: 7, 2..=14, 1;
    /// Reverse futility pruning: margin per ply of depth.
    RFP_MARGIN / rfp_margin: 163, 20..=250, 8;

    /// Null-move pruning: minimum depth.
    NMP_MIN_DEPTH / nmp_min_depth: 3, 1..=8, 1;
    /// Null-move pruning: base reduction.
    NMP_BASE_REDUCTION / nmp_base_reduction: 3, 1..=8, 1;
    /// Null-move pruning: one more ply of reduction per this many plies of depth ...
    NMP_DEPTH_DIVISOR / nmp_depth_divisor: 4, 2..=12, 1;
    /// ... and one more per this much of static eval above beta ...
    NMP_EVAL_DIVISOR / nmp_eval_divisor: 207, 60..=600, 20;
    /// ... up to this many plies.
    NMP_EVAL_MAX_REDUCTION / nmp_eval_max_reduction: 3, 0..=8, 1;

    /// Singular extensions: minimum depth ...
    SE_MIN_DEPTH / se_min_depth: 6, 4..=12, 1;
    /// ... and how much shallower than the node the table entry of its move may be.
    SE_TT_DEPTH_MARGIN / se_tt_depth_margin: 3, 1..=6, 1;
    /// Singular extensions: the other moves must stay below the table score minus this many
    /// sixteenths of an evaluation unit per ply of depth.
    SE_BETA_MARGIN_X16 / se_beta_margin_x16: 40, 4..=96, 4;
    /// Singular extensions: a move this far below the singular beta is extended twice ...
    SE_DOUBLE_MARGIN / se_double_margin: 26, 0..=100, 5;

    /// Internal iterative reduction: without a TT move, reduce nodes this deep by one ply.
    IIR_MIN_DEPTH / iir_min_depth: 4, 2..=12, 1;

    /// Late move pruning applies up to this depth.
    LMP_MAX_DEPTH / lmp_max_depth: 8, 2..=16, 1;
    /// Late move pruning: quiet moves beyond `LMP_BASE + depth²` are skipped (half as many when
    /// the static eval is not improving).
    LMP_BASE / lmp_base: 3, 0..=12, 1;

    /// Futility pruning of quiet moves: depth limit (after reduction).
    FUTILITY_MAX_DEPTH / futility_max_depth: 7, 2..=14, 1;
    /// Futility pruning: base margin.
    FUTILITY_BASE / futility_base: 77, 20..=400, 12;
    /// Futility pruning: margin per ply.
    FUTILITY_PER_DEPTH / futility_per_depth: 63, 20..=300, 9;

    /// SEE pruning of captures: depth limit.
    SEE_CAPTURE_MAX_DEPTH / see_capture_max_depth: 6, 1..=14, 1;
    /// SEE pruning of captures: allowed loss per ply of depth.
    SEE_CAPTURE_MARGIN / see_capture_margin: 182, 20..=300, 10;
    /// SEE pruning of quiet moves: depth limit.
    SEE_QUIET_MAX_DEPTH / see_quiet_max_depth: 8, 1..=16, 1;
    /// SEE pruning of quiet moves: allowed loss per ply of depth.
    SEE_QUIET_MARGIN / see_quiet_margin: 104, 10..=200, 6;

    /// Late move reductions: minimum depth.
    LMR_MIN_DEPTH / lmr_min_depth: 3, 2..=6, 1;
    /// Base reduction, in hundredths of a ply: `LMR_BASE_X100 / 100 + ln(depth) * ln(move
    /// number) / (LMR_DIVISOR_X100 / 100)` ...
    LMR_BASE_X100 / lmr_base_x100: 87, -50..=250, 10;
    /// ... (see [`LMR_BASE_X100`]).
    LMR_DIVISOR_X100 / lmr_divisor_x100: 127, 100..=500, 12;
    /// History that changes the reduction by one ply.
    LMR_HISTORY_DIVISOR / lmr_history_divisor: 4285, 1_000..=20_000, 400;

    /// History bonus of a cutoff at depth `d`: `QUADRATIC * d² + LINEAR * d`, at most `MAX`.
    HISTORY_BONUS_QUADRATIC / history_bonus_quadratic: 25, 0..=64, 2;
    /// See [`HISTORY_BONUS_QUADRATIC`].
    HISTORY_BONUS_LINEAR / history_bonus_linear: 46, 0..=160, 5;
    /// See [`HISTORY_BONUS_QUADRATIC`].
    HISTORY_BONUS_MAX / history_bonus_max: 8_000, 400..=8_000, 150;

    /// Quiescence delta pruning margin.
    QS_DELTA_MARGIN / qs_delta_margin: 149, 50..=600, 20;

    /// Time manager: moves assumed left in a sudden-death game.
    DEFAULT_MOVES_TO_GO / default_moves_to_go: 30, 10..=60, 2;
    /// Time manager: per mille of the increment added to each move's budget (with plenty of
    /// time on the clock).
    INCREMENT_SHARE_PERMILLE / increment_share_permille: 800, 300..=1_000, 40;
    /// Time manager: the hard limit is at most this multiple of the soft limit.
    HARD_OVER_SOFT / hard_over_soft: 5, 2..=10, 1;
    /// Time manager: the hard limit never exceeds this per mille of the usable time (except on
    /// the last move before a time control).
    HARD_MAX_PERMILLE / hard_max_permille: 600, 200..=850, 30;
    /// Time manager: share of the soft limit (per mille) an iteration may start after when the
    /// best move is stable ...
    STABLE_SHARE_PERMILLE / stable_share_permille: 600, 200..=1_200, 40;
    /// ... plus this much (per mille) per unit of best-move instability.
    INSTABILITY_SHARE_PERMILLE / instability_share_permille: 800, 0..=2_000, 60;
    /// Time manager: a small score drop extends the soft limit by this factor (per mille) ...
    SCORE_DROP_SMALL_SCALE_PERMILLE / score_drop_small_scale_permille: 1_400, 1_000..=2_500, 60;
    /// ... and a large one by this factor again (per mille).
    SCORE_DROP_LARGE_SCALE_PERMILLE / score_drop_large_scale_permille: 1_300, 1_000..=2_500, 60;
}

/// Shallower iterations use a full aspiration window.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
/// Remaining depth from which a repetition inside the tree whose cycle has an offender is
/// searched on to the occurrence the referee judges; below it, it scores as the expected rule
/// outcome (`search::rules`).
pub const PENDING_MIN_DEPTH: i32 = 3;
/// Helper threads open their aspiration windows this many times wider than the main thread:
/// their iterations fail high or low less often, so they re-search less of what the main
/// thread searches and fill the table with results the main thread's window would not give.
pub const HELPER_ASPIRATION_SCALE: i32 = 2;
/// After a failed aspiration search the half-width grows by this fraction (1/n) of itself ...
pub const ASPIRATION_GROWTH_DIVISOR: i32 = 2;
/// ... and once it exceeds this the window opens fully.
pub const ASPIRATION_MAX_WINDOW: i32 = 1000;

/// ... at most this many times on one path.
pub const SE_MAX_DOUBLE_EXTENSIONS: u32 = 6;

/// Null-move verification search is done when the side to move has at most this many
/// chariots, horses and cannons (zugzwang-prone endings) ...
pub const NMP_VERIFY_MAX_PIECES: u32 = 2;
/// ... or at this depth and above.
pub const NMP_VERIFY_MIN_DEPTH: i32 = 12;
/// During a verification search null moves are off for this fraction (numerator / denominator)
/// of the reduced depth below the node.
pub const NMP_VERIFY_PLIES: (i32, i32) = (3, 4);

/// How many times the soft node limit the search may spend before it aborts the iteration in
/// progress (the hard cap of [`super::SearchRequest::soft_nodes`]). Iterations grow by a factor
/// of about two to three, so an iteration started just below the soft limit normally finishes
/// well inside this cap; the cap only stops a pathological one.
pub const SOFT_NODES_HARD_CAP: u64 = 8;

/// The main thread looks at the clock (and at the other threads' node counts) every this many
/// of its own nodes (a power of two).
pub const CLOCK_CHECK_INTERVAL: u64 = 1024;

/// Safety margin kept on the clock beyond the move overhead, in ms.
pub const SAFETY_MS: u64 = 10;
/// Time manager: fraction (per mille) of the increment added to each move's budget when the
/// clock is low (below [`LOW_TIME_MS`] usable), so that the clock settles at a comfortable
/// distance from zero in fast increment games instead of living off the increment.
pub const LOW_TIME_INCREMENT_SHARE_PERMILLE: u64 = 500;
/// Usable time under which the clock counts as low.
pub const LOW_TIME_MS: u64 = 1000;
/// The hard limit's cap on the last move before a time control, where more can be spent
/// (per mille of the usable time; otherwise `HARD_MAX_PERMILLE`).
pub const HARD_MAX_LAST_MOVE_PERMILLE: u64 = 900;
/// Floor of both limits, so that at least a shallow search completes.
pub const MIN_THINK_MS: u64 = 1;

/// Best-move instability: after each iteration the old value is multiplied by this ...
pub const INSTABILITY_DECAY: f64 = 0.5;
/// ... and one is added when the best move changed (from depth 2 on).
pub const BEST_MOVE_CHANGE: f64 = 1.0;
/// A score drop (internal units) since the previous iteration beyond this ...
pub const SCORE_DROP_SMALL: i32 = 30;
/// ... extends the soft limit by `SCORE_DROP_SMALL_SCALE_PERMILLE`, and a drop beyond this ...
pub const SCORE_DROP_LARGE: i32 = 80;
/// With a single legal root move the soft limit shrinks to this share: nothing to decide.
pub const SINGLE_MOVE_SHARE: f64 = 0.1;

/// Hundredths, the unit of [`LMR_BASE_X100`] and [`LMR_DIVISOR_X100`].
const HUNDREDTHS: f64 = 100.0;

/// The base late-move reduction table from the given parameters (in hundredths).
fn lmr_table(base_x100: i32, divisor_x100: i32) -> [[i32; 64]; 64] {
    let base = f64::from(base_x100) / HUNDREDTHS;
    let divisor = f64::from(divisor_x100) / HUNDREDTHS;
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
        }
    }
    t
}

/// `LMR[depth][move_number]`: the base late-move reduction.
#[cfg(not(feature = "tune"))]
static LMR: Lazy<[[i32; 64]; 64]> = Lazy::new(|| lmr_table(LMR_BASE_X100, LMR_DIVISOR_X100));

/// The base late-move reduction of the `move_count`-th move at `depth`.
#[cfg(not(feature = "tune"))]
#[inline(always)]
pub fn lmr(depth: i32, move_count: usize) -> i32 {
    LMR[(depth as usize).min(63)][move_count.min(63)]
}

/// `tune` builds: the table of the current parameters, rebuilt when one of them changes.
#[cfg(feature = "tune")]
static LMR: Lazy<std::sync::RwLock<[[i32; 64]; 64]>> =
    Lazy::new(|| std::sync::RwLock::new(lmr_table(lmr_base_x100(), lmr_divisor_x100())));

/// The base late-move reduction of the `move_count`-th move at `depth`.
#[cfg(feature = "tune")]
#[inline(always)]
pub fn lmr(depth: i32, move_count: usize) -> i32 {
    let table = LMR
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    table[(depth as usize).min(63)][move_count.min(63)]
}

/// Called after a tunable changed: rebuilds what is derived from the tunables.
#[cfg(feature = "tune")]
fn on_tunable_change() {
    let fresh = lmr_table(lmr_base_x100(), lmr_divisor_x100());
    let mut table = LMR
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    *table = fresh;
}

/// Late move pruning: quiet moves beyond this count are skipped at shallow depth.
#[inline(always)]
pub fn lmp_threshold(depth: i32, improving: bool) -> usize {
    let base = (lmp_base() + depth * depth) as usize;
    if improving {
        base
    } else {
        base / 2
    }
}

#[cfg(all(test, feature = "tune"))]
mod tests {
    use super::*;

    /// `tune` builds: the accessor reads the cell a hidden option sets.
    #[test]
    fn tune_builds_read_the_cells() {
        let i = TUNABLES
            .iter()
            .position(|t| t.name == "QS_DELTA_MARGIN")
            .expect("declared");
        let default = TUNABLES[i].default;
        set_tunable(i, default + 7);
        assert_eq!(qs_delta_margin(), default + 7);
        set_tunable(i, default);
        assert_eq!(qs_delta_margin(), default);
    }
}
