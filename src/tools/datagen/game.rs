//! One self-play game: a randomised opening, then the search's best move at every ply until the
//! referee (or score adjudication) ends the game.

use super::adjudication::Adjudication;
use cotuong::game::Game;
use engine_core::{GameResult, Move, Position, RuleOptions, SplitMix64};
use nnue_train::data::Termination;

/// A move with its search score (side to move's point of view, engine units).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ScoredMove {
    /// The move.
    pub mv: Move,
    /// Its score.
    pub score: i32,
}

/// What the data generator needs from a search.
pub trait Player {
    /// Forgets everything the previous game taught it (hash table, histories), so that a game
    /// depends only on its seed, and searches `node_scale` times its node limit in the game.
    fn new_game(&mut self, node_scale: f64);

    /// The best `lines` moves of the current position of `game`, best first, with their
    /// scores. Non-empty whenever the position has a legal move.
    fn search(&mut self, game: &Game, lines: usize) -> Vec<ScoredMove>;

    /// Nodes searched so far, over all games (0 for players that do not count them): what the
    /// summary divides the positions by.
    fn nodes(&self) -> u64;
}

/// A finished game as the data file stores it.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The first recorded position (after the random opening plies, which are not recorded).
    pub start: Position,
    /// Each recorded ply: the move played and the search score of the position before it.
    pub plies: Vec<ScoredMove>,
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub termination: Termination,
    /// What the game cost and where (not recorded in the file).
    pub cost: GameCost,
}

/// Where a game's search effort went, for the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameCost {
    /// Nodes of the opening: the random plies (MultiPV), the balance checks, and the openings
    /// replaced for their score.
    pub opening_nodes: u64,
    /// Nodes of the recorded plies.
    pub recorded_nodes: u64,
    /// In a game played out although adjudication was on, the recorded plies after the one at
    /// which adjudication would have ended it (0 otherwise).
    pub past_adjudication: usize,
}

/// How games are played.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// Where games start; one is chosen per game at random (the initial position if empty).
    pub openings: Vec<Position>,
    /// Plies played at random (among near-best moves) before recording starts.
    pub random_plies: usize,
    /// Lines searched for each random ply.
    pub opening_lines: usize,
    /// A random ply chooses among the lines within this of the best score.
    pub opening_margin: i32,
    /// An opening whose first recorded position scores beyond this is replaced by another.
    pub max_opening_score: i32,
    /// Each game's node limit is scaled by a factor drawn uniformly from `1 ± vary_nodes`, so
    /// that games reaching one start position still differ (0: every game at the set limit).
    pub vary_nodes: f64,
    /// Score adjudication, if enabled.
    pub adjudication: Option<Adjudication>,
    /// Fraction of games played out even when adjudication would end them (the net must also
    /// learn to convert won endings and to hold drawn ones).
    pub play_out_fraction: f64,
    /// Recorded plies after which a game is drawn.
    pub max_plies: usize,
    /// The rules the referee applies.
    pub rules: RuleOptions,
}

/// Openings tried per game before the last one is kept whatever its score.
const MAX_OPENING_ATTEMPTS: usize = 16;

