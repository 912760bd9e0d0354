//! Dou Dizhu play policy: given one seat's hand and the public history, pick
//! the next play.
//!
//! # Game state
//!
//! [`GameState::from_history`] replays the public history (every play since
//! card play began, landlord first, one entry per turn, the empty hand for a
//! pass) and checks it: whose turn it is, that every entry is legal at its
//! point, that no card is seen more often than the deck holds, that the hand
//! has the right size, and that nobody has gone out yet. Errors carry the
//! index of the offending entry, from which the HTTP layer names the request
//! field (`/history/3`).
//!
//! From the replay it knows, by card counting: each seat's number of cards,
//! the cards not yet seen by this seat (`deck − own hand − everything
//! played`), and the landlord's bottom cards still unplayed (public, so a
//! peasant knows the landlord holds them).
//!
//! # Policy ([`choose_play`])
//!
//! 1. Forced answers: the only legal option; a play that empties the hand.
//! 2. **Endgame search** when the cards left are few (see [`SEARCH_MAX_TOTAL`]
//!    and [`SEARCH_MAX_TOTAL_THREAT`]): the unseen cards are dealt to the two
//!    other seats at random but consistently with what is known (their card
//!    counts; the landlord keeps its unplayed bottom cards), each deal is
//!    solved exactly with [`solve_endgame`](crate::doudizhu::endgame::solve_endgame) under a per-deal [`Stop`], and the
//!    move that wins the most deals is played (ties go to the heuristic's
//!    choice, then to the heuristic ranking). The fraction of solved deals the
//!    chosen move wins is the decision's `evaluation`. If every deal is lost,
//!    or nothing could be solved in time, the next step decides.
//! 3. **Rollouts** ([`ROLLOUTS`], [`ROLLOUT_CANDIDATES`], [`ROLLOUT_CONFIDENCE`];
//!    every decision the search did not settle, except a proven finish): the
//!    heuristic's move and the candidates leaving the best hand value (the pass
//!    always among them when following; for the score also the lowest bomb and
//!    the rocket, whose doubling the hand value does not see) are each played
//!    in the same sampled deals, and every game is played out to the end by a
//!    fast whole-information policy for all seats (each hand's split kept while
//!    its groups are played: lead the weakest group; follow with the lowest own
//!    group that beats the play when it is cheap or matters, else with the
//!    lowest ordinary play that beats it, breaking a group if need be; bomb
//!    only against an opponent close to going out or to finish; partners pass
//!    on each other, except that in the landlord's rollouts a peasant seen in
//!    this game beating its partner's play answers it like an opponent's).
//!    Another move replaces the heuristic's only when it does better in a
//!    paired comparison over the same deals: its mean gain less
//!    [`ROLLOUT_CONFIDENCE`] standard errors of that gain is positive (the best
//!    such bound wins).
//!    History, measured in the arena: with playout players who only answered
//!    from their own groups (and so waited a lot), rollouts helped the
//!    peasants but made the landlord weaker than its heuristic; with players
//!    who always answer with the lowest beating play they lifted the landlord
//!    against the rule agents by about 11 points and the peasants by 7.
//!
//!    The deals (for the search too) are biased by the passes: a seat that
//!    passed on an opponent's play probably held no ordinary play of that
//!    type beating it, so a deal contradicting a pass is kept only one time
//!    in [`PASS_KEEP_ONE_IN`] (soft: one may also pass to keep a hand whole).
//! 4. **Heuristic** built on the hand split ([`split`](fn@crate::doudizhu::split)): the value of a hand is
//!    `Σ group_value − 7 × plays` (fewest plays first).
//!    * Leading: among the split's groups and every kicker-free lead, play the
//!      one that leaves the best value, with adjustments: if all but one of
//!      the remaining groups can't be beaten by any unseen cards, cash the
//!      safe groups first and go out; never lead a play that an opponent could
//!      go out on (its size equals that opponent's card count and unseen cards
//!      could beat it); a peasant feeds a partner holding one or two cards
//!      (lowest solo or pair) when the partner moves right after it.
//!    * Following an opponent: the beating non-bomb play that leaves the best
//!      value, unless it costs more than [`FOLLOW_SLACK`] of hand value (the
//!      arena showed that answering readily beats waiting); when an
//!      opponent is close to going out (≤ 3 cards for the one that played,
//!      ≤ 2 for anyone), beat it at any cost with the play hardest to beat.
//!    * Following the partner (cooperation): pass, unless the play would win
//!      the trick for good and leave at most one more play (then go on and out),
//!      or — when the landlord still moves after us and holds ≤ 3 cards — the
//!      partner's play can be beaten by the landlord and we hold a play it
//!      cannot beat.
//!    * **Bombs and the rocket** double the stake, so they are kept as control
//!      and used only (a) to win: after the bomb the rest needs at most one
//!      play that isn't safe, or (b) to stop an opponent close to going out
//!      (the standing play's owner holds ≤ 3 cards, or any opponent ≤ 2) when
//!      no ordinary play can. The lowest bomb goes first; the rocket last.
//!
//! # Objective, candidates, doubling
//!
//! Steps 2 and 3 count wins for [`Objective::Win`] (the default). For
//! [`Objective::Score`] they count points under [`PlayOptions::payout`]: a
//! searched move is worth `(2 × share of deals won − 1) × stake` (a bomb
//! doubles the stake), a rolled-out one the average points of its games
//! (bombs and springs included), compared with the heuristic's move in the
//! same paired way. [`Decision::candidates`] ranks the moves the step
//! compared, with their estimates ([`Candidate`]); asked for after a forced
//! or heuristic answer, rollouts rank the candidates without changing the
//! play.
//! [`choose_double`] decides doubling before play, from rollouts of the whole
//! game ([`DOUBLE_ROLLOUTS`] deals, doubling from [`DOUBLE_WIN_RATE`]).
//!
//! Determinism: the only randomness is the deal sampling, driven by a
//! splitmix64 generator seeded from `seed` (and the history length) — same
//! state and seed ⇒ same answer, since the work is capped in search nodes
//! ([`SEARCH_NODES`]) and rollouts, not in time. The one caveat is the time
//! safety net: a search cut short by its deadline (a slow or loaded machine)
//! may have solved fewer deals.
//!
//! Time: heuristic decisions take microseconds, rollouts 5–30 milliseconds;
//! the search and rollouts stop at three quarters of the request's budget
//! ([`SEARCH_TIME_SHARE`]) at the latest, and the search gives up at once if
//! the first deal cannot be solved within a third of its node cap.

