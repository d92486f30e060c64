//! Judging one repetition cycle (Điều 23 points 1-10, Điều 7 "thắng cờ" g-h and "hòa cờ" b-c).
//!
//! The cycle is replayed from the repeated position. Each side is judged on its own moves only,
//! and each of its moves is classified first as a check, then as a mate threat, then by the
//! threats it creates:
//! - it checks perpetually if every one of its moves gives check (one piece or several in turn,
//!   Điều 7 g, Điều 23 point 1);
//! - it chases perpetually if one and the same enemy piece (tracked by identity, not by square)
//!   is the target of a forbidden threat *created* by every one of its moves (Điều 23 points 3-8).
//!   Two pieces taking turns against one target chase it (point 3, 24.29); one piece against two
//!   targets in turn does not (point 4, 24.28), because no single target survives the
//!   intersection. A threat the move only made real by undermining a protector does not count
//!   when the same move parried a forbidden threat on one of the mover's own pieces: a defence
//!   is not a chase (Điều 24.22 Hình 61; Điều 24.15 Hình 39).
//! - Under the Law a checking move is a check and nothing else, even when the checking piece
//!   also attacks the chased piece: "one check, one chase" and "several checks, one chase" are
//!   draws (Điều 23 point 2, Điều 24.8 Hình 13: "neither perpetual check nor perpetual chase").
//!   A move that threatens mate in one is a mate threat, allowed, whatever else it attacks
//!   (Điều 22 term 3, Điều 23 point 2, 24.5-24.7). The Asian rules read such moves as chases too
//!   ([`RuleSet`]).
//!
//! Verdict: perpetual check outranks chase; one offender loses; both offending the same way is a
//! draw (Điều 7 hòa c); nobody offending is a draw (Điều 7 hòa b). Perpetual check against
//! perpetual chase is decided by [`CheckVersusChase`] (default: the checker loses, Điều 7 g "bất
//! kể tình huống nào").
//!
//! No allocation: the search calls this at every repetition it meets. The mate-threat test is the
//! expensive part (a move generation and a mate test per checking reply), so it runs last and only
//! for a side that would otherwise lose by perpetual chase: the cycle is replayed and that side's
//! moves are tested until one threatens mate. A cycle that no chase can decide costs nothing more.
//! The parry test (the opponent's threats before and after the move) runs only for a move that
//! undermined something.

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::piece::{Color, PieceKind};
use crate::position::{Position, Undo};
use crate::square::Square;

use super::chase::{threats, ChaseReason, ChaseRules, ThreatList};
use super::mate_threat::threatens_mate_in_one_on;
use super::{RuleOptions, RuleSet};

/// What to do when one side checks perpetually while the other chases perpetually; the Law
/// does not say explicitly (digest §8 item 7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum CheckVersusChase {
    /// The perpetual checker loses: Điều 7 g forbids perpetual check "in any situation", and
    /// Điều 7 hòa c excuses only both sides breaking the *same* prohibition.
    #[default]
    CheckerLoses,
    /// Both sides offend, so the game is drawn.
    Draw,
}

/// How each side behaved over a cycle, with what the explanation needs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CycleReport {
    /// Plies in the cycle.
    pub plies: usize,
    /// Per side (index [`Color::index`]): made at least one move in the cycle.
    pub moved: [bool; 2],
    /// Per side: every one of its moves gave check.
    pub perpetual_check: [bool; 2],
    /// Per side: the enemy piece chased by every one of its moves, if any.
    pub perpetual_chase: [Option<ChasedPiece>; 2],
    /// Per side: how many of its moves gave check.
    pub checks: [u32; 2],
    /// Per side: whether one of its moves, which would otherwise have made the cycle a perpetual
    /// chase, threatened mate (and so excused the chase, under the Law).
    pub mate_threat: [bool; 2],
    /// The offender, if one side loses.
    pub loser: Option<Color>,
}

