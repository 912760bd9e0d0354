//! Defence model for Riichi mahjong: how dangerous each tile kind is against each opponent.
//!
//! Pure engine code. The caller replays the hand into a [`TableView`] and asks, per opponent:
//!
//! * [`tenpai_probability`]: how likely the opponent is ready (1 after riichi; otherwise a
//!   logistic read of turn, melds and tells: late tsumogiri streaks, late hand-cut middle
//!   tiles, called dora / yakuhai, flush signs).
//! * [`deal_in_probability`] / [`danger_table`]: how likely discarding a kind deals in
//!   *given* the opponent is tenpai.
//! * [`expected_hand_value`]: rough points the opponent's hand is worth if it wins.
//!
//! and, over the whole table, [`tile_danger`] (combined risk), [`expected_loss`] and
//! [`table_danger`] (everything for all 34 kinds in one pass; use this in a discard loop).
//!
//! # The deal-in model
//!
//! Against a tenpai hand a tile deals in only through a wait shape that contains it, so each
//! shape that could wait on the kind adds a share calibrated to commonly quoted riichi deal-in
//! statistics (ryanmen waits dominate: a non-suji 4-5-6 deals in about 12–13 % of the time,
//! a suji 4-5-6 about 3–4 %, a suji terminal under 2 %, an honor with two copies seen about
//! 2 %):
//!
//! * **Genbutsu** is 0: the opponent's own discards (furiten), every tile discarded after its
//!   riichi declaration (it did not ron), and for a silent hand every tile others discarded
//!   after its last discard (temporary furiten). See [`genbutsu`].
//! * **Ryanmen sides**: a suited tile `n` is waited on by the shapes `(n+1, n+2)` and
//!   `(n−2, n−1)`. A side whose other wait (`n±3`, its *suji* partner) is genbutsu is dead:
//!   the hand would be furiten. Hence 1/9, 2/8 and 3/7 need one suji partner, 4-5-6 two.
//! * **Kabe / no-chance**: a shape needs the bot-visible copies of its tiles; with all four
//!   seen it cannot exist (weight 0), with three seen (*one-chance*) it is unlikely.
//! * **Kanchan, penchan, shanpon / tanki** add the smaller remainder (why suji 3/7 and suji
//!   middle tiles are not safe, and terminals are safer than middle tiles). An honor can only
//!   be a shanpon or tanki wait, so it is rated by copies seen; with 3 seen it is a tanki, with
//!   4 seen it is 0 (kokushi is ignored).
//! * **Adjustments**: an opponent's early outside discards (1/2/8/9) in a suit make that
//!   suit's middle tiles more dangerous; dora and its neighbours are kept and so waited on
//!   more; the hand-cut riichi tile's neighbours (matagi-suji) and suji are somewhat more
//!   dangerous; a flush-looking open hand makes its suit very dangerous and the other suits
//!   nearly safe; an all-pungs-looking open hand waits on pairs rather than sequences.
//!
//! Every non-genbutsu tile that is not an honor with all four copies seen gets at least
//! [`DEAL_IN_FLOOR`] > 0, so genbutsu always ranks strictly safer than anything else.
//!
//! The numbers are rough estimates; what matters for push / fold is that the order is right.
//!
//! # Rules without furiten (Hong Kong)
//!
//! With [`TableView::furiten`] off, an opponent may win on a tile it discarded itself, so
//! nothing is genbutsu and there is no riichi. Its discards (and what others discarded
//! after its last discard, which it did not want to win on just then) still say what it is
//! not collecting: they only lower the danger by `NO_FURITEN_PASSED_FACTOR`, and a
//! ryanmen side whose suji partner it passed is weakened by `NO_FURITEN_SUJI_FACTOR`
//! instead of dead. Readiness reads (turn, melds, tells, flush signs) and the wait-shape
//! reasoning (kabe, one-chance, honors with all copies seen) apply unchanged.

use super::tiles::{KINDS, Meld, MeldKind, Tile, TileCounts, rank_of, suit_of};

/// One discard of the hand, in the order made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RiverTile {
    /// Seat 0..4 that discarded it.
    pub seat: u8,
    /// The discarded tile.
    pub tile: Tile,
    /// Discarded straight from the draw (not from the hand).
    pub tsumogiri: bool,
}

