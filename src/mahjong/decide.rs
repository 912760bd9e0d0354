//! The turn and claim pipeline shared by the stateless strategies: win when
//! the rules allow (and furiten does not forbid), declare a kong that fits the
//! plan, else discard the candidate the strategy ranks first ([`classic`](super::classic) or
//! [`efficient`]); on another player's discard, win, or call what fits the plan.

use super::classic::{candidates, choose_plan, classic_pick};
use super::efficient;
use super::rules::{WinInput, is_winning_hand, legal_win};
use super::shanten::{Forms, live_counts, max_sets, shanten_forms, ukeire_forms};
use super::tiles::{KINDS, Meld, MeldKind, Tile, TileCounts, Variant};
use super::{
    Action, ClaimAction, ClaimContext, ClaimDecision, DiscardContext, DiscardDecision, Discarder,
    HandSetup, Plan, Strategy,
};

fn win_input<'a>(ctx: &'a HandSetup, conc: TileCounts, win: u8, tsumo: bool) -> WinInput<'a> {
    WinInput {
        variant: ctx.variant,
        conc,
        melds: &ctx.melds,
        win_tile: win,
        self_drawn: tsumo,
        seat_wind: ctx.seat_wind,
        round_wind: ctx.round_wind,
        flowers: &ctx.flowers,
        riichi: ctx.riichi_declared,
    }
}

fn kong_option(ctx: &HandSetup, plan: Plan) -> Option<(u8, bool)> {
    if ctx.riichi_declared {
        return None;
    }
    let c = ctx.concealed();
    let wild = ctx.variant.wildcard();
    for (k, n) in c.kinds() {
        if Some(k) == wild || !plan.on_plan(k, wild) {
            continue;
        }
        if n == 4 {
            return Some((k, true));
        }
        let added = ctx
            .melds
            .iter()
            .any(|m| m.kind == MeldKind::Pung && m.pung_kind(wild) == k);
        if added && plan != Plan::RiichiClosed {
            return Some((k, false));
        }
    }
    None
}

/// The full own-turn pipeline.
pub fn decide_turn(ctx: &DiscardContext) -> DiscardDecision {
    let plan = choose_plan(ctx);
    let conc = ctx.concealed();
    let win_tile = ctx
        .drawn
        .or(ctx.hand.last().copied())
        .unwrap_or(Tile::new(0));
    let cands = candidates(ctx, plan);
    let complete = super::shanten::shanten(ctx.variant, &conc, ctx.melds.len()) < 0;
    if let Some(v) = complete
        .then(|| {
            legal_win(
                &win_input(ctx, conc, win_tile.index, true),
                ctx.min_fan,
                ctx.min_score,
            )
        })
        .flatten()
    {
        return DiscardDecision {
            action: Action::Win,
            tile: win_tile,
            riichi: false,
            reason: v.describe(),
            plan: plan.name(),
            shanten: -1,
            ukeire: 0,
            candidates: cands,
            win_value: Some(v.value),
            win_items: v.items,
        };
    }
    let pick = match ctx.strategy {
        Strategy::Classic => classic_pick(&cands),
        Strategy::Efficient | Strategy::Balanced => efficient::pick(ctx, &cands),
    }
    .or_else(|| {
        cands
            .iter()
            .find(|c| Some(c.tile.index) != ctx.variant.wildcard())
    })
    .or(cands.first())
    .cloned();
    let Some(pick) = pick else {
        // unreachable for validated input (hand is never empty)
        return DiscardDecision {
            action: Action::Discard,
            tile: win_tile,
            riichi: false,
            reason: "empty hand".into(),
            plan: plan.name(),
            shanten: 8,
            ukeire: 0,
            candidates: cands,
            win_value: None,
            win_items: Vec::new(),
        };
    };
    if let Some((k, concealed)) = kong_option(ctx, plan) {
        let take = match ctx.strategy {
            Strategy::Classic => true,
            Strategy::Efficient | Strategy::Balanced => {
                let mut after = conc;
                for _ in 0..if concealed { 4 } else { 1 } {
                    after.remove(k);
                }
                let melds = ctx.melds.len() + usize::from(concealed);
                shanten_forms(ctx.variant, &after, melds, Forms::Standard) <= pick.std_shanten
            }
        };
        if take {
            return DiscardDecision {
                action: Action::Kong,
                tile: Tile::new(k),
                riichi: false,
                reason: if concealed {
                    "concealed kong".into()
                } else {
                    "added kong".into()
                },
                plan: plan.name(),
                shanten: pick.shanten,
                ukeire: pick.ukeire,
                candidates: cands,
                win_value: None,
                win_items: Vec::new(),
            };
        }
    }
    let riichi = ctx.variant == Variant::Riichi
        && !ctx.riichi_declared
        && !ctx.has_open_meld()
        && pick.shanten == 0;
    let reason = format!(
        "{}{} ({} strategy)",
        if pick.off_plan { "off-plan " } else { "" },
        pick.category.name(),
        match ctx.strategy {
            Strategy::Classic => "classic",
            Strategy::Efficient => "efficient",
            Strategy::Balanced => "balanced",
        }
    );
    DiscardDecision {
        action: Action::Discard,
        tile: pick.tile,
        riichi,
        reason,
        plan: plan.name(),
        shanten: pick.shanten,
        ukeire: pick.ukeire,
        candidates: cands,
        win_value: None,
        win_items: Vec::new(),
    }
}

