//! Legal move generation.
//!
//! Moves come out grouped by type in [`ComboType`] order (solo, solo_chain,
//! pair, …, bomb, rocket), then by main rank, then by length, then by kickers
//! in a fixed enumeration order — deterministic for a given hand. Each card
//! multiset appears exactly once, with the one type it reads as.
//!
//! Generation works on rank bit masks (`ranks_with_at_least(n)`) and
//! enumerates wings by a small depth-first walk over candidate ranks with
//! per-rank caps, so nothing is generated and then filtered.

use super::cards::{Hand, Rank};
use super::combo::{
    Combo, ComboType, MAX_PAIR_CHAIN, MAX_PAIR_WING_PLANE, MAX_SOLO_CHAIN, MAX_SOLO_WING_PLANE,
    MAX_TRIO_CHAIN, MIN_PAIR_CHAIN, MIN_SOLO_CHAIN, MIN_TRIO_CHAIN, Rules, body_of,
};

/// All legal plays from `hand`.
///
/// * `last = None` (or a pass): every play that may lead; the pass is **not**
///   included (one may not pass on a lead).
/// * `last = Some(c)`: every play that beats `c` ([`super::beats`]); the pass is
///   **not** included either — the caller adds it, since passing is always
///   allowed when following.
pub fn legal_moves(hand: Hand, last: Option<&Combo>, rules: &Rules) -> Vec<Combo> {
    let mut out = Vec::new();
    legal_moves_into(&mut out, hand, last, rules);
    out
}

/// Like [`legal_moves`], but clears and fills a caller-owned buffer so search
/// code can reuse one allocation per ply.
pub fn legal_moves_into(out: &mut Vec<Combo>, hand: Hand, last: Option<&Combo>, rules: &Rules) {
    out.clear();
    match last {
        None => generate(hand, rules, Sel::all(), out),
        Some(c) if c.is_pass() => generate(hand, rules, Sel::all(), out),
        Some(c) => match c.kind {
            ComboType::Rocket => {}
            ComboType::Bomb => {
                let sel = Sel {
                    kinds: bit(ComboType::Bomb) | bit(ComboType::Rocket),
                    above: c.rank.index() as i32,
                    ..Sel::all()
                };
                generate(hand, rules, sel, out);
            }
            kind => {
                let same = Sel {
                    kinds: bit(kind),
                    above: c.rank.index() as i32,
                    length: c.length as usize,
                    ..Sel::all()
                };
                generate(hand, rules, same, out);
                let bombs = Sel {
                    kinds: bit(ComboType::Bomb) | bit(ComboType::Rocket),
                    ..Sel::all()
                };
                generate(hand, rules, bombs, out);
            }
        },
    }
}

/// Fills `out` (after clearing) with every legal play that contains the
/// lowest card of `hand`. Used by the splitter: every partition of a hand has
/// exactly one group holding its lowest card.
pub(crate) fn moves_with_lowest_into(out: &mut Vec<Combo>, hand: Hand, rules: &Rules) {
    out.clear();
    let sel = Sel {
        need_low: true,
        ..Sel::all()
    };
    generate(hand, rules, sel, out);
}

#[inline]
const fn bit(k: ComboType) -> u16 {
    1 << k as u16
}

/// Which moves to generate.
#[derive(Clone, Copy)]
struct Sel {
    /// Bit set of [`ComboType`]s.
    kinds: u16,
    /// Only main ranks strictly above this index (-1: any).
    above: i32,
    /// Only this length (0: any).
    length: usize,
    /// Only moves containing the hand's lowest card.
    need_low: bool,
}

impl Sel {
    const fn all() -> Sel {
        Sel {
            kinds: !1,
            above: -1,
            length: 0,
            need_low: false,
        }
    }
}

/// A body of `k` trios (or one four) for which wings are being enumerated.
struct Body {
    kind: ComboType,
    start: usize,
    k: usize,
    cards: Hand,
}

