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
pub const ROLLOUTS: u32 = 1152;
/// Candidate moves compared by rollouts at most (the heuristic's choice and
/// the best-valued others).
pub const ROLLOUT_CANDIDATES: usize = 9;
/// Another candidate replaces the heuristic's move only when its mean gain
/// over it in the same deals, less this many standard errors of that gain,
/// is positive; for the landlord and for a peasant.
/// A peasant trusts the rollouts less: its heuristic plays with the partner
/// (passes to it, feeds it), which the playouts model only roughly, and the
/// arena showed peasants losing games when they followed the rollouts as
/// readily as the landlord does.
pub const ROLLOUT_CONFIDENCE: [f64; 2] = [0.25, 1.5];

/// A fast whole-information playout policy for every seat, built on each
/// hand's split (computed once and kept while the seat plays its groups).
pub(super) struct Playout<'r> {
    pub(super) hands: [Hand; 3],
    pub(super) groups: [Option<Vec<Combo>>; 3],
    /// Bombs and rockets played in the playout.
    pub(super) bombs: u32,
    /// Non-pass plays each seat made in the playout.
    pub(super) plays: [u32; 3],
    /// Seats that answer their partner's play like an opponent's (seen doing
    /// so in the game); the others pass on it.
    overtakes: [bool; 3],
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
            overtakes: [false; 3],
            rules,
            buf: Vec::new(),
        }
    }

    /// Models the given seats as answering their partner's plays with their
    /// lowest ordinary beating play instead of passing.
    pub(super) fn with_overtaking(mut self, overtakes: [bool; 3]) -> Playout<'r> {
        self.overtakes = overtakes;
        self
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
                    if !self.overtakes[s] {
                        return Combo::pass();
                    }
                    legal_moves_into(&mut self.buf, self.hands[s], Some(&standing), self.rules);
                    return self
                        .buf
                        .iter()
                        .filter(|m| ordinary(m))
                        .min_by_key(|m| m.rank)
                        .copied()
                        .unwrap_or_else(Combo::pass);
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
/// choice stands unless another candidate does clearly better in the same
/// deals ([`Rollouts::pick`]).
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
    let cands = rollout_candidates(state, moves, heur, opts.objective);
    if cands.len() < 2 {
        return None;
    }
    let rollouts = rollout_stats(state, budget, cap, seed, &cands, opts)?;
    let confidence = ROLLOUT_CONFIDENCE[usize::from(!state.seat.is_landlord())];
    let pick = rollouts.pick(opts.objective, confidence);
    let (stats, done) = (rollouts.stats, rollouts.deals);
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

/// What the rollouts found: each candidate's estimates, and its outcome in
/// every deal (the same deals for all), for paired comparisons.
pub(super) struct Rollouts {
    /// The candidates' estimates, in the order they were given.
    pub(super) stats: Vec<Candidate>,
    /// Deals played (each by every candidate).
    pub(super) deals: u32,
    /// `wins[i][k]`: candidate `i` won deal `k` for the bot's side.
    wins: Vec<Vec<bool>>,
    /// `points[i][k]`: the bot's points when candidate `i` is played in deal `k`.
    points: Vec<Vec<f64>>,
}

impl Rollouts {
    /// The index of the candidate to play. Index 0 (the heuristic's move)
    /// stands unless another does better by `objective` in a paired
    /// comparison over the same deals: the candidate whose mean gain over
    /// index 0, less `confidence` standard errors, is largest and positive.
    /// Pairing cancels the luck of the deal, which both moves share; the
    /// standard error keeps a move from being picked on the luck that
    /// remains (points spread far wider than wins).
    pub(super) fn pick(&self, objective: Objective, confidence: f64) -> usize {
        let outcome = |i: usize, k: usize| {
            objective.measure(f64::from(u8::from(self.wins[i][k])), self.points[i][k])
        };
        let n = self.deals as usize;
        let mut best = (0usize, 0.0f64);
        for i in 1..self.stats.len() {
            let diffs = (0..n).map(|k| outcome(i, k) - outcome(0, k));
            let mean = diffs.clone().sum::<f64>() / n as f64;
            let se = if n > 1 {
                let var = diffs.map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
                (var / n as f64).sqrt()
            } else {
                0.0
            };
            let bound = mean - confidence * se;
            if bound > best.1 + 1e-9 {
                best = (i, bound);
            }
        }
        best.0
    }
}

