//! The model's tuning constants. Deal-in shares are "given tenpai", calibrated against a
//! riichi hand.

/// Share of one live ryanmen side: two sides (non-suji 4-5-6) plus the small shapes give
/// about 12.5 %, the commonly quoted rate for a non-suji middle tile against riichi.
pub(super) const RYANMEN: f64 = 0.045;
/// Kanchan share: the difference between suji 2/8 (about 3–3.5 %) and suji 1/9.
pub(super) const KANCHAN: f64 = 0.017;
/// Penchan share (3 via 1-2, 7 via 8-9): makes suji 3/7 (about 4.5–5 %) the worst suji.
pub(super) const PENCHAN: f64 = 0.012;
/// Shanpon + tanki share of a suited tile: a suji terminal deals in a little under 2 %.
pub(super) const PAIR_WAIT: f64 = 0.018;
/// Honor tiles by copies seen (0..=4): live honors are about as dangerous as a non-suji
/// terminal, two seen about 2 %, three seen leaves only a tanki, four seen cannot deal in.
pub(super) const HONOR_BY_SEEN: [f64; 5] = [0.065, 0.042, 0.022, 0.005, 0.0];
/// Pair-wait factor of a suited tile by its own copies seen (0..=4): the opponent needs two
/// hidden copies for a shanpon, one for a tanki.
pub(super) const PAIR_BY_SEEN: [f64; 5] = [1.0, 1.0, 0.6, 0.25, 0.0];
/// A shape tile with two copies seen: slightly fewer ways to hold it.
pub(super) const TWO_SEEN_SHAPE: f64 = 0.85;
/// A shape tile with three copies seen (one-chance): the opponent must hold the last one.
pub(super) const ONE_CHANCE: f64 = 0.35;
/// Smallest deal-in probability of a tile that is not genbutsu and not a dead honor: waits
/// we do not model (kokushi, odd multi-waits, misread furiten) never make a tile certain.
pub const DEAL_IN_FLOOR: f64 = 0.002;
/// No single tile is certain to deal in; keeps the combined risk below 1.
pub(super) const DEAL_IN_CAP: f64 = 0.6;
/// Without furiten: an opponent's own discard, or a tile it let pass since its last discard.
/// It gave the kind up (or did not want it just then), so the kind rarely completes its
/// hand, but it may still win on it later, so the tile stays well above genbutsu's 0.
pub const NO_FURITEN_PASSED_FACTOR: f64 = 0.35;
/// Without furiten: a ryanmen side whose other wait the opponent passed. A hand seldom
/// throws one end of the shape it keeps, but it may have built the shape afterwards.
pub const NO_FURITEN_SUJI_FACTOR: f64 = 0.5;

/// Own discards that count as "early" (the first row of the river).
pub(super) const EARLY_DISCARDS: usize = 6;
/// Per early outside discard (1/2/8/9) in a suit, up to two: the hand kept that suit's
/// middle tiles, so its 3..=7 are more likely in the wait.
pub(super) const EARLY_OUTSIDE_STEP: f64 = 0.12;
/// Dora are kept and built around, so they sit in waits more often.
pub(super) const DORA_FACTOR: f64 = 1.3;
/// Tiles one or two away from a suited dora: shapes built around the dora wait on them.
pub(super) const DORA_NEIGHBOUR_FACTOR: f64 = 1.12;
/// Neighbours of a hand-cut riichi tile (matagi-suji): the tile often left a shape that
/// straddles it (cutting 4 from 3-4-4 or 4-4-5 leaves 2-5 or 3-6 waits).
pub(super) const RIICHI_MATAGI_FACTOR: f64 = 1.25;
/// Suji of a hand-cut riichi tile: looks safe, but suji traps and kanchan remain.
pub(super) const RIICHI_SUJI_FACTOR: f64 = 1.1;
/// A flush-looking open hand waits in its suit.
pub(super) const FLUSH_SUIT_FACTOR: f64 = 2.2;
/// ... and almost never in the other suits.
pub(super) const FLUSH_OTHER_SUIT_FACTOR: f64 = 0.1;
/// ... while honors fit a half flush.
pub(super) const FLUSH_HONOR_FACTOR: f64 = 1.3;
/// An all-pungs-looking open hand waits on pairs / tanki, not on sequences.
pub(super) const TOITOI_SEQUENCE_FACTOR: f64 = 0.3;
pub(super) const TOITOI_PAIR_FACTOR: f64 = 2.5;

