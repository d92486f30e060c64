//! SPSA (simultaneous perturbation stochastic approximation) as Fishtest runs it for Stockfish:
//! every iteration perturbs all parameters at once by `±c_k` (a random sign each), plays a game
//! pair between the `+` and the `−` engine, and moves every parameter by `R_k · c_k · result ·
//! sign`, where `result` is the `+` engine's wins minus losses in the pair.
//!
//! The schedules are Spall's: `c_k = c / k^γ` and `a_k = a / (A + k)^α`, `R_k = a_k / c_k²`, for
//! iterations `k = 1..=N`. As in Fishtest, each parameter gives the perturbation it should have
//! at the end of the run (`c_end`, the table's step) and all share `r_end`, the learning rate at
//! the end; then `c = c_end · N^γ` and `a = r_end · c_end² · (A + N)^α`.

use cotuong::search::Tunable;
use engine_core::SplitMix64;

/// Settings of a run, shared by all parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Iterations (game pairs) of the whole run, `N`.
    pub iterations: u64,
    /// Exponent of the step-size decay, `α` (Spall: 0.602).
    pub alpha: f64,
    /// Exponent of the perturbation decay, `γ` (Spall: 0.101).
    pub gamma: f64,
    /// Stability constant `A` (customarily a tenth of `N`).
    pub big_a: f64,
    /// Learning rate `a_k / c_k²` at the end of the run (Fishtest's `r_end`).
    pub r_end: f64,
    /// Factor on every parameter's `c_end`.
    pub c_scale: f64,
}

/// One parameter being tuned.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameter {
    /// Its table entry (name, default, range, step).
    pub tunable: Tunable,
    /// Current estimate, `θ`.
    pub value: f64,
}

impl Parameter {
    /// A parameter starting at its default.
    pub fn new(tunable: Tunable) -> Parameter {
        Parameter {
            value: f64::from(tunable.default),
            tunable,
        }
    }

    fn clamp(&self, v: f64) -> f64 {
        v.clamp(f64::from(self.tunable.min), f64::from(self.tunable.max))
    }
}

/// The two engines of one iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// The iteration, from 1.
    pub iteration: u64,
    /// The sign of each parameter's perturbation.
    pub signs: Vec<f64>,
    /// Each parameter's `c_k`.
    pub c: Vec<f64>,
    /// The values the `+` engine plays with (rounded, within range).
    pub plus: Vec<i32>,
    /// The values the `−` engine plays with.
    pub minus: Vec<i32>,
}

/// The state of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    /// The schedule.
    pub schedule: Schedule,
    /// The parameters.
    pub parameters: Vec<Parameter>,
}

impl Spsa {
    /// `c_k` of parameter `p` at iteration `k` (from 1).
    pub fn c_k(&self, p: &Parameter, k: u64) -> f64 {
        let s = &self.schedule;
        let c_end = p.tunable.step * s.c_scale;
        let c = c_end * (s.iterations as f64).powf(s.gamma);
        c / (k as f64).powf(s.gamma)
    }

    /// `a_k` of parameter `p` at iteration `k` (from 1).
    pub fn a_k(&self, p: &Parameter, k: u64) -> f64 {
        let s = &self.schedule;
        let c_end = p.tunable.step * s.c_scale;
        let a = s.r_end * c_end * c_end * (s.big_a + s.iterations as f64).powf(s.alpha);
        a / (s.big_a + k as f64).powf(s.alpha)
    }

