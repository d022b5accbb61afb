//! Progress bars for long command-line jobs (import, export, copies): drawn on
//! stderr when asked for, hidden otherwise (a pipe, a test, a server).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar of `total` steps; `what` is the template between the spinner and the
/// bar's counters, e.g. `"importing [{bar:40}] {pos}/{len} files"`.
pub fn bar(total: u64, visible: bool, what: &str) -> anyhow::Result<ProgressBar> {
    let target = if visible {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(total), target);
    bar.set_style(
        ProgressStyle::with_template(&format!("{{spinner}} {what}, {{per_sec}}, eta {{eta}}"))?
            .progress_chars("=> "),
    );
    Ok(bar)
}
