//! The bot at a Riichi table: one decision for a replayed [`Table`].
//!
//! Every answer is legal for the table: a win only with a yaku and out of furiten, no
//! kuikae discard, the drawn tile (the very copy, red or not) after riichi, a riichi
//! discard that keeps the hand ready, riichi only with 1,000 points and four tiles left.
//!
//! The `balanced` strategy plays the table rather than the hand:
//! * **Threats.** Each opponent's chance to be ready and the expected cost of dealing
//!   in come from [`super::danger`]; the risk of a discard is the sum over opponents
//!   of readiness × deal-in chance × hand value.
//! * **Push, fold or go around.** With no threat the bot plays for speed and value
//!   (fewest tiles from ready, then most live accepting tiles, keeping dora). Facing a
//!   threat it pushes a ready hand with a live wait (a cheap one only while the wait is
//!   wide), a one-from-ready hand only when it is worth a mangan and early; otherwise it
//!   folds, giving up the tile of least risk, and among nearly-as-safe tiles the one
//!   that keeps the hand best (mawashi).
//! * **Riichi or dama.** Riichi on a ready closed hand with a live wait, except a hand
//!   already worth a mangan without it on a wide wait (dama wins more often).
//! * **Calls.** Only into a hand with a yaku path: a pon of a value honor, or tanyao,
//!   a flush or all pungs kept by the melds; and only when the call brings the hand
//!   nearer to ready. No calls while folding, no open kan.
//!
//! `classic` and `efficient` keep their own discard and call choices (the seed's bot
//! and the efficiency ranking) and get the same legality guard.

use super::danger;
use super::scoring::{self, Situation};
use super::shanten::{self, live_counts, ukeire};
use super::table::{Table, Turn};
use super::tiles::{
    KINDS, Meld, MeldKind, Tile, TileCounts, Variant, is_dragon, is_honor, is_terminal_or_honor,
    suit_of,
};
use super::{Action, ClaimAction, DiscardContext, Strategy};

/// A readiness chance from which an opponent counts as a threat.
const THREAT_TENPAI: f64 = 0.45;
/// Below this chance, an opponent's danger only breaks ties between equal discards.
const NOTICE_TENPAI: f64 = 0.15;
/// Value (points) from which a one-from-ready hand pushes against a threat.
const PUSH_ONE_AWAY_VALUE: f64 = 7700.0;
/// Live accepting tiles a one-from-ready hand needs to push.
const PUSH_ONE_AWAY_UKEIRE: u32 = 16;
/// Tiles left in the wall from which pushing one from ready is still worth it.
const PUSH_ONE_AWAY_WALL: u8 = 30;
/// A ready hand pushes with at least this many live winning tiles whatever its value…
const PUSH_READY_WIDE: u32 = 5;
/// …or with a hand worth at least this.
const PUSH_READY_VALUE: f64 = 3900.0;
/// How much worse (expected points) a fold tile may be than the safest one to keep the
/// hand (going around).
const MAWASHI_SLACK: f64 = 60.0;
/// Dama instead of riichi when the hand is worth this many han without riichi and the
/// wait has at least [`DAMA_WAIT`] live tiles.
const DAMA_HAN: u32 = 5;
const DAMA_WAIT: u32 = 4;
/// Terminal and honor kinds from which the bot keeps a nine-terminal hand (it goes for
/// thirteen orphans) instead of declaring the draw.
const KEEP_ORPHANS_KINDS: usize = 11;
/// Equal-speed discards: a dora (or red five) kept counts as this many accepting tiles.
const DORA_UKEIRE: f64 = 3.0;

/// One answer to the table, in the protocol's vocabulary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableAction {
    /// Nothing to do, or decline a call.
    Pass,
    Discard {
        tile: Tile,
        tsumogiri: bool,
    },
    /// Declare riichi; the discard is the next decision.
    Riichi,
    Chi {
        target: u8,
        tile: Tile,
        consumed: [Tile; 2],
    },
    Pon {
        target: u8,
        tile: Tile,
        consumed: [Tile; 2],
    },
    Ankan {
        consumed: [Tile; 4],
    },
    Kakan {
        tile: Tile,
        consumed: [Tile; 3],
    },
    /// Win: by self-draw when `target` is the seat itself.
    Hora {
        target: u8,
        tile: Tile,
    },
    /// Nine different terminals and honors on the first draw: abort the hand.
    NineTerminals,
}