mod deal;
mod double;
mod heuristic;
mod rollout;
mod search;
mod state;
mod value;

use std::fmt;
use std::time::{Duration, Instant};

use crate::cache::TranspositionCache;
use crate::doudizhu::score::Payout;
use crate::doudizhu::{Combo, Hand, legal_moves};
use crate::stop::Stop;

/// The bot's generator; re-exported here, where its users look for it.
pub use crate::rng::SplitMix64;
pub use deal::PASS_KEEP_ONE_IN;
pub use double::{DOUBLE_ROLLOUTS, DOUBLE_WIN_RATE, DoubleDecision, choose_double};
// A test fixture (self-play, arenas, benches), not part of the API: built for
// the crate's own tests and behind the `testkit` feature.
#[cfg(any(test, feature = "testkit"))]
pub use deal::random_deal;
pub use rollout::{ROLLOUT_CANDIDATES, ROLLOUT_CONFIDENCE, ROLLOUTS};
pub use state::{GameState, HistoryError, starting_cards};
pub use value::{Candidate, Objective, seat_points};

use heuristic::Ctx;
use rollout::{rollout_candidates, rollout_search, rollout_stats};
use search::search;

/// What [`choose_play`] decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The play; `Combo::pass()` to pass.
    pub play: Combo,
    /// A short reason (stable identifiers, e.g. `"search"`, `"lead_split"`).
    pub reason: &'static str,
    /// With search: the fraction of solved deals the play wins for this
    /// seat's side. Without: `None`.
    pub evaluation: Option<f64>,
    /// Deals sampled for the search (0 without search).
    pub deals: u32,
    /// Of `deals`, those the endgame search solved exactly.
    pub deals_solved: u32,
    /// Wall-clock time taken to decide.
    pub elapsed: Duration,
    /// Ranked moves with their estimates, `play` first, at most
    /// [`PlayOptions::candidates`] (one when that is 0); empty when nothing
    /// was sampled (a forced or heuristic answer) and no ranking was asked
    /// for.
    pub candidates: Vec<Candidate>,
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.play, self.reason)
    }
}

/// Search when all three hands together hold at most this many cards.
pub const SEARCH_MAX_TOTAL: usize = 26;
/// … or at most this many when some seat holds ≤ [`SEARCH_THREAT_CARDS`].
pub const SEARCH_MAX_TOTAL_THREAT: usize = 32;
/// A seat holding at most this many cards allows the larger
/// [`SEARCH_MAX_TOTAL_THREAT`].
pub const SEARCH_THREAT_CARDS: usize = 5;
/// Following an opponent, a beating play is made when it leaves the hand
/// value at least `value(hand) − FOLLOW_SLACK` (measured in the arena: being
/// this ready to answer beats waiting).
pub const FOLLOW_SLACK: i32 = 15;

/// Search nodes the whole determinized search may spend (about 0.1 s at
/// 3.6 M nodes/s). Counting nodes instead of time makes the answer depend on
/// the request and seed alone, not on machine speed; the request's time
/// budget still stops the search early as a safety net.
pub const SEARCH_NODES: u64 = 360_000;
/// Most ranked candidates a decision carries: the rollouts compare at most
/// this many moves.
pub const MAX_CANDIDATES: usize = ROLLOUT_CANDIDATES;
/// Deals sampled at most.
const MAX_DEALS: u32 = 48;
/// Share of the request's time budget the search and rollouts may take (150
/// ms of the default 200): keeps decisions within the budget on a loaded
/// machine, where the node caps alone would not.
pub const SEARCH_TIME_SHARE: f64 = 0.75;

