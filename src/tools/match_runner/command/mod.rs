//! The `cotuong match` command: its arguments (`args`), the checks across them (`validate`), the
//! plan built from them (`plan`), and running it.

mod args;
mod key_values;
mod plan;
mod validate;

use super::scheduling::{merge_slices, run_tournament};

pub use args::MatchArgs;

/// Runs `cotuong match`; the error is a message for the user.
pub fn run(args: &MatchArgs) -> Result<(), String> {
    if !args.options.merge.is_empty() {
        return crate::tools::stdout::print(&merge_slices(&args.options.merge)?);
    }
    let plan = plan::plan(&args.options, &args.engines)?;
    if args.options.check {
        return Ok(());
    }
    let report = run_tournament(plan)?;
    crate::tools::stdout::print(&report.to_string())
}
