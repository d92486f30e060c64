//! Round-robin schedules as in the Law's Appendix 1 (Berger tables), generated from the rules the
//! appendix states (lines 6358-6364 of seed 000) rather than copied, since the printed tables have
//! typos. Players are numbered 1..N; with an odd count, number N+1 is the bye.
//!
//! * Round: players i < j (both below N) meet in round i + j - 1; the last number N meets j in
//!   round 2j - 1; in both cases minus (N - 1) when that exceeds the number of rounds N - 1.
//! * Colour: an even and an odd number: the smaller has White; both even or both odd: the larger
//!   has White; the last number N has Black against 1..N/2 and White against the rest.

/// One round of a round robin, with 0-based player indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BergerRound {
    /// (white, black) pairs, the game with the last number first as in the printed tables.
    pub games: Vec<(usize, usize)>,
    /// The player without an opponent this round (odd number of players).
    pub bye: Option<usize>,
}

/// The full single round robin for `players` players (at least 2).
pub fn schedule(players: usize) -> Vec<BergerRound> {
    if players < 2 {
        return Vec::new();
    }
    let n = players + players % 2; // table size, even
    let rounds = n - 1;
    let reduce = |r: usize| if r > rounds { r - rounds } else { r };
    let mut table: Vec<BergerRound> = (0..rounds)
        .map(|_| BergerRound {
            games: Vec::new(),
            bye: None,
        })
        .collect();
    // The last number's games first, so each round lists it on board 1.
    for j in 1..n {
        let round = reduce(2 * j - 1);
        let (white, black) = if j <= n / 2 { (j, n) } else { (n, j) };
        let slot = &mut table[round - 1];
        if n > players {
            slot.bye = Some(j - 1);
        } else {
            slot.games.push((white - 1, black - 1));
        }
    }
    for i in 1..n {
        for j in (i + 1)..n {
            let round = reduce(i + j - 1);
            let white = if (i + j) % 2 == 1 { i } else { j };
            let black = i + j - white;
            table[round - 1].games.push((white - 1, black - 1));
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_based(r: &BergerRound) -> Vec<(usize, usize)> {
        let mut g: Vec<(usize, usize)> = r.games.iter().map(|&(w, b)| (w + 1, b + 1)).collect();
        g.sort();
        g
    }

    #[test]
    fn four_players_match_the_printed_table() {
        // Appendix 1, "Bảng cho 3 - 4 đấu thủ": 1-4 2-3 / 4-3 1-2 / 2-4 3-1.
        let t = schedule(4);
        assert_eq!(t.len(), 3);
        assert_eq!(one_based(&t[0]), vec![(1, 4), (2, 3)]);
        assert_eq!(one_based(&t[1]), vec![(1, 2), (4, 3)]);
        assert_eq!(one_based(&t[2]), vec![(2, 4), (3, 1)]);
    }

    #[test]
    fn six_players_match_the_printed_table() {
        // "Bảng cho 5 - 6 đấu thủ", rounds 1, 2, 4 as printed.
        let t = schedule(6);
        assert_eq!(one_based(&t[0]), vec![(1, 6), (2, 5), (3, 4)]);
        assert_eq!(one_based(&t[1]), vec![(1, 2), (5, 3), (6, 4)]);
        assert_eq!(one_based(&t[3]), vec![(1, 4), (2, 3), (6, 5)]);
    }

    #[test]
    fn three_players_get_byes() {
        let t = schedule(3);
        assert_eq!(t.len(), 3);
        assert_eq!(t[0].bye, Some(0));
        assert_eq!(one_based(&t[0]), vec![(2, 3)]);
        assert_eq!(t[1].bye, Some(2));
        assert_eq!(one_based(&t[1]), vec![(1, 2)]);
    }

    #[test]
    fn every_pair_meets_once_and_colours_balance() {
        for players in 2..=18 {
            let t = schedule(players);
            let mut met = vec![vec![0; players]; players];
            let mut whites = vec![0i32; players];
            for r in &t {
                let mut seen = vec![false; players];
                for &(w, b) in &r.games {
                    assert!(!seen[w] && !seen[b]);
                    seen[w] = true;
                    seen[b] = true;
                    met[w][b] += 1;
                    met[b][w] += 1;
                    whites[w] += 1;
                }
                if let Some(b) = r.bye {
                    assert!(!seen[b]);
                }
            }
            for (i, row) in met.iter().enumerate() {
                for (j, &count) in row.iter().enumerate() {
                    assert_eq!(count, usize::from(i != j), "{players}: {i} {j}");
                }
                let games = players as i32 - 1;
                assert!((2 * whites[i] - games).abs() <= 1, "{players}: {whites:?}");
            }
        }
    }

    #[test]
    fn twelve_player_examples_from_the_rules() {
        // "3 vs 5 → round 7; 9 vs 11 → 8; 12 vs 3 → round 5; 12 vs 10 → round 8."
        let t = schedule(12);
        let round_of = |a: usize, b: usize| {
            t.iter()
                .position(|r| {
                    r.games
                        .iter()
                        .any(|&(w, bl)| (w + 1, bl + 1) == (a, b) || (w + 1, bl + 1) == (b, a))
                })
                .map(|i| i + 1)
        };
        assert_eq!(round_of(3, 5), Some(7));
        assert_eq!(round_of(9, 11), Some(8));
        assert_eq!(round_of(12, 3), Some(5));
        assert_eq!(round_of(12, 10), Some(8));
    }
}