/// Plays each of `cands` in the same sampled deals (at most [`ROLLOUTS`]
/// games in all) and returns their estimates in the same order, with the
/// outcomes of every deal; `None` when no deal could be played.
pub(super) fn rollout_stats(
    state: &GameState,
    budget: &Stop,
    cap: &Stop,
    seed: u64,
    cands: &[Combo],
    opts: &PlayOptions,
) -> Option<Rollouts> {
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
    let mut wins = vec![Vec::with_capacity(deals as usize); cands.len()];
    let mut points = vec![Vec::with_capacity(deals as usize); cands.len()];
    let mut done = 0u32;
    let me = state.seat;
    let bombs_before = state.bombs_played() as u32;
    let plays_before = state.plays_made();
    let overtakes = modelled_overtakers(state);
    for _ in 0..deals {
        if budget.should_stop() || cap.should_stop() {
            break;
        }
        let hands = dealer.deal(&mut rng);
        for (i, m) in cands.iter().enumerate() {
            let mut p = Playout::new(hands, &state.rules).with_overtaking(overtakes);
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
            wins[i].push(winner.same_team(me));
            let plays = std::array::from_fn(|s| plays_before[s] + p.plays[s]);
            points[i].push(seat_points(
                me,
                winner,
                bombs_before + p.bombs,
                plays,
                &opts.payout,
            ));
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
        .map(|(m, (w, pts))| Candidate {
            play: *m,
            win_rate: w.iter().filter(|&&won| won).count() as f64 / n,
            expected_points: pts.iter().sum::<f64>() / n,
            samples: done,
        })
        .collect();
    Some(Rollouts {
        stats,
        deals: done,
        wins,
        points,
    })
}

/// Seats the playouts model as answering their partner's plays. Only the
/// landlord models peasants seen overtaking each other: in a peasant's own
/// rollouts the model cost wins in the arena.
pub(super) fn modelled_overtakers(state: &GameState) -> [bool; 3] {
    if state.seat == Seat::Landlord {
        state.overtakes_partner()
    } else {
        [false; 3]
    }
}

/// The heuristic's move first, then the moves leaving the best hand value
/// (the pass included when following), at most [`ROLLOUT_CANDIDATES`]. For
/// the score, the lowest bomb and the rocket are compared too: each doubles
/// the stake, which the hand value does not see, so a won game may be pressed
/// for more by spending one.
pub(super) fn rollout_candidates(
    state: &GameState,
    moves: &[Combo],
    heur: Combo,
    objective: Objective,
) -> Vec<Combo> {
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
    if objective == Objective::Score {
        let lowest_bomb = moves
            .iter()
            .filter(|m| m.kind == ComboType::Bomb)
            .min_by_key(|m| m.rank);
        let rocket = moves.iter().find(|m| m.kind == ComboType::Rocket);
        for b in lowest_bomb.into_iter().chain(rocket) {
            if !out.contains(b) {
                out.push(*b);
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Rollouts of three candidates over the given per-deal outcomes.
    fn rollouts(wins: [Vec<bool>; 3], points: [Vec<f64>; 3]) -> Rollouts {
        let stats = (0..3)
            .map(|_| Candidate {
                play: Combo::pass(),
                win_rate: 0.0,
                expected_points: 0.0,
                samples: 0,
            })
            .collect();
        Rollouts {
            stats,
            deals: wins[0].len() as u32,
            wins: wins.to_vec(),
            points: points.to_vec(),
        }
    }

    fn points_of(wins: &[bool]) -> Vec<f64> {
        wins.iter().map(|&w| if w { 2.0 } else { -2.0 }).collect()
    }

    #[test]
    fn a_steady_gain_beats_a_lucky_one() {
        const DEALS: usize = 32;
        let base: Vec<bool> = (0..DEALS).map(|k| k % 2 == 0).collect();
        // Candidate 1 wins 7 deals more than the heuristic's move and never
        // fewer.
        let steady: Vec<bool> = (0..DEALS)
            .map(|k| base[k] || k % 5 == 1 || k % 5 == 3)
            .collect();
        // Candidate 2 makes more points on average than candidate 1, but only
        // through one big deal; it does worse in every other, and loses one
        // deal more.
        let lucky_wins: Vec<bool> = (0..DEALS).map(|k| base[k] && k != 2).collect();
        let lucky_points: Vec<f64> = points_of(&base)
            .iter()
            .enumerate()
            .map(|(k, p)| if k == 0 { p + 100.0 } else { p - 2.0 })
            .collect();
        let r = rollouts(
            [base.clone(), steady.clone(), lucky_wins],
            [points_of(&base), points_of(&steady), lucky_points],
        );
        assert!(r.points[2].iter().sum::<f64>() > r.points[1].iter().sum::<f64>());
        for z in ROLLOUT_CONFIDENCE {
            assert_eq!(r.pick(Objective::Win, z), 1);
            assert_eq!(r.pick(Objective::Score, z), 1);
        }
    }

    #[test]
    fn the_heuristic_stands_without_a_clear_gain() {
        let (t, f) = (true, false);
        // Candidate 1 wins one deal the heuristic loses and loses one it
        // wins; candidate 2 has the same outcomes as the heuristic.
        let base = vec![t, f, t, f];
        let swapped = vec![f, t, t, f];
        let r = rollouts(
            [base.clone(), swapped.clone(), base.clone()],
            [points_of(&base), points_of(&swapped), points_of(&base)],
        );
        for z in ROLLOUT_CONFIDENCE {
            assert_eq!(r.pick(Objective::Win, z), 0);
            assert_eq!(r.pick(Objective::Score, z), 0);
        }
    }
}
