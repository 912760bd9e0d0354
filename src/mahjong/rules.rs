//! Winning hands, the Hong Kong fan table and Red Dragon points; the Riichi yaku are
//! judged in [`super::scoring`], which [`riichi_yaku`] calls, so the bot's "is this win
//! legal" and the scorer can never disagree.

use super::scoring::{self, HandTiles, Situation};
use super::tiles::{
    Flower, KINDS, Meld, MeldKind, RED_DRAGON, TileCounts, Variant, Wind, is_dragon, is_honor,
    is_terminal_or_honor, suit_of,
};

/// A set inside a decomposition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Set {
    /// Chow: lowest tile; pung/kong: the tile.
    pub tile: u8,
    /// A chow (sequence from `tile` up); otherwise a pung or kong.
    pub chow: bool,
    /// A kong (open, added or concealed).
    pub kong: bool,
    /// Exposed (called) set.
    pub open: bool,
    /// Concealed set that contains the winning tile (relevant for ron / waits).
    pub has_win_tile: bool,
}

/// Shape of a complete hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// Four sets and a pair.
    Standard {
        /// The sets: from [`shapes`] the concealed ones only, in a [`WinValue`] the melds too.
        sets: Vec<Set>,
        /// Kind of the pair.
        pair: u8,
    },
    /// Seven pairs: the kinds of the pairs (in Red Dragon, a pair of two wildcards is
    /// listed as the red dragon).
    SevenPairs(Vec<u8>),
    /// Thirteen orphans (not in Red Dragon).
    Orphans,
}

/// Everything needed to value a complete hand.
#[derive(Debug, Clone)]
pub struct WinInput<'a> {
    /// Rule set that values the hand.
    pub variant: Variant,
    /// Concealed tiles including the winning tile.
    pub conc: TileCounts,
    /// Declared melds (not in `conc`).
    pub melds: &'a [Meld],
    /// Kind index of the winning tile.
    pub win_tile: u8,
    /// Won by self-draw; otherwise on a discard.
    pub self_drawn: bool,
    /// The winner's seat wind.
    pub seat_wind: Wind,
    /// The prevailing (round) wind.
    pub round_wind: Wind,
    /// Hong Kong bonus tiles the winner holds (the other variants ignore them).
    pub flowers: &'a [Flower],
    /// Riichi only: the winner declared riichi (1 han); the other variants ignore it.
    pub riichi: bool,
}

/// Value of the best reading of a complete hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WinValue {
    /// Hong Kong fan, Riichi han (yaku only, no dora) or Red Dragon points.
    pub value: u32,
    /// What the value is made of, as (name, fan / han / points).
    pub items: Vec<(&'static str, u32)>,
    /// The reading valued; for the standard form its sets include the melds.
    pub shape: Shape,
}

impl WinValue {
    /// `complete hand worth 3: concealed hand 1, no flowers 1, dragon pung 1`.
    pub fn describe(&self) -> String {
        let items: Vec<String> = self
            .items
            .iter()
            .map(|(name, value)| format!("{name} {value}"))
            .collect();
        format!("complete hand worth {}: {}", self.value, items.join(", "))
    }
}

fn jokers_of(variant: Variant, c: &mut [u8; KINDS]) -> u8 {
    match variant.wildcard() {
        Some(w) => std::mem::take(&mut c[w as usize]),
        None => 0,
    }
}

