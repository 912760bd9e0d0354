//! The classic strategy, the seed's bot: hand plans (tiers, flushes, all pungs,
//! Riichi's open or closed rule), the tile categories of its discard priority list
//! (dead, problem, isolated, secondary tiles, incomplete and dead sequences and
//! pairs) and its ranking. The turn and claim pipeline that uses them is in
//! [`super::decide`]; the efficient strategy ranks the same candidates otherwise.

use super::shanten::{
    Forms, KeyHashBuilder, live_counts, max_sets, shanten_forms, ukeire, ukeire_forms,
};
use super::tiles::{
    KINDS, MeldKind, Tile, TileCounts, Variant, edge_rank, is_dragon, is_honor, suit_of,
};
use super::{Candidate, Category, HandSetup, Plan, is_value_honor};

/// Hong Kong / Red Dragon tier from the minimum: 0, 1 (pungs or half flush), 2 (sure fan
/// or full flush), 3 (full flush only).
pub fn tier(ctx: &HandSetup) -> u8 {
    match ctx.variant {
        Variant::HongKong => match ctx.min_fan {
            0 => 0,
            1..=3 => 1,
            4..=6 => 2,
            _ => 3,
        },
        Variant::RedDragon => match ctx.min_score {
            0 => 0,
            1..=11 => 1,
            _ => 3,
        },
        Variant::Riichi => 0,
    }
}

fn suit_totals(ctx: &HandSetup) -> ([u32; 3], u32) {
    let mut suits = [0u32; 3];
    let mut honors = 0;
    let all = ctx
        .hand
        .iter()
        .chain(ctx.melds.iter().flat_map(|m| m.tiles.iter()));
    for t in all {
        if is_honor(t.index) {
            honors += 1;
        } else {
            suits[suit_of(t.index) as usize] += 1;
        }
    }
    (suits, honors)
}

/// The suit a flush would use: forced by suited melds, else the suit held most.
fn flush_suit(ctx: &HandSetup) -> Option<u8> {
    let mut meld_suits = ctx
        .melds
        .iter()
        .map(|m| m.base())
        .filter(|&b| !is_honor(b))
        .map(suit_of);
    let (suits, _) = suit_totals(ctx);
    match meld_suits.next() {
        Some(s) => meld_suits.all(|x| x == s).then_some(s),
        None => (0..3u8).max_by_key(|&s| (suits[s as usize], std::cmp::Reverse(s))),
    }
}

fn has_sure_fan(ctx: &HandSetup) -> bool {
    let c = ctx.concealed();
    let own_flower = ctx
        .flowers
        .iter()
        .any(|f| f.number == ctx.seat_wind.number());
    let value_pung = |k: u8| {
        (is_dragon(k) || k == ctx.seat_wind.kind() || k == ctx.round_wind.kind())
            && Some(k) != ctx.variant.wildcard()
    };
    let in_hand = (27..34u8).any(|k| value_pung(k) && c.get(k) >= 3);
    let in_melds = ctx
        .melds
        .iter()
        .any(|m| m.kind != MeldKind::Chow && value_pung(m.pung_kind(ctx.variant.wildcard())));
    own_flower || in_hand || in_melds
}

/// The seed's pungs-vs-half-flush comparison (tier 1).
fn pungs_or_half_flush(ctx: &HandSetup) -> Plan {
    let c = ctx.concealed();
    let wild = ctx.variant.wildcard();
    let chow_meld = ctx.melds.iter().any(|m| m.kind == MeldKind::Chow);
    let meld_pungs = ctx
        .melds
        .iter()
        .filter(|m| m.kind != MeldKind::Chow)
        .count() as i32;
    let hand_pungs = c
        .kinds()
        .filter(|&(k, n)| Some(k) != wild && n >= 3)
        .count() as i32;
    let pairs = c
        .kinds()
        .filter(|&(k, n)| Some(k) != wild && n == 2)
        .count() as i32;
    let pung_score = if chow_meld {
        -1
    } else {
        5 * (meld_pungs + hand_pungs) + 2 * pairs
    };
    let (suits, honors) = suit_totals(ctx);
    let flush = flush_suit(ctx);
    let flush_score = flush.map_or(-1, |s| 15 + 2 * suits[s as usize] as i32 + honors as i32);
    if pung_score < 0 && flush_score < 0 {
        return Plan::Free;
    }
    match flush {
        Some(s) if flush_score >= pung_score => Plan::HalfFlush(s),
        _ => Plan::AllPungs,
    }
}

/// Riichi open/closed decision: open when an open meld exists, or a yakuhai (dragon,
/// seat or round wind) pung/kong or live yakuhai pair is held; closed otherwise.
fn riichi_plan(ctx: &HandSetup) -> Plan {
    if ctx.has_open_meld() {
        return Plan::RiichiOpen;
    }
    let c = ctx.concealed();
    let live = live_counts(ctx.variant, &ctx.seen());
    let yakuhai = (27..34u8).any(|k| {
        is_value_honor(ctx, k) && (c.get(k) >= 3 || (c.get(k) == 2 && live[k as usize] > 0))
    }) || ctx
        .melds
        .iter()
        .any(|m| m.kind == MeldKind::ConcealedKong && is_value_honor(ctx, m.base()));
    if yakuhai {
        Plan::RiichiOpen
    } else {
        Plan::RiichiClosed
    }
}

