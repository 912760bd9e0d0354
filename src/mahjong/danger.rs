//! Defence model for Riichi mahjong: how dangerous each tile kind is against each opponent.
//!
//! Pure engine code. The caller replays the hand into a [`TableView`] and asks, per opponent:
//!
//! * [`tenpai_probability`]: how likely the opponent is ready (1 after riichi; otherwise a
//!   logistic read of turn, melds and tells: late tsumogiri streaks, late hand-cut middle
//!   tiles, called dora / yakuhai, flush signs).
//! * [`deal_in_probability`] / [`danger_table`]: how likely discarding a kind deals in
//!   *given* the opponent is tenpai.
//! * [`expected_hand_value`]: rough points the opponent's hand is worth if it wins.
//!
//! and, over the whole table, [`tile_danger`] (combined risk), [`expected_loss`] and
//! [`table_danger`] (everything for all 34 kinds in one pass; use this in a discard loop).
//!
//! # The deal-in model
//!
//! Against a tenpai hand a tile deals in only through a wait shape that contains it, so each
//! shape that could wait on the kind adds a share calibrated to commonly quoted riichi deal-in
//! statistics (ryanmen waits dominate: a non-suji 4-5-6 deals in about 12–13 % of the time,
//! a suji 4-5-6 about 3–4 %, a suji terminal under 2 %, an honor with two copies seen about
//! 2 %):
//!
//! * **Genbutsu** is 0: the opponent's own discards (furiten), every tile discarded after its
//!   riichi declaration (it did not ron), and for a silent hand every tile others discarded
//!   after its last discard (temporary furiten). See [`genbutsu`].
//! * **Ryanmen sides**: a suited tile `n` is waited on by the shapes `(n+1, n+2)` and
//!   `(n−2, n−1)`. A side whose other wait (`n±3`, its *suji* partner) is genbutsu is dead:
//!   the hand would be furiten. Hence 1/9, 2/8 and 3/7 need one suji partner, 4-5-6 two.
//! * **Kabe / no-chance**: a shape needs the bot-visible copies of its tiles; with all four
//!   seen it cannot exist (weight 0), with three seen (*one-chance*) it is unlikely.
//! * **Kanchan, penchan, shanpon / tanki** add the smaller remainder (why suji 3/7 and suji
//!   middle tiles are not safe, and terminals are safer than middle tiles). An honor can only
//!   be a shanpon or tanki wait, so it is rated by copies seen; with 3 seen it is a tanki, with
//!   4 seen it is 0 (kokushi is ignored).
//! * **Adjustments**: an opponent's early outside discards (1/2/8/9) in a suit make that
//!   suit's middle tiles more dangerous; dora and its neighbours are kept and so waited on
//!   more; the hand-cut riichi tile's neighbours (matagi-suji) and suji are somewhat more
//!   dangerous; a flush-looking open hand makes its suit very dangerous and the other suits
//!   nearly safe; an all-pungs-looking open hand waits on pairs rather than sequences.
//!
//! Every non-genbutsu tile that is not an honor with all four copies seen gets at least
//! [`DEAL_IN_FLOOR`] > 0, so genbutsu always ranks strictly safer than anything else.
//!
//! The numbers are rough estimates; what matters for push / fold is that the order is right.
//!
//! # Rules without furiten (Hong Kong)
//!
//! With [`TableView::furiten`] off, an opponent may win on a tile it discarded itself, so
//! nothing is genbutsu and there is no riichi. Its discards (and what others discarded
//! after its last discard, which it did not want to win on just then) still say what it is
//! not collecting: they only lower the danger by [`NO_FURITEN_PASSED_FACTOR`], and a
//! ryanmen side whose suji partner it passed is weakened by [`NO_FURITEN_SUJI_FACTOR`]
//! instead of dead. Readiness reads (turn, melds, tells, flush signs) and the wait-shape
//! reasoning (kabe, one-chance, honors with all copies seen) apply unchanged.

use super::tiles::{KINDS, Meld, MeldKind, Tile, TileCounts, rank_of, suit_of};

/// One discard of the hand, in the order made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RiverTile {
    /// Seat 0..4 that discarded it.
    pub seat: u8,
    pub tile: Tile,
    /// Discarded straight from the draw (not from the hand).
    pub tsumogiri: bool,
}

/// Everything the defence model reads about the table.
#[derive(Debug, Clone)]
pub struct TableView<'a> {
    /// The bot's seat 0..4.
    pub me: u8,
    /// Every discard of the hand in the order made, all seats (called tiles included).
    pub river: &'a [RiverTile],
    /// Per seat: index in `river` of its riichi declaration tile.
    pub riichi: [Option<usize>; 4],
    /// Each seat's declared melds.
    pub melds: [&'a [Meld]; 4],
    /// Every tile the bot can see: own hand, all rivers, all melds, dora indicators.
    pub seen: TileCounts,
    /// Dora kinds (already converted from the indicators; a kind may repeat).
    pub dora: Vec<u8>,
    /// Seat winds, tile index 27..=30 (27 = East = dealer).
    pub seat_winds: [u8; 4],
    pub round_wind: u8,
    /// Tiles left in the live wall.
    pub tiles_left: u8,
    /// The rules have furiten (Riichi): an opponent cannot win on its own discards or on a
    /// tile it let pass, so those are genbutsu, and `riichi` is read. Off (Hong Kong): no
    /// genbutsu, no riichi; passed tiles are only safer (see the module doc).
    pub furiten: bool,
}

// ---------------------------------------------------------------------------------------------
// Tuning constants. Deal-in shares are "given tenpai", calibrated against a riichi hand.
// ---------------------------------------------------------------------------------------------

/// Share of one live ryanmen side: two sides (non-suji 4-5-6) plus the small shapes give
/// about 12.5 %, the commonly quoted rate for a non-suji middle tile against riichi.
const RYANMEN: f64 = 0.045;
/// Kanchan share: the difference between suji 2/8 (about 3–3.5 %) and suji 1/9.
const KANCHAN: f64 = 0.017;
/// Penchan share (3 via 1-2, 7 via 8-9): makes suji 3/7 (about 4.5–5 %) the worst suji.
const PENCHAN: f64 = 0.012;
/// Shanpon + tanki share of a suited tile: a suji terminal deals in a little under 2 %.
const PAIR_WAIT: f64 = 0.018;
/// Honor tiles by copies seen (0..=4): live honors are about as dangerous as a non-suji
/// terminal, two seen about 2 %, three seen leaves only a tanki, four seen cannot deal in.
const HONOR_BY_SEEN: [f64; 5] = [0.065, 0.042, 0.022, 0.005, 0.0];
/// Pair-wait factor of a suited tile by its own copies seen (0..=4): the opponent needs two
/// hidden copies for a shanpon, one for a tanki.
const PAIR_BY_SEEN: [f64; 5] = [1.0, 1.0, 0.6, 0.25, 0.0];
/// A shape tile with two copies seen: slightly fewer ways to hold it.
const TWO_SEEN_SHAPE: f64 = 0.85;
/// A shape tile with three copies seen (one-chance): the opponent must hold the last one.
const ONE_CHANCE: f64 = 0.35;
/// Smallest deal-in probability of a tile that is not genbutsu and not a dead honor: waits
/// we do not model (kokushi, odd multi-waits, misread furiten) never make a tile certain.
pub const DEAL_IN_FLOOR: f64 = 0.002;
/// No single tile is certain to deal in; keeps the combined risk below 1.
const DEAL_IN_CAP: f64 = 0.6;
/// Without furiten: an opponent's own discard, or a tile it let pass since its last discard.
/// It gave the kind up (or did not want it just then), so the kind rarely completes its
/// hand, but it may still win on it later, so the tile stays well above genbutsu's 0.
pub const NO_FURITEN_PASSED_FACTOR: f64 = 0.35;
/// Without furiten: a ryanmen side whose other wait the opponent passed. A hand seldom
/// throws one end of the shape it keeps, but it may have built the shape afterwards.
pub const NO_FURITEN_SUJI_FACTOR: f64 = 0.5;

