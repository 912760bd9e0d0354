//! Efficiency strategy: minimise the plan's shanten (standard form, or all-pungs form
//! under that plan), then maximise live accepting tiles; off-plan tiles go first.
//! Exact ties: a one-step lookahead (live draws × best ukeire after them) when one to
//! three tiles from ready, then dead tiles, isolated honors/terminals before middle tiles.

use super::shanten::{BlockInfo, Forms, StdTables, group_of, live_counts, ukeire_forms};
use super::tiles::Variant;
use super::tiles::{KINDS, edge_rank};
use super::{Candidate, Category, HandSetup};

fn order_key(c: &Candidate) -> (bool, bool, u8, std::cmp::Reverse<u32>, u8) {
    (
        c.category != Category::Dead,
        !matches!(
            c.category,
            Category::IsolatedHonor | Category::IsolatedNumber
        ),
        edge_rank(c.tile.index),
        std::cmp::Reverse(c.ukeire),
        c.tile.index,
    )
}

/// Sum over accepting draws of live copies × the best standard ukeire after the draw.
fn lookahead(ctx: &HandSetup, kind: u8) -> u64 {
    let variant: Variant = ctx.variant;
    let melds = ctx.melds.len();
    let live = live_counts(variant, &ctx.seen());
    let mut after = ctx.concealed();
    after.remove(kind);
    let (s0, _, mask) = ukeire_forms(variant, &after, melds, &live, Forms::Standard);
    let mut total = 0u64;
    for t in variant.kinds() {
        if mask & (1 << t) == 0 {
            continue;
        }
        let mut drawn = after;
        drawn.add(t);
        let mut live2 = live;
        live2[t as usize] -= 1;
        let tables = StdTables::new(variant, &drawn, melds);
        // groups a discard leaves alone answer draws the same way for every discard
        let mut plus_cache: [Option<BlockInfo>; KINDS] = [None; KINDS];
        let mut best = 0u32;
        for (d, _) in drawn.kinds() {
            if Some(d) == variant.wildcard() || d == t {
                continue;
            }
            let mut h = drawn;
            h.remove(d);
            let h_tables = tables.without(d);
            if h_tables.shanten() >= s0 {
                continue;
            }
            let gd = group_of(d);
            let (_, uk, _) = h_tables.ukeire(variant, &h, &live2, |x| {
                if group_of(x) == gd {
                    h_tables.group_plus(x)
                } else {
                    *plus_cache[x as usize].get_or_insert_with(|| tables.group_plus(x))
                }
            });
            best = best.max(uk);
        }
        total += u64::from(live[t as usize]) * u64::from(best);
    }
    total
}

/// Picks the discard among unlocked candidates.
pub fn pick<'a>(ctx: &HandSetup, cands: &'a [Candidate]) -> Option<&'a Candidate> {
    let pool: Vec<&Candidate> = cands.iter().filter(|c| !c.locked).collect();
    let off: Vec<&Candidate> = pool.iter().copied().filter(|c| c.off_plan).collect();
    let pool = if off.is_empty() { pool } else { off };
    let primary = |c: &Candidate| {
        (
            c.plan_shanten,
            c.std_shanten,
            std::cmp::Reverse(c.std_ukeire),
        )
    };
    let best = pool.iter().map(|c| primary(c)).min()?;
    let mut tied: Vec<&Candidate> = pool.into_iter().filter(|c| primary(c) == best).collect();
    tied.sort_by_key(|c| order_key(c));
    if tied.len() > 1
        && (1..=3).contains(&best.1)
        && !tied.iter().any(|c| c.category == Category::Dead)
    {
        tied.truncate(4);
        let scores: Vec<u64> = tied.iter().map(|c| lookahead(ctx, c.tile.index)).collect();
        let top = *scores.iter().max()?;
        let i = scores.iter().position(|&s| s == top)?;
        return Some(tied[i]);
    }
    tied.first().copied()
}