/// Chooses the plan for the hand.
pub fn choose_plan(ctx: &HandSetup) -> Plan {
    if ctx.variant == Variant::Riichi {
        return riichi_plan(ctx);
    }
    let full = || flush_suit(ctx).map_or(Plan::Free, Plan::FullFlush);
    match tier(ctx) {
        0 => Plan::Free,
        1 => pungs_or_half_flush(ctx),
        2 if has_sure_fan(ctx) => pungs_or_half_flush(ctx),
        _ => full(),
    }
}

/// Kinds of a yakuhai pair the open Riichi plan rests on (never discarded).
fn protected_pairs(ctx: &HandSetup, plan: Plan) -> Vec<u8> {
    if plan != Plan::RiichiOpen {
        return Vec::new();
    }
    let c = ctx.concealed();
    let pung_held = (27..34u8).any(|k| is_value_honor(ctx, k) && c.get(k) >= 3)
        || ctx
            .melds
            .iter()
            .any(|m| m.kind != MeldKind::Chow && is_value_honor(ctx, m.base()));
    if pung_held {
        return Vec::new();
    }
    (27..34u8)
        .filter(|&k| is_value_honor(ctx, k) && c.get(k) == 2)
        .collect()
}

thread_local! {
    static BLOCKS: std::cell::RefCell<std::collections::HashMap<u32, u32, KeyHashBuilder>> =
        std::cell::RefCell::new(std::collections::HashMap::default());
}

/// Max over decompositions of one suit of sets·100 + (pairs + adjacent partials)·10 + gap
/// partials (memoised per pattern).
fn block_score(c: &mut [u8; 9], i: usize) -> u32 {
    let mut i = i;
    while i < 9 && c[i] == 0 {
        i += 1;
    }
    if i == 9 {
        return 0;
    }
    let key = c.iter().fold(0u32, |acc, &x| acc * 5 + u32::from(x.min(4)));
    if let Some(v) = BLOCKS.with(|b| b.borrow().get(&key).copied()) {
        return v;
    }
    let mut best = 0;
    let mut branch = |c: &mut [u8; 9], take: &[usize], w: u32| {
        for &x in take {
            c[x] -= 1;
        }
        best = best.max(w + block_score(c, i));
        for &x in take {
            c[x] += 1;
        }
    };
    if c[i] >= 3 {
        branch(c, &[i, i, i], 100);
    }
    if i + 2 < 9 && c[i + 1] > 0 && c[i + 2] > 0 {
        branch(c, &[i, i + 1, i + 2], 100);
    }
    if c[i] >= 2 {
        branch(c, &[i, i], 10);
    }
    for (d, w) in [(1usize, 10u32), (2, 1)] {
        if i + d < 9 && c[i + d] > 0 {
            branch(c, &[i, i + d], w);
        }
    }
    branch(c, &[i], 0);
    BLOCKS.with(|b| b.borrow_mut().insert(key, best));
    best
}

fn suit_slice(c: &TileCounts, suit: u8) -> [u8; 9] {
    let mut s = [0u8; 9];
    s.copy_from_slice(&c.0[suit as usize * 9..suit as usize * 9 + 9]);
    s
}

