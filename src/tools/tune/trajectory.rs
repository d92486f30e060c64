//! The parameter trajectory of a tuning run, a CSV file that is also the run's recovery file.
//!
//! ```text
//! # cotuong tune: <settings fingerprint>
//! iteration,result,RFP_MARGIN,FUTILITY_BASE,...
//! 1,1,80.431,119.874,...
//! ```
//!
//! One row per finished iteration, written whole and flushed: the iteration, the `+` engine's
//! wins minus losses in its game pair, and every parameter's estimate after the update. A run
//! started again with the same settings continues after the last row; a last line cut short by a
//! crash is dropped.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What the first line says before the fingerprint.
const SETTINGS_PREFIX: &str = "# cotuong tune: ";

/// One row: an iteration's result and the estimates after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Iteration, from 1.
    pub iteration: u64,
    /// The `+` engine's wins minus losses.
    pub result: f64,
    /// Every parameter's estimate after the update, in the header's order.
    pub values: Vec<f64>,
}

/// An open trajectory file, appended to row by row.
pub struct Trajectory {
    path: PathBuf,
    file: File,
    /// Every row so far (for the plot).
    pub rows: Vec<Row>,
}

fn header(names: &[&str]) -> String {
    format!("iteration,result,{}", names.join(","))
}

impl Trajectory {
    /// Opens `path`: creates it with the settings line and the header, or, when it exists, checks
    /// that it was written with the same `fingerprint` and `names` and reads its rows.
    pub fn open(path: &Path, fingerprint: &str, names: &[&str]) -> Result<Trajectory, String> {
        let fail = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
        let mut rows = Vec::new();
        if path.exists() {
            let text = std::fs::read_to_string(path).map_err(|e| fail(&e))?;
            let complete = match text.rfind('\n') {
                Some(end) => &text[..=end],
                None => "",
            };
            let mut lines = complete.lines();
            let settings = lines.next().unwrap_or("");
            if settings.strip_prefix(SETTINGS_PREFIX) != Some(fingerprint) {
                return Err(fail(&format!(
                    "written by a run with other settings ({}); remove it or choose another --out",
                    settings.trim_start_matches(SETTINGS_PREFIX)
                )));
            }
            if lines.next() != Some(header(names).as_str()) {
                return Err(fail(&"its header does not name the parameters of this run"));
            }
            for (n, line) in lines.enumerate() {
                rows.push(parse_row(line, names.len()).ok_or_else(|| {
                    fail(&format!("line {} is not a trajectory row: '{line}'", n + 3))
                })?);
            }
            if complete.len() < text.len() {
                // A row cut short by a crash: keep the file to its complete lines.
                let file = OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(|e| fail(&e))?;
                file.set_len(complete.len() as u64).map_err(|e| fail(&e))?;
            }
        } else {
            let mut file = File::create(path).map_err(|e| fail(&e))?;
            writeln!(file, "{SETTINGS_PREFIX}{fingerprint}")
                .and_then(|()| writeln!(file, "{}", header(names)))
                .and_then(|()| file.flush())
                .map_err(|e| fail(&e))?;
        }
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| fail(&e))?;
        Ok(Trajectory {
            path: path.to_path_buf(),
            file,
            rows,
        })
    }

    /// Appends `row` (one write of the whole line, then a flush).
    pub fn push(&mut self, row: Row) -> Result<(), String> {
        let values: Vec<String> = row.values.iter().map(|v| format!("{v:.3}")).collect();
        let line = format!("{},{},{}\n", row.iteration, row.result, values.join(","));
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("{}: {e}", self.path.display()))?;
        self.rows.push(row);
        Ok(())
    }
}

fn parse_row(line: &str, parameters: usize) -> Option<Row> {
    let mut fields = line.split(',');
    let iteration = fields.next()?.trim().parse().ok()?;
    let result = fields.next()?.trim().parse().ok()?;
    let values = fields
        .map(|f| f.trim().parse::<f64>().ok().filter(|v| v.is_finite()))
        .collect::<Option<Vec<f64>>>()?;
    (values.len() == parameters).then_some(Row {
        iteration,
        result,
        values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_survive_a_restart_and_a_cut_line_is_dropped() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("t.csv");
        let names = ["A", "B"];
        let mut t = Trajectory::open(&path, "fp", &names).expect("created");
        let row = |i: u64| Row {
            iteration: i,
            result: 1.0,
            values: vec![1.5, -2.25],
        };
        t.push(row(1)).expect("written");
        t.push(row(2)).expect("written");
        drop(t);
        // A crash in the middle of the third row.
        let mut f = OpenOptions::new().append(true).open(&path).expect("open");
        f.write_all(b"3,1,1.").expect("partial row");
        drop(f);
        let mut t = Trajectory::open(&path, "fp", &names).expect("resumed");
        assert_eq!(t.rows, vec![row(1), row(2)]);
        t.push(row(3)).expect("written");
        let again = Trajectory::open(&path, "fp", &names).expect("resumed");
        assert_eq!(again.rows.len(), 3);
        // Other settings or parameters are refused, and the file stays as it was.
        let before = std::fs::read(&path).expect("readable");
        let err = Trajectory::open(&path, "other", &names)
            .err()
            .expect("refused");
        assert!(err.contains("other settings"), "{err}");
        let err = Trajectory::open(&path, "fp", &["A"])
            .err()
            .expect("refused");
        assert!(err.contains("header"), "{err}");
        assert_eq!(std::fs::read(&path).expect("readable"), before);
    }

    #[test]
    fn a_damaged_row_is_an_error_with_its_line() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("t.csv");
        std::fs::write(
            &path,
            "# cotuong tune: fp\niteration,result,A\n1,0,5\n2,x,5\n",
        )
        .expect("written");
        let err = Trajectory::open(&path, "fp", &["A"])
            .err()
            .expect("refused");
        assert!(err.contains("line 4"), "{err}");
    }
}
