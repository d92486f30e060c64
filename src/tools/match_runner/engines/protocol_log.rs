//! The protocol log (`--debug-log`): every line to and from every engine, stamped with the time
//! since the run started. `-` streams it to standard output.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A log shared by every engine of a run.
#[derive(Clone)]
pub struct ProtocolLog {
    file: Arc<Mutex<Box<dyn Write + Send>>>,
    start: Instant,
}

impl ProtocolLog {
    /// Creates (truncates) the log file, or writes to standard output for `-`.
    pub fn create(path: &std::path::Path) -> Result<ProtocolLog, String> {
        let file: Box<dyn Write + Send> = if path.as_os_str() == "-" {
            Box::new(crate::tools::stdout::writer())
        } else {
            Box::new(
                std::fs::File::create(path)
                    .map_err(|e| format!("cannot write debug log {}: {e}", path.display()))?,
            )
        };
        Ok(ProtocolLog {
            file: Arc::new(Mutex::new(file)),
            start: Instant::now(),
        })
    }

    /// One line, `arrow` `>` for sent and `<` for received.
    pub fn write(&self, engine: &str, arrow: &str, line: &str, at: Instant) {
        let t = at.saturating_duration_since(self.start).as_secs_f64();
        if let Ok(mut f) = self.file.lock() {
            // Flushed per line so that a log on standard output interleaves with the report.
            let _ = writeln!(f, "{t:10.4} {engine} {arrow} {line}").and_then(|()| f.flush());
        }
    }
}
