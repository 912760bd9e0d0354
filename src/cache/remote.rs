//! The second-level cache: solved positions in a Redis server (or Valkey,
//! which speaks the same protocol) that every replica shares, behind the
//! in-process table.
//!
//! Redis may cost cache hits, never a right or timely answer:
//! * the key is the whole position (`gb1:` and the key's words), and the
//!   value carries the key again and a checksum around the caller's bytes,
//!   so a value another program wrote, or one damaged on the way or at rest,
//!   is recognised and ignored; the caller checks its bytes besides (an
//!   endgame answer is replayed move by move on the position);
//! * connecting, sending and receiving each have a short timeout
//!   (`cache_timeout_ms`), and after a failure the second level is skipped
//!   for [`BACKOFF`] before it is tried again, so a server that is down or
//!   slow costs one timeout now and then, not one per request;
//! * writes go through a bounded queue to one writer thread, so no request
//!   waits for one; a write that finds the queue full is dropped.
//!
//! Entries expire after `cache_ttl_s`. The server's memory is bounded on its
//! side: `maxmemory` with an LRU eviction policy (see the README).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use super::{CacheKey, KEY_WORDS};

/// Prefix of every key this service writes (the format's version).
const KEY_PREFIX: &[u8] = b"gb1:";
/// First bytes of every value this service writes.
const VALUE_MAGIC: &[u8; 4] = b"GBv1";
/// Magic, the key's words and the payload's length before the payload.
const HEADER_LEN: usize = VALUE_MAGIC.len() + 8 * KEY_WORDS + 4;
/// Largest payload stored (an endgame answer is a few hundred bytes).
pub const MAX_PAYLOAD: usize = 16 * 1024;
/// Writes that may wait for the writer thread.
const WRITE_QUEUE: usize = 1024;
/// How long the second level is skipped after a failure.
pub const BACKOFF: Duration = Duration::from_secs(1);
/// Connections kept open between lookups.
const IDLE_CONNECTIONS: usize = 8;

/// What the second level did, counted since start.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RemoteStats {
    /// Lookups that found a valid value.
    pub hits: u64,
    /// Lookups the server answered with nothing.
    pub misses: u64,
    /// Lookups and writes that failed: no connection, a timeout, an error
    /// reply.
    pub errors: u64,
    /// Values found but refused: foreign, damaged, or for another position.
    pub rejected: u64,
    /// Lookups not tried because of a recent failure.
    pub skipped: u64,
    /// Values written.
    pub writes: u64,
    /// Writes dropped because the queue was full.
    pub writes_dropped: u64,
    /// Time spent on lookups, in microseconds.
    pub lookup_micros: u64,
}

#[derive(Debug, Default)]
struct Counters {
    hits: AtomicU64,
    misses: AtomicU64,
    errors: AtomicU64,
    rejected: AtomicU64,
    skipped: AtomicU64,
    writes: AtomicU64,
    writes_dropped: AtomicU64,
    lookup_micros: AtomicU64,
}

fn bump(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

struct Link {
    client: redis::Client,
    timeout: Duration,
    idle: Mutex<Vec<redis::Connection>>,
    /// Until when the second level is skipped after a failure.
    down_until: Mutex<Option<Instant>>,
    counters: Counters,
}

impl Link {
    fn backing_off(&self) -> bool {
        let until = self.down_until.lock().unwrap_or_else(|e| e.into_inner());
        until.is_some_and(|t| Instant::now() < t)
    }

    fn failed(&self) {
        bump(&self.counters.errors);
        *self.down_until.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now() + BACKOFF);
    }

    fn connect(&self) -> redis::RedisResult<redis::Connection> {
        let c = self.client.get_connection_with_timeout(self.timeout)?;
        c.set_read_timeout(Some(self.timeout))?;
        c.set_write_timeout(Some(self.timeout))?;
        Ok(c)
    }

    /// Runs `command` on an idle connection or a new one; a connection that
    /// failed is dropped, not reused. A kept connection the server has since
    /// closed (a restart, its idle timeout) gets one retry on a new one.
    fn with_connection<T>(
        &self,
        mut command: impl FnMut(&mut redis::Connection) -> redis::RedisResult<T>,
    ) -> redis::RedisResult<T> {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let (connection, result) = match idle {
            Some(mut kept) => match command(&mut kept) {
                Err(e) if e.is_io_error() || e.is_connection_dropped() => {
                    let mut fresh = self.connect()?;
                    let result = command(&mut fresh);
                    (fresh, result)
                }
                other => (kept, other),
            },
            None => {
                let mut fresh = self.connect()?;
                let result = command(&mut fresh);
                (fresh, result)
            }
        };
        let value = result?;
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() < IDLE_CONNECTIONS {
            idle.push(connection);
        }
        Ok(value)
    }
}

