//! The seat's hand and what it sees, checked before any decision.
//!
//! A caller fills a [`HandSetup`] (plain fields, nothing checked) and turns it
//! into a [`DiscardContext`] for its own turn or a [`ClaimContext`] for another
//! seat's discard. Both constructors check the whole setup against the rules of
//! its variant and return a typed [`MahjongError`], so the deciding code never
//! meets an impossible hand.

use std::ops::Deref;

use super::error::{MahjongError, check_list_len};
use super::tiles::{Flower, KINDS, Meld, MeldKind, Tile, TileCounts, Variant, Wind};
use super::{Discarder, Field, Strategy};

/// Everything the bot knows at a decision, as the caller gives it: nothing is
/// checked until it becomes a [`DiscardContext`] or a [`ClaimContext`].
#[derive(Debug, Clone)]
pub struct HandSetup {
    /// The rule set.
    pub variant: Variant,
    /// Hong Kong: the fan a win needs (0 to 13; 3 unless set).
    pub min_fan: u8,
    /// Red Dragon: the points a win needs.
    pub min_score: u32,
    /// Concealed tiles (own turn: incl. the drawn tile, 14 − 3 × melds; claim: 13 − 3 × melds).
    pub hand: Vec<Tile>,
    /// The tile just drawn (one of `hand`), if the caller says which.
    pub drawn: Option<Tile>,
    /// The seat's own melds, called or concealed kongs.
    pub melds: Vec<Meld>,
    /// Every tile visible outside the own hand (discards, others' melds, dora indicators).
    pub visible: Vec<Tile>,
    /// The seat's wind.
    pub seat_wind: Wind,
    /// The round's wind.
    pub round_wind: Wind,
    /// Riichi: the dora indicators shown.
    pub dora_indicators: Vec<Tile>,
    /// Hong Kong: the flowers and seasons the seat has set aside.
    pub flowers: Vec<Flower>,
    /// Riichi: the seat has declared riichi.
    pub riichi_declared: bool,
    /// Riichi: the bot's own discards this hand (also part of `visible`), for
    /// discard furiten.
    pub own_discards: Vec<Tile>,
    /// Riichi: the caller says the bot is in temporary or riichi furiten (it
    /// let a winning tile pass since its last discard, or at all since riichi),
    /// which only the game's history shows.
    pub furiten: bool,
    /// The discard policy.
    pub strategy: Strategy,
}

impl HandSetup {
    /// A setup with defaults: East seat and round, classic strategy, 3 fan in
    /// Hong Kong and no minimum elsewhere, nothing visible.
    pub fn new(variant: Variant, hand: Vec<Tile>) -> Self {
        Self {
            variant,
            min_fan: if variant == Variant::HongKong { 3 } else { 0 },
            min_score: 0,
            hand,
            drawn: None,
            melds: Vec::new(),
            visible: Vec::new(),
            seat_wind: Wind::East,
            round_wind: Wind::East,
            dora_indicators: Vec::new(),
            flowers: Vec::new(),
            riichi_declared: false,
            own_discards: Vec::new(),
            furiten: false,
            strategy: Strategy::Classic,
        }
    }
    /// Counts of the concealed tiles.
    pub fn concealed(&self) -> TileCounts {
        TileCounts::from_tiles(&self.hand)
    }
    /// Hand + own melds + visible.
    pub fn seen(&self) -> TileCounts {
        let mut c = self.concealed();
        for m in &self.melds {
            for t in &m.tiles {
                c.add(t.index);
            }
        }
        for t in &self.visible {
            c.add(t.index);
        }
        c
    }
    /// Counts of the visible tiles.
    pub fn visible_counts(&self) -> TileCounts {
        TileCounts::from_tiles(&self.visible)
    }
    /// Whether any own meld was called (a concealed kong keeps the hand closed).
    pub fn has_open_meld(&self) -> bool {
        self.melds.iter().any(|m| m.kind.is_open())
    }
}

/// A checked hand on the seat's own turn: 14 − 3 × melds concealed tiles, every
/// tile of the variant, no kind more than four times across hand, melds and
/// visible, the melds real melds. Read its fields through [`HandSetup`].
#[derive(Debug, Clone)]
pub struct DiscardContext(HandSetup);

impl DiscardContext {
    /// Checks `setup` for the seat's own turn.
    pub fn for_turn(setup: HandSetup) -> Result<Self, MahjongError> {
        check(&setup, 14, None)?;
        Ok(Self(setup))
    }

    /// For engine code whose state is already a position of the game (the
    /// Riichi table bot's own seat); checked in debug builds.
    pub(crate) fn trusted(setup: HandSetup) -> Self {
        debug_assert_eq!(check(&setup, 14, None), Ok(()), "{setup:?}");
        Self(setup)
    }

    /// The setup it was built from.
    pub fn into_setup(self) -> HandSetup {
        self.0
    }
}

impl Deref for DiscardContext {
    type Target = HandSetup;
    fn deref(&self) -> &HandSetup {
        &self.0
    }
}

/// A checked hand facing another seat's discard: 13 − 3 × melds concealed
/// tiles and the discarded tile, checked together as [`DiscardContext`] checks
/// an own turn.
#[derive(Debug, Clone)]
pub struct ClaimContext {
    setup: HandSetup,
    tile: Tile,
    from: Discarder,
}

impl ClaimContext {
    /// Checks `setup` facing `tile`, discarded by `from`.
    pub fn new(setup: HandSetup, tile: Tile, from: Discarder) -> Result<Self, MahjongError> {
        check(&setup, 13, Some(tile))?;
        Ok(Self { setup, tile, from })
    }

