//! `ApiJson<T>`: the JSON body extractor of every game route. Unlike axum's
//! `Json`, it answers in problem+json and names the offending field with a
//! JSON pointer.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::header;

use super::error::{ApiError, FieldError};
use super::middleware::BodyDeadline;

pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !is_json(req.headers()) {
            return Err(ApiError::UnsupportedMediaType);
        }
        // A client that trickles its body is cut off at the deadline.
        let deadline = req.extensions().get::<BodyDeadline>().map(|d| d.0);
        let read = Bytes::from_request(req, state);
        let read = match deadline {
            Some(at) => tokio::time::timeout_at(at.into(), read)
                .await
                .map_err(|_| ApiError::RequestTimeout)?,
            None => read.await,
        };
        let bytes = read.map_err(|rejection| {
            if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::PayloadTooLarge
            } else {
                ApiError::BadRequest(rejection.body_text())
            }
        })?;
        parse(&bytes).map(ApiJson)
    }
}

fn is_json(headers: &axum::http::HeaderMap) -> bool {
    let Some(value) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let mime = value
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    mime == "application/json" || (mime.starts_with("application/") && mime.ends_with("+json"))
}

/// Syntax errors are 400; well-formed JSON of the wrong shape is 422 with the
/// pointer of the field that did not fit.
pub fn parse<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    // serde reads a struct from an array too, field by field; every request is an object.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        return Err(ApiError::Invalid(vec![FieldError::new(
            "",
            "expected a JSON object, not an array",
        )]));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    match serde_path_to_error::deserialize::<_, T>(&mut de) {
        Ok(value) => {
            // Trailing garbage after the document is malformed JSON.
            de.end()
                .map_err(|e| ApiError::MalformedJson(e.to_string()))?;
            Ok(value)
        }
        Err(err) => {
            let pointer = pointer_of(err.path());
            let inner = err.into_inner();
            match inner.classify() {
                serde_json::error::Category::Data => Err(ApiError::Invalid(vec![FieldError::new(
                    pointer,
                    strip_position(&inner.to_string()),
                )])),
                _ => Err(ApiError::MalformedJson(inner.to_string())),
            }
        }
    }
}

fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("/{index}")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                out.push('/');
                out.push_str(&key.replace('~', "~0").replace('/', "~1"));
            }
            Segment::Unknown => {}
        }
    }
    out
}

/// serde_json appends " at line 1 column 17"; the pointer says more.
fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Req {
        hand: String,
        last: Option<Inner>,
    }
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Inner {
        cards: Vec<u8>,
    }

    #[test]
    fn data_errors_name_the_field() {
        let err = parse::<Req>(br#"{"hand": "33", "last": {"cards": [1, "x"]}}"#).unwrap_err();
        match err {
            ApiError::Invalid(errors) => assert_eq!(errors[0].pointer, "/last/cards/1"),
            other => panic!("{other:?}"),
        }
        let err = parse::<Req>(br#"{"hand": 5}"#).unwrap_err();
        assert!(
            matches!(err, ApiError::Invalid(ref e) if e[0].pointer == "/hand"),
            "{err:?}"
        );
        let err = parse::<Req>(br#"{}"#).unwrap_err();
        assert!(
            matches!(err, ApiError::Invalid(ref e) if e[0].message.contains("hand")),
            "{err:?}"
        );
    }

    #[test]
    fn syntax_errors_are_malformed() {
        assert!(matches!(
            parse::<Req>(b"{\"hand\": "),
            Err(ApiError::MalformedJson(_))
        ));
        assert!(matches!(
            parse::<Req>(br#"{"hand": "3"} x"#),
            Err(ApiError::MalformedJson(_))
        ));
    }
}
