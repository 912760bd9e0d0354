//! The seat's own turn: win, abort, kan, riichi or which tile to give up.

use super::hand::{
    Candidate, attack_key, candidates, is_value_honor, live_wait_count, path_shanten, paths,
};
use super::threats::{NOTICE_TENPAI, THREAT_TENPAI, Threats};
use super::value::{estimate_value, red_count, situation, win_items, win_now};
use super::{TableAction, TableDecision};
use crate::mahjong::scoring;
use crate::mahjong::shanten::live_counts;
use crate::mahjong::table::{Table, Turn};
use crate::mahjong::tiles::{KINDS, MeldKind, Tile, Variant, Wind, is_terminal_or_honor};
use crate::mahjong::{DiscardContext, HandSetup, Strategy};

/// Value (points) from which a one-from-ready hand pushes against a threat.
pub(super) const PUSH_ONE_AWAY_VALUE: f64 = 7700.0;

/// Live accepting tiles a one-from-ready hand needs to push.
pub(super) const PUSH_ONE_AWAY_UKEIRE: u32 = 16;

/// Tiles left in the wall from which pushing one from ready is still worth it.
pub(super) const PUSH_ONE_AWAY_WALL: u8 = 30;

/// A ready hand pushes with at least this many live winning tiles whatever its value…
pub(super) const PUSH_READY_WIDE: u32 = 5;

/// …or with a hand worth at least this.
pub(super) const PUSH_READY_VALUE: f64 = 3900.0;

/// How much worse (expected points) a fold tile may be than the safest one to keep the
/// hand (going around).
pub(super) const MAWASHI_SLACK: f64 = 60.0;

/// Dama instead of riichi when the hand is worth this many han without riichi and the
/// wait has at least [`DAMA_WAIT`] live tiles.
pub(super) const DAMA_HAN: u32 = 5;

pub(super) const DAMA_WAIT: u32 = 4;

/// Terminal and honor kinds from which the bot keeps a nine-terminal hand (it goes for
/// thirteen orphans) instead of declaring the draw.
pub(super) const KEEP_ORPHANS_KINDS: usize = 11;

/// Whether the best attacking discard is worth pushing against the threats.
pub(super) fn worth_pushing(table: &Table, best: &Candidate, threats: &Threats) -> bool {
    let many = threats.count() >= 2;
    // In the game's last hand a leader only risks its place for a sure hand, and the
    // last-placed seat has nothing to keep.
    let (cautious, desperate) = match last_hand_place(table) {
        Some(1) => (true, false),
        Some(4) => (false, true),
        _ => (false, false),
    };
    let careful = many || cautious;
    match best.shanten {
        0 => {
            best.ukeire > 0
                && (desperate
                    || best.ukeire >= PUSH_READY_WIDE + u32::from(careful) * 2
                    || best.value >= PUSH_READY_VALUE * if careful { 2.0 } else { 1.0 })
        }
        1 => {
            !careful
                && table.wall_left() >= PUSH_ONE_AWAY_WALL
                && best.ukeire >= PUSH_ONE_AWAY_UKEIRE
                && (desperate || estimate_value(table, best) >= PUSH_ONE_AWAY_VALUE)
        }
        _ => false,
    }
}

/// The seat's place (1-4) when this is the game's last hand (South 4, or any hand of
/// an extension into the West round); `None` before that. Ties go to the seat nearer
/// the first dealer, as Tenhou ranks them.
fn last_hand_place(table: &Table) -> Option<usize> {
    let south = 28;
    let last = (table.round_wind == south && table.kyoku == 4) || table.round_wind > south;
    if !last {
        return None;
    }
    let me = table.me as usize;
    // The first dealer of the game is East 1's dealer: the seat of this hand's dealer
    // less the hands played in the round.
    let first_dealer = (usize::from(table.dealer) + 4 - usize::from(table.kyoku - 1)) % 4;
    let order = |s: usize| (s + 4 - first_dealer) % 4;
    let ahead = (0..4)
        .filter(|&s| s != me)
        .filter(|&s| {
            table.scores[s] > table.scores[me]
                || (table.scores[s] == table.scores[me] && order(s) < order(me))
        })
        .count();
    Some(ahead + 1)
}

