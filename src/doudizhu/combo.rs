//! Combination types, rule flags, classification and the beats relation.

use super::cards::{Hand, Rank};
use std::fmt;

/// Optional rules. Every flag defaults to `true`, which gives the standard
/// DouZero/RLCard move universe (27,472 moves counting the pass).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Trio with one single, and planes with single wings (`trio_solo`, `trio_solo_chain`).
    pub trio_solo: bool,
    /// Trio with a pair, and planes with pair wings (`trio_pair`, `trio_pair_chain`).
    pub trio_pair: bool,
    /// Four of a kind with two singles (`four_two_solo`).
    pub four_two_solo: bool,
    /// Four of a kind with two pairs (`four_two_pair`).
    pub four_two_pair: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            trio_solo: true,
            trio_pair: true,
            four_two_solo: true,
            four_two_pair: true,
        }
    }
}

impl Rules {
    /// Whether combinations of `kind` are allowed under these rules.
    pub const fn allows(&self, kind: ComboType) -> bool {
        match kind {
            ComboType::TrioSolo | ComboType::TrioSoloChain => self.trio_solo,
            ComboType::TrioPair | ComboType::TrioPairChain => self.trio_pair,
            ComboType::FourTwoSolo => self.four_two_solo,
            ComboType::FourTwoPair => self.four_two_pair,
            _ => true,
        }
    }
}

/// Combination types, named as in RLCard.
#[repr(u8)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ComboType {
    /// No cards: the player passes.
    Pass = 0,
    /// A single card.
    Solo,
    /// Five or more consecutive single cards.
    SoloChain,
    /// Two cards of one rank.
    Pair,
    /// Three or more consecutive pairs.
    PairChain,
    /// Three cards of one rank.
    Trio,
    /// Two or more consecutive trios (a plane).
    TrioChain,
    /// A trio with one single card as kicker.
    TrioSolo,
    /// A plane with one single kicker per trio.
    TrioSoloChain,
    /// A trio with a pair as kicker.
    TrioPair,
    /// A plane with one pair kicker per trio.
    TrioPairChain,
    /// Four of a rank with two single kickers.
    FourTwoSolo,
    /// Four of a rank with two pairs as kickers.
    FourTwoPair,
    /// Four cards of one rank, played alone.
    Bomb,
    /// Both jokers, the highest play.
    Rocket,
}

impl ComboType {
    /// Every type, pass first.
    pub const ALL: [ComboType; 15] = [
        ComboType::Pass,
        ComboType::Solo,
        ComboType::SoloChain,
        ComboType::Pair,
        ComboType::PairChain,
        ComboType::Trio,
        ComboType::TrioChain,
        ComboType::TrioSolo,
        ComboType::TrioSoloChain,
        ComboType::TrioPair,
        ComboType::TrioPairChain,
        ComboType::FourTwoSolo,
        ComboType::FourTwoPair,
        ComboType::Bomb,
        ComboType::Rocket,
    ];

    /// RLCard's name of the type (`"solo"`, `"trio_solo_chain"`, `"pass"`, …).
    pub const fn as_str(self) -> &'static str {
        match self {
            ComboType::Pass => "pass",
            ComboType::Solo => "solo",
            ComboType::SoloChain => "solo_chain",
            ComboType::Pair => "pair",
            ComboType::PairChain => "pair_chain",
            ComboType::Trio => "trio",
            ComboType::TrioChain => "trio_chain",
            ComboType::TrioSolo => "trio_solo",
            ComboType::TrioSoloChain => "trio_solo_chain",
            ComboType::TrioPair => "trio_pair",
            ComboType::TrioPairChain => "trio_pair_chain",
            ComboType::FourTwoSolo => "four_two_solo",
            ComboType::FourTwoPair => "four_two_pair",
            ComboType::Bomb => "bomb",
            ComboType::Rocket => "rocket",
        }
    }

    /// Inverse of [`ComboType::as_str`].
    pub fn from_name(name: &str) -> Option<ComboType> {
        ComboType::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// Bombs and the rocket.
    pub const fn is_bomb(self) -> bool {
        matches!(self, ComboType::Bomb | ComboType::Rocket)
    }

    /// Solos, pairs, trios and their chains: the plays without kickers and
    /// other than bombs.
    pub const fn is_plain(self) -> bool {
        matches!(
            self,
            ComboType::Solo
                | ComboType::Pair
                | ComboType::Trio
                | ComboType::SoloChain
                | ComboType::PairChain
                | ComboType::TrioChain
        )
    }

    /// Cards of the body per body rank (1 solo, 2 pair, 3 trio, 4 four), 0 for pass.
    pub const fn body_width(self) -> u32 {
        match self {
            ComboType::Pass => 0,
            ComboType::Solo | ComboType::SoloChain | ComboType::Rocket => 1,
            ComboType::Pair | ComboType::PairChain => 2,
            ComboType::Trio
            | ComboType::TrioChain
            | ComboType::TrioSolo
            | ComboType::TrioSoloChain
            | ComboType::TrioPair
            | ComboType::TrioPairChain => 3,
            ComboType::FourTwoSolo | ComboType::FourTwoPair | ComboType::Bomb => 4,
        }
    }
}

