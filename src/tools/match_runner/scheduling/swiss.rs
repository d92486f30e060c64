//! Swiss pairing after the Law's Điều 27-28 (seed 000): players ranked by score, then by starting
//! number; pairing within score groups, top half against bottom half, floaters moving down to the
//! next group; never the same opponent twice; no colour three times in a row and a colour
//! difference within ±2. With an odd field, the lowest-ranked player who has not had one gets a
//! bye (one point, no colour). The colour rules may be waived in the last round if they block a
//! pairing (Điều 27, line 2652); as a last resort for tiny fields a repeat pairing is allowed and
//! reported, rather than the tournament stopping.

/// A colour in one game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Side {
    /// Red, moves first ("Trắng" in the Law).
    White,
    /// Black.
    Black,
}

impl Side {
    fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

/// What the pairing needs to know about one player.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SwissPlayer {
    /// Score in half points.
    pub half_points: u32,
    /// Colours of the games played, in order (byes excluded).
    pub colours: Vec<Side>,
    /// Opponents met (player indices).
    pub opponents: Vec<usize>,
    /// Already received a bye.
    pub had_bye: bool,
}

impl SwissPlayer {
    fn colour_difference(&self) -> i32 {
        self.colours
            .iter()
            .map(|c| if *c == Side::White { 1 } else { -1 })
            .sum()
    }

    /// The hard colour rules: not three in a row, difference within ±2.
    fn may_take(&self, side: Side) -> bool {
        let n = self.colours.len();
        if n >= 2 && self.colours[n - 1] == side && self.colours[n - 2] == side {
            return false;
        }
        let diff = self.colour_difference() + if side == Side::White { 1 } else { -1 };
        diff.abs() <= 2
    }

    /// The preferred colour and how strongly (0 none, 1 alternation, 2+ balance).
    fn preference(&self) -> (Option<Side>, u32) {
        let diff = self.colour_difference();
        if diff != 0 {
            let side = if diff > 0 { Side::Black } else { Side::White };
            return (Some(side), 1 + diff.unsigned_abs());
        }
        match self.colours.last() {
            Some(&last) => (Some(last.other()), 1),
            None => (None, 0),
        }
    }
}

/// A round's pairings (player indices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissRound {
    /// (white, black) pairs, top board first.
    pub games: Vec<(usize, usize)>,
    /// The player with the bye.
    pub bye: Option<usize>,
    /// Which rule had to be relaxed, if any.
    pub relaxed: Option<String>,
}

#[derive(Copy, Clone, PartialEq)]
struct Strictness {
    colours: bool,
    no_repeats: bool,
}

/// Pairs the next round. `players` is indexed by player number (starting order); `last_round`
/// allows waiving the colour rules as the Law permits.
pub fn pair_round(players: &[SwissPlayer], last_round: bool) -> Result<SwissRound, String> {
    if players.len() < 2 {
        return Err("a Swiss tournament needs at least two players".into());
    }
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by(|&a, &b| {
        players[b]
            .half_points
            .cmp(&players[a].half_points)
            .then(a.cmp(&b))
    });
    let mut levels = vec![(
        Strictness {
            colours: true,
            no_repeats: true,
        },
        None,
    )];
    let colour_note = if last_round {
        "colour rules waived in the last round (Điều 27)"
    } else {
        "colour rules waived: no pairing satisfies them"
    };
    levels.push((
        Strictness {
            colours: false,
            no_repeats: true,
        },
        Some(colour_note.to_string()),
    ));
    levels.push((
        Strictness {
            colours: false,
            no_repeats: false,
        },
        Some("colour rules waived and a repeat pairing allowed (field too small)".to_string()),
    ));
    for (strict, note) in levels {
        if let Some(round) = pair_with(players, &order, strict) {
            return Ok(SwissRound {
                relaxed: note,
                ..round
            });
        }
    }
    Err("no Swiss pairing exists for this round".into())
}