/// Solved positions in Redis, shared by every replica.
pub struct RemoteCache {
    link: Arc<Link>,
    writes: mpsc::SyncSender<(CacheKey, Vec<u8>)>,
}

impl std::fmt::Debug for RemoteCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteCache")
            .field("timeout", &self.link.timeout)
            .finish_non_exhaustive()
    }
}

/// Why a `cache_url` cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct UrlError(String);

/// Checks `url` is a `redis://host[:port][/db]` address (no connection made).
pub fn check_url(url: &str) -> Result<(), UrlError> {
    if !url.starts_with("redis://") {
        return Err(UrlError(format!(
            "`{url}` is not a redis:// URL (redis://host:6379/0)"
        )));
    }
    redis::Client::open(url)
        .map(|_| ())
        .map_err(|e| UrlError(format!("`{url}`: {e}")))
}

impl RemoteCache {
    /// A second level at `url` (`redis://host:6379/0`) whose operations each
    /// take at most `timeout`, keeping entries for `ttl`. Connects lazily:
    /// a server that is not up yet only costs misses until it is.
    pub fn new(url: &str, timeout: Duration, ttl: Duration) -> Result<Self, UrlError> {
        check_url(url)?;
        let client = redis::Client::open(url).map_err(|e| UrlError(e.to_string()))?;
        let link = Arc::new(Link {
            client,
            timeout,
            idle: Mutex::new(Vec::new()),
            down_until: Mutex::new(None),
            counters: Counters::default(),
        });
        let (writes, queue) = mpsc::sync_channel::<(CacheKey, Vec<u8>)>(WRITE_QUEUE);
        let writer = link.clone();
        let ttl_ms = ttl.as_millis().max(1) as u64;
        std::thread::Builder::new()
            .name("cache-writer".into())
            .spawn(move || {
                // Ends when the cache is dropped and the queue drains.
                for (key, payload) in queue {
                    if writer.backing_off() {
                        bump(&writer.counters.writes_dropped);
                        continue;
                    }
                    let value = encode(&key, &payload);
                    let sent = writer.with_connection(|c| {
                        redis::cmd("SET")
                            .arg(redis_key(&key))
                            .arg(value.as_slice())
                            .arg("PX")
                            .arg(ttl_ms)
                            .query::<()>(c)
                    });
                    match sent {
                        Ok(()) => bump(&writer.counters.writes),
                        Err(_) => writer.failed(),
                    }
                }
            })
            .map_err(|e| UrlError(format!("cannot start the cache writer: {e}")))?;
        Ok(Self { link, writes })
    }

    /// What `accept` makes of the payload stored for `key`, if the server
    /// has an undamaged one for exactly this key and `accept` takes it (a
    /// payload it refuses counts as rejected). Never waits longer than the
    /// timeout; `None` on any failure.
    pub fn get<T>(&self, key: &CacheKey, accept: impl FnOnce(&[u8]) -> Option<T>) -> Option<T> {
        let counters = &self.link.counters;
        if self.link.backing_off() {
            bump(&counters.skipped);
            return None;
        }
        let started = Instant::now();
        let reply = self.link.with_connection(|c| {
            redis::cmd("GET")
                .arg(redis_key(key))
                .query::<Option<Vec<u8>>>(c)
        });
        counters
            .lookup_micros
            .fetch_add(started.elapsed().as_micros() as u64, Ordering::Relaxed);
        match reply {
            Ok(Some(bytes)) => match decode(key, &bytes).and_then(accept) {
                Some(value) => {
                    bump(&counters.hits);
                    Some(value)
                }
                None => {
                    bump(&counters.rejected);
                    None
                }
            },
            Ok(None) => {
                bump(&counters.misses);
                None
            }
            Err(_) => {
                self.link.failed();
                None
            }
        }
    }

    /// Stores `payload` (at most [`MAX_PAYLOAD`] bytes) for `key` in the
    /// background; never blocks.
    pub fn put(&self, key: CacheKey, payload: Vec<u8>) {
        if payload.len() > MAX_PAYLOAD || self.writes.try_send((key, payload)).is_err() {
            bump(&self.link.counters.writes_dropped);
        }
    }

