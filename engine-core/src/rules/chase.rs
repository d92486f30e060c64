//! Threat ("chase", Vietnamese "dọa bắt" / "đuổi bắt") detection for the perpetual-chase rule
//! (Điều 22 terms 4, 14-16; Điều 23 points 3-9; Điều 24.11-24.33).
//!
//! [`threats`] lists, for one side, every enemy piece that side could legally capture on its next
//! move, each marked with why repeating the threat would be forbidden (or `None` when it is
//! allowed). The cycle judge (`cycle.rs`) compares the lists before and after each move, so only
//! threats a move *creates* (directly, by discovery, by moving a screen, or by pinning or blocking
//! the target's protector) count as that move's chase.
//!
//! Decisions taken here (all from the Law's text; see `docs/rules.md`):
//! - Chasers are chariots, horses, cannons, advisors and elephants. A general or a soldier never
//!   chases (Điều 23 point 9, Điều 24.24-24.25); with the per-target intersection of the cycle
//!   judge this also makes a General/Pawn taking turns with another piece a draw.
//! - A pinned attacker (one whose removal would expose its own general, flying general included)
//!   threatens only the pieces that pin it, and only its own move can make that a chase: the
//!   chariot that steps into a horse's leg (Điều 24.19 Hình 50) or between a checking cannon and
//!   its general (Hình 37) chases the checking piece; the chariot that stays pinned "cannot move,
//!   so it is not chasing" (Điều 24.15 Hình 39), and a chariot confined to a line by a cannon
//!   moves along it without attacking anything anew (Điều 24.23: "its movements along that line
//!   are not attacks").
//! - Targets are every enemy piece except the general; a soldier only once it has crossed the
//!   river (Điều 23 point 3, Điều 24.21, 24.27).
//! - A threat counts when the target is unprotected or only falsely protected (no legal immediate
//!   recapture: the protector is pinned, its leg is blocked, the recapture would face the generals,
//!   a cannon loses its screen...), Điều 22 terms 15-16, Điều 23 point 6, Điều 24.30.
//! - A horse or cannon threatening a chariot counts even when the chariot is really protected
//!   (Điều 23 point 6, Điều 24.11, 24.22, 24.23).
//! - A really protected target that is pinned and cannot move at all still counts (Điều 23
//!   point 7 "bị ghim không dịch chuyển được", 24.15); switchable with
//!   [`ChaseRules::immobile_target_counts`], off by default under the Asian rules, which have no
//!   such rule (`RuleSet::immobile_targets_count`). A piece that merely has no free square (an elephant
//!   with both eyes blocked, an advisor boxed in by its own pieces) is an ordinary protected
//!   target.
//! - Same kind against same kind (chariot/chariot, cannon/cannon, horse/horse) where the target
//!   can legally take the attacker back is an offer, not a chase, whether or not either piece is
//!   protected (Điều 24.20 first bullet, 24.36). Only a target that cannot take back (confined,
//!   pinned, a horse with a blocked leg) is chased (24.20 second bullet, 24.23 Hình 64, Hình 55).
//!   A chase by *another* piece of the same target is judged on its own, so an exchange offer
//!   combined with another piece's chase is still a chase (Điều 23 point 8, 24.32).

use arrayvec::ArrayVec;

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::piece::{Color, PieceKind};
use crate::position::Position;
use crate::square::Square;

/// Why a threat counts as a forbidden chase; chooses the article cited in explanations.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChaseReason {
    /// No enemy piece defends the target (Điều 23 point 3, Điều 24.14).
    Unprotected,
    /// Defended only on paper: no defender can legally recapture (Điều 23 point 6, Điều 24.30).
    FalselyProtected,
    /// A horse or cannon attacks a chariot, protected or not (Điều 23 point 6, Điều 24.11).
    ChariotByHorseOrCannon,
    /// A really protected target that is pinned and has no legal move (Điều 23 point 7, Điều
    /// 24.15).
    ImmobileTarget,
}

