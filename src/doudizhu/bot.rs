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
//! index of the offending entry ([`HistoryError::field`] gives a JSON pointer
//! such as `/history/3`).
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
//!    solved exactly with [`solve_endgame`] under a per-deal [`Stop`], and the
//!    move that wins the most deals is played (ties go to the heuristic's
//!    choice, then to the heuristic ranking). The fraction of solved deals the
//!    chosen move wins is the decision's `evaluation`. If every deal is lost,
//!    or nothing could be solved in time, the next step decides.
//! 3. **Rollouts** ([`ROLLOUTS`], [`ROLLOUT_CANDIDATES`], [`ROLLOUT_MARGIN`];
//!    every decision the search did not settle, except a proven finish): the
//!    heuristic's move and the candidates leaving the best hand value (the
//!    pass always among them when following) are each played in the same
//!    sampled deals, and every game is played out to the end by a fast
//!    whole-information policy for all seats (each hand's split kept while
//!    its groups are played: lead the weakest group; follow with the lowest
//!    own group that beats the play when it is cheap or matters, else with
//!    the lowest ordinary play that beats it, breaking a group if need be;
//!    bomb only against an opponent close to going out or to finish;
//!    partners pass on each other). Another move replaces the heuristic's
//!    only when it wins more than [`ROLLOUT_MARGIN`] deals more.
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
//! 4. **Heuristic** built on the hand split ([`split`]): the value of a hand is
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
//! Determinism: the only randomness is the deal sampling, driven by a
//! splitmix64 generator seeded from `seed` (and the history length) — same
//! state and seed ⇒ same answer, since the work is capped in search nodes
//! ([`SEARCH_NODES`]) and rollouts, not in time. The one caveat is the time
//! safety net: a search cut short by its deadline (a slow or loaded machine)
//! may have solved fewer deals.
//!
//! Time: heuristic decisions take microseconds, rollouts a few milliseconds;
//! the search and rollouts stop at three quarters of the request's budget
//! ([`SEARCH_TIME_SHARE`]) at the latest, and the search gives up at once if
//! the first deal cannot be solved within a third of its node cap.

use std::collections::HashMap;
use std::fmt;
use std::time::{Duration, Instant};

use crate::cache::TranspositionCache;
use crate::doudizhu::endgame::{Outcome, Position, Seat, solve_endgame};
use crate::doudizhu::{
    Combo, ComboType, Hand, Rank, Rules, beats, classify, classify_all, group_value, legal_moves,
    legal_moves_into, split,
};
use crate::stop::Stop;

// ------------------------------------------------------------------ rng

/// The bot's generator; re-exported here, where its users look for it.
pub use crate::rng::SplitMix64;

/// A random deal for self-play, arenas and benches: 17 cards to each seat
/// (by [`Seat::index`]), then the 3 bottom cards to the landlord. Returns the
/// hands (the landlord's with the bottom cards) and the bottom cards.
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

// ------------------------------------------------------------ game state

/// Cards a seat starts card play with.
pub const fn starting_cards(seat: Seat) -> usize {
    if seat.is_landlord() { 20 } else { 17 }
}

