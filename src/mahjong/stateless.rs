//! A Riichi table from a stateless request: the caller's view of the table as fields
//! instead of an event log, decided by the same bot as the mjai route.
//!
//! The seat is 0; the others are numbered in turn order: 1 plays right after the seat
//! (right), 2 across, 3 right before it (left). Without a river the order of discards is
//! unknown; with one, it is the order the caller lists. Tiles the river, the melds and
//! the dora indicators account for are not counted again from `visible`.

use super::HandSetup;
use super::table::{LIVE_WALL, RiverTile, Table, Turn, kuikae_kinds};
use super::tiles::{Meld, MeldKind, Tile, TileCounts};

/// One discard in the caller's river.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RiverEntry {
    /// Who discarded it: 0 the seat, 1 right, 2 across, 3 left.
    pub seat: u8,
    /// The discarded tile.
    pub tile: Tile,
    /// Discarded straight from the draw.
    pub tsumogiri: bool,
    /// The seat declared riichi with this discard.
    pub riichi: bool,
    /// Another seat called this tile.
    pub called: bool,
}

/// What a stateless request may say about the table beyond the seat's own hand.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableFields {
    /// Every discard in the order made, all seats; empty when the caller gives none.
    pub river: Vec<RiverEntry>,
    /// Melds of seats 1, 2 and 3.
    pub opponent_melds: [Vec<Meld>; 3],
    /// Scores of seats 0-3.
    pub scores: Option<[i32; 4]>,
    /// Tiles left in the live wall.
    pub wall: Option<u8>,
    /// Repeat counters on the table.
    pub honba: u32,
    /// Riichi sticks on the table.
    pub kyotaku: u32,
    /// The tile the seat just called to form its last meld (kuikae).
    pub called_tile: Option<Tile>,
}

/// What the seat is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// Its own turn after a draw (`ctx.drawn`) or a call.
    OwnTurn,
    /// Seat `from` discarded `tile`.
    Discard {
        /// The discarded tile.
        tile: Tile,
        /// The seat that discarded it (1 right, 2 across, 3 left).
        from: u8,
    },
}

/// Table fields that do not describe a possible table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableFieldError {
    /// River entry `index` declares riichi for a seat that already did.
    #[error("a seat declares riichi once")]
    RiichiTwice {
        /// Position of the entry in `river`.
        index: usize,
    },
    /// `wall` is too large: a tile has been drawn, so fewer than [`LIVE_WALL`] are left.
    #[error("at most {max} tiles")]
    WallTooLarge {
        /// The largest `wall` allowed, [`LIVE_WALL`] − 1.
        max: u8,
    },
    /// `called_tile` is given, but the seat's last meld is missing or concealed.
    #[error("the seat has no open meld")]
    CalledTileWithoutOpenMeld,
    /// `called_tile` is not among the tiles of the seat's last meld.
    #[error("not in the seat's last meld")]
    CalledTileNotInLastMeld,
    /// The hand, melds, river and indicators together hold impossible counts.
    #[error("{0}")]
    TileCounts(String),
}

