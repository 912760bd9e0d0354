//! `ApiJson<T>`: the JSON body extractor of every game route. Unlike axum's
//! `Json`, it answers in problem+json and names the offending field with a
//! JSON pointer.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::header;

use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};

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
    let mut de = serde_json::Deserializer::from_slice(bytes);
    match serde_path_to_error::deserialize::<_, ObjectsOnly<T>>(&mut de) {
        Ok(ObjectsOnly(value)) => {
            // Trailing garbage after the document is malformed JSON.
            de.end()
                .map_err(|e| ApiError::MalformedJson(e.to_string()))?;
            Ok(value)
        }
        Err(err) => {
            let mut pointer = pointer_of(err.path());
            let inner = err.into_inner();
            match inner.classify() {
                serde_json::error::Category::Data => {
                    let message = strip_position(&inner.to_string());
                    // serde reports a repeated or missing key from the object
                    // that holds it; the key itself is the field at fault.
                    if let Some(field) =
                        duplicate_field(&message).or_else(|| missing_field(&message))
                    {
                        pointer.push('/');
                        pointer.push_str(&escape_pointer(field));
                    }
                    Err(ApiError::Invalid(vec![FieldError::new(pointer, message)]))
                }
                _ => Err(ApiError::MalformedJson(inner.to_string())),
            }
        }
    }
}

/// The field named by serde's "missing field `x`" message.
fn missing_field(message: &str) -> Option<&str> {
    message.strip_prefix("missing field `")?.strip_suffix('`')
}

/// The field named by serde's "duplicate field `x`" message.
fn duplicate_field(message: &str) -> Option<&str> {
    message.strip_prefix("duplicate field `")?.strip_suffix('`')
}

fn escape_pointer(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("/{index}")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                out.push('/');
                out.push_str(&escape_pointer(key));
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

/// The message for a struct given as an array, at any depth.
pub const NOT_AN_ARRAY: &str = "expected a JSON object, not an array";

/// `T` read with every struct in it required to be a JSON object. serde's
/// derived structs also take an array of the field values in order (so
/// `{"rules": [true, false, true, true]}` would be rules), which no request
/// documents and no client means. This wraps the deserializer, and every
/// deserializer it hands on, so that a struct's visitor never sees an array.
struct ObjectsOnly<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ObjectsOnly<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize(Guard(deserializer)).map(ObjectsOnly)
    }
}

struct Guard<D>(D);

/// A visitor handing on guarded accessors; `object` refuses arrays.
struct Wrap<V> {
    inner: V,
    object: bool,
}

fn wrap<V>(inner: V) -> Wrap<V> {
    Wrap {
        inner,
        object: false,
    }
}