/// Picks the play for `state.seat`. Always legal; never a pass on a lead.
/// `budget` bounds the search (it also stops early on its own); `seed` drives
/// the deal sampling; `cache` is handed to the endgame solver.
pub fn choose_play(
    state: &GameState,
    budget: &Stop,
    seed: u64,
    cache: Option<&TranspositionCache>,
) -> Decision {
    choose_play_with(state, budget, seed, cache, &PlayOptions::default())
}

/// Settings of [`choose_play_with`]; the default is what [`choose_play`]
/// plays: for the win, with no ranked candidates beyond what the decision
/// sampled anyway.
#[derive(Debug, Clone, Copy, Default)]
pub struct PlayOptions {
    /// What the bot plays for.
    pub objective: Objective,
    /// How finished games are scored (for [`Objective::Score`] and the
    /// candidates' expected points).
    pub payout: Payout,
    /// How many ranked candidates the decision should carry (at most
    /// [`MAX_CANDIDATES`]; 0, the default, asks for none). When asked for, a
    /// decision that sampled nothing (a forced or heuristic answer) is
    /// followed by rollouts of the candidate moves, which rank them without
    /// changing the play.
    pub candidates: usize,
    /// Measurement only (the arena's `--oracle`): the true hands of all three
    /// seats. The search and rollouts then use this one deal instead of
    /// sampling the unseen cards, which bounds what better inference could
    /// gain. Never set by the service.
    pub oracle: Option<[Hand; 3]>,
    /// Measurement only (the arena's `--no-infer`): sample deals uniformly,
    /// ignoring what the passes suggest.
    pub no_pass_inference: bool,
}

/// [`choose_play`] with explicit [`PlayOptions`].
pub fn choose_play_with(
    state: &GameState,
    budget: &Stop,
    seed: u64,
    cache: Option<&TranspositionCache>,
    opts: &PlayOptions,
) -> Decision {
    let started = Instant::now();
    let standing = state.last.map(|(_, c)| c);
    let mut moves = legal_moves(state.hand, standing.as_ref(), &state.rules);
    if standing.is_some() {
        moves.push(Combo::pass());
    }
    // Three quarters of the request's budget, so that a slow or loaded
    // machine still answers in time (on a quiet one the node and rollout caps
    // end the work long before).
    let cap = match budget.deadline() {
        Some(d) => Stop::at(
            started
                + d.saturating_duration_since(started)
                    .mul_f64(SEARCH_TIME_SHARE),
        ),
        None => Stop::never(),
    }
    .with_memory_of(budget);
    let mut d = decide(state, budget, &cap, seed, cache, opts, &moves, started);
    let wanted = opts.candidates.clamp(1, MAX_CANDIDATES);
    if opts.candidates > 0 && d.candidates.is_empty() && !moves.is_empty() {
        // Rank what the decision did not sample; the play stays.
        let cands = rollout_candidates(state, &moves, d.play, opts.objective);
        if let Some(r) = rollout_stats(state, budget, &cap, seed, &cands, opts) {
            d.candidates = r.stats;
        }
    }
    d.candidates = value::rank(d.candidates, &d.play, opts.objective, wanted);
    d.elapsed = started.elapsed();
    d
}

/// The decision itself (see the module docs for the steps).
#[allow(clippy::too_many_arguments)]
fn decide(
    state: &GameState,
    budget: &Stop,
    cap: &Stop,
    seed: u64,
    cache: Option<&TranspositionCache>,
    opts: &PlayOptions,
    moves: &[Combo],
    started: Instant,
) -> Decision {
    let done = |play: Combo, reason: &'static str| Decision {
        play,
        reason,
        evaluation: None,
        deals: 0,
        deals_solved: 0,
        elapsed: started.elapsed(),
        candidates: Vec::new(),
    };
    if moves.is_empty() {
        // Only for a hand-made state with an empty hand (from_history never
        // yields one): nothing can be played.
        return done(Combo::pass(), "no_move");
    }
    if moves.len() == 1 {
        return done(moves[0], "only_move");
    }
    if let Some(m) = moves.iter().find(|m| m.cards == state.hand) {
        return done(*m, "go_out");
    }
    let ctx = Ctx::new(state);
    let (heur, heur_reason) = ctx.heuristic(moves);
    let total: usize = state.counts.iter().sum();
    let threat = state.counts.iter().any(|&c| c <= SEARCH_THREAT_CARDS);
    let searchable = total <= SEARCH_MAX_TOTAL || (threat && total <= SEARCH_MAX_TOTAL_THREAT);
    if searchable
        && let Some(d) = search(state, budget, cap, seed, cache, moves, heur, started, opts)
    {
        return d;
    }
    // A proven finish (the rest is safe) needs no sampling.
    let finishing = matches!(heur_reason, "lead_cash_safe" | "partner_take_and_finish");
    // Both sides roll out wherever the search did not settle the move (with
    // the rule-like follows in the playouts this beat the heuristic for the
    // landlord too; see the module docs).
    if !finishing
        && let Some(d) = rollout_search(state, budget, cap, seed, moves, heur, started, opts)
    {
        return d;
    }
    done(heur, heur_reason)
}

#[cfg(test)]
mod tests;
