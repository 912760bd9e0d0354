//! The OpenAPI contract (`openapi.yaml` at the repository root is generated
//! from this) and the Swagger UI that renders it, fully offline.

use std::sync::LazyLock;

use axum::http::header;
use axum::response::IntoResponse;
use utoipa::OpenApi;
use utoipa::openapi::path::{HttpMethod, OperationBuilder, PathItem};
use utoipa::openapi::{ContentBuilder, ResponseBuilder};

use super::{error, health, metrics};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "gamebot",
        description = "Game-bot decisions over HTTP: Dou Dizhu, mahjong and gomoku. \
                       Every 4xx and 5xx answer is an RFC 9457 problem document.",
        license(name = "MIT", identifier = "MIT"),
    ),
    paths(health::healthz, health::readyz, metrics::metrics, openapi_yaml),
    components(schemas(error::Problem, error::FieldError)),
    modifiers(&SwaggerRoute),
    tags(
        (name = "operations", description = "Health, readiness, metrics and documentation"),
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
    responses((status = 200, description = "The OpenAPI document", content_type = "application/yaml", body = String)))]
pub async fn openapi_yaml() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/yaml")],
        OPENAPI_YAML.as_str(),
    )
}