impl ChaseReason {
    /// The article a human referee would cite for this kind of chase.
    pub fn article(self) -> &'static str {
        match self {
            ChaseReason::Unprotected => "Điều 23 point 3, Điều 24.14",
            ChaseReason::FalselyProtected => "Điều 23 point 6, Điều 24.30",
            ChaseReason::ChariotByHorseOrCannon => "Điều 23 point 6, Điều 24.11",
            ChaseReason::ImmobileTarget => "Điều 23 point 7, Điều 24.15",
        }
    }

    /// Short description of the target's situation, for explanations.
    pub fn describe(self) -> &'static str {
        match self {
            ChaseReason::Unprotected => "unprotected",
            ChaseReason::FalselyProtected => "only falsely protected",
            ChaseReason::ChariotByHorseOrCannon => "a chariot attacked by a horse or cannon",
            ChaseReason::ImmobileTarget => "pinned and unable to move",
        }
    }

    /// Whether the threat wins material outright (as opposed to an immobile but protected
    /// target): only such threats can be created by undermining a protector.
    pub fn wins_material(self) -> bool {
        self != ChaseReason::ImmobileTarget
    }
}

/// Switches of the chase detector that a tournament might set differently from the Law.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ChaseRules {
    /// Whether a really protected target that is pinned and has no legal move is still chased
    /// (Điều 23 point 7). The default is the Law's; `RuleOptions::for_rule_set` takes the rule
    /// set's.
    pub immobile_target_counts: bool,
}

impl Default for ChaseRules {
    fn default() -> Self {
        ChaseRules {
            immobile_target_counts: true,
        }
    }
}

/// One threat: the piece on `attacker` could legally capture the piece on `target` next move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Threat {
    /// Square of the threatening piece.
    pub attacker: Square,
    /// Square of the threatened piece.
    pub target: Square,
    /// Why repeating this threat is forbidden; `None` when it is allowed (a really protected,
    /// mobile target, or an offer between equal pieces).
    pub chase: Option<ChaseReason>,
    /// The attacker is pinned by the target (see `pinners`). Only the attacker's own move can
    /// create such a threat: a piece that "cannot move because of an opponent's Knight" and
    /// stays where it is does not chase it (Điều 24.15 Hình 39, Asian Diagrams 39-41), while one
    /// that moves into the horse's leg does (Hình 50), or between a checking cannon and its
    /// general (Hình 37).
    pub by_pinned_piece: bool,
}

/// Every threat one side makes at once; fixed capacity (at most 10 chasers, 48 pairs) so that
/// the search never allocates.
pub type ThreatList = ArrayVec<Threat, 64>;

/// Whether a soldier of `color` on `sq` has crossed the river.
fn soldier_crossed(color: Color, sq: Square) -> bool {
    match color {
        Color::Red => sq.rank() >= 5,
        Color::Black => sq.rank() <= 4,
    }
}

/// Squares a piece of `kind` on `sq` could capture on, with occupancy `occ`. Generals and
/// soldiers get their ordinary moves (used for mobility and recaptures).
fn capture_targets(kind: PieceKind, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    let file_occ = attacks::file_occupancy(occ, sq.file());
    match kind {
        PieceKind::Chariot => attacks::chariot_attacks(sq, occ, file_occ),
        PieceKind::Cannon => attacks::cannon_attacks(sq, occ, file_occ),
        PieceKind::Horse => attacks::horse_moves(sq, occ),
        PieceKind::Elephant => attacks::elephant_moves(sq, occ),
        PieceKind::Advisor => attacks::advisor_moves(sq),
        PieceKind::General => attacks::general_moves(sq),
        PieceKind::Soldier => attacks::soldier_moves(color, sq),
    }
}

/// Quiet destinations of a piece of `kind` on `sq` (cannons move like chariots when not
/// capturing).
fn quiet_targets(kind: PieceKind, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    let reach = if kind == PieceKind::Cannon {
        attacks::chariot_attacks(sq, occ, attacks::file_occupancy(occ, sq.file()))
    } else {
        capture_targets(kind, color, sq, occ)
    };
    reach & !occ
}

/// Whether `color`'s general is attacked when the board holds `occ`, ignoring enemy pieces on
/// the squares in `removed` (pieces just captured). `general` is where the general stands.
fn general_attacked(
    pos: &Position,
    color: Color,
    general: Square,
    occ: Bitboard,
    removed: Bitboard,
) -> bool {
    let enemy = color.opponent();
    let attackers = pos.pieces(enemy) & occ & !removed;
    let file_occ = attacks::file_occupancy(occ, general.file());
    pos.attackers_with(general, occ, file_occ, attackers, enemy)
        .any()
}

