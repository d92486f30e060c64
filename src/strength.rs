//! Playing strength below the engine's best, the way a weaker player is weaker: they look less far
//! ahead, and among the moves they consider they do not always pick the best one, but they do not
//! give away a piece they can see is hanging.
//!
//! A [`Strength`] has two parts, each a level from 0 (weakest) to 20 (full strength):
//!
//! * **effort**: how far the search looks, as a soft node limit per move
//!   ([`soft_nodes`], growing geometrically with the level). Nodes, not time, so that a level
//!   plays the same on any machine and at any time control long enough for it;
//! * **choice**: how the move is chosen among the search's best lines (MultiPV): a random draw
//!   weighted by `exp(-drop / T)` over the lines at most [`max_drop`] below the best, with the
//!   temperature `T` ([`temperature`]) falling to 0 at level 20. The drop is capped below the
//!   value of a minor piece, so a move the search sees losing material is never chosen;
//!   blunders come only from what the limited search does not see.
//!
//! The search itself is not touched: the controller adds the node limit and the lines to the
//! search it runs, then picks the move from the result with [`Strength::choose`]. At full
//! strength nothing changes at all.
//!
//! The options map onto the two parts: UCI `Skill Level` sets both; `UCI_LimitStrength` with
//! `UCI_Elo` sets both to the level of that rating on the measured ladder ([`level_of_elo`],
//! [`SKILL_ELO`]; the ladder's measurements are in `docs/results.md` and `bench/strength/`);
//! UCCI `knowledge` caps the effort and `randomness` the choice. Where several apply, the weakest
//! wins (see `Options::strength`).

use crate::search::{RootMove, SearchRequest, INFINITE};

/// The level of full strength: no limit, always the best move.
pub const FULL_LEVEL: f64 = 20.0;
/// Soft node limit at level 0: the first iteration (one ply plus quiescence) and little more,
/// so level 0 sees what a capture wins but nothing deeper.
pub const NODES_AT_LEVEL_ZERO: f64 = 100.0;
/// Factor of the soft node limit per level: level 19 searches about 750,000 nodes, on the order
/// of a second of full-strength thinking.
pub const NODES_GROWTH_PER_LEVEL: f64 = 1.6;
/// Temperature of the choice at level 0, in internal units (centipawns as the protocols print
/// them): a line this far below the best is chosen `1/e` times as often.
pub const TEMPERATURE_AT_LEVEL_ZERO: f64 = 160.0;
/// Lines further below the best than this many temperatures are never chosen ...
pub const DROP_IN_TEMPERATURES: f64 = 2.0;
/// ... nor any further below than this: less than a horse or a cannon, so a move the search
/// sees losing a piece is never played.
pub const MAX_DROP: f64 = 300.0;
/// Lines searched when the choice is weakened (more if the user asks for more): the handful of
/// candidate moves a player weighs.
pub const CANDIDATE_LINES: usize = 4;

/// `UCI_Elo` of each Skill Level, 0 to 20, as measured (2026-11-23, net 2): levels 0, 4, 8, 12,
/// 16 and 20 played 20 games (40 for levels 16 and 20 against Fairy-Stockfish) each at 5 s +
/// 0.05 s against the anchors near their strength
/// (Debian's Fairy-Stockfish at full strength and at its `Skill Level` 0, MaxQi, SjaakII), and
/// `bench/strength/report.py` fitted one rating per level and anchor with Fairy-Stockfish at full
/// strength fixed at 2000; the levels between were interpolated. The scale is the calibration's
/// own, not a human rating list, and the error bars are wide (about ±120-400 Elo per match: the
/// ladder's table is in `docs/results.md`, "Strength levels: the ladder", and its runs in
/// `bench/strength/README.md`). Strictly increasing; `UCI_Elo` between two entries interpolates
/// between their levels.
pub const SKILL_ELO: [i32; 21] = [
    526, 560, 594, 629, 663, 765, 866, 968, 1069, 1200, 1330, 1461, 1591, 1678, 1764, 1850, 1937,
    1983, 2029, 2074, 2120,
];
/// Lowest `UCI_Elo` (that of level 0).
pub const MIN_ELO: i64 = SKILL_ELO[0] as i64;
/// Highest `UCI_Elo` (that of level 20, full strength).
pub const MAX_ELO: i64 = SKILL_ELO[20] as i64;