/// A decision and why.
#[derive(Debug, Clone, PartialEq)]
pub struct TableDecision {
    pub action: TableAction,
    /// With `Riichi`: the discard that will follow the declaration.
    pub riichi_discard: Option<Tile>,
    pub reason: String,
    /// Shanten of the hand after the action (−1 for a win).
    pub shanten: i8,
    pub strategy: &'static str,
    /// Points the win scores, when the action is a win.
    pub win_points: Option<u32>,
}

impl TableDecision {
    fn new(action: TableAction, reason: impl Into<String>, shanten: i8) -> Self {
        Self {
            action,
            riichi_discard: None,
            reason: reason.into(),
            shanten,
            strategy: "",
            win_points: None,
        }
    }
}

/// The name of a strategy as the protocol reports it.
pub fn strategy_name(s: Strategy) -> &'static str {
    match s {
        Strategy::Classic => "classic",
        Strategy::Efficient => "efficient",
        Strategy::Balanced => "balanced",
    }
}

/// The bot's answer to the table as it stands.
pub fn decide(table: &Table, strategy: Strategy) -> TableDecision {
    let mut d = match table.turn {
        Turn::Act {
            seat,
            drawn,
            rinshan,
            ..
        } if seat == table.me => own_turn(table, strategy, drawn, rinshan),
        Turn::Discarded { seat } if seat != table.me => match table.river.last() {
            Some(r) => respond(table, strategy, seat, r.tile, false),
            None => TableDecision::new(TableAction::Pass, "nothing to answer", table.shanten()),
        },
        Turn::Added { seat, tile } if seat != table.me => {
            respond(table, strategy, seat, tile, true)
        }
        _ => TableDecision::new(
            TableAction::Pass,
            "not the seat's decision",
            table.shanten(),
        ),
    };
    d.strategy = strategy_name(strategy);
    d
}

// ---------------------------------------------------------------------------------------
// Winning

/// Red fives in the seat's hand and melds.
fn red_count(table: &Table) -> u32 {
    let melded = table.my_seat().melds.iter().flat_map(|m| m.tiles.iter());
    table.hand.iter().chain(melded).filter(|t| t.red).count() as u32
}

/// The situation of a win on `tile` now.
fn situation(table: &Table, self_drawn: bool, rinshan: bool, chankan: bool) -> Situation {
    let me = table.my_seat();
    let last_tile = table.wall_left() == 0;
    let first = me.first_turn && !table.any_call;
    Situation {
        self_drawn,
        riichi: me.riichi_accepted || me.riichi.is_some(),
        double_riichi: me.double_riichi,
        ippatsu: me.ippatsu,
        rinshan: self_drawn && rinshan,
        chankan,
        haitei: self_drawn && last_tile && !rinshan,
        houtei: !self_drawn && last_tile && !chankan,
        tenhou: self_drawn && first && table.me == table.dealer,
        chiihou: self_drawn && first && table.me != table.dealer,
        seat_wind: table.seat_wind(table.me),
        round_wind: table.round_wind,
        dora_indicators: table.dora_indicators.iter().map(|t| t.index).collect(),
        ura_indicators: Vec::new(),
        honba: table.honba,
        kyotaku: table.kyotaku,
    }
}

/// The score of winning now on `tile`, if the win is legal (a yaku, not furiten).
fn win_now(
    table: &Table,
    tile: Tile,
    self_drawn: bool,
    rinshan: bool,
    chankan: bool,
) -> Option<u32> {
    let mut conc = table.concealed();
    if !self_drawn {
        if table.furiten() {
            return None;
        }
        conc.add(tile.index);
    }
    let reds = red_count(table) + u32::from(!self_drawn && tile.red);
    let sit = situation(table, self_drawn, rinshan, chankan);
    scoring::score_hand(&conc, reds, &table.my_seat().melds, tile.index, &sit).map(|s| s.total)
}

// ---------------------------------------------------------------------------------------
// Hand evaluation