pub(super) fn own_turn(
    table: &Table,
    strategy: Strategy,
    drawn: Option<Tile>,
    rinshan: bool,
) -> TableDecision {
    let shanten_now = table.shanten();
    if let Some(d) = drawn
        && let Some(score) = win_now(table, d, true, rinshan, false)
    {
        let mut dec = TableDecision::new(
            TableAction::Hora {
                target: table.me,
                tile: d,
            },
            format!("self-drawn win worth {}", score.total),
            -1,
        );
        dec.win_points = Some(score.total);
        dec.win_items = win_items(&score);
        return dec;
    }
    if table.my_seat().riichi_accepted {
        // After riichi the drawn tile goes, the very copy that was drawn.
        let tile = drawn.unwrap_or_else(|| *table.hand.last().unwrap_or(&Tile::new(0)));
        return TableDecision::new(
            TableAction::Discard {
                tile,
                tsumogiri: true,
            },
            "riichi: the drawn tile",
            shanten_now,
        );
    }
    if table.may_abort_nine_terminals() {
        let c = table.concealed();
        let kinds = (0..KINDS as u8)
            .filter(|&k| is_terminal_or_honor(k) && c.get(k) > 0)
            .count();
        if kinds < KEEP_ORPHANS_KINDS {
            return TableDecision::new(
                TableAction::NineTerminals,
                format!("{kinds} kinds of terminals and honors on the first draw"),
                shanten_now,
            );
        }
    }
    let threats = Threats::read(table);
    let declared = table.riichi_declared_now();
    let mut cands = candidates(table, &threats, declared);
    if cands.is_empty() {
        // Only reachable when every tile is forbidden, which a legal call never leaves.
        cands = candidates(table, &threats, false);
    }
    let chosen = match strategy {
        Strategy::Balanced => choose_balanced(table, &threats, &cands),
        Strategy::Classic | Strategy::Efficient => choose_legacy(table, strategy, &cands),
    };
    let Some((pick, why)) = chosen else {
        let tile = *table.hand.last().unwrap_or(&Tile::new(0));
        return TableDecision::new(
            TableAction::Discard {
                tile,
                tsumogiri: drawn == Some(tile),
            },
            "no candidate",
            shanten_now,
        );
    };
    // A kan needs a turn that began with a draw.
    if !declared
        && drawn.is_some()
        && let Some(kan) = kan_option(table, strategy, &threats, &pick)
    {
        return kan;
    }
    let live = live_counts(Variant::Riichi, &table.seen());
    if !declared
        && pick.shanten == 0
        && table.may_riichi()
        && wants_riichi(table, strategy, &pick, &live)
    {
        let mut d = TableDecision::new(
            TableAction::Riichi,
            format!("riichi, then {} ({why})", pick.tile.mjai_name()),
            0,
        );
        d.riichi_discard = Some(pick.tile);
        return d;
    }
    TableDecision::new(
        TableAction::Discard {
            tile: pick.tile,
            tsumogiri: drawn == Some(pick.tile),
        },
        why,
        pick.shanten,
    )
}

pub(super) fn choose_balanced(
    table: &Table,
    threats: &Threats,
    cands: &[Candidate],
) -> Option<(Candidate, String)> {
    let best = cands.iter().min_by_key(|c| attack_key(c))?.clone();
    if threats.max_tenpai() < THREAT_TENPAI {
        let mut pool: Vec<&Candidate> = cands.iter().collect();
        if threats.max_tenpai() >= NOTICE_TENPAI {
            // Among discards as fast as the best, give up the safer one.
            pool.retain(|c| c.shanten == best.shanten && c.ukeire * 10 >= best.ukeire * 9);
            let pick = pool.into_iter().min_by(|a, b| {
                a.risk
                    .total_cmp(&b.risk)
                    .then(attack_key(a).cmp(&attack_key(b)))
            })?;
            return Some((pick.clone(), "attack, the safer of equal tiles".into()));
        }
        return Some((best, "attack: fastest and most valuable".into()));
    }
    if worth_pushing(table, &best, threats) {
        // Push, but not with a much riskier tile than an almost-as-good one.
        let pool = cands
            .iter()
            .filter(|c| c.shanten == best.shanten && c.ukeire * 4 >= best.ukeire * 3);
        let pick = pool.min_by(|a, b| {
            let ea = a.risk - a.value * 0.01 * f64::from(a.ukeire);
            let eb = b.risk - b.value * 0.01 * f64::from(b.ukeire);
            ea.total_cmp(&eb)
        })?;
        return Some((
            pick.clone(),
            format!("push ({} from ready) against a threat", best.shanten),
        ));
    }
    let safest = cands.iter().map(|c| c.risk).fold(f64::INFINITY, f64::min);
    let pick = cands
        .iter()
        .filter(|c| c.risk <= safest + MAWASHI_SLACK)
        .min_by_key(|c| attack_key(c))?;
    let how = if pick.risk <= safest {
        "fold: the safest tile"
    } else {
        "fold, going around"
    };
    Some((pick.clone(), how.into()))
}

