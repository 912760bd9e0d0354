//! Configuration: embedded defaults, an optional TOML file, `GAMEBOT_*`
//! environment variables and command-line flags, merged in that order (each
//! later source overrides the earlier ones), then validated once.

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use serde::Deserialize;
use toml::{Table, Value};

/// The defaults, documented setting by setting. The binary embeds the very file
/// users read, so documentation and behaviour cannot drift apart.
pub const DEFAULT_TOML: &str = include_str!("../config/default.toml");

/// Prefix of the environment variables that override settings.
pub const ENV_PREFIX: &str = "GAMEBOT_";

/// Names the environment variable that points at a config file.
pub const ENV_CONFIG_FILE: &str = "GAMEBOT_CONFIG";

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub listen: SocketAddr,
    pub workers: usize,
    pub max_queued: usize,
    pub default_budget_ms: u64,
    pub max_budget_ms: u64,
    pub body_limit_bytes: usize,
    pub cache_mib: usize,
    pub cache_url: String,
    pub cache_ttl_s: u64,
    pub cache_timeout_ms: u64,
    pub search_memory_mib: usize,
    pub log_format: LogFormat,
    pub log_level: String,
    pub drain_timeout_ms: u64,
    pub header_read_timeout_ms: u64,
    pub body_read_timeout_ms: u64,
    pub idle_timeout_ms: u64,
    pub max_connections: usize,
    pub cors_origins: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Pretty,
    Json,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error("invalid setting `{setting}`: {message}")]
    Invalid { setting: String, message: String },
    #[error("cannot read config file {path}: {message}")]
    File { path: String, message: String },
}

impl ConfigError {
    fn invalid(setting: &str, message: impl Into<String>) -> Self {
        ConfigError::Invalid {
            setting: setting.to_string(),
            message: message.into(),
        }
    }
}

impl Config {
    /// The embedded defaults alone.
    pub fn defaults() -> Config {
        Config::load(None, std::iter::empty(), Table::new()).expect("embedded defaults are valid")
    }

    /// Merges defaults < file < environment < flags and validates the result.
    /// `env` is passed in (rather than read here) so tests need not touch the
    /// process environment; `flags` holds only the flags that were given.
    pub fn load(
        file: Option<&Path>,
        env: impl IntoIterator<Item = (String, String)>,
        flags: Table,
    ) -> Result<Config, ConfigError> {
        let mut merged: Table = DEFAULT_TOML.parse().expect("embedded defaults parse");
        let known: Vec<String> = merged.keys().cloned().collect();

        if let Some(path) = file {
            let text = std::fs::read_to_string(path).map_err(|e| ConfigError::File {
                path: path.display().to_string(),
                message: e.to_string(),
            })?;
            let table: Table = text
                .parse()
                .map_err(|e: toml::de::Error| ConfigError::File {
                    path: path.display().to_string(),
                    message: e.to_string(),
                })?;
            overlay(&mut merged, table, &known, "")?;
        }

        let mut from_env = Table::new();
        for (name, raw) in env {
            let Some(key) = name.strip_prefix(ENV_PREFIX) else {
                continue;
            };
            if name == ENV_CONFIG_FILE {
                continue;
            }
            let key = key.to_ascii_lowercase();
            // Unknown GAMEBOT_* names are skipped, not refused: orchestrators
            // inject their own (Kubernetes adds GAMEBOT_PORT, GAMEBOT_SERVICE_HOST
            // for a Service named gamebot). `unknown_env` lists them for a warning.
            let Some(default) = merged.get(&key) else {
                continue;
            };
            from_env.insert(key.clone(), typed_like(default, &raw, &name)?);
        }
        overlay(&mut merged, from_env, &known, ENV_PREFIX)?;
        overlay(&mut merged, flags, &known, "--")?;

        let config = Config::deserialize(Value::Table(merged)).map_err(|e| {
            // serde names the field in its message; keep it as the setting.
            let msg = e.to_string();
            let setting = known
                .iter()
                .find(|k| msg.contains(&format!("`{k}`")))
                .cloned()
                .unwrap_or_else(|| "config".to_string());
            ConfigError::invalid(&setting, msg)
        })?;
        config.validate()?;
        Ok(config)
    }

    /// The `GAMEBOT_*` variables among `env` that name no setting (logged as a
    /// warning at start-up, since they are most likely typos).
    pub fn unknown_env(env: impl IntoIterator<Item = (String, String)>) -> Vec<String> {
        let defaults: Table = DEFAULT_TOML.parse().expect("embedded defaults parse");
        env.into_iter()
            .map(|(name, _)| name)
            .filter(|name| {
                name.strip_prefix(ENV_PREFIX).is_some_and(|key| {
                    name != ENV_CONFIG_FILE && !defaults.contains_key(&key.to_ascii_lowercase())
                })
            })
            .collect()
    }

