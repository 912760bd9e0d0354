//! Exact Riichi hand scoring under Tenhou rules: yaku, dora, han, fu and points.
//!
//! This is the one home of the Riichi yaku: [`super::rules::riichi_yaku`] (the bot's
//! "may I win" check) calls [`yaku`] with what it knows, [`score_hand`] with the whole
//! [`Situation`].
//!
//! Rule set (what Tenhou, and Mortal's referee, play):
//! * Hanchan, red fives (one per suit, 1 dora each), open tanyao (kuitan), no kiriage
//!   mangan (4 han 30 fu and 3 han 60 fu stay 7700, dealer 11600), no pao.
//! * Dora, red fives and ura dora add han only to a hand that already has a yaku; a hand
//!   without a yaku scores `None`. Ura dora count only for a riichi (or double riichi)
//!   hand; indicators given for any other hand are ignored.
//! * Yakuman: kokushi, suuankou, daisangen, shousuushii, daisuushii, tsuuiisou,
//!   chinroutou, ryuuiisou, chuuren poutou, suukantsu, tenhou, chiihou. Like Tenhou there
//!   is no double yakuman for a single yakuman (thirteen-sided kokushi, suuankou tanki,
//!   pure chuuren and daisuushii are one each), but different yakuman in one hand add up
//!   (daisangen + tsuuiisou is two). A yakuman hand drops its ordinary yaku and its dora.
//!   13 han or more without a yakuman is kazoe yakuman (one).
//! * Fu: 20; closed ron +10; tsumo (rinshan too) +2 except pinfu tsumo, which is 20;
//!   seven pairs 25 flat; pungs 2 / 4 (terminal or honor), doubled when concealed, ×4 for
//!   a kong, and a pung completed by ron counts as open; pair of a dragon, the seat wind or
//!   the round wind +2 each (a double-wind pair +4); kanchan, penchan and tanki waits +2;
//!   an open hand with nothing beyond the 20 is 30; rounded up to 10.
//! * Among all readings of the hand (decomposition and where the winning tile sits) the
//!   one with the most points is taken, then the most han, then the most fu — so the
//!   winner gets the wait and the shape worth most, as Tenhou scores it. This also reads
//!   a seven-pairs hand made of two double chows as ryanpeikou (3 han, closed only).
//! * Situational flags are trusted as given, with the checks that need no history: riichi,
//!   ippatsu and menzen tsumo only on a closed hand; rinshan, haitei, tenhou and chiihou
//!   only on a self-draw; chankan and houtei only on a ron; haitei not on a replacement
//!   tile (rinshan wins it instead); tenhou only for the dealer and chiihou only for the
//!   others, both without any meld.
//!
//! Payments: base = fu × 2^(2 + han), capped at mangan 2000; haneman 3000, baiman 4000,
//! sanbaiman 6000, (kazoe) yakuman 8000 each. Ron: ×4 (dealer winner ×6) from the
//! discarder; tsumo: ×1 from each non-dealer and ×2 from the dealer (dealer winner: ×2
//! from each), every payment rounded up to 100 on its own. Honba: +300 on ron, +100 per
//! payer on tsumo. Each riichi stick on the table (kyotaku) is +1000 to the winner.

use super::rules::{self, Set, Shape, flush_kind, kinds_used};
use super::tiles::{
    EAST, KINDS, Meld, TileCounts, Variant, is_dragon, is_honor, is_terminal_or_honor, rank_of,
};

