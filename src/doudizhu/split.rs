//! Hand splitting: the best way to play a hand out as a sequence of plays.
//!
//! # Algorithm
//!
//! Every partition of a hand into legal plays has exactly one play holding the
//! hand's lowest card. So the minimum is
//! `plays(h) = 1 + min over plays m ∋ lowest(h) of plays(h − m)`,
//! searched depth-first with memoisation keyed by the packed `u64` hand. Plays
//! with kickers are generated with their kickers (a trio, plane or four takes
//! its wings from anywhere in the hand, and the lowest card may itself be a
//! wing of a higher body), so the search covers every partition and the
//! minimum is exact, not a heuristic.
//!
//! Speed comes from pruning that never changes the answer: each child is only
//! asked whether it can finish within a budget (one play fewer than the best
//! sibling so far, or equal when ties on score still matter), children whose
//! cheap [`lower_bound`] exceeds the budget are skipped, budgets of 0 and 1 are
//! answered by an emptiness check and one `classify`, and bigger plays are
//! tried first so that budgets tighten early. The tests compare the result
//! with a plain brute force on tens of thousands of small hands and with an
//! unpruned exhaustive search on big ones.
//!
//! # Score
//!
//! Among the partitions with the fewest plays, the one with the highest
//! `score = Σ group_value(g) − 7 × plays` is chosen (the shape of the classic
//! "SumValue − 7 × NeedRound" evaluation). [`group_value`] rewards plays that
//! are hard to beat — high ranks, bombs, the rocket — and punishes low solos
//! and pairs, so ties prefer keeping control cards and dumping low cards as
//! kickers. Remaining ties go to the play generated first (see
//! [`super::legal_moves`] for the order), so results are deterministic.

use super::cards::Hand;
use super::combo::{Combo, ComboType, Rules, classify};
use super::moves::moves_with_lowest_into;
use std::cell::RefCell;

/// The result of [`split`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// The plays, in the order the search found them (by lowest card,
    /// ascending). They partition the hand exactly.
    pub groups: Vec<Combo>,
    /// The minimum possible number of plays (`groups.len()`).
    pub plays: usize,
    /// `Σ group_value(g) − 7 × plays` over `groups`; higher is stronger.
    pub score: i32,
}

/// Value of one play for [`Split::score`].
///
/// With `v(r) = index(r) − 7` (3 → −7, 10 → 0, A → 4, 2 → 5, black joker 6,
/// red joker 7):
/// * solo, pair, trio, trio_solo, trio_pair: `v(rank)` — kickers add nothing,
///   they only ride along;
/// * chains and planes: `v(top rank) + 1` — judged by their top card, a bit
///   stronger since they need the same shape to be beaten;
/// * bomb: `10 + index(rank)` (10 for 3333 … 22 for 2222); rocket: 20 — each
///   is a control that wins a round on its own;
/// * four with kickers: `v(rank) / 2` — spending a bomb's cards as an
///   ordinary play throws most of its power away.
pub fn group_value(c: &Combo) -> i32 {
    let v = |i: usize| i as i32 - 7;
    let r = c.rank.index();
    match c.kind {
        ComboType::Pass => 0,
        ComboType::Solo
        | ComboType::Pair
        | ComboType::Trio
        | ComboType::TrioSolo
        | ComboType::TrioPair => v(r),
        ComboType::SoloChain
        | ComboType::PairChain
        | ComboType::TrioChain
        | ComboType::TrioSoloChain
        | ComboType::TrioPairChain => v(r + c.length as usize - 1) + 1,
        ComboType::Bomb => 10 + r as i32,
        ComboType::Rocket => 20,
        ComboType::FourTwoSolo | ComboType::FourTwoPair => v(r) / 2,
    }
}

/// Splits `hand` into the fewest plays, ties broken by the highest score.
/// Works for any hand (intended for 1–20 cards); the empty hand gives no groups.
pub fn split(hand: Hand, rules: &Rules) -> Split {
    if hand.is_empty() {
        return Split {
            groups: Vec::new(),
            plays: 0,
            score: 0,
        };
    }
    MEMO.with(|m| {
        let mut memo = m.borrow_mut();
        memo.begin();
        let budget = hand.len().min(255) as u8;
        let (plays, value) = solve(hand, budget, true, rules, &mut memo, 0)
            .expect("a hand can always be played out as solos");
        let mut groups = Vec::with_capacity(plays as usize);
        let mut h = hand;
        while !h.is_empty() {
            // Searched states are memoised with their best play; a last
            // single play may have been checked directly with `classify`.
            let g = match memo.get(h).filter(|e| e.exact) {
                Some(e) => classify(Hand::from_bits(e.best), rules).expect("memoised play"),
                None => classify(h, rules).expect("unmemoised remainder is one play"),
            };
            groups.push(g);
            h = h.sub(g.cards);
        }
        Split {
            groups,
            plays: plays as usize,
            score: value - 7 * plays as i32,
        }
    })
}