    fn validate(&self) -> Result<(), ConfigError> {
        if self.workers > 1024 {
            return Err(ConfigError::invalid(
                "workers",
                "must be 0 (one per core) to 1024",
            ));
        }
        if self.max_queued > 100_000 {
            return Err(ConfigError::invalid("max_queued", "must be at most 100000"));
        }
        if !(1..=600_000).contains(&self.max_budget_ms) {
            return Err(ConfigError::invalid("max_budget_ms", "must be 1 to 600000"));
        }
        if self.default_budget_ms == 0 || self.default_budget_ms > self.max_budget_ms {
            return Err(ConfigError::invalid(
                "default_budget_ms",
                "must be at least 1 and at most max_budget_ms",
            ));
        }
        if !(1024..=64 << 20).contains(&self.body_limit_bytes) {
            return Err(ConfigError::invalid(
                "body_limit_bytes",
                "must be 1024 to 67108864",
            ));
        }
        if !(1..=65_536).contains(&self.cache_mib) {
            return Err(ConfigError::invalid("cache_mib", "must be 1 to 65536"));
        }
        if !self.cache_url.is_empty() {
            crate::cache::remote::check_url(&self.cache_url)
                .map_err(|e| ConfigError::invalid("cache_url", e.to_string()))?;
        }
        if !(1..=30 * 86_400).contains(&self.cache_ttl_s) {
            return Err(ConfigError::invalid("cache_ttl_s", "must be 1 to 2592000"));
        }
        if !(1..=10_000).contains(&self.cache_timeout_ms) {
            return Err(ConfigError::invalid(
                "cache_timeout_ms",
                "must be 1 to 10000",
            ));
        }
        if !(16..=1 << 20).contains(&self.search_memory_mib) {
            return Err(ConfigError::invalid(
                "search_memory_mib",
                "must be 16 to 1048576",
            ));
        }
        for (setting, ms) in [
            ("header_read_timeout_ms", self.header_read_timeout_ms),
            ("body_read_timeout_ms", self.body_read_timeout_ms),
            ("idle_timeout_ms", self.idle_timeout_ms),
        ] {
            if !(1..=3_600_000).contains(&ms) {
                return Err(ConfigError::invalid(setting, "must be 1 to 3600000"));
            }
        }
        if !(1..=1_000_000).contains(&self.max_connections) {
            return Err(ConfigError::invalid(
                "max_connections",
                "must be 1 to 1000000",
            ));
        }
        for origin in &self.cors_origins {
            let ok = origin == "*"
                || ((origin.starts_with("http://") || origin.starts_with("https://"))
                    && axum::http::HeaderValue::from_str(origin).is_ok()
                    && !origin.ends_with('/'));
            if !ok {
                return Err(ConfigError::invalid(
                    "cors_origins",
                    format!("`{origin}` is not \"*\" or an origin such as https://example.com"),
                ));
            }
        }
        if tracing_subscriber::EnvFilter::try_new(&self.log_level).is_err() {
            return Err(ConfigError::invalid(
                "log_level",
                "not a level or tracing filter directive",
            ));
        }
        if self.drain_timeout_ms > 3_600_000 {
            return Err(ConfigError::invalid(
                "drain_timeout_ms",
                "must be at most 3600000",
            ));
        }
        Ok(())
    }

    /// Search worker count with 0 resolved to the number of cores.
    pub fn worker_count(&self) -> usize {
        if self.workers == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            self.workers
        }
    }

    pub fn drain_timeout(&self) -> Duration {
        Duration::from_millis(self.drain_timeout_ms)
    }

    pub fn header_read_timeout(&self) -> Duration {
        Duration::from_millis(self.header_read_timeout_ms)
    }

    pub fn body_read_timeout(&self) -> Duration {
        Duration::from_millis(self.body_read_timeout_ms)
    }

    pub fn idle_timeout(&self) -> Duration {
        Duration::from_millis(self.idle_timeout_ms)
    }

    /// The search-table budget in bytes.
    pub fn search_memory_bytes(&self) -> usize {
        self.search_memory_mib << 20
    }
}

/// Copies `from` over `into`, rejecting names that are not settings.
fn overlay(
    into: &mut Table,
    from: Table,
    known: &[String],
    prefix: &str,
) -> Result<(), ConfigError> {
    for (key, value) in from {
        if !known.contains(&key) {
            let shown = if prefix == ENV_PREFIX {
                format!("{prefix}{}", key.to_ascii_uppercase())
            } else {
                format!("{prefix}{key}")
            };
            return Err(ConfigError::invalid(&shown, "no such setting"));
        }
        into.insert(key, value);
    }
    Ok(())
}