fn generate(hand: Hand, rules: &Rules, sel: Sel, out: &mut Vec<Combo>) {
    if hand.is_empty() {
        return;
    }
    let m1 = hand.rank_mask();
    let m2 = hand.ranks_with_at_least(2);
    let m3 = hand.ranks_with_at_least(3);
    let m4 = hand.ranks_with_at_least(4);
    let low = hand.lowest().map_or(0, Rank::index);
    let first = (sel.above + 1).max(0) as usize;
    let wants = |k: ComboType| sel.kinds & bit(k) != 0 && rules.allows(k);
    // Range of body starts: with `need_low`, a body must start at the lowest
    // rank, except carriers, whose kickers may hold the lowest card instead.
    let (s_lo, s_hi) = if sel.need_low {
        (low.max(first), low)
    } else {
        (first, 14)
    };

    let simple = |kind: ComboType, mask: u16, w: u32, out: &mut Vec<Combo>| {
        if sel.length > 1 {
            return;
        }
        let mut bits = mask & range_mask(s_lo, s_hi);
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out.push(Combo {
                kind,
                cards: Hand::of(Rank::ALL[s], w),
                rank: Rank::ALL[s],
                length: 1,
            });
        }
    };
    let chains =
        |kind: ComboType, mask: u16, w: u32, min: usize, max: usize, out: &mut Vec<Combo>| {
            for s in s_lo..=s_hi.min(11) {
                let mut len = 0;
                while s + len < 12 && mask & (1 << (s + len)) != 0 && len < max {
                    len += 1;
                    if len >= min && (sel.length == 0 || sel.length == len) {
                        out.push(Combo {
                            kind,
                            cards: body_of(s, len, w),
                            rank: Rank::ALL[s],
                            length: len as u8,
                        });
                    }
                }
            }
        };

    if wants(ComboType::Solo) {
        simple(ComboType::Solo, m1, 1, out);
    }
    if wants(ComboType::SoloChain) {
        chains(
            ComboType::SoloChain,
            m1,
            1,
            MIN_SOLO_CHAIN,
            MAX_SOLO_CHAIN,
            out,
        );
    }
    if wants(ComboType::Pair) {
        simple(ComboType::Pair, m2, 2, out);
    }
    if wants(ComboType::PairChain) {
        chains(
            ComboType::PairChain,
            m2,
            2,
            MIN_PAIR_CHAIN,
            MAX_PAIR_CHAIN,
            out,
        );
    }
    if wants(ComboType::Trio) {
        simple(ComboType::Trio, m3, 3, out);
    }
    if wants(ComboType::TrioChain) {
        chains(
            ComboType::TrioChain,
            m3,
            3,
            MIN_TRIO_CHAIN,
            MAX_TRIO_CHAIN,
            out,
        );
    }

    // Carriers: with `need_low` they may start anywhere at or above the
    // lowest rank (the lowest card then has to be a kicker).
    let (c_lo, c_hi) = if sel.need_low {
        (low.max(first), 14)
    } else {
        (first, 14)
    };
    let need = if sel.need_low { Some(low) } else { None };
    // A fourth card of a trio body's rank is simply never a kicker.
    for (kind, max_k, pairs) in [
        (ComboType::TrioSolo, 1, false),
        (ComboType::TrioSoloChain, MAX_SOLO_WING_PLANE, false),
        (ComboType::TrioPair, 1, true),
        (ComboType::TrioPairChain, MAX_PAIR_WING_PLANE, true),
    ] {
        if !wants(kind) {
            continue;
        }
        let min_k = if max_k == 1 { 1 } else { 2 };
        let mut starts = m3 & range_mask(c_lo, c_hi);
        while starts != 0 {
            let s = starts.trailing_zeros() as usize;
            starts &= starts - 1;
            // Consecutive trio ranks from `s` (planes stay within 3..A).
            let run = (!(m3 >> s)).trailing_zeros() as usize;
            let top = if max_k == 1 {
                1
            } else {
                run.min(12 - s.min(12)).min(max_k)
            };
            let (k_lo, k_hi) = if sel.length != 0 {
                (sel.length.max(min_k), sel.length.min(top))
            } else {
                (min_k, top)
            };
            for k in k_lo..=k_hi {
                let body = Body {
                    kind,
                    start: s,
                    k,
                    cards: body_of(s, k, 3),
                };
                let kick_need = if s == low { None } else { need };
                if pairs {
                    pair_wings(hand, &body, k, kick_need, out);
                } else {
                    solo_wings(hand, &body, k, kick_need, out);
                }
            }
        }
    }
    for (kind, pairs) in [
        (ComboType::FourTwoSolo, false),
        (ComboType::FourTwoPair, true),
    ] {
        if !wants(kind) || sel.length > 1 {
            continue;
        }
        let mut starts = m4 & range_mask(c_lo, c_hi);
        while starts != 0 {
            let s = starts.trailing_zeros() as usize;
            starts &= starts - 1;
            let body = Body {
                kind,
                start: s,
                k: 1,
                cards: Hand::of(Rank::ALL[s], 4),
            };
            let kick_need = if s == low { None } else { need };
            if pairs {
                pair_wings(hand, &body, 2, kick_need, out);
            } else {
                solo_wings(hand, &body, 2, kick_need, out);
            }
        }
    }
    if wants(ComboType::Bomb) {
        simple(ComboType::Bomb, m4, 4, out);
    }
    if wants(ComboType::Rocket)
        && m1 & 0x6000 == 0x6000
        && sel.length <= 1
        && (!sel.need_low || low == 13)
    {
        out.push(Combo::ROCKET);
    }
}

/// Bit mask of rank indices `lo..=hi` (empty when `lo > hi`).
#[inline]
fn range_mask(lo: usize, hi: usize) -> u16 {
    if lo > hi {
        0
    } else {
        (((2u32 << hi) - (1u32 << lo)) & 0x7FFF) as u16
    }
}

