//! Hong Kong defence: the stateless engine's discard, reconsidered against the table.
//!
//! Hong Kong has no furiten, so no tile is absolutely safe: an opponent may win on a tile it
//! discarded itself. Its discards still say what it is not collecting, and readiness reads
//! (melds, late turns, flush signs) and wait-shape reasoning (kabe, honors with all copies
//! seen) still hold, so the Riichi danger model ([`danger`]) is read with its furiten switch
//! off ([`danger::TableView::furiten`]).
//!
//! [`defend`] takes the engine's own decision and, when an opponent looks ready:
//! * a hand two or more from ready folds: it gives up the least dangerous tile;
//! * a hand one from ready (or ready) keeps the engine's shanten and, among the discards
//!   that keep nearly all of the best ukeire, picks the least dangerous.
//!
//! Without a threat, and for a win or a kong, the engine's decision stands. Locked
//! candidates (protected pairs) are never given up.
//!
//! Red Dragon needs no defence: it wins by self-draw only, so no discard can deal in.

use super::danger::{self, RiverTile, TableView};
use super::stateless::TableFields;
use super::tiles::{KINDS, Meld, TileCounts, Variant};
use super::{Action, Candidate, DiscardContext, DiscardDecision};

/// An opponent this likely to be ready is a threat. The danger model reaches it with three
/// melds by mid-hand, two melds late, or a long closed hand with tells: the point where
/// dealing in becomes a real share of the hand's outcomes (the Riichi bot uses the same).
pub const THREAT_TENPAI: f64 = 0.45;

/// From this many tiles from ready, the hand folds under a threat: it rarely finishes before
/// a ready opponent does, so its tiles are worth more as safe discards.
pub const FOLD_SHANTEN: i8 = 2;

/// Closer to ready, the hand pushes but may trade this share of the best ukeire for safety:
/// a tenth fewer winning tiles costs little, a deal-in costs the hand.
pub const PUSH_UKEIRE_SHARE: f64 = 0.9;

/// Tiles in play at the start of a Hong Kong hand after the deal (136 less 13 × 4 + 1),
/// to estimate the wall when the caller does not say; bonus-tile replacements are ignored.
const HK_WALL_AFTER_DEAL: u8 = 83;

/// The request's river as the danger model reads it.
fn danger_river(fields: &TableFields) -> Vec<RiverTile> {
    fields
        .river
        .iter()
        .map(|r| RiverTile {
            seat: r.seat,
            tile: r.tile,
            tsumogiri: r.tsumogiri,
        })
        .collect()
}

/// The decision to make: the engine's `decision`, or a safer discard when an opponent
/// threatens (see the module doc). Only Hong Kong discards are reconsidered.
pub fn defend(
    ctx: &DiscardContext,
    fields: &TableFields,
    decision: DiscardDecision,
) -> DiscardDecision {
    if ctx.variant != Variant::HongKong || decision.action != Action::Discard {
        return decision;
    }
    let river = danger_river(fields);
    let view = view(ctx, fields, &river);
    let read = danger::table_danger(&view);
    let threat = read
        .opponents
        .iter()
        .flatten()
        .map(|o| o.tenpai)
        .fold(0.0, f64::max);
    if threat < THREAT_TENPAI {
        return decision;
    }
    let pool: Vec<(usize, &Candidate)> = decision
        .candidates
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.locked)
        .collect();
    let Some(best_shanten) = pool.iter().map(|(_, c)| c.shanten).min() else {
        return decision;
    };
    let fold = best_shanten >= FOLD_SHANTEN;
    let eligible: Vec<(usize, &Candidate)> = if fold {
        pool
    } else {
        let same: Vec<(usize, &Candidate)> = pool
            .into_iter()
            .filter(|(_, c)| c.shanten == decision.shanten)
            .collect();
        let best_ukeire = same.iter().map(|(_, c)| c.ukeire).max().unwrap_or(0);
        same.into_iter()
            .filter(|(_, c)| c.ukeire as f64 >= PUSH_UKEIRE_SHARE * best_ukeire as f64)
            .collect()
    };
    // Ties go to the engine's own pick, then to its candidate order.
    let tie = |i: usize, c: &Candidate| {
        if c.tile.index == decision.tile.index {
            0
        } else {
            i + 1
        }
    };
    let Some((_, chosen)) = eligible.into_iter().min_by(|(i, a), (j, b)| {
        let (da, db) = (
            read.combined[a.tile.index as usize],
            read.combined[b.tile.index as usize],
        );
        da.total_cmp(&db).then(tie(*i, a).cmp(&tie(*j, b)))
    }) else {
        return decision;
    };
    if chosen.tile.index == decision.tile.index {
        return decision;
    }
    let chosen = chosen.clone();
    let was = read.combined[decision.tile.index as usize];
    let now = read.combined[chosen.tile.index as usize];
    let reason = format!(
        "defence: {}, instead of {} ({:.1}% to deal in against {:.1}%; an opponent is {:.0}% likely ready)",
        if fold {
            "fold, the safest tile"
        } else {
            "the safest tile that keeps the hand's speed"
        },
        decision.tile,
        100.0 * now,
        100.0 * was,
        100.0 * threat,
    );
    DiscardDecision {
        tile: chosen.tile,
        riichi: false,
        reason,
        shanten: chosen.shanten,
        ukeire: chosen.ukeire,
        ..decision
    }
}

