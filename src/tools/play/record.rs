//! The game of `cotuong play` as PGN (`save FILE`): the players as `[Red]`/`[Black]`,
//! `[Variant "xiangqi"]`, the engine's level and time control, the start position when it is
//! not the initial one, the result with its termination and reason, and the moves in the
//! notation the game is shown in (its `[Format]` tag tells readers which), written with
//! engine-core's PGN writer so that `cotuong judge` reads it back.

use cotuong::engine::ENGINE_NAME;
use cotuong::game::Game;
use engine_core::pgn::PgnWriter;
use engine_core::{Color, GameResult, Notation, RuleId, START_FEN};

use super::super::match_runner::today;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The result.
    pub result: GameResult,
    /// The referee's rule, when the referee ended it (not a resignation or an agreed draw).
    pub rule: Option<RuleId>,
    /// The reason, as a sentence.
    pub reason: String,
}

/// The engine accepts a draw when its score is at most minus this (centipawns): clearly worse,
/// not merely level. A pawn, since the first move alone is worth about half of one.
const DRAW_ACCEPT_BELOW: i32 = 100;

/// Whether the engine, playing `engine`, accepts a draw offer, given the score `score` its
/// search gave the side to move `side_to_move`.
pub fn engine_accepts_draw(score: i32, side_to_move: Color, engine: Color) -> bool {
    let own = if side_to_move == engine {
        score
    } else {
        -score
    };
    own <= -DRAW_ACCEPT_BELOW
}

impl Ending {
    /// `side` resigns; `by_engine`: the engine plays `side`.
    pub fn resignation(side: Color, by_engine: bool) -> Ending {
        let who = if by_engine {
            format!("{} ({ENGINE_NAME})", side.name())
        } else {
            side.name().to_string()
        };
        Ending {
            result: GameResult::win_for(side.opponent()),
            rule: None,
            reason: format!("{who} resigns"),
        }
    }

    /// A draw agreed between the person and the engine, which plays `engine`;
    /// `engine_offered`: the person accepts the engine's offer, else the engine the person's.
    pub fn agreed_draw(engine: Color, engine_offered: bool) -> Ending {
        let reason = if engine_offered {
            format!(
                "Draw agreed: {} accepts the engine's offer",
                engine.opponent().name()
            )
        } else {
            format!(
                "Draw agreed: {} ({ENGINE_NAME}) accepts {}'s offer",
                engine.name(),
                engine.opponent().name()
            )
        };
        Ending {
            result: GameResult::Draw,
            rule: None,
            reason,
        }
    }

    /// The PGN `Termination` tag: a rule broken (perpetual check or chase), or a normal end.
    fn termination(&self) -> &'static str {
        match self.rule {
            Some(RuleId::PerpetualCheck | RuleId::PerpetualChase) => "rules infraction",
            _ => "normal",
        }
    }
}

/// Where a game was played, as the PGN's `Event` and `Site` name it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Venue {
    /// `cotuong play` in a terminal.
    Terminal,
    /// `cotuong gui` in a browser.
    Browser,
}

impl Venue {
    fn event(self) -> &'static str {
        match self {
            Venue::Terminal => "Cotuong play",
            Venue::Browser => "Cotuong GUI",
        }
    }

    fn site(self) -> &'static str {
        match self {
            Venue::Terminal => "cotuong play",
            Venue::Browser => "cotuong gui",
        }
    }
}

/// How the engine played, as the PGN records it.
pub struct EngineSettings<'a> {
    /// Its strength: `Skill Level 20`, `Elo 1500`.
    pub level: &'a str,
    /// The `TimeControl` tag: `60+1`, `st=1`, `nodes=20000`.
    pub time_control: String,
}

/// The PGN text of `game` between `red` and `black`, ended by `ending` (`None`: still going,
/// result `*`), its moves written in `notation`; `engine` says how the engine played and `venue`
/// where.
pub fn pgn_text(
    venue: Venue,
    game: &Game,
    red: &str,
    black: &str,
    ending: Option<&Ending>,
    notation: Notation,
    engine: &EngineSettings,
) -> String {
    let result = ending.map_or("*", |e| e.result.pgn());
    let mut pgn = PgnWriter::new();
    pgn.tag("Event", venue.event());
    pgn.tag("Site", venue.site());
    pgn.tag("Date", &today());
    pgn.tag("Round", "-");
    pgn.tag("Red", red);
    pgn.tag("Black", black);
    pgn.tag("Result", result);
    pgn.tag("Variant", "xiangqi");
    pgn.format_tag(notation);
    pgn.tag("TimeControl", &engine.time_control);
    pgn.tag("EngineLevel", engine.level);
    let start = game.start();
    let start_fen = start.to_fen();
    if start_fen != START_FEN {
        pgn.tag("SetUp", "1");
        pgn.tag("FEN", &start_fen);
    }
    pgn.tag("PlyCount", &game.moves().len().to_string());
    match ending {
        Some(e) => {
            pgn.tag("Termination", e.termination());
            pgn.tag("TerminationDetails", &e.reason);
        }
        None => pgn.tag("Termination", "unterminated"),
    }
    let number = u32::from(start.fullmove_number().max(1));
    let texts = notation.format_line(start, game.moves());
    pgn.line(start.side_to_move(), number, &texts);
    if let Some(e) = ending {
        pgn.comment(&e.reason);
    }
    pgn.finish(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::pgn::read_games;
    use engine_core::{Position, RankBase};

    #[test]
    fn a_saved_game_reads_back() {
        let start = Position::from_fen("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1").expect("a FEN");
        let mate = start.parse_move("b0b9", RankBase::Zero).expect("legal");
        let game = Game::from_moves(start, &[mate]).expect("legal");
        let ending = Ending {
            result: GameResult::RedWins,
            rule: Some(RuleId::Checkmate),
            reason: "Red wins: Black is checkmated after ply 1 (Điều 7 win a)".into(),
        };
        let engine = EngineSettings {
            level: "Skill Level 5",
            time_control: "60+1".to_string(),
        };
        let text = pgn_text(
            Venue::Browser,
            &game,
            "Human",
            "Cotuong",
            Some(&ending),
            Notation::Chinese,
            &engine,
        );
        for tag in [
            "[Red \"Human\"]",
            "[Black \"Cotuong\"]",
            "[Result \"1-0\"]",
            "[Variant \"xiangqi\"]",
            "[Format \"Chinese\"]",
            "[SetUp \"1\"]",
            "[Termination \"normal\"]",
            "[TimeControl \"60+1\"]",
            "[EngineLevel \"Skill Level 5\"]",
            "[Event \"Cotuong GUI\"]",
            "[Site \"cotuong gui\"]",
        ] {
            assert!(text.contains(tag), "{tag} in {text}");
        }
        assert!(text.contains("1. 车八进九 {Red wins"), "{text}");
        let games: Vec<_> = read_games(&text, &Notation::ALL)
            .collect::<Result<_, _>>()
            .expect("readable");
        assert_eq!(games[0].move_list(), vec![mate]);
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
    }
}