/// The piece a side chased perpetually.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ChasedPiece {
    /// Where it stands at the end of the cycle.
    pub square: Square,
    /// What it is.
    pub kind: PieceKind,
    /// Why the last threat on it was forbidden (chooses the article cited).
    pub reason: ChaseReason,
}

/// Why a cycle could not be judged: the moves do not form a legal, capture-free cycle returning
/// to `pos`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CycleError {
    /// The move at this index (0-based) is illegal or captures.
    BadMove(usize),
    /// The moves do not lead back to the starting position.
    NotACycle,
}

/// Judges the cycle `cycle` that starts and ends at `pos` (see [`super::judge_cycle`]) under
/// `options` (rule set, chase switches, check against chase).
pub fn analyze_cycle(
    pos: &Position,
    cycle: &[Move],
    options: &RuleOptions,
) -> Result<CycleReport, CycleError> {
    let rule_set: RuleSet = options.rule_set;
    let chase_rules = &options.chase;
    let mut board = pos.clone();
    // Identity of each piece: the square it stood on when the cycle started.
    let mut identity = [0u8; 90];
    for (i, id) in identity.iter_mut().enumerate() {
        *id = i as u8;
    }
    let mut moved = [false; 2];
    let mut checks = [0u32; 2];
    let mut perpetual_check = [true; 2];
    // Per side: identities chased by every move so far (all of them before its first move).
    let mut chased = [Bitboard::FULL; 2];
    let mut last_reason = [[None::<ChaseReason>; 90]; 2];

    for (i, &mv) in cycle.iter().enumerate() {
        let (from, to) = (mv.from(), mv.to());
        if !board.is_legal(mv) || board.piece_at(to).is_some() {
            return Err(CycleError::BadMove(i));
        }
        let mover = board.side_to_move();
        let m = mover.index();
        let check = board.gives_check(mv);
        // A check that cannot chase under this rule set ends the side's chase outright.
        let check_only = check && !rule_set.checks_can_chase();
        // Once no target survives for this side, its threats no longer matter.
        let tracking = !chased[m].is_empty() && !check_only;
        let before = if tracking {
            threats(&board, mover, chase_rules)
        } else {
            ThreatList::new()
        };
        let undo = board.make_move(mv);
        identity[to.index()] = identity[from.index()];
        moved[m] = true;
        if check {
            checks[m] += 1;
        } else {
            perpetual_check[m] = false;
        }
        if !tracking {
            chased[m] = Bitboard::EMPTY;
            continue;
        }
        let after = threats(&board, mover, chase_rules);
        // Targets (by identity) of threats the move made directly, by discovery or by moving a
        // screen, and of threats it made only by undermining a protector.
        let mut created = Bitboard::EMPTY;
        let mut undermined = Bitboard::EMPTY;
        let mut reasons = [None::<ChaseReason>; 90];
        for t in &after {
            let Some(reason) = t.chase else {
                continue;
            };
            // Where the attacker stood before the move (only the moved piece changed square).
            let attacker_before = if t.attacker == to { from } else { t.attacker };
            let earlier = before
                .iter()
                .find(|b| b.attacker == attacker_before && b.target == t.target);
            let undermining = match earlier {
                // The move created the attack: directly, by discovery or by moving a screen.
                None => false,
                // The attack was there; the move made it win material (undermined a protector).
                Some(b)
                    if reason.wins_material()
                        && !b.chase.is_some_and(ChaseReason::wins_material) =>
                {
                    true
                }
                Some(_) => continue,
            };
            // A pinned piece's threat on its pinner counts only when its own move made it, or
            // when another move took the pinner's protection away (see `Threat::by_pinned_piece`).
            if t.by_pinned_piece && t.attacker != to && !undermining {
                continue;
            }
            let id = identity[t.target.index()] as usize;
            if let Some(sq) = Square::from_index(id) {
                if undermining {
                    undermined.insert(sq);
                } else {
                    created.insert(sq);
                }
                reasons[id] = Some(reason);
            }
        }
        // A move that parries a forbidden threat on one of the mover's pieces (by blocking it,
        // taking a screen away, fleeing) is a defence: what it undermines on the way is not a
        // chase (Điều 24.22: the chariot's side, moving only the cannon's screens, does not
        // chase; Điều 24.15 Hình 39).
        if undermined.any() && parries_a_threat(&mut board, mv, undo, chase_rules) {
            undermined = Bitboard::EMPTY;
        }
        let created = created | undermined;
        for id in created {
            last_reason[m][id.index()] = reasons[id.index()];
        }
        chased[m] &= created;
    }

    if board.key() != pos.key() || board.side_to_move() != pos.side_to_move() {
        return Err(CycleError::NotACycle);
    }

    // A would-be perpetual chaser is excused if one of its moves threatened mate (all of its
    // moves created a threat on the chased piece, none gave check under the Law).
    let mut mate_threat = [false; 2];
    if rule_set.mate_threats_excuse_attacks() && chased.iter().any(|c| c.any()) {
        let mut replay = pos.clone();
        for &mv in cycle {
            let mover = replay.side_to_move();
            let m = mover.index();
            replay.make_move(mv);
            if chased[m].any() && threatens_mate_in_one_on(&mut replay, mover) {
                mate_threat[m] = true;
                chased[m] = Bitboard::EMPTY;
            }
        }
    }

    let mut perpetual_chase = [None; 2];
    for color in Color::BOTH {
        let c = color.index();
        perpetual_check[c] &= moved[c];
        if !moved[c] {
            continue;
        }
        if let Some(id) = chased[c].first() {
            // The chased piece's square now: the occupied square carrying its identity.
            let square = board
                .occupied()
                .into_iter()
                .find(|s| identity[s.index()] as usize == id.index());
            let kind = square.and_then(|s| board.piece_at(s)).map(|p| p.kind());
            if let (Some(square), Some(kind), Some(reason)) =
                (square, kind, last_reason[c][id.index()])
            {
                perpetual_chase[c] = Some(ChasedPiece {
                    square,
                    kind,
                    reason,
                });
            }
        }
    }

    let loser = decide(
        perpetual_check,
        perpetual_chase.map(|c| c.is_some()),
        options.check_vs_chase,
    );
    Ok(CycleReport {
        plies: cycle.len(),
        moved,
        perpetual_check,
        perpetual_chase,
        checks,
        mate_threat,
        loser,
    })
}

