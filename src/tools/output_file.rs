//! Output files that are written whole or not at all: the text goes to a temporary file in the
//! destination's folder (so that the rename stays on one file system), which is renamed over the
//! destination only once everything is written and flushed. A failure or an interruption leaves
//! the destination as it was, and the temporary file is removed.

use std::io::Write;
use std::path::Path;

/// Mode of a new file before the umask, as `File::create` uses.
#[cfg(unix)]
const ORDINARY_FILE_MODE: u32 = 0o666;

/// Writes `bytes` to `path` through a temporary file and a rename; the error names the file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".cotuong-").suffix(".tmp");
    // An ordinary file's permissions (read-write as the umask allows), not the private ones of
    // a temporary file.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(ORDINARY_FILE_MODE));
    }
    let mut tmp = builder.tempfile_in(folder).map_err(|e| fail(&e))?;
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| fail(&e))?;
    tmp.persist(path).map_err(|e| fail(&e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_whole_files_and_leaves_nothing_on_failure() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("out.txt");
        write_atomically(&path, b"first").expect("written");
        write_atomically(&path, b"second").expect("replaced");
        assert_eq!(std::fs::read(&path).expect("readable"), b"second");
        // A destination that is a folder cannot be replaced: an error, and no stray file.
        let folder = dir.path().join("folder");
        std::fs::create_dir(&folder).expect("a folder");
        let err = write_atomically(&folder, b"x").unwrap_err();
        assert!(err.contains("cannot write"), "{err}");
        let mut names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("listable")
            .map(|e| e.expect("entry").file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["folder", "out.txt"]);
        let missing = dir.path().join("no/such/folder/out.txt");
        assert!(write_atomically(&missing, b"x").is_err());
    }
}
