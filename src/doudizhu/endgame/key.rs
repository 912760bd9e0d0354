//! Position keys: the exact per-solve key up to renaming of the chain ranks
//! ([`canonical_key`]), the shared-cache key of the full position
//! ([`cache_key`]), and the encoding of shared-cache values.

use crate::cache::{CacheKey, KEY_WORDS};
use crate::doudizhu::{Combo, Hand, Rules, classify};

use super::Position;

/// Word 0 of every Dou Dizhu endgame shared-cache key, which keeps these
/// keys apart from other users of the cache.
pub const CACHE_TAG: u64 = 0xDD21_E6D6_A3E0_0001;

/// The shared-cache key of a position: word 0 is [`CACHE_TAG`], words 1–3 the
/// three hands (empty for an absent seat), word 4 the mover, the standing
/// play's type, main rank, length and seat, the rule flags and the present
/// seats. The standing play's kickers are left out: they never change what
/// may follow.
pub fn cache_key(pos: &Position) -> CacheKey {
    let present =
        pos.present[0] as u64 | (pos.present[1] as u64) << 1 | (pos.present[2] as u64) << 2;
    let last = pos.last.map(|(s, c)| (s.index(), c));
    shared_key(
        &pos.hands,
        pos.to_move.index(),
        last,
        rules_bits(&pos.rules),
        present,
    )
}

pub(super) fn rules_bits(r: &Rules) -> u64 {
    r.trio_solo as u64
        | (r.trio_pair as u64) << 1
        | (r.four_two_solo as u64) << 2
        | (r.four_two_pair as u64) << 3
}

/// Mover, standing seat and the standing play's comparison key in 16 bits.
#[inline]
fn node_meta(mover: usize, last: Option<(usize, Combo)>) -> u32 {
    let mut m = mover as u32;
    if let Some((s, c)) = last {
        m |= (s as u32 + 1) << 2
            | (c.kind as u32) << 4
            | (c.rank.index() as u32) << 8
            | (c.length as u32) << 12;
    }
    m
}

/// Spreads the low 8 nibbles of `x` into the low nibbles of 8 bytes.
#[inline]
fn nibbles_to_bytes(x: u64) -> u64 {
    let mut t = x & 0xFFFF_FFFF;
    t = (t | t << 16) & 0x0000_FFFF_0000_FFFF;
    t = (t | t << 8) & 0x00FF_00FF_00FF_00FF;
    (t | t << 4) & 0x0F0F_0F0F_0F0F_0F0F
}

/// Spreads the low 8 bits of `x` into bit 0 of 8 nibbles.
#[inline]
fn bits_to_nibbles(x: u64) -> u64 {
    let mut t = x & 0xFF;
    t = (t | t << 12) & 0x000F_000F;
    t = (t | t << 6) & 0x0303_0303;
    (t | t << 3) & 0x1111_1111
}

/// Links between chain ranks r and r + 1 (bit r) that a chain inside `h`
/// could use: every solo chain is part of a run of 5 ranks held, every pair
/// chain of 3 ranks held twice, every trio chain (plane) of 2 ranks held
/// three times. (A plane's wings must not be a trio next to it, which also
/// only involves two adjacent ranks held three times.)
#[inline]
pub(super) fn chain_links(h: Hand) -> u16 {
    let m1 = h.rank_mask() & CHAIN_RANKS;
    let m2 = h.ranks_with_at_least(2) & CHAIN_RANKS;
    let m3 = h.ranks_with_at_least(3) & CHAIN_RANKS;
    let w5 = m1 & m1 >> 1 & m1 >> 2 & m1 >> 3 & m1 >> 4;
    let w3 = m2 & m2 >> 1 & m2 >> 2;
    let w2 = m3 & m3 >> 1;
    w5 | w5 << 1 | w5 << 2 | w5 << 3 | w3 | w3 << 1 | w2
}

/// Ranks 3 … A (the ranks chains are made of).
const CHAIN_RANKS: u16 = 0x0FFF;

