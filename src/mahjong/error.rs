//! Why a hand or its context is not a position of the game, each error naming
//! the input [`Field`] it concerns, and the bounds on every input list.

use super::tiles::{Tile, TileError};
use super::{parse_mjai, parse_tiles};

/// The input an error refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The concealed hand.
    Hand,
    /// The drawn tile.
    Drawn,
    /// The list of melds as a whole.
    MeldList,
    /// The tiles of meld `i`.
    Melds(usize),
    /// The tiles visible outside the hand.
    Visible,
    /// The seat's own discards.
    OwnDiscards,
    /// The dora indicators.
    DoraIndicators,
    /// The flowers and seasons.
    Flowers,
    /// The discarded tile a claim faces.
    Tile,
    /// The fan a win needs.
    MinFan,
}

/// Why a hand or its context is not a position of the game, each naming the
/// input [`Field`] it concerns ([`MahjongError::field`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[allow(missing_docs)] // the fields are the message's words
pub enum MahjongError {
    /// A tile name does not parse.
    #[error("{source}")]
    BadTile { field: Field, source: TileError },
    /// The tile at `index` of the list is not in the variant's set.
    #[error("tile {index} ({tile}) does not exist in this variant")]
    NotInVariant {
        field: Field,
        index: usize,
        tile: String,
    },
    /// A fifth copy of a kind.
    #[error("more than 4 copies of {tile} across hand, melds and visible")]
    TooManyCopies { field: Field, tile: String },
    /// A second red five of a suit.
    #[error("a second red five {tile} across hand, melds and visible (one red five per suit)")]
    TooManyRedFives { field: Field, tile: String },
    /// A list longer than the rules allow.
    #[error("at most {max} tiles ({why})")]
    TooManyTiles {
        field: Field,
        max: usize,
        why: &'static str,
    },
    /// The hand does not hold 14 (own turn) or 13 (claim) tiles less three per meld.
    #[error("expected {expected} tiles for {melds} melds, got {got}")]
    WrongHandSize {
        expected: usize,
        got: usize,
        melds: usize,
    },
    /// A meld's tiles do not make its kind (or the variant forbids it).
    #[error("not a valid {kind}")]
    InvalidMeld { field: Field, kind: &'static str },
    /// More than four melds.
    #[error("at most 4 melds")]
    TooManyMelds,
    /// `drawn` is not one of the hand's tiles.
    #[error("the drawn tile is not in the hand")]
    DrawnNotInHand,
    /// A flower twice, or flowers in a variant without them.
    #[error("duplicate or unsupported bonus tile")]
    BadFlowers,
    /// `min_fan` above 13.
    #[error("must be 0..=13")]
    BadMinFan,
    /// An own discard that `visible` does not hold.
    #[error("{tile} is listed more often than `visible` holds it (own discards are visible tiles)")]
    OwnDiscardNotVisible { tile: String },
}

impl MahjongError {
    /// The input the error concerns.
    pub fn field(&self) -> Field {
        match self {
            Self::BadTile { field, .. }
            | Self::NotInVariant { field, .. }
            | Self::TooManyCopies { field, .. }
            | Self::TooManyRedFives { field, .. }
            | Self::TooManyTiles { field, .. }
            | Self::InvalidMeld { field, .. } => *field,
            Self::WrongHandSize { .. } => Field::Hand,
            Self::TooManyMelds => Field::MeldList,
            Self::DrawnNotInHand => Field::Drawn,
            Self::BadFlowers => Field::Flowers,
            Self::BadMinFan => Field::MinFan,
            Self::OwnDiscardNotVisible { .. } => Field::OwnDiscards,
        }
    }
}

/// Most tiles a list of `field` may hold, and the rule that says so (`None`
/// for fields that aren't lists). The HTTP layer checks these before parsing,
/// so that a huge list costs nothing; the contexts' constructors check them
/// again for other callers.
pub fn max_tiles(field: Field) -> Option<(usize, &'static str)> {
    Some(match field {
        Field::Hand => (14, "13 tiles and a drawn one"),
        Field::Melds(_) => (4, "a meld is a chow, a pung or a kong"),
        Field::Visible => (136, "the set has 136 tiles"),
        // A seat discards once per draw and once per chow or pung. Between
        // two of its draws the other three draw unless a call skips them
        // (twelve calls at most), so Riichi's 70-tile live wall gives a seat
        // at most 27 draws; kong replacement draws and its own calls (four
        // melds) add at most 8: 35. Hong Kong's longer wall gives a few more.
        Field::OwnDiscards => (40, "no seat discards more in one hand"),
        Field::DoraIndicators => (5, "the first indicator and four kan dora"),
        Field::Flowers => (8, "four flowers and four seasons"),
        Field::Drawn | Field::Tile | Field::MinFan | Field::MeldList => return None,
    })
}

/// Checks a list of `len` tiles for `field` against [`max_tiles`].
pub fn check_list_len(field: Field, len: usize) -> Result<(), MahjongError> {
    match max_tiles(field) {
        Some((max, why)) if len > max => Err(MahjongError::TooManyTiles { field, max, why }),
        _ => Ok(()),
    }
}

/// Parses a tile list for `field`, mapping errors to it.
pub fn parse_field(field: Field, tenhou: &str) -> Result<Vec<Tile>, MahjongError> {
    parse_tiles(tenhou).map_err(|source| MahjongError::BadTile { field, source })
}

/// Parses an mjai list for `field`.
pub fn parse_field_mjai<S: AsRef<str>>(
    field: Field,
    names: &[S],
) -> Result<Vec<Tile>, MahjongError> {
    parse_mjai(names).map_err(|source| MahjongError::BadTile { field, source })
}