/// Builds the table for a checked hand (a [`DiscardContext`](super::DiscardContext) or a
/// [`ClaimContext`](super::ClaimContext), which read as their [`HandSetup`]) and its table fields.
pub fn table_from(
    ctx: &HandSetup,
    fields: &TableFields,
    question: Question,
) -> Result<Table, TableFieldError> {
    let mut t = Table::new(0);
    t.begin_hand();
    t.round_wind = ctx.round_wind.kind();
    // The bot sits at seat 0; the dealer is East.
    t.dealer = (4 - ctx.seat_wind as u8) % 4;
    t.scores = fields.scores.unwrap_or([25_000; 4]);
    t.honba = fields.honba;
    t.kyotaku = fields.kyotaku;
    t.dora_indicators = ctx.dora_indicators.clone();
    t.hand = ctx.hand.clone();
    t.seats[0].melds = ctx.melds.clone();
    for (i, melds) in fields.opponent_melds.iter().enumerate() {
        t.seats[i + 1].melds = melds.clone();
    }
    // Own discards the river does not list still count for furiten.
    if !fields.river.iter().any(|r| r.seat == 0) {
        t.river
            .extend(ctx.own_discards.iter().map(|&tile| RiverTile {
                seat: 0,
                tile,
                tsumogiri: false,
                called: false,
            }));
    }
    for (i, r) in fields.river.iter().enumerate() {
        if r.riichi {
            let s = &mut t.seats[r.seat as usize];
            if s.riichi.is_some() {
                return Err(TableFieldError::RiichiTwice { index: i });
            }
            s.riichi = Some(t.river.len());
            s.riichi_accepted = true;
        }
        t.river.push(RiverTile {
            seat: r.seat,
            tile: r.tile,
            tsumogiri: r.tsumogiri,
            called: r.called,
        });
    }
    if ctx.riichi_declared && t.seats[0].riichi.is_none() {
        t.seats[0].riichi = Some(0);
        t.seats[0].riichi_accepted = true;
    }
    // The seat's own first go-around (tenhou, chiihou, double riichi) also
    // needs nothing seen yet beyond the dora indicators, when the caller
    // gives no river.
    let nothing_seen = ctx.own_discards.is_empty()
        && ctx.visible.len() <= ctx.dora_indicators.len()
        && ctx.melds.is_empty();
    for (seat, s) in t.seats.iter_mut().enumerate() {
        let discards = t.river.iter().filter(|r| r.seat as usize == seat).count();
        s.first_turn = discards == 0 && (seat != 0 || nothing_seen);
        s.concealed = 13 - 3 * s.melds.len().min(4) as u8;
    }
    t.any_call = t.seats.iter().any(|s| !s.melds.is_empty());
    let wall = fields.wall.unwrap_or_else(|| {
        let discards = u8::try_from(t.river.len()).unwrap_or(u8::MAX);
        LIVE_WALL.saturating_sub(discards.saturating_add(1))
    });
    if wall >= LIVE_WALL {
        return Err(TableFieldError::WallTooLarge { max: LIVE_WALL - 1 });
    }
    t.draws = LIVE_WALL - wall;
    t.missed_win = ctx.furiten;
    t.riichi_furiten = ctx.furiten && ctx.riichi_declared;
    if let Some(called) = fields.called_tile {
        let Some(last) = ctx.melds.last().filter(|m| m.kind.is_open()) else {
            return Err(TableFieldError::CalledTileWithoutOpenMeld);
        };
        let Some(pos) = last.tiles.iter().position(|x| x.index == called.index) else {
            return Err(TableFieldError::CalledTileNotInLastMeld);
        };
        t.kuikae = if last.kind == MeldKind::Chow {
            let own: Vec<u8> = (0..3)
                .filter(|&i| i != pos)
                .map(|i| last.tiles[i].index)
                .collect();
            kuikae_kinds(called.index, [own[0], own[1]])
        } else {
            vec![called.index]
        };
    }
    t.turn = match question {
        Question::OwnTurn => {
            t.seats[0].concealed += 1;
            // Without `drawn`, the last hand tile was drawn, unless the seat just called.
            let drawn = match fields.called_tile {
                Some(_) => ctx.drawn,
                None => ctx.drawn.or(ctx.hand.last().copied()),
            };
            Turn::Act {
                seat: 0,
                drawn,
                rinshan: false,
                after_call: fields.called_tile.is_some(),
            }
        }
        Question::Discard { tile, from } => {
            let listed = t
                .river
                .last()
                .is_some_and(|r| r.seat == from && r.tile == tile);
            if !listed {
                t.river.push(RiverTile {
                    seat: from,
                    tile,
                    tsumogiri: false,
                    called: false,
                });
            }
            Turn::Discarded { seat: from }
        }
    };
    t.extra_visible = extra_visible(ctx, &t);
    t.check_tile_counts()
        .map_err(|e| TableFieldError::TileCounts(e.message))?;
    Ok(t)
}

/// `visible` less what the table already shows (the caller may list it or not).
fn extra_visible(ctx: &HandSetup, t: &Table) -> TileCounts {
    let mut shown = TileCounts::default();
    for r in t.river.iter().filter(|r| !r.called) {
        shown.add(r.tile.index);
    }
    for s in &t.seats[1..] {
        for m in &s.melds {
            for x in &m.tiles {
                shown.add(x.index);
            }
        }
    }
    for x in &t.dora_indicators {
        shown.add(x.index);
    }
    let mut extra = TileCounts::default();
    for (k, n) in ctx.visible_counts().kinds() {
        for _ in shown.get(k)..n {
            extra.add(k);
        }
    }
    extra
}
