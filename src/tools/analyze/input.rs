//! What `cotuong analyze` is asked to look at: positions (a FEN on the command line, or a file of
//! them, one per line as in the match runner's opening files: a FEN or EPD, optionally followed
//! by `moves ...` in ICCS) or games (a PGN file in any notation and encoding, or an XQF, CBF or
//! DhtmlXQ file). Every error names the place: the option, the file and line, the game and ply.
//! A position's EPD operations `bm` and `am` make it part of a test suite.

use cotuong::game::Game;
use engine_core::{pgn, Notation};
use std::path::Path;

use super::super::match_runner::Opening;
use super::super::pgn_file::{self, NotationChoice};
use super::test_suite::Expectation;

/// One position to analyze, with the moves that led to it (they judge repetitions).
#[derive(Clone, Debug)]
pub struct PositionInput {
    /// Where it came from, for people: `--fen`, or `FILE:LINE`.
    pub source: String,
    /// The start and the moves to the position.
    pub game: Game,
    /// What a test suite expects of the engine here (`bm`, `am`).
    pub expectation: Option<Expectation>,
}

/// The positions or games to analyze.
#[derive(Clone, Debug)]
pub enum Input {
    /// Positions: MultiPV lines for each.
    Positions(Vec<PositionInput>),
    /// Games: each move judged.
    Games(Vec<pgn::Game>),
}

impl Input {
    /// How many positions the analysis searches (for the progress bar): one per position, or
    /// one per move of each game (its start for a game without moves).
    pub fn searches(&self) -> u64 {
        match self {
            Input::Positions(p) => u64::try_from(p.len()).unwrap_or(u64::MAX),
            Input::Games(g) => game_searches(g),
        }
    }
}

/// How many positions the review of `games` searches: one per move (the start of a game
/// without moves).
pub fn game_searches(games: &[pgn::Game]) -> u64 {
    let n: usize = games.iter().map(|g| g.moves.len().max(1)).sum();
    u64::try_from(n).unwrap_or(u64::MAX)
}

/// A position line (`FEN [moves m1 m2 ...]` or EPD) from `source`; `bm`/`am` moves are read in
/// the first of `notations` that reads them.
fn position(
    source: String,
    line: &str,
    notations: &[Notation],
) -> Result<Option<PositionInput>, String> {
    let Some(parsed) = Opening::parse_line_finished_too(line) else {
        return Ok(None);
    };
    let opening = parsed.map_err(|e| format!("{source}: {e}"))?;
    let game =
        Game::from_moves(opening.start, &opening.moves).map_err(|e| format!("{source}: {e}"))?;
    let expectation = Expectation::from_operations(game.position(), &opening.operations, notations)
        .map_err(|e| format!("{source}: {e}"))?;
    Ok(Some(PositionInput {
        source,
        game,
        expectation,
    }))
}

/// The position of `--fen` (a FEN, optionally followed by `moves ...`, or an EPD).
pub fn from_fen(fen: &str, notation: NotationChoice) -> Result<Input, String> {
    match position("--fen".into(), fen, &notation.candidates(None))? {
        Some(p) => Ok(Input::Positions(vec![p])),
        None => Err("--fen: no position given".into()),
    }
}

/// Every position of the file at `path` (`-`: standard input); `bm`/`am` moves in `notation`.
pub fn from_position_file(path: &Path, notation: NotationChoice) -> Result<Input, String> {
    let notations = notation.candidates(None);
    let text = pgn_file::read_text(path)?;
    let name = if path.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        path.display().to_string()
    };
    let mut positions = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if let Some(p) = position(format!("{name}:{}", n + 1), line, &notations)? {
            positions.push(p);
        }
    }
    if positions.is_empty() {
        return Err(format!("{name}: no position in the file"));
    }
    Ok(Input::Positions(positions))
}

/// The games of the game file at `path` (`-`: standard input: PGN read in `notation`, or XQF,
/// CBF, DhtmlXQ); only game `only` (from 1) if given.
pub fn from_pgn(path: &Path, notation: NotationChoice, only: Option<u64>) -> Result<Input, String> {
    let mut games = pgn_file::read_games_file(path, &notation.candidates(None))?;
    if games.is_empty() {
        return Err(format!("{}: no game in the file", path.display()));
    }
    if let Some(n) = only {
        let count = games.len();
        let index = usize::try_from(n.saturating_sub(1)).unwrap_or(usize::MAX);
        if n == 0 || index >= count {
            return Err(format!(
                "--game {n}: {} holds {count} game{}",
                path.display(),
                if count == 1 { "" } else { "s" }
            ));
        }
        games = vec![games.swap_remove(index)];
    }
    Ok(Input::Games(games))
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::START_FEN;

    fn from_fen_auto(fen: &str) -> Result<Input, String> {
        from_fen(fen, NotationChoice::Auto)
    }

    #[test]
    fn fen_with_moves_and_errors() {
        let Ok(Input::Positions(p)) = from_fen_auto(&format!("{START_FEN} moves h2e2 h9g7")) else {
            panic!("a position");
        };
        assert_eq!(p[0].game.moves().len(), 2);
        assert_eq!(p[0].source, "--fen");
        let err = from_fen_auto("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9 w").unwrap_err();
        assert!(err.starts_with("--fen: "), "{err}");
        let err = from_fen_auto(&format!("{START_FEN} moves h2e2 h2e2")).unwrap_err();
        assert!(err.starts_with("--fen: move after the FEN"), "{err}");
        assert!(from_fen_auto("  ").is_err());
    }

    #[test]
    fn position_files_name_the_line() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("p.epd");
        std::fs::write(
            &path,
            format!("# two positions\n{START_FEN}\n\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -; id \"x\"\n"),
        )
        .expect("written");
        let Ok(Input::Positions(p)) = from_position_file(&path, NotationChoice::Auto) else {
            panic!("positions");
        };
        assert_eq!(p.len(), 2);
        assert!(p[1].source.ends_with("p.epd:4"), "{}", p[1].source);
        std::fs::write(&path, format!("{START_FEN}\nnonsense here\n")).expect("written");
        let err = from_position_file(&path, NotationChoice::Auto).unwrap_err();
        assert!(err.contains("p.epd:2: "), "{err}");
        std::fs::write(&path, "# nothing\n").expect("written");
        assert!(from_position_file(&path, NotationChoice::Auto)
            .unwrap_err()
            .contains("no position"));
    }
}
