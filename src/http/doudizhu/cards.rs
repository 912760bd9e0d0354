//! Cards in requests: a card string or a DouZero list, parsed into hands
//! and plays with the offending field named.

use serde::Deserialize;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, Type};

use crate::doudizhu::{self, CardError, Combo, Hand, Rules};
use crate::http::error::{ApiError, FieldError};
use crate::http::string_or_list::{Expecting, StringOrList};

/// Most cards one hand can hold (the landlord's 17 + 3).
pub use crate::doudizhu::endgame::MAX_HAND;

/// Cards: a string over `3456789TJQKA2BR` (B = black joker, R = red joker),
/// any order and case, `10` for `T`, spaces and commas ignored; or a list of
/// DouZero integers (3–14 for 3…A, 17 for 2, 20 black joker, 30 red joker).
#[derive(Debug, Clone)]
pub enum CardsInput {
    Text(String),
    DouZero(Vec<i64>),
}

impl<'de> Deserialize<'de> for CardsInput {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(
            match StringOrList::<DouZeroCard>::deserialize(deserializer)? {
                StringOrList::Text(s) => CardsInput::Text(s),
                StringOrList::List(cards) => {
                    CardsInput::DouZero(cards.into_iter().map(|c| c.0).collect())
                }
            },
        )
    }
}

impl Expecting for DouZeroCard {
    const EXPECTING: &'static str =
        "a card string such as \"33455TJ2BR\" or a list of DouZero card integers";
}

/// One element of a DouZero list: one of [`DOUZERO_CARDS`], anything else an
/// error naming the value.
struct DouZeroCard(i64);

impl<'de> Deserialize<'de> for DouZeroCard {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CardVisitor;
        fn not_a_card<E: serde::de::Error>(shown: impl std::fmt::Display) -> E {
            E::custom(format!(
                "{shown} is not a card (DouZero cards are 3-14, 17, 20 and 30)"
            ))
        }
        impl<'de> serde::de::Visitor<'de> for CardVisitor {
            type Value = DouZeroCard;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a DouZero card integer (3-14, 17, 20 or 30)")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<DouZeroCard, E> {
                if DOUZERO_CARDS.contains(&v) {
                    Ok(DouZeroCard(v))
                } else {
                    Err(not_a_card(v))
                }
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<DouZeroCard, E> {
                match i64::try_from(v) {
                    Ok(v) => self.visit_i64(v),
                    Err(_) => Err(not_a_card(v)),
                }
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<DouZeroCard, E> {
                // JSON numbers beyond u64, and fractions, arrive as floats;
                // a huge one is shown short (1e300, not 301 digits).
                if v.abs() < 1e16 {
                    Err(not_a_card(v))
                } else {
                    Err(not_a_card(format_args!("{v:e}")))
                }
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<DouZeroCard, E> {
                let shown: String = s.chars().take(20).collect();
                Err(E::custom(format!(
                    "\"{shown}\" is not a card: a list holds DouZero integers (a card string is one string)"
                )))
            }
        }
        deserializer.deserialize_any(CardVisitor)
    }
}

/// Characters a card string may hold (the count limits are checked after).
const CARDS_PATTERN: &str = r"^([3-9TJQKA2BRtjqkabr ,]|10)*$";
/// DouZero's card integers.
const DOUZERO_CARDS: [i64; 15] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30];

impl utoipa::PartialSchema for CardsInput {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .description(Some(
                "Cards: a string over 3456789TJQKA2BR (B black joker, R red joker), any order \
                 and case, 10 for T, spaces and commas ignored; or DouZero integers (3-14 for \
                 3..A, 17 for 2, 20 black joker, 30 red joker). \"\" is the pass.",
            ))
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .pattern(Some(CARDS_PATTERN))
                    .max_length(Some(120))
                    .examples(["33455TJ2BR"]),
            )
            .item(
                ArrayBuilder::new()
                    .items(
                        ObjectBuilder::new()
                            .schema_type(Type::Integer)
                            .enum_values(Some(DOUZERO_CARDS)),
                    )
                    .max_items(Some(54))
                    .examples([serde_json::json!([3, 3, 4, 17, 30])]),
            )
            .into()
    }
}

impl utoipa::ToSchema for CardsInput {}

impl CardsInput {
    /// Parses into a hand, naming the offending card by pointer on failure.
    pub fn parse(&self, pointer: &str) -> Result<Hand, ApiError> {
        let result = match self {
            CardsInput::Text(s) => Hand::parse_str(s),
            CardsInput::DouZero(v) => Hand::from_douzero(v),
        };
        result.map_err(|e| {
            // For lists, point at the offending element itself.
            let at = match (&e, self) {
                (
                    CardError::UnknownCard { index, .. }
                    | CardError::TooManyOfRank { index, .. }
                    | CardError::DuplicateJoker { index, .. },
                    CardsInput::DouZero(_),
                ) => format!("{pointer}/{index}"),
                _ => pointer.to_string(),
            };
            ApiError::field(at, e.to_string())
        })
    }

    /// A hand of 1 to 20 cards.
    pub fn parse_hand(&self, pointer: &str) -> Result<Hand, ApiError> {
        let hand = self.parse(pointer)?;
        if hand.is_empty() {
            return Err(ApiError::field(pointer, "the hand is empty"));
        }
        hand.check_max_len(MAX_HAND)
            .map_err(|e| ApiError::field(pointer, e.to_string()))
    }
}

/// Classifies a play that must be a legal combination under `rules` (the
/// empty play is the pass).
pub fn parse_play(input: &CardsInput, pointer: &str, rules: &Rules) -> Result<Combo, ApiError> {
    let cards = input.parse(pointer)?;
    doudizhu::classify(cards, rules).ok_or_else(|| {
        ApiError::field(
            pointer,
            format!("{cards} is not a legal combination under the rules in force"),
        )
    })
}

/// Checks that `parts` together fit in one deck (4 per rank, 1 per joker);
/// the error names the first part that overflows.
pub fn check_deck(parts: &[(&str, Hand)]) -> Result<(), ApiError> {
    let mut total = [0u8; 15];
    for (pointer, hand) in parts {
        for (t, c) in total.iter_mut().zip(hand.counts()) {
            *t += c;
        }
        if let Err(e) = Hand::from_counts(&total) {
            let what = match e {
                CardError::TooManyOfRank { rank, .. } => {
                    format!("more than four cards of rank {rank} in all")
                }
                CardError::DuplicateJoker { rank, .. } => {
                    format!("the joker {rank} appears more than once in all")
                }
                other => other.to_string(),
            };
            return Err(ApiError::Invalid(vec![FieldError::new(*pointer, what)]));
        }
    }
    Ok(())
}
