//! Fitting the score scale K: the K that minimises `Σ (result - sigmoid(score / K))²`, so that
//! `sigmoid(score / K)` is the best guess of the result the scores allow.
//!
//! Scores are integers, so the data is first reduced to one bin per score value (count, sum of
//! results, sum of squared results); each evaluation of the error then costs one pass over the
//! bins, not over the positions.

/// The fitted scale.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct KFit {
    /// The scale, engine units.
    pub k: f64,
    /// Mean squared error of `sigmoid(score / k)` against the results.
    pub mse: f64,
    /// Positions used.
    pub positions: u64,
}

/// Smallest and largest K searched.
const K_RANGE: (f64, f64) = (1.0, 1.0e6);
/// Points of the coarse logarithmic grid.
const GRID_POINTS: usize = 400;
/// Golden-section iterations (each shrinks the bracket by 0.618).
const REFINE_STEPS: usize = 100;

/// Per score value: (positions, Σ result, Σ result²).
struct Bins(Vec<(i32, f64, f64, f64)>);

impl Bins {
    fn mse(&self, k: f64, n: f64) -> f64 {
        let mut e = 0.0;
        for &(s, count, sum, sum_sq) in &self.0 {
            let p = 1.0 / (1.0 + (-f64::from(s) / k).exp());
            e += sum_sq - 2.0 * p * sum + count * p * p;
        }
        e / n
    }
}

/// Fits K to `(score, result)` pairs (score: side to move's view, engine units; result: 1 win,
/// ½ draw, 0 loss for the same side). `None` when there is nothing to fit: no positions, or no
/// nonzero score (every K is then equally good).
pub fn fit_k(samples: impl IntoIterator<Item = (i32, f32)>) -> Option<KFit> {
    let mut map = std::collections::BTreeMap::<i32, (f64, f64, f64)>::new();
    let mut positions = 0u64;
    for (s, r) in samples {
        let e = map.entry(s).or_insert((0.0, 0.0, 0.0));
        let r = f64::from(r);
        e.0 += 1.0;
        e.1 += r;
        e.2 += r * r;
        positions += 1;
    }
    if positions == 0 || map.keys().all(|&s| s == 0) {
        return None;
    }
    let bins = Bins(map.into_iter().map(|(s, (c, a, b))| (s, c, a, b)).collect());
    let n = positions as f64;
    let (lo, hi) = (K_RANGE.0.ln(), K_RANGE.1.ln());
    let at = |i: usize| lo + (hi - lo) * i as f64 / (GRID_POINTS - 1) as f64;
    let best = (0..GRID_POINTS)
        .map(|i| (i, bins.mse(at(i).exp(), n)))
        .fold((0, f64::INFINITY), |b, x| if x.1 < b.1 { x } else { b })
        .0;
    // Golden-section search on ln K between the best grid point's neighbours.
    let (mut a, mut b) = (
        at(best.saturating_sub(1)),
        at((best + 1).min(GRID_POINTS - 1)),
    );
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (bins.mse(c.exp(), n), bins.mse(d.exp(), n));
    for _ in 0..REFINE_STEPS {
        if fc <= fd {
            b = d;
            d = c;
            fd = fc;
            c = b - ratio * (b - a);
            fc = bins.mse(c.exp(), n);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + ratio * (b - a);
            fd = bins.mse(d.exp(), n);
        }
    }
    let k = ((a + b) / 2.0).exp();
    Some(KFit {
        k,
        mse: bins.mse(k, n),
        positions,
    })
}