/// Own discards that count as "early" (the first row of the river).
const EARLY_DISCARDS: usize = 6;
/// Per early outside discard (1/2/8/9) in a suit, up to two: the hand kept that suit's
/// middle tiles, so its 3..=7 are more likely in the wait.
const EARLY_OUTSIDE_STEP: f64 = 0.12;
/// Dora are kept and built around, so they sit in waits more often.
const DORA_FACTOR: f64 = 1.3;
/// Tiles one or two away from a suited dora: shapes built around the dora wait on them.
const DORA_NEIGHBOUR_FACTOR: f64 = 1.12;
/// Neighbours of a hand-cut riichi tile (matagi-suji): the tile often left a shape that
/// straddles it (cutting 4 from 3-4-4 or 4-4-5 leaves 2-5 or 3-6 waits).
const RIICHI_MATAGI_FACTOR: f64 = 1.25;
/// Suji of a hand-cut riichi tile: looks safe, but suji traps and kanchan remain.
const RIICHI_SUJI_FACTOR: f64 = 1.1;
/// A flush-looking open hand waits in its suit.
const FLUSH_SUIT_FACTOR: f64 = 2.2;
/// ... and almost never in the other suits.
const FLUSH_OTHER_SUIT_FACTOR: f64 = 0.1;
/// ... while honors fit a half flush.
const FLUSH_HONOR_FACTOR: f64 = 1.3;
/// An all-pungs-looking open hand waits on pairs / tanki, not on sequences.
const TOITOI_SEQUENCE_FACTOR: f64 = 0.3;
const TOITOI_PAIR_FACTOR: f64 = 2.5;

/// Silent-hand tenpai logit: about 1 % on turn 2, 5 % on turn 6, 20 % on turn 12 for a
/// closed hand (most closed tenpai hands declare riichi, so silence is weak evidence).
const TENPAI_LOGIT_BASE: f64 = -4.9;
const TENPAI_LOGIT_PER_TURN: f64 = 0.3;
/// Turns beyond this add no more evidence.
const TENPAI_TURN_CAP: f64 = 18.0;
/// Each meld is a finished block: one meld on turn 6 about 12 %, two about 30 %, three
/// about 55 %, rising to 45 / 70 / 87 % on turn 12.
const TENPAI_LOGIT_PER_MELD: f64 = 1.1;
/// From this many own discards on, tsumogiri streaks and hand-cut middle tiles are tells.
const LATE_TURN: usize = 8;
/// Per tsumogiri beyond the first in the trailing streak (up to three): a hand that keeps
/// every draw's neighbour out is usually waiting.
const TSUMOGIRI_STREAK_LOGIT: f64 = 0.3;
/// Per hand-cut 3..=7 among the last three discards (up to two): late middle tiles leave a
/// hand that has finished its shapes.
const LATE_MIDDLE_LOGIT: f64 = 0.35;
/// Per dora tile shown in melds (up to three): such hands push and are built to win.
const CALLED_DORA_LOGIT: f64 = 0.25;
/// A yakuhai pung shows a yaku: the open hand is real, not a bluff.
const YAKUHAI_LOGIT: f64 = 0.3;
/// A flush-looking hand has been collecting one suit for a while.
const FLUSH_LOGIT: f64 = 0.4;
/// A silent hand is never certain.
const SILENT_TENPAI_CAP: f64 = 0.95;

/// Flush read: at least this many own discards ...
const FLUSH_MIN_DISCARDS: usize = 4;
/// ... none of the suit among the last this many ...
const FLUSH_LATE_WINDOW: usize = 6;
/// ... and at most this many of the suit overall (early ones from before the plan) ...
const FLUSH_MAX_SUIT_DISCARDS: usize = 2;
/// ... while at least this many are of the other two suits (an all-honor river shows
/// nothing about suits).
const FLUSH_MIN_OTHER_SUIT_DISCARDS: usize = 3;

/// Expected han of a riichi hand: riichi + ura / ippatsu / tsumo + hidden dora + other yaku.
const RIICHI_HAN: f64 = 3.3;
/// Expected han of a bare open hand: its yaku + about one hidden dora or second yaku.
const OPEN_HAN: f64 = 2.0;
/// Expected han of a silent closed hand: hands stay silent when they already have value.
const DAMA_HAN: f64 = 2.8;
/// A shown yakuhai pung confirms a yaku (the first one replaces the unknown yaku).
const YAKUHAI_CONFIRMED_HAN: f64 = 0.3;
/// An open flush (half flush 2 han, full flush 5) adds over a bare yaku.
const FLUSH_HAN: f64 = 1.5;
/// Three pungs shown in an open hand: toitoi is likely (2 han).
const TOITOI_HAN: f64 = 1.0;
/// The dealer is paid 1.5 times.
const DEALER_FACTOR: f64 = 1.5;
/// Dealing in with a dora adds a han to the hand it completes (roughly ×1.3 in points).
const DORA_HIT_VALUE_FACTOR: f64 = 1.3;
/// Points of a non-dealer ron by han at typical 30–40 fu (mangan at 4–5, haneman 6–7, ...).
const POINTS_BY_HAN: [(f64, f64); 9] = [
    (1.0, 1_150.0),
    (2.0, 2_300.0),
    (3.0, 4_500.0),
    (4.0, 7_700.0),
    (5.0, 8_000.0),
    (6.0, 12_000.0),
    (8.0, 16_000.0),
    (11.0, 24_000.0),
    (13.0, 32_000.0),
];

const EAST: u8 = 27;

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

/// Everything the model reads about one opponent.
#[derive(Debug, Clone, PartialEq)]
pub struct OpponentRead {
    pub seat: u8,
    /// Probability the opponent is tenpai now ([`tenpai_probability`]).
    pub tenpai: f64,
    /// Expected points of its hand if it wins ([`expected_hand_value`]).
    pub value: f64,
    /// Per kind: probability that discarding it deals in, given tenpai ([`danger_table`]).
    pub deal_in: [f64; KINDS],
    /// Per kind: absolutely safe against this opponent by furiten ([`genbutsu`]).
    pub genbutsu: [bool; KINDS],
    /// The suit (0 m, 1 p, 2 s) an open hand seems to be flushing, if any ([`flush_suit`]).
    pub flush_suit: Option<u8>,
}

/// The full table read, for all 34 kinds at once.
#[derive(Debug, Clone, PartialEq)]
pub struct TableDanger {
    /// One read per opponent seat; `None` for the bot's own seat.
    pub opponents: [Option<OpponentRead>; 4],
    /// Per kind: probability that discarding it deals in to anyone ([`tile_danger`]).
    pub combined: [f64; KINDS],
    /// Per kind: expected points lost by discarding it ([`expected_loss`]).
    pub expected_loss: [f64; KINDS],
}

