//! Legal move generation.
//!
//! Moves are generated per piece as target bitboards. Most are legal without further work: when
//! the side to move is not in check, a move by a non-general piece can only expose its general if
//! the piece is a *blocker* (the only piece between the general and an enemy chariot or general;
//! one of the two pieces between the general and an enemy cannon; or standing on the leg of an
//! enemy horse aimed at the general), or if it lands between the general and an enemy cannon with
//! nothing in between (becoming that cannon's *screen*). Everything else is legal by construction,
//! which lets perft count leaf moves with a popcount. General moves, blocker moves and every move
//! while in check are verified by recomputing the attacks on the general after the move.

use crate::attacks::{self, Direction};
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::Square;

/// Receives generated moves: a list (search) or a counter (perft leaves).
trait MoveSink {
    /// Adds moves `from -> t` for every `t` in `targets`, all known legal.
    fn add_all(&mut self, from: Square, targets: Bitboard);
    /// Adds one move known legal.
    fn add_one(&mut self, from: Square, to: Square);
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn add_all(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            // Capacity is MAX_MOVES, above the maximum number of moves in any position.
            self.push(Move::new(from, to));
        }
    }
    #[inline(always)]
    fn add_one(&mut self, from: Square, to: Square) {
        self.push(Move::new(from, to));
    }
}

struct Counter(u64);

impl MoveSink for Counter {
    #[inline(always)]
    fn add_all(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn add_one(&mut self, _from: Square, _to: Square) {
        self.0 += 1;
    }
}

/// Pieces whose moves need a full legality check, and empty squares a move must not land on.
struct KingShield {
    blockers: Bitboard,
    screens: Bitboard,
    /// In check: the only destinations that can resolve it (capture the checker or interpose).
    evasion_targets: Bitboard,
    /// In check: pieces allowed any destination anyway (our own piece serving as a checking
    /// cannon's screen, which resolves the check by stepping off the line).
    unrestricted: Bitboard,
}

#[inline(always)]
fn nearest(dir: Direction, set: Bitboard) -> Option<Square> {
    if dir.is_increasing() {
        set.first()
    } else {
        set.last()
    }
}

/// Squares strictly between two squares on one rank or file (empty if not aligned).
fn between_on_line(a: Square, b: Square) -> Bitboard {
    let dir = if a.file() == b.file() {
        if b.rank() > a.rank() {
            Direction::North
        } else {
            Direction::South
        }
    } else if a.rank() == b.rank() {
        if b.file() > a.file() {
            Direction::East
        } else {
            Direction::West
        }
    } else {
        return Bitboard::EMPTY;
    };
    attacks::ray(dir, a).without(attacks::ray(dir, b) | Bitboard::from_square(b))
}

/// The leg square of a horse on `horse` attacking `target` (the orthogonal neighbour of the horse
/// in the direction of its two-step component).
fn horse_leg_towards(horse: Square, target: Square) -> Bitboard {
    let df = target.file() as i8 - horse.file() as i8;
    let dr = target.rank() as i8 - horse.rank() as i8;
    let leg = if df.abs() == 2 {
        horse.offset(df / 2, 0)
    } else {
        horse.offset(0, dr / 2)
    };
    leg.map_or(Bitboard::EMPTY, Bitboard::from_square)
}

impl Position {
    /// Blockers and cannon-screen squares around the side to move's general (see module docs).
    #[inline]
    fn king_shield(&self) -> KingShield {
        let us = self.side;
        let them = us.opponent();
        let ksq = self.general[us.index()];
        let own = self.by_color[us.index()];
        let enemy = self.by_color[them.index()];
        let k = &self.by_kind;
        let rooklike = (k[PieceKind::Chariot.index()] | k[PieceKind::General.index()]) & enemy;
        let cannons = k[PieceKind::Cannon.index()] & enemy;
        let mut blockers = Bitboard::EMPTY;
        let mut screens = Bitboard::EMPTY;
        let sliders = rooklike | cannons;
        for dir in Direction::ALL {
            let full_ray = attacks::ray(dir, ksq);
            // Only a ray holding an enemy chariot, general or cannon can pin or need a screen.
            if (full_ray & sliders).is_empty() {
                continue;
            }
            let line = full_ray & self.occupied;
            let Some(p1) = nearest(dir, line) else {
                continue;
            };
            if cannons.contains(p1) {
                screens |= full_ray.without(attacks::ray(dir, p1) | Bitboard::from_square(p1));
            }
            let rest = line.without(Bitboard::from_square(p1));
            let Some(p2) = nearest(dir, rest) else {
                continue;
            };
            if own.contains(p1) && rooklike.contains(p2) {
                blockers.insert(p1);
            }
            if let Some(p3) = nearest(dir, rest.without(Bitboard::from_square(p2))) {
                if cannons.contains(p3) {
                    blockers |= (Bitboard::from_square(p1) | Bitboard::from_square(p2)) & own;
                }
            }
        }
        let horses = k[PieceKind::Horse.index()] & enemy;
        if (attacks::horse_attackers(ksq, Bitboard::EMPTY) & horses).any() {
            for d in 0..4 {
                if let Some((leg, sources)) = attacks::horse_attack_leg(ksq, d) {
                    if own.contains(leg) && (sources & horses).any() {
                        blockers.insert(leg);
                    }
                }
            }
        }
        KingShield {
            blockers,
            screens,
            evasion_targets: Bitboard::FULL,
            unrestricted: Bitboard::EMPTY,
        }
    }

