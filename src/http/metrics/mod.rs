//! `GET /metrics`: the Prometheus exposition. Request counters and latency
//! histograms are recorded by the request middleware; the search pool's, the
//! memory budget's, the cache's, the connections' and the process's numbers
//! are read at scrape time.
//!
//! Both formats are served, chosen by `Accept`: OpenMetrics for scrapers that
//! ask for it (Prometheus does by default), else the classic text format
//! 0.0.4, in which a counter's family is named with its `_total` suffix and
//! there is no `# EOF`.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::IntoResponse;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::metrics::info::Info;
use prometheus_client::registry::Registry;

mod process;

use super::AppState;
use super::error::ApiError;
use crate::cache::TranspositionCache;
use crate::cache::remote::RemoteCache;
use crate::pool::SearchPool;
use crate::server::ConnectionStats;

pub const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";
pub const PROMETHEUS_TEXT: &str = "text/plain; version=0.0.4; charset=utf-8";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    pub route: String,
    pub method: &'static str,
    pub status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    pub route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct BuildLabels {
    version: &'static str,
    commit: &'static str,
}

type HistogramFamily = Family<RouteLabels, Histogram, fn() -> Histogram>;

#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: HistogramFamily,
}

fn latency_histogram() -> Histogram {
    // 50 µs .. ~26 s: from cheap move generation to the longest budgets.
    Histogram::new(exponential_buckets(0.000_05, 2.0, 20))
}

/// The method as a label: one of a fixed few, so that a client cannot add
/// label values (and memory) by inventing methods.
pub fn method_label(method: &axum::http::Method) -> &'static str {
    use axum::http::Method;
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

impl Metrics {
    pub fn new(
        pool: Arc<SearchPool>,
        cache: Arc<TranspositionCache>,
        remote_cache: Option<Arc<RemoteCache>>,
        connections: Arc<ConnectionStats>,
    ) -> Self {
        let mut registry = Registry::default();
        let service = registry.sub_registry_with_prefix("gamebot");
        let requests = Family::<RequestLabels, Counter>::default();
        let latency: HistogramFamily = Family::new_with_constructor(latency_histogram);
        service.register(
            "http_requests",
            "HTTP requests answered, by route, method and status (499: the client went away first)",
            requests.clone(),
        );
        service.register(
            "http_request_duration_seconds",
            "Time from request to response, by route",
            latency.clone(),
        );
        service.register(
            "build",
            "The running build: package version and commit",
            Info::new(BuildLabels {
                version: crate::version::VERSION,
                commit: crate::version::COMMIT,
            }),
        );
        service.register_collector(Box::new(EngineCollector {
            pool,
            cache,
            remote_cache,
            connections,
        }));
        registry.register_collector(Box::new(process::ProcessCollector));
        Metrics {
            registry,
            requests,
            latency,
        }
    }

    pub fn observe(&self, route: &str, method: &'static str, status: u16, seconds: f64) {
        self.requests
            .get_or_create(&RequestLabels {
                route: route.to_string(),
                method,
                status,
            })
            .inc();
        self.latency
            .get_or_create(&RouteLabels {
                route: route.to_string(),
            })
            .observe(seconds);
    }

    /// The OpenMetrics exposition.
    pub fn render(&self) -> Result<String, std::fmt::Error> {
        let mut out = String::new();
        prometheus_client::encoding::text::encode(&mut out, &self.registry)?;
        Ok(out)
    }

    /// The classic Prometheus text format (0.0.4).
    pub fn render_prometheus_text(&self) -> Result<String, std::fmt::Error> {
        Ok(openmetrics_to_prometheus_text(&self.render()?))
    }
}

