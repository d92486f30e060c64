//! Ctrl-C for the long jobs (`cotuong tune`, `cotuong datagen`): the first press asks the job to
//! finish the work in progress and stop, a second asks it to stop now. Jobs poll [`requested`]
//! between units of work (a game, a game pair), so what they write stays whole.
//!
//! The `ctrlc` crate allows one handler per process. It is installed by the first job that asks,
//! and any job after it in the same process shares it: [`install`] sets what the handler says
//! and does for the job starting, and clears earlier presses.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Mutex;

/// How far a job has been asked to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Not asked: keep going.
    No = 0,
    /// One press: finish the work in progress, start nothing new.
    FinishInProgress = 1,
    /// Two presses (or a failure inside the job): stop at once.
    Now = 2,
}

/// What a second press does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecondPress {
    /// Raise [`Stop::Now`] for the job to see (it can abandon its work within moments).
    Signal,
    /// End the process at once with [`EXIT_INTERRUPTED`] (the job's work cannot be cut short,
    /// and what it has written is whole at every moment).
    Exit,
}

/// Exit status after a second Ctrl-C under [`SecondPress::Exit`] (128 + SIGINT, as a shell
/// reports it).
pub const EXIT_INTERRUPTED: i32 = 130;

/// The current [`Stop`] level, as its discriminant.
static LEVEL: AtomicU8 = AtomicU8::new(Stop::No as u8);

/// The running job's settings, read by the handler.
static JOB: Mutex<Job> = Mutex::new(Job {
    work_in_progress: "the work in progress",
    second_press: SecondPress::Signal,
});

struct Job {
    work_in_progress: &'static str,
    second_press: SecondPress,
}

/// Prepares Ctrl-C for a job whose units of work in progress are called `work_in_progress` in
/// the message of the first press (e.g. "the games in progress"); clears earlier presses. An
/// error if the handler cannot be installed.
pub fn install(work_in_progress: &'static str, second_press: SecondPress) -> Result<(), String> {
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    {
        let mut job = JOB.lock().unwrap_or_else(|p| p.into_inner());
        job.work_in_progress = work_in_progress;
        job.second_press = second_press;
    }
    LEVEL.store(Stop::No as u8, Ordering::SeqCst);
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return Ok(());
    }
    ctrlc::set_handler(press).map_err(|e| format!("cannot install the Ctrl-C handler: {e}"))
}

/// How far the running job has been asked to stop.
pub fn requested() -> Stop {
    match LEVEL.load(Ordering::Relaxed) {
        0 => Stop::No,
        1 => Stop::FinishInProgress,
        _ => Stop::Now,
    }
}

/// Asks the running job to stop at once without a key press (a failure that makes the rest of
/// its work pointless).
pub fn stop_now() {
    LEVEL.store(Stop::Now as u8, Ordering::SeqCst);
}

/// One Ctrl-C press: the handler's body.
fn press() {
    let (work_in_progress, second_press) = {
        let job = JOB.lock().unwrap_or_else(|p| p.into_inner());
        (job.work_in_progress, job.second_press)
    };
    let before = LEVEL
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |l| {
            Some((l + 1).min(Stop::Now as u8))
        })
        .unwrap_or(Stop::Now as u8);
    if before == Stop::No as u8 {
        eprintln!("\ninterrupt: finishing {work_in_progress} (Ctrl-C again to stop now)");
    } else if second_press == SecondPress::Exit {
        std::process::exit(EXIT_INTERRUPTED);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The presses, `stop_now` and a new job's `install` move the level as documented. One test,
    /// since the level is process-wide.
    #[test]
    fn presses_raise_the_level_and_a_new_job_clears_it() {
        install("the test's work", SecondPress::Signal).unwrap();
        assert_eq!(requested(), Stop::No);
        press();
        assert_eq!(requested(), Stop::FinishInProgress);
        press();
        assert_eq!(requested(), Stop::Now);
        press();
        assert_eq!(requested(), Stop::Now, "the level stops at Now");

        install("the next job's work", SecondPress::Signal).unwrap();
        assert_eq!(requested(), Stop::No, "a new job starts unasked");
        stop_now();
        assert_eq!(requested(), Stop::Now);
        install("the last job's work", SecondPress::Signal).unwrap();
        assert_eq!(requested(), Stop::No);
    }
}