/// The minimum number of plays needed to play `hand` out (exact; equals
/// `split(hand, rules).plays`). Cheaper than [`split`] because it stops as
/// soon as no better count is possible; meant as the endgame solver's bound:
/// a player needs at least this many more turns.
pub fn min_plays(hand: Hand, rules: &Rules) -> usize {
    if hand.is_empty() {
        return 0;
    }
    MEMO.with(|m| {
        let mut memo = m.borrow_mut();
        memo.begin();
        let budget = hand.len().min(255) as u8;
        solve(hand, budget, false, rules, &mut memo, 0).map_or(0, |r| r.0 as usize)
    })
}

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo::new());
}

#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    stamp: u32,
    /// Cards of the best first play (its type is recovered with `classify`,
    /// readings being unique), keeping entries at 24 bytes.
    best: u64,
    value: i16,
    plays: u8,
    /// `plays` is the exact minimum (else: a lower bound on it).
    exact: bool,
}

/// Open-addressing table keyed by the hand's bits, reused across calls: a
/// stamp per call marks live entries, so starting a search clears nothing.
struct Memo {
    entries: Vec<Entry>,
    mask: usize,
    len: usize,
    stamp: u32,
    /// One move buffer per search depth, kept between calls.
    bufs: Vec<Vec<Combo>>,
}

const INITIAL_CAP: usize = 1 << 12;
const MAX_KEPT: usize = 1 << 14;

const EMPTY_ENTRY: Entry = Entry {
    key: 0,
    stamp: 0,
    best: 0,
    value: 0,
    plays: 0,
    exact: false,
};

impl Memo {
    fn new() -> Memo {
        let cap = INITIAL_CAP;
        Memo {
            entries: vec![EMPTY_ENTRY; cap],
            mask: cap - 1,
            len: 0,
            stamp: 0,
            bufs: Vec::new(),
        }
    }

    fn begin(&mut self) {
        // Keep the table small enough to stay in cache: a rare huge search
        // must not leave every later call probing a sparse multi-megabyte table.
        if self.entries.len() > MAX_KEPT {
            self.entries = vec![EMPTY_ENTRY; INITIAL_CAP];
            self.mask = INITIAL_CAP - 1;
            self.stamp = 0;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.entries.fill(EMPTY_ENTRY);
            self.stamp = 1;
        }
        self.len = 0;
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & self.mask
    }

    #[inline]
    fn get(&self, h: Hand) -> Option<&Entry> {
        let key = h.bits();
        let mut i = self.slot(key);
        loop {
            let e = &self.entries[i];
            if e.stamp != self.stamp {
                return None;
            }
            if e.key == key {
                return Some(e);
            }
            i = (i + 1) & self.mask;
        }
    }

    fn insert(&mut self, h: Hand, exact: bool, plays: u8, value: i32, best: Hand) {
        if (self.len + 1) * 2 > self.entries.len() {
            self.grow();
        }
        let key = h.bits();
        let mut i = self.slot(key);
        loop {
            let e = &mut self.entries[i];
            if e.stamp != self.stamp || e.key == key {
                if e.stamp != self.stamp {
                    self.len += 1;
                }
                *e = Entry {
                    key,
                    stamp: self.stamp,
                    exact,
                    plays,
                    value: value as i16,
                    best: best.bits(),
                };
                return;
            }
            i = (i + 1) & self.mask;
        }
    }

    fn grow(&mut self) {
        let old = std::mem::replace(&mut self.entries, vec![EMPTY_ENTRY; 0]);
        let cap = old.len() * 2;
        self.entries = vec![EMPTY_ENTRY; cap];
        self.mask = cap - 1;
        self.len = 0;
        for e in old {
            if e.stamp == self.stamp {
                let (k, b) = (Hand::from_bits(e.key), Hand::from_bits(e.best));
                self.insert(k, e.exact, e.plays, e.value as i32, b);
            }
        }
    }

    fn take_buf(&mut self, depth: usize) -> Vec<Combo> {
        while self.bufs.len() <= depth {
            self.bufs.push(Vec::new());
        }
        std::mem::take(&mut self.bufs[depth])
    }
}

