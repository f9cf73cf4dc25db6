//! Records what `zermelo --version` reports beside the version: the commit the binary was built
//! from and the build profile, so that a result can be traced to the exact code that made it.

use std::path::PathBuf;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    println!("cargo:rerun-if-env-changed=ZERMELO_COMMIT");
    // A build outside a git checkout (a source archive) may say its commit in ZERMELO_COMMIT.
    let commit = std::env::var("ZERMELO_COMMIT")
        .ok()
        .filter(|c| !c.is_empty())
        .or_else(|| git(&["rev-parse", "--short=12", "HEAD"]))
        .unwrap_or_else(|| "unknown".to_string());
    // Rebuild when HEAD moves: HEAD itself, the branch it points to, and the packed refs (in a
    // worktree the branch lives in the common folder). Only files that exist are named: cargo
    // reruns a build script on every build for a path that does not.
    println!("cargo:rerun-if-changed=build.rs");
    if let (Some(dir), Some(common)) = (
        git(&["rev-parse", "--absolute-git-dir"]),
        git(&["rev-parse", "--path-format=absolute", "--git-common-dir"]),
    ) {
        let common = PathBuf::from(common);
        let mut watched = vec![PathBuf::from(dir).join("HEAD"), common.join("packed-refs")];
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watched.push(common.join(branch));
        }
        for path in watched.iter().filter(|p| p.exists()) {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    let profile = std::env::var("PROFILE").unwrap_or_else(|_| "unknown".to_string());
    println!("cargo:rustc-env=ZERMELO_COMMIT={commit}");
    println!("cargo:rustc-env=ZERMELO_PROFILE={profile}");
}