/// The danger model's view of a Hong Kong table: seat 0 is the bot, 1 right, 2 across,
/// 3 left; no dora, no riichi, no furiten.
fn view<'a>(
    ctx: &'a DiscardContext,
    fields: &'a TableFields,
    river: &'a [RiverTile],
) -> TableView<'a> {
    let melds: [&[Meld]; 4] = [
        &ctx.melds,
        &fields.opponent_melds[0],
        &fields.opponent_melds[1],
        &fields.opponent_melds[2],
    ];
    // The caller's `visible` may list the river and the melds or not: count each kind as
    // often as the larger of the two accounts says.
    let mut shown = ctx.concealed();
    for t in melds.iter().flat_map(|m| m.iter()).flat_map(|m| &m.tiles) {
        shown.add(t.index);
    }
    // A called tile stands in a meld, already counted.
    for r in fields.river.iter().filter(|r| !r.called) {
        shown.add(r.tile.index);
    }
    let visible = ctx.seen();
    let mut seen = TileCounts::default();
    for k in 0..KINDS as u8 {
        for _ in 0..shown.get(k).max(visible.get(k)).min(4) {
            seen.add(k);
        }
    }
    TableView {
        me: 0,
        river,
        riichi: [None; 4],
        melds,
        seen,
        dora: Vec::new(),
        // The seat to the right plays next and so holds the next wind.
        seat_winds: [0u8, 1, 2, 3].map(|s| ctx.seat_wind.after(s).kind()),
        round_wind: ctx.round_wind.kind(),
        tiles_left: fields
            .wall
            .unwrap_or_else(|| HK_WALL_AFTER_DEAL.saturating_sub(river.len() as u8)),
        furiten: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::stateless::RiverEntry;
    use crate::mahjong::tiles::{MeldKind, Tile, parse_tiles};
    use crate::mahjong::{HandSetup, Strategy, decide_discard};

    fn setup(hand: &str) -> HandSetup {
        let mut c = HandSetup::new(Variant::HongKong, parse_tiles(hand).unwrap());
        c.min_fan = 0;
        c.strategy = Strategy::Efficient;
        c
    }

    fn ctx(hand: &str) -> DiscardContext {
        DiscardContext::for_turn(setup(hand)).unwrap()
    }

    fn river(steps: &[(u8, &str)]) -> Vec<RiverEntry> {
        steps
            .iter()
            .flat_map(|&(seat, tiles)| {
                parse_tiles(tiles)
                    .unwrap()
                    .into_iter()
                    .map(move |tile| RiverEntry {
                        seat,
                        tile,
                        tsumogiri: false,
                        riichi: false,
                        called: false,
                    })
            })
            .collect()
    }

    fn meld(kind: MeldKind, tiles: &str) -> Meld {
        Meld {
            kind,
            tiles: parse_tiles(tiles).unwrap(),
        }
    }

    /// The right-hand seat has three melds and ten discards, 1m and 3s among them.
    fn threat() -> TableFields {
        TableFields {
            river: river(&[(1, "1z3z1m3s9p2m6z8m1p4m")]),
            opponent_melds: [
                vec![
                    meld(MeldKind::Chow, "789m"),
                    meld(MeldKind::Pung, "222p"),
                    meld(MeldKind::Pung, "888p"),
                ],
                Vec::new(),
                Vec::new(),
            ],
            ..TableFields::default()
        }
    }

    fn k(name: &str) -> u8 {
        parse_tiles(name).unwrap()[0].index
    }

    /// Two from ready: 123m 456p, 13s and 57s partial, 9s 2z 4z 7z loose.
    const FAR: &str = "123m456p1357s9s247z";

    #[test]
    fn a_far_hand_folds_to_a_tile_the_threat_discarded() {
        let c = ctx(FAR);
        let d = decide_discard(&c);
        assert_eq!(d.action, Action::Discard);
        assert_eq!(d.shanten, 2, "{d:?}");
        let fields = threat();
        let out = defend(&c, &fields, d.clone());
        // 1m: discarded by the threat, and its suji 4m too
        assert_eq!(out.tile.index, k("1m"), "{out:?}");
        assert_ne!(d.tile.index, k("1m"), "the engine alone keeps the set");
        assert!(out.reason.starts_with("defence: fold"), "{}", out.reason);
        assert!(!out.riichi);
        let cand = d
            .candidates
            .iter()
            .find(|c| c.tile.index == k("1m"))
            .unwrap();
        assert_eq!((out.shanten, out.ukeire), (cand.shanten, cand.ukeire));
        // a live middle tile of the hand is more dangerous than the passed tiles
        let rv = danger_river(&fields);
        let t = danger::table_danger(&view(&c, &fields, &rv));
        for passed in ["1m", "3s"] {
            let p = t.combined[k(passed) as usize];
            assert!(p < t.combined[k("5s") as usize], "{passed}");
            assert!(p > 0.0, "no furiten: {passed} is not safe");
        }
    }

    #[test]
    fn a_locked_tile_is_never_given_up() {
        let c = ctx(FAR);
        let mut d = decide_discard(&c);
        for cand in &mut d.candidates {
            cand.locked = cand.tile.index == k("1m");
        }
        let out = defend(&c, &threat(), d);
        assert_ne!(out.tile.index, k("1m"));
        assert!(out.reason.starts_with("defence"), "{}", out.reason);
    }

    #[test]
    fn without_a_threat_the_decision_stands() {
        let c = ctx(FAR);
        let d = decide_discard(&c);
        let quiet = TableFields {
            river: river(&[(1, "1z3z1m3s"), (2, "9p2m"), (3, "6z")]),
            ..TableFields::default()
        };
        assert_eq!(defend(&c, &quiet, d.clone()), d);
        assert_eq!(defend(&c, &TableFields::default(), d.clone()), d);
    }

    #[test]
    fn a_win_is_never_changed() {
        let mut s = setup("123m456p789s1155z5z");
        s.drawn = Some(Tile::new(k("5z")));
        let c = DiscardContext::for_turn(s).unwrap();
        let d = decide_discard(&c);
        assert_eq!(d.action, Action::Win, "{d:?}");
        assert_eq!(defend(&c, &threat(), d.clone()), d);
    }

    #[test]
    fn a_near_hand_keeps_its_shanten() {
        // one from ready: 123m 456p 789p, 13s 57s, 7z loose
        let c = ctx("123m456p789p1357s7z");
        let d = decide_discard(&c);
        let out = defend(&c, &threat(), d.clone());
        assert_eq!(out.shanten, d.shanten);
        let best = d
            .candidates
            .iter()
            .filter(|x| x.shanten == d.shanten)
            .map(|x| x.ukeire)
            .max()
            .unwrap();
        assert!(out.ukeire as f64 >= PUSH_UKEIRE_SHARE * best as f64);
    }

    #[test]
    fn other_variants_are_left_alone() {
        let mut s = setup(FAR);
        s.variant = Variant::Riichi;
        let c = DiscardContext::for_turn(s).unwrap();
        let d = decide_discard(&c);
        assert_eq!(defend(&c, &threat(), d.clone()), d);
    }
}