/// The levels of the UCCI grades `none`, `small`, `medium`, `large`, for `knowledge` (how far the
/// engine looks; `large`, full, is the default).
pub const KNOWLEDGE_LEVELS: [f64; 4] = [0.0, 7.0, 14.0, FULL_LEVEL];
/// The levels of the UCCI grades `none`, `small`, `medium`, `large`, for `randomness` (how
/// freely it picks among its candidates; `none`, full, is the default).
pub const RANDOMNESS_LEVELS: [f64; 4] = [FULL_LEVEL, 14.0, 7.0, 0.0];

/// How strongly the engine plays: a level per part, from 0 to [`FULL_LEVEL`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Strength {
    /// How far it looks (the node limit).
    pub effort: f64,
    /// How it picks among its candidate moves (the temperature).
    pub choice: f64,
}

impl Default for Strength {
    fn default() -> Self {
        Strength::FULL
    }
}

impl Strength {
    /// Full strength: no limit, always the best move.
    pub const FULL: Strength = Strength {
        effort: FULL_LEVEL,
        choice: FULL_LEVEL,
    };

    /// Both parts at `level` (clamped to 0..=20), as `Skill Level` sets them.
    pub fn level(level: f64) -> Strength {
        let level = clamp_level(level);
        Strength {
            effort: level,
            choice: level,
        }
    }

    /// Whether this is full strength (the engine then behaves exactly as without any setting).
    pub fn is_full(&self) -> bool {
        self.effort >= FULL_LEVEL && self.choice >= FULL_LEVEL
    }

    /// The weaker of two settings, part by part.
    pub fn min(self, other: Strength) -> Strength {
        Strength {
            effort: self.effort.min(other.effort),
            choice: self.choice.min(other.choice),
        }
    }

    /// `request` with this strength's node limit added (the smaller one wins if a soft node
    /// limit is already set).
    pub fn limit(&self, request: &SearchRequest) -> SearchRequest {
        let mut l = request.clone();
        if let Some(n) = soft_nodes(self.effort) {
            l.soft_nodes = Some(l.soft_nodes.map_or(n, |m| m.min(n)));
        }
        l
    }

    /// Lines to search when `shown` are to be reported.
    pub fn lines(&self, shown: usize) -> usize {
        if self.choice >= FULL_LEVEL {
            shown
        } else {
            shown.max(CANDIDATE_LINES)
        }
    }

    /// The index in `lines` (a search result's lines, best first) of the line to play, given a
    /// uniform random number `draw` in `[0, 1)`. Always 0 at full choice strength.
    pub fn choose(&self, lines: &[RootMove], draw: f64) -> usize {
        let t = temperature(self.choice);
        let Some(first) = lines.first() else {
            return 0;
        };
        if t <= 0.0 || lines.len() < 2 {
            return 0;
        }
        let best = scored(first).unwrap_or(0);
        let limit = max_drop(self.choice);
        let weights: Vec<f64> = lines
            .iter()
            .map(|line| match scored(line) {
                Some(s) => {
                    let drop = f64::from(best.saturating_sub(s)).max(0.0);
                    if drop <= limit {
                        (-drop / t).exp()
                    } else {
                        0.0
                    }
                }
                None => 0.0,
            })
            .collect();
        let total: f64 = weights.iter().sum();
        let mut target = draw.clamp(0.0, 1.0) * total;
        for (i, w) in weights.iter().enumerate() {
            if *w > 0.0 && target < *w {
                return i;
            }
            target -= w;
        }
        0
    }
}

/// The score a line can be judged by: its reported score, unless the search never scored it.
fn scored(line: &RootMove) -> Option<i32> {
    // A bound (an aspiration failure) is taken as the score: close enough to weigh the line.
    let (score, _) = line.reported_score();
    (score > -INFINITE).then_some(score)
}

fn clamp_level(level: f64) -> f64 {
    if level.is_nan() {
        FULL_LEVEL
    } else {
        level.clamp(0.0, FULL_LEVEL)
    }
}

/// The soft node limit of an effort level; `None` at full strength.
pub fn soft_nodes(effort: f64) -> Option<u64> {
    let level = clamp_level(effort);
    (level < FULL_LEVEL)
        .then(|| (NODES_AT_LEVEL_ZERO * NODES_GROWTH_PER_LEVEL.powf(level)).round() as u64)
}

/// The temperature of a choice level (internal units); 0 at full strength.
pub fn temperature(choice: f64) -> f64 {
    TEMPERATURE_AT_LEVEL_ZERO * (FULL_LEVEL - clamp_level(choice)) / FULL_LEVEL
}

/// The largest drop below the best line that a choice level may play.
pub fn max_drop(choice: f64) -> f64 {
    (DROP_IN_TEMPERATURES * temperature(choice)).min(MAX_DROP)
}

