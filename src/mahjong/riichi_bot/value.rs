//! What a hand is worth, and whether it may win now.

use super::hand::Candidate;
use crate::mahjong::scoring::{self, Situation};
use crate::mahjong::table::Table;
use crate::mahjong::tiles::{KINDS, Tile, TileCounts};

/// Red fives in the seat's hand and melds.
pub(super) fn red_count(table: &Table) -> u32 {
    let melded = table.my_seat().melds.iter().flat_map(|m| m.tiles.iter());
    table.hand.iter().chain(melded).filter(|t| t.red).count() as u32
}

/// The situation of a win on `tile` now.
pub(super) fn situation(
    table: &Table,
    self_drawn: bool,
    rinshan: bool,
    chankan: bool,
) -> Situation {
    let me = table.my_seat();
    let last_tile = table.wall_left() == 0;
    let first = me.first_turn && !table.any_call;
    Situation {
        self_drawn,
        riichi: me.riichi_accepted || me.riichi.is_some(),
        double_riichi: me.double_riichi,
        ippatsu: me.ippatsu,
        rinshan: self_drawn && rinshan,
        chankan,
        haitei: self_drawn && last_tile && !rinshan,
        houtei: !self_drawn && last_tile && !chankan,
        tenhou: self_drawn && first && table.me == table.dealer,
        chiihou: self_drawn && first && table.me != table.dealer,
        seat_wind: table.seat_wind(table.me),
        round_wind: table.round_wind,
        dora_indicators: table.dora_indicators.iter().map(|t| t.index).collect(),
        ura_indicators: Vec::new(),
        honba: table.honba,
        kyotaku: table.kyotaku,
    }
}

/// The score of winning now on `tile`, if the win is legal (a yaku, not furiten).
pub(super) fn win_now(
    table: &Table,
    tile: Tile,
    self_drawn: bool,
    rinshan: bool,
    chankan: bool,
) -> Option<scoring::HandScore> {
    win_score(table, tile, self_drawn, rinshan, chankan, &[])
}

/// [`win_now`] with the ura-dora indicators a referee reveals for a riichi win.
pub(crate) fn win_score(
    table: &Table,
    tile: Tile,
    self_drawn: bool,
    rinshan: bool,
    chankan: bool,
    ura_indicators: &[Tile],
) -> Option<scoring::HandScore> {
    let mut conc = table.concealed();
    if !self_drawn {
        if table.furiten() {
            return None;
        }
        conc.add(tile.index);
    }
    let reds = red_count(table) + u32::from(!self_drawn && tile.red);
    let mut sit = situation(table, self_drawn, rinshan, chankan);
    if sit.riichi {
        sit.ura_indicators = ura_indicators.iter().map(|t| t.index).collect();
    }
    scoring::score_hand(&conc, reds, &table.my_seat().melds, tile.index, &sit)
}

/// What scores a win, each with its han: the yaku, then dora, red fives and ura dora.
pub(crate) fn win_items(score: &scoring::HandScore) -> Vec<(&'static str, u32)> {
    let mut items = score.yaku.clone();
    for (name, han) in [
        ("dora", score.dora),
        ("red five", score.red),
        ("ura dora", score.ura),
    ] {
        if han > 0 && score.yakuman == 0 {
            items.push((name, han));
        }
    }
    items
}

pub(super) fn dora_kinds(table: &Table) -> Vec<u8> {
    table
        .dora_indicators
        .iter()
        .map(|t| scoring::dora_of(t.index))
        .collect()
}

pub(super) fn dora_in(table: &Table, conc: &TileCounts, reds: u32) -> u32 {
    let mut whole = *conc;
    for t in table.my_seat().melds.iter().flat_map(|m| m.tiles.iter()) {
        whole.add(t.index);
    }
    let dora: u32 = dora_kinds(table)
        .iter()
        .map(|&d| u32::from(whole.get(d)))
        .sum();
    dora + reds
}

/// Average points of a ready hand over its live waits, by ron, with riichi when closed.
pub(super) fn ready_value(
    table: &Table,
    conc: &TileCounts,
    reds: u32,
    waits: u64,
    live: &[u8; KINDS],
) -> f64 {
    let melds = &table.my_seat().melds;
    let mut sit = situation(table, false, false, false);
    sit.riichi = melds.iter().all(|m| !m.kind.is_open());
    let dealer = table.me == table.dealer;
    let (mut sum, mut n) = (0.0, 0.0);
    for k in 0..KINDS as u8 {
        if waits & (1 << k) == 0 || live[k as usize] == 0 {
            continue;
        }
        let mut c = *conc;
        c.add(k);
        let Some(score) = scoring::score_hand(&c, reds, melds, k, &sit) else {
            n += f64::from(live[k as usize]);
            continue;
        };
        let mut points = f64::from(score.total);
        if sit.riichi && score.yakuman == 0 {
            // Ura dora: the chance of one more han, priced at the han/fu table.
            let mut whole = c;
            for m in melds {
                for t in &m.tiles {
                    whole.add(t.index);
                }
            }
            let ura = scoring::expected_ura(&whole, live, table.dora_indicators.len()).min(1.0);
            let more = scoring::points(score.han + 1, score.fu, dealer, false);
            let base = scoring::points(score.han, score.fu, dealer, false);
            points += ura * f64::from(more.saturating_sub(base));
        }
        sum += points * f64::from(live[k as usize]);
        n += f64::from(live[k as usize]);
    }
    if n > 0.0 { sum / n } else { 0.0 }
}

/// Rough value of a hand not yet ready: one han for riichi or a kept yaku, plus dora.
pub(super) fn estimate_value(table: &Table, c: &Candidate) -> f64 {
    let dealer = table.me == table.dealer;
    let han = 1 + c.dora;
    f64::from(scoring::points(han, 30, dealer, false))
}