/// Rewrites an OpenMetrics exposition as Prometheus text 0.0.4: counter
/// families take their samples' `_total` name, info families become gauges
/// named `_info`, and `# UNIT` and `# EOF` go (0.0.4 has neither).
fn openmetrics_to_prometheus_text(openmetrics: &str) -> String {
    let mut out = String::with_capacity(openmetrics.len());
    // HELP comes before TYPE; it is held until the TYPE tells the name.
    let mut help: Option<(&str, &str)> = None;
    for line in openmetrics.lines() {
        if let Some(rest) = line.strip_prefix("# HELP ") {
            help = rest.split_once(' ').or(Some((rest, "")));
            continue;
        }
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (family, kind) = rest.split_once(' ').unwrap_or((rest, "untyped"));
            let (name, kind) = match kind {
                "counter" => (format!("{family}_total"), "counter"),
                "info" => (format!("{family}_info"), "gauge"),
                "gaugehistogram" | "stateset" => (family.to_string(), "untyped"),
                other => (family.to_string(), other),
            };
            if let Some((h_family, text)) = help.take()
                && h_family == family
            {
                out.push_str(&format!("# HELP {name} {text}\n"));
            }
            out.push_str(&format!("# TYPE {name} {kind}\n"));
            continue;
        }
        if line.starts_with("# UNIT ") || line == "# EOF" {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// True when the scraper asks for OpenMetrics (and does not refuse it with
/// `q=0`).
fn wants_openmetrics(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|range| {
            let mut parts = range.split(';').map(str::trim);
            let media = parts.next().unwrap_or("");
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            media.eq_ignore_ascii_case("application/openmetrics-text") && !refused
        })
}

/// Reads the pool's, the memory budget's, the cache's and the connections'
/// own counters on each scrape.
#[derive(Debug)]
struct EngineCollector {
    pool: Arc<SearchPool>,
    cache: Arc<TranspositionCache>,
    remote_cache: Option<Arc<RemoteCache>>,
    connections: Arc<ConnectionStats>,
}

impl prometheus_client::collector::Collector for EngineCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let pool = self.pool.stats();
        let memory = self.pool.memory();
        let cache = self.cache.stats();
        let connections = self.connections.snapshot();
        let gauges: [(&str, &str, i64); 10] = [
            (
                "search_workers",
                "Search workers (searches that can run at once)",
                pool.workers as i64,
            ),
            (
                "searches_in_flight",
                "Searches running on a worker now",
                pool.running as i64,
            ),
            (
                "searches_queued",
                "Searches waiting for a free worker",
                pool.queued as i64,
            ),
            (
                "search_memory_bytes",
                "Bytes of search tables in use now",
                memory.used() as i64,
            ),
            (
                "search_memory_peak_bytes",
                "Most bytes of search tables ever in use at once",
                memory.peak() as i64,
            ),
            (
                "search_memory_limit_bytes",
                "The search tables' memory budget (search_memory_mib)",
                memory.limit().min(i64::MAX as usize) as i64,
            ),
            (
                "cache_entries",
                "Positions held by the transposition cache",
                cache.entries as i64,
            ),
            (
                "cache_bytes",
                "Bytes held by the cache's entries",
                cache.bytes as i64,
            ),
            (
                "cache_capacity_bytes",
                "Bytes of the cache table (its bound)",
                cache.capacity_bytes as i64,
            ),
            (
                "connections_open",
                "HTTP connections open now",
                connections.open as i64,
            ),
        ];
        for (name, help, value) in gauges {
            let m = encoder.encode_descriptor(name, help, None, MetricType::Gauge)?;
            ConstGauge::new(value).encode(m)?;
        }
        let counters: [(&str, &str, u64); 9] = [
            (
                "overload_rejections",
                "Search requests refused with 503 because the pool was full",
                pool.rejected,
            ),
            (
                "searches_completed",
                "Searches that ran to their end",
                pool.completed,
            ),
            (
                "searches_cancelled",
                "Searches stopped because their client went away",
                pool.cancelled,
            ),
            (
                "search_memory_refusals",
                "Table growths the memory budget turned down",
                memory.refused() as u64,
            ),
            (
                "cache_hits",
                "Cache lookups that found the position",
                cache.hits,
            ),
            ("cache_misses", "Cache lookups that did not", cache.misses),
            (
                "cache_evictions",
                "Entries replaced to make room",
                cache.evictions,
            ),
            (
                "connections_accepted",
                "HTTP connections accepted",
                connections.accepted,
            ),
            (
                "connections_timed_out",
                "Connections closed for a slow request head or a long idle time",
                connections.timed_out,
            ),
        ];
        for (name, help, value) in counters {
            let m = encoder.encode_descriptor(name, help, None, MetricType::Counter)?;
            ConstCounter::new(value).encode(m)?;
        }
        if let Some(remote) = &self.remote_cache {
            let r = remote.stats();
            let counters: [(&str, &str, u64); 8] = [
                (
                    "cache_l2_hits",
                    "Shared-cache (Redis) lookups that found a valid value",
                    r.hits,
                ),
                (
                    "cache_l2_misses",
                    "Shared-cache lookups that found nothing",
                    r.misses,
                ),
                (
                    "cache_l2_errors",
                    "Shared-cache lookups and writes that failed (no connection, timeout, error reply)",
                    r.errors,
                ),
                (
                    "cache_l2_rejected",
                    "Shared-cache values refused: foreign, damaged or not fitting the position",
                    r.rejected,
                ),
                (
                    "cache_l2_skipped",
                    "Shared-cache lookups not tried during the back-off after a failure",
                    r.skipped,
                ),
                (
                    "cache_l2_writes",
                    "Values written to the shared cache",
                    r.writes,
                ),
                (
                    "cache_l2_writes_dropped",
                    "Shared-cache writes dropped (queue full or backing off)",
                    r.writes_dropped,
                ),
                (
                    "cache_l2_lookup_microseconds",
                    "Time spent on shared-cache lookups (divide by the lookups for the mean)",
                    r.lookup_micros,
                ),
            ];
            for (name, help, value) in counters {
                let m = encoder.encode_descriptor(name, help, None, MetricType::Counter)?;
                ConstCounter::new(value).encode(m)?;
            }
        }
        Ok(())
    }
}