/// The level (fractional) whose rating on [`SKILL_ELO`] is `elo`: interpolated between the two
/// levels around it, 0 below the lowest and full strength from the highest on.
pub fn level_of_elo(elo: i64) -> f64 {
    let elo = elo as f64;
    if elo <= f64::from(SKILL_ELO[0]) {
        return 0.0;
    }
    for (level, pair) in SKILL_ELO.windows(2).enumerate() {
        let (low, high) = (f64::from(pair[0]), f64::from(pair[1]));
        if elo < high {
            return level as f64 + (elo - low) / (high - low);
        }
    }
    FULL_LEVEL
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::ScoreBound;
    use engine_core::Position;

    fn line(mv_index: usize, score: i32) -> RootMove {
        let mv = Position::startpos().legal_moves()[mv_index];
        RootMove {
            mv,
            score,
            prev_score: score,
            bound: ScoreBound::Exact,
            seldepth: 1,
            pv: vec![mv],
        }
    }

    #[test]
    fn full_strength_changes_nothing() {
        let full = Strength::FULL;
        assert!(full.is_full() && Strength::level(20.0).is_full());
        assert!(!Strength::level(19.5).is_full());
        let limits = SearchRequest {
            depth: Some(7),
            ..SearchRequest::default()
        };
        let same = full.limit(&limits);
        assert_eq!((same.depth, same.soft_nodes), (Some(7), None));
        assert_eq!(full.lines(1), 1);
        let lines = [line(0, 10), line(1, 10), line(2, 10)];
        for draw in [0.0, 0.3, 0.99] {
            assert_eq!(full.choose(&lines, draw), 0);
        }
    }

    #[test]
    fn weaker_levels_search_less_and_choose_more_freely() {
        for level in 0..20 {
            let (weak, strong) = (f64::from(level), f64::from(level + 1));
            assert!(soft_nodes(weak) < soft_nodes(strong) || strong >= FULL_LEVEL);
            assert!(temperature(weak) > temperature(strong));
            assert!(max_drop(weak) >= max_drop(strong));
            assert!(max_drop(weak) <= MAX_DROP);
        }
        assert_eq!(soft_nodes(0.0), Some(100));
        assert_eq!(soft_nodes(FULL_LEVEL), None);
        let weak = Strength::level(5.0);
        assert_eq!(weak.lines(1), CANDIDATE_LINES);
        assert_eq!(weak.lines(8), 8);
        let l = weak.limit(&SearchRequest {
            soft_nodes: Some(50),
            ..SearchRequest::default()
        });
        assert_eq!(l.soft_nodes, Some(50), "the smaller limit wins");
    }

    #[test]
    fn the_choice_follows_the_scores() {
        let s = Strength::level(0.0);
        let lines = [line(0, 100), line(1, 100), line(2, 60), line(3, -400)];
        let mut counts = [0usize; 4];
        let draws = 10_000;
        for i in 0..draws {
            counts[s.choose(&lines, (i as f64 + 0.5) / draws as f64)] += 1;
        }
        // A line losing 500 (beyond the drop cap) is never chosen; equal lines equally often;
        // a worse line less often.
        assert_eq!(counts[3], 0);
        assert!(counts[0].abs_diff(counts[1]) <= 1, "{counts:?}");
        assert!(counts[2] > 0 && counts[2] < counts[0], "{counts:?}");
        // Unscored lines are never chosen.
        let mut unscored = line(1, 100);
        unscored.score = -INFINITE;
        unscored.prev_score = -INFINITE;
        let lines = [line(0, 100), unscored];
        for i in 0..100 {
            assert_eq!(s.choose(&lines, i as f64 / 100.0), 0);
        }
    }

    #[test]
    fn elo_maps_onto_levels() {
        assert!(
            SKILL_ELO.windows(2).all(|w| w[0] < w[1]),
            "strictly increasing"
        );
        assert_eq!(level_of_elo(MIN_ELO - 100), 0.0);
        assert_eq!(level_of_elo(MIN_ELO), 0.0);
        assert_eq!(level_of_elo(MAX_ELO), FULL_LEVEL);
        assert_eq!(level_of_elo(i64::from(SKILL_ELO[7])), 7.0);
        let mid = (i64::from(SKILL_ELO[3]) + i64::from(SKILL_ELO[4])) / 2;
        assert!((level_of_elo(mid) - 3.5).abs() < 0.05);
        let mut last = -1.0;
        for elo in MIN_ELO..=MAX_ELO {
            let level = level_of_elo(elo);
            assert!(level >= last, "monotone at {elo}");
            last = level;
        }
    }
}