impl fmt::Display for ComboType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One legal play.
///
/// * `rank` is the main rank: the lowest rank of the body — a chain's or
///   plane's first rank, a trio's or four's own rank; the black joker for the
///   rocket and `Rank::Three` for the pass (meaningless there).
/// * `length` is the number of consecutive body ranks: the chain or plane
///   length, 1 for every other play (the rocket included), 0 for the pass.
///
/// Two plays of the same type and length compare by `rank` alone, which is
/// why kickers are not part of the comparison key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Combo {
    /// The combination type.
    pub kind: ComboType,
    /// The cards played, kickers included.
    pub cards: Hand,
    /// The main rank, as defined in the type docs.
    pub rank: Rank,
    /// The number of consecutive body ranks, as defined in the type docs.
    pub length: u8,
}

impl Combo {
    /// The pass: no cards.
    pub const fn pass() -> Combo {
        Combo {
            kind: ComboType::Pass,
            cards: Hand::EMPTY,
            rank: Rank::Three,
            length: 0,
        }
    }

    /// Whether this is the pass.
    pub const fn is_pass(&self) -> bool {
        matches!(self.kind, ComboType::Pass)
    }

    /// The rocket (both jokers).
    pub const ROCKET: Combo = Combo {
        kind: ComboType::Rocket,
        cards: Hand::from_bits(0x0110_0000_0000_0000),
        rank: Rank::BlackJoker,
        length: 1,
    };

    /// The body (cards without kickers).
    pub fn body(&self) -> Hand {
        let w = self.kind.body_width();
        if self.kind == ComboType::Rocket || self.kind == ComboType::Pass {
            return self.cards;
        }
        let mut h = Hand::EMPTY;
        for i in 0..self.length as usize {
            h = h.add(Hand::of(Rank::ALL[self.rank.index() + i], w));
        }
        h
    }

    /// The kickers (wings) alone.
    pub fn kickers(&self) -> Hand {
        self.cards.sub(self.body())
    }
}

impl fmt::Display for Combo {
    /// `kind:cards`, e.g. `trio_solo:3335`; the pass prints as `pass:`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.kind, self.cards)
    }
}

/// Whether `a` may be played on top of `b`.
///
/// Any non-pass play beats the pass (a lead); the pass beats nothing. The
/// rocket beats everything; a bomb beats every non-bomb and lower bombs;
/// otherwise both must have the same type and length and `a` a higher main rank.
pub fn beats(a: &Combo, b: &Combo) -> bool {
    use ComboType::*;
    match (a.kind, b.kind) {
        (Pass, _) => false,
        (_, Pass) => true,
        (_, Rocket) => false,
        (Rocket, _) => true,
        (Bomb, Bomb) => a.rank > b.rank,
        (Bomb, _) => true,
        (_, Bomb) => false,
        (x, y) => x == y && a.length == b.length && a.rank > b.rank,
    }
}

/// Longest chains: solo 12, pair 10, trio 6; wings: single-wing planes up to
/// 5 trios, pair-wing planes up to 4 (both keep a play within 20 cards).
pub(crate) const MIN_SOLO_CHAIN: usize = 5;
pub(crate) const MIN_PAIR_CHAIN: usize = 3;
pub(crate) const MIN_TRIO_CHAIN: usize = 2;
pub(crate) const MAX_SOLO_CHAIN: usize = 12;
pub(crate) const MAX_PAIR_CHAIN: usize = 10;
pub(crate) const MAX_TRIO_CHAIN: usize = 6;
pub(crate) const MAX_SOLO_WING_PLANE: usize = 5;
pub(crate) const MAX_PAIR_WING_PLANE: usize = 4;

