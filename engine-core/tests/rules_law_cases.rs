//! Repetition cases built to realise the principles of Điều 23 and the Điều 24 examples of the
//! Vietnamese Law (the Law's figures survive only as captions, so each position is constructed).
//!
//! Every case gives a FEN, the moves (ICCS, ranks 0-9, each checked legal by the parser), the
//! expected verdict under the default options, and a comment naming the principle and the
//! article or example it realises. Each case is judged twice: by the game-level `adjudicate`
//! (the repetition's third occurrence) and by the search-level `judge_cycle` on the last cycle,
//! which must agree.
//!
//! Cases where Fairy-Stockfish (Asian rules) reaches another verdict are marked "differs from the
//! Asian rules"; the Law's verdict is asserted.

use engine_core::rules::{
    adjudicate, judge_cycle, judge_cycle_with, ChaseRules, CheckVersusChase, CycleVerdict, RuleId,
    RuleOptions,
};
use engine_core::{Color, Move, Position, RankBase};

/// What a case must produce.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Expect {
    /// This side loses by this rule.
    Loses(Color, RuleId),
    /// A repetition draw.
    Draw,
}

use Color::{Black, Red};
use Expect::{Draw, Loses};
use RuleId::{PerpetualChase, PerpetualCheck};

struct LawCase {
    name: &'static str,
    fen: &'static str,
    moves: &'static str,
    expect: Expect,
}