/// Everything about a win besides the tiles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Situation {
    /// Tsumo (otherwise ron).
    pub self_drawn: bool,
    /// Riichi declared (1 han, closed hands only).
    pub riichi: bool,
    /// Riichi declared on the first uninterrupted turn (2 han, replaces riichi).
    pub double_riichi: bool,
    /// Won within one go-around after the riichi, no call in between (1 han).
    pub ippatsu: bool,
    /// Won on the replacement tile after a kong.
    pub rinshan: bool,
    /// Won on a tile robbed from an added kong.
    pub chankan: bool,
    /// Won on the last tile of the wall (tsumo).
    pub haitei: bool,
    /// Won on the last discard (ron).
    pub houtei: bool,
    /// The dealer won on the first draw, no call before it (yakuman).
    pub tenhou: bool,
    /// A non-dealer won on its first draw, no call before it (yakuman).
    pub chiihou: bool,
    /// Wind tile index 27..=30; East is the dealer.
    pub seat_wind: u8,
    /// Round wind tile index 27..=30.
    pub round_wind: u8,
    /// Kind indices of the dora indicators.
    pub dora_indicators: Vec<u8>,
    /// Kind indices of the ura dora indicators (counted for a riichi hand only).
    pub ura_indicators: Vec<u8>,
    /// Repeat counters: +300 points on ron, +100 per payer on tsumo.
    pub honba: u32,
    /// Riichi sticks on the table, which go to the winner.
    pub kyotaku: u32,
}

impl Default for Situation {
    /// A ron by the East seat in the East round, nothing else.
    fn default() -> Self {
        Self {
            self_drawn: false,
            riichi: false,
            double_riichi: false,
            ippatsu: false,
            rinshan: false,
            chankan: false,
            haitei: false,
            houtei: false,
            tenhou: false,
            chiihou: false,
            seat_wind: EAST,
            round_wind: EAST,
            dora_indicators: Vec::new(),
            ura_indicators: Vec::new(),
            honba: 0,
            kyotaku: 0,
        }
    }
}

impl Situation {
    /// Whether the winner is the dealer (East seat).
    pub fn dealer(&self) -> bool {
        self.seat_wind == EAST
    }
}

/// Who pays what, honba included (kyotaku are not a payment by a player).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Payments {
    /// The discarder pays everything.
    Ron {
        /// Points the discarder pays.
        discarder: u32,
    },
    /// A non-dealer's tsumo: the dealer pays `dealer`, each other player `non_dealer`.
    Tsumo {
        /// Points the dealer pays.
        dealer: u32,
        /// Points each of the two other non-dealers pays.
        non_dealer: u32,
    },
    /// The dealer's tsumo: each of the three pays `each`.
    DealerTsumo {
        /// Points each of the three others pays.
        each: u32,
    },
}

impl Payments {
    /// Points each seat gains (the winner) or pays, by seat: `winner` won on
    /// `from`'s discard (on a self-draw `from` is the winner), `dealer` deals.
    /// Riichi sticks on the table are the caller's to add.
    pub fn deltas(&self, winner: u8, from: u8, dealer: u8) -> [i32; 4] {
        let (w, f, d) = (usize::from(winner), usize::from(from), usize::from(dealer));
        let mut deltas = [0i32; 4];
        let mut pay = |seat: usize, points: u32| {
            deltas[seat] -= points as i32;
            deltas[w] += points as i32;
        };
        match *self {
            Self::Ron { discarder } => pay(f, discarder),
            Self::Tsumo { dealer, non_dealer } => {
                for o in (0..4).filter(|&o| o != w) {
                    pay(o, if o == d { dealer } else { non_dealer });
                }
            }
            Self::DealerTsumo { each } => {
                for o in (0..4).filter(|&o| o != w) {
                    pay(o, each);
                }
            }
        }
        deltas
    }

    /// What the players pay in all.
    pub fn sum(&self) -> u32 {
        match *self {
            Self::Ron { discarder } => discarder,
            Self::Tsumo { dealer, non_dealer } => dealer + 2 * non_dealer,
            Self::DealerTsumo { each } => 3 * each,
        }
    }
}

/// The score of a winning hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandScore {
    /// Yaku han plus dora, red fives and ura dora; for a yakuman hand 13 per yakuman.
    pub han: u32,
    /// Fu of the chosen reading (rounded; 25 for seven pairs). Not used by yakuman.
    pub fu: u32,
    /// Number of yakuman (0 for an ordinary hand, also for kazoe yakuman).
    pub yakuman: u32,
    /// Yaku with their han (13 per yakuman).
    pub yaku: Vec<(&'static str, u32)>,
    /// Dora from the indicators found in the hand (red fives and ura dora are counted
    /// apart; none of them is added to a yakuman's han).
    pub dora: u32,
    /// Red fives in the hand and melds (1 han each).
    pub red: u32,
    /// Ura dora (riichi hands only).
    pub ura: u32,
    /// Basic points (fu × 2^(2 + han), capped by the limit hands).
    pub base: u32,
    /// Points the winner gains in all, honba and kyotaku included.
    pub total: u32,
    /// Who pays how much.
    pub payments: Payments,
}

