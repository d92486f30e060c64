//! The tests that measure wall-clock time: the clock as a user sees it (`clock`) and the clock
//! fields of both dialects (`clock_fields`). They are a binary of their own, apart from the
//! other tests (Cargo runs test binaries one at a time), and inside it each holds
//! [`one_at_a_time`] for its whole run, so no two of them share the CPU.

#[path = "../common/mod.rs"]
mod common;

mod clock;
mod clock_fields;

use std::sync::{Mutex, MutexGuard};

/// Held by each test of this binary for its whole run (see the module documentation).
static SERIAL: Mutex<()> = Mutex::new(());

/// Waits for the other tests of this binary to finish; a test that failed while holding the
/// lock does not stop the others.
pub fn one_at_a_time() -> MutexGuard<'static, ()> {
    SERIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