    pub fn stats(&self) -> RemoteStats {
        let c = &self.link.counters;
        let read = |a: &AtomicU64| a.load(Ordering::Relaxed);
        RemoteStats {
            hits: read(&c.hits),
            misses: read(&c.misses),
            errors: read(&c.errors),
            rejected: read(&c.rejected),
            skipped: read(&c.skipped),
            writes: read(&c.writes),
            writes_dropped: read(&c.writes_dropped),
            lookup_micros: read(&c.lookup_micros),
        }
    }
}

/// The Redis key of a position: the prefix and the key's words.
pub fn redis_key(key: &CacheKey) -> Vec<u8> {
    let mut out = Vec::with_capacity(KEY_PREFIX.len() + 8 * KEY_WORDS);
    out.extend_from_slice(KEY_PREFIX);
    for w in key.0 {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out
}

/// FNV-1a over `bytes`: enough to notice damage (nobody forges these).
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The stored form of `payload` for `key`.
pub fn encode(key: &CacheKey, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len() + 8);
    out.extend_from_slice(VALUE_MAGIC);
    for w in key.0 {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(payload);
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// The payload in `bytes` if they are this service's encoding of a value for
/// exactly `key`, undamaged.
pub fn decode<'b>(key: &CacheKey, bytes: &'b [u8]) -> Option<&'b [u8]> {
    if bytes.len() < HEADER_LEN + 8 || &bytes[..4] != VALUE_MAGIC {
        return None;
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if checksum(body) != u64::from_le_bytes(sum.try_into().ok()?) {
        return None;
    }
    let word = |at: usize| u64::from_le_bytes(body[at..at + 8].try_into().expect("8 bytes"));
    if (0..KEY_WORDS).any(|i| word(4 + 8 * i) != key.0[i]) {
        return None;
    }
    let len_at = 4 + 8 * KEY_WORDS;
    let len = u32::from_le_bytes(body[len_at..len_at + 4].try_into().ok()?) as usize;
    let payload = &body[HEADER_LEN..];
    (payload.len() == len).then_some(payload)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u64) -> CacheKey {
        CacheKey([0xDD, n, n * 3, n * 7, 1, 0])
    }

    #[test]
    fn values_round_trip_and_damage_is_refused() {
        let k = key(5);
        let bytes = encode(&k, b"answer");
        assert_eq!(decode(&k, &bytes), Some(&b"answer"[..]));
        assert_eq!(decode(&k, &encode(&k, b"")), Some(&b""[..]));
        // Another position's value under this key.
        assert_eq!(decode(&key(6), &bytes), None);
        // Every single flipped bit is noticed.
        for i in 0..bytes.len() * 8 {
            let mut damaged = bytes.clone();
            damaged[i / 8] ^= 1 << (i % 8);
            assert_eq!(decode(&k, &damaged), None, "bit {i}");
        }
        // Foreign values: another program's, a truncated one, nothing.
        for foreign in [&b"hello"[..], &bytes[..bytes.len() - 1], b""] {
            assert_eq!(decode(&k, foreign), None);
        }
    }

    #[test]
    fn keys_are_the_whole_position() {
        assert_ne!(redis_key(&key(1)), redis_key(&key(2)));
        assert_eq!(redis_key(&key(1)).len(), KEY_PREFIX.len() + 8 * KEY_WORDS);
        assert!(redis_key(&key(1)).starts_with(KEY_PREFIX));
    }

    #[test]
    fn only_redis_urls_are_taken() {
        assert!(check_url("redis://127.0.0.1:6379/0").is_ok());
        assert!(check_url("redis://cache").is_ok());
        for bad in ["http://cache:6379", "cache:6379", "", "redis://"] {
            assert!(check_url(bad).is_err(), "{bad}");
        }
    }

    /// With no server at the address, lookups fail fast, count an error,
    /// then back off; nothing panics and nothing blocks.
    #[test]
    fn an_absent_server_costs_only_misses() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        let cache = RemoteCache::new(
            &format!("redis://127.0.0.1:{port}/0"),
            Duration::from_millis(50),
            Duration::from_secs(60),
        )
        .unwrap();
        let started = Instant::now();
        assert_eq!(cache.get(&key(1), |b| Some(b.to_vec())), None);
        assert_eq!(cache.get(&key(2), |b| Some(b.to_vec())), None);
        cache.put(key(3), vec![1]);
        assert!(started.elapsed() < Duration::from_secs(2));
        let stats = cache.stats();
        assert_eq!((stats.errors, stats.skipped), (1, 1), "{stats:?}");
    }
}