/// Silent-hand tenpai logit: about 1 % on turn 2, 5 % on turn 6, 20 % on turn 12 for a
/// closed hand (most closed tenpai hands declare riichi, so silence is weak evidence).
pub(super) const TENPAI_LOGIT_BASE: f64 = -4.9;
pub(super) const TENPAI_LOGIT_PER_TURN: f64 = 0.3;
/// Turns beyond this add no more evidence.
pub(super) const TENPAI_TURN_CAP: f64 = 18.0;
/// Each meld is a finished block: one meld on turn 6 about 12 %, two about 30 %, three
/// about 55 %, rising to 45 / 70 / 87 % on turn 12.
pub(super) const TENPAI_LOGIT_PER_MELD: f64 = 1.1;
/// From this many own discards on, tsumogiri streaks and hand-cut middle tiles are tells.
pub(super) const LATE_TURN: usize = 8;
/// Per tsumogiri beyond the first in the trailing streak (up to three): a hand that keeps
/// every draw's neighbour out is usually waiting.
pub(super) const TSUMOGIRI_STREAK_LOGIT: f64 = 0.3;
/// Per hand-cut 3..=7 among the last three discards (up to two): late middle tiles leave a
/// hand that has finished its shapes.
pub(super) const LATE_MIDDLE_LOGIT: f64 = 0.35;
/// Per dora tile shown in melds (up to three): such hands push and are built to win.
pub(super) const CALLED_DORA_LOGIT: f64 = 0.25;
/// A yakuhai pung shows a yaku: the open hand is real, not a bluff.
pub(super) const YAKUHAI_LOGIT: f64 = 0.3;
/// A flush-looking hand has been collecting one suit for a while.
pub(super) const FLUSH_LOGIT: f64 = 0.4;
/// A silent hand is never certain.
pub(super) const SILENT_TENPAI_CAP: f64 = 0.95;

/// Flush read: at least this many own discards ...
pub(super) const FLUSH_MIN_DISCARDS: usize = 4;
/// ... none of the suit among the last this many ...
pub(super) const FLUSH_LATE_WINDOW: usize = 6;
/// ... and at most this many of the suit overall (early ones from before the plan) ...
pub(super) const FLUSH_MAX_SUIT_DISCARDS: usize = 2;
/// ... while at least this many are of the other two suits (an all-honor river shows
/// nothing about suits).
pub(super) const FLUSH_MIN_OTHER_SUIT_DISCARDS: usize = 3;

/// Expected han of a riichi hand: riichi + ura / ippatsu / tsumo + hidden dora + other yaku.
pub(super) const RIICHI_HAN: f64 = 3.3;
/// Expected han of a bare open hand: its yaku + about one hidden dora or second yaku.
pub(super) const OPEN_HAN: f64 = 2.0;
/// Expected han of a silent closed hand: hands stay silent when they already have value.
pub(super) const DAMA_HAN: f64 = 2.8;
/// A shown yakuhai pung confirms a yaku (the first one replaces the unknown yaku).
pub(super) const YAKUHAI_CONFIRMED_HAN: f64 = 0.3;
/// An open flush (half flush 2 han, full flush 5) adds over a bare yaku.
pub(super) const FLUSH_HAN: f64 = 1.5;
/// Three pungs shown in an open hand: toitoi is likely (2 han).
pub(super) const TOITOI_HAN: f64 = 1.0;
/// The dealer is paid 1.5 times.
pub(super) const DEALER_FACTOR: f64 = 1.5;
/// Dealing in with a dora adds a han to the hand it completes (roughly ×1.3 in points).
pub(super) const DORA_HIT_VALUE_FACTOR: f64 = 1.3;
/// Points of a non-dealer ron by han at typical 30–40 fu (mangan at 4–5, haneman 6–7, ...).
pub(super) const POINTS_BY_HAN: [(f64, f64); 9] = [
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

pub(super) const EAST: u8 = 27;
