//! Kicker dominance: which kicker choices of one body never need searching.
//!
//! Two plays with the same body and different kickers lead to positions that
//! differ only in the mover's hand (kickers never change what may follow).
//! Say the mover's hand holds all `c` copies (1 or 2) of rank `a` and all `c`
//! copies of rank `b`, `a < b ≤ 2`, and neither rank can be part of a chain
//! in that hand. Playing the `b`s as kickers leaves hand `R + a^c`; playing
//! the `a`s instead leaves `R + b^c`, which is the first hand with `a`
//! renamed `b`. Whatever the mover's side can do with the first hand it can
//! mirror with the second, playing `b` wherever it played `a`: every such
//! play is still legal (same type, a higher rank or a kicker), beats at least
//! as much, and leaves the opponents a subset of their answers. The partner's
//! answers are the same as long as the partner holds no card of a rank in
//! `(a, b]`, which stays true as its hand only shrinks. So keeping `b`
//! dominates keeping `a`, and the play with the `b`s among its kickers and
//! the `a`s unused need not be searched: the play with `a` in their place is
//! searched instead (it is generated, and each such replacement lowers the
//! kickers, so the chain of replacements ends at a play that is kept).
//!
//! Jokers are never renamed (two jokers are the rocket, and a joker pair is
//! no kicker) and three copies are never renamed (three cards of a rank next
//! to a plane are not wings).

use crate::doudizhu::{Combo, ComboType, Hand};

use super::key::chain_links;

/// Ranks 3 … 2: the ranks a kicker may be renamed between.
const RENAMEABLE: u16 = 0x1FFF;

/// What the mover's hand and its partner allow: per copy count (1 and 2),
/// the ranks held with exactly that many copies that no chain can use.
#[derive(Debug, Clone, Copy)]
pub(super) struct KickerPools {
    pools: [u16; 2],
    /// Ranks the mover's partner holds (0 without one).
    partner: u16,
}

impl KickerPools {
    /// The pools of `hand`; `partner` is the partner's hand, if it takes part.
    pub(super) fn new(hand: Hand, partner: Option<Hand>) -> KickerPools {
        let links = chain_links(hand);
        // A rank is chain-usable when a link joins it to a neighbour.
        let chained = links | links << 1;
        let free = RENAMEABLE & !chained;
        let m1 = hand.rank_mask();
        let m2 = hand.ranks_with_at_least(2);
        let m3 = hand.ranks_with_at_least(3);
        KickerPools {
            pools: [free & m1 & !m2, free & m2 & !m3],
            partner: partner.map_or(0, Hand::rank_mask),
        }
    }

    /// Whether `mv` is a carrier whose kickers another kicker choice of the
    /// same body dominates.
    pub(super) fn dominated(&self, mv: &Combo) -> bool {
        if !matches!(
            mv.kind,
            ComboType::TrioSolo
                | ComboType::TrioSoloChain
                | ComboType::TrioPair
                | ComboType::TrioPairChain
                | ComboType::FourTwoSolo
                | ComboType::FourTwoPair
        ) {
            return false;
        }
        let kickers = mv.kickers();
        let used_once = kickers.rank_mask() & !kickers.ranks_with_at_least(2);
        let used_twice = kickers.ranks_with_at_least(2) & !kickers.ranks_with_at_least(3);
        for (pool, used) in self.pools.into_iter().zip([used_once, used_twice]) {
            // Ranks of the pool played whole, and ranks of the pool kept whole.
            let mut played = pool & used;
            let kept = pool & !kickers.rank_mask();
            while played != 0 {
                let b = played.trailing_zeros();
                played &= played - 1;
                // The nearest kept rank below `b` is the one the partner is
                // least likely to separate from it.
                let below = kept & ((1u16 << b) - 1);
                if below == 0 {
                    continue;
                }
                let a = 15 - below.leading_zeros();
                let between = ((1u32 << (b + 1)) - (1u32 << (a + 1))) as u16;
                if self.partner & between == 0 {
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doudizhu::{Rules, legal_moves};

    fn h(s: &str) -> Hand {
        Hand::parse_str(s).unwrap()
    }

    fn kept(hand: &str, partner: Option<&str>) -> Vec<String> {
        let pools = KickerPools::new(h(hand), partner.map(h));
        legal_moves(h(hand), None, &Rules::default())
            .into_iter()
            .filter(|m| m.kind == ComboType::TrioSolo && !pools.dominated(m))
            .map(|m| m.cards.to_string())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect()
    }

    #[test]
    fn the_lowest_single_is_the_kicker_to_try() {
        // Singles 4, 7, 9, K; none can chain.
        assert_eq!(kept("333479K", None), vec!["3334"]);
    }

    #[test]
    fn a_partner_between_the_ranks_keeps_both_choices() {
        // The partner holds an 8: kicking the 9 and keeping the 7 may help it.
        assert_eq!(kept("333479K", Some("8")), vec!["3334", "3339"]);
    }

    #[test]
    fn chain_ranks_and_split_pairs_are_not_renamed() {
        // 4 5 6 7 8 can chain, so every single stays a choice; a card of the
        // pair of 9s is a partial use, also kept.
        let all = kept("33345678", None);
        assert_eq!(all.len(), 5);
        let pair = kept("333599", None);
        assert_eq!(pair, vec!["3335", "3339"]);
    }
}
