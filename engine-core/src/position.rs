//! The board state: bitboards, mailbox, incremental Zobrist key and rule counters; make/unmake.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::notation::RankBase;
use crate::piece::{Color, Piece, PieceKind};
use crate::square::Square;
use crate::zobrist;

/// A xiangqi position.
///
/// Representation: one `u128` bitboard per colour and per kind, a 90-entry mailbox for
/// "what is on this square", per-file occupancy words for sliding attacks, and both generals'
/// squares. Make/unmake updates everything incrementally and returns an [`Undo`] record.
#[derive(Clone)]
pub struct Position {
    pub(crate) board: [Option<Piece>; 90],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) by_kind: [Bitboard; 7],
    pub(crate) occupied: Bitboard,
    /// Occupancy of each file, bit `r` = rank `r`, kept incrementally for file slides.
    pub(crate) file_occ: [u16; 9],
    pub(crate) general: [Square; 2],
    pub(crate) side: Color,
    pub(crate) key: u64,
    /// Plies since the last capture (the FEN half-move clock).
    pub(crate) no_capture_plies: u16,
    /// Checking moves made by each side since the last capture (the no-capture rule's check cap).
    pub(crate) checks_since_capture: [u16; 2],
    pub(crate) fullmove: u16,
    /// Pieces giving check to the side to move.
    pub(crate) checkers: Bitboard,
}

/// What [`Position::make_move`] needs to restore the previous position, and a neutral record of
/// what the move changed on the board (for incremental evaluation): `moved` went from the move's
/// `from` square to its `to` square, removing `captured` there.
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    /// The piece that moved (`None` for a null move).
    pub moved: Option<Piece>,
    /// The piece captured by the move, if any.
    pub captured: Option<Piece>,
    key: u64,
    no_capture_plies: u16,
    checks_since_capture: [u16; 2],
    checkers: Bitboard,
}