/// Per kind: `true` when the kind cannot deal in to `opp` because of furiten: the opponent
/// discarded it itself, it was discarded after the opponent's riichi declaration, or (for a
/// silent hand) another seat discarded it after the opponent's last discard.
pub fn genbutsu(view: &TableView, opp: u8) -> [bool; KINDS] {
    Facts::new(view, opp).genbutsu
}

/// The opponent's genbutsu kinds in index order.
pub fn genbutsu_kinds(view: &TableView, opp: u8) -> Vec<u8> {
    let g = genbutsu(view, opp);
    (0..KINDS as u8).filter(|&k| g[k as usize]).collect()
}

/// The suit (0 m, 1 p, 2 s) an open hand seems to be flushing: every suited meld tile in
/// one suit, and its discards (at least [`FLUSH_MIN_DISCARDS`], several of the other suits)
/// show almost none of it, none late. Closed hands give no such read.
pub fn flush_suit(view: &TableView, opp: u8) -> Option<u8> {
    if !valid_opponent(view, opp) {
        return None;
    }
    flush_read(view, opp, &Facts::new(view, opp))
}

/// Probability that `opp` is tenpai now: 1 after riichi and with four melds (a bare tanki),
/// otherwise a logistic estimate (capped below 1) from the number of own discards, melds,
/// late tsumogiri streaks, late hand-cut middle tiles, shown dora / yakuhai and flush signs.
/// 0 for the bot's own seat or an invalid seat.
pub fn tenpai_probability(view: &TableView, opp: u8) -> f64 {
    if !valid_opponent(view, opp) {
        return 0.0;
    }
    let facts = Facts::new(view, opp);
    let flush = flush_read(view, opp, &facts);
    tenpai_from(view, opp, &facts, flush)
}

/// Probability that discarding `kind` now deals in to `opp`, *given* `opp` is tenpai
/// (multiply by [`tenpai_probability`]). 0 for genbutsu and honors with all copies seen;
/// at least [`DEAL_IN_FLOOR`] otherwise. For many kinds use [`danger_table`].
pub fn deal_in_probability(view: &TableView, opp: u8, kind: u8) -> f64 {
    if kind as usize >= KINDS {
        return 0.0;
    }
    danger_table(view, opp)[kind as usize]
}

/// [`deal_in_probability`] for all 34 kinds at once (all zeros for the bot's own seat).
pub fn danger_table(view: &TableView, opp: u8) -> [f64; KINDS] {
    if !valid_opponent(view, opp) {
        return [0.0; KINDS];
    }
    let facts = Facts::new(view, opp);
    let flush = flush_read(view, opp, &facts);
    deal_in_table(view, opp, &facts, flush)
}

/// Rough expected points of `opp`'s hand if it wins (ron, before honba / riichi sticks):
/// riichi about 5,500 for a non-dealer, a bare open hand about 2,300, more with dora,
/// yakuhai, flush or pungs shown; the dealer's ×1.5. 0 for the bot's own seat.
pub fn expected_hand_value(view: &TableView, opp: u8) -> f64 {
    if !valid_opponent(view, opp) {
        return 0.0;
    }
    let facts = Facts::new(view, opp);
    let flush = flush_read(view, opp, &facts);
    value_from(view, opp, flush)
}

/// Probability that discarding `kind` now deals in to anyone:
/// `1 − Π over opponents (1 − tenpai × deal_in)`. For many kinds use [`table_danger`].
pub fn tile_danger(view: &TableView, kind: u8) -> f64 {
    if kind as usize >= KINDS {
        return 0.0;
    }
    table_danger(view).combined[kind as usize]
}

/// Expected points lost by discarding `kind` now: Σ over opponents of
/// tenpai × deal_in × hand value (× [`DORA_HIT_VALUE_FACTOR`] per dora the tile is).
pub fn expected_loss(view: &TableView, kind: u8) -> f64 {
    if kind as usize >= KINDS {
        return 0.0;
    }
    table_danger(view).expected_loss[kind as usize]
}

/// [`expected_loss`] with the caller's own per-seat hand values in points (the bot's seat is
/// ignored), e.g. when it knows more about the scores than [`expected_hand_value`].
pub fn expected_loss_with_values(view: &TableView, kind: u8, values: [f64; 4]) -> f64 {
    if kind as usize >= KINDS {
        return 0.0;
    }
    let hit = dora_hit_factor(view, kind);
    (0..4u8)
        .filter(|&opp| valid_opponent(view, opp))
        .map(|opp| {
            let facts = Facts::new(view, opp);
            let flush = flush_read(view, opp, &facts);
            let tenpai = tenpai_from(view, opp, &facts, flush);
            let deal_in = deal_in_table(view, opp, &facts, flush)[kind as usize];
            tenpai * deal_in * values[opp as usize] * hit
        })
        .sum()
}

/// Everything about one opponent in one pass over the river.
pub fn read_opponent(view: &TableView, opp: u8) -> Option<OpponentRead> {
    if !valid_opponent(view, opp) {
        return None;
    }
    let facts = Facts::new(view, opp);
    let flush = flush_read(view, opp, &facts);
    Some(OpponentRead {
        seat: opp,
        tenpai: tenpai_from(view, opp, &facts, flush),
        value: value_from(view, opp, flush),
        deal_in: deal_in_table(view, opp, &facts, flush),
        genbutsu: facts.genbutsu,
        flush_suit: flush,
    })
}

/// The full table evaluation: every opponent's read, the combined deal-in risk and the
/// expected loss for all 34 kinds. This is what a discard loop should call once.
pub fn table_danger(view: &TableView) -> TableDanger {
    let opponents: [Option<OpponentRead>; 4] =
        std::array::from_fn(|seat| read_opponent(view, seat as u8));
    let mut combined = [0.0; KINDS];
    let mut expected_loss = [0.0; KINDS];
    for k in 0..KINDS {
        let mut safe = 1.0;
        let mut loss = 0.0;
        for read in opponents.iter().flatten() {
            let p = read.tenpai * read.deal_in[k];
            safe *= 1.0 - p;
            loss += p * read.value;
        }
        combined[k] = 1.0 - safe;
        expected_loss[k] = loss * dora_hit_factor(view, k as u8);
    }
    TableDanger {
        opponents,
        combined,
        expected_loss,
    }
}

// ---------------------------------------------------------------------------------------------
// Internals
// ---------------------------------------------------------------------------------------------

fn valid_opponent(view: &TableView, opp: u8) -> bool {
    opp < 4 && opp != view.me
}

/// What one pass over the river tells about an opponent.
struct Facts {
    /// Own discards in order: kind and tsumogiri flag.
    own: Vec<(u8, bool)>,
    genbutsu: [bool; KINDS],
    /// Without furiten: its own discards and what passed since its last one (all false
    /// with furiten, where those are genbutsu instead).
    passed: [bool; KINDS],
    /// The riichi declaration tile, if any.
    riichi_tile: Option<RiverTile>,
}

