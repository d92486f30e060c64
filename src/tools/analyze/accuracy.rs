//! Accuracy, modelled on lichess's (lichess.org/page/accuracy): each move gets a percentage from
//! the drop of the mover's winning chances (100 for no drop, falling off exponentially), and a
//! side's accuracy over a game is the mean of the arithmetic and the harmonic means of its moves'
//! accuracies: the harmonic mean makes a few big errors count where the arithmetic mean alone
//! would drown them among the many easy moves. Lichess also weights moves by how much the game
//! swings around them; this does not.

use super::winning_chances::{points, PerMille};

/// The move-accuracy curve lichess publishes: `SCALE · e^(−DECAY · drop) − OFFSET`, `drop` in
/// percentage points of winning chances, giving 100 for no drop and about 0 for a drop of 75.
const SCALE: f64 = 103.1668;
/// See [`SCALE`].
const DECAY: f64 = 0.04354;
/// See [`SCALE`].
const OFFSET: f64 = 3.1669;
/// The smallest move accuracy the harmonic mean takes (a move at 0 would make it 0 whatever
/// the other moves were).
const HARMONIC_FLOOR: f64 = 1.0;

/// A move's accuracy (0 to 100) when the mover's expected score drops by `drop` thousandths.
pub fn of_move(drop: PerMille) -> f64 {
    (SCALE * (-DECAY * points(drop.max(0))).exp() - OFFSET).clamp(0.0, 100.0)
}

/// A side's accuracy over its moves' accuracies; `None` without moves.
pub fn of_side(moves: &[f64]) -> Option<f64> {
    if moves.is_empty() {
        return None;
    }
    let n = moves.len() as f64;
    let arithmetic = moves.iter().sum::<f64>() / n;
    let harmonic = n / moves
        .iter()
        .map(|a| 1.0 / a.max(HARMONIC_FLOOR))
        .sum::<f64>();
    Some((arithmetic + harmonic) / 2.0)
}

/// An accuracy for people: `93.4%`.
pub fn text(accuracy: f64) -> String {
    format!("{accuracy:.1}%")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accuracy_falls_with_the_drop_and_big_errors_count() {
        assert!((of_move(0) - 100.0).abs() < 0.01, "{}", of_move(0));
        assert!(of_move(50) > of_move(100));
        // A drop of 15 points (lichess's blunder) gives about half.
        assert!((45.0..55.0).contains(&of_move(150)), "{}", of_move(150));
        assert_eq!(of_move(1000), 0.0);
        assert_eq!(of_side(&[]), None);
        assert_eq!(of_side(&[100.0, 100.0]), Some(100.0));
        // One lost game among 39 perfect moves costs far more than its share of the average.
        let mut moves = vec![100.0; 39];
        moves.push(0.0);
        let side = of_side(&moves).expect("moves");
        assert!(side < 80.0, "{side}");
        assert_eq!(text(93.44), "93.4%");
    }
}
