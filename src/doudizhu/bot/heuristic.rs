//! The heuristic policy built on the hand split: leads, follows, partner
//! cooperation and when to spend a bomb.

use crate::doudizhu::endgame::Seat;
use crate::doudizhu::{Combo, ComboType, Hand, Rules, legal_moves, split};

use super::{FOLLOW_SLACK, GameState};

pub(super) struct Ctx<'a> {
    st: &'a GameState,
    rules: Rules,
    hand: Hand,
    me: Seat,
}

/// Hand value: `Σ group_value − 7 × plays` of the best split; out = very high.
pub(super) fn value(h: Hand, rules: &Rules) -> i32 {
    if h.is_empty() {
        1000
    } else {
        split(h, rules).score
    }
}

/// Ordinary (non-bomb, non-pass) plays.
pub(super) fn ordinary(c: &Combo) -> bool {
    !c.kind.is_bomb() && !c.is_pass()
}

/// Cards of a rank-ordered strength proxy for "hardest to beat".
fn strength(c: &Combo) -> usize {
    c.rank.index() * 16 + c.length as usize
}

impl<'a> Ctx<'a> {
    pub(super) fn new(st: &'a GameState) -> Ctx<'a> {
        Ctx {
            st,
            rules: st.rules,
            hand: st.hand,
            me: st.seat,
        }
    }

    fn opponents(&self) -> Vec<Seat> {
        Seat::ALL
            .into_iter()
            .filter(|s| !s.same_team(self.me))
            .collect()
    }

    fn count(&self, s: Seat) -> usize {
        self.st.counts[s.index()]
    }

    /// Whether the opponents (their largest possible hands, from the unseen
    /// cards) could beat `c`; `seat` restricts to one opponent.
    fn beatable_by(&self, c: &Combo, seat: Option<Seat>) -> bool {
        let max_len = match seat {
            Some(s) => self.count(s),
            None => self
                .opponents()
                .iter()
                .map(|s| self.count(*s))
                .max()
                .unwrap_or(0),
        };
        let mut pool = self.st.unseen;
        // A peasant's opponent is the landlord: its pinned cards are certain,
        // but so are the rest being anywhere; keep the whole unseen pool.
        if self.me.is_landlord() {
            pool = self.st.unseen;
        }
        legal_moves(pool, Some(c), &self.rules)
            .iter()
            .any(|m| m.cards.len() <= max_len)
    }

    fn safe(&self, c: &Combo) -> bool {
        !self.beatable_by(c, None)
    }

    /// Groups of the split of `h` that no opponent can beat.
    fn unsafe_groups(&self, h: Hand) -> (usize, Vec<Combo>) {
        let s = split(h, &self.rules);
        let mut safe = Vec::new();
        let mut n_unsafe = 0;
        for g in &s.groups {
            if self.safe(g) {
                safe.push(*g);
            } else {
                n_unsafe += 1;
            }
        }
        (n_unsafe, safe)
    }

    pub(super) fn heuristic(&self, moves: &[Combo]) -> (Combo, &'static str) {
        match self.st.last {
            None => self.lead(moves),
            Some((by, standing)) => {
                if by.same_team(self.me) {
                    self.follow_partner(moves, by, &standing)
                } else {
                    self.follow_opponent(moves, by)
                }
            }
        }
    }

    fn lead(&self, moves: &[Combo]) -> (Combo, &'static str) {
        let sp = split(self.hand, &self.rules);
        // Finishing: at most one group can be beaten — cash the safe ones first.
        let (n_unsafe, safe) = self.unsafe_groups(self.hand);
        if n_unsafe <= 1
            && let Some(g) = safe
                .iter()
                .filter(|g| ordinary(g))
                .chain(safe.iter())
                .next()
        {
            return (*g, "lead_cash_safe");
        }
        // Feed a partner who moves right after us and is about to go out.
        if let Some(p) = self.st.partner()
            && self.me.next() == p
        {
            let pc = self.count(p);
            let lowest = |k: ComboType| {
                moves
                    .iter()
                    .filter(|m| m.kind == k)
                    .min_by_key(|m| m.rank)
                    .copied()
            };
            if pc == 1
                && let Some(m) = lowest(ComboType::Solo)
            {
                return (m, "lead_feed_partner");
            }
            if pc == 2
                && let Some(m) = lowest(ComboType::Pair)
            {
                return (m, "lead_feed_partner");
            }
        }
        let mut cands: Vec<Combo> = sp.groups.clone();
        for m in moves {
            if m.kind.is_plain() && !cands.contains(m) {
                cands.push(*m);
            }
        }
        let opps = self.opponents();
        let mut best: Option<(i32, Combo)> = None;
        for m in cands {
            if m.kind.is_bomb() {
                continue;
            }
            let mut v = value(self.hand.sub(m.cards), &self.rules);
            for &o in &opps {
                let n = self.count(o);
                if n == m.cards.len() && self.beatable_by(&m, Some(o)) {
                    v -= 60;
                }
                // An opponent down to one or two cards: keep solos high.
                if n <= 2 && m.kind == ComboType::Solo {
                    v += m.rank.index() as i32 - 14;
                }
            }
            if best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, m));
            }
        }
        match best {
            Some((_, m)) => (m, "lead_split"),
            // Only bombs left in the candidate list: lead the lowest group.
            None => (sp.groups[0], "lead_split"),
        }
    }

    fn follow_partner(&self, moves: &[Combo], by: Seat, standing: &Combo) -> (Combo, &'static str) {
        let landlord = Seat::Landlord;
        // Does the landlord still move after us on this trick?
        let landlord_after = self.me.next() == landlord && by != landlord;
        let ord: Vec<&Combo> = moves.iter().filter(|m| ordinary(m)).collect();
        // Win the trick for good and go out next.
        for m in &ord {
            let rest = self.hand.sub(m.cards);
            if split(rest, &self.rules).plays <= 1 && !self.beatable_by(m, Some(landlord)) {
                return (**m, "partner_take_and_finish");
            }
        }
        if landlord_after
            && self.count(landlord) <= 3
            && self.beatable_by(standing, Some(landlord))
            && let Some(m) = ord
                .iter()
                .filter(|m| !self.beatable_by(m, Some(landlord)))
                .min_by_key(|m| strength(m))
        {
            return (**m, "partner_cover");
        }
        let _ = by;
        (Combo::pass(), "partner_pass")
    }

    fn follow_opponent(&self, moves: &[Combo], by: Seat) -> (Combo, &'static str) {
        let opps = self.opponents();
        let urgent = self.count(by) <= 3 || opps.iter().any(|o| self.count(*o) <= 2);
        let ord: Vec<Combo> = moves.iter().filter(|m| ordinary(m)).copied().collect();
        let cur = value(self.hand, &self.rules);
        if urgent && !ord.is_empty() {
            // Stop them: a play they cannot beat, else the strongest.
            let pick = ord
                .iter()
                .filter(|m| self.safe(m))
                .max_by_key(|m| {
                    (
                        value(self.hand.sub(m.cards), &self.rules),
                        -(strength(m) as i32),
                    )
                })
                .or_else(|| ord.iter().max_by_key(|m| strength(m)))
                .copied();
            if let Some(m) = pick {
                return (m, "stop_opponent");
            }
        }
        let mut best: Option<(i32, Combo)> = None;
        for m in &ord {
            let v = value(self.hand.sub(m.cards), &self.rules);
            if best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, *m));
            }
        }
        // A peasant right before its partner need not burn top cards on a
        // small landlord play: the partner may answer. Others follow when it
        // costs no value.
        if let Some((v, m)) = best
            && v >= cur - FOLLOW_SLACK
        {
            return (m, "follow_split");
        }
        // Bombs: to win outright, or to stop an opponent close to going out.
        let mut bombs: Vec<Combo> = moves.iter().filter(|m| m.kind.is_bomb()).copied().collect();
        bombs.sort_by_key(|b| (b.kind == ComboType::Rocket, b.rank));
        for b in bombs {
            let rest = self.hand.sub(b.cards);
            let (n_unsafe, _) = self.unsafe_groups(rest);
            if n_unsafe <= 1 {
                return (b, "bomb_to_win");
            }
            if urgent {
                return (b, "bomb_to_stop");
            }
        }
        if urgent && let Some((_, m)) = best {
            return (m, "stop_opponent");
        }
        (Combo::pass(), "pass")
    }
}