impl Facts {
    fn new(view: &TableView, opp: u8) -> Self {
        let river = view.river;
        let mut own = Vec::with_capacity(24);
        let mut genbutsu = [false; KINDS];
        let mut last_own = None;
        for (i, r) in river.iter().enumerate() {
            if r.seat == opp && (r.tile.index as usize) < KINDS {
                own.push((r.tile.index, r.tsumogiri));
                genbutsu[r.tile.index as usize] = true;
                last_own = Some(i);
            }
        }
        // Temporary furiten: whatever passed since the opponent's last discard (or since the
        // start, before its first) it did not ron. After riichi this widens to everything
        // since the declaration, which it could not refuse without staying furiten.
        // Without furiten rules there is no riichi to read.
        let riichi_at = view
            .riichi
            .get(opp as usize)
            .copied()
            .flatten()
            .filter(|&i| view.furiten && i < river.len());
        let from = match (riichi_at, last_own) {
            (Some(r), _) => r + 1,
            (None, Some(l)) => l + 1,
            (None, None) => 0,
        };
        for r in &river[from.min(river.len())..] {
            if (r.tile.index as usize) < KINDS {
                genbutsu[r.tile.index as usize] = true;
            }
        }
        // Without furiten the same tiles are only evidence, not safety.
        let passed = if view.furiten {
            [false; KINDS]
        } else {
            std::mem::replace(&mut genbutsu, [false; KINDS])
        };
        Self {
            own,
            genbutsu,
            passed,
            riichi_tile: riichi_at.map(|i| river[i]),
        }
    }
}

fn seen_of(view: &TableView, kind: u8) -> usize {
    (view.seen.get(kind) as usize).min(4)
}

fn is_riichi(view: &TableView, opp: u8) -> bool {
    view.furiten && view.riichi.get(opp as usize).copied().flatten().is_some()
}

fn dora_count(view: &TableView, kind: u8) -> usize {
    view.dora.iter().filter(|&&d| d == kind).count()
}

fn dora_hit_factor(view: &TableView, kind: u8) -> f64 {
    DORA_HIT_VALUE_FACTOR.powi(dora_count(view, kind) as i32)
}

/// Dora tiles shown in melds (kind dora per indicator, plus red fives).
fn shown_dora(view: &TableView, melds: &[Meld]) -> usize {
    melds
        .iter()
        .flat_map(|m| &m.tiles)
        .map(|t| dora_count(view, t.index) + usize::from(t.red))
        .sum()
}

/// Yakuhai han of a kind for `opp`: dragons, its seat wind, the round wind.
fn yakuhai_han(view: &TableView, opp: u8, kind: u8) -> usize {
    usize::from(kind >= 31)
        + usize::from(view.seat_winds.get(opp as usize) == Some(&kind))
        + usize::from(kind == view.round_wind && (27..=30).contains(&kind))
}

fn is_pung(m: &Meld) -> bool {
    matches!(
        m.kind,
        MeldKind::Pung | MeldKind::Kong | MeldKind::ConcealedKong
    )
}

/// An open hand with at least two pungs and no chow waits on pairs.
fn looks_like_toitoi(melds: &[Meld]) -> bool {
    melds.iter().any(|m| m.kind.is_open())
        && melds.iter().filter(|m| is_pung(m)).count() >= 2
        && !melds.iter().any(|m| m.kind == MeldKind::Chow)
}

