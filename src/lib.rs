//! gamebot: game-bot decisions over HTTP.
//!
//! Engines (pure, no HTTP) live in their own modules; `http` is the thin web
//! layer and `protocol` the text-protocol front ends (piskvork, mjai); `pool`,
//! `stop`, `memory`, `cache`, `config` and `rng` are the shared machinery.

pub mod cache;
pub mod config;
pub mod doudizhu;
pub mod gomoku;
pub mod http;
pub mod mahjong;
pub mod memory;
pub mod pool;
pub mod protocol;
pub mod rng;
pub mod server;
pub mod stop;
pub mod telemetry;
pub mod version;