const JOKERS: u16 = 0b110_0000_0000_0000;

/// Checks that `kickers` may be the single wings of a body of `k` trios (or,
/// with `four = true`, the two singles of a four) starting at `start`.
///
/// Single wings: `k` cards, none of a body rank, not both jokers, never all
/// four cards of a rank, and for planes (`k ≥ 2`) never three cards of a rank
/// directly next to the plane (that would read as a longer plane; 2 never
/// chains, so it is not next to A).
pub(crate) fn solo_wings_ok(kickers: Hand, start: usize, k: usize, body_mask: u16) -> bool {
    if kickers.rank_mask() & body_mask != 0 {
        return false;
    }
    if kickers.rank_mask() & JOKERS == JOKERS {
        return false;
    }
    if kickers.ranks_with_at_least(4) != 0 {
        return false;
    }
    if k >= 2 {
        let triples = kickers.ranks_with_at_least(3);
        let mut adj = 0u16;
        if start > 0 {
            adj |= 1 << (start - 1);
        }
        if start + k < 12 {
            adj |= 1 << (start + k);
        }
        if triples & adj != 0 {
            return false;
        }
    }
    true
}

/// Checks that `kickers` are `n` pairs of distinct non-joker ranks outside the body.
pub(crate) fn pair_wings_ok(kickers: Hand, n: usize, body_mask: u16) -> bool {
    let m = kickers.rank_mask();
    m & (body_mask | JOKERS) == 0
        && kickers.ranks_with_at_least(3) == 0
        && kickers.ranks_with_at_least(2) == m
        && m.count_ones() as usize == n
}

/// Reads `cards` as combinations: every reading allowed by `rules`, in the
/// order [`classify`] prefers.
///
/// Under the standard rules no multiset has two readings (checked exhaustively
/// over the full deck by the tests: the 27,471 leading moves of the 54-card
/// deck are pairwise distinct multisets), so this returns at most one combo;
/// it exists so callers need not rely on that fact.
pub fn classify_all(cards: Hand, rules: &Rules) -> Vec<Combo> {
    let mut out = Vec::new();
    classify_each(cards, rules, |c| {
        out.push(c);
        false
    });
    out
}

/// Reads `cards` as one combination, `None` if they form none under `rules`.
/// The empty hand is the pass.
///
/// Readings are tried in a fixed order — rocket; solo, pair, trio, bomb;
/// chains (solo, pair, trio); four with kickers; trio/plane with single
/// wings; trio/plane with pair wings — and the first one wins. That order
/// would pick the bomb-like or chain reading over a kicker reading, but with
/// these rules a multiset never has two readings (see [`classify_all`]).
pub fn classify(cards: Hand, rules: &Rules) -> Option<Combo> {
    let mut found = None;
    classify_each(cards, rules, |c| {
        found = Some(c);
        true
    });
    found
}

