//! The determinized endgame search: sampled deals solved exactly, the move
//! that wins the most of them played.

use std::collections::HashMap;
use std::time::Instant;

use crate::cache::TranspositionCache;
use crate::doudizhu::Combo;
use crate::doudizhu::endgame::{Outcome, Position, solve_endgame};
use crate::doudizhu::score::multiplier;
use crate::stop::Stop;

use super::deal::Dealer;
use super::{
    Candidate, Decision, GameState, MAX_DEALS, Objective, PlayOptions, SEARCH_NODES, SplitMix64,
};

pub(super) fn combo_key(c: &Combo) -> (u64, u8) {
    (c.cards.bits(), c.kind as u8)
}

/// Determinized endgame search; `None` when it found no winning move.
#[allow(clippy::too_many_arguments)]
pub(super) fn search(
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
            // A deal consistent with the game is a valid position; one that
            // is not (which the dealer should never make) is skipped.
            let Ok(pos) = Position::new(hands.map(Some), state.seat, state.last, state.rules)
            else {
                continue;
            };
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
    // Each move's estimates: its share of the solved deals won, and the
    // points that gives at today's multiplier (a bomb doubles it; bombs
    // later in the line and springs are not known to the solver).
    let unit = if state.seat.is_landlord() { 2.0 } else { 1.0 };
    let bombs = state.bombs_played() as u32;
    let stats: Vec<Candidate> = moves
        .iter()
        .map(|m| {
            let rate = f64::from(wins.get(&combo_key(m)).copied().unwrap_or(0)) / f64::from(solved);
            let stake = multiplier(bombs + u32::from(m.kind.is_bomb()), false, &opts.payout) as f64;
            Candidate {
                play: *m,
                win_rate: rate,
                expected_points: (2.0 * rate - 1.0) * unit * stake,
                samples: solved,
            }
        })
        .collect();
    let play = match opts.objective {
        // Among the moves with the most wins: the heuristic's, else the first legal.
        Objective::Win => {
            if wins.get(&combo_key(&heur)) == Some(&best) {
                heur
            } else {
                *moves
                    .iter()
                    .find(|m| wins.get(&combo_key(m)) == Some(&best))?
            }
        }
        // The most points (ties to the heuristic's, then the first): a bomb
        // that keeps the game won doubles them; one that risks it is worth
        // it only when the share of deals it still wins makes up for it.
        Objective::Score => {
            let top = stats
                .iter()
                .map(|c| c.expected_points)
                .fold(f64::MIN, f64::max);
            if stats
                .iter()
                .any(|c| c.play == heur && c.expected_points >= top)
            {
                heur
            } else {
                stats.iter().find(|c| c.expected_points >= top)?.play
            }
        }
    };
    let evaluation = stats.iter().find(|c| c.play == play)?.win_rate;
    Some(Decision {
        play,
        reason: "search",
        evaluation: Some(evaluation),
        deals,
        deals_solved: solved,
        elapsed: started.elapsed(),
        candidates: stats,
    })
}