/// Why a history (with hand and bottom cards) is not a reachable game state.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HistoryError {
    #[error("it is {to_move}'s turn after {len} history entries, not {seat}'s")]
    NotYourTurn {
        seat: Seat,
        to_move: Seat,
        len: usize,
    },
    #[error("the hand holds {actual} cards; {expected} expected after this history")]
    HandSize { expected: usize, actual: usize },
    #[error("landlord_cards must be 3 cards, got {0}")]
    LandlordCardsSize(usize),
    #[error("the landlord's unplayed bottom cards are not all in the landlord's hand")]
    LandlordCardsNotInHand,
    #[error("history entry {index} ({cards:?}) is not a legal combination")]
    NotACombo { index: usize, cards: String },
    #[error("history entry {index} is a pass, but {seat} leads there")]
    PassOnLead { index: usize, seat: Seat },
    #[error("history entry {index} ({cards:?}) does not beat the standing play {standing:?}")]
    DoesNotBeat {
        index: usize,
        cards: String,
        standing: String,
    },
    #[error("history entry {index}: {seat} plays {played} cards but holds only {held}")]
    Overdrawn {
        index: usize,
        seat: Seat,
        played: usize,
        held: usize,
    },
    #[error("more copies of {rank} are seen than the deck holds (at {})", where_(*.index, *.in_hand))]
    TooManyCopies {
        rank: char,
        /// The first history entry at which the excess appears; `None` when
        /// the hand and bottom cards alone exceed the deck.
        index: Option<usize>,
        /// With `index = None`: the hand alone exceeds (else the bottom cards do).
        in_hand: bool,
    },
    #[error("the game is over: {seat} went out at history entry {index}")]
    GameOver { index: usize, seat: Seat },
}

fn where_(index: Option<usize>, in_hand: bool) -> String {
    match (index, in_hand) {
        (Some(i), _) => format!("history entry {i}"),
        (None, true) => "hand".into(),
        (None, false) => "landlord_cards".into(),
    }
}

impl HistoryError {
    /// JSON pointer of the request field to blame: `/seat`, `/hand`,
    /// `/landlord_cards` or `/history/<index>`.
    pub fn field(&self) -> String {
        match self {
            HistoryError::NotYourTurn { .. } => "/seat".into(),
            HistoryError::HandSize { .. } => "/hand".into(),
            HistoryError::LandlordCardsSize(_) | HistoryError::LandlordCardsNotInHand => {
                "/landlord_cards".into()
            }
            HistoryError::NotACombo { index, .. }
            | HistoryError::PassOnLead { index, .. }
            | HistoryError::DoesNotBeat { index, .. }
            | HistoryError::Overdrawn { index, .. }
            | HistoryError::GameOver { index, .. } => format!("/history/{index}"),
            HistoryError::TooManyCopies { index, in_hand, .. } => match index {
                Some(i) => format!("/history/{i}"),
                None if *in_hand => "/hand".into(),
                None => "/landlord_cards".into(),
            },
        }
    }
}

/// A seat's view of a game in card play, checked and card-counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameState {
    /// The seat to decide (always the seat to move).
    pub seat: Seat,
    pub hand: Hand,
    pub rules: Rules,
    /// Every play so far, landlord first; `Combo::pass()` for passes.
    pub history: Vec<Combo>,
    /// Cards each seat has played, by [`Seat::index`].
    pub played: [Hand; 3],
    /// Cards each seat still holds.
    pub counts: [usize; 3],
    /// The three bottom cards, if given.
    pub landlord_cards: Option<Hand>,
    /// Bottom cards the landlord has not played yet (it certainly holds them).
    pub landlord_known: Hand,
    /// The play to beat and who made it; `None` when this seat leads.
    pub last: Option<(Seat, Combo)>,
    /// Cards this seat has not seen: deck − own hand − everything played.
    /// They are exactly the other two seats' hands.
    pub unseen: Hand,
}

fn add_counts(total: &mut [u32; 15], h: Hand) {
    for (t, c) in total.iter_mut().zip(h.counts()) {
        *t += u32::from(c);
    }
}

fn first_excess(total: &[u32; 15]) -> Option<char> {
    Rank::ALL
        .iter()
        .zip(total)
        .find(|(r, t)| **t > r.deck_count())
        .map(|(r, _)| r.to_char())
}

/// Per-rank `a − b`, saturating at zero.
fn saturating_sub(a: Hand, b: Hand) -> Hand {
    let (ca, cb) = (a.counts(), b.counts());
    let mut out = [0u8; 15];
    for i in 0..15 {
        out[i] = ca[i].saturating_sub(cb[i]);
    }
    Hand::from_counts(&out).expect("a sub-multiset of a hand is a hand")
}