fn pair_with(players: &[SwissPlayer], order: &[usize], strict: Strictness) -> Option<SwissRound> {
    // Bye candidates: lowest ranked first, those without a bye before the others.
    let bye_candidates: Vec<Option<usize>> = if order.len() % 2 == 1 {
        let mut c: Vec<usize> = order.iter().rev().copied().collect();
        c.sort_by_key(|&p| players[p].had_bye); // stable: keeps lowest-ranked first
        c.into_iter().map(Some).collect()
    } else {
        vec![None]
    };
    for bye in bye_candidates {
        let rest: Vec<usize> = order.iter().copied().filter(|&p| Some(p) != bye).collect();
        let mut budget = 200_000u32;
        let mut pairs = Vec::new();
        if backtrack(
            players,
            &rest,
            &mut vec![false; players.len()],
            strict,
            &mut pairs,
            &mut budget,
        ) {
            let games = pairs
                .iter()
                .enumerate()
                .map(|(board, &(a, b))| colours_for(players, a, b, board, strict))
                .collect();
            return Some(SwissRound {
                games,
                bye,
                relaxed: None,
            });
        }
    }
    None
}

fn compatible(players: &[SwissPlayer], a: usize, b: usize, strict: Strictness) -> bool {
    if strict.no_repeats && players[a].opponents.contains(&b) {
        return false;
    }
    if strict.colours {
        let (pa, pb) = (&players[a], &players[b]);
        let a_white = pa.may_take(Side::White) && pb.may_take(Side::Black);
        let a_black = pa.may_take(Side::Black) && pb.may_take(Side::White);
        if !a_white && !a_black {
            return false;
        }
    }
    true
}

/// Pairs the first unpaired player of `order` with the best compatible candidate, recursively.
fn backtrack(
    players: &[SwissPlayer],
    order: &[usize],
    used: &mut Vec<bool>,
    strict: Strictness,
    pairs: &mut Vec<(usize, usize)>,
    budget: &mut u32,
) -> bool {
    let Some(pos) = order.iter().position(|&p| !used[p]) else {
        return true;
    };
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let p = order[pos];
    used[p] = true;
    for q in candidates(players, order, used, p) {
        if !compatible(players, p, q, strict) {
            continue;
        }
        used[q] = true;
        pairs.push((p, q));
        if backtrack(players, order, used, strict, pairs, budget) {
            return true;
        }
        pairs.pop();
        used[q] = false;
    }
    used[p] = false;
    false
}

/// Candidate opponents for `p` in preference order: its score group first, starting at the
/// player half a group below it (top half meets bottom half), then the lower groups in rank
/// order, then higher-ranked players (floaters upwards only when nothing else works).
fn candidates(players: &[SwissPlayer], order: &[usize], used: &[bool], p: usize) -> Vec<usize> {
    let score = players[p].half_points;
    let group: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&q| !used[q] && players[q].half_points == score)
        .collect();
    // `group` excludes p (already marked used); p was the group's top, so the group as it was
    // had len + 1 players and p's ideal opponent is at index (len + 1) / 2 - 1 of `group`.
    let half = group.len().div_ceil(2);
    let start = half.saturating_sub(1).min(group.len());
    let mut out: Vec<usize> = group[start..].to_vec();
    out.extend(group[..start].iter().rev());
    out.extend(
        order
            .iter()
            .copied()
            .filter(|&q| !used[q] && players[q].half_points < score),
    );
    out.extend(
        order
            .iter()
            .copied()
            .filter(|&q| !used[q] && players[q].half_points > score),
    );
    out
}