fn take_tiles(hand: &[Tile], kinds: &[u8]) -> Vec<Tile> {
    let mut pool = hand.to_vec();
    let mut out = Vec::new();
    for &k in kinds {
        if let Some(pos) = pool.iter().position(|t| t.index == k) {
            out.push(pool.remove(pos));
        }
    }
    out
}

/// Best (standard shanten, −ukeire) reachable by one discard from `conc` with `melds` melds.
fn best_after_discard(
    variant: Variant,
    conc: &TileCounts,
    melds: usize,
    live: &[u8; KINDS],
) -> (i8, i64) {
    let mut best = (i8::MAX, 0i64);
    for (k, _) in conc.kinds() {
        if Some(k) == variant.wildcard() {
            continue;
        }
        let mut a = *conc;
        a.remove(k);
        let (s, u, _) = ukeire_forms(variant, &a, melds, live, Forms::Standard);
        best = best.min((s, -(u as i64)));
    }
    best
}

/// Riichi furiten: why the bot may not win on a discard, if it may not. The
/// discard kind counts whatever tile completes the hand's shape, with or
/// without a yaku.
fn furiten(ctx: &HandSetup, conc: &TileCounts) -> Option<String> {
    if ctx.variant != Variant::Riichi {
        return None;
    }
    if ctx.furiten {
        return Some("the caller reports a missed win".into());
    }
    ctx.own_discards
        .iter()
        .find(|t| {
            let mut with = *conc;
            with.add(t.index);
            is_winning_hand(ctx.variant, &with, &ctx.melds)
        })
        .map(|t| format!("the wait {} is among the own discards", t.kind_name()))
}