impl GameState {
    /// Replays `history` (entries as card sets; the empty hand is a pass)
    /// for `seat` holding `hand`. See [`HistoryError`] for what is checked.
    pub fn from_history(
        seat: Seat,
        hand: Hand,
        history: &[Hand],
        landlord_cards: Option<Hand>,
        rules: Rules,
    ) -> Result<GameState, HistoryError> {
        if let Some(b) = landlord_cards
            && b.len() != 3
        {
            return Err(HistoryError::LandlordCardsSize(b.len()));
        }
        let bottom = landlord_cards.unwrap_or(Hand::EMPTY);
        // Static copy check: the hand alone, then with the bottom cards.
        let mut base = [0u32; 15];
        add_counts(&mut base, hand);
        if let Some(r) = first_excess(&base) {
            return Err(HistoryError::TooManyCopies {
                rank: r,
                index: None,
                in_hand: true,
            });
        }
        let mut played = [Hand::EMPTY; 3];
        let mut counts = [20usize, 17, 17];
        let mut plays: Vec<Combo> = Vec::with_capacity(history.len());
        let mut last: Option<(Seat, Combo)> = None;
        let mut mover = Seat::Landlord;
        let seen_total = |played: &[Hand; 3], last_check: bool| {
            let mut t = [0u32; 15];
            add_counts(&mut t, hand);
            for p in played {
                add_counts(&mut t, *p);
            }
            let known = saturating_sub(bottom, played[0]);
            if seat.is_landlord() {
                // The landlord's unplayed bottom cards are in `hand` already
                // (checked once the whole history is known).
                if last_check && !hand.contains(known) {
                    return Err(());
                }
            } else {
                add_counts(&mut t, known);
            }
            Ok(t)
        };
        match seen_total(&played, false) {
            Err(_) => return Err(HistoryError::LandlordCardsNotInHand),
            Ok(t) => {
                if let Some(r) = first_excess(&t) {
                    return Err(HistoryError::TooManyCopies {
                        rank: r,
                        index: None,
                        in_hand: false,
                    });
                }
            }
        }
        for (index, &cards) in history.iter().enumerate() {
            if let Some(i) = counts.iter().position(|&c| c == 0) {
                return Err(HistoryError::GameOver {
                    index,
                    seat: Seat::ALL[i],
                });
            }
            let standing = last.map(|(_, c)| c);
            let combo = if cards.is_empty() {
                if standing.is_none() {
                    return Err(HistoryError::PassOnLead { index, seat: mover });
                }
                Combo::pass()
            } else {
                let readings = classify_all(cards, &rules);
                if readings.is_empty() {
                    return Err(HistoryError::NotACombo {
                        index,
                        cards: cards.to_string(),
                    });
                }
                match standing {
                    None => readings[0],
                    Some(s) => match readings.iter().find(|c| crate::doudizhu::beats(c, &s)) {
                        Some(c) => *c,
                        None => {
                            return Err(HistoryError::DoesNotBeat {
                                index,
                                cards: cards.to_string(),
                                standing: s.cards.to_string(),
                            });
                        }
                    },
                }
            };
            let m = mover.index();
            if !combo.is_pass() {
                if combo.cards.len() > counts[m] {
                    return Err(HistoryError::Overdrawn {
                        index,
                        seat: mover,
                        played: combo.cards.len(),
                        held: counts[m],
                    });
                }
                counts[m] -= combo.cards.len();
                played[m] = played[m].add(combo.cards);
                // Counts only grow along the history, so the first entry
                // where a rank exceeds the deck is the one to blame.
                match seen_total(&played, false) {
                    Ok(t) => {
                        if let Some(r) = first_excess(&t) {
                            return Err(HistoryError::TooManyCopies {
                                rank: r,
                                index: Some(index),
                                in_hand: false,
                            });
                        }
                    }
                    Err(_) => {
                        return Err(HistoryError::TooManyCopies {
                            rank: '?',
                            index: Some(index),
                            in_hand: false,
                        });
                    }
                }
                last = Some((mover, combo));
            }
            plays.push(combo);
            mover = mover.next();
            if let Some((by, _)) = last
                && by == mover
            {
                last = None;
            }
        }
        if let Some(i) = counts.iter().position(|&c| c == 0) {
            return Err(HistoryError::GameOver {
                index: history.len() - 1,
                seat: Seat::ALL[i],
            });
        }
        if seen_total(&played, true).is_err() {
            return Err(HistoryError::LandlordCardsNotInHand);
        }
        if mover != seat {
            return Err(HistoryError::NotYourTurn {
                seat,
                to_move: mover,
                len: history.len(),
            });
        }
        if hand.len() != counts[seat.index()] {
            return Err(HistoryError::HandSize {
                expected: counts[seat.index()],
                actual: hand.len(),
            });
        }
        let mut all_played = Hand::EMPTY;
        for p in played {
            all_played = all_played.add(p);
        }
        let unseen = Hand::DECK.sub(hand).sub(all_played);
        let landlord_known = if seat.is_landlord() {
            Hand::EMPTY
        } else {
            saturating_sub(bottom, played[0])
        };
        Ok(GameState {
            seat,
            hand,
            rules,
            history: plays,
            played,
            counts,
            landlord_cards,
            landlord_known,
            last,
            unseen,
        })
    }