    /// The perturbation of iteration `k`, its signs drawn from random stream `k` of `seed` (so a
    /// resumed run draws the same signs).
    pub fn perturb(&self, k: u64, seed: u64) -> Perturbation {
        let mut rng = SplitMix64::stream(seed, k);
        let mut out = Perturbation {
            iteration: k,
            signs: Vec::new(),
            c: Vec::new(),
            plus: Vec::new(),
            minus: Vec::new(),
        };
        for p in &self.parameters {
            let sign = if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 };
            let c = self.c_k(p, k);
            out.plus.push(p.clamp(p.value + c * sign).round() as i32);
            out.minus.push(p.clamp(p.value - c * sign).round() as i32);
            out.signs.push(sign);
            out.c.push(c);
        }
        out
    }

    /// Applies the result of a perturbation's game pair: `result` is the `+` engine's wins minus
    /// its losses (−2 to 2).
    pub fn update(&mut self, perturbation: &Perturbation, result: f64) {
        let k = perturbation.iteration;
        let moved: Vec<f64> = self
            .parameters
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let (sign, c) = (perturbation.signs[i], perturbation.c[i]);
                let r = self.a_k(p, k) / (c * c);
                p.clamp(p.value + r * c * result * sign)
            })
            .collect();
        for (p, v) in self.parameters.iter_mut().zip(moved) {
            p.value = v;
        }
    }

    /// The current values, rounded as an engine gets them.
    pub fn rounded(&self) -> Vec<i32> {
        self.parameters
            .iter()
            .map(|p| p.value.round() as i32)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tunable(default: i32, min: i32, max: i32, step: f64) -> Tunable {
        Tunable {
            name: "X",
            default,
            min,
            max,
            step,
        }
    }

    fn run(iterations: u64) -> Spsa {
        Spsa {
            schedule: Schedule {
                iterations,
                alpha: 0.602,
                gamma: 0.101,
                big_a: iterations as f64 / 10.0,
                r_end: 0.002,
                c_scale: 1.0,
            },
            parameters: vec![Parameter::new(tunable(100, 0, 200, 10.0))],
        }
    }

    #[test]
    fn schedules_end_where_they_are_told_to() {
        let s = run(1000);
        let p = &s.parameters[0];
        assert!((s.c_k(p, 1000) - 10.0).abs() < 1e-9);
        let r_end = s.a_k(p, 1000) / s.c_k(p, 1000).powi(2);
        assert!((r_end - 0.002).abs() < 1e-12);
        // Both decay over the run.
        assert!(s.c_k(p, 1) > s.c_k(p, 500) && s.a_k(p, 1) > s.a_k(p, 500));
    }

    #[test]
    fn a_won_pair_moves_towards_the_winner_and_ranges_hold() {
        let mut s = run(100);
        let pert = s.perturb(1, 7);
        let sign = pert.signs[0];
        assert_eq!(pert.plus[0] - 100, -(pert.minus[0] - 100));
        s.update(&pert, 2.0);
        let moved = s.parameters[0].value - 100.0;
        assert!(
            moved * sign > 0.0,
            "moved {moved} against the winner's sign {sign}"
        );
        // A huge learning rate is clamped to the range.
        s.schedule.r_end = 1e6;
        let pert = s.perturb(2, 7);
        s.update(&pert, 2.0 * pert.signs[0]);
        assert_eq!(s.parameters[0].value, 200.0);
        // A drawn pair moves nothing.
        let before = s.parameters[0].value;
        let pert = s.perturb(3, 7);
        s.update(&pert, 0.0);
        assert_eq!(s.parameters[0].value, before);
    }

    #[test]
    fn signs_are_reproducible_and_balanced() {
        let s = run(100);
        assert_eq!(s.perturb(5, 1), s.perturb(5, 1));
        let plus = (1..=1000)
            .filter(|&k| s.perturb(k, 3).signs[0] > 0.0)
            .count();
        assert!((400..=600).contains(&plus), "{plus} of 1000 signs positive");
    }

    /// On a noiseless one-parameter "match" whose winner is the engine nearer to 150, the run
    /// ends near 150.
    #[test]
    fn finds_the_optimum_of_a_smooth_problem() {
        let mut s = run(2000);
        s.schedule.r_end = 0.02;
        for k in 1..=2000 {
            let pert = s.perturb(k, 11);
            let score = |v: i32| -(f64::from(v) - 150.0).abs();
            let result = (score(pert.plus[0]) - score(pert.minus[0])).signum();
            s.update(&pert, result);
        }
        let v = s.parameters[0].value;
        assert!((v - 150.0).abs() < 8.0, "ended at {v}");
    }
}
