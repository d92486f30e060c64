//! Standings and tie-breaks (Điều 21): points, then for round robins head-to-head between two
//! tied players, Sonneborn-Berger ("hệ số"), wins, wins with Black; for Swiss events Buchholz
//! (Điều 29.5: a bye counts the score of the last-placed player), Sonneborn-Berger, wins, wins
//! with Black. Remaining ties keep the starting order (the Law says lots; a reproducible order
//! is more useful for engines).

use serde::{Deserialize, Serialize};

/// One finished game for the standings.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Red's player index.
    pub white: usize,
    /// Black's player index.
    pub black: usize,
    /// Red's score in half points (2 win, 1 draw, 0 loss).
    pub white_half_points: u8,
}

/// Which tie-break order applies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TieBreakSystem {
    /// Điều 21.3.
    RoundRobin,
    /// Điều 21.4 / 29.5.
    Swiss,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// Player index.
    pub player: usize,
    /// Points (byes included).
    pub points: f64,
    /// Sum of the opponents' points (Swiss only; 0 for round robins).
    pub buchholz: f64,
    /// Sum of beaten opponents' points plus half of drawn opponents' points.
    pub sonneborn_berger: f64,
    /// Games won.
    pub wins: u32,
    /// Games won with Black.
    pub black_wins: u32,
    /// Games played (byes excluded).
    pub games: u32,
}

/// Computes and sorts the standings.
pub fn standings(
    players: usize,
    games: &[Outcome],
    byes: &[usize],
    system: TieBreakSystem,
) -> Vec<Standing> {
    let mut points = vec![0.0f64; players];
    for g in games {
        points[g.white] += g.white_half_points as f64 / 2.0;
        points[g.black] += (2 - g.white_half_points.min(2)) as f64 / 2.0;
    }
    for &b in byes {
        points[b] += 1.0;
    }
    let lowest = points.iter().cloned().fold(f64::INFINITY, f64::min);
    let mut rows: Vec<Standing> = (0..players)
        .map(|p| Standing {
            player: p,
            points: points[p],
            buchholz: 0.0,
            sonneborn_berger: 0.0,
            wins: 0,
            black_wins: 0,
            games: 0,
        })
        .collect();
    for g in games {
        let w = g.white_half_points.min(2);
        for (me, opp, mine, black) in [
            (g.white, g.black, w, false),
            (g.black, g.white, 2 - w, true),
        ] {
            let row = &mut rows[me];
            row.games += 1;
            row.buchholz += points[opp];
            row.sonneborn_berger += points[opp] * mine as f64 / 2.0;
            if mine == 2 {
                row.wins += 1;
                if black {
                    row.black_wins += 1;
                }
            }
        }
    }
    for &b in byes {
        rows[b].buchholz += lowest;
    }
    if system == TieBreakSystem::RoundRobin {
        for r in &mut rows {
            r.buchholz = 0.0;
        }
    }
    let head_to_head = |a: usize, b: usize| -> f64 {
        games
            .iter()
            .map(|g| {
                let w = g.white_half_points.min(2) as f64 / 2.0;
                if g.white == a && g.black == b {
                    w
                } else if g.white == b && g.black == a {
                    1.0 - w
                } else {
                    0.0
                }
            })
            .sum()
    };
    let tied_count = |pts: f64, rows: &[Standing]| rows.iter().filter(|r| r.points == pts).count();
    let snapshot = rows.clone();
    rows.sort_by(|x, y| {
        let by = |a: f64, b: f64| b.partial_cmp(&a).unwrap_or(std::cmp::Ordering::Equal);
        let mut ord = by(x.points, y.points);
        if ord.is_eq()
            && system == TieBreakSystem::RoundRobin
            && tied_count(x.points, &snapshot) == 2
        {
            ord = by(
                head_to_head(x.player, y.player),
                head_to_head(y.player, x.player),
            );
        }
        if system == TieBreakSystem::Swiss {
            ord = ord.then(by(x.buchholz, y.buchholz));
        }
        ord.then(by(x.sonneborn_berger, y.sonneborn_berger))
            .then(y.wins.cmp(&x.wins))
            .then(y.black_wins.cmp(&x.black_wins))
            .then(x.player.cmp(&y.player))
    });
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(white: usize, black: usize, w: u8) -> Outcome {
        Outcome {
            white,
            black,
            white_half_points: w,
        }
    }

    #[test]
    fn sonneborn_berger_breaks_a_three_way_tie() {
        // 4 players: 0 beats 1, 1 beats 2, 2 beats 0, all beat 3... and 3 draws nobody.
        let games = [
            g(0, 1, 2),
            g(1, 2, 2),
            g(2, 0, 2),
            g(0, 3, 2),
            g(3, 1, 0),
            g(2, 3, 1),
        ];
        let s = standings(4, &games, &[], TieBreakSystem::RoundRobin);
        // Points: 0: 2, 1: 2, 2: 1.5, 3: 0.5.
        assert_eq!(s[0].points, 2.0);
        // 0 and 1 tied: head-to-head (0 beat 1) decides.
        assert_eq!(s[0].player, 0);
        assert_eq!(s[1].player, 1);
        assert_eq!(s[2].player, 2);
        // SB of player 2: beat 0 (2 points) + half of 3's 0.5 = 2.25.
        assert!((s[2].sonneborn_berger - 2.25).abs() < 1e-12);
        assert_eq!(s[2].wins, 1);
        assert_eq!(s[2].black_wins, 0);
        assert_eq!(s[1].black_wins, 1);
    }

    #[test]
    fn buchholz_counts_byes_as_the_last_placed_score() {
        let games = [g(0, 1, 2), g(1, 2, 1)];
        let s = standings(3, &games, &[2], TieBreakSystem::Swiss);
        // Points: 0: 1, 1: 0.5, 2: 1.5. Lowest is 0.5.
        let p2 = s.iter().find(|r| r.player == 2).unwrap();
        assert!((p2.buchholz - (0.5 + 0.5)).abs() < 1e-12);
        let p0 = s.iter().find(|r| r.player == 0).unwrap();
        assert!((p0.buchholz - 0.5).abs() < 1e-12);
        assert_eq!(s[0].player, 2);
    }

    #[test]
    fn black_wins_break_remaining_ties() {
        // 0 and 1: 1 point, Buchholz 0.5, SB 0.5, one win each; only 1 won with Black.
        let games = [g(0, 2, 2), g(3, 1, 0), g(2, 3, 1)];
        let s = standings(4, &games, &[], TieBreakSystem::Swiss);
        assert_eq!(s[0].player, 1);
        assert_eq!(s[1].player, 0);
        assert_eq!(s[0].buchholz, s[1].buchholz);
        assert_eq!(s[0].sonneborn_berger, s[1].sonneborn_berger);
    }
}