/// Whether `color` may legally move its piece from `from` to `to` (a capture or a quiet move),
/// whichever side is to move in `pos`, not counting the enemy pieces in `excused` as attackers
/// (see [`threats`] on checks).
fn move_is_safe(pos: &Position, color: Color, from: Square, to: Square, excused: Bitboard) -> bool {
    let from_bb = Bitboard::from_square(from);
    let to_bb = Bitboard::from_square(to);
    let occ = (pos.occupied() ^ from_bb) | to_bb;
    let general = if from == pos.general_square(color) {
        to
    } else {
        pos.general_square(color)
    };
    !general_attacked(pos, color, general, occ, to_bb | excused)
}

/// Whether removing `color`'s piece on `sq` would expose `color`'s general to an enemy piece not
/// in `excused`: such a piece is pinned. A pinned attacker threatens at most the pieces that pin
/// it (see `pinners`); a pinned target that cannot move may not be chased (Điều 23 point 7).
fn is_pinned(pos: &Position, color: Color, sq: Square, excused: Bitboard) -> bool {
    pinners(pos, color, sq, excused).any()
}

/// The enemy pieces, not in `excused`, that pin `color`'s piece on `sq`: those that would attack
/// `color`'s general if the piece were removed. A pinned piece threatens its pinners only (taking
/// a pinner is legal when nothing else checks), and only its own move can make that a chase: a
/// chariot that parries a horse's check by blocking its leg (Điều 24.19 Hình 50; Asian Diagram
/// 50) or a cannon's check by stepping between (Hình 37; Asian Diagram 37) chases the checking
/// piece, while a piece that stays pinned "cannot move, so it is not chasing" (Điều 24.15 Hình
/// 39; Asian Diagrams 39-41), and a chariot confined to a line by a cannon, already attacking
/// its pinner, moves along the line without attacking anything anew (Điều 24.23; Asian Diagrams
/// 63-66).
fn pinners(pos: &Position, color: Color, sq: Square, excused: Bitboard) -> Bitboard {
    let occ = pos.occupied() ^ Bitboard::from_square(sq);
    let general = pos.general_square(color);
    let enemy = color.opponent();
    let candidates = pos.pieces(enemy) & !excused;
    let file_occ = attacks::file_occupancy(occ, general.file());
    pos.attackers_with(general, occ, file_occ, candidates, enemy)
}

/// Pieces of `defender` that attack `sq` on a board with occupancy `occ` (generals only by
/// their one palace step, never across the board).
fn defenders_of(pos: &Position, defender: Color, sq: Square, occ: Bitboard) -> Bitboard {
    let own = pos.pieces(defender) & occ;
    let general = pos.general_square(defender);
    let non_general = own & !Bitboard::from_square(general);
    let file_occ = attacks::file_occupancy(occ, sq.file());
    let mut found = pos.attackers_with(sq, occ, file_occ, non_general, defender);
    found |= attacks::advisor_moves(sq) & pos.pieces_of(defender, PieceKind::Advisor) & own;
    found |= attacks::elephant_moves(sq, occ) & pos.pieces_of(defender, PieceKind::Elephant) & own;
    if attacks::general_moves(sq).contains(general) {
        found |= Bitboard::from_square(general);
    }
    found
}

/// Outcome of asking "if the enemy took the piece on `victim`, could `defender` take back?".
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Protection {
    /// A defender can legally recapture at once (Điều 22 term 15, "căn thật").
    Real,
    /// Some defender bears on the square but none can legally recapture ("căn giả").
    False,
    /// No defender bears on the square at all ("không căn").
    None,
}

