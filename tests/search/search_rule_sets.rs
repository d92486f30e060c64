//! The search and the referee classify repetition cycles alike, under both rule sets: checks
//! mixed with attacks, offers between equal pieces, mate threats, who is chasing, and the Asian
//! rule book's remaining principles (the book and the Law agree on each). For each
//! constructed case (the same positions as `engine-core/tests/suite/rules_law_cases.rs`, whose
//! articles and legality checks they share), the game runs nearly two laps of its cycle; the
//! search then scores the move that makes a position occur for the third time, once from the
//! side whose move completes the cycle and once from the other side (a game started one ply
//! later). The score must be the referee's verdict on the game with that move: a draw scores 0,
//! a rule loss like being mated one ply after the root, a rule win like mating there.
//!
//! A second set of positions ([`HOLDS`]) puts the side that can keep up a lawful cycle clearly
//! behind in material, with no mate and nothing better than the cycle: the search must keep the
//! cycle up when it is lawful and leave it when the rule set forbids it, and the other side must
//! not count on the cycle being forbidden where it is not.
//!
//! The Asian verdicts cite, case by case, the articles of `rules_law_cases.rs`; all were also
//! checked against Fairy-Stockfish's AXF rules (`bench/oracle/asian_rules_pyffish.py`): all agree.

use cotuong::game::Game;
use cotuong::search::{mate_in, mated_in, RootMove, SearchRequest, SearchResult, Searcher, DRAW};
use engine_core::{
    adjudicate, move_text, Color, GameResult, Move, Position, RankBase, RuleOptions, RuleSet,
};

/// A verdict on the completed repetition.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Expect {
    Draw,
    Loses(Color),
}

use Color::{Black, Red};
use Expect::{Draw, Loses};

struct Case {
    /// The principle, as in `rules_law_cases.rs`.
    name: &'static str,
    fen: &'static str,
    /// One lap of the cycle (4 or 8 plies), from `fen`.
    lap: &'static str,
    /// The verdict under the Vietnamese Law and under the Asian rules.
    law: Expect,
    asian: Expect,
}

