//! What the archive formats share: a board given as the squares of the 32 pieces in the
//! traditional order (XQF and DhtmlXQ list Red's R N B A K A B N R C C P P P P P, then Black's),
//! and a main line given as origin and destination squares, turned into a [`Game`] whose moves
//! are checked to be legal one by one.

use super::{ArchiveError, ArchiveFormat};
use crate::fen::START_FEN;
use crate::moves::Move;
use crate::notation::{move_text, Notation, RankBase};
use crate::pgn::{Game, GameMove};
use crate::piece::{Color, Piece, PieceKind};
use crate::position::Position;
use crate::square::Square;

/// Pieces listed per side.
pub(super) const PIECES_PER_SIDE: usize = 16;

/// Pieces listed in all.
pub(super) const PIECES: usize = 2 * PIECES_PER_SIDE;

/// The kind of each piece of a side's list, in the order the formats list them.
const PIECE_ORDER: [PieceKind; PIECES_PER_SIDE] = [
    PieceKind::Chariot,
    PieceKind::Horse,
    PieceKind::Elephant,
    PieceKind::Advisor,
    PieceKind::General,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Chariot,
    PieceKind::Cannon,
    PieceKind::Cannon,
    PieceKind::Soldier,
    PieceKind::Soldier,
    PieceKind::Soldier,
    PieceKind::Soldier,
    PieceKind::Soldier,
];

/// The piece listed at `index` (0..32: Red's 16, then Black's).
fn listed_piece(index: usize) -> Piece {
    let color = if index < PIECES_PER_SIDE {
        Color::Red
    } else {
        Color::Black
    };
    Piece::new(color, PIECE_ORDER[index % PIECES_PER_SIDE])
}

/// The start position of a piece list (`None`: the piece is not on the board), with the side
/// to move that owns the piece on `first_from` (the first move's origin; Red without one): the
/// formats do not all say who moves first, and the readers they come from infer it so.
pub(super) fn position_of(
    format: ArchiveFormat,
    squares: &[Option<Square>; PIECES],
    first_from: Option<Square>,
) -> Result<Position, ArchiveError> {
    let mut board: [Option<Piece>; Square::COUNT] = [None; Square::COUNT];
    for (i, sq) in squares.iter().enumerate() {
        if let Some(sq) = *sq {
            if board[sq.index()].is_some() {
                let mut name = String::new();
                sq.write_text(&mut name, 0);
                return Err(ArchiveError::new(
                    format,
                    format!("two pieces on the square {name}"),
                ));
            }
            board[sq.index()] = Some(listed_piece(i));
        }
    }
    let side = first_from
        .and_then(|sq| board[sq.index()])
        .map_or(Color::Red, Piece::color);
    let mut fen = String::with_capacity(96);
    for rank in (0..10).rev() {
        let mut empty = 0;
        for file in 0..9 {
            match Square::new(file, rank).and_then(|sq| board[sq.index()]) {
                Some(piece) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(piece.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if side == Color::Red { " w" } else { " b" });
    Position::from_fen(&fen)
        .map_err(|e| ArchiveError::new(format, format!("the board is not a position: {e}")))
}

/// A game from `start` and its main line, every move checked legal; `tags` with empty values
/// dropped, the result (`1-0`, ...) as both a `Result` tag and the termination marker, and a
/// FEN tag for a start other than the initial position.
pub(super) fn game_of(
    format: ArchiveFormat,
    start: Position,
    line: &[(Square, Square)],
    mut tags: Vec<(String, String)>,
    result: Option<&str>,
) -> Result<Game, ArchiveError> {
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(line.len());
    for (i, &(from, to)) in line.iter().enumerate() {
        let mv = Move::new(from, to);
        let text = move_text(mv, RankBase::Zero);
        if from == to || !pos.is_legal(mv) {
            return Err(ArchiveError::new(
                format,
                format!(
                    "move {} ({text}) is not legal in its position ({})",
                    i + 1,
                    pos.to_fen()
                ),
            ));
        }
        pos.make_move(mv);
        moves.push(GameMove {
            mv,
            text,
            line: 1,
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        });
    }
    tags.retain(|(_, v)| !v.trim().is_empty());
    if let Some(r) = result {
        tags.push(("Result".into(), r.into()));
    }
    let fen = start.to_fen();
    if fen != START_FEN {
        tags.push(("SetUp".into(), "1".into()));
        tags.push(("FEN".into(), fen));
    }
    Ok(Game {
        number: 1,
        line: 1,
        tags,
        start,
        notation: (!moves.is_empty()).then_some(Notation::Iccs(RankBase::Zero)),
        comments_before: Vec::new(),
        moves,
        result: result.map(str::to_string),
    })
}