/// The per-solve table's key: the position up to renaming the chain ranks.
///
/// Which ranks 3 … A the cards are doesn't matter, only their order and
/// which of them are adjacent *and* could be used by a chain: two positions
/// whose chain ranks that hold cards map onto each other in order, with the
/// same owners and counts per rank and the same usable links, have the same
/// moves up to that renaming (counts, order, chain adjacency, wing rules
/// are all kept; 2 and the jokers are never renamed), so the same value.
/// Ranks emptied by play thus stop splitting positions apart: after solo 4
/// or solo 5 from a hand 45 that nobody else can split, the positions
/// coincide.
///
/// Bits from the bottom: the standing play and mover (16, as [`node_meta`]
/// with the standing rank renamed), who holds each joker (2 + 2), the counts
/// of 2 as `c0 + 5 c1 + 25 c2` (7), then one byte per chain rank holding
/// cards, from the lowest: its counts likewise (never 0) and in bit 7 its
/// usable link to the next rank. At most 16 + 4 + 7 + 96 = 123 bits; the
/// bytes being non-zero, their number is implied, so distinct forms never
/// collide.
pub(super) fn canonical_key(hands: &[Hand; 3], mover: usize, last: Option<(usize, Combo)>) -> u128 {
    let b = [hands[0].bits(), hands[1].bits(), hands[2].bits()];
    let held = (hands[0].rank_mask() | hands[1].rank_mask() | hands[2].rank_mask()) & CHAIN_RANKS;
    let links = (chain_links(hands[0]) | chain_links(hands[1]) | chain_links(hands[2])) as u64;
    // Per chain rank a byte c0 + 5 c1 + 25 c2 (< 125: no carries between
    // bytes), ranks 3 … T in `lo`, J … A in `hi`.
    let lanes = |shift: u32| {
        nibbles_to_bytes(b[0] >> shift)
            + 5 * nibbles_to_bytes(b[1] >> shift)
            + 25 * nibbles_to_bytes(b[2] >> shift)
    };
    let lo = lanes(0) | nibbles_to_bytes(bits_to_nibbles(links)) << 7;
    let hi = (lanes(32) | nibbles_to_bytes(bits_to_nibbles(links >> 8)) << 7) & 0xFFFF_FFFF;
    // Drop the bytes of empty ranks: below the lowest held one by a shift,
    // between held ones (highest first) by closing each gap.
    let low = held.trailing_zeros();
    let mut chain = if held == 0 {
        0
    } else {
        (lo as u128 | (hi as u128) << 64) >> (8 * low)
    };
    let span = (held >> low.min(15)) as u32;
    let mut gaps = !span & (1u32 << (32 - span.leading_zeros())).wrapping_sub(1);
    while gaps != 0 {
        let g = 31 - gaps.leading_zeros();
        let below = (1u128 << (8 * g)) - 1;
        chain = chain & below | (chain >> 8) & !below;
        gaps &= !(1 << g);
    }
    let count = |r: u32| {
        (b[0] >> (4 * r) & 0xF) + 5 * (b[1] >> (4 * r) & 0xF) + 25 * (b[2] >> (4 * r) & 0xF)
    };
    let owner = |r: u32| {
        if count(r) == 0 {
            0
        } else {
            1 + (b[1] >> (4 * r) & 1) + 2 * (b[2] >> (4 * r) & 1)
        }
    };
    let k = held.count_ones();
    let mut meta = mover as u64;
    if let Some((s, c)) = last {
        // The standing rank becomes the number of held ranks it is at least
        // as high as: a held rank beats it exactly when its new index is at
        // least that.
        let r = c.rank.index() as u32;
        let renamed = if r < 12 {
            (held & ((2u16 << r) - 1)).count_ones()
        } else {
            k + r - 11
        };
        meta |= (s as u64 + 1) << 2
            | (c.kind as u64) << 4
            | (renamed as u64) << 8
            | (c.length as u64) << 12;
    }
    let fixed = count(12) << 20 | owner(13) << 18 | owner(14) << 16 | meta;
    chain << 27 | fixed as u128
}

pub(super) fn shared_key(
    hands: &[Hand; 3],
    mover: usize,
    last: Option<(usize, Combo)>,
    rules: u64,
    present: u64,
) -> CacheKey {
    let mut w = [0u64; KEY_WORDS];
    w[0] = CACHE_TAG;
    w[1] = hands[0].bits();
    w[2] = hands[1].bits();
    w[3] = hands[2].bits();
    w[4] = node_meta(mover, last) as u64 | rules << 16 | present << 20;
    CacheKey(w)
}

/// Shared-cache values: bit 0 = the mover's side wins; bits 1.. = the cards of
/// a suggested move (a winning one for a win), 0 when none is known.
pub(super) fn encode_value(win: bool, mv: Option<&Combo>) -> u64 {
    win as u64 | mv.map_or(0, |m| m.cards.bits() << 1)
}

pub(super) fn decode_value(v: u64, rules: &Rules) -> (bool, Option<Combo>) {
    let cards = Hand::from_bits(v >> 1);
    let mv = if cards.is_empty() {
        None
    } else {
        classify(cards, rules)
    };
    (v & 1 == 1, mv)
}
