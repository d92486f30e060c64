//! Games read from PGN records: the start position (from the FEN tag), and each main-line move
//! read as a legal move in the notation the game is written in, detected or given.

use super::syntax::{records, MoveToken, PgnRecord};
use super::{PgnError, PgnErrorKind};
use crate::moves::Move;
use crate::notation::{MoveTextError, Notation, RankBase};
use crate::position::Position;

/// A game read from PGN: where it starts, its moves as legal moves, and what was written
/// around them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Its place in the text, from 1.
    pub number: usize,
    /// Line (from 1) where it starts.
    pub line: usize,
    /// Tag pairs in the order written, values unescaped.
    pub tags: Vec<(String, String)>,
    /// The start position: the FEN tag's, or the initial position.
    pub start: Position,
    /// The notation its moves were read in (`None` for a game without moves).
    pub notation: Option<Notation>,
    /// Comments before the first move.
    pub comments_before: Vec<String>,
    /// The main line.
    pub moves: Vec<GameMove>,
    /// The game termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`), when written.
    pub result: Option<String>,
}

/// A main-line move of a [`Game`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameMove {
    /// The move, legal where it is played.
    pub mv: Move,
    /// Its text as written (without move number or annotation suffixes).
    pub text: String,
    /// Line (from 1) it is on.
    pub line: usize,
    /// Numeric annotation glyphs.
    pub nags: Vec<u8>,
    /// Comments after it.
    pub comments: Vec<String>,
    /// Variations after it (alternatives to it), as written inside their parentheses; their
    /// moves are not read.
    pub variations: Vec<String>,
}

impl Game {
    /// The value of the first tag called `name` (compared without regard to case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Red's player: the `Red` tag, or the `White` tag that chess-minded writers (cutechess,
    /// XBoard, this engine's match runner) use for the side that moves first.
    pub fn red_player(&self) -> Option<&str> {
        self.tag("Red").or_else(|| self.tag("White"))
    }

    /// Black's player: the `Black` tag (the same name in both traditions).
    pub fn black_player(&self) -> Option<&str> {
        self.tag("Black")
    }

    /// The main line's moves.
    pub fn move_list(&self) -> Vec<Move> {
        self.moves.iter().map(|m| m.mv).collect()
    }

    /// The position after the last move.
    pub fn end_position(&self) -> Position {
        let mut pos = self.start.clone();
        for m in &self.moves {
            pos.make_move(m.mv);
        }
        pos
    }
}

/// The notation a `[Format "..."]` tag names (ElephantEye-era files write ICCS, WXF or
/// Chinese there).
fn format_hint(value: &str) -> Option<Notation> {
    match value.trim().to_ascii_lowercase().as_str() {
        "iccs" => Some(Notation::Iccs(RankBase::Zero)),
        "wxf" => Some(Notation::Wxf),
        "chinese" => Some(Notation::Chinese),
        "vietnamese" => Some(Notation::Vietnamese),
        "san" => Some(Notation::San(RankBase::Zero)),
        _ => None,
    }
}

/// Where reading a game in one notation stopped.
struct Stopped {
    /// Moves read before it.
    ply: usize,
    line: usize,
    error: MoveTextError,
}

impl Stopped {
    /// How far the notation got, for choosing which error to report: more moves read, then a
    /// text that at least fits the notation's grammar (its error says more than "malformed").
    fn progress(&self) -> (usize, bool) {
        (
            self.ply,
            !matches!(self.error, MoveTextError::Malformed { .. }),
        )
    }
}

/// Reads every token of `tokens` in `notation` from `start`.
fn replay(
    start: &Position,
    tokens: &[MoveToken],
    notation: Notation,
) -> Result<Vec<GameMove>, Stopped> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(tokens.len());
    for token in tokens {
        let texts = notation.split_glued(&token.text);
        let last = texts.len() - 1;
        for (i, text) in texts.into_iter().enumerate() {
            let mv = notation.parse(&pos, &text).map_err(|error| Stopped {
                ply: out.len(),
                line: token.line,
                error,
            })?;
            pos.make_move(mv);
            // Annotations belong to the last move of a glued token.
            let annotated = i == last;
            out.push(GameMove {
                mv,
                text,
                line: token.line,
                nags: if annotated {
                    token.nags.clone()
                } else {
                    Vec::new()
                },
                comments: if annotated {
                    token.comments.clone()
                } else {
                    Vec::new()
                },
                variations: if annotated {
                    token.variations.clone()
                } else {
                    Vec::new()
                },
            });
        }
    }
    Ok(out)
}