/// Plays one game with the random stream `rng`, from the opening to the end; `None` if `abort`
/// says to stop before the game is over.
pub fn play_game(
    config: &GameConfig,
    rng: &mut SplitMix64,
    player: &mut dyn Player,
    abort: &dyn Fn() -> bool,
) -> Option<PlayedGame> {
    player.new_game(node_scale(config.vary_nodes, rng));
    let nodes_before = player.nodes();
    let mut game = opening(config, rng, player);
    let opening_nodes = player.nodes() - nodes_before;
    let adjudicate_this_game =
        config.adjudication.is_some() && rng.unit_f64() >= config.play_out_fraction;
    // The ply count at which adjudication would have ended a game that is played out.
    let mut would_end_at: Option<usize> = None;
    let start = game.position().clone();
    let first_mover = start.side_to_move();
    let mut plies: Vec<ScoredMove> = Vec::new();
    let mut scores: Vec<i32> = Vec::new();
    let (result, termination) = loop {
        if abort() {
            return None;
        }
        if plies.len() >= config.max_plies {
            break (GameResult::Draw, Termination::PlyCap);
        }
        // The opening never stops on a decided position and every later ply is judged below,
        // so the side to move has a legal move and the search returns one.
        let best = player.search(&game, 1).first().copied()?;
        game.play(best.mv).ok()?;
        plies.push(best);
        scores.push(best.score);
        if let Some(verdict) = game.verdict(&config.rules) {
            break (verdict.result, Termination::from(verdict.rule));
        }
        if let Some(a) = &config.adjudication {
            if !adjudicate_this_game {
                if would_end_at.is_none() && a.judge(&scores, first_mover).is_some() {
                    would_end_at = Some(plies.len());
                }
                continue;
            }
            match a.judge(&scores, first_mover) {
                Some(GameResult::Draw) => break (GameResult::Draw, Termination::AdjudicatedDraw),
                Some(win) => break (win, Termination::AdjudicatedWin),
                None => {}
            }
        }
    };
    let cost = GameCost {
        opening_nodes,
        recorded_nodes: player.nodes() - nodes_before - opening_nodes,
        past_adjudication: would_end_at.map_or(0, |n| plies.len() - n),
    };
    Some(PlayedGame {
        start,
        plies,
        result,
        termination,
        cost,
    })
}

/// The node-limit factor of one game. Draws nothing when the limit is fixed, so that runs made
/// before the option existed keep their random streams, hence their games.
fn node_scale(vary_nodes: f64, rng: &mut SplitMix64) -> f64 {
    if vary_nodes > 0.0 {
        1.0 + vary_nodes * (2.0 * rng.unit_f64() - 1.0)
    } else {
        1.0
    }
}