impl Position {
    /// An empty board (no generals): a starting point for builders such as the FEN parser.
    /// Not a legal position until generals are placed and it is validated.
    pub(crate) fn empty() -> Position {
        Position {
            board: [None; 90],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 7],
            occupied: Bitboard::EMPTY,
            file_occ: [0; 9],
            general: [
                Square::from_index_unchecked(4),
                Square::from_index_unchecked(85),
            ],
            side: Color::Red,
            key: 0,
            no_capture_plies: 0,
            checks_since_capture: [0; 2],
            fullmove: 1,
            checkers: Bitboard::EMPTY,
        }
    }

    /// The standard initial position.
    pub fn startpos() -> Position {
        Position::from_fen(crate::fen::START_FEN).expect("the start FEN is valid")
    }

    /// Places `piece` on the empty square `sq`, updating every derived field.
    #[inline(always)]
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        debug_assert!(self.board[sq.index()].is_none());
        let bb = Bitboard::from_square(sq);
        self.board[sq.index()] = Some(piece);
        self.by_color[piece.color().index()] |= bb;
        self.by_kind[piece.kind().index()] |= bb;
        self.occupied |= bb;
        self.file_occ[sq.file() as usize] |= 1 << sq.rank();
        self.key ^= zobrist::piece_square(piece, sq);
        if piece.kind() == PieceKind::General {
            self.general[piece.color().index()] = sq;
        }
    }

    /// Removes the piece on `sq` (which must be occupied) and returns it.
    #[inline(always)]
    fn take(&mut self, sq: Square) -> Piece {
        let piece = self.board[sq.index()].expect("take from an occupied square");
        let bb = Bitboard::from_square(sq);
        self.board[sq.index()] = None;
        self.by_color[piece.color().index()] ^= bb;
        self.by_kind[piece.kind().index()] ^= bb;
        self.occupied ^= bb;
        self.file_occ[sq.file() as usize] &= !(1 << sq.rank());
        self.key ^= zobrist::piece_square(piece, sq);
        piece
    }

    /// Side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// What stands on `sq`.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// All pieces of `color`.
    #[inline(always)]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// All pieces of `kind`, both colours.
    #[inline(always)]
    pub fn pieces_of_kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// Pieces of `color` and `kind`.
    #[inline(always)]
    pub fn pieces_of(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// Occupancy word of `file` (bit `r` = rank `r`), for the slide functions
    /// ([`chariot_attacks`](crate::chariot_attacks) and the cannon's).
    #[inline(always)]
    pub fn file_occupancy(&self, file: u8) -> u16 {
        self.file_occ[file as usize]
    }

    /// Square of `color`'s general.
    #[inline(always)]
    pub fn general_square(&self, color: Color) -> Square {
        self.general[color.index()]
    }

    /// Zobrist key of the placement and side to move (not the counters).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Plies since the last capture (or since the FEN's half-move clock started).
    #[inline(always)]
    pub fn no_capture_plies(&self) -> u16 {
        self.no_capture_plies
    }

    /// Checking moves made by `color` since the last capture (counted from the FEN, which carries
    /// none). A capturing move resets both counters, even if it checks.
    #[inline(always)]
    pub fn checks_since_capture(&self, color: Color) -> u16 {
        self.checks_since_capture[color.index()]
    }

    /// Full-move number (starts at 1, incremented after Black moves).
    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Sets the half-move clock, e.g. when a protocol supplies history separately.
    pub fn set_no_capture_plies(&mut self, plies: u16) {
        self.no_capture_plies = plies;
    }

    /// The key computed from scratch; equals [`Position::key`] in a consistent position (tests).
    pub fn compute_key(&self) -> u64 {
        let mut key = zobrist::side(self.side);
        for sq in self.occupied {
            if let Some(p) = self.board[sq.index()] {
                key ^= zobrist::piece_square(p, sq);
            }
        }
        key
    }

    /// Whether the pieces of `attacker_color` attack `sq` on this board. Generals count as
    /// attacking along an open file (the flying-general prohibition).
    pub fn is_attacked(&self, sq: Square, attacker_color: Color) -> bool {
        self.attackers_to(sq, attacker_color, self.occupied).any()
    }

    /// Pieces of `attacker_color` that attack `sq` when the board's occupancy is `occ` (pieces
    /// of the attacker that are not in `occ` are ignored).
    pub fn attackers_to(&self, sq: Square, attacker_color: Color, occ: Bitboard) -> Bitboard {
        let file_occ = if occ == self.occupied {
            self.file_occ[sq.file() as usize]
        } else {
            attacks::file_occupancy(occ, sq.file())
        };
        let mine = self.by_color[attacker_color.index()] & occ;
        self.attackers_with(sq, occ, file_occ, mine, attacker_color)
    }

    /// Attackers of `sq` among `attackers` (a subset of one colour's pieces, `attacker_color`)
    /// with occupancy `occ` and `file_occ` the occupancy word of `sq`'s file.
    #[inline(always)]
    pub(crate) fn attackers_with(
        &self,
        sq: Square,
        occ: Bitboard,
        file_occ: u16,
        attackers: Bitboard,
        attacker_color: Color,
    ) -> Bitboard {
        let k = &self.by_kind;
        let rooklike = (k[PieceKind::Chariot.index()] | k[PieceKind::General.index()]) & attackers;
        let mut found = attacks::chariot_attacks(sq, occ, file_occ) & rooklike;
        found |=
            attacks::cannon_attacks(sq, occ, file_occ) & k[PieceKind::Cannon.index()] & attackers;
        found |= attacks::horse_attackers(sq, occ) & k[PieceKind::Horse.index()] & attackers;
        found |= attacks::soldier_attackers(attacker_color, sq)
            & k[PieceKind::Soldier.index()]
            & attackers;
        found
    }

    /// Pieces giving check to `color`'s general.
    #[inline(always)]
    pub(crate) fn compute_checkers(&self, color: Color) -> Bitboard {
        let sq = self.general[color.index()];
        let them = color.opponent();
        self.attackers_with(
            sq,
            self.occupied,
            self.file_occ[sq.file() as usize],
            self.by_color[them.index()],
            them,
        )
    }

    /// Plays `mv`, which must be legal in this position, and returns what [`Position::unmake_move`]
    /// needs. Updates the key, counters and the checkers of the new side to move.
    #[inline]
    pub fn make_move(&mut self, mv: Move) -> Undo {
        let (from, to) = (mv.from(), mv.to());
        let mut undo = Undo {
            moved: None,
            captured: self.board[to.index()],
            key: self.key,
            no_capture_plies: self.no_capture_plies,
            checks_since_capture: self.checks_since_capture,
            checkers: self.checkers,
        };
        if undo.captured.is_some() {
            self.take(to);
        }
        let piece = self.take(from);
        undo.moved = Some(piece);
        self.put(piece, to);
        let us = self.side;
        if us == Color::Black {
            self.fullmove = self.fullmove.wrapping_add(1);
        }
        self.side = us.opponent();
        self.key ^= zobrist::SIDE_TO_MOVE;
        self.checkers = self.compute_checkers(self.side);
        if undo.captured.is_some() {
            self.no_capture_plies = 0;
            self.checks_since_capture = [0; 2];
        } else {
            self.no_capture_plies = self.no_capture_plies.saturating_add(1);
            if self.checkers.any() {
                let c = &mut self.checks_since_capture[us.index()];
                *c = c.saturating_add(1);
            }
        }
        undo
    }

    /// Takes back `mv`, restoring the position exactly as before [`Position::make_move`].
    #[inline]
    pub fn unmake_move(&mut self, mv: Move, undo: Undo) {
        let (from, to) = (mv.from(), mv.to());
        let piece = self.take(to);
        self.put(piece, from);
        if let Some(captured) = undo.captured {
            self.put(captured, to);
        }
        self.side = self.side.opponent();
        if self.side == Color::Black {
            self.fullmove = self.fullmove.wrapping_sub(1);
        }
        self.key = undo.key;
        self.no_capture_plies = undo.no_capture_plies;
        self.checks_since_capture = undo.checks_since_capture;
        self.checkers = undo.checkers;
    }

    /// Passes the turn (for null-move pruning). Must not be called in check. Counts as a
    /// non-capturing ply for the no-capture clock.
    #[inline]
    pub fn make_null(&mut self) -> Undo {
        debug_assert!(!self.in_check());
        let undo = Undo {
            moved: None,
            captured: None,
            key: self.key,
            no_capture_plies: self.no_capture_plies,
            checks_since_capture: self.checks_since_capture,
            checkers: self.checkers,
        };
        if self.side == Color::Black {
            self.fullmove = self.fullmove.wrapping_add(1);
        }
        self.side = self.side.opponent();
        self.key ^= zobrist::SIDE_TO_MOVE;
        self.no_capture_plies = self.no_capture_plies.saturating_add(1);
        self.checkers = self.compute_checkers(self.side);
        undo
    }

    /// Takes back [`Position::make_null`].
    #[inline]
    pub fn unmake_null(&mut self, undo: Undo) {
        self.side = self.side.opponent();
        if self.side == Color::Black {
            self.fullmove = self.fullmove.wrapping_sub(1);
        }
        self.key = undo.key;
        self.no_capture_plies = undo.no_capture_plies;
        self.checks_since_capture = undo.checks_since_capture;
        self.checkers = undo.checkers;
    }

    /// Whether neither side has a piece that can attack across the river (chariot, horse,
    /// cannon or soldier): the Law's draw by insufficient material (Điều 20.4 b.6).
    pub fn has_no_attacking_material(&self) -> bool {
        let k = &self.by_kind;
        (k[PieceKind::Chariot.index()]
            | k[PieceKind::Horse.index()]
            | k[PieceKind::Cannon.index()]
            | k[PieceKind::Soldier.index()])
        .is_empty()
    }
}

