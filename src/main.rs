//! The `gamebot` command: `serve` (default), `healthcheck`, `openapi`, `mjai`.

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use gamebot::config::{Config, ENV_CONFIG_FILE};
use gamebot::http::{self, AppState};
use toml::{Table, Value};

#[derive(Parser)]
#[command(
    version,
    about = "Game-bot decisions over HTTP: Dou Dizhu, mahjong, gomoku"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// TOML file overriding the embedded defaults (see config/default.toml).
    #[arg(long, global = true, value_name = "FILE", env = ENV_CONFIG_FILE)]
    config: Option<PathBuf>,
    /// Address to listen on [setting: listen].
    #[arg(long, global = true, value_name = "ADDR")]
    listen: Option<String>,
    /// Search workers, 0 = one per core [setting: workers].
    #[arg(long, global = true, value_name = "N")]
    workers: Option<i64>,
    /// Log format, pretty or json [setting: log_format].
    #[arg(long, global = true, value_name = "FORMAT")]
    log_format: Option<String>,
    /// Log level or filter directive [setting: log_level].
    #[arg(long, global = true, value_name = "FILTER")]
    log_level: Option<String>,
}

#[derive(Subcommand, Clone)]
enum Command {
    /// Serve HTTP (the default).
    Serve,
    /// Exit 0 when the local server answers GET /healthz with 200.
    Healthcheck,
    /// Print the OpenAPI document (YAML) to stdout.
    Openapi,
    /// Play one Riichi seat over the mjai protocol on stdin/stdout: one JSON array of
    /// events per input line, one action per output line.
    Mjai {
        /// The seat, 0-3.
        #[arg(value_parser = clap::value_parser!(u8).range(0..4))]
        player_id: u8,
        /// balanced (the default), efficient or classic.
        #[arg(long, default_value = "balanced")]
        strategy: String,
    },
}

impl Cli {
    fn flag_overrides(&self) -> Table {
        let mut t = Table::new();
        if let Some(v) = &self.listen {
            t.insert("listen".into(), Value::String(v.clone()));
        }
        if let Some(v) = self.workers {
            t.insert("workers".into(), Value::Integer(v));
        }
        if let Some(v) = &self.log_format {
            t.insert("log_format".into(), Value::String(v.clone()));
        }
        if let Some(v) = &self.log_level {
            t.insert("log_level".into(), Value::String(v.clone()));
        }
        t
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = cli.command.clone().unwrap_or(Command::Serve);
    match command {
        Command::Openapi => {
            print!("{}", gamebot::http::docs::OPENAPI_YAML.as_str());
            return ExitCode::SUCCESS;
        }
        Command::Mjai {
            player_id,
            ref strategy,
        } => return mjai(player_id, strategy),
        _ => {}
    }
    let config = match Config::load(
        cli.config.as_deref(),
        std::env::vars(),
        cli.flag_overrides(),
    ) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("gamebot: {e}");
            return ExitCode::from(2);
        }
    };
    match command {
        Command::Healthcheck => healthcheck(config.listen),
        _ => serve(config),
    }
}

fn serve(config: Config) -> ExitCode {
    gamebot::telemetry::init(&config);
    for name in Config::unknown_env(std::env::vars()) {
        tracing::warn!(variable = %name, "environment variable names no setting; ignored");
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("gamebot: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::bind(config.listen).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!(
                    "gamebot: cannot listen on {} (setting `listen`): {e}",
                    config.listen
                );
                return ExitCode::FAILURE;
            }
        };
        let state = AppState::new(config);
        let open_files = gamebot::server::raise_open_file_limit();
        tracing::info!(
            listen = %state.config.listen,
            workers = state.pool.stats().workers,
            cache_mib = state.config.cache_mib,
            search_memory_mib = state.config.search_memory_mib,
            max_connections = state.config.max_connections,
            open_file_limit = open_files,
            version = gamebot::version::full(),
            "gamebot serving"
        );
        // Each connection is a descriptor; leave room for the rest.
        if let Some(limit) = open_files
            && (state.config.max_connections as u64).saturating_add(64) > limit
        {
            tracing::warn!(
                max_connections = state.config.max_connections,
                open_file_limit = limit,
                "max_connections is above what the open-file limit allows; lower it or raise the limit"
            );
        }
        let router = http::app(state.clone());
        match gamebot::server::serve(listener, router, &state, gamebot::server::shutdown_signal())
            .await
        {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                tracing::error!(error = %e, "server failed");
                ExitCode::FAILURE
            }
        }
    })
}

fn mjai(player_id: u8, strategy: &str) -> ExitCode {
    let Some(strategy) = gamebot::mahjong::Strategy::from_name(strategy) else {
        eprintln!("gamebot: unknown strategy `{strategy}` (balanced, efficient, classic)");
        return ExitCode::from(2);
    };
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    match gamebot::protocol::mjai::run(player_id, strategy, stdin, stdout) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gamebot: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A dependency-free HTTP/1.1 GET, so the runtime image needs no curl.
fn healthcheck(listen: SocketAddr) -> ExitCode {
    let ip = match listen.ip() {
        IpAddr::V4(v4) if v4.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(v6) if v6.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    let addr = SocketAddr::new(ip, listen.port());
    let check = || -> std::io::Result<bool> {
        let timeout = Duration::from_secs(2);
        let mut stream = TcpStream::connect_timeout(&addr, timeout)?;
        stream.set_read_timeout(Some(timeout))?;
        stream.set_write_timeout(Some(timeout))?;
        write!(
            stream,
            "GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        )?;
        let mut head = [0u8; 12];
        stream.read_exact(&mut head)?;
        Ok(head.starts_with(b"HTTP/1.1 200"))
    };
    match check() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!("gamebot: {addr} answered /healthz with an error");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("gamebot: no answer from {addr}: {e}");
            ExitCode::FAILURE
        }
    }
}
