//! Names the commit in `cotuong --version` (`COTUONG_VERSION`, and `COTUONG_COMMIT` alone when
//! known). A build from a tarball, or without git, gets the crate's version alone.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

fn main() {
    let version = env!("CARGO_PKG_VERSION");
    // Only this repository's own history: a tarball unpacked inside another repository must
    // not take that one's commit.
    let in_git = std::path::Path::new(".git").exists();
    match in_git
        .then(|| git(&["rev-parse", "--short", "HEAD"]))
        .flatten()
    {
        Some(commit) => {
            println!("cargo:rustc-env=COTUONG_COMMIT={commit}");
            println!("cargo:rustc-env=COTUONG_VERSION={version} (commit {commit})");
        }
        None => println!("cargo:rustc-env=COTUONG_VERSION={version}"),
    }
    // A new commit changes no source file, so watch what HEAD points to; without these lines
    // Cargo would rerun the script on every change of the package instead. A path that does
    // not exist would rerun it on every build, so only existing ones are named.
    if !in_git {
        return;
    }
    let branch = git(&["symbolic-ref", "-q", "HEAD"]);
    for name in ["HEAD", "packed-refs"].into_iter().chain(branch.as_deref()) {
        if let Some(path) = git(&["rev-parse", "--git-path", name]) {
            if std::path::Path::new(&path).exists() {
                println!("cargo:rerun-if-changed={path}");
            }
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