/// Enumerates standard decompositions of `c` into `need` sets and a pair, with `jokers` wildcards.
fn decompose(
    c: &mut [u8; KINDS],
    need: usize,
    jokers: u8,
    pair: Option<u8>,
    sets: &mut Vec<Set>,
    out: &mut Vec<(Vec<Set>, u8)>,
) {
    if out.len() > 256 {
        return;
    }
    let Some(i) = (0..KINDS).find(|&i| c[i] > 0) else {
        // only wildcards left: they form the remaining sets and the pair
        let sets_left = need.saturating_sub(sets.len());
        let pair_left = usize::from(pair.is_none());
        if jokers as usize != 3 * sets_left + 2 * pair_left || sets.len() > need {
            return;
        }
        // wildcards take a kind already used (flush-friendly) or stand for themselves
        let mut options: Vec<u8> = sets.iter().map(|s| s.tile).chain(pair).collect();
        options.push(RED_DRAGON);
        options.dedup();
        for &x in &options {
            let mut s = sets.clone();
            for _ in 0..sets_left {
                s.push(Set {
                    tile: x,
                    chow: false,
                    kong: false,
                    open: false,
                    has_win_tile: false,
                });
            }
            out.push((s, pair.unwrap_or(x)));
        }
        return;
    };
    if sets.len() > need {
        return;
    }
    let i8_ = i as u8;
    let have = c[i];
    // pung, using up to two wildcards
    for real in (1..=3u8.min(have)).rev() {
        let j = 3 - real;
        if j <= jokers {
            c[i] -= real;
            sets.push(Set {
                tile: i8_,
                chow: false,
                kong: false,
                open: false,
                has_win_tile: false,
            });
            decompose(c, need, jokers - j, pair, sets, out);
            sets.pop();
            c[i] += real;
        }
    }
    // chows containing tile i as its lowest real tile
    if i < 27 {
        let r = i % 9;
        for start in r.saturating_sub(2)..=r.min(6) {
            let base = i - r + start;
            // positions below i must be wildcards
            let mut use_j = (i - base) as u8;
            let mut ok = true;
            let mut taken = [false; 3];
            for (k, tk) in taken.iter_mut().enumerate() {
                let t = base + k;
                if t < i {
                    continue;
                }
                if c[t] > 0 {
                    *tk = true;
                } else if t == i {
                    ok = false;
                } else {
                    use_j += 1;
                }
            }
            if !ok || use_j > jokers || (use_j > 0 && jokers == 0) {
                continue;
            }
            for (k, tk) in taken.iter().enumerate() {
                if *tk {
                    c[base + k] -= 1;
                }
            }
            sets.push(Set {
                tile: base as u8,
                chow: true,
                kong: false,
                open: false,
                has_win_tile: false,
            });
            decompose(c, need, jokers - use_j, pair, sets, out);
            sets.pop();
            for (k, tk) in taken.iter().enumerate() {
                if *tk {
                    c[base + k] += 1;
                }
            }
        }
    }
    if pair.is_none() {
        for real in (1..=2u8.min(have)).rev() {
            let j = 2 - real;
            if j <= jokers {
                c[i] -= real;
                decompose(c, need, jokers - j, Some(i8_), sets, out);
                c[i] += real;
            }
        }
    }
}

/// All readings of a complete hand (empty when not complete).
pub fn shapes(variant: Variant, conc: &TileCounts, melds: &[Meld]) -> Vec<Shape> {
    let mut c = conc.0;
    let jokers = jokers_of(variant, &mut c);
    let need = 4usize.saturating_sub(melds.len());
    if conc.total() as usize != 3 * need + 2 {
        return Vec::new();
    }
    let mut raw = Vec::new();
    decompose(&mut c, need, jokers, None, &mut Vec::new(), &mut raw);
    let mut out: Vec<Shape> = raw
        .into_iter()
        .map(|(sets, pair)| Shape::Standard { sets, pair })
        .collect();
    if melds.is_empty() {
        // seven pairs: distinct kinds, wildcards pair singles or each other
        let singles = c.iter().filter(|&&x| x == 1).count() as u8;
        if c.iter().all(|&x| x <= 2)
            && singles <= jokers
            && (jokers - singles).is_multiple_of(2)
            && variant.has_seven_pairs()
        {
            let mut kinds: Vec<u8> = (0..KINDS as u8).filter(|&k| c[k as usize] > 0).collect();
            kinds.extend(std::iter::repeat_n(
                RED_DRAGON,
                usize::from((jokers - singles) / 2),
            ));
            out.push(Shape::SevenPairs(kinds));
        }
        if variant.has_thirteen_orphans() && jokers == 0 {
            let all = (0..KINDS).all(|k| !is_terminal_or_honor(k as u8) || c[k] >= 1);
            let only = (0..KINDS).all(|k| is_terminal_or_honor(k as u8) || c[k] == 0);
            if all && only {
                out.push(Shape::Orphans);
            }
        }
    }
    out
}

