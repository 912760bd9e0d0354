//! The playground: a page at `/playground` to play against every bot in a
//! browser. Its files are compiled into the binary (no CDN, no build step)
//! and it calls the public routes only, so it doubles as their living
//! example. The browser test in `.ci/playground.sh` drives it in Chromium.

use axum::extract::Path;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Redirect, Response};

use super::error::ApiError;

/// Scripts, styles and data only from this server; no frames, no plugins.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The files under `/playground/`, by name: (content type, body).
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("index.html"),
    ),
    (
        "playground.css",
        "text/css; charset=utf-8",
        include_str!("playground.css"),
    ),
    (
        "main.js",
        "text/javascript; charset=utf-8",
        include_str!("main.js"),
    ),
    (
        "common.js",
        "text/javascript; charset=utf-8",
        include_str!("common.js"),
    ),
    (
        "cards.js",
        "text/javascript; charset=utf-8",
        include_str!("cards.js"),
    ),
    (
        "gomoku.js",
        "text/javascript; charset=utf-8",
        include_str!("gomoku.js"),
    ),
    (
        "doudizhu.js",
        "text/javascript; charset=utf-8",
        include_str!("doudizhu.js"),
    ),
    (
        "endgame.js",
        "text/javascript; charset=utf-8",
        include_str!("endgame.js"),
    ),
    (
        "mahjong.js",
        "text/javascript; charset=utf-8",
        include_str!("mahjong.js"),
    ),
    (
        "riichi.js",
        "text/javascript; charset=utf-8",
        include_str!("riichi.js"),
    ),
    ("favicon.svg", "image/svg+xml", include_str!("favicon.svg")),
];

fn asset(name: &str) -> Option<Response> {
    let &(_, content_type, body) = ASSETS.iter().find(|(n, _, _)| *n == name)?;
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    // Small files that change with the binary: revalidate, never serve stale.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    Some(response)
}

/// The playground page: gomoku, Dou Dizhu, endgame puzzles and mahjong
/// against this server's bots, in the browser.
#[utoipa::path(get, path = "/playground", tag = "operations",
    responses((status = 200, description = "The playground page", content_type = "text/html")))]
pub async fn page() -> Response {
    asset("index.html").expect("the page is embedded")
}

/// `/playground/` leads to the page too.
pub async fn page_slash() -> Redirect {
    Redirect::permanent("/playground")
}

/// One of the page's scripts, its style sheet or its icon.
pub async fn file(Path(name): Path<String>) -> Result<Response, ApiError> {
    match asset(&name) {
        Some(response) if name != "index.html" => Ok(response),
        _ => Err(ApiError::not_found(&format!("/playground/{name}"))),
    }
}

#[cfg(test)]
mod tests {
    use utoipa::OpenApi;

    use super::*;

    /// The quoted strings that follow each `opener` in `text`.
    fn quoted_after<'a>(text: &'a str, opener: &str) -> Vec<&'a str> {
        text.split(opener)
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .collect()
    }

    /// Nothing is fetched from another host, every file the page loads is
    /// embedded, and every route it calls is a documented public route.
    #[test]
    fn the_page_is_self_contained_and_calls_public_routes() {
        let documented = super::super::docs::ApiDoc::openapi().paths.paths;
        let embedded = |path: &str| {
            path.strip_prefix("/playground/")
                .or_else(|| path.strip_prefix("./"))
                .is_some_and(|file| ASSETS.iter().any(|(n, _, _)| *n == file))
        };
        let mut calls = 0;
        for (name, _, body) in ASSETS {
            let foreign = body
                .replace("xmlns=\"http://www.w3.org/2000/svg\"", "")
                .contains("://");
            assert!(!foreign, "{name} names another host");
            for opener in ["src=\"", "href=\"", "from \"", "import \""] {
                for path in quoted_after(body, opener) {
                    assert!(
                        embedded(path) || path == "/docs/",
                        "{name} loads {path}, which is not embedded"
                    );
                }
            }
            for route in quoted_after(body, "api(\"") {
                assert!(documented.contains_key(route), "{name} calls {route}");
                calls += 1;
            }
        }
        assert!(calls >= 9, "found {calls} calls");
    }
}
