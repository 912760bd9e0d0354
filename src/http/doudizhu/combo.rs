//! Plays in responses: a combination's cards, type, rank and length.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};

use crate::doudizhu::{Combo, ComboType};

/// A combination type by RLCard's name (`solo`, `trio_solo_chain`, `pass`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ComboTypeName(pub ComboType);

impl From<ComboType> for ComboTypeName {
    fn from(k: ComboType) -> Self {
        ComboTypeName(k)
    }
}

impl Serialize for ComboTypeName {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.as_str())
    }
}

impl<'de> Deserialize<'de> for ComboTypeName {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        ComboType::from_name(&name)
            .map(ComboTypeName)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown combination type `{name}`")))
    }
}

impl utoipa::PartialSchema for ComboTypeName {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(ComboType::ALL.map(ComboType::as_str)))
            .description(Some("Combination type (RLCard's names)"))
            .into()
    }
}

impl utoipa::ToSchema for ComboTypeName {}

/// One play.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MoveOut {
    /// The cards, canonical (ascending rank order); `""` for the pass.
    #[schema(example = "333J")]
    pub cards: String,
    #[serde(rename = "type")]
    pub kind: ComboTypeName,
    /// Main rank: the lowest rank of the body (a chain's first rank, a trio's
    /// or four's own rank); `""` for the pass.
    #[schema(example = "3")]
    pub rank: String,
    /// Consecutive body ranks: the chain or plane length, 1 otherwise, 0 for the pass.
    #[schema(example = 1)]
    pub length: u8,
}

impl From<&Combo> for MoveOut {
    fn from(c: &Combo) -> Self {
        MoveOut {
            cards: c.cards.to_string(),
            kind: c.kind.into(),
            rank: if c.is_pass() {
                String::new()
            } else {
                c.rank.to_string()
            },
            length: c.length,
        }
    }
}