/// Chooses a start position and plays the random plies; tries again (with fresh random choices)
/// while the game is already decided or its first recorded position scores beyond
/// `max_opening_score`.
fn opening(config: &GameConfig, rng: &mut SplitMix64, player: &mut dyn Player) -> Game {
    let mut last_undecided = None;
    for _ in 0..MAX_OPENING_ATTEMPTS {
        let start = if config.openings.is_empty() {
            Position::startpos()
        } else {
            config.openings[rng.below(config.openings.len() as u64) as usize].clone()
        };
        let mut game = Game::new(start);
        let mut decided = game.verdict(&config.rules).is_some();
        for _ in 0..config.random_plies {
            if decided {
                break;
            }
            let lines = player.search(&game, config.opening_lines.max(1));
            let Some(best) = lines.first().map(|l| l.score) else {
                decided = true;
                break;
            };
            let near = lines
                .iter()
                .take_while(|l| l.score >= best - config.opening_margin)
                .count();
            let pick = lines[rng.below(near as u64) as usize];
            decided = game.play(pick.mv).is_err() || game.verdict(&config.rules).is_some();
        }
        if decided {
            continue;
        }
        let balanced = player
            .search(&game, 1)
            .first()
            .is_some_and(|l| l.score.abs() <= config.max_opening_score);
        if balanced {
            return game;
        }
        last_undecided = Some(game);
    }
    last_undecided.unwrap_or_else(Game::startpos)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use engine_core::PieceKind;

    /// Material count from the side to move's point of view.
    fn material(pos: &Position) -> i32 {
        const VALUE: [i32; 7] = [0, 20, 20, 40, 90, 45, 10];
        let us = pos.side_to_move();
        PieceKind::ALL
            .iter()
            .map(|&k| {
                VALUE[k.index()]
                    * (pos.pieces_of(us, k).count() as i32
                        - pos.pieces_of(us.opponent(), k).count() as i32)
            })
            .sum()
    }

    /// A fast deterministic stand-in for the search: one ply of material, ties broken by a
    /// hash of the move so that games differ between openings.
    pub(crate) struct GreedyPlayer;

    impl Player for GreedyPlayer {
        fn new_game(&mut self, _node_scale: f64) {}

        fn search(&mut self, game: &Game, lines: usize) -> Vec<ScoredMove> {
            let mut pos = game.position().clone();
            let mut scored: Vec<ScoredMove> = pos
                .legal_moves()
                .iter()
                .map(|&mv| {
                    let undo = pos.make_move(mv);
                    let score = -material(&pos) * 10 + (mv.raw() as i32 * 7919) % 13;
                    pos.unmake_move(mv, undo);
                    ScoredMove { mv, score }
                })
                .collect();
            scored.sort_by_key(|s| std::cmp::Reverse(s.score));
            scored.truncate(lines);
            scored
        }

        fn nodes(&self) -> u64 {
            0
        }
    }

    pub(crate) fn config() -> GameConfig {
        GameConfig {
            openings: Vec::new(),
            random_plies: 8,
            opening_lines: 4,
            opening_margin: 100,
            max_opening_score: 300,
            vary_nodes: 0.0,
            adjudication: Some(Adjudication::default()),
            play_out_fraction: 0.0,
            max_plies: 300,
            rules: RuleOptions::default(),
        }
    }

    fn play(cfg: &GameConfig, seed: u64, index: u64) -> PlayedGame {
        play_game(
            cfg,
            &mut SplitMix64::stream(seed, index),
            &mut GreedyPlayer,
            &|| false,
        )
        .expect("not aborted")
    }

    #[test]
    fn a_seed_gives_the_same_game() {
        let cfg = config();
        let a = play(&cfg, 5, 3);
        let b = play(&cfg, 5, 3);
        assert_eq!(a.plies, b.plies);
        assert_eq!(a.result, b.result);
        assert_eq!(a.start.to_fen(), b.start.to_fen());
        let c = play(&cfg, 5, 4);
        assert_ne!(a.plies, c.plies, "different games differ");
    }

    #[test]
    fn games_replay_legally_and_their_end_agrees_with_the_referee() {
        let cfg = config();
        for i in 0..6 {
            let g = play(&cfg, 11, i);
            assert!(!g.plies.is_empty());
            assert!(g.plies.len() <= cfg.max_plies);
            let mut game = Game::new(g.start.clone());
            for p in &g.plies {
                game.play(p.mv).expect("legal");
            }
            let verdict = game.verdict(&cfg.rules);
            match g.termination {
                Termination::AdjudicatedWin
                | Termination::AdjudicatedDraw
                | Termination::PlyCap => {
                    assert!(verdict.is_none())
                }
                t => assert_eq!(Some(t), verdict.map(|v| Termination::from(v.rule))),
            }
        }
    }

    #[test]
    fn the_ply_cap_draws() {
        let mut cfg = config();
        cfg.max_plies = 3;
        cfg.adjudication = None;
        let g = play(&cfg, 1, 0);
        assert_eq!(g.plies.len(), 3);
        assert_eq!(g.termination, Termination::PlyCap);
        assert_eq!(g.result, GameResult::Draw);
    }

    #[test]
    fn the_record_starts_after_the_random_plies() {
        let g = play(&config(), 2, 0);
        assert_ne!(g.start.to_fen(), Position::startpos().to_fen());
    }

    #[test]
    fn a_played_out_game_counts_the_plies_after_adjudication_would_have_ended_it() {
        let judged = config();
        let mut played_out = config();
        played_out.play_out_fraction = 1.0;
        let mut adjudicated = 0;
        for i in 0..8 {
            let (a, b) = (play(&judged, 3, i), play(&played_out, 3, i));
            assert_eq!(a.cost.past_adjudication, 0);
            assert!(!matches!(
                b.termination,
                Termination::AdjudicatedWin | Termination::AdjudicatedDraw
            ));
            // The same game up to adjudication's verdict, which the played-out one goes past.
            if matches!(
                a.termination,
                Termination::AdjudicatedWin | Termination::AdjudicatedDraw
            ) {
                adjudicated += 1;
                assert_eq!(b.plies.len() - b.cost.past_adjudication, a.plies.len());
                assert_eq!(b.plies[..a.plies.len()], a.plies[..]);
            } else {
                assert_eq!(b.cost.past_adjudication, 0);
            }
        }
        assert!(adjudicated > 0, "some games are adjudicated");
    }

    #[test]
    fn an_abort_stops_the_game() {
        let cfg = config();
        let stopped = play_game(
            &cfg,
            &mut SplitMix64::stream(1, 1),
            &mut GreedyPlayer,
            &|| true,
        );
        assert!(stopped.is_none());
    }
}