/// Whether the concealed tiles plus melds form a complete hand in the variant.
pub fn is_winning_hand(variant: Variant, conc: &TileCounts, melds: &[Meld]) -> bool {
    !shapes(variant, conc, melds).is_empty()
}

fn meld_sets(melds: &[Meld], wildcard: Option<u8>) -> Vec<Set> {
    melds
        .iter()
        .map(|m| Set {
            tile: if m.kind == MeldKind::Chow {
                m.base()
            } else {
                m.pung_kind(wildcard)
            },
            chow: m.kind == MeldKind::Chow,
            kong: matches!(m.kind, MeldKind::Kong | MeldKind::ConcealedKong),
            open: m.kind.is_open(),
            has_win_tile: false,
        })
        .collect()
}

/// Every tile kind used by a shape plus melds (with multiplicity ignored).
pub(crate) fn kinds_used(shape: &Shape, all_sets: &[Set]) -> Vec<u8> {
    match shape {
        Shape::Standard { pair, .. } => {
            let mut v = vec![*pair];
            for s in all_sets {
                if s.chow {
                    v.extend([s.tile, s.tile + 1, s.tile + 2]);
                } else {
                    v.push(s.tile);
                }
            }
            v
        }
        Shape::SevenPairs(k) => k.clone(),
        Shape::Orphans => (0..KINDS as u8)
            .filter(|&k| is_terminal_or_honor(k))
            .collect(),
    }
}

pub(crate) fn flush_kind(kinds: &[u8]) -> Option<bool> {
    // Some(true) = full flush, Some(false) = half flush, None = neither
    let suits: Vec<u8> = kinds
        .iter()
        .filter(|&&k| !is_honor(k))
        .map(|&k| suit_of(k))
        .collect();
    let honors = kinds.iter().any(|&k| is_honor(k));
    if suits.is_empty() || suits.iter().any(|&s| s != suits[0]) {
        return None;
    }
    Some(!honors)
}

/// Marks which concealed sets can hold the winning tile; returns one variant per choice.
fn with_win_tile(sets: &[Set], pair: u8, win: u8) -> Vec<(Vec<Set>, bool)> {
    let mut out = Vec::new();
    for (i, s) in sets.iter().enumerate() {
        let contains = if s.chow {
            (s.tile..s.tile + 3).contains(&win)
        } else {
            s.tile == win
        };
        if !s.open && contains {
            let mut v = sets.to_vec();
            v[i].has_win_tile = true;
            out.push((v, false));
        }
    }
    if pair == win {
        out.push((sets.to_vec(), true));
    }
    if out.is_empty() {
        out.push((sets.to_vec(), false));
    }
    out
}

/// Hong Kong fan of the best reading (see the module docs of `mod.rs` for the table).
pub fn hk_fan(input: &WinInput) -> Option<WinValue> {
    best_value(input, hk_score)
}

/// Riichi yaku (han without dora; each yakuman counts 13) of the reading with the most
/// han; the yaku themselves are judged by [`scoring::yaku`].
pub fn riichi_yaku(input: &WinInput) -> Option<WinValue> {
    best_value(input, riichi_score)
}

/// Red Dragon points of the best reading.
pub fn red_dragon_points(input: &WinInput) -> Option<WinValue> {
    best_value(input, rd_score)
}