/// Everything the defence model reads about the table.
#[derive(Debug, Clone)]
pub struct TableView<'a> {
    /// The bot's seat 0..4.
    pub me: u8,
    /// Every discard of the hand in the order made, all seats (called tiles included).
    pub river: &'a [RiverTile],
    /// Per seat: index in `river` of its riichi declaration tile.
    pub riichi: [Option<usize>; 4],
    /// Each seat's declared melds.
    pub melds: [&'a [Meld]; 4],
    /// Every tile the bot can see: own hand, all rivers, all melds, dora indicators.
    pub seen: TileCounts,
    /// Dora kinds (already converted from the indicators; a kind may repeat).
    pub dora: Vec<u8>,
    /// Seat winds, tile index 27..=30 (27 = East = dealer).
    pub seat_winds: [u8; 4],
    /// Round wind, tile index 27..=30.
    pub round_wind: u8,
    /// Tiles left in the live wall.
    pub tiles_left: u8,
    /// The rules have furiten (Riichi): an opponent cannot win on its own discards or on a
    /// tile it let pass, so those are genbutsu, and `riichi` is read. Off (Hong Kong): no
    /// genbutsu, no riichi; passed tiles are only safer (see the module doc).
    pub furiten: bool,
}

mod reading;
mod tuning;

use reading::*;
pub use tuning::DEAL_IN_FLOOR;

/// Everything the model reads about one opponent.
#[derive(Debug, Clone, PartialEq)]
pub struct OpponentRead {
    /// The opponent's seat 0..4.
    pub seat: u8,
    /// Probability the opponent is tenpai now ([`tenpai_probability`]).
    pub tenpai: f64,
    /// Expected points of its hand if it wins ([`expected_hand_value`]).
    pub value: f64,
    /// Per kind: probability that discarding it deals in, given tenpai ([`danger_table`]).
    pub deal_in: [f64; KINDS],
    /// Per kind: absolutely safe against this opponent by furiten ([`genbutsu`]).
    pub genbutsu: [bool; KINDS],
    /// The suit (0 m, 1 p, 2 s) an open hand seems to be flushing, if any ([`flush_suit`]).
    pub flush_suit: Option<u8>,
}

/// The full table read, for all 34 kinds at once.
#[derive(Debug, Clone, PartialEq)]
pub struct TableDanger {
    /// One read per opponent seat; `None` for the bot's own seat.
    pub opponents: [Option<OpponentRead>; 4],
    /// Per kind: probability that discarding it deals in to anyone ([`tile_danger`]).
    pub combined: [f64; KINDS],
    /// Per kind: expected points lost by discarding it ([`expected_loss`]).
    pub expected_loss: [f64; KINDS],
}

/// Per kind: `true` when the kind cannot deal in to `opp` because of furiten: the opponent
/// discarded it itself, it was discarded after the opponent's riichi declaration, or (for a
/// silent hand) another seat discarded it after the opponent's last discard.
pub fn genbutsu(view: &TableView, opp: u8) -> [bool; KINDS] {
    Facts::new(view, opp).genbutsu
}

/// The opponent's genbutsu kinds in index order.
pub fn genbutsu_kinds(view: &TableView, opp: u8) -> Vec<u8> {
    let g = genbutsu(view, opp);
    (0..KINDS as u8).filter(|&k| g[k as usize]).collect()
}

/// The suit (0 m, 1 p, 2 s) an open hand seems to be flushing: every suited meld tile in
/// one suit, and its discards (at least `FLUSH_MIN_DISCARDS`, several of the other suits)
/// show almost none of it, none late. Closed hands give no such read.
pub fn flush_suit(view: &TableView, opp: u8) -> Option<u8> {
    if !valid_opponent(view, opp) {
        return None;
    }
    flush_read(view, opp, &Facts::new(view, opp))
}

/// Probability that `opp` is tenpai now: 1 after riichi and with four melds (a bare tanki),
/// otherwise a logistic estimate (capped below 1) from the number of own discards, melds,
/// late tsumogiri streaks, late hand-cut middle tiles, shown dora / yakuhai and flush signs.
/// 0 for the bot's own seat or an invalid seat.
pub fn tenpai_probability(view: &TableView, opp: u8) -> f64 {
    if !valid_opponent(view, opp) {
        return 0.0;
    }
    let facts = Facts::new(view, opp);
    let flush = flush_read(view, opp, &facts);
    tenpai_from(view, opp, &facts, flush)
}