/// The yaku paths an open hand keeps; a closed hand always has riichi.
#[derive(Debug, Clone, Copy, Default)]
struct Paths {
    closed: bool,
    yakuhai: bool,
    tanyao: bool,
    flush: Option<u8>,
    pungs: bool,
}

fn is_value_honor(table: &Table, k: u8) -> bool {
    is_dragon(k) || k == table.round_wind || k == table.seat_wind(table.me)
}

fn paths(table: &Table, melds: &[Meld], conc: &TileCounts) -> Paths {
    let closed = melds.iter().all(|m| !m.kind.is_open());
    let meld_kinds = || melds.iter().flat_map(|m| m.tiles.iter().map(|t| t.index));
    let yakuhai = melds
        .iter()
        .any(|m| m.kind != MeldKind::Chow && is_value_honor(table, m.tiles[0].index))
        || (27..34u8).any(|k| is_value_honor(table, k) && conc.get(k) >= 3);
    let tanyao = meld_kinds().all(|k| !is_terminal_or_honor(k));
    let mut suits = meld_kinds().filter(|&k| !is_honor(k)).map(suit_of);
    let flush = match suits.next() {
        Some(s) => suits.all(|x| x == s).then_some(s),
        None => (0..3u8).max_by_key(|&s| (0..9u8).map(|r| conc.get(s * 9 + r) as u32).sum::<u32>()),
    };
    let pungs = melds.iter().all(|m| m.kind != MeldKind::Chow);
    Paths {
        closed,
        yakuhai,
        tanyao,
        flush,
        pungs,
    }
}

/// Shanten of a 13 − 3n (or 14 − 3n) tile hand toward a win with a yaku.
fn path_shanten(p: &Paths, conc: &TileCounts, melds: usize) -> i8 {
    if p.closed {
        return shanten::shanten(Variant::Riichi, conc, melds);
    }
    let mreq = (4 - melds.min(4)) as u8;
    let mut best = i8::MAX;
    if p.yakuhai {
        best = best.min(shanten::standard_shanten_raw(&conc.0, mreq));
    }
    if p.tanyao {
        let mut c = conc.0;
        for (k, n) in c.iter_mut().enumerate() {
            if is_terminal_or_honor(k as u8) {
                *n = 0;
            }
        }
        best = best.min(shanten::standard_shanten_raw(&c, mreq));
    }
    if let Some(s) = p.flush {
        let mut c = conc.0;
        for (k, n) in c.iter_mut().enumerate() {
            if !is_honor(k as u8) && suit_of(k as u8) != s {
                *n = 0;
            }
        }
        best = best.min(shanten::standard_shanten_raw(&c, mreq));
    }
    if p.pungs {
        best = best.min(shanten::pungs_raw(&conc.0, mreq));
    }
    if best == i8::MAX { 8 } else { best }
}

/// (shanten, live accepting tiles, accepting kinds) of a hand waiting for a draw.
fn path_ukeire(p: &Paths, conc: &TileCounts, melds: usize, live: &[u8; KINDS]) -> (i8, u32, u64) {
    if p.closed {
        return ukeire(Variant::Riichi, conc, melds, live);
    }
    let s = path_shanten(p, conc, melds);
    let mut total = 0;
    let mut mask = 0u64;
    for k in 0..KINDS as u8 {
        if live[k as usize] == 0 {
            continue;
        }
        let mut c = *conc;
        c.add(k);
        if path_shanten(p, &c, melds) < s {
            total += u32::from(live[k as usize]);
            mask |= 1 << k;
        }
    }
    (s, total, mask)
}

fn dora_kinds(table: &Table) -> Vec<u8> {
    table
        .dora_indicators
        .iter()
        .map(|t| scoring::dora_of(t.index))
        .collect()
}

/// One discard the seat could make.
#[derive(Debug, Clone)]
struct Candidate {
    tile: Tile,
    shanten: i8,
    ukeire: u32,
    waits: u64,
    /// Dora and red fives left in hand and melds after the discard.
    dora: u32,
    /// Expected points lost to a deal-in with this tile now.
    risk: f64,
    /// Average points of the ready hand over its live waits (0 when not ready).
    value: f64,
}

