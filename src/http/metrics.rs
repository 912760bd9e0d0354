//! `GET /metrics`: Prometheus text exposition. Request counters and latency
//! histograms are recorded by the request middleware; the search pool's and the
//! cache's numbers are read from them at scrape time.

use std::sync::Arc;

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use super::AppState;
use super::error::ApiError;
use crate::cache::TranspositionCache;
use crate::pool::SearchPool;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    pub route: String,
    pub method: String,
    pub status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    pub route: String,
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

impl Metrics {
    pub fn new(pool: Arc<SearchPool>, cache: Arc<TranspositionCache>) -> Self {
        let mut registry = Registry::with_prefix("gamebot");
        let requests = Family::<RequestLabels, Counter>::default();
        let latency: HistogramFamily = Family::new_with_constructor(latency_histogram);
        registry.register(
            "http_requests",
            "HTTP requests answered, by route, method and status",
            requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "Time from request to response, by route",
            latency.clone(),
        );
        registry.register_collector(Box::new(EngineCollector { pool, cache }));
        Metrics {
            registry,
            requests,
            latency,
        }
    }

    pub fn observe(&self, route: &str, method: &str, status: u16, seconds: f64) {
        self.requests
            .get_or_create(&RequestLabels {
                route: route.to_string(),
                method: method.to_string(),
                status,
            })
            .inc();
        self.latency
            .get_or_create(&RouteLabels {
                route: route.to_string(),
            })
            .observe(seconds);
    }

    pub fn render(&self) -> Result<String, std::fmt::Error> {
        let mut out = String::new();
        prometheus_client::encoding::text::encode(&mut out, &self.registry)?;
        Ok(out)
    }
}

/// Reads the pool's and the cache's own counters on each scrape.
#[derive(Debug)]
struct EngineCollector {
    pool: Arc<SearchPool>,
    cache: Arc<TranspositionCache>,
}

impl prometheus_client::collector::Collector for EngineCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let pool = self.pool.stats();
        let cache = self.cache.stats();
        let gauges: [(&str, &str, i64); 6] = [
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
        ];
        for (name, help, value) in gauges {
            let m = encoder.encode_descriptor(name, help, None, MetricType::Gauge)?;
            ConstGauge::new(value).encode(m)?;
        }
        let counters: [(&str, &str, u64); 5] = [
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
        ];
        for (name, help, value) in counters {
            let m = encoder.encode_descriptor(name, help, None, MetricType::Counter)?;
            ConstCounter::new(value).encode(m)?;
        }
        Ok(())
    }
}

/// Prometheus text exposition of every metric.
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "operations",
    responses(
        (status = 200, description = "Prometheus text format", content_type = "text/plain",
         body = String, example = "gamebot_searches_in_flight 0\n"),
    )
)]
pub async fn metrics(State(state): State<AppState>) -> Result<impl IntoResponse, ApiError> {
    let body = state
        .metrics
        .render()
        .map_err(|e| ApiError::Internal(format!("metrics encoding failed: {e}")))?;
    Ok((
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        body,
    ))
}