/// Protection of `defender`'s piece on `victim` against the enemy piece on `capturer` taking it,
/// not counting the enemy pieces in `excused` as attackers of the defender's general.
fn protection(
    pos: &Position,
    defender: Color,
    capturer: Square,
    victim: Square,
    excused: Bitboard,
) -> Protection {
    // After the capture: the capturer stands on `victim`, its old square is empty.
    let occ = pos.occupied() ^ Bitboard::from_square(capturer);
    let candidates = defenders_of(pos, defender, victim, occ) & !Bitboard::from_square(victim);
    if candidates.is_empty() {
        return Protection::None;
    }
    let attacker_side = defender.opponent();
    for d in candidates {
        let occ_after = occ ^ Bitboard::from_square(d);
        let general = if d == pos.general_square(defender) {
            victim
        } else {
            pos.general_square(defender)
        };
        // The capturer (now on `victim`) is gone; its original square is already empty in `occ`.
        let attackers =
            pos.pieces(attacker_side) & occ_after & !Bitboard::from_square(victim) & !excused;
        let file_occ = attacks::file_occupancy(occ_after, general.file());
        if pos
            .attackers_with(general, occ_after, file_occ, attackers, attacker_side)
            .is_empty()
        {
            return Protection::Real;
        }
    }
    Protection::False
}

/// Whether `color`'s piece on `sq` has any legal move, not counting the enemy pieces in
/// `excused` as attackers.
fn has_legal_move(pos: &Position, color: Color, sq: Square, excused: Bitboard) -> bool {
    let Some(piece) = pos.piece_at(sq) else {
        return false;
    };
    let occ = pos.occupied();
    let kind = piece.kind();
    let captures = capture_targets(kind, color, sq, occ) & pos.pieces(color.opponent());
    let quiets = quiet_targets(kind, color, sq, occ);
    // `Bitboard` is its own iterator and has an inherent `any()`, hence the explicit call.
    Iterator::any(&mut (captures | quiets), |to| {
        move_is_safe(pos, color, sq, to, excused)
    })
}