    /// The seat's partner (peasants only).
    pub fn partner(&self) -> Option<Seat> {
        if self.seat.is_landlord() {
            None
        } else {
            Seat::ALL
                .into_iter()
                .find(|s| *s != self.seat && !s.is_landlord())
        }
    }

    /// The two other seats, in turn order after this one.
    pub fn others(&self) -> [Seat; 2] {
        [self.seat.next(), self.seat.next().next()]
    }

    /// Bombs and rockets played so far (each doubles the stake).
    pub fn bombs_played(&self) -> usize {
        self.history.iter().filter(|c| c.kind.is_bomb()).count()
    }
}

// -------------------------------------------------------------- decision

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
    /// Deals sampled and deals solved exactly by the endgame search.
    pub deals: u32,
    pub deals_solved: u32,
    pub elapsed: Duration,
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
/// (and so the HTTP API) plays.
#[derive(Debug, Clone, Copy, Default)]
pub struct PlayOptions {
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
    let done = |play: Combo, reason: &'static str| Decision {
        play,
        reason,
        evaluation: None,
        deals: 0,
        deals_solved: 0,
        elapsed: started.elapsed(),
    };
    let standing = state.last.map(|(_, c)| c);
    let mut moves = legal_moves(state.hand, standing.as_ref(), &state.rules);
    if standing.is_some() {
        moves.push(Combo::pass());
    }
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
    let (heur, heur_reason) = ctx.heuristic(&moves);
    let total: usize = state.counts.iter().sum();
    let threat = state.counts.iter().any(|&c| c <= SEARCH_THREAT_CARDS);
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
    let searchable = total <= SEARCH_MAX_TOTAL || (threat && total <= SEARCH_MAX_TOTAL_THREAT);
    if searchable {
        let mut d = search(
            state, budget, &cap, seed, cache, &moves, heur, started, opts,
        );
        if let Some(ref mut d) = d {
            d.elapsed = started.elapsed();
            return d.clone();
        }
    }
    // A proven finish (the rest is safe) needs no sampling.
    let finishing = matches!(heur_reason, "lead_cash_safe" | "partner_take_and_finish");
    // Both sides roll out wherever the search did not settle the move (with
    // the rule-like follows in the playouts this beat the heuristic for the
    // landlord too; see the module docs).
    if !finishing
        && let Some(mut d) = rollout_search(state, budget, &cap, seed, &moves, heur, started, opts)
    {
        d.elapsed = started.elapsed();
        return d;
    }
    done(heur, heur_reason)
}