/// The threat each opponent poses, from the danger model.
struct Threats {
    /// Per opponent seat: readiness chance, expected hand value, deal-in chance per kind.
    seats: Vec<(u8, f64, f64, [f64; KINDS])>,
}

impl Threats {
    fn read(table: &Table) -> Self {
        let river: Vec<danger::RiverTile> = table
            .river
            .iter()
            .map(|r| danger::RiverTile {
                seat: r.seat,
                tile: r.tile,
                tsumogiri: r.tsumogiri,
            })
            .collect();
        let melds = [
            table.seats[0].melds.as_slice(),
            table.seats[1].melds.as_slice(),
            table.seats[2].melds.as_slice(),
            table.seats[3].melds.as_slice(),
        ];
        let view = danger::TableView {
            me: table.me,
            river: &river,
            riichi: [0, 1, 2, 3].map(|s| table.seats[s].riichi),
            melds,
            seen: table.seen(),
            dora: dora_kinds(table),
            seat_winds: [0, 1, 2, 3].map(|s| table.seat_wind(s)),
            round_wind: table.round_wind,
            tiles_left: table.wall_left(),
        };
        let seats = (0..4u8)
            .filter(|&s| s != table.me)
            .map(|s| {
                let tp = danger::tenpai_probability(&view, s);
                let value = danger::expected_hand_value(&view, s);
                (s, tp, value, danger::danger_table(&view, s))
            })
            .collect();
        Self { seats }
    }

    fn max_tenpai(&self) -> f64 {
        self.seats.iter().map(|s| s.1).fold(0.0, f64::max)
    }

    fn count(&self) -> usize {
        self.seats.iter().filter(|s| s.1 >= THREAT_TENPAI).count()
    }

    /// Expected points lost by discarding `kind` now.
    fn risk(&self, kind: u8) -> f64 {
        self.seats
            .iter()
            .map(|(_, tp, value, table)| tp * table[kind as usize] * value)
            .sum()
    }
}

fn dora_in(table: &Table, conc: &TileCounts, reds: u32) -> u32 {
    let melded: u32 = table
        .my_seat()
        .melds
        .iter()
        .flat_map(|m| m.tiles.iter())
        .map(|t| dora_kinds(table).iter().filter(|&&d| d == t.index).count() as u32)
        .sum();
    let held: u32 = dora_kinds(table)
        .iter()
        .map(|&d| u32::from(conc.get(d)))
        .sum();
    melded + held + reds
}

/// Average points of a ready hand over its live waits, by ron, with riichi when closed.
fn ready_value(table: &Table, conc: &TileCounts, reds: u32, waits: u64, live: &[u8; KINDS]) -> f64 {
    let melds = &table.my_seat().melds;
    let mut sit = situation(table, false, false, false);
    sit.riichi = melds.iter().all(|m| !m.kind.is_open());
    let (mut sum, mut n) = (0.0, 0.0);
    for k in 0..KINDS as u8 {
        if waits & (1 << k) == 0 || live[k as usize] == 0 {
            continue;
        }
        let mut c = *conc;
        c.add(k);
        let points = scoring::score_hand(&c, reds, melds, k, &sit).map_or(0, |s| s.total);
        sum += f64::from(points) * f64::from(live[k as usize]);
        n += f64::from(live[k as usize]);
    }
    if n > 0.0 { sum / n } else { 0.0 }
}

/// Every distinct discard (a red five apart from the plain ones) with its numbers.
fn candidates(table: &Table, threats: &Threats, only_ready: bool) -> Vec<Candidate> {
    let conc = table.concealed();
    let melds = &table.my_seat().melds;
    let p = paths(table, melds, &conc);
    let live = live_counts(Variant::Riichi, &table.seen());
    let reds = red_count(table);
    let mut out: Vec<Candidate> = Vec::new();
    for &tile in &table.hand {
        if out.iter().any(|c| c.tile == tile) || table.kuikae.contains(&tile.index) {
            continue;
        }
        let mut after = conc;
        after.remove(tile.index);
        let (shanten, uk, waits) = path_ukeire(&p, &after, melds.len(), &live);
        if only_ready && shanten != 0 {
            continue;
        }
        let reds_after = reds - u32::from(tile.red);
        let value = if shanten == 0 {
            ready_value(table, &after, reds_after, waits, &live)
        } else {
            0.0
        };
        out.push(Candidate {
            tile,
            shanten,
            ukeire: uk,
            waits,
            dora: dora_in(table, &after, reds_after),
            risk: threats.risk(tile.index),
            value,
        });
    }
    out
}

