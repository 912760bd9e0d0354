//! The shared cache in Redis (`cache_url`) with real servers: two gamebot
//! processes on one Redis, Redis stopped in the middle of a run, frozen or
//! full, foreign and damaged values.
//!
//! Needs `redis-server` on PATH (Debian's `redis-server` package; `.ci/run`
//! installs it). Without it these tests say so and pass, unless
//! `GAMEBOT_REQUIRE_REDIS` is set, as `.ci/run` sets it: then they fail.

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::*;

/// A private Redis server on a free port, killed when dropped.
struct Redis {
    child: Child,
    port: u16,
}

impl Redis {
    /// `None` when there is no `redis-server` (and none is required).
    async fn start() -> Option<Redis> {
        let have = Command::new("redis-server")
            .arg("--version")
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !have {
            assert!(
                std::env::var_os("GAMEBOT_REQUIRE_REDIS").is_none(),
                "GAMEBOT_REQUIRE_REDIS is set but redis-server is not on PATH"
            );
            eprintln!("shared_cache: no redis-server on PATH; skipped");
            return None;
        }
        Some(Redis::start_on(free_port()).await)
    }

    async fn start_on(port: u16) -> Redis {
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .args(["--maxmemory", "64mb", "--maxmemory-policy", "allkeys-lru"])
            .stdout(Stdio::null())
            .spawn()
            .expect("start redis-server");
        let redis = Redis { child, port };
        let started = Instant::now();
        while redis.command(&[b"PING"]).await.is_none() {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "redis did not start"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        redis
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// One command in RESP; the raw reply, or `None` without a server.
    async fn command(&self, args: &[&[u8]]) -> Option<Vec<u8>> {
        let addr: SocketAddr = format!("127.0.0.1:{}", self.port).parse().unwrap();
        let mut stream = tokio::net::TcpStream::connect(addr).await.ok()?;
        let mut out = format!("*{}\r\n", args.len()).into_bytes();
        for a in args {
            out.extend_from_slice(format!("${}\r\n", a.len()).as_bytes());
            out.extend_from_slice(a);
            out.extend_from_slice(b"\r\n");
        }
        stream.write_all(&out).await.ok()?;
        let mut reply = vec![0u8; 1 << 16];
        let n = tokio::time::timeout(Duration::from_secs(2), stream.read(&mut reply))
            .await
            .ok()?
            .ok()?;
        reply.truncate(n);
        Some(reply)
    }

    /// Every key gamebot wrote.
    async fn keys(&self) -> Vec<Vec<u8>> {
        let reply = self.command(&[b"KEYS", b"gb1:*"]).await.unwrap();
        // *N\r\n then $len\r\n<key>\r\n per key (keys are binary).
        let mut keys = Vec::new();
        let mut at = reply.iter().position(|&b| b == b'\n').unwrap() + 1;
        while at < reply.len() {
            let line_end = at + reply[at..].iter().position(|&b| b == b'\n').unwrap();
            let len: usize = std::str::from_utf8(&reply[at + 1..line_end - 1])
                .unwrap()
                .parse()
                .unwrap();
            keys.push(reply[line_end + 1..line_end + 1 + len].to_vec());
            at = line_end + 1 + len + 2;
        }
        keys
    }

    async fn get(&self, key: &[u8]) -> Vec<u8> {
        let reply = self.command(&[b"GET", key]).await.unwrap();
        let line_end = reply.iter().position(|&b| b == b'\n').unwrap();
        reply[line_end + 1..reply.len() - 2].to_vec()
    }

    async fn set(&self, key: &[u8], value: &[u8]) {
        let reply = self.command(&[b"SET", key, value]).await.unwrap();
        assert_eq!(reply, b"+OK\r\n");
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A gamebot process using the Redis at `url`, killed when dropped.
struct Gamebot {
    child: Child,
    addr: SocketAddr,
}

impl Gamebot {
    async fn start(url: &str) -> Gamebot {
        let addr: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
        let child = Command::new(BIN)
            .args(["serve", "--listen", &addr.to_string()])
            .env("GAMEBOT_CACHE_URL", url)
            .env("GAMEBOT_CACHE_TIMEOUT_MS", "50")
            .env("GAMEBOT_CACHE_MIB", "4")
            .env("GAMEBOT_WORKERS", "2")
            .env("GAMEBOT_LOG_LEVEL", "warn")
            .stdout(Stdio::null())
            .spawn()
            .expect("start gamebot");
        let started = Instant::now();
        loop {
            if tokio::net::TcpStream::connect(addr).await.is_ok() {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "gamebot did not start"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        Gamebot { child, addr }
    }

    async fn solve(&self, body: &Value) -> Value {
        let r = http(
            self.addr,
            "POST",
            "/doudizhu/endgame",
            Some(&body.to_string()),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text());
        r.json()
    }

    /// The value of one of the `gamebot_cache_l2_*` counters.
    async fn counter(&self, name: &str) -> u64 {
        let r = http(self.addr, "GET", "/metrics", None).await;
        let text = r.text();
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("gamebot_cache_l2_{name}_total ")))
            .unwrap_or_else(|| panic!("no {name} in {text}"));
        line.rsplit(' ').next().unwrap().parse().unwrap()
    }

    async fn wait_for_writes(&self, n: u64) {
        let started = Instant::now();
        while self.counter("writes").await < n {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "no write reached Redis"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

impl Drop for Gamebot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A three-seat endgame that takes a moment to solve.
fn puzzle(landlord: &str, down: &str, up: &str) -> Value {
    json!({"hands": {"landlord": landlord, "landlord_down": down, "landlord_up": up},
           "to_move": "landlord", "budget_ms": 10000})
}

fn same_answer(a: &Value, b: &Value) {
    for field in ["result", "best_move", "winning_moves", "pv", "complete"] {
        assert_eq!(a[field], b[field], "{field}: {a} vs {b}");
    }
}

#[tokio::test]
async fn a_second_process_answers_what_the_first_solved() {
    let Some(redis) = Redis::start().await else {
        return;
    };
    let (a, b) = (
        Gamebot::start(&redis.url()).await,
        Gamebot::start(&redis.url()).await,
    );
    let p = puzzle("3456789TJ", "44QQKKA", "2B8");
    let first = a.solve(&p).await;
    assert_eq!(first["cached"], false, "{first}");
    assert_eq!(first["complete"], true, "{first}");
    a.wait_for_writes(1).await;
    let second = b.solve(&p).await;
    assert_eq!(second["cached"], true, "{second}");
    assert_eq!(second["nodes"], 0, "{second}");
    same_answer(&first, &second);
    assert_eq!(b.counter("hits").await, 1);
    // Other positions are still solved, not mistaken for this one.
    let other = b.solve(&puzzle("3456789TJ", "44QQKKA", "2R8")).await;
    assert_eq!(other["cached"], false, "{other}");
}

#[tokio::test]
async fn foreign_and_damaged_values_are_ignored() {
    let Some(redis) = Redis::start().await else {
        return;
    };
    let writer = Gamebot::start(&redis.url()).await;
    let puzzles = [
        puzzle("3456789TJ", "44QQKKA", "2B8"),
        puzzle("55667788", "3KKK4", "9TJQA"),
        puzzle("TJQKA22", "3334", "BR56"),
    ];
    let mut truth = Vec::new();
    for p in &puzzles {
        truth.push(writer.solve(p).await);
    }
    writer.wait_for_writes(3).await;
    let keys = redis.keys().await;
    assert_eq!(keys.len(), 3, "one entry per position");
    let genuine: Vec<Vec<u8>> = {
        let mut v = Vec::new();
        for k in &keys {
            v.push(redis.get(k).await);
        }
        v
    };
    // Foreign: another program's value. Damaged: one byte changed. Moved:
    // a genuine value under another position's key.
    let mut damaged = genuine[1].clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0x10;
    redis.set(&keys[0], b"not gamebot's").await;
    redis.set(&keys[1], &damaged).await;
    redis.set(&keys[2], &genuine[0]).await;
    let reader = Gamebot::start(&redis.url()).await;
    for (p, want) in puzzles.iter().zip(&truth) {
        let got = reader.solve(p).await;
        assert_eq!(got["cached"], false, "{got}");
        same_answer(want, &got);
    }
    assert_eq!(reader.counter("rejected").await, 3);
    assert_eq!(reader.counter("hits").await, 0);
}

#[tokio::test]
async fn redis_stopping_mid_run_fails_no_request() {
    let Some(mut redis) = Redis::start().await else {
        return;
    };
    let port = redis.port;
    let bot = std::sync::Arc::new(Gamebot::start(&redis.url()).await);
    let mut tasks = Vec::new();
    for t in 0..4u64 {
        let bot = bot.clone();
        tasks.push(tokio::spawn(async move {
            let mut answers = 0;
            for i in 0..60u64 {
                // A fresh small position every time, so each one asks Redis.
                let mut deck: Vec<char> = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR"
                    .chars()
                    .collect();
                deck.shuffle(&mut StdRng::seed_from_u64(t * 1000 + i));
                let hand = |a: usize, b: usize| deck[a..b].iter().collect::<String>();
                let p = puzzle(&hand(0, 5), &hand(5, 9), &hand(9, 12));
                let r = http(bot.addr, "POST", "/doudizhu/endgame", Some(&p.to_string())).await;
                assert_eq!(r.status, 200, "{}", r.text());
                assert_eq!(r.json()["complete"], true);
                answers += 1;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            answers
        }));
    }
    tokio::time::sleep(Duration::from_millis(400)).await;
    let written = bot.counter("writes").await;
    redis.stop();
    let mut answered = 0;
    for t in tasks {
        answered += t.await.unwrap();
    }
    assert_eq!(answered, 240, "every request answered");
    assert!(written > 0, "Redis was used before it stopped");
    assert!(bot.counter("errors").await >= 1, "the outage was noticed");
    // Back on the same port, the shared cache is used again.
    let redis = Redis::start_on(port).await;
    tokio::time::sleep(gamebot::cache::remote::BACKOFF).await;
    let writes = bot.counter("writes").await;
    let started = Instant::now();
    for i in 0.. {
        // Positions this process has not seen, so each one is solved and written.
        let p = puzzle("3456789TJ", "44QQKKA", ["2B8", "2R8", "2B7", "2R7"][i % 4]);
        bot.solve(&p).await;
        if bot.counter("writes").await > writes {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no write after Redis came back"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    assert!(!redis.keys().await.is_empty());
}

/// A Redis that stops answering (the process frozen) or refuses writes (its
/// memory full) delays no answer and spoils none.
#[tokio::test]
async fn a_slow_or_full_redis_costs_only_cache_hits() {
    let Some(redis) = Redis::start().await else {
        return;
    };
    let bot = Gamebot::start(&redis.url()).await;
    let positions =
        ["2B8", "2R8", "2B7", "2R7", "2B6", "2R6"].map(|up| puzzle("3456789TJ", "44QQKKA", up));
    let truth = {
        let reference = Gamebot::start("redis://127.0.0.1:1/0").await;
        let mut v = Vec::new();
        for p in &positions {
            v.push(reference.solve(p).await);
        }
        v
    };
    bot.solve(&positions[0]).await;
    bot.wait_for_writes(1).await;
    // Frozen: connections open but nothing answers.
    let pid = redis.child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-STOP", &pid])
            .status()
            .unwrap()
            .success()
    );
    for (p, want) in positions[1..3].iter().zip(&truth[1..3]) {
        let started = Instant::now();
        let got = bot.solve(p).await;
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "{:?}",
            started.elapsed()
        );
        same_answer(want, &got);
    }
    assert!(
        Command::new("kill")
            .args(["-CONT", &pid])
            .status()
            .unwrap()
            .success()
    );
    assert!(bot.counter("errors").await >= 1);
    // Full: every write is refused.
    redis
        .command(&[b"CONFIG", b"SET", b"maxmemory-policy", b"noeviction"])
        .await
        .unwrap();
    redis
        .command(&[b"CONFIG", b"SET", b"maxmemory", b"1"])
        .await
        .unwrap();
    tokio::time::sleep(gamebot::cache::remote::BACKOFF).await;
    let errors = bot.counter("errors").await;
    for (p, want) in positions[3..].iter().zip(&truth[3..]) {
        let got = bot.solve(p).await;
        same_answer(want, &got);
        assert_eq!(got["cached"], false);
    }
    let started = Instant::now();
    while bot.counter("errors").await == errors {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the refused write was not counted"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        redis.keys().await.len(),
        1,
        "only the first answer was stored"
    );
}
