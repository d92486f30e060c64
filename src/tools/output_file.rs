//! Output files. A regular file, or a new one, is written whole or not at all: the text goes to a
//! temporary file in the destination's folder (so that the rename stays on one file system),
//! which is renamed over the destination only once everything is written and flushed, with the
//! destination's permissions. A failure or an interruption leaves the destination as it was, and
//! the temporary file is removed. A symbolic link is followed (the link stays, the file it names
//! gets the text); a FIFO, a device or any other file that is not regular is written to
//! directly, never replaced. `-` is standard output ([`write_output`]).

use std::io::Write;
use std::path::{Path, PathBuf};

/// Mode of a new file before the umask, as `File::create` uses.
#[cfg(unix)]
const ORDINARY_FILE_MODE: u32 = 0o666;

/// Links followed before giving up, as the kernel's limit.
const MAX_LINKS: usize = 40;

/// Writes `bytes` to `path`, or to standard output when `path` is `-`; the error names `path`.
pub fn write_output(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if path == Path::new("-") {
        let mut out = super::stdout::writer();
        return out
            .write_all(bytes)
            .and_then(|()| out.flush())
            .map_err(|e| super::stdout::describe(&e));
    }
    write_atomically(path, bytes)
}

/// Writes `bytes` to `path` (see the module's documentation); the error names `path`.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot write {}: {}", path.display(), plain(&e));
    let target = follow_links(path).map_err(fail)?;
    let existing = std::fs::metadata(&target).ok();
    if let Some(meta) = &existing {
        if !meta.is_file() && !meta.is_dir() {
            return write_in_place(&target, bytes).map_err(fail);
        }
    }
    let folder = match target.parent() {
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
    let mut tmp = builder.tempfile_in(folder).map_err(fail)?;
    if let Some(meta) = &existing {
        keep_owner_and_permissions(tmp.as_file(), meta).map_err(fail)?;
    }
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(fail)?;
    tmp.persist(&target).map_err(|e| fail(e.error))?;
    Ok(())
}

/// The file that `path` names once its symbolic links are followed, whether it exists or not
/// (a link to a file not yet there names where the file is to be created).
fn follow_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let next = std::fs::read_link(&current)?;
                // A relative link is relative to the folder that holds it.
                current = match current.parent() {
                    Some(folder) if next.is_relative() => folder.join(next),
                    _ => next,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// Writes to a file that must not be replaced (a FIFO, a device): opened and written in place.
fn write_in_place(target: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(target)?;
    file.write_all(bytes)?;
    file.flush()
}

/// Gives the replacement the replaced file's permissions, and its owner where allowed (only a
/// privileged user may give a file away, so a refusal there is not an error).
fn keep_owner_and_permissions(
    file: &std::fs::File,
    old: &std::fs::Metadata,
) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid()));
    }
    file.set_permissions(old.permissions())
}

/// The error without the temporary file's name that `tempfile` appends (" at path ..."): the
/// user asked for the destination, and the message names it.
fn plain(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.split_once(" at path ") {
        Some((reason, _)) => reason.to_string(),
        None => text,
    }
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

    #[cfg(unix)]
    #[test]
    fn follows_chains_of_links_and_refuses_loops() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let first = dir.path().join("first");
        std::os::unix::fs::symlink("second", &first).expect("a link");
        std::os::unix::fs::symlink("sub/third", dir.path().join("second")).expect("a link");
        std::fs::create_dir(dir.path().join("sub")).expect("a folder");
        write_atomically(&first, b"text").expect("written through both links");
        assert_eq!(
            std::fs::read(dir.path().join("sub/third")).expect("the file"),
            b"text"
        );
        assert!(std::fs::symlink_metadata(dir.path().join("second"))
            .expect("the second link")
            .file_type()
            .is_symlink());
        let looped = dir.path().join("loop");
        std::os::unix::fs::symlink("loop", &looped).expect("a link");
        let err = write_atomically(&looped, b"x").unwrap_err();
        assert!(
            err.starts_with(&format!("cannot write {}: ", looped.display())),
            "{err}"
        );
        assert!(err.contains("symbolic links"), "{err}");
    }
}
