//! Request fields that are either one string or a list (cards as
//! `"33455"` or DouZero integers; tiles as a tenhou string or mjai names).
//!
//! Read by hand rather than with serde's `untagged`, which buffers the value
//! and, when neither form fits, can only say "did not match any variant": here
//! a bad list element fails at its own pointer (`/hand/3`) with its own reason.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, Error, SeqAccess, Visitor};

/// One string or a list of `T`.
#[derive(Debug, Clone, PartialEq)]
pub enum StringOrList<T> {
    Text(String),
    List(Vec<T>),
}

/// What a field expects, for the message when it is neither a string nor a list.
pub trait Expecting {
    const EXPECTING: &'static str;
}

impl<'de, T: Deserialize<'de> + Expecting> Deserialize<'de> for StringOrList<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Either<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de> + Expecting> Visitor<'de> for Either<T> {
            type Value = StringOrList<T>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(T::EXPECTING)
            }

            fn visit_str<E: Error>(self, s: &str) -> Result<Self::Value, E> {
                Ok(StringOrList::Text(s.to_string()))
            }

            fn visit_string<E: Error>(self, s: String) -> Result<Self::Value, E> {
                Ok(StringOrList::Text(s))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(StringOrList::List(items))
            }
        }

        deserializer.deserialize_any(Either(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct Small(u8);

    impl Expecting for Small {
        const EXPECTING: &'static str = "a word or a list of small numbers";
    }

    impl<'de> Deserialize<'de> for Small {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let n = u64::deserialize(d)?;
            u8::try_from(n)
                .map(Small)
                .map_err(|_| D::Error::custom(format!("{n} is too big")))
        }
    }

    #[test]
    fn reads_either_form_and_names_the_bad_element() {
        let text: StringOrList<Small> = serde_json::from_str(r#""abc""#).unwrap();
        assert_eq!(text, StringOrList::Text("abc".into()));
        let list: StringOrList<Small> = serde_json::from_str("[1, 2]").unwrap();
        assert_eq!(list, StringOrList::List(vec![Small(1), Small(2)]));
        let bad = crate::http::extract::parse::<Wrapper>(br#"{"v": [1, 999]}"#).unwrap_err();
        match bad {
            crate::http::error::ApiError::Invalid(e) => {
                assert_eq!(e[0].pointer, "/v/1");
                assert_eq!(e[0].message, "999 is too big");
            }
            other => panic!("{other:?}"),
        }
        let neither = serde_json::from_str::<StringOrList<Small>>("5").unwrap_err();
        assert!(
            neither.to_string().contains("a word or a list"),
            "{neither}"
        );
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Wrapper {
        v: StringOrList<Small>,
    }
}