/// Colours for a pair where `a` ranks above `b`: the only legal assignment if there is one;
/// otherwise the stronger preference wins, ties going to the higher-ranked player (Điều 28.6);
/// without any preference, alternate by board.
fn colours_for(
    players: &[SwissPlayer],
    a: usize,
    b: usize,
    board: usize,
    strict: Strictness,
) -> (usize, usize) {
    let (pa, pb) = (&players[a], &players[b]);
    let a_white_ok = !strict.colours || (pa.may_take(Side::White) && pb.may_take(Side::Black));
    let a_black_ok = !strict.colours || (pa.may_take(Side::Black) && pb.may_take(Side::White));
    let a_white = match (a_white_ok, a_black_ok) {
        (true, false) => true,
        (false, true) => false,
        _ => {
            let (sa, wa) = pa.preference();
            let (sb, wb) = pb.preference();
            match (sa, sb) {
                (Some(x), Some(y)) if x != y => x == Side::White,
                (Some(x), Some(_)) => {
                    if wb > wa {
                        x != Side::White
                    } else {
                        x == Side::White
                    }
                }
                (Some(x), None) => x == Side::White,
                (None, Some(y)) => y == Side::Black,
                (None, None) => board.is_multiple_of(2),
            }
        }
    };
    if a_white {
        (a, b)
    } else {
        (b, a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh(n: usize) -> Vec<SwissPlayer> {
        vec![SwissPlayer::default(); n]
    }

    fn apply(players: &mut [SwissPlayer], round: &SwissRound, white_half_points: &[u32]) {
        for (&(w, b), &r) in round.games.iter().zip(white_half_points) {
            players[w].half_points += r;
            players[b].half_points += 2 - r;
            players[w].colours.push(Side::White);
            players[b].colours.push(Side::Black);
            players[w].opponents.push(b);
            players[b].opponents.push(w);
        }
        if let Some(p) = round.bye {
            players[p].half_points += 2;
            players[p].had_bye = true;
        }
    }

    #[test]
    fn first_round_is_top_half_against_bottom_half() {
        let r = pair_round(&fresh(8), false).unwrap();
        let mut pairs: Vec<(usize, usize)> =
            r.games.iter().map(|&(w, b)| (w.min(b), w.max(b))).collect();
        pairs.sort();
        assert_eq!(pairs, vec![(0, 4), (1, 5), (2, 6), (3, 7)]);
        // Alternating colours by board for the top half.
        assert_eq!(r.games[0], (0, 4));
        assert_eq!(r.games[1], (5, 1));
        assert!(r.bye.is_none() && r.relaxed.is_none());
    }

    #[test]
    fn odd_field_gives_the_bye_to_the_lowest_ranked_once() {
        let mut p = fresh(5);
        let r1 = pair_round(&p, false).unwrap();
        assert_eq!(r1.bye, Some(4));
        apply(&mut p, &r1, &[2, 2]);
        let r2 = pair_round(&p, false).unwrap();
        let b2 = r2.bye.unwrap();
        assert_ne!(b2, 4);
        assert_eq!(p[b2].half_points, 0);
    }

    #[test]
    fn score_groups_are_paired_and_no_rematches() {
        let mut p = fresh(8);
        let r1 = pair_round(&p, false).unwrap();
        apply(&mut p, &r1, &[2, 2, 2, 2]); // white wins everywhere
        let r2 = pair_round(&p, false).unwrap();
        for &(w, b) in &r2.games {
            assert_eq!(p[w].half_points, p[b].half_points, "paired within groups");
            assert!(!p[w].opponents.contains(&b));
        }
    }

    #[test]
    fn colour_rules_hold_over_a_whole_event() {
        // 10 players, 7 rounds, results by a fixed pattern: every round must respect no three
        // colours in a row, |difference| <= 2 and no repeat pairing.
        let mut p = fresh(10);
        for round in 0..7 {
            let r = pair_round(&p, round == 6).unwrap();
            assert!(r.relaxed.is_none(), "round {round}: {:?}", r.relaxed);
            let results: Vec<u32> = (0..r.games.len())
                .map(|i| ((i + round) % 3) as u32)
                .collect();
            for &(w, b) in &r.games {
                assert!(!p[w].opponents.contains(&b));
            }
            apply(&mut p, &r, &results);
            for pl in &p {
                assert!(pl.colour_difference().abs() <= 2);
                for w in pl.colours.windows(3) {
                    assert!(!(w[0] == w[1] && w[1] == w[2]), "{:?}", pl.colours);
                }
            }
        }
    }

    #[test]
    fn colour_allocation_respects_history() {
        let mut p = fresh(2);
        p[0].colours = vec![Side::White, Side::White];
        p[1].colours = vec![Side::Black, Side::Black];
        let r = pair_round(&p, false).unwrap();
        assert_eq!(r.games, vec![(1, 0)]);
        // Both had White twice: the rule cannot hold, so it is waived and reported.
        p[1].colours = vec![Side::White, Side::White];
        let r = pair_round(&p, false).unwrap();
        assert!(r.relaxed.is_some());
    }

    #[test]
    fn tiny_fields_repeat_pairings_with_a_note() {
        let mut p = fresh(2);
        let r = pair_round(&p, false).unwrap();
        apply(&mut p, &r, &[1]);
        let r2 = pair_round(&p, false).unwrap();
        assert!(r2.relaxed.unwrap().contains("repeat"));
        // Colours alternate.
        assert_eq!(r2.games[0].0, r.games[0].1);
    }
}