impl PartialEq for Position {
    /// Same placement, side to move and counters.
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.no_capture_plies == other.no_capture_plies
            && self.checks_since_capture == other.checks_since_capture
            && self.fullmove == other.fullmove
    }
}

impl Eq for Position {}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl Position {
    /// A text diagram of the board, Black at the top, the river marked, ranks numbered from
    /// `base` and files lettered; one line per rank, then the file letters.
    pub fn diagram(&self, base: RankBase) -> String {
        crate::Diagram::new(self).rank_base(base).to_string()
    }
}

impl std::fmt::Display for Position {
    /// A text diagram, Black at the top, with ranks (0-9) and files labelled, followed by the
    /// FEN.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}FEN: {}", self.diagram(RankBase::Zero), self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagram_numbers_ranks_in_either_base() {
        let pos = Position::startpos();
        let zero = pos.diagram(RankBase::Zero);
        let one = pos.diagram(RankBase::One);
        assert_eq!(zero.lines().count(), 12);
        assert_eq!(zero.lines().next(), Some("9  r n b a k a b n r"));
        assert_eq!(one.lines().next(), Some("10  r n b a k a b n r"));
        assert_eq!(one.lines().nth(11), Some("    a b c d e f g h i"));
        assert!(pos.to_string().starts_with(&zero));
        assert!(pos.to_string().ends_with(&format!("FEN: {}", pos.to_fen())));
    }
}