/// Decision on another player's discard.
pub fn decide_claim(claim: &ClaimContext) -> ClaimDecision {
    let (ctx, tile, from): (&HandSetup, _, _) = (claim, claim.tile(), claim.from());
    let pass = |reason: &str| ClaimDecision {
        action: ClaimAction::Pass,
        tiles: Vec::new(),
        reason: reason.into(),
        win_items: Vec::new(),
    };
    let variant = ctx.variant;
    let wild = variant.wildcard();
    let k = tile.index;
    let conc = ctx.concealed();
    // win by discard (Red Dragon: self-draw only)
    if variant != Variant::RedDragon {
        let mut with = conc;
        with.add(k);
        if let Some(v) = legal_win(&win_input(ctx, with, k, false), ctx.min_fan, ctx.min_score) {
            if let Some(why) = furiten(ctx, &conc) {
                return pass(&format!("furiten: {why}; a win only by self-draw"));
            }
            return ClaimDecision {
                action: ClaimAction::Win,
                tiles: vec![tile],
                reason: v.describe(),
                win_items: v.items,
            };
        }
    }
    if ctx.riichi_declared {
        return pass("riichi declared");
    }
    if Some(k) == wild {
        return pass("wildcards are never claimed");
    }
    let plan = choose_plan(ctx);
    if plan == Plan::RiichiClosed {
        return pass("closed plan");
    }
    if !plan.on_plan(k, wild) {
        return pass("tile is off-plan");
    }
    let chows_ok = plan.allows_chow();
    // (action, kinds from hand)
    let mut options: Vec<(ClaimAction, Vec<u8>)> = Vec::new();
    if conc.get(k) >= 3 {
        options.push((ClaimAction::Kong, vec![k, k, k]));
    }
    if conc.get(k) >= 2 {
        options.push((ClaimAction::Pung, vec![k, k]));
    }
    if from == Discarder::Left && variant.has_chow() && chows_ok && k < 27 {
        let r = k % 9;
        for start in r.saturating_sub(2)..=r.min(6) {
            let base = k - r + start;
            let others: Vec<u8> = (base..base + 3).filter(|&x| x != k).collect();
            if others.iter().all(|&x| conc.get(x) > 0) {
                options.push((ClaimAction::Chow, others));
            }
        }
    }
    if options.is_empty() {
        return pass("no call possible");
    }
    let live = live_counts(variant, &ctx.seen());
    let melds_after = ctx.melds.len() + 1;
    let sets_before = max_sets(&conc.0, chows_ok);
    let now = ukeire_forms(variant, &conc, ctx.melds.len(), &live, Forms::Standard);
    let mut best: Option<(ClaimAction, Vec<u8>, (i8, i64))> = None;
    for (action, used) in options {
        let mut after = conc;
        for &x in &used {
            after.remove(x);
        }
        let score = if action == ClaimAction::Kong {
            let (s, u, _) = ukeire_forms(variant, &after, melds_after, &live, Forms::Standard);
            (s, -(u as i64))
        } else {
            best_after_discard(variant, &after, melds_after, &live)
        };
        let accept = match ctx.strategy {
            Strategy::Classic => {
                let sets_after = max_sets(&after.0, chows_ok);
                sets_after == sets_before
                    || (action == ClaimAction::Kong && sets_after + 1 == sets_before)
            }
            Strategy::Efficient | Strategy::Balanced => {
                if action == ClaimAction::Kong {
                    score.0 <= now.0
                } else {
                    score.0 < now.0
                }
            }
        };
        if !accept {
            continue;
        }
        let better = match &best {
            None => true,
            Some((ba, _, bs)) => {
                (*ba != ClaimAction::Kong
                    && action == ClaimAction::Kong
                    && ctx.strategy == Strategy::Classic)
                    || (score < *bs
                        && !(*ba == ClaimAction::Kong && ctx.strategy == Strategy::Classic))
            }
        };
        if better {
            best = Some((action, used, score));
        }
    }
    match best {
        None => pass("call would break hidden combinations"),
        Some((action, used, _)) => {
            let mut tiles = take_tiles(&ctx.hand, &used);
            tiles.push(tile);
            tiles.sort();
            ClaimDecision {
                action,
                tiles,
                reason: format!("call fits plan {}", plan.name()),
                win_items: Vec::new(),
            }
        }
    }
}

/// Convenience for callers/tests: the meld formed by a claim.
pub fn claim_meld(decision: &ClaimDecision) -> Option<Meld> {
    let kind = match decision.action {
        ClaimAction::Chow => MeldKind::Chow,
        ClaimAction::Pung => MeldKind::Pung,
        ClaimAction::Kong => MeldKind::Kong,
        _ => return None,
    };
    Some(Meld {
        kind,
        tiles: decision.tiles.clone(),
    })
}
