//! The optional combination rules a request may switch off.

use serde::Deserialize;
use utoipa::ToSchema;

use crate::doudizhu::Rules;

/// Optional rules, each on unless set to false (the DouZero/RLCard standard).
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, default)]
pub struct RulesInput {
    /// Trio with one single, and planes with single wings.
    pub trio_solo: bool,
    /// Trio with a pair, and planes with pair wings.
    pub trio_pair: bool,
    /// Four of a kind with two singles.
    pub four_two_solo: bool,
    /// Four of a kind with two pairs.
    pub four_two_pair: bool,
}

impl Default for RulesInput {
    fn default() -> Self {
        let r = Rules::default();
        RulesInput {
            trio_solo: r.trio_solo,
            trio_pair: r.trio_pair,
            four_two_solo: r.four_two_solo,
            four_two_pair: r.four_two_pair,
        }
    }
}

impl From<RulesInput> for Rules {
    fn from(r: RulesInput) -> Rules {
        Rules {
            trio_solo: r.trio_solo,
            trio_pair: r.trio_pair,
            four_two_solo: r.four_two_solo,
            four_two_pair: r.four_two_pair,
        }
    }
}
