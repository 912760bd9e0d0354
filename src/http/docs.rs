//! The OpenAPI contract (`openapi.yaml` at the repository root is generated
//! from this) and the Swagger UI that renders it, fully offline.

use std::sync::LazyLock;

use axum::http::header;
use axum::response::IntoResponse;
use serde_json::json;
use utoipa::OpenApi;
use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::path::{HttpMethod, OperationBuilder, PathItem};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder};

use super::{doudizhu, error, gomoku, health, mahjong, mahjong_table, metrics, mjai, playground};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "gamebot",
        description = "Game-bot decisions over HTTP: Dou Dizhu, mahjong and gomoku. \
                       Every 4xx and 5xx answer is an RFC 9457 problem document.",
        license(name = "MIT", identifier = "MIT"),
    ),
    paths(
        health::healthz, health::readyz, metrics::metrics, openapi_yaml, playground::page,
        doudizhu::moves::moves, doudizhu::split::split, doudizhu::endgame::endgame, doudizhu::play::play, doudizhu::bid::bid,
        doudizhu::double::double,
        mahjong::discard, mahjong::claim, mjai::mjai, mahjong_table::table,
        gomoku::best_move, gomoku::position,
    ),
    components(schemas(error::Problem, error::FieldError)),
    modifiers(&SwaggerRoute, &CommonProblems),
    tags(
        (name = "doudizhu", description = "Dou Dizhu: legal moves, hand splits, endgame solving, play, bid and doubling"),
        (name = "mahjong", description = "Mahjong (Hong Kong, Riichi, Red Dragon): discards and claims; a Riichi hand against three bots"),
        (name = "gomoku", description = "Gomoku (freestyle, standard, renju): the engine's move and the referee"),
        (name = "operations", description = "Health, readiness, metrics, documentation and the playground page"),
    )
)]
pub struct ApiDoc;

/// `/docs` is served by utoipa-swagger-ui rather than a handler of ours, so
/// its entry is added by hand.
struct SwaggerRoute;

impl utoipa::Modify for SwaggerRoute {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let op = OperationBuilder::new()
            .tag("operations")
            .summary(Some("Swagger UI for this API (redirects to /docs/)"))
            .operation_id(Some("docs"))
            .response(
                "303",
                ResponseBuilder::new()
                    .description("Redirect to the UI at /docs/")
                    .build(),
            )
            .response(
                "200",
                ResponseBuilder::new()
                    .description("The Swagger UI page")
                    .content("text/html", ContentBuilder::new().build())
                    .build(),
            )
            .build();
        openapi
            .paths
            .paths
            .insert("/docs".into(), PathItem::new(HttpMethod::Get, op));
    }
}

/// The document as YAML, built once.
pub static OPENAPI_YAML: LazyLock<String> = LazyLock::new(|| {
    ApiDoc::openapi()
        .to_yaml()
        .expect("OpenAPI document serializes")
});

/// This API's OpenAPI 3.1 document.
#[utoipa::path(get, path = "/openapi.yaml", tag = "operations",
    responses((status = 200, description = "The OpenAPI document", content_type = "application/yaml",
               body = Object, example = json!({"openapi": "3.1.0", "info": {"title": "gamebot"}}))))]
pub async fn openapi_yaml() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/yaml")],
        OPENAPI_YAML.as_str(),
    )
}

/// The problem answers every route can give, as shared response components
/// referenced from each operation: what axum's own rejections produce too
/// (400, 413, 415 on JSON routes), the service's 500, and 503 on routes that
/// search.
struct CommonProblems;

/// Operations that run on the search pool and so may answer 503.
const SEARCH_ROUTES: &[&str] = &[
    "/doudizhu/endgame",
    "/doudizhu/play",
    "/doudizhu/double",
    "/gomoku/move",
];

