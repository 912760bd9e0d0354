//! Stamps the binary with the commit it was built from, for `/healthz`, the
//! `gamebot-version` header and `gamebot_build_info`. `GAMEBOT_COMMIT` wins
//! (container builds have no `.git`); else `git rev-parse`; else "unknown".

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=GAMEBOT_COMMIT");
    // Rebuild when HEAD moves; only existing paths, or cargo reruns every time.
    for path in [".git/HEAD", ".git/refs/heads", ".git/packed-refs"] {
        if Path::new(path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    let commit = std::env::var("GAMEBOT_COMMIT")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or_else(git_commit)
        .unwrap_or_else(|| "unknown".to_string());
    let commit: String = commit
        .trim()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '-')
        .take(40)
        .collect();
    println!("cargo:rustc-env=GAMEBOT_COMMIT={commit}");
}

fn git_commit() -> Option<String> {
    let out = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|c| !c.is_empty())
}