/// Twice a 4-ply cycle (or twice an 8-ply one): the start position occurs for the third time at
/// the end.
const CASES: &[LawCase] = &[
    // Điều 23 point 3, Điều 24.14 (Hình 32-33): the red chariot follows an unprotected black
    // cannon from file to file on every move: perpetual chase of an unprotected piece, Red loses.
    LawCase {
        name: "unprotected target",
        fen: "3k5/9/c8/9/9/9/9/1R7/9/4K4 w - - 0 1",
        moves: "b2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7",
        expect: Loses(Red, PerpetualChase),
    },
    // Điều 23 point 6, Điều 24.13 (Hình 29-30): the same chase, but the black chariot on i7
    // really protects the cannon on both squares: allowed, draw.
    LawCase {
        name: "really protected target",
        fen: "3k5/9/c7r/9/9/9/9/1R7/9/4K4 w - - 0 1",
        moves: "b2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7",
        expect: Draw,
    },
    // Điều 22 terms 15-16, Điều 23 point 6, Điều 24.30 (Hình 83-85): the cannon's protector (the
    // black chariot f7) is pinned on the f-file by the red chariot f2, so it cannot recapture:
    // false protection counts as none, Red loses.
    LawCase {
        name: "false protection (pinned protector)",
        fen: "5k3/9/c4r3/9/9/9/9/1R3R3/4A4/4K4 w - - 0 1",
        moves: "b2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7",
        expect: Loses(Red, PerpetualChase),
    },
    // Điều 23 point 6 (horse on chariot): the red horse chases the black chariot, which the
    // chariot i7 protects; a horse may not chase a chariot even if protected. Black's a7b7
    // attacks the horse once (one chase, one idle: no offence, Điều 24.19 Hình 49). Red loses.
    LawCase {
        name: "chariot chased by a horse though protected",
        fen: "3k5/9/r7r/3N5/9/9/9/9/9/4K4 w - - 0 1",
        moves: "d6b5 a7b7 b5d6 b7a7 d6b5 a7b7 b5d6 b7a7",
        expect: Loses(Red, PerpetualChase),
    },
    // Điều 24.11 (Hình 18): the red cannon, screened by the black soldier a6 or horse b6, chases
    // the black chariot protected by the chariot i8. Red loses.
    LawCase {
        name: "chariot chased by a cannon though protected",
        fen: "3k5/r7r/9/pn7/9/9/9/1C7/9/4K4 w - - 0 1",
        moves: "b2a2 a8b8 a2b2 b8a8 b2a2 a8b8 a2b2 b8a8",
        expect: Loses(Red, PerpetualChase),
    },
    // Điều 24.27 (Hình 74-75): a chariot may not perpetually chase a soldier that has crossed
    // the river (the black soldier shuttles c3-d3 on Red's side). Red loses.
    LawCase {
        name: "crossed soldier chased by a chariot",
        fen: "5k3/9/9/9/9/9/2p6/9/9/3RK4 w - - 0 1",
        moves: "d0c0 c3d3 c0d0 d3c3 d0c0 c3d3 c0d0 d3c3",
        expect: Loses(Red, PerpetualChase),
    },
    // Điều 23 point 3 (exception), Điều 24.21 (Hình 60): the red horse and, through the horse as
    // screen, the red cannon take turns attacking the uncrossed black soldier c6 on every move;
    // an uncrossed soldier may be chased. Draw.
    LawCase {
        name: "uncrossed soldier may be chased",
        fen: "3a1k3/9/9/2p6/9/9/9/2N6/9/2C1K4 w - - 0 1",
        moves: "c2b4 d9e8 b4c2 e8d9 c2b4 d9e8 b4c2 e8d9",
        expect: Draw,
    },
    // Điều 23 point 9, Điều 24.24 (Hình 67): the red general attacks an unprotected black cannon
    // in its palace on every move. A general may chase. Draw.
    LawCase {
        name: "general chasing",
        fen: "5k3/9/9/9/9/9/9/4K4/3c5/9 w - - 0 1",
        moves: "e2e1 d1d2 e1e2 d2d1 e2e1 d1d2 e1e2 d2d1",
        expect: Draw,
    },
    // Điều 23 point 9, Điều 24.24 (Hình 68): the same with a red horse on b3 that attacks d2
    // without moving (the cannon walks into it): general plus one supporting piece. Draw.
    LawCase {
        name: "general with a static supporting horse",
        fen: "5k3/9/9/9/9/9/1N7/4K4/3c5/9 w - - 0 1",
        moves: "e2e1 d1d2 e1e2 d2d1 e2e1 d1d2 e1e2 d2d1",
        expect: Draw,
    },
    // Điều 24.26 (Hình 71, two horses with the general), our reading of digest §8 item 4: each
    // general move unblocks a horse leg, so the horses f1/f2 themselves attack the unprotected
    // cannon on every move (discovered attacks count as the move's threats). Red loses.
    LawCase {
        name: "general move discovering two horses on one target",
        fen: "5k3/9/9/9/9/9/9/4KN3/3c1N3/9 w - - 0 1",
        moves: "e2e1 d1d2 e1e2 d2d1 e2e1 d1d2 e1e2 d2d1",
        expect: Loses(Red, PerpetualChase),
    },
    // Điều 23 point 9, Điều 24.25 (Hình 69): a crossed red soldier chases an unprotected black
    // cannon sideways on every move. A soldier may chase. Draw.
    LawCase {
        name: "soldier chasing",
        fen: "5k3/9/2c6/3P5/9/9/9/9/9/4K4 w - - 0 1",
        moves: "d6c6 c7d7 c6d6 d7c7 d6c6 c7d7 c6d6 d7c7",
        expect: Draw,
    },
    // Điều 23 point 4, Điều 24.28 (Hình 76): one red chariot attacks two unprotected black
    // cannons in turn (a7, then b7). One piece chasing two targets in turn is allowed. Draw.
    LawCase {
        name: "one piece chasing two targets in turn",
        fen: "3a1k3/9/cc7/9/9/9/9/R8/9/4K4 w - - 0 1",
        moves: "a2b2 d9e8 b2a2 e8d9 a2b2 d9e8 b2a2 e8d9",
        expect: Draw,
    },
    // Điều 24.28 (Hình 80): two red chariots attack two black cannons in turn. Draw.
    LawCase {
        name: "two pieces chasing two targets in turn",
        fen: "3k5/9/c7c/9/9/9/9/1R5R1/9/4K4 w - - 0 1",
        moves: "b2a2 a7b7 h2i2 i7h7 a2b2 b7a7 i2h2 h7i7 b2a2 a7b7 h2i2 i7h7 a2b2 b7a7 i2h2 h7i7",
        expect: Draw,
    },
    // Điều 23 point 3, Điều 24.29 (Hình 81-82): the red horse attacks the unprotected cannon on
    // b7, then leaves a5 so that the red chariot a0 attacks it on a7 (a discovered attack): two
    // pieces take turns on one target. Black's b7a7 attacks the chariot once (no offence). Red
    // loses.
    LawCase {
        name: "two pieces chasing one target in turn",
        fen: "5k3/9/1c7/9/9/2N6/9/9/9/R3K4 w - - 0 1",
        moves: "c4a5 b7a7 a5c4 a7b7 c4a5 b7a7 a5c4 a7b7",
        expect: Loses(Red, PerpetualChase),
    },
    // Điều 24.31 (Hình 86-89): the same two pieces, but the black chariot i7 really protects the
    // cannon on both squares. Draw.
    LawCase {
        name: "two pieces on one really protected target",
        fen: "5k3/9/1c6r/9/9/2N6/9/9/9/R3K4 w - - 0 1",
        moves: "c4a5 b7a7 a5c4 a7b7 c4a5 b7a7 a5c4 a7b7",
        expect: Draw,
    },
    // Điều 23 point 2, Điều 24.8 (Hình 13): the red chariot checks on e2, then attacks the
    // unprotected cannon a7 from a2: one check, one chase. Draw.
    LawCase {
        name: "one check and one chase",
        fen: "3ak4/9/c8/9/9/9/9/R8/9/3K5 w - - 0 1",
        moves: "a2e2 d9e8 e2a2 e8d9 a2e2 d9e8 e2a2 e8d9",
        expect: Draw,
    },
    // Điều 23 point 2, Điều 24.9 (Hình 14): the red chariot checks on rank 9, then retreats idle;
    // Black blocks with the advisor each time (a perpetual block, Điều 24.35). Draw.
    LawCase {
        name: "one check and one idle move against a perpetual block",
        fen: "4k4/4a4/R8/9/9/9/9/9/9/3K5 w - - 0 1",
        moves: "a7a9 e8d9 a9a7 d9e8 a7a9 e8d9 a9a7 d9e8",
        expect: Draw,
    },
    // Điều 7 win g, Điều 23 point 1, Điều 24.2 (Hình 1): one chariot checks on every move as the
    // black general steps up and down. Red loses.
    LawCase {
        name: "perpetual check by one chariot",
        fen: "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1",
        moves: "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9",
        expect: Loses(Red, PerpetualCheck),
    },
    // Điều 7 win g ("several pieces in turn"), Điều 24.2 (Hình 3): the horse leaving d7 gives a
    // discovered check by the chariot d0, returning to d7 it checks itself. Red loses.
    LawCase {
        name: "perpetual check by two pieces in turn",
        fen: "3k5/9/3N5/9/9/9/9/9/9/3R1K3 w - - 0 1",
        moves: "d7c5 d9e9 c5d7 e9d9 d7c5 d9e9 c5d7 e9d9",
        expect: Loses(Red, PerpetualCheck),
    },
    // Điều 24.3 (Hình 4), Điều 7 draw c: every move blocks or removes the opponent's check and
    // checks back (cannon screens and discovered chariot checks on both sides). Mutual perpetual
    // check: draw.
    LawCase {
        name: "mutual perpetual check",
        fen: "4c4/3k5/9/9/3r5/9/4C4/9/9/3RK4 w - - 0 1",
        moves: "e3d3 d5e5 d3e3 e5d5 e3d3 d5e5 d3e3 e5d5",
        expect: Draw,
    },
    // Điều 24.4 (Hình 5): the same without the black cannon e9: Red still checks on every move,
    // Black only on one move of two (two checks, one counter-check). Red loses.
    LawCase {
        name: "two checks against one counter-check",
        fen: "9/3k5/9/9/3r5/9/4C4/9/9/3RK4 w - - 0 1",
        moves: "e3d3 d5e5 d3e3 e5d5 e3d3 d5e5 d3e3 e5d5",
        expect: Loses(Red, PerpetualCheck),
    },
    // Điều 7 win g ("bất kể tình huống nào"), digest §8 item 7: the black soldier checks on every
    // move while each red general move re-creates the cannon's attack on the unprotected black
    // horse e6 (perpetual chase). Perpetual check against perpetual chase: the checker loses.
    LawCase {
        name: "perpetual check against perpetual chase",
        fen: "5k3/9/9/4n4/9/9/9/4p4/4K4/4C4 w - - 0 1",
        moves: "e1d1 e2d2 d1e1 d2e2 e1d1 e2d2 d1e1 d2e2",
        expect: Loses(Black, PerpetualCheck),
    },
    // Điều 24.20 first bullet (Hình 51), Điều 24.36: the red chariot offers itself to the black
    // chariot on every move (both unprotected, each can take the other): a perpetual offer, not a
    // chase. Draw.
    LawCase {
        name: "exchange offer between equal pieces",
        fen: "3k5/9/r8/9/9/9/9/1R7/9/4K4 w - - 0 1",
        moves: "b2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7",
        expect: Draw,
    },
    // Điều 23 point 8, Điều 24.32 (Hình 92-93): the same, but the red chariot is protected by the
    // chariot i2 while the black chariot is not: an exchange offer that is also a threat to win
    // the chariot is still a chase. Red loses. (Differs from the Asian rules, which never count
    // a chariot attacking a chariot.)
    LawCase {
        name: "chase combined with an exchange offer",
        fen: "3k5/9/r8/9/9/9/9/1R6R/9/4K4 w - - 0 1",
        moves: "b2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7",
        expect: Loses(Red, PerpetualChase),
    },
    // Điều 24.36: the red cannon steps onto a square where a black chariot can take it for
    // nothing, every move (a perpetual sacrifice), attacking nothing. Draw.
    LawCase {
        name: "perpetual sacrifice",
        fen: "rr3k3/4a4/9/9/9/9/9/C8/9/4K4 w - - 0 1",
        moves: "a2b2 e8d9 b2a2 d9e8 a2b2 e8d9 b2a2 d9e8",
        expect: Draw,
    },
    // Điều 23 point 7, Điều 24.20 second bullet (Hình 55): the red horse chases the unprotected
    // black horse, whose own leg (a4, c5) is blocked so it can never take back. Red loses.
    LawCase {
        name: "horse chasing a leg-blocked horse",
        fen: "5k3/9/9/9/n1p6/p2N5/9/9/9/4K4 w - - 0 1",
        moves: "d4b3 a5c6 b3d4 c6a5 d4b3 a5c6 b3d4 c6a5",
        expect: Loses(Red, PerpetualChase),
    },
    // Điều 24.22 (Hình 61-62): the black chariot h2 never moves; the red advisor and the black
    // cannon only move screens, yet every red move gives the cannon a2 exactly one screen against
    // the chariot. Red loses.
    LawCase {
        name: "cannon chasing a static chariot by moving screens",
        fen: "5k3/9/9/9/9/9/5c3/C6r1/4A4/R3K4 w - - 0 1",
        moves: "e1d2 f3f2 d2e1 f2f3 e1d2 f3f2 d2e1 f2f3",
        expect: Loses(Red, PerpetualChase),
    },
    // Điều 23 point 7, Điều 24.15 (Hình 39-41): the black horse e7 is pinned against its general
    // by the chariot e2 and cannot move; the chariot f7 really protects it, but a piece that
    // cannot move may not be attacked perpetually (the red cannon a7 gets a screen on every
    // move). Red loses. (Differs from the Asian rules; see the option test below.)
    LawCase {
        name: "protected but immobile target",
        fen: "4k4/3c5/C3nr3/9/1N7/9/9/4R4/9/3K5 w - - 0 1",
        moves: "b5c7 d8d7 c7b5 d7d8 b5c7 d8d7 c7b5 d7d8",
        expect: Loses(Red, PerpetualChase),
    },
    // Điều 24.23 (Hình 63): the black chariot is confined to the e-file by the red cannon e1 (it
    // is one of two screens before its general), so its moves along the file are not attacks on
    // the unprotected red cannon it lines up with. Draw. (Differs from the Asian rules.)
    LawCase {
        name: "confined chariot does not chase",
        fen: "4k4/4a4/9/9/C3r4/9/9/9/4C4/3K5 w - - 0 1",
        moves: "a5a6 e5e6 a6a5 e6e5 a5a6 e5e6 a6a5 e6e5",
        expect: Draw,
    },
];

