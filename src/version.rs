//! What build this is: the package version and the commit it was built from
//! (stamped by `build.rs`), so an answer can be pinned to the code that gave it.

/// The package version, e.g. `0.1.0`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The commit, 12 hex digits (or `unknown` when built outside a checkout
/// without `GAMEBOT_COMMIT`).
pub const COMMIT: &str = env!("GAMEBOT_COMMIT");

/// The response header that carries [`full`].
pub const HEADER: &str = "gamebot-version";

/// `VERSION+COMMIT` (semver build metadata), e.g. `0.1.0+4544d86a1b2c`.
pub fn full() -> &'static str {
    static FULL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    FULL.get_or_init(|| format!("{VERSION}+{COMMIT}"))
}