    /// The shield used while in check: every move is verified, and non-general moves are limited
    /// to squares that can answer a single check. A double check keeps all destinations (rare,
    /// and in xiangqi not always answerable by the general alone).
    fn evasion_shield(&self) -> KingShield {
        let mut shield = KingShield {
            blockers: Bitboard::FULL,
            screens: Bitboard::EMPTY,
            evasion_targets: Bitboard::FULL,
            unrestricted: Bitboard::EMPTY,
        };
        if self.checkers.more_than_one() {
            return shield;
        }
        let Some(checker) = self.checkers.first() else {
            return shield;
        };
        let ksq = self.general[self.side.index()];
        let Some(kind) = self.board[checker.index()].map(|p| p.kind()) else {
            return shield;
        };
        let checker_bb = Bitboard::from_square(checker);
        shield.evasion_targets = match kind {
            PieceKind::Chariot | PieceKind::Cannon | PieceKind::General => {
                let between = between_on_line(ksq, checker);
                if kind == PieceKind::Cannon {
                    shield.unrestricted = between & self.by_color[self.side.index()];
                }
                between.without(self.occupied) | checker_bb
            }
            PieceKind::Horse => {
                let leg = horse_leg_towards(checker, ksq);
                checker_bb | leg
            }
            _ => checker_bb,
        };
        shield
    }