/// Whether `mv`, just made on `board` (`undo` takes it back), took away a forbidden threat the
/// opponent had on one of the mover's pieces: the threat is gone, or no longer forbidden, once
/// the piece (if it moved) stands on its new square. The board is restored before returning.
fn parries_a_threat(board: &mut Position, mv: Move, undo: Undo, rules: &ChaseRules) -> bool {
    let opponent = board.side_to_move();
    let after = threats(board, opponent, rules);
    board.unmake_move(mv, undo);
    let before = threats(board, opponent, rules);
    board.make_move(mv);
    before.iter().filter(|b| b.chase.is_some()).any(|b| {
        let target = if b.target == mv.from() {
            mv.to()
        } else {
            b.target
        };
        !after
            .iter()
            .any(|a| a.chase.is_some() && a.attacker == b.attacker && a.target == target)
    })
}

/// The offender, from each side's perpetual check and chase flags.
fn decide(check: [bool; 2], chase: [bool; 2], check_vs_chase: CheckVersusChase) -> Option<Color> {
    let (red, black) = (Color::Red.index(), Color::Black.index());
    match (check[red], check[black]) {
        (true, true) => None,
        (true, false) | (false, true) => {
            let checker = if check[red] { Color::Red } else { Color::Black };
            let other_chases = chase[checker.opponent().index()];
            if other_chases && check_vs_chase == CheckVersusChase::Draw {
                None
            } else {
                Some(checker)
            }
        }
        (false, false) => match (chase[red], chase[black]) {
            (true, false) => Some(Color::Red),
            (false, true) => Some(Color::Black),
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::RankBase;

    fn moves(pos: &Position, text: &str) -> Vec<Move> {
        let mut p = pos.clone();
        text.split_whitespace()
            .map(|t| {
                let mv = p.parse_move(t, RankBase::Zero).expect("legal");
                p.make_move(mv);
                mv
            })
            .collect()
    }

    #[test]
    fn verdict_table() {
        use CheckVersusChase::{CheckerLoses, Draw};
        let (t, f) = (true, false);
        assert_eq!(decide([t, t], [f, f], CheckerLoses), None);
        assert_eq!(decide([t, f], [f, f], CheckerLoses), Some(Color::Red));
        assert_eq!(decide([f, t], [t, f], CheckerLoses), Some(Color::Black));
        assert_eq!(decide([f, t], [t, f], Draw), None);
        assert_eq!(decide([f, t], [f, f], Draw), Some(Color::Black));
        assert_eq!(decide([f, f], [t, f], CheckerLoses), Some(Color::Red));
        assert_eq!(decide([f, f], [t, t], CheckerLoses), None);
        assert_eq!(decide([f, f], [f, f], CheckerLoses), None);
    }

    #[test]
    fn chased_piece_is_tracked_by_identity() {
        // The black cannon runs a7-b7-a7; the red chariot follows. One target throughout.
        let pos = Position::from_fen("3k5/9/c8/9/9/9/9/1R7/9/4K4 w - - 0 1").expect("fen");
        let cycle = moves(&pos, "b2a2 a7b7 a2b2 b7a7");
        let report = analyze_cycle(&pos, &cycle, &RuleOptions::default()).expect("a cycle");
        assert_eq!(report.loser, Some(Color::Red));
        let chased = report.perpetual_chase[Color::Red.index()].expect("chase");
        assert_eq!(chased.square, Square::parse("a7", 0).expect("square"));
        assert_eq!(chased.kind, PieceKind::Cannon);
        assert_eq!(report.perpetual_chase[Color::Black.index()], None);
        assert_eq!(report.checks, [0, 0]);
        assert_eq!(report.plies, 4);
    }

    /// Whether Black's `text` parries a forbidden threat of Red's in `fen` (Black to move).
    fn black_parries(fen: &str, text: &str) -> bool {
        let mut board = Position::from_fen(fen).expect("fen");
        let mv = board.parse_move(text, RankBase::Zero).expect("legal");
        let undo = board.make_move(mv);
        let parried = parries_a_threat(&mut board, mv, undo, &ChaseRules::default());
        assert_eq!(board.side_to_move(), Color::Red, "the board is restored");
        parried
    }

    #[test]
    fn a_parry_takes_a_forbidden_threat_away() {
        // The red chariot a0 attacks the unprotected cannon a7 and the unprotected horse c0.
        let fen = "4k4/9/c8/9/9/9/9/9/9/R1n2K3 b - - 0 1";
        // The cannon runs off the file: the threat on it is gone, the one on the horse stands.
        assert!(black_parries(fen, "a7b7"));
        // It runs up the file and is attacked on its new square: no parry, with or without the
        // horse.
        assert!(!black_parries(fen, "a7a8"));
        assert!(!black_parries(
            "4k4/9/c8/9/9/9/9/9/9/R4K3 b - - 0 1",
            "a7a8"
        ));
        // An idle general's move leaves both threats: no parry.
        assert!(!black_parries(fen, "e9d9"));
    }

    #[test]
    fn bad_cycles_are_errors() {
        let pos = Position::startpos();
        let out = moves(&pos, "h2e2 h9g7");
        assert_eq!(
            analyze_cycle(&pos, &out, &RuleOptions::default()),
            Err(CycleError::NotACycle)
        );
        // A capture is not part of a repetition cycle.
        let pos = Position::from_fen("3k5/9/c8/9/9/9/9/R8/9/4K4 w - - 0 1").expect("fen");
        let capture = moves(&pos, "a2a7");
        assert_eq!(
            analyze_cycle(&pos, &capture, &RuleOptions::default()),
            Err(CycleError::BadMove(0))
        );
    }
}