/// Parses and plays the case's moves, asserting each is legal.
fn replay(case: &LawCase) -> (Position, Vec<Move>, Position) {
    let start =
        Position::from_fen(case.fen).unwrap_or_else(|e| panic!("{}: bad FEN: {e}", case.name));
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for text in case.moves.split_whitespace() {
        let mv = pos
            .parse_move(text, RankBase::Zero)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert!(
            pos.piece_at(mv.to()).is_none(),
            "{}: {text} captures",
            case.name
        );
        pos.make_move(mv);
        moves.push(mv);
    }
    (start, moves, pos)
}

/// The moves of the shortest cycle ending at the final position.
fn last_cycle(start: &Position, moves: &[Move], end: &Position) -> Vec<Move> {
    let mut pos = start.clone();
    let mut keys = vec![pos.key()];
    for &mv in moves {
        pos.make_move(mv);
        keys.push(pos.key());
    }
    let n = moves.len();
    let k = (1..=n / 2)
        .map(|h| 2 * h)
        .find(|&len| keys[n - len] == end.key())
        .expect("the final position repeats");
    moves[n - k..].to_vec()
}

fn verdict_as_expect(case: &LawCase, options: &RuleOptions) -> Expect {
    let (start, moves, end) = replay(case);
    let verdict =
        adjudicate(&start, &moves, options).unwrap_or_else(|| panic!("{}: no verdict", case.name));
    let expect = match verdict.rule {
        RuleId::RepetitionDraw => Draw,
        RuleId::PerpetualCheck | RuleId::PerpetualChase => {
            let loser = match verdict.result {
                engine_core::rules::GameResult::RedWins => Black,
                engine_core::rules::GameResult::BlackWins => Red,
                engine_core::rules::GameResult::Draw => {
                    panic!("{}: drawn by {:?}", case.name, verdict.rule)
                }
            };
            Loses(loser, verdict.rule)
        }
        other => panic!(
            "{}: decided by {other:?}: {}",
            case.name, verdict.explanation
        ),
    };
    // The search-level judge on the last cycle must agree.
    let cycle = last_cycle(&start, &moves, &end);
    let fast = judge_cycle_with(&end, &cycle, options);
    let fast_expect = match expect {
        Draw => CycleVerdict::Draw,
        Loses(c, _) => CycleVerdict::Loses(c),
    };
    assert_eq!(fast, fast_expect, "{}: judge_cycle disagrees", case.name);
    expect
}