/// Attack order: fewest steps to ready, then accepting tiles with dora kept as a bonus,
/// then the ready hand's value, then the safer tile, then outside tiles first.
fn attack_key(c: &Candidate) -> (i8, i64, i64, i64, u8) {
    let speed = f64::from(c.ukeire) + DORA_UKEIRE * f64::from(c.dora);
    (
        c.shanten,
        -(speed * 10.0) as i64,
        -(c.value as i64),
        (c.risk * 10.0) as i64,
        edge_rank(c.tile.index),
    )
}

/// Honors first, then terminals, then tiles nearer the middle.
fn edge_rank(k: u8) -> u8 {
    if is_honor(k) {
        0
    } else {
        let r = k % 9;
        1 + r.min(8 - r)
    }
}

fn live_wait_count(waits: u64, live: &[u8; KINDS]) -> u32 {
    (0..KINDS)
        .filter(|&k| waits & (1 << k) != 0)
        .map(|k| u32::from(live[k]))
        .sum()
}

/// Whether the best attacking discard is worth pushing against the threats.
fn worth_pushing(table: &Table, best: &Candidate, threats: &Threats) -> bool {
    let many = threats.count() >= 2;
    match best.shanten {
        0 => {
            best.ukeire > 0
                && (best.ukeire >= PUSH_READY_WIDE + u32::from(many) * 2
                    || best.value >= PUSH_READY_VALUE * if many { 2.0 } else { 1.0 })
        }
        1 => {
            !many
                && table.wall_left() >= PUSH_ONE_AWAY_WALL
                && best.ukeire >= PUSH_ONE_AWAY_UKEIRE
                && estimate_value(table, best) >= PUSH_ONE_AWAY_VALUE
        }
        _ => false,
    }
}

/// Rough value of a hand not yet ready: one han for riichi or a kept yaku, plus dora.
fn estimate_value(table: &Table, c: &Candidate) -> f64 {
    let dealer = table.me == table.dealer;
    let han = 1 + c.dora;
    f64::from(scoring::points(han, 30, dealer, false))
}