const CASES: &[Case] = &[
    // Checks mixed with attacks (Điều 23 point 2, Điều 24.8).
    Case {
        name: "check that attacks, then attack (chariot)",
        fen: "2n1k4/2R6/2R6/9/5n3/9/9/9/5K3/N8 b - - 0 1",
        lap: "e9f9 c8f8 f9e9 f8c8",
        law: Draw,
        asian: Loses(Red),
    },
    Case {
        name: "check that attacks, then attack (elephant)",
        fen: "5k3/2R6/2R2n3/9/2b6/9/9/9/3K5/4N4 b - - 0 1",
        lap: "f9e9 c7e7 e9f9 e7c7",
        law: Draw,
        asian: Loses(Red),
    },
    Case {
        name: "check that uncovers an attack, then attack",
        fen: "3n5/4k4/9/9/P5r2/9/9/9/4r4/3K5 b - - 0 1",
        lap: "e1e5 d0d1 e5e1 d1d0",
        law: Draw,
        asian: Loses(Black),
    },
    // Offers between equal pieces (Điều 24.20, 24.36).
    Case {
        name: "protected chariot offering itself to a chariot",
        fen: "3k5/9/r8/9/9/9/9/1R6R/9/4K4 w - - 0 1",
        lap: "b2a2 a7b7 a2b2 b7a7",
        law: Draw,
        asian: Draw,
    },
    Case {
        name: "protected cannon offering itself to a cannon",
        fen: "3k5/9/c8/9/1P7/9/P8/1C6R/9/4K4 w - - 0 1",
        lap: "b2a2 a7b7 a2b2 b7a7",
        law: Draw,
        asian: Draw,
    },
    Case {
        name: "chariot chasing a chariot confined by a cannon",
        fen: "3ak4/4a4/9/R8/4r4/9/9/9/4C4/3K5 w - - 0 1",
        lap: "a6a5 e5e6 a5a6 e6e5",
        law: Loses(Red),
        asian: Loses(Red),
    },
    // Mate threats (Điều 22 term 3, Điều 23 point 2, Điều 24.5).
    Case {
        name: "mate threat on a falsely protected piece",
        fen: "3k5/3c5/2R6/9/9/9/5N3/3K5/9/9 w - - 0 1",
        lap: "c7c8 d8d7 c8c7 d7d8",
        law: Draw,
        asian: Loses(Red),
    },
    Case {
        name: "mating attack that keeps hitting a cannon",
        fen: "3k5/4cR3/6P2/9/1R7/3p5/9/9/9/4K4 w - - 0 1",
        lap: "b5b8 e8e5 b8b5 e5e8",
        law: Draw,
        asian: Loses(Red),
    },
    Case {
        name: "chase answered by a mate threat",
        fen: "9/3k5/4C4/6c2/2r6/9/2N6/2r6/2C2K3/9 w - - 0 1",
        lap: "c3b5 c2e2 b5c3 e2c2",
        law: Loses(Red),
        asian: Draw,
    },
    // Who is chasing (Điều 24.22, 24.9).
    Case {
        name: "cannon chasing a chariot over moving screens",
        fen: "9/n3kc3/9/9/5c3/3C5/1C6r/3K5/9/9 w - - 0 1",
        lap: "d4d3 f5f3 d3d4 f3f5",
        law: Loses(Red),
        asian: Loses(Red),
    },
    Case {
        name: "chase that parries a check",
        fen: "2n6/9/4k4/1C7/4p4/9/9/9/9/5K3 b - - 0 1",
        lap: "c9d7 b6b7 d7c9 b7b6",
        law: Loses(Black),
        asian: Loses(Black),
    },
    // The Asian rule book's remaining principles (the books agree on each).
    Case {
        name: "horse chased, answering with a check and an idle move",
        fen: "4k4/4a4/9/9/9/9/5n3/9/5R3/4K4 b - - 0 1",
        lap: "f3d2 f1d1 d2f3 d1f1",
        law: Loses(Red),
        asian: Loses(Red),
    },
    Case {
        name: "cannon chasing a chariot that counter-attacks once",
        fen: "2bk5/9/r8/p8/1C7/9/9/1C7/9/4K4 w - - 0 1",
        lap: "b2a2 a7b7 a2b2 b7a7",
        law: Loses(Red),
        asian: Loses(Red),
    },
    Case {
        name: "two chariots chasing one cannon",
        fen: "4k4/9/9/9/c8/9/9/R8/9/R2K5 w - - 0 1",
        lap: "a2b2 e9e8 b2a2 e8e9",
        law: Loses(Red),
        asian: Loses(Red),
    },
    Case {
        name: "check, then a threat to check and capture",
        fen: "3k5/9/9/9/2R6/9/9/3n5/9/5K3 w - - 0 1",
        lap: "c5c9 d9d8 c9c5 d8d9",
        law: Draw,
        asian: Draw,
    },
    Case {
        name: "mutual perpetual chase in different ways",
        fen: "2r1N4/4ak3/9/4r4/n8/9/9/R8/9/R2K5 w - - 0 1",
        lap: "a2b2 e8d9 b2a2 d9e8",
        law: Draw,
        asian: Draw,
    },
    Case {
        name: "two chariots attacking in turn, each returning to its square",
        fen: "3ak4/9/9/1R7/5R3/c8/9/9/9/3K5 w - - 0 1",
        lap: "f5f4 a4a5 b6a6 a5b5 f4f5 b5b4 a6b6 b4a4",
        law: Loses(Red),
        asian: Loses(Red),
    },
    Case {
        name: "chariot beside its general attacked by a cannon",
        fen: "C3k4/4ar3/9/9/9/9/9/9/9/3K5 w - - 0 1",
        lap: "a9a8 f8f9 a8a9 f9f8",
        law: Loses(Red),
        asian: Loses(Red),
    },
];