    /// The occupancy after moving the piece on `from` to `to`, with the occupancy word of `file`
    /// patched to match (the slide lookups need both), without touching the position.
    #[inline(always)]
    fn occupancy_after(&self, from: Square, to: Square, file: u8) -> (Bitboard, u16) {
        let occ = (self.occupied ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
        let mut file_occ = self.file_occ[file as usize];
        if from.file() == file {
            file_occ &= !(1 << from.rank());
        }
        if to.file() == file {
            file_occ |= 1 << to.rank();
        }
        (occ, file_occ)
    }

    /// Whether moving the piece on `from` to `to` leaves the mover's general unattacked.
    /// `from -> to` must be a pseudo-legal move of the side to move.
    #[inline]
    pub(crate) fn leaves_general_safe(&self, from: Square, to: Square) -> bool {
        let us = self.side;
        let them = us.opponent();
        let ksq = if from == self.general[us.index()] {
            to
        } else {
            self.general[us.index()]
        };
        let (occ, focc) = self.occupancy_after(from, to, ksq.file());
        let enemy = self.by_color[them.index()].without(Bitboard::from_square(to));
        self.attackers_with(ksq, occ, focc, enemy, them).is_empty()
    }

    /// Pseudo-legal targets of the non-general piece `kind` on `from`, restricted to `mask`.
    #[inline(always)]
    fn piece_targets(&self, kind: PieceKind, from: Square, mask: Bitboard) -> Bitboard {
        let us = self.side;
        let occ = self.occupied;
        let t = match kind {
            PieceKind::Chariot => {
                attacks::chariot_attacks(from, occ, self.file_occ[from.file() as usize])
            }
            PieceKind::Cannon => {
                let focc = self.file_occ[from.file() as usize];
                let enemy = self.by_color[us.opponent().index()];
                (attacks::chariot_attacks(from, occ, focc).without(occ))
                    | (attacks::cannon_attacks(from, occ, focc) & enemy)
            }
            PieceKind::Horse => attacks::horse_moves(from, occ),
            PieceKind::Elephant => attacks::elephant_moves(from, occ),
            PieceKind::Advisor => attacks::advisor_moves(from),
            PieceKind::Soldier => attacks::soldier_moves(us, from),
            PieceKind::General => attacks::general_moves(from),
        };
        t & mask
    }

    /// Emits the moves of `pieces` (one kind), with `targets_of` giving each piece's pseudo-legal
    /// destinations: unchecked for ordinary pieces, verified one by one for shield blockers.
    #[inline(always)]
    fn emit_kind<S: MoveSink>(
        &self,
        pieces: Bitboard,
        shield: &KingShield,
        sink: &mut S,
        targets_of: impl Fn(Square) -> Bitboard,
    ) {
        for from in pieces.without(shield.blockers) {
            sink.add_all(from, targets_of(from).without(shield.screens));
        }
        for from in pieces & shield.blockers {
            let mut targets = targets_of(from);
            if (shield.unrestricted & Bitboard::from_square(from)).is_empty() {
                targets &= shield.evasion_targets;
            }
            for to in targets {
                if self.leaves_general_safe(from, to) {
                    sink.add_one(from, to);
                }
            }
        }
    }

    /// Generates every legal move whose destination is in `mask` (a subset of the squares not
    /// occupied by the side to move) into `sink`.
    #[inline(always)]
    fn generate_into<S: MoveSink>(&self, mask: Bitboard, sink: &mut S) {
        let us = self.side;
        let own = self.by_color[us.index()];
        let shield = if self.checkers.any() {
            self.evasion_shield()
        } else {
            self.king_shield()
        };
        let occ = self.occupied;
        let enemy = self.by_color[us.opponent().index()];
        let k = &self.by_kind;
        // One straight loop per kind (no per-piece dispatch): this is perft's hottest code.
        self.emit_kind(own & k[PieceKind::Chariot.index()], &shield, sink, |from| {
            attacks::chariot_attacks(from, occ, self.file_occ[from.file() as usize]) & mask
        });
        self.emit_kind(own & k[PieceKind::Cannon.index()], &shield, sink, |from| {
            let focc = self.file_occ[from.file() as usize];
            let quiet = attacks::chariot_attacks(from, occ, focc).without(occ);
            let captures = attacks::cannon_attacks(from, occ, focc) & enemy;
            (quiet | captures) & mask
        });
        self.emit_kind(own & k[PieceKind::Horse.index()], &shield, sink, |from| {
            attacks::horse_moves(from, occ) & mask
        });
        self.emit_kind(own & k[PieceKind::Soldier.index()], &shield, sink, |from| {
            attacks::soldier_moves(us, from) & mask
        });
        self.emit_kind(own & k[PieceKind::Advisor.index()], &shield, sink, |from| {
            attacks::advisor_moves(from) & mask
        });
        self.emit_kind(
            own & k[PieceKind::Elephant.index()],
            &shield,
            sink,
            |from| attacks::elephant_moves(from, occ) & mask,
        );
        let ksq = self.general[us.index()];
        for to in attacks::general_moves(ksq) & mask {
            if self.leaves_general_safe(ksq, to) {
                sink.add_one(ksq, to);
            }
        }
    }

    /// Every legal move. When in check these are exactly the check evasions.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_into(!self.by_color[self.side.index()], &mut list);
        list
    }

    /// Legal captures only (for quiescence search).
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_into(self.by_color[self.side.opponent().index()], &mut list);
        list
    }

    /// Legal non-captures only.
    pub fn legal_quiets(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_into(!self.occupied, &mut list);
        list
    }

    /// Legal moves when in check (captures of the checker, interpositions, general moves,
    /// moving a cannon's screen away). Equal to [`Position::legal_moves`] in check; empty otherwise.
    pub fn check_evasions(&self) -> MoveList {
        if self.in_check() {
            self.legal_moves()
        } else {
            MoveList::new()
        }
    }

