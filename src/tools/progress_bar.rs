//! The progress bars of the long-running tools: on standard error, drawn only when it is a
//! terminal (indicatif draws nothing otherwise), hidden on request.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar of `len` steps drawn with `template` (indicatif's template syntax), hidden if `quiet`.
pub fn progress_bar(len: u64, quiet: bool, template: &str) -> ProgressBar {
    let target = if quiet {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    };
    let bar = ProgressBar::with_draw_target(Some(len), target);
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}