macro_rules! forward_deserialize {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            self.0.$method(wrap(visitor))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Guard<D> {
    type Error = D::Error;

    forward_deserialize!(
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier deserialize_ignored_any
    );

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, wrap(visitor))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_newtype_struct(name, wrap(visitor))
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, wrap(visitor))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple_struct(name, len, wrap(visitor))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let visitor = Wrap {
            inner: visitor,
            object: true,
        };
        self.0.deserialize_struct(name, fields, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_enum(name, variants, wrap(visitor))
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! forward_visit {
    ($($method:ident($ty:ty))*) => {$(
        fn $method<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
            self.inner.$method(v)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        self.inner.expecting(f)
    }

    forward_visit!(
        visit_bool(bool) visit_i8(i8) visit_i16(i16) visit_i32(i32) visit_i64(i64)
        visit_i128(i128) visit_u8(u8) visit_u16(u16) visit_u32(u32) visit_u64(u64)
        visit_u128(u128) visit_f32(f32) visit_f64(f64) visit_char(char) visit_str(&str)
        visit_borrowed_str(&'de str) visit_string(String) visit_bytes(&[u8])
        visit_borrowed_bytes(&'de [u8]) visit_byte_buf(Vec<u8>)
    );

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.inner.visit_some(Guard(d))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.inner.visit_newtype_struct(Guard(d))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        if self.object {
            return Err(de::Error::custom(NOT_AN_ARRAY));
        }
        self.inner.visit_seq(SeqGuard(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.inner.visit_map(MapGuard(map))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        self.inner.visit_enum(EnumGuard(data))
    }
}

struct SeedGuard<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for SeedGuard<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Guard(d))
    }
}

struct SeqGuard<A>(A);

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for SeqGuard<A> {
    type Error = A::Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        self.0.next_element_seed(SeedGuard(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

struct MapGuard<A>(A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for MapGuard<A> {
    type Error = A::Error;

    fn next_key_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        self.0.next_key_seed(SeedGuard(seed))
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        self.0.next_value_seed(SeedGuard(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

struct EnumGuard<A>(A);

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for EnumGuard<A> {
    type Error = A::Error;
    type Variant = VariantGuard<A::Variant>;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Self::Variant), A::Error> {
        let (value, variant) = self.0.variant_seed(SeedGuard(seed))?;
        Ok((value, VariantGuard(variant)))
    }
}

struct VariantGuard<A>(A);

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for VariantGuard<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, A::Error> {
        self.0.newtype_variant_seed(SeedGuard(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, wrap(visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let visitor = Wrap {
            inner: visitor,
            object: true,
        };
        self.0.struct_variant(fields, visitor)
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
    #[derive(Debug, serde::Deserialize, PartialEq)]
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

    fn invalid(body: &[u8]) -> (String, String) {
        match parse::<Req>(body) {
            Err(ApiError::Invalid(errors)) => {
                (errors[0].pointer.clone(), errors[0].message.clone())
            }
            other => panic!("{}: {other:?}", String::from_utf8_lossy(body)),
        }
    }

    #[test]
    fn a_duplicate_key_names_the_key() {
        assert_eq!(
            invalid(br#"{"hand": "33", "hand": "44"}"#),
            ("/hand".into(), "duplicate field `hand`".into())
        );
        assert_eq!(
            invalid(br#"{"hand": "3", "last": {"cards": [1], "cards": [2]}}"#),
            ("/last/cards".into(), "duplicate field `cards`".into())
        );
    }

    #[test]
    fn structs_are_objects_at_every_depth() {
        let not_an_array = ("".to_string(), NOT_AN_ARRAY.to_string());
        assert_eq!(invalid(br#"["33345"]"#), not_an_array);
        assert_eq!(invalid(br#" [ "33345", null ]"#), not_an_array);
        assert_eq!(
            invalid(br#"{"hand": "33", "last": [[1, 2]]}"#),
            ("/last".into(), NOT_AN_ARRAY.into())
        );
        // Arrays where the request has lists still read.
        let req = parse::<Req>(br#"{"hand": "33", "last": {"cards": [1, 2]}}"#).unwrap();
        assert_eq!(req.last.unwrap().cards, [1, 2]);
        #[derive(Debug, serde::Deserialize, PartialEq)]
        struct Tuples {
            point: (u8, u8),
            list: Vec<Option<Inner>>,
            kind: Kind,
        }
        #[derive(Debug, serde::Deserialize, PartialEq)]
        #[serde(rename_all = "snake_case")]
        enum Kind {
            Plain,
            Pair(u8, u8),
            Named { a: u8 },
        }
        let t = parse::<Tuples>(
            br#"{"point": [1, 2], "list": [null, {"cards": [3]}], "kind": "plain"}"#,
        )
        .unwrap();
        assert_eq!(t.point, (1, 2));
        assert_eq!(t.list[1].as_ref().unwrap().cards, [3]);
        let t =
            parse::<Tuples>(br#"{"point": [1, 2], "list": [], "kind": {"pair": [1, 2]}}"#).unwrap();
        assert_eq!(t.kind, Kind::Pair(1, 2));
        let t = parse::<Tuples>(br#"{"point": [1, 2], "list": [], "kind": {"named": {"a": 1}}}"#)
            .unwrap();
        assert_eq!(t.kind, Kind::Named { a: 1 });
        for (body, pointer) in [
            (
                &br#"{"point": [1, 2], "list": [[[4]]], "kind": "plain"}"#[..],
                "/list/0",
            ),
            (
                br#"{"point": [1, 2], "list": [], "kind": {"named": [1]}}"#,
                "/kind/named",
            ),
        ] {
            match parse::<Tuples>(body) {
                Err(ApiError::Invalid(e)) => {
                    assert_eq!(
                        (e[0].pointer.as_str(), e[0].message.as_str()),
                        (pointer, NOT_AN_ARRAY)
                    )
                }
                other => panic!("{other:?}"),
            }
        }
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