/// Calls `f` with each reading, strongest first, until `f` returns `true`.
fn classify_each(cards: Hand, rules: &Rules, mut f: impl FnMut(Combo) -> bool) {
    let n = cards.len();
    if n == 0 {
        f(Combo::pass());
        return;
    }
    // Counts must be within the deck.
    if cards.ranks_with_at_least(5) != 0 || ((cards.bits() >> 52) & 0xEE) != 0 {
        return;
    }
    let mk = |kind, rank: usize, length: usize| Combo {
        kind,
        cards,
        rank: Rank::ALL[rank],
        length: length as u8,
    };
    let present = cards.rank_mask();
    let lo = present.trailing_zeros() as usize;
    let distinct = present.count_ones() as usize;
    let hi = 15 - present.leading_zeros() as usize;
    let c4 = cards.ranks_with_at_least(4);
    let c3 = cards.ranks_with_at_least(3);
    let c2 = cards.ranks_with_at_least(2);

    if present == JOKERS && n == 2 {
        f(Combo::ROCKET);
        return;
    }
    // Bodies where every rank has the same count and the ranks are consecutive.
    let consecutive = hi - lo + 1 == distinct;
    let uniform = |w: u32| -> bool {
        match w {
            1 => c2 == 0,
            2 => c2 == present && c3 == 0,
            3 => c3 == present && c4 == 0,
            _ => c4 == present,
        }
    };
    if distinct == 1 {
        let kind = match n {
            1 => ComboType::Solo,
            2 => ComboType::Pair,
            3 => ComboType::Trio,
            _ => ComboType::Bomb,
        };
        f(mk(kind, lo, 1));
        return;
    }
    if consecutive && hi < 12 {
        if uniform(1) && (MIN_SOLO_CHAIN..=MAX_SOLO_CHAIN).contains(&distinct) {
            if f(mk(ComboType::SoloChain, lo, distinct)) {
                return;
            }
        } else if uniform(2) && (MIN_PAIR_CHAIN..=MAX_PAIR_CHAIN).contains(&distinct) {
            if f(mk(ComboType::PairChain, lo, distinct)) {
                return;
            }
        } else if uniform(3)
            && (MIN_TRIO_CHAIN..=MAX_TRIO_CHAIN).contains(&distinct)
            && f(mk(ComboType::TrioChain, lo, distinct))
        {
            return;
        }
    }
    // Four with kickers: exactly one rank with four cards is the body.
    if c4.count_ones() == 1 && (n == 6 || n == 8) {
        let r = c4.trailing_zeros() as usize;
        let body_mask = 1u16 << r;
        let kick = cards.sub(Hand::of(Rank::ALL[r], 4));
        if n == 6 && rules.four_two_solo && solo_wings_ok(kick, r, 1, body_mask) {
            if f(mk(ComboType::FourTwoSolo, r, 1)) {
                return;
            }
        } else if n == 8
            && rules.four_two_pair
            && pair_wings_ok(kick, 2, body_mask)
            && f(mk(ComboType::FourTwoPair, r, 1))
        {
            return;
        }
    }
    // Trio bodies with wings: try every run of exactly-three ranks of the
    // right length (kickers never share a body rank, so body counts are 3).
    let exactly3 = c3 & !c4;
    if n.is_multiple_of(4) && rules.trio_solo {
        let k = n / 4;
        if (1..=MAX_SOLO_WING_PLANE).contains(&k) {
            let mut starts = run_starts(exactly3, k);
            while starts != 0 {
                let start = starts.trailing_zeros() as usize;
                starts &= starts - 1;
                let body_mask = (((1u32 << k) - 1) << start) as u16;
                let body = body_of(start, k, 3);
                let kick = cards.sub(body);
                if solo_wings_ok(kick, start, k, body_mask) {
                    let kind = if k == 1 {
                        ComboType::TrioSolo
                    } else {
                        ComboType::TrioSoloChain
                    };
                    if f(mk(kind, start, k)) {
                        return;
                    }
                }
            }
        }
    }
    if n.is_multiple_of(5) && rules.trio_pair {
        let k = n / 5;
        if (1..=MAX_PAIR_WING_PLANE).contains(&k) {
            let mut starts = run_starts(exactly3, k);
            while starts != 0 {
                let start = starts.trailing_zeros() as usize;
                starts &= starts - 1;
                let body_mask = (((1u32 << k) - 1) << start) as u16;
                let kick = cards.sub(body_of(start, k, 3));
                if pair_wings_ok(kick, k, body_mask) {
                    let kind = if k == 1 {
                        ComboType::TrioPair
                    } else {
                        ComboType::TrioPairChain
                    };
                    if f(mk(kind, start, k)) {
                        return;
                    }
                }
            }
        }
    }
}

/// Starts of runs of `k` consecutive set bits in `mask`; runs of two or more
/// must stay within 3..A (no 2 or jokers in a chain).
#[inline]
fn run_starts(mask: u16, k: usize) -> u16 {
    let mut m = mask;
    if k > 1 {
        m &= 0x0FFF;
    }
    let mut starts = m;
    for i in 1..k {
        starts &= m >> i;
    }
    starts
}

/// `k` consecutive ranks from `start`, `w` cards each.
#[inline]
pub(crate) const fn body_of(start: usize, k: usize, w: u32) -> Hand {
    // Replicate `w` into k nibbles.
    let mut bits = 0u64;
    let mut i = 0;
    while i < k {
        bits |= (w as u64) << (4 * (start + i));
        i += 1;
    }
    Hand::from_bits(bits)
}
