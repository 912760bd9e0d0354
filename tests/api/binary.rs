//! The real binary: configuration errors, healthcheck, SIGTERM.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{BIN, free_port};

#[test]
fn invalid_config_exits_nonzero_naming_the_setting() {
    let out = Command::new(BIN)
        .env("GAMEBOT_CACHE_MIB", "0")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cache_mib"));
    let out = Command::new(BIN)
        .args(["serve", "--listen", "not-an-address"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`listen`"));
    let out = Command::new(BIN)
        .args(["--config", "/nonexistent/gamebot.toml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/gamebot.toml"));
}

#[test]
fn healthcheck_fails_without_a_server() {
    let port = free_port();
    let out = Command::new(BIN)
        .args(["healthcheck", "--listen", &format!("127.0.0.1:{port}")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn serves_answers_healthcheck_and_exits_zero_on_sigterm() {
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let mut child = Command::new(BIN)
        .args(["--listen", &listen, "--log-format", "json"])
        .env("GAMEBOT_CACHE_MIB", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        let ok = Command::new(BIN)
            .args(["healthcheck", "--listen", &listen])
            .output()
            .unwrap()
            .status
            .success();
        if ok {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "server never became healthy"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let waited = Instant::now();
    let exit = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            waited.elapsed() < Duration::from_secs(10),
            "no exit after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(exit.code(), Some(0));
    let mut logs = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut logs).unwrap();
    assert!(
        logs.lines()
            .any(|l| l.contains("\"message\":\"request\"") && l.contains("/healthz")),
        "{logs}"
    );
    assert!(logs.contains("draining"), "{logs}");
}

#[test]
fn openapi_subcommand_prints_the_document() {
    let out = Command::new(BIN).arg("openapi").output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        gamebot::http::docs::OPENAPI_YAML.as_str()
    );
}