/// The variant's value (fan / han / points) of the best reading; `None` if not complete.
pub fn win_value(input: &WinInput) -> Option<WinValue> {
    match input.variant {
        Variant::HongKong => hk_fan(input),
        Variant::Riichi => riichi_yaku(input),
        Variant::RedDragon => red_dragon_points(input),
    }
}

type Scorer = fn(&WinInput, &Shape, &[Set], bool) -> Vec<(&'static str, u32)>;

/// One reading of a complete hand: a decomposition with the winning tile placed in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// The shape as decomposed (for the standard form: the concealed sets only).
    pub shape: Shape,
    /// Every set: the melds first, then the concealed sets, the one the winning tile
    /// completed marked with `has_win_tile` (empty for seven pairs and orphans).
    pub sets: Vec<Set>,
    /// The winning tile completed the pair (a single wait).
    pub pair_wait: bool,
}

/// Every reading of a complete hand: each decomposition, and within it each concealed set
/// (or the pair) the winning tile may have completed; empty when the hand is not complete.
pub fn readings(variant: Variant, conc: &TileCounts, melds: &[Meld], win_tile: u8) -> Vec<Reading> {
    let melded = meld_sets(melds, variant.wildcard());
    let mut out = Vec::new();
    for shape in shapes(variant, conc, melds) {
        let placed: Vec<(Vec<Set>, bool)> = match &shape {
            Shape::Standard { sets, pair } => with_win_tile(sets, *pair, win_tile),
            _ => vec![(Vec::new(), false)],
        };
        for (sets, pair_wait) in placed {
            let mut all = melded.clone();
            all.extend(sets);
            out.push(Reading {
                shape: shape.clone(),
                sets: all,
                pair_wait,
            });
        }
    }
    out
}

fn best_value(input: &WinInput, scorer: Scorer) -> Option<WinValue> {
    let mut best: Option<WinValue> = None;
    for r in readings(input.variant, &input.conc, input.melds, input.win_tile) {
        let items = scorer(input, &r.shape, &r.sets, r.pair_wait);
        let value = items.iter().map(|i| i.1).sum::<u32>();
        if best.as_ref().is_none_or(|b| value > b.value) {
            let shape = match r.shape {
                Shape::Standard { pair, .. } => Shape::Standard { sets: r.sets, pair },
                s => s,
            };
            best = Some(WinValue {
                value,
                items,
                shape,
            });
        }
    }
    best
}

fn is_concealed(input: &WinInput) -> bool {
    input.melds.iter().all(|m| !m.kind.is_open())
}

fn pung_count(all: &[Set], f: impl Fn(u8) -> bool) -> usize {
    all.iter().filter(|s| !s.chow && f(s.tile)).count()
}