/// A cheap lower bound on the number of plays for `h` (0 for the empty hand).
///
/// Cut the ranks into clusters that no play body can span: runs of
/// consecutive ranks within 3…A, the 2s, and the jokers. Without kickers every
/// cluster needs its own bodies — one per rank when the cluster is too short
/// for any chain, and at least one more for every two places where the count
/// changes from one rank to the next (a chain is equally thick throughout). Each kicker unit (a single or a pair
/// riding on a trio, plane or four) lowers the kicker-free minimum by at most
/// one, and the hand offers at most one unit per trio rank and two per four
/// (as far as the rules allow), so `bodies − units` bounds the plays.
pub(crate) fn lower_bound(h: Hand, rules: &Rules) -> u8 {
    if h.is_empty() {
        return 0;
    }
    let m1 = h.rank_mask();
    let m2 = h.ranks_with_at_least(2);
    let m3 = h.ranks_with_at_least(3);
    let m4 = h.ranks_with_at_least(4);
    let mut bodies = u32::from(m1 & (1 << 12) != 0) + u32::from(m1 & 0x6000 != 0);
    // Bit i: ranks i and i + 1 have different counts.
    let diff = Hand::from_bits(h.bits() ^ (h.bits() >> 4)).rank_mask();
    let mut runs = m1 & 0x0FFF;
    while runs != 0 {
        let a = runs.trailing_zeros();
        let len = (!(runs >> a)).trailing_zeros();
        let run_mask = (((1u32 << len) - 1) << a) as u16;
        runs &= !run_mask;
        // Chains have the same count on every rank, so each place where the
        // count changes inside the run is an end of some body, and a body has
        // two ends (the run's outer edges are ends too).
        let changes = (diff & run_mask & (run_mask >> 1)).count_ones();
        let by_ends = 1 + changes.div_ceil(2);
        let short = if len >= 5 {
            1
        } else {
            let p = m2 & run_mask;
            let t = m3 & run_mask;
            let pair_chain = p & (p >> 1) & (p >> 2) != 0;
            let trio_chain = t & (t >> 1) != 0;
            if pair_chain || trio_chain { 1 } else { len }
        };
        bodies += by_ends.max(short);
    }
    let trio_wings = rules.trio_solo || rules.trio_pair;
    let four_wings = rules.four_two_solo || rules.four_two_pair;
    let trios = (m3 & !m4).count_ones();
    let fours = m4.count_ones();
    let units = if trio_wings { trios } else { 0 }
        + fours * if four_wings { 2 } else { u32::from(trio_wings) };
    bodies.saturating_sub(units).clamp(1, 255) as u8
}

/// Best `(plays, value)` for `h` if it can be played out in at most
/// `budget` plays, else `None`. With `score == false` only the play count is
/// exact (the value is meaningless) and ties are not explored.
///
/// The budget is what makes the search fast: a child is only asked whether it
/// can do strictly better than (or, when scoring, as well as) the best sibling
/// found so far, so most children fail at budget 0 or 1 — an empty check or
/// one `classify`. Results are memoised as exact answers or as lower bounds.
fn solve(
    h: Hand,
    budget: u8,
    score: bool,
    rules: &Rules,
    memo: &mut Memo,
    depth: usize,
) -> Option<(u8, i32)> {
    if h.is_empty() {
        return Some((0, 0));
    }
    if budget == 0 {
        return None;
    }
    if let Some(e) = memo.get(h) {
        if e.exact {
            return (e.plays <= budget).then_some((e.plays, e.value as i32));
        }
        if e.plays > budget {
            return None;
        }
    }
    // A hand that is one play cannot be split into fewer.
    if let Some(c) = classify(h, rules) {
        let v = group_value(&c);
        memo.insert(h, true, 1, v, c.cards);
        return Some((1, v));
    }
    if budget == 1 {
        memo.insert(h, false, 2, 0, Hand::EMPTY);
        return None;
    }
    let mut buf = memo.take_buf(depth);
    moves_with_lowest_into(&mut buf, h, rules);
    // Big plays first: they find short splits early and so tighten budgets.
    buf.sort_unstable_by_key(|m| std::cmp::Reverse(m.cards.len()));
    let floor = lower_bound(h, rules).max(2);
    let mut best: Option<(u8, i32, Combo)> = None;
    for m in &buf {
        let child_budget = match best {
            None => budget - 1,
            Some((p, _, _)) if score => p - 1,
            Some((p, _, _)) => p - 2,
        };
        let rest = h.sub(m.cards);
        // Budgets 0 and 1 are answered without touching the memo.
        let child = match child_budget {
            _ if rest.is_empty() => Some((0, 0)),
            0 => None,
            b if lower_bound(rest, rules) > b => None,
            1 => classify(rest, rules).map(|c| (1, group_value(&c))),
            _ => solve(rest, child_budget, score, rules, memo, depth + 1),
        };
        if let Some((p, v)) = child {
            let (p, v) = (p + 1, v + group_value(m));
            let better = match best {
                None => true,
                Some((bp, bv, _)) => p < bp || (p == bp && v > bv),
            };
            if better {
                best = Some((p, v, *m));
                // Not one play (checked above): stop at the lower bound.
                if !score && p <= floor {
                    break;
                }
            }
        }
    }
    memo.bufs[depth] = buf;
    match best {
        Some((p, v, m)) => {
            memo.insert(h, true, p, v, m.cards);
            Some((p, v))
        }
        None => {
            memo.insert(h, false, budget + 1, 0, Hand::EMPTY);
            None
        }
    }
}