/// Probability that discarding `kind` now deals in to `opp`, *given* `opp` is tenpai
/// (multiply by [`tenpai_probability`]). 0 for genbutsu and honors with all copies seen;
/// at least [`DEAL_IN_FLOOR`] otherwise. For many kinds use [`danger_table`].
pub fn deal_in_probability(view: &TableView, opp: u8, kind: u8) -> f64 {
    if kind as usize >= KINDS {
        return 0.0;
    }
    danger_table(view, opp)[kind as usize]
}

/// [`deal_in_probability`] for all 34 kinds at once (all zeros for the bot's own seat).
pub fn danger_table(view: &TableView, opp: u8) -> [f64; KINDS] {
    if !valid_opponent(view, opp) {
        return [0.0; KINDS];
    }
    let facts = Facts::new(view, opp);
    let flush = flush_read(view, opp, &facts);
    deal_in_table(view, opp, &facts, flush)
}

/// Rough expected points of `opp`'s hand if it wins (ron, before honba / riichi sticks):
/// riichi about 5,500 for a non-dealer, a bare open hand about 2,300, more with dora,
/// yakuhai, flush or pungs shown; the dealer's ×1.5. 0 for the bot's own seat.
pub fn expected_hand_value(view: &TableView, opp: u8) -> f64 {
    if !valid_opponent(view, opp) {
        return 0.0;
    }
    let facts = Facts::new(view, opp);
    let flush = flush_read(view, opp, &facts);
    value_from(view, opp, flush)
}

/// Probability that discarding `kind` now deals in to anyone:
/// `1 − Π over opponents (1 − tenpai × deal_in)`. For many kinds use [`table_danger`].
pub fn tile_danger(view: &TableView, kind: u8) -> f64 {
    if kind as usize >= KINDS {
        return 0.0;
    }
    table_danger(view).combined[kind as usize]
}

/// Expected points lost by discarding `kind` now: Σ over opponents of
/// tenpai × deal_in × hand value (× `DORA_HIT_VALUE_FACTOR` per dora the tile is).
pub fn expected_loss(view: &TableView, kind: u8) -> f64 {
    if kind as usize >= KINDS {
        return 0.0;
    }
    table_danger(view).expected_loss[kind as usize]
}

/// [`expected_loss`] with the caller's own per-seat hand values in points (the bot's seat is
/// ignored), e.g. when it knows more about the scores than [`expected_hand_value`].
pub fn expected_loss_with_values(view: &TableView, kind: u8, values: [f64; 4]) -> f64 {
    if kind as usize >= KINDS {
        return 0.0;
    }
    let hit = dora_hit_factor(view, kind);
    (0..4u8)
        .filter(|&opp| valid_opponent(view, opp))
        .map(|opp| {
            let facts = Facts::new(view, opp);
            let flush = flush_read(view, opp, &facts);
            let tenpai = tenpai_from(view, opp, &facts, flush);
            let deal_in = deal_in_table(view, opp, &facts, flush)[kind as usize];
            tenpai * deal_in * values[opp as usize] * hit
        })
        .sum()
}

/// Everything about one opponent in one pass over the river.
pub fn read_opponent(view: &TableView, opp: u8) -> Option<OpponentRead> {
    if !valid_opponent(view, opp) {
        return None;
    }
    let facts = Facts::new(view, opp);
    let flush = flush_read(view, opp, &facts);
    Some(OpponentRead {
        seat: opp,
        tenpai: tenpai_from(view, opp, &facts, flush),
        value: value_from(view, opp, flush),
        deal_in: deal_in_table(view, opp, &facts, flush),
        genbutsu: facts.genbutsu,
        flush_suit: flush,
    })
}

/// The full table evaluation: every opponent's read, the combined deal-in risk and the
/// expected loss for all 34 kinds. This is what a discard loop should call once.
pub fn table_danger(view: &TableView) -> TableDanger {
    let opponents: [Option<OpponentRead>; 4] =
        std::array::from_fn(|seat| read_opponent(view, seat as u8));
    let mut combined = [0.0; KINDS];
    let mut expected_loss = [0.0; KINDS];
    for k in 0..KINDS {
        let mut safe = 1.0;
        let mut loss = 0.0;
        for read in opponents.iter().flatten() {
            let p = read.tenpai * read.deal_in[k];
            safe *= 1.0 - p;
            loss += p * read.value;
        }
        combined[k] = 1.0 - safe;
        expected_loss[k] = loss * dora_hit_factor(view, k as u8);
    }
    TableDanger {
        opponents,
        combined,
        expected_loss,
    }
}

#[cfg(test)]
mod tests;