/// Prometheus exposition of every metric: OpenMetrics when `Accept` asks for
/// it, else the classic text format 0.0.4.
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "operations",
    responses(
        (status = 200, description = "Prometheus text format 0.0.4 (or OpenMetrics 1.0 when Accept asks for application/openmetrics-text)",
         content_type = "text/plain", body = String, example = "gamebot_searches_in_flight 0\n"),
    )
)]
pub async fn metrics(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<impl IntoResponse, ApiError> {
    let (body, content_type) = if wants_openmetrics(&headers) {
        (state.metrics.render(), OPENMETRICS)
    } else {
        (state.metrics.render_prometheus_text(), PROMETHEUS_TEXT)
    };
    let body = body.map_err(|e| ApiError::Internal(format!("metrics encoding failed: {e}")))?;
    Ok(([(header::CONTENT_TYPE, content_type)], body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_text_names_counter_families_with_total_and_has_no_eof() {
        let om = "# HELP gamebot_x Xs.\n# TYPE gamebot_x counter\ngamebot_x_total{a=\"1\"} 3\n\
                  # HELP gamebot_build The build.\n# TYPE gamebot_build info\n\
                  gamebot_build_info{version=\"0.1.0\"} 1\n\
                  # HELP gamebot_g A gauge.\n# TYPE gamebot_g gauge\n# UNIT gamebot_g bytes\ngamebot_g 2\n# EOF\n";
        let text = openmetrics_to_prometheus_text(om);
        assert_eq!(
            text,
            "# HELP gamebot_x_total Xs.\n# TYPE gamebot_x_total counter\ngamebot_x_total{a=\"1\"} 3\n\
             # HELP gamebot_build_info The build.\n# TYPE gamebot_build_info gauge\n\
             gamebot_build_info{version=\"0.1.0\"} 1\n\
             # HELP gamebot_g A gauge.\n# TYPE gamebot_g gauge\ngamebot_g 2\n"
        );
    }

    #[test]
    fn openmetrics_is_chosen_only_when_asked_for() {
        let accept = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::ACCEPT, v.parse().unwrap());
            wants_openmetrics(&h)
        };
        assert!(accept(
            "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
        ));
        assert!(!accept("text/plain"));
        assert!(!accept("*/*"));
        assert!(!accept("application/openmetrics-text;q=0, text/plain"));
        assert!(!wants_openmetrics(&HeaderMap::new()));
    }

    #[test]
    fn methods_map_to_a_fixed_set_of_labels() {
        use axum::http::Method;
        assert_eq!(method_label(&Method::POST), "POST");
        assert_eq!(method_label(&Method::DELETE), "other");
        assert_eq!(
            method_label(&Method::from_bytes(b"AUDITX1").unwrap()),
            "other"
        );
    }
}