#[test]
fn law_cases_under_default_options() {
    assert!(CASES.len() >= 25);
    let options = RuleOptions::default();
    let mut failures = Vec::new();
    for case in CASES {
        let got = verdict_as_expect(case, &options);
        if got != case.expect {
            failures.push(format!(
                "{}: expected {:?}, got {got:?}",
                case.name, case.expect
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn case(name: &str) -> &'static LawCase {
    CASES
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no case {name}"))
}

#[test]
fn check_against_chase_can_be_ruled_a_draw() {
    let options = RuleOptions {
        check_vs_chase: CheckVersusChase::Draw,
        ..RuleOptions::default()
    };
    let c = case("perpetual check against perpetual chase");
    assert_eq!(verdict_as_expect(c, &options), Draw);
    // Without a chase on the other side the checker still loses under this option.
    let c = case("perpetual check by one chariot");
    assert_eq!(verdict_as_expect(c, &options), Loses(Red, PerpetualCheck));
}

#[test]
fn immobile_target_rule_can_be_switched_off() {
    let options = RuleOptions {
        chase: ChaseRules {
            immobile_target_counts: false,
        },
        ..RuleOptions::default()
    };
    let c = case("protected but immobile target");
    assert_eq!(verdict_as_expect(c, &options), Draw);
    // Unprotected targets are unaffected.
    let c = case("unprotected target");
    assert_eq!(verdict_as_expect(c, &options), Loses(Red, PerpetualChase));
}

#[test]
fn judge_cycle_default_matches_explicit_default() {
    for case in CASES {
        let (start, moves, end) = replay(case);
        let cycle = last_cycle(&start, &moves, &end);
        assert_eq!(
            judge_cycle(&end, &cycle),
            judge_cycle_with(&end, &cycle, &RuleOptions::default()),
            "{}",
            case.name
        );
    }
}

#[test]
fn malformed_cycles_are_draws_not_panics() {
    let pos = Position::startpos();
    let h2e2 = pos.parse_move("h2e2", RankBase::Zero).expect("legal");
    // Not returning to the position, odd length, illegal move: all judged a draw.
    assert_eq!(judge_cycle(&pos, &[h2e2]), CycleVerdict::Draw);
    let bogus = engine_core::parse_move("a5a6", RankBase::Zero).expect("well-formed");
    assert_eq!(judge_cycle(&pos, &[bogus, bogus]), CycleVerdict::Draw);
    assert_eq!(judge_cycle(&pos, &[]), CycleVerdict::Draw);
}