/// Candidate kicker ranks with their caps, plus the jokers.
struct Cands {
    ranks: [(u8, u8); 15],
    n: usize,
    jokers: [u8; 2],
    nj: usize,
    /// `suffix[i]`: total capacity of `ranks[i..]` plus one if a joker is available.
    suffix: [u8; 16],
}

/// Enumerates the single wings (`n` cards) for `body`; see
/// [`super::combo`] for the wing rules. With `need = Some(r)` only wing sets
/// holding a card of rank `r` (the hand's lowest) are produced.
fn solo_wings(hand: Hand, body: &Body, n: usize, need: Option<usize>, out: &mut Vec<Combo>) {
    let pool = hand.sub(body.cards);
    let body_mask = (((1u32 << body.k) - 1) << body.start) as u16;
    let mut c = Cands {
        ranks: [(0, 0); 15],
        n: 0,
        jokers: [0; 2],
        nj: 0,
        suffix: [0; 16],
    };
    let plane = body.kind == ComboType::TrioSoloChain;
    let adj_lo = body.start.wrapping_sub(1);
    let adj_hi = body.start + body.k;
    let mut m = pool.rank_mask() & !body_mask;
    if let Some(r) = need
        && m & (1 << r) == 0
    {
        return;
    }
    while m != 0 {
        let r = m.trailing_zeros() as usize;
        m &= m - 1;
        if r >= 13 {
            c.jokers[c.nj] = r as u8;
            c.nj += 1;
            continue;
        }
        let mut cap = pool.count_at(r).min(3);
        if plane && (r == adj_lo || (r == adj_hi && r < 12)) {
            cap = cap.min(2);
        }
        c.ranks[c.n] = (r as u8, cap as u8);
        c.n += 1;
    }
    let mut acc = (c.nj > 0) as u8;
    c.suffix[c.n] = acc;
    for i in (0..c.n).rev() {
        acc += c.ranks[i].1;
        c.suffix[i] = acc;
    }
    if (c.suffix[0] as usize) < n {
        return;
    }
    // When the lowest card is required it is the first candidate (it is the
    // lowest rank of the whole hand); a joker as the lowest card is only
    // possible in a hand of jokers, which holds no carrier.
    let min_first = match need {
        Some(r) => {
            if c.n == 0 || c.ranks[0].0 as usize != r {
                return;
            }
            1
        }
        None => 0,
    };
    solo_rec(&c, body, 0, n, min_first, Hand::EMPTY, out);
}

fn solo_rec(
    c: &Cands,
    body: &Body,
    i: usize,
    need: usize,
    min_here: u32,
    acc: Hand,
    out: &mut Vec<Combo>,
) {
    if need == 0 {
        push_carrier(body, acc, out);
        return;
    }
    if (c.suffix[i] as usize) < need {
        return;
    }
    if i == c.n {
        // need == 1 here (suffix counts at most one joker).
        for &j in &c.jokers[..c.nj] {
            push_carrier(body, acc.add(Hand::of(Rank::ALL[j as usize], 1)), out);
        }
        return;
    }
    let (r, cap) = c.ranks[i];
    let top = (cap as usize).min(need) as u32;
    for take in min_here..=top {
        let acc2 = acc.add(Hand::of(Rank::ALL[r as usize], take));
        solo_rec(c, body, i + 1, need - take as usize, 0, acc2, out);
    }
}

/// Enumerates pair wings: `n` pairs of distinct non-joker ranks outside the body.
fn pair_wings(hand: Hand, body: &Body, n: usize, need: Option<usize>, out: &mut Vec<Combo>) {
    let pool = hand.sub(body.cards);
    let body_mask = (((1u32 << body.k) - 1) << body.start) as u16;
    let cands = pool.ranks_with_at_least(2) & !body_mask & 0x1FFF;
    if (cands.count_ones() as usize) < n {
        return;
    }
    match need {
        Some(r) => {
            if cands & (1 << r) == 0 {
                return;
            }
            let first = Hand::of(Rank::ALL[r], 2);
            pair_rec(cands & !(1 << r), body, n - 1, first, out);
        }
        None => pair_rec(cands, body, n, Hand::EMPTY, out),
    }
}

fn pair_rec(cands: u16, body: &Body, need: usize, acc: Hand, out: &mut Vec<Combo>) {
    if need == 0 {
        push_carrier(body, acc, out);
        return;
    }
    let mut m = cands;
    while m.count_ones() as usize >= need {
        let r = m.trailing_zeros() as usize;
        m &= m - 1;
        pair_rec(m, body, need - 1, acc.add(Hand::of(Rank::ALL[r], 2)), out);
    }
}

#[inline]
fn push_carrier(body: &Body, kickers: Hand, out: &mut Vec<Combo>) {
    out.push(Combo {
        kind: body.kind,
        cards: body.cards.add(kickers),
        rank: Rank::ALL[body.start],
        length: body.k as u8,
    });
}