impl CommonProblems {
    fn problem(
        description: &str,
        status: u16,
        slug: &str,
        title: &str,
        detail: &str,
    ) -> utoipa::openapi::Response {
        ResponseBuilder::new()
            .description(description)
            .content(
                error::PROBLEM_JSON,
                ContentBuilder::new()
                    .schema(Some(Ref::from_schema_name("Problem")))
                    .example(Some(json!({
                        "type": format!("urn:gamebot:problem:{slug}"),
                        "title": title,
                        "status": status,
                        "detail": detail,
                    })))
                    .build(),
            )
            .build()
    }
}

impl utoipa::Modify for CommonProblems {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let shared = [
            (
                "MalformedJson",
                "400",
                Self::problem(
                    "The body is not valid JSON",
                    400,
                    "malformed-json",
                    "Malformed JSON",
                    "the request body is not valid JSON: EOF while parsing a value at line 1 column 9",
                ),
            ),
            (
                "PayloadTooLarge",
                "413",
                Self::problem(
                    "The body is larger than body_limit_bytes",
                    413,
                    "payload-too-large",
                    "Payload too large",
                    "the request body is larger than the configured limit (body_limit_bytes)",
                ),
            ),
            (
                "UnsupportedMediaType",
                "415",
                Self::problem(
                    "Content-Type is not application/json",
                    415,
                    "unsupported-media-type",
                    "Unsupported media type",
                    "expected a request with `Content-Type: application/json`",
                ),
            ),
            (
                "Internal",
                "500",
                Self::problem(
                    "A bug: the handler or search failed; the service keeps serving",
                    500,
                    "internal",
                    "Internal error",
                    "internal error: search failed: index out of bounds",
                ),
            ),
            ("Overloaded", "503", {
                let mut r = Self::problem(
                    "Every search worker is busy and the queue is full; retry after Retry-After seconds",
                    503,
                    "overloaded",
                    "Overloaded",
                    "all 2 search workers are busy and 32 searches are waiting",
                );
                r.headers.insert(
                    "Retry-After".into(),
                    HeaderBuilder::new()
                        .schema(
                            ObjectBuilder::new()
                                .schema_type(Type::Integer)
                                .minimum(Some(1)),
                        )
                        .description(Some("Seconds to wait before retrying"))
                        .build(),
                );
                r
            }),
        ];
        let components = openapi.components.get_or_insert_with(Default::default);
        for (name, _, response) in &shared {
            components
                .responses
                .insert((*name).to_string(), RefOr::T(response.clone()));
        }
        for (path, item) in openapi.paths.paths.iter_mut() {
            let ops = [(&mut item.get, false), (&mut item.post, true)];
            for (op, is_post) in ops {
                let Some(op) = op.as_mut() else { continue };
                for (name, status, _) in &shared {
                    let wanted = match *status {
                        "400" | "413" | "415" => is_post,
                        "503" => SEARCH_ROUTES.contains(&path.as_str()),
                        _ => true,
                    };
                    if wanted {
                        op.responses
                            .responses
                            .entry((*status).to_string())
                            .or_insert_with(|| RefOr::Ref(Ref::from_response_name(*name)));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::path::{Path, PathBuf};

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// utoipa names a component after the bare type name and silently keeps
    /// one of two types that share it, so the document would describe one
    /// route's field with another route's schema.
    #[test]
    fn schema_type_names_are_unique() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/http");
        let mut files = Vec::new();
        rust_files(&root, &mut files);
        let mut seen: HashMap<String, PathBuf> = HashMap::new();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let mut derives_schema = false;
            for line in text.lines().map(str::trim) {
                if line.starts_with("#[derive(") {
                    derives_schema = line.contains("ToSchema");
                } else if derives_schema
                    && let Some(rest) = line
                        .strip_prefix("pub struct ")
                        .or_else(|| line.strip_prefix("pub enum "))
                {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if let Some(other) = seen.insert(name.clone(), file.clone()) {
                        panic!("two schemas named {name}: {other:?} and {file:?}");
                    }
                    derives_schema = false;
                }
            }
        }
        assert!(seen.contains_key("MoveRequest"), "the scan found the types");
    }
}