fn own_turn(
    table: &Table,
    strategy: Strategy,
    drawn: Option<Tile>,
    rinshan: bool,
) -> TableDecision {
    let shanten_now = table.shanten();
    if let Some(d) = drawn
        && let Some(points) = win_now(table, d, true, rinshan, false)
    {
        let mut dec = TableDecision::new(
            TableAction::Hora {
                target: table.me,
                tile: d,
            },
            format!("self-drawn win worth {points}"),
            -1,
        );
        dec.win_points = Some(points);
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

fn choose_balanced(
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
fn choose_legacy(
    table: &Table,
    strategy: Strategy,
    cands: &[Candidate],
) -> Option<(Candidate, String)> {
    let ctx = legacy_context(table, strategy);
    let d = super::decide_discard(&ctx);
    let want = d.tile;
    let pick = cands
        .iter()
        .find(|c| c.tile == want)
        .or_else(|| cands.iter().find(|c| c.tile.index == want.index))
        .or_else(|| cands.iter().min_by_key(|c| attack_key(c)))?;
    Some((pick.clone(), d.reason))
}

/// The stateless engine's context for the seat's hand.
fn legacy_context(table: &Table, strategy: Strategy) -> DiscardContext {
    let mut ctx = DiscardContext::new(Variant::Riichi, table.hand.clone());
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
    ctx.seat_wind = table.seat_wind(table.me);
    ctx.round_wind = table.round_wind;
    ctx.dora_indicators = table.dora_indicators.clone();
    ctx.riichi_declared = table.my_seat().riichi_accepted;
    ctx.strategy = strategy;
    ctx
}

fn wants_riichi(table: &Table, strategy: Strategy, pick: &Candidate, live: &[u8; KINDS]) -> bool {
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
fn kan_option(
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

// ---------------------------------------------------------------------------------------
// Answering another seat's discard

fn respond(
    table: &Table,
    strategy: Strategy,
    from: u8,
    tile: Tile,
    chankan: bool,
) -> TableDecision {
    let shanten_now = table.shanten();
    let conc = table.concealed();
    if conc.total() % 3 != 1 {
        return TableDecision::new(TableAction::Pass, "not the seat's decision", shanten_now);
    }
    if let Some(points) = win_now(table, tile, false, false, chankan) {
        let mut d = TableDecision::new(
            TableAction::Hora { target: from, tile },
            format!("win on the discard worth {points}"),
            -1,
        );
        d.win_points = Some(points);
        return d;
    }
    let pass = |why: &str| TableDecision::new(TableAction::Pass, why, shanten_now);
    if table.furiten() && table.waits(&conc).contains(&tile.index) {
        return pass("furiten: a win only by self-draw");
    }
    if chankan {
        return pass("no win on the added kan");
    }
    if table.in_riichi() {
        return pass("riichi: no calls");
    }
    if table.wall_left() == 0 {
        return pass("no calls on the last discard");
    }
    match strategy {
        Strategy::Balanced => call_balanced(table, from, tile),
        Strategy::Classic | Strategy::Efficient => call_legacy(table, strategy, from, tile),
    }
}

/// The melds the seat could form with `tile`: (pon?, consumed tiles).
fn call_options(table: &Table, from: u8, tile: Tile) -> Vec<(bool, [Tile; 2])> {
    let k = tile.index;
    let mut out = Vec::new();
    // Pick which copies to give: keep a red five in hand only if it is not needed.
    let copies = |kind: u8| -> Vec<Tile> {
        let mut v: Vec<Tile> = table
            .hand
            .iter()
            .filter(|t| t.index == kind)
            .copied()
            .collect();
        v.sort_by_key(|t| std::cmp::Reverse(t.red));
        v
    };
    let same = copies(k);
    if same.len() >= 2 {
        out.push((true, [same[0], same[1]]));
    }
    if (from + 1) % 4 == table.me && k < 27 {
        let r = k % 9;
        for start in r.saturating_sub(2)..=r.min(6) {
            let base = k - r + start;
            let others: Vec<u8> = (base..base + 3).filter(|&x| x != k).collect();
            let (a, b) = (copies(others[0]), copies(others[1]));
            if !a.is_empty() && !b.is_empty() {
                out.push((false, [a[0], b[0]]));
            }
        }
    }
    out
}

/// The hand after a call: concealed counts, melds, and kinds then forbidden.
fn after_call(
    table: &Table,
    pon: bool,
    tile: Tile,
    consumed: [Tile; 2],
) -> (TileCounts, Vec<Meld>, Vec<u8>) {
    let mut conc = table.concealed();
    for t in consumed {
        conc.remove(t.index);
    }
    let mut melds = table.my_seat().melds.clone();
    melds.push(Meld {
        kind: if pon { MeldKind::Pung } else { MeldKind::Chow },
        tiles: vec![consumed[0], consumed[1], tile],
    });
    let forbidden = if pon {
        vec![tile.index]
    } else {
        super::table::kuikae_kinds(tile.index, [consumed[0].index, consumed[1].index])
    };
    (conc, melds, forbidden)
}

/// Best (shanten, −ukeire) after the call and a legal discard; `None` when every tile
/// left is forbidden (such a call is not allowed).
fn best_after_call(
    table: &Table,
    p: &Paths,
    conc: &TileCounts,
    melds: usize,
    forbidden: &[u8],
    live: &[u8; KINDS],
) -> Option<(i8, i64)> {
    let mut best: Option<(i8, i64)> = None;
    for (k, _) in conc.kinds() {
        if forbidden.contains(&k) {
            continue;
        }
        let mut a = *conc;
        a.remove(k);
        let (s, u, _) = path_ukeire(p, &a, melds, live);
        let key = (s, -i64::from(u));
        if best.is_none_or(|b| key < b) {
            best = Some(key);
        }
    }
    let _ = table;
    best
}

fn call_balanced(table: &Table, from: u8, tile: Tile) -> TableDecision {
    let shanten_now = table.shanten();
    let pass = |why: &str| TableDecision::new(TableAction::Pass, why, shanten_now);
    let threats = Threats::read(table);
    let conc = table.concealed();
    let melds = &table.my_seat().melds;
    let p_now = paths(table, melds, &conc);
    let live = live_counts(Variant::Riichi, &table.seen());
    let now = path_shanten(&p_now, &conc, melds.len());
    if threats.max_tenpai() >= THREAT_TENPAI && now > 0 {
        return pass("a threat: no calls while not ready");
    }
    let mut best: Option<(TableAction, (i8, i64), String)> = None;
    for (pon, consumed) in call_options(table, from, tile) {
        let (c2, m2, forbidden) = after_call(table, pon, tile, consumed);
        let p = paths(table, &m2, &c2);
        if !(p.yakuhai || p.tanyao || p.flush.is_some() || p.pungs) {
            continue;
        }
        let Some(score) = best_after_call(table, &p, &c2, m2.len(), &forbidden, &live) else {
            continue;
        };
        if score.0 >= now || score.0 >= 8 {
            continue;
        }
        let value_pon = pon && is_value_honor(table, tile.index);
        let first_call = p_now.closed;
        // Opening a closed hand gives up riichi: only for a yakuhai or a hand far from ready.
        if first_call && !value_pon && (now < 2 || score.0 > 2) {
            continue;
        }
        let path = if value_pon || p.yakuhai {
            "yakuhai"
        } else if p.tanyao {
            "tanyao"
        } else if p.flush.is_some() {
            "flush"
        } else {
            "all pungs"
        };
        if best.as_ref().is_none_or(|b| score < b.1) {
            let action = if pon {
                TableAction::Pon {
                    target: from,
                    tile,
                    consumed,
                }
            } else {
                TableAction::Chi {
                    target: from,
                    tile,
                    consumed,
                }
            };
            best = Some((
                action,
                score,
                format!("call for {path}: {} from ready", score.0),
            ));
        }
    }
    match best {
        Some((action, score, why)) => TableDecision::new(action, why, score.0),
        None => pass("no call brings a yaku hand nearer"),
    }
}

fn call_legacy(table: &Table, strategy: Strategy, from: u8, tile: Tile) -> TableDecision {
    let shanten_now = table.shanten();
    let pass = |why: String| TableDecision::new(TableAction::Pass, why, shanten_now);
    let mut ctx = legacy_context(table, strategy);
    ctx.drawn = None;
    let rel = match (table.me + 4 - from) % 4 {
        1 => super::From::Left,
        2 => super::From::Across,
        _ => super::From::Right,
    };
    let d = super::decide_claim(&ctx, tile, rel);
    let live = live_counts(Variant::Riichi, &table.seen());
    let pon = match d.action {
        ClaimAction::Pung => true,
        ClaimAction::Chow => false,
        _ => return pass(d.reason),
    };
    // The meld the seed's bot chose, if its tiles are held and a yaku and a legal
    // discard remain after it.
    let want: Vec<u8> = {
        let mut v: Vec<u8> = d.tiles.iter().map(|t| t.index).collect();
        if let Some(i) = v.iter().position(|&x| x == tile.index) {
            v.remove(i);
        }
        v
    };
    for (is_pon, consumed) in call_options(table, from, tile) {
        let mut kinds = [consumed[0].index, consumed[1].index];
        kinds.sort_unstable();
        let mut w = want.clone();
        w.sort_unstable();
        if is_pon != pon || w != kinds {
            continue;
        }
        let (c2, m2, forbidden) = after_call(table, pon, tile, consumed);
        let p = paths(table, &m2, &c2);
        if !(p.yakuhai || p.tanyao || p.flush.is_some() || p.pungs) {
            return pass("the call would leave no yaku".into());
        }
        if best_after_call(table, &p, &c2, m2.len(), &forbidden, &live).is_none() {
            return pass("no legal discard after the call".into());
        }
        let action = if pon {
            TableAction::Pon {
                target: from,
                tile,
                consumed,
            }
        } else {
            TableAction::Chi {
                target: from,
                tile,
                consumed,
            }
        };
        return TableDecision::new(action, d.reason, shanten_now);
    }
    let _ = Action::Discard;
    pass("the chosen meld is not held".into())
}