/// `fen` and the moves of `text`, as a game, with the moves played.
fn play(fen: &str, text: &str) -> (Position, Vec<Move>) {
    let start = Position::from_fen(fen).expect("test FEN");
    let mut pos = start.clone();
    let moves = text
        .split_whitespace()
        .map(|t| {
            let mv = pos.parse_move(t, RankBase::Zero).expect("legal test move");
            pos.make_move(mv);
            mv
        })
        .collect();
    (start, moves)
}

/// `fen` and two laps of `lap`: the start position occurs for the third time at the end.
fn play_two_laps(fen: &str, lap: &str) -> (Position, Vec<Move>) {
    play(fen, &format!("{lap} {lap}"))
}

/// The referee's verdict on `start` + `moves` under `options` (it must have one).
fn referee(start: &Position, moves: &[Move], options: &RuleOptions) -> Expect {
    let v = adjudicate(start, moves, options).expect("the third occurrence is judged");
    match v.result {
        GameResult::Draw => Draw,
        GameResult::RedWins => Loses(Black),
        GameResult::BlackWins => Loses(Red),
    }
}

/// Whether `line` played after `start` + `history` ends in a repetition that the referee judges
/// a draw: another lawful cycle, which a deep enough search may find besides the one a test
/// studies.
fn ends_in_a_lawful_cycle(
    start: &Position,
    history: &[Move],
    line: &[Move],
    options: &RuleOptions,
) -> bool {
    let moves: Vec<Move> = history.iter().chain(line).copied().collect();
    matches!(adjudicate(start, &moves, options), Some(v) if v.result == GameResult::Draw)
}

/// The search's score for `start` + `history` followed by `last` (the only root move searched).
fn search_score(start: &Position, history: &[Move], last: Move, options: &RuleOptions) -> i32 {
    search_game(start, history, Some(vec![last]), 1, 4, options).score
}

/// The score the search must give, from the view of `mover`, for a verdict reached one ply
/// after the root.
fn expected_score(verdict: Expect, mover: Color) -> i32 {
    match verdict {
        Draw => DRAW,
        Loses(c) if c == mover => mated_in(1),
        Loses(_) => mate_in(1),
    }
}