fn combo_key(c: &Combo) -> (u64, u8) {
    (c.cards.bits(), c.kind as u8)
}

/// Determinized endgame search; `None` when it found no winning move.
#[allow(clippy::too_many_arguments)]
fn search(
    state: &GameState,
    budget: &Stop,
    cap: &Stop,
    seed: u64,
    cache: Option<&TranspositionCache>,
    moves: &[Combo],
    heur: Combo,
    started: Instant,
    opts: &PlayOptions,
) -> Option<Decision> {
    // One true deal (the oracle) may take the whole cap.
    let per_deal_nodes = if opts.oracle.is_some() {
        SEARCH_NODES
    } else {
        SEARCH_NODES / 3
    };
    let mut nodes_used = 0u64;
    let mut rng = SplitMix64::new(seed ^ 0xD0D1_2A00 ^ (state.history.len() as u64) << 32);
    // `None`: an inconsistent hand-made state, no consistent deal exists.
    let mut dealer = Dealer::new(state, opts.oracle, opts.no_pass_inference)?;
    let mut wins: HashMap<(u64, u8), u32> = HashMap::new();
    let mut seen: HashMap<(u64, u64), Option<Vec<Combo>>> = HashMap::new();
    let (mut deals, mut solved) = (0u32, 0u32);
    while deals < MAX_DEALS {
        if nodes_used >= SEARCH_NODES || budget.should_stop() || cap.should_stop() {
            break;
        }
        deals += 1;
        let hands = dealer.deal(&mut rng);
        let [a, b] = state.others();
        let key = (hands[a.index()].bits(), hands[b.index()].bits());
        let result = if let Some(r) = seen.get(&key) {
            r.clone()
        } else {
            let pos = Position::new(hands.map(Some), state.seat, state.last, state.rules);
            // The capped stop does not share the request's cancellation;
            // that is checked between deals (each is at most a third of the
            // node cap).
            let stop = cap.with_node_limit(per_deal_nodes.min(SEARCH_NODES - nodes_used));
            let sol = solve_endgame(&pos, &stop, cache);
            nodes_used += sol.nodes;
            let r = match sol.outcome {
                Outcome::Win => {
                    if sol.winning_moves.is_empty() || !sol.complete {
                        sol.best_move.map(|m| vec![m])
                    } else {
                        Some(sol.winning_moves.clone())
                    }
                }
                Outcome::Loss => Some(Vec::new()),
                Outcome::Unknown => None,
            };
            seen.insert(key, r.clone());
            if r.is_none() && solved == 0 {
                // Too deep to solve in time: leave it to the heuristic.
                break;
            }
            r
        };
        if let Some(ws) = result {
            solved += 1;
            for m in ws {
                *wins.entry(combo_key(&m)).or_default() += 1;
            }
        }
        // Stop early when one move already won every deal of a decent sample.
        if solved >= 12 && wins.values().any(|&w| w == solved) {
            break;
        }
    }
    if solved == 0 {
        return None;
    }
    let best = wins.values().copied().max().unwrap_or(0);
    if best == 0 {
        return None;
    }
    // Among the moves with the most wins: the heuristic's, else the first legal.
    let play = if wins.get(&combo_key(&heur)) == Some(&best) {
        heur
    } else {
        *moves
            .iter()
            .find(|m| wins.get(&combo_key(m)) == Some(&best))?
    };
    Some(Decision {
        play,
        reason: "search",
        evaluation: Some(f64::from(best) / f64::from(solved)),
        deals,
        deals_solved: solved,
        elapsed: started.elapsed(),
    })
}

// -------------------------------------------------------------- rollouts

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

