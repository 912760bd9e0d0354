//! The HTTP layer: parse and validate requests into domain types, dispatch
//! searches to the pool, map results to JSON. No game logic lives here.

pub mod docs;
pub mod doudizhu;
pub mod error;
pub mod extract;
pub mod gomoku;
pub mod health;
pub mod mahjong;
pub mod mahjong_table;
pub mod metrics;
pub mod middleware;
pub mod mjai;
pub mod playground;
pub mod string_or_list;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, HeaderValue, Method, header};
use axum::response::Redirect;
use axum::routing::{get, post};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use utoipa_swagger_ui::SwaggerUi;

use crate::cache::TranspositionCache;
use crate::cache::remote::RemoteCache;
use crate::config::Config;
use crate::pool::SearchPool;
use crate::server::ConnectionStats;

/// What every handler can reach. Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub pool: Arc<SearchPool>,
    pub cache: Arc<TranspositionCache>,
    /// The second cache level in Redis, when `cache_url` names one.
    pub remote_cache: Option<Arc<RemoteCache>>,
    pub metrics: Arc<metrics::Metrics>,
    /// Counted by the server's accept loop, read by the metrics.
    pub connections: Arc<ConnectionStats>,
    /// Set when shutdown begins; /readyz then answers 503.
    pub draining: Arc<AtomicBool>,
}

impl AppState {
    pub fn new(config: Config) -> Self {
        let pool = Arc::new(
            SearchPool::new(
                config.worker_count(),
                config.max_queued,
                std::time::Duration::from_millis(config.default_budget_ms),
                std::time::Duration::from_millis(config.max_budget_ms),
            )
            .with_memory_budget(config.search_memory_bytes()),
        );
        let cache = Arc::new(TranspositionCache::with_mib(config.cache_mib));
        let remote_cache = (!config.cache_url.is_empty())
            .then(|| {
                RemoteCache::new(
                    &config.cache_url,
                    std::time::Duration::from_millis(config.cache_timeout_ms),
                    std::time::Duration::from_secs(config.cache_ttl_s),
                )
                .map_err(|e| tracing::error!(error = %e, "running without the shared cache"))
                .ok()
            })
            .flatten()
            .map(Arc::new);
        let connections = Arc::new(ConnectionStats::default());
        let metrics = Arc::new(metrics::Metrics::new(
            pool.clone(),
            cache.clone(),
            remote_cache.clone(),
            connections.clone(),
        ));
        AppState {
            config: Arc::new(config),
            pool,
            cache,
            remote_cache,
            metrics,
            connections,
            draining: Arc::default(),
        }
    }
}

/// Largest `budget_ms` a request may name (the configured `max_budget_ms`
/// then clamps it); the OpenAPI schemas carry the same bound.
pub const MAX_REQUEST_BUDGET_MS: u64 = 600_000;

/// Checks a request's optional `seed` and gives the one to use (0 when
/// absent): JSON integers beyond `i64` are not portable, so the schemas bound
/// it there.
pub fn check_seed(seed: Option<u64>) -> Result<u64, error::ApiError> {
    match seed {
        Some(s) if s > i64::MAX as u64 => Err(error::ApiError::field(
            "/seed",
            format!("must be at most {}", i64::MAX),
        )),
        other => Ok(other.unwrap_or(0)),
    }
}

/// Checks a request's optional `budget_ms`: 1 to [`MAX_REQUEST_BUDGET_MS`].
pub fn check_budget(budget_ms: Option<u64>) -> Result<Option<u64>, error::ApiError> {
    match budget_ms {
        Some(0) => Err(error::ApiError::field("/budget_ms", "must be at least 1")),
        Some(b) if b > MAX_REQUEST_BUDGET_MS => Err(error::ApiError::field(
            "/budget_ms",
            format!("must be at most {MAX_REQUEST_BUDGET_MS}"),
        )),
        other => Ok(other),
    }
}

/// The whole service as a Router.
pub fn app(state: AppState) -> Router {
    app_with(state, Router::new())
}

/// The service plus `extra` routes, which get the same error handling,
/// limits and observability (tests use it to add workloads).
pub fn app_with(state: AppState, extra: Router<AppState>) -> Router {
    let body_limit = state.config.body_limit_bytes;
    let swagger: Router<AppState> = SwaggerUi::new("/docs")
        .config(utoipa_swagger_ui::Config::from("/openapi.yaml"))
        .into();
    let router = Router::new()
        .route("/", get(|| async { Redirect::temporary("/docs/") }))
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route("/metrics", get(metrics::metrics))
        .route("/openapi.yaml", get(docs::openapi_yaml))
        .route("/doudizhu/moves", post(doudizhu::moves::moves))
        .route("/doudizhu/split", post(doudizhu::split::split))
        .route("/doudizhu/endgame", post(doudizhu::endgame::endgame))
        .route("/doudizhu/play", post(doudizhu::play::play))
        .route("/doudizhu/bid", post(doudizhu::bid::bid))
        .route("/doudizhu/double", post(doudizhu::double::double))
        .route("/mahjong/discard", post(mahjong::discard))
        .route("/mahjong/claim", post(mahjong::claim))
        .route("/mahjong/mjai", post(mjai::mjai))
        .route("/mahjong/table", post(mahjong_table::table))
        .route("/gomoku/move", post(gomoku::best_move))
        .route("/gomoku/position", post(gomoku::position))
        .route("/playground", get(playground::page))
        .route("/playground/", get(playground::page_slash))
        .route("/playground/{file}", get(playground::file))
        .merge(swagger)
        .merge(extra)
        .fallback(error::not_found)
        .method_not_allowed_fallback(error::method_not_allowed)
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            middleware::limit_body,
        ))
        .layer(CatchPanicLayer::custom(error::panic_response))
        .layer(axum::middleware::from_fn(error::problems_only));
    let router = match cors_layer(&state.config.cors_origins) {
        Some(cors) => router.layer(cors),
        None => router,
    };
    router
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            middleware::observe,
        ))
        .with_state(state)
}

/// Browser access from `origins` (none: no CORS headers at all). Preflights
/// are answered here, before routing.
fn cors_layer(origins: &[String]) -> Option<CorsLayer> {
    if origins.is_empty() {
        return None;
    }
    let allow = if origins.iter().any(|o| o == "*") {
        AllowOrigin::any()
    } else {
        // Checked when the configuration was loaded.
        AllowOrigin::list(origins.iter().filter_map(|o| HeaderValue::from_str(o).ok()))
    };
    let request_id = HeaderName::from_static(middleware::REQUEST_ID);
    Some(
        CorsLayer::new()
            .allow_origin(allow)
            .allow_methods([Method::GET, Method::HEAD, Method::POST])
            .allow_headers([header::CONTENT_TYPE, header::ACCEPT, request_id.clone()])
            .expose_headers([
                request_id,
                HeaderName::from_static(crate::version::HEADER),
                header::RETRY_AFTER,
            ])
            .max_age(std::time::Duration::from_secs(600)),
    )
}