#[test]
fn the_search_scores_third_occurrences_as_the_referee_judges_them() {
    let mut failures = Vec::new();
    for case in CASES {
        let (start, moves) = play_two_laps(case.fen, case.lap);
        for (rule_set, expected) in [
            (RuleSet::Vietnamese, case.law),
            (RuleSet::Asian, case.asian),
        ] {
            let options = RuleOptions::for_rule_set(rule_set);
            assert_eq!(
                referee(&start, &moves, &options),
                expected,
                "{} ({}): the referee",
                case.name,
                rule_set.name()
            );
            // The side completing the cycle: the last ply of the two laps searched.
            let (history, last) = moves.split_at(moves.len() - 1);
            let completer = start.side_to_move().opponent();
            let got = search_score(&start, history, last[0], &options);
            if got != expected_score(expected, completer) {
                failures.push(format!(
                    "{} ({}): completing move scored {got}",
                    case.name,
                    rule_set.name()
                ));
            }
            // The other side: the game starts one ply later, so that its move (the cycle's first)
            // makes the position after it occur for the third time.
            let mut later = start.clone();
            later.make_move(moves[0]);
            let later = Position::from_fen(&later.to_fen()).expect("a FEN of a legal position");
            let mut extended = moves[1..].to_vec();
            extended.push(moves[0]);
            assert_eq!(
                referee(&later, &extended, &options),
                expected,
                "{} ({}): the referee, one ply later",
                case.name,
                rule_set.name()
            );
            let (history, last) = extended.split_at(extended.len() - 1);
            let starter = start.side_to_move();
            let got = search_score(&later, history, last[0], &options);
            if got != expected_score(expected, starter) {
                failures.push(format!(
                    "{} ({}): the other side's move scored {got}",
                    case.name,
                    rule_set.name()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A position where one side, clearly behind in material, has nothing better than a repetition
/// cycle that the Law allows.
struct Hold {
    /// The principle and the article, as in `rules_law_cases.rs`.
    name: &'static str,
    /// The other side to move: its move starts the lap.
    fen: &'static str,
    /// One lap of the cycle (4 plies): the other side's move, the cycling side's, the other
    /// side's, the cycling side's.
    lap: &'static str,
    /// The verdict on the completed cycle under the Asian rules (under the Law it is a draw).
    asian: Expect,
}

const HOLDS: &[Hold] = &[
    // Điều 23 point 2, Điều 24.8 (Hình 13): Red is a chariot, two horses and two elephants behind
    // (chariot, cannon, advisor and two soldiers against two chariots, a cannon, two horses, an
    // advisor, two elephants and a soldier), far enough that every other move is clearly worse
    // under each net tried (the elephant i7 and the soldier a6 are there for net 18, the horse h9,
    // which its own elephant keeps off f8, for net 20). c8f8 checks the general on f9 (the soldier
    // f7 protects f8, so f9e9 is Black's only move) and uncovers the cannon c2, over the soldier
    // c3, against the unprotected horse c9; f8c8 attacks the horse again with the chariot. Both red
    // moves attack the horse, one of them with check: a draw under the Law, a perpetual chase under
    // the Asian rules. The attack completes the cycle.
    Hold {
        name: "check that uncovers an attack, then attack (attack completes)",
        fen: "1cnak1bn1/2R6/5P2b/p8/9/7rr/2P6/2C6/4A4/3K5 b - - 0 1",
        lap: "e9f9 c8f8 f9e9 f8c8",
        asian: Loses(Red),
    },
    // The same cycle, entered one red move later: the check completes it.
    Hold {
        name: "check that uncovers an attack, then attack (check completes)",
        fen: "1cna1kbn1/5R3/5P2b/p8/9/7rr/2P6/2C6/4A4/3K5 b - - 0 1",
        lap: "f9e9 f8c8 e9f9 c8f8",
        asian: Loses(Red),
    },
    // Điều 24.20 first bullet (Hình 51-52), Điều 24.36: Red (two chariots against two chariots, a
    // cannon and a full set of defenders) offers the chariot, protected by the chariot i2 along
    // the second rank, to the black chariot on every move, on the a-file and then the b-file. The
    // black chariot can take it each time: a perpetual offer, not a chase, under both rule sets.
    Hold {
        name: "protected chariot offering itself to a chariot",
        fen: "2bakab2/9/r8/9/4c2r1/9/9/R7R/9/4K4 b - - 0 1",
        lap: "a7b7 a2b2 b7a7 b2a2",
        asian: Draw,
    },
    // Điều 22 term 10, Điều 23 point 2, Điều 24.5 (Hình 6-8: perpetual mate threat, a draw): Red
    // (chariot, horse, two advisors) is a chariot behind (chariot, two horses, cannon, elephant
    // and three soldiers, the horses and the cannon at the red palace). Every red move threatens
    // c8c9 mate: from c9 the chariot holds the 9th rank, and the horse takes the general's last
    // square, e8 from c7, f8 from e6. Black's only parry each time is the general's step to the
    // other file (e9f9: f8 is free while the horse is on c7; f9e9: e8 is free while it is on
    // e6). A move that threatens mate may be repeated; under the Asian rules it is an idle move,
    // which is allowed too: a draw under both.
    Hold {
        name: "perpetual mate threat, the general parrying",
        fen: "4k1r2/2R6/2N5b/p1p6/2p6/9/9/6n2/4An1c1/3AK4 b - - 0 1",
        lap: "e9f9 c7e6 f9e9 e6c7",
        asian: Draw,
    },
    // Điều 22 term 3, Điều 23 point 2, Điều 24.5 and 24.14 Hình 38 (a mate threat that also
    // attacks a piece is a mate threat): Red (chariot, horse, cannon) is a chariot behind (two
    // chariots, horse, cannon, three soldiers). The horse d4 stands between the generals and
    // screens the cannon c3: c3d3 would be mate (the general's e7 is on the chariot's file, d8
    // is still on the cannon's), unless a black piece can step in on d5 or d6. Only the black
    // cannon can, along the 5th or the 6th rank, and the red chariot closes one of the two and
    // attacks the cannon along it: e6 hits g6, the cannon drops to g5 to guard d5; e5 hits g5,
    // the cannon returns to g6. Each red move threatens mate and attacks the same unprotected
    // cannon: a draw under the Law, a perpetual chase under the Asian rules.
    Hold {
        name: "perpetual mate threat that attacks a cannon",
        fen: "3r4r/9/3k5/4R1c1p/9/3N5/2C6/2nK5/7p1/6p2 b - - 0 1",
        lap: "g6g5 e6e5 g5g6 e5e6",
        asian: Loses(Red),
    },
];

/// The depth of the searches on [`HOLDS`]: deep enough to see each side's alternatives.
const HOLD_DEPTH: i32 = 8;

/// The depth at which a [`HOLDS`] position is searched again when [`HOLD_DEPTH`] leaves a score
/// short of [`CLEARLY_WORSE`]: deep enough to see the cycling side's other lawful cycles to their
/// end (a cycle inside the tree is judged at its third occurrence, as in the game).
const HOLD_RECHECK_DEPTH: i32 = HOLD_DEPTH + 4;

/// How far, at least, the cycling side is behind in every line but the cycle (centipawns, from
/// its view), and the other side ahead when the cycling side must leave a forbidden cycle.
const CLEARLY_WORSE: i32 = 300;

/// A fixed-depth search of `start` + `history` under `options`.
fn search_game(
    start: &Position,
    history: &[Move],
    root_moves: Option<Vec<Move>>,
    multipv: usize,
    depth: i32,
    options: &RuleOptions,
) -> SearchResult {
    let game = Game::from_moves(start.clone(), history).expect("legal history");
    let mut searcher = Searcher::new(4, 1).expect("a searcher");
    let request = SearchRequest {
        depth: Some(depth),
        multipv,
        rules: options.clone(),
        root_moves,
        ..SearchRequest::default()
    };
    searcher
        .search(&game, &request, &mut |_| {})
        .expect("a root move")
}

#[test]
fn a_side_behind_keeps_up_a_lawful_cycle_and_leaves_a_forbidden_one() {
    let mut failures = Vec::new();
    for hold in HOLDS {
        let (start, moves) = play_two_laps(hold.fen, hold.lap);
        let cycler = start.side_to_move().opponent();
        // Seven plies played: the cycling side's move makes the start position occur for the
        // third time.
        let (history, last) = moves.split_at(7);
        let cycle_move = last[0];
        for (rule_set, expected) in [(RuleSet::Vietnamese, Draw), (RuleSet::Asian, hold.asian)] {
            let options = RuleOptions::for_rule_set(rule_set);
            let label = format!("{} ({})", hold.name, rule_set.name());
            assert_eq!(
                referee(&start, &moves, &options),
                expected,
                "{label}: the referee"
            );
            let r = search_game(&start, history, None, 2, HOLD_DEPTH, &options);
            let shown = |r: &SearchResult| {
                let lines: Vec<String> = r
                    .lines
                    .iter()
                    .map(|l| {
                        format!(
                            "{} {}",
                            move_text(l.mv, RankBase::Zero),
                            l.reported_score().0
                        )
                    })
                    .collect();
                lines.join(", ")
            };
            match expected {
                Draw => {
                    // The cycle is the best line, a draw; every other move is clearly worse,
                    // unless it draws by another lawful cycle.
                    if r.best != cycle_move || r.score != DRAW {
                        failures.push(format!("{label}: left the lawful cycle: {}", shown(&r)));
                    }
                    let holds_otherwise = |l: &RootMove| {
                        l.reported_score().0 > -CLEARLY_WORSE
                            && !ends_in_a_lawful_cycle(&start, history, &l.pv, &options)
                    };
                    // The other move may hold by another lawful cycle (a check with an idle
                    // move) that this depth sees only in part: a deeper search of it decides.
                    let other = r.lines.get(1);
                    let holds_deeper = |l: &RootMove| {
                        let deeper = search_game(
                            &start,
                            history,
                            Some(vec![l.mv]),
                            1,
                            HOLD_RECHECK_DEPTH,
                            &options,
                        );
                        holds_otherwise(&deeper.lines[0])
                    };
                    if other.is_none_or(|l| holds_otherwise(l) && holds_deeper(l)) {
                        failures.push(format!(
                            "{label}: not clearly worse otherwise: {}",
                            shown(&r)
                        ));
                    }
                }
                Loses(c) => {
                    assert_eq!(c, cycler, "{label}: the cycling side offends");
                    // The cycle loses at once; the search plays on, behind but not lost by rule
                    // (or drawn by another, lawful cycle).
                    let left = |r: &SearchResult| {
                        let other_cycle =
                            ends_in_a_lawful_cycle(&start, history, &r.lines[0].pv, &options);
                        r.best != cycle_move
                            && (r.score <= -CLEARLY_WORSE || other_cycle)
                            && r.score > mated_in(1)
                    };
                    // A lawful cycle entered on leaving this one (a check with an idle move) is
                    // judged in the tree only at its third occurrence, which this depth may see
                    // only in part: a deeper search decides.
                    if !left(&r) {
                        let deeper =
                            search_game(&start, history, None, 2, HOLD_RECHECK_DEPTH, &options);
                        if !left(&deeper) {
                            failures.push(format!(
                                "{label}: kept the forbidden cycle: {} at depth {HOLD_DEPTH}, {} \
                                 at depth {HOLD_RECHECK_DEPTH}",
                                shown(&r),
                                shown(&deeper)
                            ));
                        }
                    }
                    let only = search_game(
                        &start,
                        history,
                        Some(vec![cycle_move]),
                        1,
                        HOLD_DEPTH,
                        &options,
                    );
                    if only.score != mated_in(1) {
                        failures.push(format!("{label}: the cycle move scored {}", only.score));
                    }
                }
            }
            // The other side, one ply earlier: its move lets the cycling side complete the
            // cycle. Under the Law that is a draw, not a rule win for the side ahead; under the
            // Asian rules the cycling side must leave the cycle and stays behind.
            let (history, next) = moves.split_at(6);
            let search_next_to =
                |depth| search_game(&start, history, Some(vec![next[0]]), 1, depth, &options);
            let r = search_next_to(HOLD_DEPTH);
            let failure = match expected {
                Draw if r.score == DRAW => None,
                Draw => Some(format!("scored {}", r.score)),
                Loses(_) if r.score >= CLEARLY_WORSE => None,
                // The cycling side may hold by another lawful cycle (here a check with an idle
                // move) that this depth sees only in part: a deeper search decides.
                Loses(_) => {
                    let deeper = search_next_to(HOLD_RECHECK_DEPTH);
                    let holds_by_another_cycle = deeper.score == DRAW
                        && ends_in_a_lawful_cycle(&start, history, &deeper.lines[0].pv, &options);
                    (deeper.score < CLEARLY_WORSE && !holds_by_another_cycle).then(|| {
                        format!(
                            "scored {} at depth {HOLD_DEPTH}, {} at depth {HOLD_RECHECK_DEPTH}",
                            r.score, deeper.score
                        )
                    })
                }
            };
            if let Some(failure) = failure {
                failures.push(format!("{label}: the other side's move {failure}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The WXF manual's cases (`engine-core/tests/data/wxf-manual.tsv`) as the referee reads them.
#[path = "../../engine-core/tests/suite/repetition_cases.rs"]
#[allow(dead_code)]
mod repetition_cases;

/// The game `start` + `moves` cut to the stretch the repetition rule judges at its end: from the
/// first occurrence of the final position (the start of the two laps) to the end.
fn from_first_occurrence(start: &Position, moves: &[Move]) -> (Position, Vec<Move>) {
    let mut positions = vec![start.clone()];
    for &mv in moves {
        let mut next = positions[positions.len() - 1].clone();
        next.make_move(mv);
        positions.push(next);
    }
    let last = &positions[moves.len()];
    let first = positions
        .iter()
        .position(|p| p.key() == last.key() && p.side_to_move() == last.side_to_move())
        .unwrap_or(0);
    let from = Position::from_fen(&positions[first].to_fen()).expect("a FEN of a legal position");
    (from, moves[first..].to_vec())
}

#[test]
fn the_search_scores_the_wxf_manual_cases_as_the_referee_judges_them() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/engine-core/tests/data/wxf-manual.tsv"
    );
    let mut failures = Vec::new();
    let mut irregular = 0;
    for case in repetition_cases::read_cases(path) {
        let (start, mut moves) = play(&case.fen, &case.moves.join(" "));
        // Some cases run past the ply where the repetition is judged: stop there.
        let decided = (1..=moves.len())
            .find(|&n| adjudicate(&start, &moves[..n], &RuleOptions::default()).is_some())
            .unwrap_or(moves.len());
        moves.truncate(decided);
        let (start, moves) = from_first_occurrence(&start, &moves);
        let half = moves.len() / 2;
        let two_equal_laps = moves.len() % 2 == 0 && moves[..half] == moves[half..];
        irregular += usize::from(!two_equal_laps);
        for rule_set in RuleSet::ALL {
            let options = RuleOptions::for_rule_set(rule_set);
            let label = format!("{} ({})", case.id, rule_set.name());
            let expected = referee(&start, &moves, &options);
            // The side completing the cycle (the stretch starts and ends with the same side to
            // move, so it has an even number of plies).
            let (history, last) = moves.split_at(moves.len() - 1);
            let completer = start.side_to_move().opponent();
            let got = search_score(&start, history, last[0], &options);
            if got != expected_score(expected, completer) {
                failures.push(format!(
                    "{label}: the referee rules {expected:?}; the completing move scored {got}"
                ));
            }
            // The other side: one ply later, its move (the next of the cycle) completes it. Only
            // two equal laps rotate so; a stretch of two different cycles through one position
            // (the manual's Diagram 80 and three others) repeats nothing one ply later.
            if !two_equal_laps {
                continue;
            }
            let mut later = start.clone();
            later.make_move(moves[0]);
            let later = Position::from_fen(&later.to_fen()).expect("a FEN of a legal position");
            // Two equal laps: the cycle's first move continues it.
            let mut extended = moves[1..].to_vec();
            extended.push(moves[0]);
            let later_verdict = referee(&later, &extended, &options);
            if later_verdict != expected {
                failures.push(format!(
                    "{label}: one ply later the referee rules {later_verdict:?}, not {expected:?}"
                ));
                continue;
            }
            let (history, last) = extended.split_at(extended.len() - 1);
            let got = search_score(&later, history, last[0], &options);
            if got != expected_score(expected, completer.opponent()) {
                failures.push(format!(
                    "{label}: the referee rules {expected:?}; the other side's move scored {got}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        irregular <= 4,
        "{irregular} cases judged from the completing side only"
    );
}