/// The seed's definitions for every kind in the hand (`None` for absent kinds / wildcards).
/// `chows = false` is the all-pungs view (sequences are not considered).
pub fn categorize(ctx: &HandSetup, chows: bool) -> [Option<Category>; KINDS] {
    let c = ctx.concealed();
    let live = live_counts(ctx.variant, &ctx.seen());
    let vis = ctx.visible_counts();
    let wild = ctx.variant.wildcard();
    let mut out = [None; KINDS];
    let sets_now = max_sets(&c.0, chows);
    let avail = |k: u8| c.get(k) > 0 || live[k as usize] > 0;
    let same_suit = |a: u8, d: i8| -> Option<u8> {
        let r = (a % 9) as i8 + d;
        (a < 27 && (0..9).contains(&r)).then(|| a - a % 9 + r as u8)
    };
    let chow_possible = |k: u8| -> bool {
        if !chows || k >= 27 {
            return false;
        }
        (-2i8..=0).any(|start| {
            (0..3).all(|o| {
                let d = start + o;
                match same_suit(k, d) {
                    Some(x) if d == 0 => x == k,
                    Some(x) => avail(x),
                    None => false,
                }
            })
        })
    };
    let neighbor = |k: u8, d: i8| same_suit(k, d).is_some_and(|x| c.get(x) > 0);
    let dead_pairs = c
        .kinds()
        .filter(|&(k, n)| Some(k) != wild && n == 2 && live[k as usize] == 0)
        .count();
    let mut block_now = [0u32; 3];
    for s in 0..3u8 {
        block_now[s as usize] = block_score(&mut suit_slice(&c, s), 0);
    }
    for (k, n) in c.kinds() {
        if Some(k) == wild {
            continue;
        }
        let mut after = c;
        after.remove(k);
        let protected = max_sets(&after.0, chows) < sets_now;
        let honor_like = is_honor(k) || !chows;
        let isolated = n == 1 && (honor_like || !(-2i8..=2).any(|d| d != 0 && neighbor(k, d)));
        let cat = if n == 1 && live[k as usize] == 0 && !chow_possible(k) && !protected {
            Category::Dead
        } else if n == 1
            && ((is_honor(k) && (1..=2).contains(&vis.get(k)))
                || (!is_honor(k) && !chow_possible(k) && !protected))
        {
            // a half-seen single honor, or a number tile that can only become a pair
            Category::Problem
        } else if protected {
            Category::Set
        } else if chows && !is_honor(k) && n == 1 && {
            // every adjacent partial through k is dead and k has no live connection
            let adj: Vec<i8> = [-1i8, 1].into_iter().filter(|&d| neighbor(k, d)).collect();
            !adj.is_empty()
                && adj.iter().all(|&d| {
                    let lo = if d < 0 { same_suit(k, -1) } else { Some(k) };
                    let lo = lo.unwrap_or(k);
                    let below = same_suit(lo, -1).is_some_and(|x| live[x as usize] > 0);
                    let above = same_suit(lo, 2).is_some_and(|x| live[x as usize] > 0);
                    !below && !above
                })
                && ![-2i8, 2].iter().any(|&d| neighbor(k, d))
        } {
            Category::DeadIncompleteSequence
        } else if n == 2 && live[k as usize] == 0 && dead_pairs > 1 {
            Category::DeadPairOfMany
        } else if isolated && !is_honor(k) {
            Category::IsolatedNumber
        } else if isolated {
            Category::IsolatedHonor
        } else if chows && !is_honor(k) && n == 1 && {
            let s = suit_of(k);
            let mut sl = suit_slice(&after, s);
            block_score(&mut sl, 0) >= block_now[s as usize]
        } {
            Category::Secondary
        } else if chows && !is_honor(k) && n == 1 {
            Category::IncompleteSequence
        } else if n == 2 && live[k as usize] == 0 {
            Category::DeadPair
        } else if n >= 2 {
            Category::Pair
        } else {
            Category::IncompleteSequence
        };
        out[k as usize] = Some(cat);
    }
    out
}

/// Per-kind numbers for every distinct concealed kind.
pub fn candidates(ctx: &HandSetup, plan: Plan) -> Vec<Candidate> {
    let c = ctx.concealed();
    let live = live_counts(ctx.variant, &ctx.seen());
    let melds = ctx.melds.len();
    let wild = ctx.variant.wildcard();
    let cats = categorize(ctx, plan != Plan::AllPungs);
    let protected = protected_pairs(ctx, plan);
    let mut out = Vec::new();
    for (k, _) in c.kinds() {
        let mut after = c;
        after.remove(k);
        let (shanten, uk, _) = ukeire(ctx.variant, &after, melds, &live);
        let (std_shanten, std_ukeire, _) =
            ukeire_forms(ctx.variant, &after, melds, &live, Forms::Standard);
        let plan_shanten = if plan == Plan::AllPungs {
            shanten_forms(ctx.variant, &after, melds, Forms::Pungs)
        } else {
            std_shanten
        };
        let locked = Some(k) == wild
            || protected.contains(&k)
            || (ctx.riichi_declared && ctx.drawn.is_some_and(|d| d.index != k));
        let tile = pick_tile(&ctx.hand, k);
        out.push(Candidate {
            tile,
            shanten,
            ukeire: uk,
            category: cats[k as usize].unwrap_or(Category::Set),
            std_shanten,
            std_ukeire,
            plan_shanten,
            off_plan: !plan.on_plan(k, wild),
            locked,
        });
    }
    out
}

/// The physical tile to give up for a kind: a plain copy before a red five.
fn pick_tile(hand: &[Tile], k: u8) -> Tile {
    hand.iter()
        .filter(|t| t.index == k)
        .min_by_key(|t| t.red)
        .copied()
        .unwrap_or(Tile::new(k))
}

/// Classic ranking: the priority list, ties by plan shanten, standard shanten, ukeire.
pub(crate) fn classic_pick(cands: &[Candidate]) -> Option<&Candidate> {
    let pool: Vec<&Candidate> = cands.iter().filter(|c| !c.locked).collect();
    let off: Vec<&Candidate> = pool.iter().copied().filter(|c| c.off_plan).collect();
    let pool = if off.is_empty() { pool } else { off };
    pool.into_iter().min_by_key(|c| {
        (
            c.category,
            c.plan_shanten,
            c.std_shanten,
            std::cmp::Reverse(c.std_ukeire),
            edge_rank(c.tile.index),
            c.tile.index,
        )
    })
}