impl PgnRecord {
    /// The start position its FEN tag gives, or the initial position.
    pub fn start_position(&self) -> Result<Position, PgnError> {
        match self.tag("FEN") {
            Some(fen) => Position::from_fen(fen).map_err(|error| PgnError {
                game: self.number,
                line: self.line,
                kind: PgnErrorKind::BadFen {
                    fen: fen.to_string(),
                    error,
                },
            }),
            None => Ok(Position::startpos()),
        }
    }

    /// Reads the game from its FEN tag (or the initial position), trying `notations` in turn
    /// (first the one a `[Format]` tag names, if it is among them) until one reads every move.
    pub fn read(self, notations: &[Notation]) -> Result<Game, PgnError> {
        let start = self.start_position()?;
        self.read_from(start, notations)
    }

    /// Like [`PgnRecord::read`], from `start` whatever the tags say.
    pub fn read_from(self, start: Position, notations: &[Notation]) -> Result<Game, PgnError> {
        let mut order: Vec<Notation> = notations.to_vec();
        if let Some(hint) = self.tag("Format").and_then(format_hint) {
            if let Some(i) = order.iter().position(|&n| n == hint) {
                let n = order.remove(i);
                order.insert(0, n);
            }
        }
        let (notation, moves) = if self.moves.is_empty() {
            (None, Vec::new())
        } else {
            let mut furthest: Option<Stopped> = None;
            let mut found = None;
            for &notation in &order {
                match replay(&start, &self.moves, notation) {
                    Ok(moves) => {
                        found = Some((notation, moves));
                        break;
                    }
                    Err(stop) => {
                        if furthest
                            .as_ref()
                            .is_none_or(|f| f.progress() < stop.progress())
                        {
                            furthest = Some(stop);
                        }
                    }
                }
            }
            match (found, furthest) {
                (Some((notation, moves)), _) => (Some(notation), moves),
                (None, Some(stop)) => {
                    return Err(PgnError {
                        game: self.number,
                        line: stop.line,
                        kind: PgnErrorKind::BadMove {
                            ply: stop.ply + 1,
                            error: stop.error,
                            notations_tried: order.len(),
                        },
                    })
                }
                (None, None) => {
                    return Err(PgnError {
                        game: self.number,
                        line: self.line,
                        kind: PgnErrorKind::NoNotation,
                    })
                }
            }
        };
        Ok(Game {
            number: self.number,
            line: self.line,
            tags: self.tags,
            start,
            notation,
            comments_before: self.comments_before,
            moves,
            result: self.result,
        })
    }
}

/// Reads every game of a PGN text, each in the first of `notations` that reads all its moves
/// (see [`PgnRecord::read`]). After an error, that error and nothing more.
pub fn read_games<'a>(
    text: &'a str,
    notations: &'a [Notation],
) -> impl Iterator<Item = Result<Game, PgnError>> + 'a {
    let mut failed = false;
    records(text).map_while(move |record| {
        if failed {
            return None;
        }
        let game = record.and_then(|r| r.read(notations));
        failed = game.is_err();
        Some(game)
    })
}

/// Reads `movetext` (moves with optional numbers, comments and annotations, no tags) as one
/// game from `start`: what a command line's `--moves` holds.
pub fn read_movetext(
    start: Position,
    movetext: &str,
    notations: &[Notation],
) -> Result<Game, PgnError> {
    let mut recs = records(movetext);
    let record = recs.next().transpose()?.unwrap_or_default();
    if let Some(extra) = recs.next() {
        let line = match &extra {
            Ok(r) => r.line,
            Err(e) => e.line,
        };
        return Err(PgnError {
            game: 1,
            line,
            kind: PgnErrorKind::MoreThanOneGame,
        });
    }
    let record = PgnRecord {
        number: 1,
        line: record.line.max(1),
        ..record
    };
    if !record.tags.is_empty() {
        return Err(PgnError {
            game: 1,
            line: record.line,
            kind: PgnErrorKind::TagsInMovetext,
        });
    }
    record.read_from(start, notations)
}
