//! Dealing: random full deals for self-play, and the sampling of the unseen
//! cards into deals consistent with what a seat knows (card counts, the
//! landlord's bottom cards, the passes).

use crate::doudizhu::endgame::Seat;
use crate::doudizhu::{Combo, Hand, Rank, Rules, legal_moves_into};

use super::{GameState, SplitMix64};

/// A random deal for self-play, arenas and benches: 17 cards to each seat
/// (by [`Seat::index`]), then the 3 bottom cards to the landlord. Returns the
/// hands (the landlord's with the bottom cards) and the bottom cards.
#[cfg(any(test, feature = "testkit"))]
pub fn random_deal(rng: &mut SplitMix64) -> ([Hand; 3], Hand) {
    let mut deck: Vec<Rank> = Hand::DECK.cards().collect();
    rng.shuffle(&mut deck);
    let mut hands = [Hand::EMPTY; 3];
    for (k, r) in deck.iter().enumerate().take(51) {
        hands[k % 3] = hands[k % 3].add(Hand::of(*r, 1));
    }
    let mut bottom = Hand::EMPTY;
    for r in &deck[51..] {
        bottom = bottom.add(Hand::of(*r, 1));
    }
    hands[0] = hands[0].add(bottom);
    (hands, bottom)
}

/// Deals the unseen cards to the two other seats consistently with what is
/// known: their card counts, and the landlord's unplayed bottom cards. Deals
/// are also biased by the passes (see [`PassInference`]).
pub(super) struct Dealer {
    seat: Seat,
    others: [Seat; 2],
    hand: Hand,
    unseen: Hand,
    pinned: Hand,
    free: Vec<Rank>,
    need_first: usize,
    pub(super) passes: Vec<PassInference>,
    rules: Rules,
    buf: Vec<Combo>,
    /// The arena's oracle: always this deal.
    fixed: Option<[Hand; 3]>,
}

/// A pass by another seat on its opponent's play: it probably held no
/// ordinary play of that type that beats it (bombs kept back prove nothing).
/// A dealt hand that, with the cards the seat played later, could have beaten
/// it is kept only with probability [`PASS_KEEP_ONE_IN`]⁻¹ per such pass
/// (soft, since a player may also pass to keep its hand together).
#[derive(Debug, Clone, Copy)]
pub(super) struct PassInference {
    seat: Seat,
    standing: Combo,
    /// What the seat played after the pass (it held those cards then).
    played_later: Hand,
}

/// A dealt hand that contradicts one pass is kept one time in this many.
pub const PASS_KEEP_ONE_IN: usize = 6;
/// Deals drawn at most for one accepted deal (then the least contradicting).
const DEAL_TRIES: usize = 24;

fn pass_inferences(state: &GameState) -> Vec<PassInference> {
    let mut out = Vec::new();
    let mut last: Option<(Seat, Combo)> = None;
    let mut mover = Seat::Landlord;
    for (i, c) in state.history.iter().enumerate() {
        if c.is_pass() {
            if let Some((by, standing)) = last
                && !by.same_team(mover)
                && mover != state.seat
            {
                let mut played_later = Hand::EMPTY;
                for (j, later) in state.history.iter().enumerate().skip(i + 1) {
                    if Seat::ALL[j % 3] == mover {
                        played_later = played_later.add(later.cards);
                    }
                }
                out.push(PassInference {
                    seat: mover,
                    standing,
                    played_later,
                });
            }
        } else {
            last = Some((mover, *c));
        }
        mover = mover.next();
        if let Some((by, _)) = last
            && by == mover
        {
            last = None;
        }
    }
    out
}

impl Dealer {
    /// `None` for a hand-made state no deal is consistent with.
    pub(super) fn new(
        state: &GameState,
        fixed: Option<[Hand; 3]>,
        no_infer: bool,
    ) -> Option<Dealer> {
        let [a, b] = state.others();
        if state.unseen.len() != state.counts[a.index()] + state.counts[b.index()]
            || !state.unseen.contains(state.landlord_known)
        {
            return None;
        }
        let pinned = state.landlord_known;
        let free: Vec<Rank> = state.unseen.sub(pinned).cards().collect();
        let pinned_here = if a.is_landlord() { pinned.len() } else { 0 };
        let need_first = state.counts[a.index()].checked_sub(pinned_here)?;
        if need_first > free.len() {
            return None;
        }
        Some(Dealer {
            seat: state.seat,
            others: [a, b],
            hand: state.hand,
            unseen: state.unseen,
            pinned,
            free,
            need_first,
            passes: if no_infer {
                Vec::new()
            } else {
                pass_inferences(state)
            },
            rules: state.rules,
            buf: Vec::new(),
            fixed,
        })
    }

    /// Passes of `hands` that an ordinary play could have beaten.
    fn contradictions(&mut self, hands: &[Hand; 3]) -> usize {
        let mut n = 0;
        for p in &self.passes {
            let held = hands[p.seat.index()].add(p.played_later);
            legal_moves_into(&mut self.buf, held, Some(&p.standing), &self.rules);
            if self.buf.iter().any(|m| m.kind == p.standing.kind) {
                n += 1;
            }
        }
        n
    }

    /// All three hands of one random deal consistent with what is known,
    /// biased by the passes.
    pub(super) fn deal(&mut self, rng: &mut SplitMix64) -> [Hand; 3] {
        if let Some(h) = self.fixed {
            return h;
        }
        let mut best: Option<(usize, [Hand; 3])> = None;
        for _ in 0..DEAL_TRIES {
            let hands = self.deal_uniform(rng);
            let n = if self.passes.is_empty() {
                0
            } else {
                self.contradictions(&hands)
            };
            if (0..n).all(|_| rng.below(PASS_KEEP_ONE_IN) == 0) {
                return hands;
            }
            if best.is_none_or(|(bn, _)| n < bn) {
                best = Some((n, hands));
            }
        }
        best.expect("DEAL_TRIES > 0").1
    }

    fn deal_uniform(&mut self, rng: &mut SplitMix64) -> [Hand; 3] {
        let [a, b] = self.others;
        rng.shuffle(&mut self.free);
        let mut ha = Hand::EMPTY;
        for r in &self.free[..self.need_first] {
            ha = ha.add(Hand::of(*r, 1));
        }
        let mut hb = self.unseen.sub(ha);
        if a.is_landlord() {
            ha = ha.add(self.pinned);
            hb = hb.sub(self.pinned);
        }
        let mut hands = [Hand::EMPTY; 3];
        hands[self.seat.index()] = self.hand;
        hands[a.index()] = ha;
        hands[b.index()] = hb;
        hands
    }
}
