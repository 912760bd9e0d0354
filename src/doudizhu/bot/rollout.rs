//! Rollouts: candidate moves compared by playing sampled deals to the end
//! with a fast whole-information policy for every seat.

use std::time::Instant;

use crate::doudizhu::endgame::Seat;
use crate::doudizhu::{
    Combo, ComboType, Hand, Rules, beats, classify, group_value, legal_moves_into, split,
};
use crate::stop::Stop;

use super::deal::Dealer;
use super::heuristic::{ordinary, value};
use super::search::combo_key;
use super::{Candidate, Decision, GameState, Objective, PlayOptions, SplitMix64, seat_points};

/// Rollouts (deal × candidate games played to the end) per decision at most.
/// A fixed count, not a time, so the answer depends on the request and seed
/// alone; the request's time budget still stops it early as a safety net.
pub const ROLLOUTS: u32 = 288;
/// Candidate moves compared by rollouts at most (the heuristic's choice and
/// the best-valued others).
pub const ROLLOUT_CANDIDATES: usize = 9;
/// Another candidate replaces the heuristic's move only when it wins more
/// than this many deals more (of the 32 each candidate plays at 9
/// candidates). The arena preferred 1 to a tenth of the deals (3).
pub const ROLLOUT_MARGIN: u32 = 1;

/// A fast whole-information playout policy for every seat, built on each
/// hand's split (computed once and kept while the seat plays its groups).
pub(super) struct Playout<'r> {
    pub(super) hands: [Hand; 3],
    pub(super) groups: [Option<Vec<Combo>>; 3],
    /// Bombs and rockets played in the playout.
    pub(super) bombs: u32,
    /// Non-pass plays each seat made in the playout.
    pub(super) plays: [u32; 3],
    rules: &'r Rules,
    buf: Vec<Combo>,
}