    /// As [`DiscardContext::trusted`].
    pub(crate) fn trusted(setup: HandSetup, tile: Tile, from: Discarder) -> Self {
        debug_assert_eq!(check(&setup, 13, Some(tile)), Ok(()), "{setup:?}");
        Self { setup, tile, from }
    }

    /// The discarded tile.
    pub fn tile(&self) -> Tile {
        self.tile
    }

    /// Who discarded it.
    pub fn from(&self) -> Discarder {
        self.from
    }
}

impl Deref for ClaimContext {
    type Target = HandSetup;
    fn deref(&self) -> &HandSetup {
        &self.setup
    }
}

fn check_variant(variant: Variant, field: Field, tiles: &[Tile]) -> Result<(), MahjongError> {
    for (index, t) in tiles.iter().enumerate() {
        if !variant.has_kind(t.index) || (t.red && !variant.has_red_fives()) {
            return Err(MahjongError::NotInVariant {
                field,
                index,
                tile: t.to_string(),
            });
        }
    }
    Ok(())
}

/// Every rule a setup must meet, for a hand of `hand_size` − 3 × melds tiles
/// and the discarded tile `extra` if it faces one.
fn check(ctx: &HandSetup, hand_size: usize, extra: Option<Tile>) -> Result<(), MahjongError> {
    let v = ctx.variant;
    if ctx.min_fan > 13 {
        return Err(MahjongError::BadMinFan);
    }
    // Bounds first: everything below is linear or worse in these lengths.
    check_list_len(Field::Hand, ctx.hand.len())?;
    if ctx.melds.len() > 4 {
        return Err(MahjongError::TooManyMelds);
    }
    for (i, m) in ctx.melds.iter().enumerate() {
        check_list_len(Field::Melds(i), m.tiles.len())?;
    }
    check_list_len(Field::Visible, ctx.visible.len())?;
    check_list_len(Field::OwnDiscards, ctx.own_discards.len())?;
    check_list_len(Field::DoraIndicators, ctx.dora_indicators.len())?;
    check_list_len(Field::Flowers, ctx.flowers.len())?;
    check_variant(v, Field::Hand, &ctx.hand)?;
    if let Some(d) = ctx.drawn {
        check_variant(v, Field::Drawn, &[d])?;
    }
    for (i, m) in ctx.melds.iter().enumerate() {
        check_variant(v, Field::Melds(i), &m.tiles)?;
        let wild_in_meld = v
            .wildcard()
            .is_some_and(|w| m.tiles.iter().any(|t| t.index == w));
        let chow_illegal = m.kind == MeldKind::Chow && !v.has_chow();
        if !m.is_valid(None) || wild_in_meld || chow_illegal {
            let kind = match m.kind {
                MeldKind::Chow => "chow",
                MeldKind::Pung => "pung",
                MeldKind::Kong => "kong",
                MeldKind::ConcealedKong => "concealed_kong",
            };
            return Err(MahjongError::InvalidMeld {
                field: Field::Melds(i),
                kind,
            });
        }
    }
    check_variant(v, Field::Visible, &ctx.visible)?;
    check_variant(v, Field::DoraIndicators, &ctx.dora_indicators)?;
    check_variant(v, Field::OwnDiscards, &ctx.own_discards)?;
    if let Some(t) = extra {
        check_variant(v, Field::Tile, &[t])?;
    }
    if !ctx.flowers.is_empty() && !v.has_flowers() {
        return Err(MahjongError::BadFlowers);
    }
    for (i, f) in ctx.flowers.iter().enumerate() {
        if ctx.flowers[..i].contains(f) {
            return Err(MahjongError::BadFlowers);
        }
    }
    let expected = hand_size.saturating_sub(3 * ctx.melds.len());
    if ctx.hand.len() != expected {
        return Err(MahjongError::WrongHandSize {
            expected,
            got: ctx.hand.len(),
            melds: ctx.melds.len(),
        });
    }
    if let Some(d) = ctx.drawn
        && !ctx.hand.iter().any(|t| t.index == d.index)
    {
        return Err(MahjongError::DrawnNotInHand);
    }
    // copies: hand, melds, visible, claimed tile; red fives at most one per suit
    let mut counts = [0u8; KINDS];
    let mut reds = [0u8; 3];
    let mut groups: Vec<(Field, &[Tile])> = vec![(Field::Hand, &ctx.hand)];
    for (i, m) in ctx.melds.iter().enumerate() {
        groups.push((Field::Melds(i), &m.tiles));
    }
    groups.push((Field::Visible, &ctx.visible));
    let extra_slice: Vec<Tile> = extra.into_iter().collect();
    groups.push((Field::Tile, &extra_slice));
    for (field, tiles) in groups {
        for t in tiles {
            counts[t.index as usize] += 1;
            if t.red {
                reds[t.suit() as usize] += 1;
            }
            if t.red && reds[t.suit() as usize] > 1 {
                return Err(MahjongError::TooManyRedFives {
                    field,
                    tile: t.to_string(),
                });
            }
            if counts[t.index as usize] > 4 {
                return Err(MahjongError::TooManyCopies {
                    field,
                    tile: t.kind_name(),
                });
            }
        }
    }
    // Own discards are visible tiles: each one uses up a copy in `visible`
    // (at most four of a kind by now; counted down, so nothing can wrap).
    let mut unmatched = ctx.visible_counts();
    for t in &ctx.own_discards {
        let n = &mut unmatched.0[t.index as usize];
        *n = n
            .checked_sub(1)
            .ok_or_else(|| MahjongError::OwnDiscardNotVisible {
                tile: t.kind_name(),
            })?;
    }
    Ok(())
}