/// The tiles of a winning hand.
#[derive(Debug, Clone, Copy)]
pub struct HandTiles<'a> {
    /// Concealed tiles including the winning tile.
    pub conc: &'a TileCounts,
    /// Declared melds (not in `conc`).
    pub melds: &'a [Meld],
    /// Kind index of the winning tile.
    pub win_tile: u8,
}

/// The yaku of one reading.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Yaku {
    /// Name and han (13 per yakuman).
    pub items: Vec<(&'static str, u32)>,
    /// Number of yakuman among `items`.
    pub yakuman: u32,
}

impl Yaku {
    /// Total han of the yaku (13 per yakuman).
    pub fn han(&self) -> u32 {
        self.items.iter().map(|i| i.1).sum()
    }
}

/// The dora a dora indicator points at: the next number (9 wraps to 1), E→S→W→N→E,
/// haku→hatsu→chun→haku.
pub fn dora_of(indicator: u8) -> u8 {
    match indicator {
        0..=26 => indicator / 9 * 9 + (indicator % 9 + 1) % 9,
        27..=30 => 27 + (indicator - 26) % 4,
        _ => 31 + (indicator - 30) % 3,
    }
}

const GREEN: [u8; 6] = [19, 20, 21, 23, 25, 32];

/// Whether 14 concealed tiles are the nine gates: one suit, 1112345678999 plus one.
fn is_chuuren(conc: &TileCounts) -> bool {
    if conc.total() != 14 {
        return false;
    }
    (0..3u8).any(|suit| {
        let b = suit * 9;
        let in_suit: u32 = (b..b + 9).map(|k| u32::from(conc.get(k))).sum();
        in_suit == 14
            && conc.get(b) >= 3
            && conc.get(b + 8) >= 3
            && (b + 1..b + 8).all(|k| conc.get(k) >= 1)
    })
}

/// The concealed set holding the winning tile, if the tile did not complete the pair.
fn win_set(all: &[Set]) -> Option<&Set> {
    all.iter().find(|s| s.has_win_tile)
}

/// Kanchan or penchan: a chow completed in the middle or from the edge.
fn closed_chow_wait(s: &Set, win: u8) -> bool {
    s.chow
        && (win == s.tile + 1
            || (win == s.tile + 2 && rank_of(s.tile) == 1)
            || (win == s.tile && rank_of(s.tile) == 7))
}

/// Whether a pung/kong counts as concealed (a pung finished by ron is open, Tenhou-style).
fn concealed_set(s: &Set, self_drawn: bool) -> bool {
    !s.chow && !s.open && (!s.has_win_tile || self_drawn)
}