    /// Number of legal moves, without building a list (perft's bulk counting).
    ///
    /// Counting is popcount-bound, and the portable x86-64 baseline has no POPCNT instruction, so
    /// on x86-64 a copy compiled with POPCNT is chosen at run time when the CPU has it (about 2x
    /// faster perft in a portable build; builds with `target-cpu` >= x86-64-v2 use it anyway).
    pub fn count_legal_moves(&self) -> u64 {
        #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: `count_legal_moves_popcnt` only requires the `popcnt` target feature, and
            // the line above has just checked that the running CPU supports it.
            return unsafe { self.count_legal_moves_popcnt() };
        }
        self.count_legal_moves_portable()
    }

    #[inline(always)]
    fn count_legal_moves_portable(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate_into(!self.by_color[self.side.index()], &mut counter);
        counter.0
    }

    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    #[target_feature(enable = "popcnt")]
    fn count_legal_moves_popcnt(&self) -> u64 {
        self.count_legal_moves_portable()
    }

    /// Whether the side to move has any legal move (no legal move = it loses: mate or stalemate).
    pub fn has_legal_move(&self) -> bool {
        // Counting is cheap enough; a dedicated early-exit path is not worth its code yet.
        self.count_legal_moves() > 0
    }

    /// Whether `mv` is a legal move here. Accepts any `Move` value (e.g. from a hash table or a
    /// user) and never panics.
    pub fn is_legal(&self, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.board[from.index()] else {
            return false;
        };
        if piece.color() != self.side || self.by_color[self.side.index()].contains(to) {
            return false;
        }
        let targets = self.piece_targets(piece.kind(), from, Bitboard::from_square(to));
        targets.any() && self.leaves_general_safe(from, to)
    }

    /// Whether the legal move `mv` checks the opponent's general (including by discovery and by
    /// a cannon screen it creates, and the flying-general line).
    pub fn gives_check(&self, mv: Move) -> bool {
        let us = self.side;
        let them = us.opponent();
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.board[from.index()] else {
            return false;
        };
        let ksq = self.general[them.index()];
        if !may_affect_checks(from, ksq) && !may_affect_checks(to, ksq) {
            return false;
        }
        let from_bb = Bitboard::from_square(from);
        let (occ, focc) = self.occupancy_after(from, to, ksq.file());
        let mut ours = self.by_color[us.index()];
        ours ^= from_bb;
        // Test with the piece removed from `from`, then the moved piece's own attack from `to`.
        let k = &self.by_kind;
        let rooklike = (k[PieceKind::Chariot.index()] | k[PieceKind::General.index()]) & ours;
        let slide = attacks::chariot_attacks(ksq, occ, focc);
        if (slide & rooklike).any()
            || (attacks::cannon_attacks(ksq, occ, focc) & k[PieceKind::Cannon.index()] & ours).any()
            || (attacks::horse_attackers(ksq, occ) & k[PieceKind::Horse.index()] & ours).any()
        {
            return true;
        }
        match piece.kind() {
            PieceKind::Chariot | PieceKind::General => slide.contains(to),
            PieceKind::Cannon => attacks::cannon_attacks(ksq, occ, focc).contains(to),
            PieceKind::Horse => attacks::horse_attackers(ksq, occ).contains(to),
            PieceKind::Soldier => attacks::soldier_attackers(us, ksq).contains(to),
            PieceKind::Advisor | PieceKind::Elephant => false,
        }
    }
}

/// Whether a piece leaving or reaching `sq` can change the checks on a general at `general`.
/// Chariots, cannons, their screens and the flying general act along the general's file and
/// rank; horses, their legs and soldiers act from within two files and two ranks of it. A move
/// with both ends elsewhere gives no check, which settles most quiet moves without a lookup.
#[inline(always)]
fn may_affect_checks(sq: Square, general: Square) -> bool {
    sq.file() == general.file()
        || sq.rank() == general.rank()
        || (sq.file().abs_diff(general.file()) <= 2 && sq.rank().abs_diff(general.rank()) <= 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Color;

    #[test]
    fn start_position_has_44_moves() {
        let pos = Position::startpos();
        assert_eq!(pos.legal_moves().len(), 44);
        assert_eq!(pos.count_legal_moves(), 44);
        assert_eq!(pos.legal_captures().len(), 2);
        assert_eq!(pos.legal_quiets().len(), 42);
        assert_eq!(pos.side_to_move(), Color::Red);
    }
}