/// Environment values are strings; give them the type of the default so
/// `GAMEBOT_WORKERS=4` reaches serde as an integer.
fn typed_like(default: &Value, raw: &str, name: &str) -> Result<Value, ConfigError> {
    match default {
        Value::Integer(_) => raw
            .trim()
            .parse::<i64>()
            .map(Value::Integer)
            .map_err(|_| ConfigError::invalid(name, format!("`{raw}` is not a whole number"))),
        Value::Boolean(_) => raw
            .trim()
            .parse::<bool>()
            .map(Value::Boolean)
            .map_err(|_| ConfigError::invalid(name, format!("`{raw}` is not true or false"))),
        // Lists are comma-separated; empty means an empty list.
        Value::Array(_) => Ok(Value::Array(
            raw.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| Value::String(s.to_string()))
                .collect(),
        )),
        _ => Ok(Value::String(raw.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn defaults_match_the_documented_file() {
        let c = Config::defaults();
        assert_eq!(c.listen, "127.0.0.1:8080".parse().unwrap());
        assert_eq!(c.workers, 0);
        assert!(c.worker_count() >= 1);
        assert_eq!(c.log_format, LogFormat::Pretty);
        assert_eq!(c.drain_timeout(), Duration::from_secs(10));
    }

    #[test]
    fn flags_beat_env_beat_file_beat_defaults() {
        let dir = std::env::temp_dir().join(format!("gamebot-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("c.toml");
        std::fs::write(
            &file,
            "listen = \"127.0.0.1:1\"\nworkers = 3\ncache_mib = 5\n",
        )
        .unwrap();
        let mut flags = Table::new();
        flags.insert("listen".into(), Value::String("127.0.0.1:3".into()));
        let c = Config::load(
            Some(&file),
            env(&[
                ("GAMEBOT_LISTEN", "127.0.0.1:2"),
                ("GAMEBOT_WORKERS", "7"),
                ("PATH", "/bin"),
            ]),
            flags,
        )
        .unwrap();
        assert_eq!(c.listen.port(), 3, "flag wins");
        assert_eq!(c.workers, 7, "env beats file");
        assert_eq!(c.cache_mib, 5, "file beats default");
        assert_eq!(c.max_queued, Config::defaults().max_queued, "default stays");
    }

    #[test]
    fn invalid_settings_are_named() {
        let cases = [
            ("GAMEBOT_LISTEN", "nowhere", "listen"),
            ("GAMEBOT_WORKERS", "many", "GAMEBOT_WORKERS"),
            ("GAMEBOT_LOG_FORMAT", "xml", "log_format"),
            ("GAMEBOT_CACHE_MIB", "0", "cache_mib"),
            ("GAMEBOT_DEFAULT_BUDGET_MS", "999999", "default_budget_ms"),
            ("GAMEBOT_LOG_LEVEL", "info,=[", "log_level"),
            (
                "GAMEBOT_HEADER_READ_TIMEOUT_MS",
                "0",
                "header_read_timeout_ms",
            ),
            ("GAMEBOT_MAX_CONNECTIONS", "0", "max_connections"),
            ("GAMEBOT_SEARCH_MEMORY_MIB", "1", "search_memory_mib"),
            ("GAMEBOT_CORS_ORIGINS", "example.com", "cors_origins"),
        ];
        for (var, value, setting) in cases {
            let err = Config::load(None, env(&[(var, value)]), Table::new()).unwrap_err();
            match &err {
                ConfigError::Invalid { setting: s, .. } => assert_eq!(s, setting, "{err}"),
                other => panic!("unexpected {other}"),
            }
        }
    }

    #[test]
    fn unknown_env_vars_are_listed_not_fatal() {
        let vars = env(&[
            ("GAMEBOT_PORT", "tcp://10.0.0.1:80"),
            ("GAMEBOT_WORKERS", "2"),
            ("GAMEBOT_CONFIG", "x"),
        ]);
        let c = Config::load(None, vars.clone(), Table::new()).unwrap();
        assert_eq!(c.workers, 2);
        assert_eq!(Config::unknown_env(vars), vec!["GAMEBOT_PORT".to_string()]);
    }

    #[test]
    fn unknown_file_keys_and_missing_files_fail() {
        let dir = std::env::temp_dir().join(format!("gamebot-config-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("bad.toml");
        std::fs::write(&file, "wrokers = 3\n").unwrap();
        let err = Config::load(Some(&file), env(&[]), Table::new()).unwrap_err();
        assert!(err.to_string().contains("wrokers"), "{err}");
        let err =
            Config::load(Some(&dir.join("missing.toml")), env(&[]), Table::new()).unwrap_err();
        assert!(matches!(err, ConfigError::File { .. }));
    }

    #[test]
    fn cors_origins_from_the_environment_are_a_comma_separated_list() {
        let c = Config::load(
            None,
            env(&[(
                "GAMEBOT_CORS_ORIGINS",
                "https://a.example, http://localhost:3000",
            )]),
            Table::new(),
        )
        .unwrap();
        assert_eq!(
            c.cors_origins,
            ["https://a.example", "http://localhost:3000"]
        );
        assert!(Config::defaults().cors_origins.is_empty());
    }
}