/// Deals the unseen cards to the two other seats consistently with what is
/// known: their card counts, and the landlord's unplayed bottom cards. Deals
/// are also biased by the passes (see [`PassInference`]).
struct Dealer {
    seat: Seat,
    others: [Seat; 2],
    hand: Hand,
    unseen: Hand,
    pinned: Hand,
    free: Vec<Rank>,
    need_first: usize,
    passes: Vec<PassInference>,
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
struct PassInference {
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
    fn new(state: &GameState, fixed: Option<[Hand; 3]>, no_infer: bool) -> Option<Dealer> {
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
    fn deal(&mut self, rng: &mut SplitMix64) -> [Hand; 3] {
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

/// A fast whole-information playout policy for every seat, built on each
/// hand's split (computed once and kept while the seat plays its groups).
struct Playout<'r> {
    hands: [Hand; 3],
    groups: [Option<Vec<Combo>>; 3],
    rules: &'r Rules,
    buf: Vec<Combo>,
}

impl<'r> Playout<'r> {
    fn new(hands: [Hand; 3], rules: &'r Rules) -> Playout<'r> {
        Playout {
            hands,
            groups: [None, None, None],
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

    fn apply(&mut self, s: usize, m: &Combo) {
        if m.is_pass() {
            return;
        }
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

    fn choose(&mut self, seat: Seat, last: Option<(Seat, Combo)>) -> Combo {
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
    fn run(&mut self, mut to_move: Seat, mut last: Option<(Seat, Combo)>) -> Seat {
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
/// wins most often is chosen. The heuristic's choice stands unless another
/// candidate wins clearly more often (by more than [`ROLLOUT_MARGIN`] deals).
#[allow(clippy::too_many_arguments)]
fn rollout_search(
    state: &GameState,
    budget: &Stop,
    cap: &Stop,
    seed: u64,
    moves: &[Combo],
    heur: Combo,
    started: Instant,
    opts: &PlayOptions,
) -> Option<Decision> {
    let mut dealer = Dealer::new(state, opts.oracle, opts.no_pass_inference)?;
    let cands = rollout_candidates(state, moves, heur);
    if cands.len() < 2 {
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
    let mut done = 0u32;
    let me = state.seat;
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
        }
        done += 1;
    }
    if done == 0 {
        return None;
    }
    // The oracle's one deal is exact; sampled deals must show a clear edge.
    let margin = if opts.oracle.is_some() {
        0
    } else {
        ROLLOUT_MARGIN
    };
    let (bi, &bw) = wins
        .iter()
        .enumerate()
        .max_by_key(|(i, w)| (**w, std::cmp::Reverse(*i)))?;
    let pick = if bw > wins[0] + margin { bi } else { 0 };
    Some(Decision {
        play: cands[pick],
        reason: if pick == 0 { "rollout_keep" } else { "rollout" },
        evaluation: Some(f64::from(wins[pick]) / f64::from(done)),
        deals: done,
        deals_solved: 0,
        elapsed: started.elapsed(),
    })
}

/// The heuristic's move first, then the moves leaving the best hand value
/// (the pass included when following), at most [`ROLLOUT_CANDIDATES`].
fn rollout_candidates(state: &GameState, moves: &[Combo], heur: Combo) -> Vec<Combo> {
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

// ------------------------------------------------------------- heuristic

struct Ctx<'a> {
    st: &'a GameState,
    rules: Rules,
    hand: Hand,
    me: Seat,
}

/// Hand value: `Σ group_value − 7 × plays` of the best split; out = very high.
fn value(h: Hand, rules: &Rules) -> i32 {
    if h.is_empty() {
        1000
    } else {
        split(h, rules).score
    }
}

/// Ordinary (non-bomb, non-pass) plays.
fn ordinary(c: &Combo) -> bool {
    !c.kind.is_bomb() && !c.is_pass()
}

/// Cards of a rank-ordered strength proxy for "hardest to beat".
fn strength(c: &Combo) -> usize {
    c.rank.index() * 16 + c.length as usize
}

impl<'a> Ctx<'a> {
    fn new(st: &'a GameState) -> Ctx<'a> {
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

    fn heuristic(&self, moves: &[Combo]) -> (Combo, &'static str) {
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

#[cfg(test)]
#[path = "bot_tests.rs"]
mod tests;