fn hk_score(
    input: &WinInput,
    shape: &Shape,
    all: &[Set],
    _pair_wait: bool,
) -> Vec<(&'static str, u32)> {
    let mut items: Vec<(&'static str, u32)> = Vec::new();
    let kinds = kinds_used(shape, all);
    if input.self_drawn {
        items.push(("self-drawn", 1));
    }
    if is_concealed(input) {
        items.push(("concealed hand", 1));
    }
    if input.flowers.is_empty() {
        items.push(("no flowers", 1));
    }
    let own = input
        .flowers
        .iter()
        .filter(|f| f.number == input.seat_wind.number())
        .count() as u32;
    if own > 0 {
        items.push(("own flower/season", own));
    }
    if kinds.iter().all(|&k| is_honor(k)) {
        items.push(("all honors", 13));
    } else {
        match flush_kind(&kinds) {
            Some(true) => items.push(("full flush", 7)),
            Some(false) => items.push(("mixed one suit", 3)),
            None => {}
        }
    }
    match shape {
        Shape::Orphans => items.push(("thirteen orphans", 13)),
        Shape::SevenPairs(_) => items.push(("seven pairs", 4)),
        Shape::Standard { pair, .. } => {
            let dragons = pung_count(all, is_dragon);
            let winds = pung_count(all, |k| (27..=30).contains(&k));
            let pair_dragon = is_dragon(*pair);
            if dragons == 3 {
                items.push(("great dragons", 8));
            } else {
                if dragons > 0 {
                    items.push(("dragon pung", dragons as u32));
                }
                if dragons == 2 && pair_dragon {
                    items.push(("small dragons", 3));
                }
            }
            if winds == 4 {
                items.push(("great winds", 13));
            } else if winds == 3 && (27..=30).contains(pair) {
                items.push(("small winds", 10));
            }
            if pung_count(all, |k| k == input.seat_wind.kind()) > 0 {
                items.push(("seat wind pung", 1));
            }
            if pung_count(all, |k| k == input.round_wind.kind()) > 0 {
                items.push(("round wind pung", 1));
            }
            if all.iter().all(|s| s.chow) {
                items.push(("all chows", 1));
            }
            if all.iter().all(|s| !s.chow) {
                let concealed_pungs = all
                    .iter()
                    .filter(|s| !s.open && (!s.has_win_tile || input.self_drawn))
                    .count();
                if concealed_pungs == 4 {
                    items.push(("four concealed pungs", 13));
                } else {
                    items.push(("all pungs", 3));
                }
            }
        }
    }
    let total: u32 = items.iter().map(|i| i.1).sum();
    if total > 13 {
        vec![("limit", 13)]
    } else {
        items
    }
}

/// The Riichi yaku of one reading, from what a [`WinInput`] knows (riichi and self-draw;
/// no situational flags such as ippatsu or haitei).
fn riichi_score(
    input: &WinInput,
    shape: &Shape,
    all: &[Set],
    pair_wait: bool,
) -> Vec<(&'static str, u32)> {
    let sit = Situation {
        self_drawn: input.self_drawn,
        riichi: input.riichi,
        seat_wind: input.seat_wind.kind(),
        round_wind: input.round_wind.kind(),
        ..Situation::default()
    };
    let hand = HandTiles {
        conc: &input.conc,
        melds: input.melds,
        win_tile: input.win_tile,
    };
    scoring::yaku(&hand, shape, all, pair_wait, &sit).items
}

fn rd_score(
    input: &WinInput,
    shape: &Shape,
    all: &[Set],
    _pair_wait: bool,
) -> Vec<(&'static str, u32)> {
    let mut items: Vec<(&'static str, u32)> = vec![("basic win", 2)];
    if input.self_drawn {
        items.push(("self-drawn", 2));
    }
    if input.conc.get(RED_DRAGON) == 0 {
        items.push(("no wildcard", 2));
    }
    let kinds = kinds_used(shape, all);
    match flush_kind(&kinds) {
        Some(true) => items.push(("full flush", 12)),
        Some(false) => items.push(("half flush", 6)),
        None => {}
    }
    match shape {
        Shape::SevenPairs(_) => items.push(("seven pairs", 6)),
        Shape::Standard { .. } if all.iter().all(|s| !s.chow) => items.push(("all pungs", 6)),
        _ => {}
    }
    items
}

/// Whether a win with this input is allowed by the variant's minimum (fan, yaku, points).
pub fn legal_win(input: &WinInput, min_fan: u8, min_score: u32) -> Option<WinValue> {
    let v = win_value(input)?;
    let ok = match input.variant {
        Variant::HongKong => v.value >= u32::from(min_fan),
        Variant::Riichi => v.value >= 1,
        Variant::RedDragon => v.value >= min_score,
    };
    ok.then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::tiles::{Tile, parse_tiles};

    fn counts(s: &str) -> TileCounts {
        TileCounts::from_tiles(&parse_tiles(s).unwrap())
    }

    fn input<'a>(
        variant: Variant,
        hand: &str,
        win: &str,
        tsumo: bool,
        melds: &'a [Meld],
    ) -> WinInput<'a> {
        WinInput {
            variant,
            conc: counts(hand),
            melds,
            win_tile: parse_tiles(win).unwrap()[0].index,
            self_drawn: tsumo,
            seat_wind: Wind::South,
            round_wind: Wind::East,
            flowers: &[],
            riichi: false,
        }
    }

    #[test]
    fn complete_forms() {
        assert!(is_winning_hand(
            Variant::Riichi,
            &counts("123m456p789s11222z"),
            &[]
        ));
        assert!(is_winning_hand(
            Variant::Riichi,
            &counts("1188m2288p55s1177z"),
            &[]
        ));
        assert!(is_winning_hand(
            Variant::HongKong,
            &counts("19m19p19s12345677z"),
            &[]
        ));
        assert!(!is_winning_hand(
            Variant::RedDragon,
            &counts("19m19p19s12345677z"),
            &[]
        ));
        assert!(!is_winning_hand(
            Variant::Riichi,
            &counts("1188m2288p55s1111z"),
            &[]
        ));
        assert!(is_winning_hand(
            Variant::RedDragon,
            &counts("13m456p789s111s22s7z"),
            &[]
        ));
        assert!(is_winning_hand(
            Variant::RedDragon,
            &counts("1m456p789s111s22s77z"),
            &[]
        ));
        assert!(is_winning_hand(
            Variant::RedDragon,
            &counts("1m456p789s111s2s777z"),
            &[]
        ));
        assert!(!is_winning_hand(
            Variant::Riichi,
            &counts("1m456p789s111s2s777z"),
            &[]
        ));
    }

    #[test]
    fn riichi_yaku_examples() {
        let i = input(Variant::Riichi, "234m456p678s23455s", "2s", false, &[]);
        let v = riichi_yaku(&i).unwrap();
        assert!(v.items.iter().any(|x| x.0 == "tanyao"));
        assert!(v.items.iter().any(|x| x.0 == "pinfu"));
        let i = input(Variant::Riichi, "123m456p789s11s777z", "1s", false, &[]);
        assert!(
            riichi_yaku(&i)
                .unwrap()
                .items
                .iter()
                .any(|x| x.0.starts_with("yakuhai"))
        );
        let i = input(Variant::Riichi, "123m456p789s11s567z", "1s", false, &[]);
        assert_eq!(riichi_yaku(&i).map(|v| v.value), None);
        let i = input(Variant::Riichi, "123m456p789s123s55z", "1s", false, &[]);
        assert_eq!(legal_win(&i, 0, 0), None);
        let i = input(Variant::Riichi, "123m456p789s123s55z", "1s", true, &[]);
        assert!(legal_win(&i, 0, 0).is_some());
    }

    #[test]
    fn hk_fan_examples() {
        let meld = [Meld {
            kind: MeldKind::Pung,
            tiles: vec![Tile::new(31); 3],
        }];
        let i = input(Variant::HongKong, "123m456m789m11m", "1m", false, &meld);
        let v = hk_fan(&i).unwrap();
        // mixed one suit 3 + dragon pung 1 + no flowers 1
        assert_eq!(v.value, 5, "{:?}", v.items);
        let i = input(Variant::HongKong, "123m456p789s11s234m", "1s", false, &[]);
        let v = hk_fan(&i).unwrap();
        // concealed 1 + no flowers 1 + all chows 1
        assert_eq!(v.value, 3, "{:?}", v.items);
        assert!(legal_win(&i, 3, 0).is_some());
        assert!(legal_win(&i, 4, 0).is_none());
    }

    #[test]
    fn red_dragon_points_examples() {
        let i = input(Variant::RedDragon, "123m456m789m11m777z", "1m", true, &[]);
        let v = red_dragon_points(&i).unwrap();
        assert!(v.items.iter().any(|x| x.0 == "full flush"), "{:?}", v.items);
        assert!(v.value >= 12);
    }
}