fn flush_read(view: &TableView, opp: u8, facts: &Facts) -> Option<u8> {
    let melds = view.melds[opp as usize];
    if !melds.iter().any(|m| m.kind.is_open()) {
        return None;
    }
    let mut suit = None;
    for t in melds.iter().flat_map(|m| &m.tiles) {
        if t.index < 27 {
            let s = suit_of(t.index);
            match suit {
                None => suit = Some(s),
                Some(x) if x != s => return None,
                _ => {}
            }
        }
    }
    let suit = suit?;
    let own = &facts.own;
    if own.len() < FLUSH_MIN_DISCARDS {
        return None;
    }
    let in_suit = |&&(k, _): &&(u8, bool)| k < 27 && suit_of(k) == suit;
    let total = own.iter().filter(in_suit).count();
    let late = own
        .iter()
        .rev()
        .take(FLUSH_LATE_WINDOW)
        .filter(in_suit)
        .count();
    let other = own.iter().filter(|&&(k, _)| k < 27).count() - total;
    (total <= FLUSH_MAX_SUIT_DISCARDS && late == 0 && other >= FLUSH_MIN_OTHER_SUIT_DISCARDS)
        .then_some(suit)
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn tenpai_from(view: &TableView, opp: u8, facts: &Facts, flush: Option<u8>) -> f64 {
    if is_riichi(view, opp) {
        return 1.0;
    }
    let melds = view.melds[opp as usize];
    if melds.len() >= 4 {
        return 1.0;
    }
    let turns = facts.own.len();
    let mut x = TENPAI_LOGIT_BASE
        + TENPAI_LOGIT_PER_TURN * (turns as f64).min(TENPAI_TURN_CAP)
        + TENPAI_LOGIT_PER_MELD * melds.len() as f64;
    if turns >= LATE_TURN {
        let streak = facts.own.iter().rev().take_while(|(_, t)| *t).count();
        if streak >= 2 {
            x += TSUMOGIRI_STREAK_LOGIT * (streak - 1).min(3) as f64;
        }
        let late_middle = facts
            .own
            .iter()
            .rev()
            .take(3)
            .filter(|&&(k, t)| !t && k < 27 && (3..=7).contains(&rank_of(k)))
            .count();
        x += LATE_MIDDLE_LOGIT * late_middle.min(2) as f64;
    }
    x += CALLED_DORA_LOGIT * shown_dora(view, melds).min(3) as f64;
    if melds
        .iter()
        .any(|m| is_pung(m) && yakuhai_han(view, opp, m.base()) > 0)
    {
        x += YAKUHAI_LOGIT;
    }
    if flush.is_some() {
        x += FLUSH_LOGIT;
    }
    logistic(x).min(SILENT_TENPAI_CAP)
}

fn points_for_han(han: f64) -> f64 {
    let first = POINTS_BY_HAN[0];
    if han <= first.0 {
        return first.1;
    }
    for w in POINTS_BY_HAN.windows(2) {
        let ((h0, p0), (h1, p1)) = (w[0], w[1]);
        if han <= h1 {
            return p0 + (p1 - p0) * (han - h0) / (h1 - h0);
        }
    }
    POINTS_BY_HAN[POINTS_BY_HAN.len() - 1].1
}

fn value_from(view: &TableView, opp: u8, flush: Option<u8>) -> f64 {
    let melds = view.melds[opp as usize];
    let open = melds.iter().any(|m| m.kind.is_open());
    let mut han = if is_riichi(view, opp) {
        RIICHI_HAN
    } else if open {
        OPEN_HAN
    } else {
        DAMA_HAN
    };
    han += shown_dora(view, melds) as f64;
    let yakuhai: usize = melds
        .iter()
        .filter(|m| is_pung(m))
        .map(|m| yakuhai_han(view, opp, m.base()))
        .sum();
    if yakuhai > 0 {
        // the first yakuhai han is the yaku the base already assumes
        han += (yakuhai - 1) as f64 + YAKUHAI_CONFIRMED_HAN;
    }
    if flush.is_some() {
        han += FLUSH_HAN;
    }
    if open && melds.iter().filter(|m| is_pung(m)).count() >= 3 {
        han += TOITOI_HAN;
    }
    let dealer = view.seat_winds.get(opp as usize) == Some(&EAST);
    points_for_han(han) * if dealer { DEALER_FACTOR } else { 1.0 }
}

/// Factor of a shape tile by its copies seen: gone (kabe) at 4, one-chance at 3.
fn live(seen: usize) -> f64 {
    match seen {
        0 | 1 => 1.0,
        2 => TWO_SEEN_SHAPE,
        3 => ONE_CHANCE,
        _ => 0.0,
    }
}

/// Deal-in share of a suited kind from the wait shapes that can contain it. `suji[k]`
/// weights a ryanmen side whose other wait is `k`: 0 when `k` is genbutsu (the hand would
/// be furiten), lower when the opponent passed `k` without furiten rules, else 1.
fn suited_shapes(view: &TableView, suji: &[f64; KINDS], kind: u8, toitoi: bool) -> f64 {
    let rank = rank_of(kind) as i8;
    let start = kind - (rank as u8 - 1);
    let at = |r: i8| start + (r as u8 - 1);
    let lv = |r: i8| live(seen_of(view, at(r)));
    let (seq, pair) = if toitoi {
        (TOITOI_SEQUENCE_FACTOR, TOITOI_PAIR_FACTOR)
    } else {
        (1.0, 1.0)
    };
    let mut p = 0.0;
    // ryanmen (r−2, r−1) waits r−3 and r: dead if r−3 is genbutsu (suji)
    if rank >= 4 {
        let w = suji[at(rank - 3) as usize];
        if w > 0.0 {
            p += RYANMEN * seq * lv(rank - 2) * lv(rank - 1) * w;
        }
    }
    // ryanmen (r+1, r+2) waits r and r+3
    if rank <= 6 {
        let w = suji[at(rank + 3) as usize];
        if w > 0.0 {
            p += RYANMEN * seq * lv(rank + 1) * lv(rank + 2) * w;
        }
    }
    if (2..=8).contains(&rank) {
        p += KANCHAN * seq * lv(rank - 1) * lv(rank + 1);
    }
    if rank == 3 {
        p += PENCHAN * seq * lv(1) * lv(2);
    }
    if rank == 7 {
        p += PENCHAN * seq * lv(8) * lv(9);
    }
    p + PAIR_WAIT * pair * PAIR_BY_SEEN[seen_of(view, kind)]
}

fn deal_in_table(view: &TableView, opp: u8, facts: &Facts, flush: Option<u8>) -> [f64; KINDS] {
    let melds = view.melds[opp as usize];
    let toitoi = looks_like_toitoi(melds);

    // per-kind multipliers from the river, dora and hand shape
    let mut factor = [1.0f64; KINDS];
    let mut early_outside = [0usize; 3];
    for &(k, _) in facts.own.iter().take(EARLY_DISCARDS) {
        if k < 27 && matches!(rank_of(k), 1 | 2 | 8 | 9) {
            early_outside[suit_of(k) as usize] += 1;
        }
    }
    for k in 0..27u8 {
        let n = early_outside[suit_of(k) as usize].min(2);
        if (3..=7).contains(&rank_of(k)) && n > 0 {
            factor[k as usize] *= 1.0 + EARLY_OUTSIDE_STEP * n as f64;
        }
    }
    let mut near_dora = [false; KINDS];
    for &d in &view.dora {
        if d as usize >= KINDS {
            continue;
        }
        if d < 27 {
            for k in same_suit_within(d, 2) {
                near_dora[k as usize] = true;
            }
        }
    }
    for k in 0..KINDS as u8 {
        if dora_count(view, k) > 0 {
            factor[k as usize] *= DORA_FACTOR;
        } else if near_dora[k as usize] {
            factor[k as usize] *= DORA_NEIGHBOUR_FACTOR;
        }
    }
    if let Some(rt) = facts.riichi_tile
        && !rt.tsumogiri
        && rt.tile.index < 27
    {
        let r = rank_of(rt.tile.index) as i8;
        for k in same_suit_within(rt.tile.index, 3) {
            match (rank_of(k) as i8 - r).abs() {
                1 | 2 => factor[k as usize] *= RIICHI_MATAGI_FACTOR,
                3 => factor[k as usize] *= RIICHI_SUJI_FACTOR,
                _ => {}
            }
        }
    }
    if let Some(s) = flush {
        for k in 0..KINDS as u8 {
            factor[k as usize] *= if k >= 27 {
                FLUSH_HONOR_FACTOR
            } else if suit_of(k) == s {
                FLUSH_SUIT_FACTOR
            } else {
                FLUSH_OTHER_SUIT_FACTOR
            };
        }
    }

    let suji: [f64; KINDS] = std::array::from_fn(|i| {
        if facts.genbutsu[i] {
            0.0
        } else if facts.passed[i] {
            NO_FURITEN_SUJI_FACTOR
        } else {
            1.0
        }
    });
    let mut out = [0.0; KINDS];
    for k in 0..KINDS as u8 {
        let i = k as usize;
        if facts.genbutsu[i] {
            continue;
        }
        if facts.passed[i] {
            factor[i] *= NO_FURITEN_PASSED_FACTOR;
        }
        let base = if k >= 27 {
            let seen = seen_of(view, k);
            if seen >= 4 {
                // no copy left to hold: no tanki, no shanpon (kokushi ignored)
                continue;
            }
            HONOR_BY_SEEN[seen] * if toitoi { TOITOI_PAIR_FACTOR } else { 1.0 }
        } else {
            suited_shapes(view, &suji, k, toitoi)
        };
        out[i] = (base * factor[i]).clamp(DEAL_IN_FLOOR, DEAL_IN_CAP);
    }
    out
}

/// Suited kinds of the same suit within `dist` ranks of `kind`, excluding `kind`.
fn same_suit_within(kind: u8, dist: u8) -> impl Iterator<Item = u8> {
    let rank = rank_of(kind);
    let start = kind - (rank - 1);
    (1..=9u8)
        .filter(move |&r| r != rank && r.abs_diff(rank) <= dist)
        .map(move |r| start + r - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::tiles::parse_tiles;

    fn k(name: &str) -> u8 {
        parse_tiles(name).unwrap()[0].index
    }

    /// A river from `(seat, tiles, tsumogiri)` steps, tiles in tenhou notation, one discard
    /// per tile in the given order.
    fn river(steps: &[(u8, &str)]) -> Vec<RiverTile> {
        steps
            .iter()
            .flat_map(|&(seat, tiles)| {
                parse_tiles(tiles)
                    .unwrap()
                    .into_iter()
                    .map(move |tile| RiverTile {
                        seat,
                        tile,
                        tsumogiri: false,
                    })
            })
            .collect()
    }

    /// Interleaves per-seat discard lists turn by turn starting with seat 0.
    fn turns(per_seat: [&str; 4]) -> Vec<RiverTile> {
        let lists: Vec<Vec<Tile>> = per_seat.iter().map(|s| parse_tiles(s).unwrap()).collect();
        let n = lists.iter().map(Vec::len).max().unwrap_or(0);
        let mut out = Vec::new();
        for t in 0..n {
            for (seat, list) in lists.iter().enumerate() {
                if let Some(&tile) = list.get(t) {
                    out.push(RiverTile {
                        seat: seat as u8,
                        tile,
                        tsumogiri: false,
                    });
                }
            }
        }
        out
    }

    const NO_MELDS: &[Meld] = &[];

    fn view<'a>(river: &'a [RiverTile], hand: &str) -> TableView<'a> {
        let mut seen = TileCounts::from_tiles(&parse_tiles(hand).unwrap());
        for r in river {
            seen.add(r.tile.index);
        }
        TableView {
            me: 0,
            river,
            riichi: [None; 4],
            melds: [NO_MELDS; 4],
            seen,
            dora: vec![k("1z")],
            seat_winds: [27, 28, 29, 30],
            round_wind: 27,
            tiles_left: 50,
            furiten: true,
        }
    }

    /// Index in `river` of the `n`-th (0-based) discard of `seat`.
    fn nth_of(river: &[RiverTile], seat: u8, n: usize) -> usize {
        river
            .iter()
            .enumerate()
            .filter(|(_, r)| r.seat == seat)
            .nth(n)
            .unwrap()
            .0
    }

    fn add_seen(v: &mut TableView, tiles: &str) {
        for t in parse_tiles(tiles).unwrap() {
            v.seen.add(t.index);
        }
    }

    /// Seat 1 riichi on its 6th discard; its river holds 4p (so 1p/7p are suji, 4p's
    /// partners), 2s and 8s (5s is suji on both sides), nothing in m.
    fn riichi_table() -> Vec<RiverTile> {
        turns([
            "1z9m9p1s2z3z7z",
            "9s4p2s8s1z2p",
            "7z6z5z4z3z2z1z",
            "3z4z5z6z7z2z3z",
        ])
    }

    #[test]
    fn riichi_seat_is_tenpai_and_early_closed_hand_is_not() {
        let r = riichi_table();
        let mut v = view(&r, "");
        let at = nth_of(&r, 1, 5);
        v.riichi[1] = Some(at);
        assert_eq!(tenpai_probability(&v, 1), 1.0);
        let early = turns(["1z9m", "9s1p", "7z6z", "3z4z"]);
        let v2 = view(&early, "");
        let p = tenpai_probability(&v2, 2);
        assert!(p < 0.03, "turn 2 closed: {p}");
        assert_eq!(tenpai_probability(&v2, 0), 0.0, "own seat");
    }

    #[test]
    fn tenpai_rises_with_turn_melds_and_tells() {
        let base: Vec<RiverTile> = (0..10)
            .map(|_| RiverTile {
                seat: 1,
                tile: Tile::new(k("1z")),
                tsumogiri: false,
            })
            .collect();
        let v = view(&base, "");
        let late_closed = tenpai_probability(&v, 1);
        let v_short = view(&base[..4], "");
        assert!(tenpai_probability(&v_short, 1) < late_closed);
        let chi = [Meld {
            kind: MeldKind::Chow,
            tiles: parse_tiles("345m").unwrap(),
        }];
        let mut v_open = view(&base, "");
        v_open.melds[1] = &chi;
        let open = tenpai_probability(&v_open, 1);
        assert!(open > late_closed);
        let mut streak = base.clone();
        for r in streak.iter_mut().skip(6) {
            r.tsumogiri = true;
        }
        let mut v_streak = view(&streak, "");
        v_streak.melds[1] = &chi;
        assert!(tenpai_probability(&v_streak, 1) > open);
        let four = [
            chi[0].clone(),
            chi[0].clone(),
            chi[0].clone(),
            chi[0].clone(),
        ];
        let mut v_bare = view(&base, "");
        v_bare.melds[1] = &four;
        assert_eq!(tenpai_probability(&v_bare, 1), 1.0);
    }

    #[test]
    fn own_discards_and_post_riichi_discards_are_genbutsu() {
        // seat 3 discards 5m before seat 1 declares; seat 2 discards 6p after it
        let r = river(&[
            (1, "3m"),
            (3, "5m"),
            (1, "1z"),
            (2, "2z"),
            (1, "8s"),
            (2, "6p"),
            (3, "4s"),
        ]);
        let mut v = view(&r, "");
        v.riichi[1] = Some(4); // 8s is the riichi tile
        let g = genbutsu(&v, 1);
        for name in ["3m", "1z", "8s", "6p", "4s"] {
            assert!(g[k(name) as usize], "{name} should be genbutsu");
            assert_eq!(deal_in_probability(&v, 1, k(name)), 0.0, "{name}");
        }
        assert!(!g[k("5m") as usize], "5m passed before the declaration");
        // 2z passed between two of its discards: temporary furiten ended with the riichi tile
        assert!(!g[k("2z") as usize]);
        assert!(deal_in_probability(&v, 1, k("5m")) > 0.0);
        assert_eq!(
            genbutsu_kinds(&v, 1),
            vec![k("3m"), k("6p"), k("4s"), k("8s"), k("1z")]
        );
    }

    #[test]
    fn temporary_furiten_of_a_silent_hand() {
        let r = river(&[(1, "9m"), (2, "5p"), (3, "5s"), (1, "1z"), (2, "5m")]);
        let v = view(&r, "");
        let g = genbutsu(&v, 1);
        assert!(g[k("5m") as usize], "passed after seat 1's last discard");
        assert!(!g[k("5p") as usize] && !g[k("5s") as usize]);
    }

    #[test]
    fn suji_is_safer_than_non_suji_per_rank_class() {
        let r = riichi_table();
        let mut v = view(&r, "");
        v.riichi[1] = Some(nth_of(&r, 1, 5));
        let d = |name: &str| deal_in_probability(&v, 1, k(name));
        // 1/9 and 3/7 classes: 1p, 7p are suji of the discarded 4p; 1m, 7m are not
        assert!(d("1p") < d("1m"), "{} {}", d("1p"), d("1m"));
        assert!(d("7p") < d("7m"));
        // 4-5-6 class: 5s is suji on both sides (2s, 8s), 5p on one (2p), 5m on none
        assert!(d("5s") < d("5p") && d("5p") < d("5m"));
        // calibration: rough commonly quoted rates
        assert!((0.10..=0.16).contains(&d("5m")), "non-suji 5: {}", d("5m"));
        assert!((0.025..=0.05).contains(&d("5s")), "suji 5: {}", d("5s"));
        // terminals safer than middle tiles
        assert!(d("1m") < d("4m"));
        assert!(d("1m") < d("5m"));
    }

    #[test]
    fn honors_by_copies_seen() {
        let r2 = river(&[(2, "6z6z"), (3, "7z7z7z"), (2, "1s"), (1, "1m")]);
        let mut v2 = view(&r2, "5z");
        add_seen(&mut v2, "7z"); // the 4th red dragon in another meld
        v2.riichi[1] = Some(3);
        let d = |name: &str| deal_in_probability(&v2, 1, k(name));
        assert_eq!(d("7z"), 0.0, "all four seen");
        assert!(d("7z") < d("5z") && d("5z") < d("4z"), "1 seen vs 0 seen");
        assert!((0.015..=0.03).contains(&d("6z")), "2 seen: {}", d("6z"));
        assert!(d("6z") < d("5z"));
    }

    #[test]
    fn kabe_and_one_chance_make_tiles_safer() {
        let r = riichi_table();
        let mut plain = view(&r, "");
        plain.riichi[1] = Some(nth_of(&r, 1, 5));
        let mut one_chance = plain.clone();
        add_seen(&mut one_chance, "4m4m4m");
        let mut kabe = plain.clone();
        add_seen(&mut kabe, "4m4m4m4m");
        let d = |v: &TableView| deal_in_probability(v, 1, k("3m"));
        assert!(d(&kabe) < d(&one_chance) && d(&one_chance) < d(&plain));
        // no-chance on both sides of 7m: 8m and 5m gone
        let mut both = plain.clone();
        add_seen(&mut both, "8m8m8m8m5m5m5m5m");
        assert!(deal_in_probability(&both, 1, k("7m")) < d(&plain) / 2.0);
    }

    #[test]
    fn flush_opponent_makes_its_suit_dangerous() {
        let r = turns([
            "1z2z3z4z5z6z",
            "1m9p2s5p8m3s",
            "7z6z5z4z3z2z",
            "3z4z5z6z7z2z",
        ]);
        let pon = [
            Meld {
                kind: MeldKind::Pung,
                tiles: parse_tiles("777s").unwrap(),
            },
            Meld {
                kind: MeldKind::Chow,
                tiles: parse_tiles("123s").unwrap(),
            },
        ];
        let mut v = view(&r, "");
        v.melds[1] = &pon;
        assert_eq!(flush_suit(&v, 1), None, "3s is among the last six discards");
        // the same two early s discards, then six of other suits
        let r2 = turns([
            "1z2z3z4z5z6z7z1z",
            "2s3s1m9p5p8m1p9m",
            "7z6z5z4z3z2z1z7z",
            "3z4z5z6z7z2z3z3z",
        ]);
        let mut v2 = view(&r2, "");
        v2.melds[1] = &pon;
        assert_eq!(flush_suit(&v2, 1), Some(2));
        let d = |name: &str| deal_in_probability(&v2, 1, k(name));
        assert!(d("5s") > 2.0 * d("4p"), "{} vs {}", d("5s"), d("4p"));
        assert!(d("4m") < 0.02);
        let plain = view(&r2, "");
        assert!(tenpai_probability(&v2, 1) > tenpai_probability(&plain, 1));
        assert!(expected_hand_value(&v2, 1) > 3_000.0);
    }

    #[test]
    fn early_outside_discards_dora_and_riichi_tile_raise_danger() {
        // seat 1: early 1m 9m, late 1p 9p
        let r = river(&[(1, "1m9m1z2z3z4z5z6z7z1p9p")]);
        let v = view(&r, "");
        let d = |v: &TableView, name: &str| deal_in_probability(v, 1, k(name));
        assert!(d(&v, "5m") > d(&v, "5p"));
        let mut dora = v.clone();
        dora.dora = vec![k("5s")];
        assert!(d(&dora, "5s") > d(&v, "5s"));
        assert!(d(&dora, "6s") > d(&v, "6s"));
        // riichi on a hand-cut 4m vs 4p: 2m (matagi-suji of 4m) more dangerous
        let a = river(&[(1, "4p2z3z4z5z6z7z4m")]);
        let b = river(&[(1, "4m2z3z4z5z6z7z4p")]);
        let mut va = view(&a, "");
        va.riichi[1] = Some(7);
        let mut vb = view(&b, "");
        vb.riichi[1] = Some(7);
        assert!(d(&va, "2m") > d(&vb, "2m"));
        assert!(d(&va, "2p") < d(&vb, "2p"));
    }

    #[test]
    fn hand_values() {
        let r = riichi_table();
        let mut v = view(&r, "");
        v.riichi[1] = Some(nth_of(&r, 1, 5));
        let riichi = expected_hand_value(&v, 1);
        assert!((5_000.0..=6_000.0).contains(&riichi), "{riichi}");
        v.seat_winds = [28, 27, 30, 29];
        assert!((expected_hand_value(&v, 1) - 1.5 * riichi).abs() < 1e-6);
        let chi = [Meld {
            kind: MeldKind::Chow,
            tiles: parse_tiles("345m").unwrap(),
        }];
        let mut open = view(&r, "");
        open.melds[2] = &chi;
        let bare = expected_hand_value(&open, 2);
        assert!((2_000.0..=3_000.0).contains(&bare), "{bare}");
        let dora_chi = [Meld {
            kind: MeldKind::Chow,
            tiles: parse_tiles("305m").unwrap(),
        }];
        open.melds[2] = &dora_chi;
        assert!(expected_hand_value(&open, 2) > bare);
        let dragon = [Meld {
            kind: MeldKind::Pung,
            tiles: parse_tiles("555z").unwrap(),
        }];
        open.melds[2] = &dragon;
        assert!(expected_hand_value(&open, 2) > bare);
        assert_eq!(expected_hand_value(&open, 0), 0.0);
    }

    #[test]
    fn table_danger_combines_opponents() {
        let r = riichi_table();
        let mut v = view(&r, "");
        v.riichi[1] = Some(nth_of(&r, 1, 5));
        let t = table_danger(&v);
        assert!(t.opponents[0].is_none());
        let one = t.opponents[1].as_ref().unwrap();
        for kind in 0..KINDS as u8 {
            let i = kind as usize;
            let mut safe = 1.0;
            for read in t.opponents.iter().flatten() {
                safe *= 1.0 - read.tenpai * read.deal_in[i];
            }
            assert!((t.combined[i] - (1.0 - safe)).abs() < 1e-12);
            assert!((tile_danger(&v, kind) - t.combined[i]).abs() < 1e-12);
            assert!(t.combined[i] >= one.deal_in[i] - 1e-12);
            assert!((expected_loss(&v, kind) - t.expected_loss[i]).abs() < 1e-9);
        }
        // 9s: genbutsu for seat 1 (riichi), 5m dangerous
        assert!(t.combined[k("5m") as usize] > t.combined[k("9s") as usize]);
        let values = [0.0, 8_000.0, 0.0, 0.0];
        let only_riichi = expected_loss_with_values(&v, k("5m"), values);
        assert!((only_riichi - 8_000.0 * one.deal_in[k("5m") as usize]).abs() < 1e-9);
        // a dora tile costs more when hit
        let mut dora = v.clone();
        dora.dora = vec![k("5m")];
        let hit = expected_loss_with_values(&dora, k("5m"), values);
        let prob = deal_in_probability(&dora, 1, k("5m"));
        assert!((hit - 8_000.0 * prob * DORA_HIT_VALUE_FACTOR).abs() < 1e-9);
    }

    #[test]
    fn without_furiten_own_discards_are_only_safer() {
        // seat 1 discarded 5m; 5p is a plain tile in the same spot of another suit
        let r = river(&[(1, "5m1z2z3z"), (2, "5p")]);
        let mut v = view(&r, "");
        v.furiten = false;
        assert!(genbutsu_kinds(&v, 1).is_empty());
        let d = |name: &str| deal_in_probability(&v, 1, k(name));
        assert!(d("5m") > 0.0, "it may still win on its own discard");
        assert!(d("5m") < 0.5 * d("5s"), "{} vs {}", d("5m"), d("5s"));
        // 5p passed after seat 1's last discard: safer than 5s, not safe
        assert!(d("5p") > 0.0 && d("5p") < d("5s"));
        // suji of its discard: safer than non-suji, not dead
        assert!(d("2m") > DEAL_IN_FLOOR && d("2m") < d("2s"));
        // the same tiles are genbutsu with furiten
        v.furiten = true;
        assert_eq!(deal_in_probability(&v, 1, k("5m")), 0.0);
    }

    #[test]
    fn without_furiten_riichi_is_not_read_and_dead_honors_stay_safe() {
        let r = riichi_table();
        let mut v = view(&r, "");
        v.riichi[1] = Some(nth_of(&r, 1, 5));
        v.furiten = false;
        assert!(tenpai_probability(&v, 1) < 1.0);
        add_seen(&mut v, "6z6z6z");
        assert_eq!(deal_in_probability(&v, 1, k("6z")), 0.0, "all four seen");
        // seat 1 discarded 1z: only safer, with three seen less than with two
        assert!(deal_in_probability(&v, 1, k("1z")) > 0.0);
    }

    #[test]
    fn without_furiten_a_flush_opponent_makes_its_suit_dangerous() {
        let r = turns([
            "1z2z3z4z5z6z7z1z",
            "2s3s1m9p5p8m1p9m",
            "7z6z5z4z3z2z1z7z",
            "3z4z5z6z7z2z3z3z",
        ]);
        let pon = [
            Meld {
                kind: MeldKind::Pung,
                tiles: parse_tiles("777s").unwrap(),
            },
            Meld {
                kind: MeldKind::Chow,
                tiles: parse_tiles("123s").unwrap(),
            },
        ];
        let mut v = view(&r, "");
        v.furiten = false;
        v.melds[1] = &pon;
        assert_eq!(flush_suit(&v, 1), Some(2));
        let d = |name: &str| deal_in_probability(&v, 1, k(name));
        assert!(d("5s") > 2.0 * d("4p"), "{} vs {}", d("5s"), d("4p"));
        assert!(d("4m") < d("5s"));
        let mut plain = view(&r, "");
        plain.furiten = false;
        assert!(tenpai_probability(&v, 1) > tenpai_probability(&plain, 1));
    }

    #[test]
    fn a_full_table_evaluation_is_fast() {
        let r = turns([
            "1z9m9p1s2z3z7z5m6p2s4m",
            "9s4p2s8s1z2p3m6s7p1m",
            "7z6z5z4z3z2z1z8p3p2m",
            "3z4z5z6z7z2z3z4s6m7s",
        ]);
        let mut v = view(&r, "123m456p789s1122z");
        v.riichi[1] = Some(nth_of(&r, 1, 5));
        let n = 200;
        let start = std::time::Instant::now();
        let mut sink = 0.0;
        for _ in 0..n {
            sink += table_danger(&v).combined[4];
        }
        let per = start.elapsed() / n;
        assert!(sink > 0.0);
        // well under 50 µs optimised; this bound leaves room for debug builds on a busy box
        assert!(per.as_micros() < 2_000, "{per:?} per table");
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        fn arb_meld() -> impl Strategy<Value = Meld> {
            prop_oneof![
                (0u8..34).prop_map(|k| Meld {
                    kind: MeldKind::Pung,
                    tiles: vec![Tile::new(k); 3],
                }),
                (0u8..3, 0u8..7).prop_map(|(s, r)| Meld {
                    kind: MeldKind::Chow,
                    tiles: (0..3).map(|i| Tile::new(s * 9 + r + i)).collect(),
                }),
                (0u8..34).prop_map(|k| Meld {
                    kind: MeldKind::ConcealedKong,
                    tiles: vec![Tile::new(k); 4],
                }),
            ]
        }

        type Case = (
            u8,
            Vec<(u8, u8, bool)>,
            [Option<usize>; 4],
            [Vec<Meld>; 4],
            Vec<u8>,
            Vec<u8>,
        );

        fn arb_case() -> impl Strategy<Value = Case> {
            (
                0u8..4,
                proptest::collection::vec((0u8..4, 0u8..34, any::<bool>()), 0..80),
                proptest::array::uniform4(proptest::option::of(0usize..30)),
                proptest::array::uniform4(proptest::collection::vec(arb_meld(), 0..4)),
                proptest::collection::vec(0u8..34, 1..4),
                proptest::collection::vec(0u8..34, 0..14),
            )
        }

        proptest! {
            #![proptest_config(ProptestConfig {
                cases: 400,
                failure_persistence: None,
                ..Default::default()
            })]

            /// Genbutsu is 0 and strictly safer than every other tile, except honors with
            /// all four copies seen, which are 0 as well.
            #[test]
            fn genbutsu_is_strictly_safest(case in arb_case()) {
                let (me, steps, riichi_pick, melds, dora, hand) = case;
                let river: Vec<RiverTile> = steps
                    .iter()
                    .map(|&(seat, kind, tsumogiri)| RiverTile {
                        seat,
                        tile: Tile::new(kind),
                        tsumogiri,
                    })
                    .collect();
                // riichi on the n-th own discard of a seat, when it has that many
                let riichi: [Option<usize>; 4] = std::array::from_fn(|seat| {
                    riichi_pick[seat].and_then(|n| {
                        river
                            .iter()
                            .enumerate()
                            .filter(|(_, r)| r.seat as usize == seat)
                            .nth(n)
                            .map(|(i, _)| i)
                    })
                });
                let mut seen = TileCounts::default();
                for r in &river {
                    seen.add(r.tile.index);
                }
                for t in melds.iter().flatten().flat_map(|m| &m.tiles) {
                    seen.add(t.index);
                }
                for &h in &hand {
                    seen.add(h);
                }
                let v = TableView {
                    me,
                    river: &river,
                    riichi,
                    melds: std::array::from_fn(|s| melds[s].as_slice()),
                    seen,
                    dora,
                    seat_winds: [27, 28, 29, 30],
                    round_wind: 27,
                    tiles_left: 30,
                    furiten: true,
                };
                let table = table_danger(&v);
                for opp in 0..4u8 {
                    let t = danger_table(&v, opp);
                    let tenpai = tenpai_probability(&v, opp);
                    prop_assert!((0.0..=1.0).contains(&tenpai));
                    if opp == me {
                        prop_assert!(t.iter().all(|&p| p == 0.0));
                        prop_assert_eq!(tenpai, 0.0);
                        continue;
                    }
                    let g = genbutsu(&v, opp);
                    let safe_max = (0..KINDS).filter(|&i| g[i]).map(|i| t[i]).fold(0.0, f64::max);
                    for i in 0..KINDS {
                        prop_assert!((0.0..=1.0).contains(&t[i]));
                        let dead_honor = i >= 27 && seen.get(i as u8) >= 4;
                        if g[i] || dead_honor {
                            prop_assert_eq!(t[i], 0.0);
                        } else {
                            prop_assert!(t[i] >= DEAL_IN_FLOOR && t[i] > safe_max);
                        }
                    }
                    let read = table.opponents[opp as usize].as_ref().unwrap();
                    prop_assert_eq!(read.deal_in, t);
                    prop_assert!(expected_hand_value(&v, opp) > 0.0);
                }
                for i in 0..KINDS {
                    prop_assert!((0.0..=1.0).contains(&table.combined[i]));
                    prop_assert!(table.expected_loss[i] >= 0.0);
                }
                // Without furiten nothing is genbutsu: every tile but a dead honor can deal in.
                let off = TableView { furiten: false, ..v.clone() };
                for opp in (0..4u8).filter(|&o| o != me) {
                    prop_assert!(genbutsu(&off, opp).iter().all(|&g| !g));
                    let t = danger_table(&off, opp);
                    for (i, &p) in t.iter().enumerate() {
                        let dead_honor = i >= 27 && seen.get(i as u8) >= 4;
                        if dead_honor {
                            prop_assert_eq!(p, 0.0);
                        } else {
                            prop_assert!((DEAL_IN_FLOOR..=DEAL_IN_CAP).contains(&p));
                        }
                    }
                }
            }
        }
    }
}