impl<'r> Playout<'r> {
    pub(super) fn new(hands: [Hand; 3], rules: &'r Rules) -> Playout<'r> {
        Playout {
            hands,
            groups: [None, None, None],
            bombs: 0,
            plays: [0; 3],
            rules,
            buf: Vec::new(),
        }
    }

    fn groups(&mut self, s: usize) -> &Vec<Combo> {
        if self.groups[s].is_none() {
            self.groups[s] = Some(split(self.hands[s], self.rules).groups);
        }
        self.groups[s].as_ref().expect("just filled")
    }

    pub(super) fn apply(&mut self, s: usize, m: &Combo) {
        if m.is_pass() {
            return;
        }
        self.bombs += u32::from(m.kind.is_bomb());
        self.plays[s] += 1;
        self.hands[s] = self.hands[s].sub(m.cards);
        let keep = match &mut self.groups[s] {
            Some(g) => match g
                .iter()
                .position(|x| x.cards == m.cards && x.kind == m.kind)
            {
                Some(i) => {
                    g.remove(i);
                    true
                }
                None => false,
            },
            None => true,
        };
        if !keep {
            self.groups[s] = None;
        }
    }

    fn can_beat(&mut self, s: usize, c: &Combo) -> bool {
        legal_moves_into(&mut self.buf, self.hands[s], Some(c), self.rules);
        !self.buf.is_empty()
    }

    pub(super) fn choose(&mut self, seat: Seat, last: Option<(Seat, Combo)>) -> Combo {
        let s = seat.index();
        let opps: Vec<usize> = Seat::ALL
            .into_iter()
            .filter(|o| !o.same_team(seat))
            .map(Seat::index)
            .collect();
        let min_opp = opps
            .iter()
            .map(|&o| self.hands[o].len())
            .min()
            .unwrap_or(20);
        match last {
            None => self.lead(seat, &opps, min_opp),
            Some((by, standing)) => {
                if let Some(c) = classify(self.hands[s], self.rules)
                    && beats(&c, &standing)
                {
                    return c;
                }
                if by.same_team(seat) {
                    return Combo::pass();
                }
                let danger = self.hands[by.index()].len() <= 4 || min_opp <= 2;
                let groups = self.groups(s).clone();
                let own = groups
                    .iter()
                    .filter(|g| ordinary(g) && beats(g, &standing))
                    .min_by_key(|g| g.rank)
                    .copied();
                // Spend a top card on a low play only when it matters.
                if let Some(g) = own
                    && (danger || group_value(&g) < 5 || groups.len() <= 2)
                {
                    return g;
                }
                let n_groups = groups.len();
                legal_moves_into(&mut self.buf, self.hands[s], Some(&standing), self.rules);
                // Otherwise answer with the lowest ordinary play that beats it,
                // breaking a group if need be: that is how most opponents
                // play, and the arena showed that playouts assuming it
                // judge moves far better than ones whose players wait.
                if let Some(m) = self
                    .buf
                    .iter()
                    .filter(|m| ordinary(m))
                    .min_by_key(|m| m.rank)
                {
                    return *m;
                }
                if (danger || n_groups <= 2)
                    && let Some(b) = self
                        .buf
                        .iter()
                        .filter(|m| m.kind.is_bomb())
                        .min_by_key(|m| (m.kind == ComboType::Rocket, m.rank))
                {
                    return *b;
                }
                Combo::pass()
            }
        }
    }

    fn lead(&mut self, seat: Seat, opps: &[usize], min_opp: usize) -> Combo {
        let s = seat.index();
        let groups = self.groups(s).clone();
        if groups.len() == 1 {
            return groups[0];
        }
        if groups.len() == 2 {
            for g in &groups {
                if !opps.iter().any(|&o| self.can_beat(o, g)) {
                    return *g;
                }
            }
        }
        // Feed a partner who moves next and holds one card.
        if !seat.is_landlord() {
            let p = seat.next();
            if !p.is_landlord()
                && self.hands[p.index()].len() == 1
                && let Some(low) = self.hands[s].lowest()
                && let Some(c) = classify(Hand::of(low, 1), self.rules)
            {
                return c;
            }
        }
        let pick = groups
            .iter()
            .filter(|g| ordinary(g))
            .min_by_key(|g| {
                // An opponent with one card: solos last (and the highest).
                let solo_risk = min_opp == 1 && g.kind == ComboType::Solo;
                let solo_risk2 = min_opp == 2 && g.kind == ComboType::Pair;
                (
                    solo_risk || solo_risk2,
                    if solo_risk || solo_risk2 {
                        -group_value(g)
                    } else {
                        group_value(g)
                    },
                    std::cmp::Reverse(g.cards.len()),
                )
            })
            .or_else(|| {
                groups
                    .iter()
                    .min_by_key(|g| (g.kind == ComboType::Rocket, g.rank))
            });
        *pick.expect("a non-empty hand has groups")
    }

    /// Plays on from `to_move` (facing `last`) to the end; the winner's seat.
    pub(super) fn run(&mut self, mut to_move: Seat, mut last: Option<(Seat, Combo)>) -> Seat {
        for _ in 0..400 {
            let m = self.choose(to_move, last);
            let s = to_move.index();
            if !m.is_pass() {
                self.apply(s, &m);
                if self.hands[s].is_empty() {
                    return to_move;
                }
                last = Some((to_move, m));
            }
            to_move = to_move.next();
            if let Some((by, _)) = last
                && by == to_move
            {
                last = None;
            }
        }
        // Unreachable in practice (every round removes cards); call it a
        // landlord loss rather than loop.
        Seat::LandlordDown
    }
}

/// Monte Carlo over determinizations: each candidate move is played in the
/// same sampled deals and the game played out by [`Playout`]; the move that
/// does best by the objective (wins, or points) is chosen. The heuristic's
/// choice stands unless another candidate does clearly better (by more than
/// [`ROLLOUT_MARGIN`] deals won, or twice that many base points).
#[allow(clippy::too_many_arguments)]
pub(super) fn rollout_search(
    state: &GameState,
    budget: &Stop,
    cap: &Stop,
    seed: u64,
    moves: &[Combo],
    heur: Combo,
    started: Instant,
    opts: &PlayOptions,
) -> Option<Decision> {
    let cands = rollout_candidates(state, moves, heur);
    if cands.len() < 2 {
        return None;
    }
    let (stats, done) = rollout_stats(state, budget, cap, seed, &cands, opts)?;
    // The oracle's one deal is exact; sampled deals must show a clear edge.
    let margin = if opts.oracle.is_some() {
        0.0
    } else {
        f64::from(ROLLOUT_MARGIN) / f64::from(done)
    };
    // The candidate best by `value` if it beats the heuristic's move (index
    // 0) by more than `margin`, else the heuristic's (the epsilon keeps a
    // difference of exactly the margin below it).
    let better = |value: &dyn Fn(usize) -> f64, margin: f64| {
        let bi = (0..stats.len())
            .max_by(|&a, &b| value(a).total_cmp(&value(b)).then(b.cmp(&a)))
            .unwrap_or(0);
        if value(bi) > value(0) + margin + 1e-9 {
            bi
        } else {
            0
        }
    };
    // More wins by more than the margin, or more points by more than twice
    // it (two base points over all the deals).
    let pick = match opts.objective {
        Objective::Win => better(&|i| stats[i].win_rate, margin),
        Objective::Score => better(&|i| stats[i].expected_points, 2.0 * margin),
    };
    Some(Decision {
        play: cands[pick],
        reason: if pick == 0 { "rollout_keep" } else { "rollout" },
        evaluation: Some(stats[pick].win_rate),
        deals: done,
        deals_solved: 0,
        elapsed: started.elapsed(),
        candidates: stats,
    })
}

/// Plays each of `cands` in the same sampled deals (at most [`ROLLOUTS`]
/// games in all) and returns their estimates in the same order, with the
/// number of deals played; `None` when no deal could be played.
pub(super) fn rollout_stats(
    state: &GameState,
    budget: &Stop,
    cap: &Stop,
    seed: u64,
    cands: &[Combo],
    opts: &PlayOptions,
) -> Option<(Vec<Candidate>, u32)> {
    let mut dealer = Dealer::new(state, opts.oracle, opts.no_pass_inference)?;
    if cands.is_empty() {
        return None;
    }
    // One true deal plays out the same way every time.
    let deals = if opts.oracle.is_some() {
        1
    } else {
        ROLLOUTS / cands.len() as u32
    };
    let mut rng = SplitMix64::new(seed ^ 0x0A11_0075 ^ (state.history.len() as u64) << 40);
    let mut wins = vec![0u32; cands.len()];
    let mut points = vec![0f64; cands.len()];
    let mut done = 0u32;
    let me = state.seat;
    let bombs_before = state.bombs_played() as u32;
    let plays_before = state.plays_made();
    for _ in 0..deals {
        if budget.should_stop() || cap.should_stop() {
            break;
        }
        let hands = dealer.deal(&mut rng);
        for (i, m) in cands.iter().enumerate() {
            let mut p = Playout::new(hands, &state.rules);
            p.apply(me.index(), m);
            let winner = if p.hands[me.index()].is_empty() {
                me
            } else {
                let last = if m.is_pass() {
                    state.last.filter(|(by, _)| *by != me.next())
                } else {
                    Some((me, *m))
                };
                p.run(me.next(), last)
            };
            wins[i] += u32::from(winner.same_team(me));
            let plays = std::array::from_fn(|s| plays_before[s] + p.plays[s]);
            points[i] += seat_points(me, winner, bombs_before + p.bombs, plays, &opts.payout);
        }
        done += 1;
    }
    if done == 0 {
        return None;
    }
    let n = f64::from(done);
    let stats = cands
        .iter()
        .zip(wins.iter().zip(&points))
        .map(|(m, (&w, &pts))| Candidate {
            play: *m,
            win_rate: f64::from(w) / n,
            expected_points: pts / n,
            samples: done,
        })
        .collect();
    Some((stats, done))
}

/// The heuristic's move first, then the moves leaving the best hand value
/// (the pass included when following), at most [`ROLLOUT_CANDIDATES`].
pub(super) fn rollout_candidates(state: &GameState, moves: &[Combo], heur: Combo) -> Vec<Combo> {
    let mut scored: Vec<(i32, Combo)> = Vec::new();
    let leading = state.last.is_none();
    for m in moves {
        if combo_key(m) == combo_key(&heur) {
            continue;
        }
        // Leads: only kicker-free plays and the split's groups (kicker
        // variants rarely differ in what they leave).
        if leading && !m.kind.is_plain() {
            continue;
        }
        let v = if m.is_pass() {
            // Passing keeps the hand's value: rank it level with it.
            value(state.hand, &state.rules)
        } else {
            value(state.hand.sub(m.cards), &state.rules)
        };
        scored.push((v, *m));
    }
    if leading {
        for g in split(state.hand, &state.rules).groups {
            if combo_key(&g) != combo_key(&heur) && !scored.iter().any(|(_, m)| *m == g) {
                scored.push((value(state.hand.sub(g.cards), &state.rules), g));
            }
        }
    }
    scored.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
    let mut out = vec![heur];
    // When following, the pass is always worth comparing.
    if !leading && !heur.is_pass() {
        out.push(Combo::pass());
    }
    for (_, m) in scored {
        if out.len() >= ROLLOUT_CANDIDATES {
            break;
        }
        if !out.contains(&m) {
            out.push(m);
        }
    }
    out
}
