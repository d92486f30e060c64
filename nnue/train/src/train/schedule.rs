//! Learning-rate schedules.

use super::args::Schedule;

/// The learning rate at every optimiser step of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct LrSchedule {
    /// Which schedule.
    pub kind: Schedule,
    /// Initial rate.
    pub lr: f32,
    /// Final rate of the cosine schedule.
    pub lr_min: f32,
    /// Epochs between drops of the step schedule.
    pub step_epochs: u32,
    /// Factor per drop of the step schedule.
    pub gamma: f32,
    /// Optimiser steps per epoch.
    pub steps_per_epoch: u64,
    /// Epochs in the run.
    pub epochs: u32,
}

impl LrSchedule {
    /// The rate of step `step` (0-based, counted over the whole run).
    pub fn at(&self, step: u64) -> f32 {
        let per_epoch = self.steps_per_epoch.max(1);
        match self.kind {
            Schedule::Cosine => {
                let total = per_epoch * u64::from(self.epochs.max(1));
                let t = step.min(total) as f64 / total as f64;
                let cos = 0.5 * (1.0 + (std::f64::consts::PI * t).cos());
                (f64::from(self.lr_min) + f64::from(self.lr - self.lr_min) * cos) as f32
            }
            Schedule::Step => {
                let epoch = step / per_epoch;
                let drops = (epoch / u64::from(self.step_epochs.max(1))).min(i32::MAX as u64);
                self.lr * self.gamma.powi(drops as i32)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cosine_runs_from_lr_to_lr_min() {
        let s = LrSchedule {
            kind: Schedule::Cosine,
            lr: 1e-3,
            lr_min: 1e-5,
            step_epochs: 10,
            gamma: 0.3,
            steps_per_epoch: 100,
            epochs: 10,
        };
        assert_eq!(s.at(0), 1e-3);
        assert!((s.at(500) - (1e-3 + 1e-5) / 2.0).abs() < 1e-7);
        assert!((s.at(1000) - 1e-5).abs() < 1e-9);
        assert!(s.at(250) > s.at(251));
    }

    #[test]
    fn step_drops_every_n_epochs() {
        let s = LrSchedule {
            kind: Schedule::Step,
            lr: 1e-3,
            lr_min: 0.0,
            step_epochs: 2,
            gamma: 0.5,
            steps_per_epoch: 10,
            epochs: 6,
        };
        assert_eq!(s.at(0), 1e-3);
        assert_eq!(s.at(19), 1e-3);
        assert_eq!(s.at(20), 5e-4);
        assert_eq!(s.at(45), 2.5e-4);
    }
}