/// Every threat `chaser` makes in `pos` on a piece that may be chased at all (not the general,
/// not an uncrossed soldier), whichever side is to move (the cycle judge asks this before and
/// after each of the chaser's moves), each marked with why repeating it would be forbidden.
/// Generals and soldiers never threaten in this sense (Điều 23 point 9), nor do pinned pieces,
/// except on the horse whose leg they block (marked [`Threat::by_pinned_piece`]).
///
/// A side in check is judged as if the check were resolved: the checking pieces count as
/// blockers but not as attackers in its legality tests. Otherwise a check would make each of its
/// pieces look unable to take back or be defended, and each of its attacks look impossible; a
/// check is classified on its own (see the cycle judge), the threats are what else stands.
pub fn threats(pos: &Position, chaser: Color, rules: &ChaseRules) -> ThreatList {
    let victim_side = chaser.opponent();
    let in_check = pos.checkers();
    let (chaser_excused, victim_excused) = if pos.side_to_move() == chaser {
        (in_check, Bitboard::EMPTY)
    } else {
        (Bitboard::EMPTY, in_check)
    };
    let mut list = ThreatList::new();
    let occ = pos.occupied();
    let mut targets_allowed =
        pos.pieces(victim_side) & !Bitboard::from_square(pos.general_square(victim_side));
    for s in pos.pieces_of(victim_side, PieceKind::Soldier) {
        if !soldier_crossed(victim_side, s) {
            targets_allowed.remove(s);
        }
    }
    if targets_allowed.is_empty() {
        return list;
    }
    let chasers = pos.pieces(chaser)
        & !pos.pieces_of(chaser, PieceKind::General)
        & !pos.pieces_of(chaser, PieceKind::Soldier);
    for a in chasers {
        let Some(attacker) = pos.piece_at(a) else {
            continue;
        };
        let akind = attacker.kind();
        let mut hits = capture_targets(akind, chaser, a, occ) & targets_allowed;
        if hits.is_empty() {
            continue;
        }
        let pinned_by = pinners(pos, chaser, a, chaser_excused);
        let pinned = pinned_by.any();
        if pinned {
            // A pinned piece threatens only the pieces that pin it (see `pinners`).
            hits &= pinned_by;
            if hits.is_empty() {
                continue;
            }
        }
        for t in hits {
            let Some(target) = pos.piece_at(t) else {
                continue;
            };
            if !move_is_safe(pos, chaser, a, t, chaser_excused) {
                continue;
            }
            let tkind = target.kind();
            let chase = if tkind == PieceKind::Chariot
                && matches!(akind, PieceKind::Horse | PieceKind::Cannon)
            {
                Some(ChaseReason::ChariotByHorseOrCannon)
            } else if akind == tkind
                && capture_targets(tkind, victim_side, t, occ).contains(a)
                && move_is_safe(pos, victim_side, t, a, victim_excused)
            {
                // Điều 24.20, 24.36: equal pieces where the target may take the attacker back:
                // an offer, whoever is protected.
                None
            } else {
                match protection(pos, victim_side, a, t, victim_excused) {
                    Protection::None => Some(ChaseReason::Unprotected),
                    Protection::False => Some(ChaseReason::FalselyProtected),
                    Protection::Real => (rules.immobile_target_counts
                        && is_pinned(pos, victim_side, t, victim_excused)
                        && !has_legal_move(pos, victim_side, t, victim_excused))
                    .then_some(ChaseReason::ImmobileTarget),
                }
            };
            // 48 pairs at most; a full list would only drop threats, never panic.
            let _ = list.try_push(Threat {
                attacker: a,
                target: t,
                chase,
                by_pinned_piece: pinned,
            });
        }
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;

    fn sq(s: &str) -> Square {
        Square::parse(s, 0).expect("square")
    }

    /// The forbidden threats only, as (attacker, target, reason).
    fn forbidden(pos: &Position, chaser: Color) -> Vec<(Square, Square, ChaseReason)> {
        threats(pos, chaser, &ChaseRules::default())
            .iter()
            .filter_map(|t| t.chase.map(|r| (t.attacker, t.target, r)))
            .collect()
    }

    #[test]
    fn unprotected_and_protected_targets() {
        // Red chariot a0 attacks the black horse a7; with the black chariot on b7... no: alone.
        let pos = Position::from_fen("3k5/9/n8/9/9/9/9/9/9/R3K4 w - - 0 1").expect("fen");
        let list = forbidden(&pos, Color::Red);
        assert_eq!(list.len(), 1);
        assert_eq!(list[0], (sq("a0"), sq("a7"), ChaseReason::Unprotected));
        // A black chariot on b7 really protects the horse.
        let pos = Position::from_fen("3k5/9/nr7/9/9/9/9/9/9/R3K4 w - - 0 1").expect("fen");
        let list = forbidden(&pos, Color::Red);
        assert!(list.iter().all(|c| c.1 != sq("a7")), "{list:?}");
    }

    #[test]
    fn horse_on_chariot_counts_even_if_protected() {
        // Red horse c5 attacks the black chariot b7, which the black chariot b9 protects.
        let pos = Position::from_fen("1r1k5/9/1r7/9/2N6/9/9/9/9/4K4 w - - 0 1").expect("fen");
        let list = forbidden(&pos, Color::Red);
        assert!(list
            .iter()
            .any(|c| c.1 == sq("b7") && c.2 == ChaseReason::ChariotByHorseOrCannon));
    }

    #[test]
    fn generals_and_soldiers_do_not_chase_and_uncrossed_soldiers_are_free() {
        // Red soldier d7 attacks the black horse d8 (soldiers do not chase); red chariot a6
        // attacks the uncrossed black soldier a6? (placed on a5, not crossed).
        let pos = Position::from_fen("3k5/3n5/3P5/9/p8/9/9/9/9/R3K4 w - - 0 1").expect("fen");
        let list = forbidden(&pos, Color::Red);
        assert!(list.is_empty(), "{list:?}");
    }

    #[test]
    fn boxed_in_protected_piece_is_not_immobile_unless_pinned() {
        // The black advisor d9 cannot move (e8 holds the other advisor) but is not pinned, and the
        // general d8 really protects it: attacking it is allowed (Điều 23 point 6).
        let pos = Position::from_fen("R2a5/3ka4/9/9/9/9/9/9/9/4K4 w - - 0 1").expect("fen");
        let list = threats(&pos, Color::Red, &ChaseRules::default());
        assert!(list
            .iter()
            .any(|t| t.target == sq("d9") && t.chase.is_none()));
        // The black horse e7, pinned against its general by the chariot e2 and protected by the
        // chariot f7, cannot move: attacking it is a chase (Điều 23 point 7, 24.15).
        let pos = Position::from_fen("4k4/9/C3nr3/9/9/9/9/4R4/9/3K5 w - - 0 1").expect("fen");
        assert!(threats(&pos, Color::Red, &ChaseRules::default())
            .iter()
            .any(|t| t.target == sq("e7") && t.chase == Some(ChaseReason::ImmobileTarget)));
    }

    #[test]
    fn equal_pieces_offer_whoever_is_protected() {
        // The red chariot b2, protected by the chariot i2, attacks the unprotected black chariot
        // b7, which can take it: an offer (Điều 24.20), not a chase.
        let pos = Position::from_fen("3k5/9/1r7/9/9/9/9/1R6R/9/4K4 b - - 0 1").expect("fen");
        let list = threats(&pos, Color::Red, &ChaseRules::default());
        assert!(list
            .iter()
            .any(|t| t.target == sq("b7") && t.chase.is_none()));
        // Both horses see each other (legs free): an offer both ways.
        let pos = Position::from_fen("3k5/9/2n6/9/3N5/9/9/3R5/9/4K4 b - - 0 1").expect("fen");
        let red = threats(&pos, Color::Red, &ChaseRules::default());
        assert!(red
            .iter()
            .any(|t| t.target == sq("c7") && t.chase.is_none()));
    }

    #[test]
    fn a_side_in_check_is_judged_as_if_the_check_were_parried() {
        // Red is in check from the chariot d5; its horse c3 and the black horse a4 see each other.
        // The check does not turn the black horse's offer into a chase of an "unable to take
        // back" horse.
        let pos = Position::from_fen("9/5k3/9/9/3r5/n8/2N6/3K5/9/9 w - - 0 1").expect("fen");
        assert!(pos.in_check());
        let black = threats(&pos, Color::Black, &ChaseRules::default());
        assert!(black
            .iter()
            .any(|t| t.target == sq("c3") && t.chase.is_none()));
    }

    #[test]
    fn pinned_attacker_threatens_only_its_pinner() {
        // The red chariot e3 is pinned by the black cannon e8 (the advisor e1 would be the only
        // screen left). Taking the unprotected cannon along the pin line is legal: a threat on
        // the pinner, marked so that only the chariot's own move can make it a chase.
        let pos = Position::from_fen("3k5/4c4/9/9/9/9/4R4/9/4A4/4K4 w - - 0 1").expect("fen");
        assert!(pos.is_legal(Move::new(sq("e3"), sq("e8"))));
        let list = threats(&pos, Color::Red, &ChaseRules::default());
        assert_eq!(list.len(), 1, "{list:?}");
        assert_eq!((list[0].attacker, list[0].target), (sq("e3"), sq("e8")));
        assert!(list[0].by_pinned_piece);
        // The same chariot pinned, with a black horse on a3 in its reach: it may not leave the
        // file, so the horse is not threatened.
        let pos = Position::from_fen("3k5/4c4/9/9/9/9/n3R4/9/4A4/4K4 w - - 0 1").expect("fen");
        let list = threats(&pos, Color::Red, &ChaseRules::default());
        assert!(list.iter().all(|t| t.target != sq("a3")), "{list:?}");
        // A red horse pinned on the e-file by the black chariot e7 cannot reach its pinner: it
        // threatens neither the chariot nor the cannon d4 it could take if it were free.
        let pos = Position::from_fen("3k5/9/4r4/9/9/3c5/9/4N4/9/4K4 w - - 0 1").expect("fen");
        let list = threats(&pos, Color::Red, &ChaseRules::default());
        assert!(list.is_empty(), "{list:?}");
        // A chariot pinned by a horse (it blocks the horse's leg) threatens that horse, which it
        // can take.
        let pos = Position::from_fen("5k3/9/9/9/9/9/9/9/2nR5/4K4 w - - 0 1").expect("fen");
        assert!(pos.is_legal(Move::new(sq("d1"), sq("c1"))));
        assert_eq!(
            forbidden(&pos, Color::Red),
            [(sq("d1"), sq("c1"), ChaseReason::Unprotected)]
        );
        // Unpinned (no advisor screen: the cannon cannot check through one piece less), the same
        // chariot threatens the unprotected cannon as any piece does.
        let pos = Position::from_fen("3k5/4c4/9/9/9/9/4R4/9/9/4K4 w - - 0 1").expect("fen");
        let list = threats(&pos, Color::Red, &ChaseRules::default());
        assert_eq!(list.len(), 1, "{list:?}");
        assert!(!list[0].by_pinned_piece);
    }
}