/// The yaku of one reading (`all`: melds and concealed sets, as [`rules::readings`] gives
/// them). A yakuman hand lists its yakuman only.
pub fn yaku(
    hand: &HandTiles,
    shape: &Shape,
    all: &[Set],
    pair_wait: bool,
    sit: &Situation,
) -> Yaku {
    let closed = hand.melds.iter().all(|m| !m.kind.is_open());
    let tsumo = sit.self_drawn;
    let kinds = kinds_used(shape, all);
    let pair = match shape {
        Shape::Standard { pair, .. } => Some(*pair),
        _ => None,
    };
    let is_wind = |k: u8| (27..=30).contains(&k);
    let pungs = || all.iter().filter(|s| !s.chow);
    let concealed_pungs = all.iter().filter(|s| concealed_set(s, tsumo)).count();
    let kongs = all.iter().filter(|s| s.kong).count();
    let dragon_pungs = pungs().filter(|s| is_dragon(s.tile)).count();
    let wind_pungs = pungs().filter(|s| is_wind(s.tile)).count();

    let mut ym: Vec<(&'static str, u32)> = Vec::new();
    let no_calls = hand.melds.is_empty() && tsumo;
    if sit.tenhou && no_calls && sit.dealer() {
        ym.push(("tenhou", 13));
    }
    if sit.chiihou && no_calls && !sit.dealer() {
        ym.push(("chiihou", 13));
    }
    if *shape == Shape::Orphans {
        ym.push(("kokushi musou", 13));
    }
    if let Some(pair) = pair {
        if hand.melds.is_empty() && is_chuuren(hand.conc) {
            ym.push(("chuuren poutou", 13));
        }
        if concealed_pungs == 4 {
            ym.push(("suuankou", 13));
        }
        if dragon_pungs == 3 {
            ym.push(("daisangen", 13));
        }
        if wind_pungs == 4 {
            ym.push(("daisuushii", 13));
        } else if wind_pungs == 3 && is_wind(pair) {
            ym.push(("shousuushii", 13));
        }
        if kongs == 4 {
            ym.push(("suukantsu", 13));
        }
    }
    if kinds.iter().all(|&k| is_honor(k)) {
        ym.push(("tsuuiisou", 13));
    }
    if kinds
        .iter()
        .all(|&k| is_terminal_or_honor(k) && !is_honor(k))
    {
        ym.push(("chinroutou", 13));
    }
    if kinds.iter().all(|k| GREEN.contains(k)) {
        ym.push(("ryuuiisou", 13));
    }
    if !ym.is_empty() {
        let yakuman = ym.len() as u32;
        return Yaku { items: ym, yakuman };
    }

    let mut items: Vec<(&'static str, u32)> = Vec::new();
    let open_less = |han: u32| if closed { han } else { han - 1 };
    let riichi = closed && (sit.riichi || sit.double_riichi);
    if riichi {
        if sit.double_riichi {
            items.push(("double riichi", 2));
        } else {
            items.push(("riichi", 1));
        }
        if sit.ippatsu {
            items.push(("ippatsu", 1));
        }
    }
    if closed && tsumo {
        items.push(("menzen tsumo", 1));
    }
    if tsumo && sit.rinshan {
        items.push(("rinshan kaihou", 1));
    }
    if tsumo && sit.haitei && !sit.rinshan {
        items.push(("haitei raoyue", 1));
    }
    if !tsumo && sit.chankan {
        items.push(("chankan", 1));
    }
    if !tsumo && sit.houtei {
        items.push(("houtei raoyui", 1));
    }
    if kinds.iter().all(|&k| !is_terminal_or_honor(k)) {
        items.push(("tanyao", 1));
    }
    match shape {
        Shape::SevenPairs(_) => items.push(("chiitoitsu", 2)),
        Shape::Orphans => {}
        Shape::Standard { pair, .. } => {
            let pair = *pair;
            let chows: Vec<u8> = all.iter().filter(|s| s.chow).map(|s| s.tile).collect();
            let value_pair = is_dragon(pair) || pair == sit.seat_wind || pair == sit.round_wind;
            let ryanmen =
                win_set(all).is_some_and(|s| s.chow && !closed_chow_wait(s, hand.win_tile));
            if closed && chows.len() == 4 && !value_pair && !pair_wait && ryanmen {
                items.push(("pinfu", 1));
            }
            if closed {
                // identical chows taken two at a time: one couple is iipeikou, two ryanpeikou
                let mut sorted = chows.clone();
                sorted.sort_unstable();
                let mut couples = 0;
                let mut i = 0;
                while i + 1 < sorted.len() {
                    if sorted[i] == sorted[i + 1] {
                        couples += 1;
                        i += 2;
                    } else {
                        i += 1;
                    }
                }
                match couples {
                    0 => {}
                    1 => items.push(("iipeikou", 1)),
                    _ => items.push(("ryanpeikou", 3)),
                }
            }
            for s in pungs() {
                match s.tile {
                    31 => items.push(("yakuhai haku", 1)),
                    32 => items.push(("yakuhai hatsu", 1)),
                    33 => items.push(("yakuhai chun", 1)),
                    _ => {}
                }
                if s.tile == sit.seat_wind {
                    items.push(("yakuhai seat wind", 1));
                }
                if s.tile == sit.round_wind {
                    items.push(("yakuhai round wind", 1));
                }
            }
            if (0..7u8).any(|r| [r, r + 9, r + 18].iter().all(|x| chows.contains(x))) {
                items.push(("sanshoku doujun", open_less(2)));
            }
            if (0..3u8).any(|s| [0, 3, 6].iter().all(|o| chows.contains(&(s * 9 + o)))) {
                items.push(("ittsu", open_less(2)));
            }
            let outside = |s: &Set| {
                if s.chow {
                    matches!(rank_of(s.tile), 1 | 7)
                } else {
                    is_terminal_or_honor(s.tile)
                }
            };
            if !chows.is_empty() && is_terminal_or_honor(pair) && all.iter().all(outside) {
                if kinds.iter().any(|&k| is_honor(k)) {
                    items.push(("chanta", open_less(2)));
                } else {
                    items.push(("junchan", open_less(3)));
                }
            }
            if chows.is_empty() {
                items.push(("toitoi", 2));
            }
            if concealed_pungs == 3 {
                items.push(("sanankou", 2));
            }
            if kongs == 3 {
                items.push(("sankantsu", 2));
            }
            let suited: Vec<u8> = pungs().map(|s| s.tile).filter(|&k| k < 27).collect();
            if (0..9u8).any(|r| [r, r + 9, r + 18].iter().all(|x| suited.contains(x))) {
                items.push(("sanshoku doukou", 2));
            }
            if dragon_pungs == 2 && is_dragon(pair) {
                items.push(("shousangen", 2));
            }
        }
    }
    if kinds.iter().all(|&k| is_terminal_or_honor(k)) && *shape != Shape::Orphans {
        items.push(("honroutou", 2));
    }
    match flush_kind(&kinds) {
        Some(true) => items.push(("chinitsu", open_less(6))),
        Some(false) => items.push(("honitsu", open_less(3))),
        None => {}
    }
    Yaku { items, yakuman: 0 }
}

/// Fu of one reading (see the module docs), rounded up to 10 (seven pairs: 25).
fn fu(
    shape: &Shape,
    all: &[Set],
    pair_wait: bool,
    hand: &HandTiles,
    sit: &Situation,
    pinfu: bool,
) -> u32 {
    let closed = hand.melds.iter().all(|m| !m.kind.is_open());
    let tsumo = sit.self_drawn;
    if matches!(shape, Shape::SevenPairs(_)) {
        return 25;
    }
    if pinfu {
        return if tsumo { 20 } else { 30 };
    }
    let mut fu: u32 = 20;
    if closed && !tsumo {
        fu += 10;
    }
    if tsumo {
        fu += 2;
    }
    for s in all.iter().filter(|s| !s.chow) {
        let mut f = 2;
        if is_terminal_or_honor(s.tile) {
            f *= 2;
        }
        if concealed_set(s, tsumo) {
            f *= 2;
        }
        if s.kong {
            f *= 4;
        }
        fu += f;
    }
    if let Shape::Standard { pair, .. } = shape {
        let pair = *pair;
        if is_dragon(pair) {
            fu += 2;
        }
        if pair == sit.seat_wind {
            fu += 2;
        }
        if pair == sit.round_wind {
            fu += 2;
        }
    }
    if pair_wait || win_set(all).is_some_and(|s| closed_chow_wait(s, hand.win_tile)) {
        fu += 2;
    }
    if !closed && fu == 20 {
        fu = 30;
    }
    fu.div_ceil(10) * 10
}

/// Basic points of an ordinary hand (no yakuman): fu × 2^(2 + han) up to the limits.
/// 0 for 0 han.
pub fn base_points(han: u32, fu: u32) -> u32 {
    match han {
        0 => 0,
        1..=4 => (fu << (2 + han)).min(2000),
        5 => 2000,
        6 | 7 => 3000,
        8..=10 => 4000,
        11 | 12 => 6000,
        _ => 8000,
    }
}

fn up100(x: u32) -> u32 {
    x.div_ceil(100) * 100
}

/// Payments for basic points `base`, honba included.
pub fn payments(base: u32, dealer: bool, self_drawn: bool, honba: u32) -> Payments {
    match (self_drawn, dealer) {
        (false, false) => Payments::Ron {
            discarder: up100(base * 4) + 300 * honba,
        },
        (false, true) => Payments::Ron {
            discarder: up100(base * 6) + 300 * honba,
        },
        (true, false) => Payments::Tsumo {
            dealer: up100(base * 2) + 100 * honba,
            non_dealer: up100(base) + 100 * honba,
        },
        (true, true) => Payments::DealerTsumo {
            each: up100(base * 2) + 100 * honba,
        },
    }
}

/// Points the winner of an ordinary hand of `han` / `fu` gains (no honba, no kyotaku),
/// for valuing hands that are not complete yet. 0 for 0 han; 13 han or more is kazoe
/// yakuman.
pub fn points(han: u32, fu: u32, dealer: bool, self_drawn: bool) -> u32 {
    payments(base_points(han, fu), dealer, self_drawn, 0).sum()
}

/// Scores a complete hand: `conc` holds the concealed tiles including the winning tile,
/// `red_fives` the red fives in hand and melds. `None` when the hand is not complete or
/// has no yaku (dora alone do not make a win).
pub fn score_hand(
    conc: &TileCounts,
    red_fives: u32,
    melds: &[Meld],
    win_tile: u8,
    sit: &Situation,
) -> Option<HandScore> {
    if usize::from(win_tile) >= KINDS || conc.get(win_tile) == 0 {
        return None;
    }
    let hand = HandTiles {
        conc,
        melds,
        win_tile,
    };
    let mut whole = *conc;
    for m in melds {
        for t in &m.tiles {
            whole.add(t.index);
        }
    }
    let count = |indicators: &[u8]| -> u32 {
        indicators
            .iter()
            .filter(|&&i| usize::from(i) < KINDS)
            .map(|&i| u32::from(whole.get(dora_of(i))))
            .sum()
    };
    let closed = melds.iter().all(|m| !m.kind.is_open());
    let dora = count(&sit.dora_indicators);
    let ura = if closed && (sit.riichi || sit.double_riichi) {
        count(&sit.ura_indicators)
    } else {
        0
    };
    let extra = dora + red_fives + ura;
    let mut best: Option<HandScore> = None;
    for r in rules::readings(Variant::Riichi, conc, melds, win_tile) {
        let y = yaku(&hand, &r.shape, &r.sets, r.pair_wait, sit);
        if y.items.is_empty() {
            continue;
        }
        let pinfu = y.items.iter().any(|i| i.0 == "pinfu");
        let fu = fu(&r.shape, &r.sets, r.pair_wait, &hand, sit, pinfu);
        let (han, base) = if y.yakuman > 0 {
            (y.han(), 8000 * y.yakuman)
        } else {
            let han = y.han() + extra;
            (han, base_points(han, fu))
        };
        let pay = payments(base, sit.dealer(), sit.self_drawn, sit.honba);
        let better = best
            .as_ref()
            .is_none_or(|b| (base, han, fu) > (b.base, b.han, b.fu));
        if better {
            best = Some(HandScore {
                han,
                fu,
                yakuman: y.yakuman,
                yaku: y.items,
                dora,
                red: red_fives,
                ura,
                base,
                total: pay.sum() + 1000 * sit.kyotaku,
                payments: pay,
            });
        }
    }
    best
}

/// Expected han from ura dora for a riichi hand: each of the `indicators` ura indicators
/// is taken as a uniform draw from the `unseen` tiles, so by linearity the expectation is
/// `indicators` × the average number of hand tiles an unseen tile points at.
/// `hand_kinds` is the whole hand (concealed tiles and melds).
pub fn expected_ura(hand_kinds: &TileCounts, unseen: &[u8; KINDS], indicators: usize) -> f64 {
    let total: u32 = unseen.iter().map(|&n| u32::from(n)).sum();
    if total == 0 {
        return 0.0;
    }
    let hits: u32 = (0..KINDS as u8)
        .map(|k| u32::from(unseen[k as usize]) * u32::from(hand_kinds.get(dora_of(k))))
        .sum();
    indicators as f64 * f64::from(hits) / f64::from(total)
}

#[cfg(test)]
#[path = "scoring_tests.rs"]
mod tests;