/// The seed's bot or the efficiency ranking, on the same candidates (so kuikae and the
/// riichi discard stay legal).
pub(super) fn choose_legacy(
    table: &Table,
    strategy: Strategy,
    cands: &[Candidate],
) -> Option<(Candidate, String)> {
    let ctx = DiscardContext::trusted(legacy_setup(table, strategy));
    let d = crate::mahjong::decide_discard(&ctx);
    let want = d.tile;
    let pick = cands
        .iter()
        .find(|c| c.tile == want)
        .or_else(|| cands.iter().find(|c| c.tile.index == want.index))
        .or_else(|| cands.iter().min_by_key(|c| attack_key(c)))?;
    Some((pick.clone(), d.reason))
}

/// The stateless engine's setup for the seat's hand.
pub(super) fn legacy_setup(table: &Table, strategy: Strategy) -> HandSetup {
    let mut ctx = HandSetup::new(Variant::Riichi, table.hand.clone());
    ctx.melds = table.my_seat().melds.clone();
    if let Turn::Act { drawn, .. } = table.turn {
        ctx.drawn = drawn;
    }
    let mut visible = table.seen();
    for t in &table.hand {
        visible.remove(t.index);
    }
    for m in &ctx.melds {
        for t in &m.tiles {
            visible.remove(t.index);
        }
    }
    ctx.visible = visible
        .kinds()
        .flat_map(|(k, n)| std::iter::repeat_n(Tile::new(k), n as usize))
        .collect();
    ctx.seat_wind = Wind::of_kind(table.seat_wind(table.me)).unwrap_or(Wind::East);
    ctx.round_wind = Wind::of_kind(table.round_wind).unwrap_or(Wind::East);
    ctx.dora_indicators = table.dora_indicators.clone();
    ctx.riichi_declared = table.my_seat().riichi_accepted;
    ctx.strategy = strategy;
    ctx
}

pub(super) fn wants_riichi(
    table: &Table,
    strategy: Strategy,
    pick: &Candidate,
    live: &[u8; KINDS],
) -> bool {
    let live_waits = live_wait_count(pick.waits, live);
    if strategy != Strategy::Balanced {
        return live_waits > 0;
    }
    if live_waits == 0 {
        return false;
    }
    // Dama with a hand already worth a mangan and a wide wait: riichi would only warn.
    let mut after = table.concealed();
    after.remove(pick.tile.index);
    let reds = red_count(table) - u32::from(pick.tile.red);
    let mut sit = situation(table, false, false, false);
    sit.riichi = false;
    let dama_han = (0..KINDS as u8)
        .filter(|&k| pick.waits & (1 << k) != 0)
        .filter_map(|k| {
            let mut c = after;
            c.add(k);
            scoring::score_hand(&c, reds, &table.my_seat().melds, k, &sit).map(|s| s.han)
        })
        .min();
    !matches!(dama_han, Some(h) if h >= DAMA_HAN && live_waits >= DAMA_WAIT)
}

/// A concealed or added kan worth declaring now, if any.
pub(super) fn kan_option(
    table: &Table,
    strategy: Strategy,
    threats: &Threats,
    pick: &Candidate,
) -> Option<TableDecision> {
    if table.in_riichi() || table.wall_left() == 0 || threats.max_tenpai() >= THREAT_TENPAI {
        return None;
    }
    let conc = table.concealed();
    let melds = &table.my_seat().melds;
    let p = paths(table, melds, &conc);
    let kan_count = table
        .seats
        .iter()
        .map(|s| s.melds.iter().filter(|m| m.tiles.len() == 4).count())
        .sum::<usize>();
    if kan_count >= 4 {
        return None;
    }
    for k in 0..KINDS as u8 {
        if conc.get(k) == 4 {
            let mut after = conc;
            for _ in 0..4 {
                after.remove(k);
            }
            let mut p2 = p;
            if is_value_honor(table, k) {
                p2.yakuhai = true;
            }
            if path_shanten(&p2, &after, melds.len() + 1) <= pick.shanten
                && strategy != Strategy::Classic
                || strategy == Strategy::Classic
            {
                let tiles: Vec<Tile> = table
                    .hand
                    .iter()
                    .filter(|t| t.index == k)
                    .copied()
                    .collect();
                let consumed = [tiles[0], tiles[1], tiles[2], tiles[3]];
                return Some(TableDecision::new(
                    TableAction::Ankan { consumed },
                    "concealed kan keeps the hand",
                    pick.shanten,
                ));
            }
        }
        if let Some(m) = melds
            .iter()
            .find(|m| m.kind == MeldKind::Pung && m.tiles[0].index == k)
            && conc.get(k) >= 1
        {
            let mut after = conc;
            after.remove(k);
            if path_shanten(&p, &after, melds.len()) <= pick.shanten {
                let tile = *table.hand.iter().find(|t| t.index == k)?;
                let consumed = [m.tiles[0], m.tiles[1], m.tiles[2]];
                return Some(TableDecision::new(
                    TableAction::Kakan { tile, consumed },
                    "added kan keeps the hand",
                    pick.shanten,
                ));
            }
        }
    }
    None
}
