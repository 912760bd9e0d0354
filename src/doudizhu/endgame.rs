//! Dou Dizhu endgame solver: with every hand known, can the side to move force
//! going out first?
//!
//! # Positions
//!
//! Two or three seats take part. With three, the landlord plays against both
//! peasants (either peasant going out wins for both). With two, the landlord
//! duels one peasant (two peasants without a landlord is not a position). A
//! seat is *present* when the position gives it a hand; absent seats are
//! skipped in the turn order landlord → landlord_down → landlord_up.
//!
//! The standing play is `last = (seat, combo)`: the play to beat, made by
//! `seat`. Everyone between that seat and `to_move` is taken to have passed.
//! When a pass hands the turn to the seat whose play stands, that seat leads
//! anew (with two seats every pass does so).
//!
//! # Search
//!
//! An AND/OR search over win/loss for the team of the player to move: a node
//! is won when one move wins (a move to a teammate's turn keeps the value, a
//! move to an opponent's turn flips it). Results are exact booleans, so every
//! finished node is stored in a per-solve transposition table. Large
//! subtrees are also written to the shared [`TranspositionCache`] (keyed by
//! the full position), so successive positions of one endgame hit it.
//!
//! The per-solve table is keyed by the position up to renaming of the chain
//! ranks ([`canonical_key`]): positions that differ only in which of several
//! interchangeable cards were played share one entry, which cuts the nodes of
//! a 13-card duel 3–4×. The key is exact (no hash signatures) and fits in
//! 123 bits, so a slot is 16 bytes, four to a cache line. The probe is still
//! a main cost (a cache and TLB miss; the table asks for huge pages), so the
//! buckets of the next moves' positions are prefetched while the current
//! move is searched, and their keys are reused by the child's probe.
//!
//! Every hand is a subset of its root hand, so the three hands also pack into
//! one ≤ 54-bit mixed-radix `code` (per seat and rank just enough bits for
//! the copies held at the root; playing cards subtracts their code), which
//! indexes the per-seat [`min_plays`] memo.
//!
//! Speed comes from
//! * an exact out-check at every node (the whole hand is one legal play;
//!   only tried when the memoised [`min_plays`] is 1);
//! * the killer reply of the ply tried before any move is generated (it wins
//!   about two times in three where the node is won);
//! * a seat that cannot beat the standing play passes at once, without a
//!   table entry;
//! * move ordering: the killer reply of the ply, then moves by the number of
//!   plays left afterwards ([`min_plays`], memoised per seat in an array
//!   indexed by the seat's part of the code) with a bonus for
//!   plays no opponent can beat (the mover keeps the lead, so chains of
//!   unbeatable plays followed by a last play are found at once), lower cards
//!   and cheaper kickers first; a peasant following its partner passes first;
//! * kicker variants of one body sit next to each other, and the first that
//!   wins cuts the rest.
//!
//! The stop is polled every 1,024 nodes; an interrupted search reports
//! [`Outcome::Unknown`] (unless the root move list already proved a win) and
//! never stores partial results.

use std::fmt;
use std::time::{Duration, Instant};

use crate::cache::{CacheKey, KEY_WORDS, TranspositionCache};
use crate::doudizhu::{
    Combo, ComboType, Hand, Rules, beats, classify, legal_moves_into, min_plays,
};
use crate::memory::Reservation;
use crate::stop::Stop;

// ------------------------------------------------------------------ seats

/// A seat at the table. Turn order: landlord → landlord_down → landlord_up → landlord.
#[repr(u8)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    Landlord = 0,
    /// The peasant who plays right after the landlord.
    LandlordDown = 1,
    /// The peasant who plays right before the landlord.
    LandlordUp = 2,
}

impl Seat {
    pub const ALL: [Seat; 3] = [Seat::Landlord, Seat::LandlordDown, Seat::LandlordUp];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Option<Seat> {
        if i < 3 { Some(Seat::ALL[i]) } else { None }
    }

    /// The next seat in the full three-seat order (absent seats are not skipped
    /// here; see [`Position::next_seat`]).
    pub const fn next(self) -> Seat {
        Seat::ALL[(self as usize + 1) % 3]
    }

    pub const fn is_landlord(self) -> bool {
        matches!(self, Seat::Landlord)
    }

    /// Whether both seats play for the same side.
    pub const fn same_team(self, other: Seat) -> bool {
        self.is_landlord() == other.is_landlord()
    }

    /// `"landlord"`, `"landlord_down"` or `"landlord_up"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Seat::Landlord => "landlord",
            Seat::LandlordDown => "landlord_down",
            Seat::LandlordUp => "landlord_up",
        }
    }

    /// Inverse of [`Seat::as_str`].
    pub fn from_name(name: &str) -> Option<Seat> {
        Seat::ALL.into_iter().find(|s| s.as_str() == name)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Seat {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<Seat, PositionError> {
        Seat::from_name(s).ok_or_else(|| PositionError::UnknownSeat(s.to_string()))
    }
}

// --------------------------------------------------------------- position

/// Most cards a hand may hold.
pub const MAX_HAND: usize = 20;

/// An endgame position with every hand known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Hands by [`Seat::index`]; [`Hand::EMPTY`] for an absent seat.
    pub hands: [Hand; 3],
    /// Which seats take part (two or three of them, the landlord always).
    pub present: [bool; 3],
    pub to_move: Seat,
    /// The standing play and the seat that made it; `None`: `to_move` leads.
    pub last: Option<(Seat, Combo)>,
    pub rules: Rules,
}

/// Why a [`Position`] cannot be solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("unknown seat {0:?} (expected landlord, landlord_down or landlord_up)")]
    UnknownSeat(String),
    #[error("the landlord must take part")]
    NoLandlord,
    #[error("{0} seat(s) take part; an endgame needs two or three")]
    SeatCount(usize),
    #[error("{seat} is named as {role} but has no hand in this position")]
    AbsentSeat { seat: Seat, role: &'static str },
    #[error("{0} takes part with an empty hand")]
    EmptyHand(Seat),
    #[error("{seat} holds {count} cards; at most {MAX_HAND} are allowed")]
    TooManyCards { seat: Seat, count: usize },
    #[error("the standing play was made by {0}, the seat to move: it would lead instead")]
    LastIsMover(Seat),
    #[error("the standing play is a pass; leave `last` out instead")]
    LastIsPass,
    #[error("the hands and the standing play hold more copies of {0} than a deck has")]
    TooManyCopies(char),
}

/// What a move leads to (see [`Position::play`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Played {
    /// The game goes on.
    Next(Position),
    /// The mover went out: its side won.
    Out(Seat),
}

impl Position {
    /// A position from optional hands (`None` = the seat is absent).
    pub fn new(
        hands: [Option<Hand>; 3],
        to_move: Seat,
        last: Option<(Seat, Combo)>,
        rules: Rules,
    ) -> Position {
        Position {
            hands: hands.map(|h| h.unwrap_or(Hand::EMPTY)),
            present: hands.map(|h| h.is_some()),
            to_move,
            last,
            rules,
        }
    }

    /// The seats taking part, in turn order from the landlord.
    pub fn seats(&self) -> impl Iterator<Item = Seat> + '_ {
        Seat::ALL.into_iter().filter(|s| self.present[s.index()])
    }

    /// The next present seat after `seat` in turn order.
    pub fn next_seat(&self, seat: Seat) -> Seat {
        let mut s = seat.next();
        while !self.present[s.index()] && s != seat {
            s = s.next();
        }
        s
    }

    pub fn hand(&self, seat: Seat) -> Hand {
        self.hands[seat.index()]
    }

    /// Checks what the solver relies on: the landlord and one or two peasants
    /// take part, each with 1–20 cards; `to_move` and `last.seat` take part and
    /// differ; the standing play is not a pass; no rank has more copies than
    /// the deck across the hands and the standing play.
    pub fn validate(&self) -> Result<(), PositionError> {
        let n = self.present.iter().filter(|&&p| p).count();
        if !self.present[0] {
            return Err(PositionError::NoLandlord);
        }
        if !(2..=3).contains(&n) {
            return Err(PositionError::SeatCount(n));
        }
        for s in self.seats() {
            let h = self.hands[s.index()];
            if h.is_empty() {
                return Err(PositionError::EmptyHand(s));
            }
            if h.len() > MAX_HAND {
                return Err(PositionError::TooManyCards {
                    seat: s,
                    count: h.len(),
                });
            }
        }
        if !self.present[self.to_move.index()] {
            return Err(PositionError::AbsentSeat {
                seat: self.to_move,
                role: "to_move",
            });
        }
        let mut total = [0u32; 15];
        for s in self.seats() {
            for (t, c) in total.iter_mut().zip(self.hands[s.index()].counts()) {
                *t += u32::from(c);
            }
        }
        if let Some((seat, combo)) = &self.last {
            if !self.present[seat.index()] {
                return Err(PositionError::AbsentSeat {
                    seat: *seat,
                    role: "last.seat",
                });
            }
            if *seat == self.to_move {
                return Err(PositionError::LastIsMover(*seat));
            }
            if combo.is_pass() {
                return Err(PositionError::LastIsPass);
            }
            for (t, c) in total.iter_mut().zip(combo.cards.counts()) {
                *t += u32::from(c);
            }
        }
        for (i, &t) in total.iter().enumerate() {
            let rank = crate::doudizhu::Rank::ALL[i];
            if t > rank.deck_count() {
                return Err(PositionError::TooManyCopies(rank.to_char()));
            }
        }
        Ok(())
    }

    /// The mover's legal moves; the pass is included (last) when following.
    pub fn legal_moves(&self) -> Vec<Combo> {
        let mut out = Vec::new();
        let last = self.last.map(|(_, c)| c);
        legal_moves_into(
            &mut out,
            self.hand(self.to_move),
            last.as_ref(),
            &self.rules,
        );
        if last.is_some() {
            out.push(Combo::pass());
        }
        out
    }

    /// Plays `mv` for the seat to move: `None` when it is not legal here.
    pub fn play(&self, mv: &Combo) -> Option<Played> {
        let seat = self.to_move;
        let hand = self.hand(seat);
        let mut next = *self;
        next.to_move = self.next_seat(seat);
        if mv.is_pass() {
            let (by, _) = self.last?;
            if by == next.to_move {
                next.last = None;
            }
            return Some(Played::Next(next));
        }
        if !hand.contains(mv.cards) {
            return None;
        }
        // The move must be a reading of its cards under these rules.
        if classify(mv.cards, &self.rules).is_none_or(|c| c.kind != mv.kind) {
            return None;
        }
        if let Some((_, standing)) = &self.last
            && !beats(mv, standing)
        {
            return None;
        }
        let rest = hand.sub(mv.cards);
        if rest.is_empty() {
            return Some(Played::Out(seat));
        }
        next.hands[seat.index()] = rest;
        next.last = Some((seat, *mv));
        Some(Played::Next(next))
    }
}

// --------------------------------------------------------------- solution

/// The result for the side of the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move can force going out first.
    Win,
    /// The other side can force going out first.
    Loss,
    /// The budget ran out before the answer was known.
    Unknown,
}

impl Outcome {
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            Outcome::Unknown => "unknown",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What [`solve_endgame`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    pub outcome: Outcome,
    /// Win: a winning move (the one `pv` starts with). Loss: the move whose
    /// refutation took the most search (a proxy for "survives longest"), or
    /// the move stored with a cached answer. Unknown: the first move, in the
    /// solver's order, not yet proven to lose. `None` only for an invalid
    /// position.
    pub best_move: Option<Combo>,
    /// Every root move that keeps the win (empty unless `outcome` is Win).
    /// Only complete when `complete` is.
    pub winning_moves: Vec<Combo>,
    /// A principal line from the root to the end of the game (winner's moves
    /// win, the loser's follow the solver's move order). Empty when Unknown;
    /// possibly cut short when `complete` is false.
    pub pv: Vec<(Seat, Combo)>,
    /// Nodes searched by this call.
    pub nodes: u64,
    /// The outcome is exact, `winning_moves` lists every winning move and `pv`
    /// reaches the end of the game.
    pub complete: bool,
    /// The root's outcome came from the shared cache.
    pub cached: bool,
    pub elapsed: Duration,
}

/// Tag in word 0 of this engine's shared-cache keys.
pub const CACHE_TAG: u64 = 0xDD21_E6D6_A3E0_0001;

/// The shared-cache key of a position: word 0 is [`CACHE_TAG`], words 1–3 the
/// three hands (empty for an absent seat), word 4 the mover, the standing
/// play's type, main rank, length and seat, the rule flags and the present
/// seats. The standing play's kickers are left out: they never change what
/// may follow.
pub fn cache_key(pos: &Position) -> CacheKey {
    let present =
        pos.present[0] as u64 | (pos.present[1] as u64) << 1 | (pos.present[2] as u64) << 2;
    let last = pos.last.map(|(s, c)| (s.index(), c));
    shared_key(
        &pos.hands,
        pos.to_move.index(),
        last,
        rules_bits(&pos.rules),
        present,
    )
}

fn rules_bits(r: &Rules) -> u64 {
    r.trio_solo as u64
        | (r.trio_pair as u64) << 1
        | (r.four_two_solo as u64) << 2
        | (r.four_two_pair as u64) << 3
}

/// Mover, standing seat and the standing play's comparison key in 16 bits.
#[inline]
fn node_meta(mover: usize, last: Option<(usize, Combo)>) -> u32 {
    let mut m = mover as u32;
    if let Some((s, c)) = last {
        m |= (s as u32 + 1) << 2
            | (c.kind as u32) << 4
            | (c.rank.index() as u32) << 8
            | (c.length as u32) << 12;
    }
    m
}

/// Spreads the low 8 nibbles of `x` into the low nibbles of 8 bytes.
#[inline]
fn nibbles_to_bytes(x: u64) -> u64 {
    let mut t = x & 0xFFFF_FFFF;
    t = (t | t << 16) & 0x0000_FFFF_0000_FFFF;
    t = (t | t << 8) & 0x00FF_00FF_00FF_00FF;
    (t | t << 4) & 0x0F0F_0F0F_0F0F_0F0F
}

/// Spreads the low 8 bits of `x` into bit 0 of 8 nibbles.
#[inline]
fn bits_to_nibbles(x: u64) -> u64 {
    let mut t = x & 0xFF;
    t = (t | t << 12) & 0x000F_000F;
    t = (t | t << 6) & 0x0303_0303;
    (t | t << 3) & 0x1111_1111
}

/// Links between chain ranks r and r + 1 (bit r) that a chain inside `h`
/// could use: every solo chain is part of a run of 5 ranks held, every pair
/// chain of 3 ranks held twice, every trio chain (plane) of 2 ranks held
/// three times. (A plane's wings must not be a trio next to it, which also
/// only involves two adjacent ranks held three times.)
#[inline]
fn chain_links(h: Hand) -> u16 {
    let m1 = h.rank_mask() & CHAIN_RANKS;
    let m2 = h.ranks_with_at_least(2) & CHAIN_RANKS;
    let m3 = h.ranks_with_at_least(3) & CHAIN_RANKS;
    let w5 = m1 & m1 >> 1 & m1 >> 2 & m1 >> 3 & m1 >> 4;
    let w3 = m2 & m2 >> 1 & m2 >> 2;
    let w2 = m3 & m3 >> 1;
    w5 | w5 << 1 | w5 << 2 | w5 << 3 | w3 | w3 << 1 | w2
}

/// Ranks 3 … A (the ranks chains are made of).
const CHAIN_RANKS: u16 = 0x0FFF;

/// The per-solve table's key: the position up to renaming the chain ranks.
///
/// Which ranks 3 … A the cards are doesn't matter, only their order and
/// which of them are adjacent *and* could be used by a chain: two positions
/// whose chain ranks that hold cards map onto each other in order, with the
/// same owners and counts per rank and the same usable links, have the same
/// moves up to that renaming (counts, order, chain adjacency, wing rules
/// are all kept; 2 and the jokers are never renamed), so the same value.
/// Ranks emptied by play thus stop splitting positions apart: after solo 4
/// or solo 5 from a hand 45 that nobody else can split, the positions
/// coincide.
///
/// Bits from the bottom: the standing play and mover (16, as [`node_meta`]
/// with the standing rank renamed), who holds each joker (2 + 2), the counts
/// of 2 as `c0 + 5 c1 + 25 c2` (7), then one byte per chain rank holding
/// cards, from the lowest: its counts likewise (never 0) and in bit 7 its
/// usable link to the next rank. At most 16 + 4 + 7 + 96 = 123 bits; the
/// bytes being non-zero, their number is implied, so distinct forms never
/// collide.
fn canonical_key(hands: &[Hand; 3], mover: usize, last: Option<(usize, Combo)>) -> u128 {
    let b = [hands[0].bits(), hands[1].bits(), hands[2].bits()];
    let held = (hands[0].rank_mask() | hands[1].rank_mask() | hands[2].rank_mask()) & CHAIN_RANKS;
    let links = (chain_links(hands[0]) | chain_links(hands[1]) | chain_links(hands[2])) as u64;
    // Per chain rank a byte c0 + 5 c1 + 25 c2 (< 125: no carries between
    // bytes), ranks 3 … T in `lo`, J … A in `hi`.
    let lanes = |shift: u32| {
        nibbles_to_bytes(b[0] >> shift)
            + 5 * nibbles_to_bytes(b[1] >> shift)
            + 25 * nibbles_to_bytes(b[2] >> shift)
    };
    let lo = lanes(0) | nibbles_to_bytes(bits_to_nibbles(links)) << 7;
    let hi = (lanes(32) | nibbles_to_bytes(bits_to_nibbles(links >> 8)) << 7) & 0xFFFF_FFFF;
    // Drop the bytes of empty ranks: below the lowest held one by a shift,
    // between held ones (highest first) by closing each gap.
    let low = held.trailing_zeros();
    let mut chain = if held == 0 {
        0
    } else {
        (lo as u128 | (hi as u128) << 64) >> (8 * low)
    };
    let span = (held >> low.min(15)) as u32;
    let mut gaps = !span & (1u32 << (32 - span.leading_zeros())).wrapping_sub(1);
    while gaps != 0 {
        let g = 31 - gaps.leading_zeros();
        let below = (1u128 << (8 * g)) - 1;
        chain = chain & below | (chain >> 8) & !below;
        gaps &= !(1 << g);
    }
    let count = |r: u32| {
        (b[0] >> (4 * r) & 0xF) + 5 * (b[1] >> (4 * r) & 0xF) + 25 * (b[2] >> (4 * r) & 0xF)
    };
    let owner = |r: u32| {
        if count(r) == 0 {
            0
        } else {
            1 + (b[1] >> (4 * r) & 1) + 2 * (b[2] >> (4 * r) & 1)
        }
    };
    let k = held.count_ones();
    let mut meta = mover as u64;
    if let Some((s, c)) = last {
        // The standing rank becomes the number of held ranks it is at least
        // as high as: a held rank beats it exactly when its new index is at
        // least that.
        let r = c.rank.index() as u32;
        let renamed = if r < 12 {
            (held & ((2u16 << r) - 1)).count_ones()
        } else {
            k + r - 11
        };
        meta |= (s as u64 + 1) << 2
            | (c.kind as u64) << 4
            | (renamed as u64) << 8
            | (c.length as u64) << 12;
    }
    let fixed = count(12) << 20 | owner(13) << 18 | owner(14) << 16 | meta;
    chain << 27 | fixed as u128
}

fn shared_key(
    hands: &[Hand; 3],
    mover: usize,
    last: Option<(usize, Combo)>,
    rules: u64,
    present: u64,
) -> CacheKey {
    let mut w = [0u64; KEY_WORDS];
    w[0] = CACHE_TAG;
    w[1] = hands[0].bits();
    w[2] = hands[1].bits();
    w[3] = hands[2].bits();
    w[4] = node_meta(mover, last) as u64 | rules << 16 | present << 20;
    CacheKey(w)
}

/// Shared-cache values: bit 0 = the mover's side wins; bits 1.. = the cards of
/// a suggested move (a winning one for a win), 0 when none is known.
fn encode_value(win: bool, mv: Option<&Combo>) -> u64 {
    win as u64 | mv.map_or(0, |m| m.cards.bits() << 1)
}

fn decode_value(v: u64, rules: &Rules) -> (bool, Option<Combo>) {
    let cards = Hand::from_bits(v >> 1);
    let mv = if cards.is_empty() {
        None
    } else {
        classify(cards, rules)
    };
    (v & 1 == 1, mv)
}

/// Solves `pos` for the side of `pos.to_move` within `stop`, consulting and
/// filling `cache` when given. An invalid position (see
/// [`Position::validate`]) yields `Unknown` with no move.
pub fn solve_endgame(pos: &Position, stop: &Stop, cache: Option<&TranspositionCache>) -> Solution {
    let started = Instant::now();
    if pos.validate().is_err() {
        return Solution {
            outcome: Outcome::Unknown,
            best_move: None,
            winning_moves: Vec::new(),
            pv: Vec::new(),
            nodes: 0,
            complete: false,
            cached: false,
            elapsed: started.elapsed(),
        };
    }
    let mut s = Solver::new(pos, stop, cache);
    let root = Node {
        hands: pos.hands,
        code: s.code_of(&pos.hands),
        mover: pos.to_move.index(),
        last: pos.last.map(|(seat, c)| (seat.index(), c)),
        key: 0,
    };
    let mut sol = s.solve_root(&root);
    sol.elapsed = started.elapsed();
    sol
}

// ----------------------------------------------------------------- search

#[derive(Debug, Clone, Copy)]
struct Node {
    hands: [Hand; 3],
    /// The hands packed relative to the root's (see [`Solver::weights`]).
    code: u64,
    mover: usize,
    last: Option<(usize, Combo)>,
    /// The [`canonical_key`] when already computed (for the prefetch), else 0.
    key: u128,
}

#[inline]
fn landlord_side(seat: usize) -> bool {
    seat == 0
}

/// Shared-cache lookups happen on local misses at plies up to this.
const SHARED_LOOKUP_PLY: usize = 8;
/// Results whose subtree took at least this many nodes go to the shared cache.
const SHARED_STORE_WORK: u64 = 64;
/// … and every result up to this ply (the positions a game reaches next).
const SHARED_STORE_PLY: usize = 3;
/// Node allowance per root move in the first round (then ×4 per round).
const ROOT_FIRST_ALLOWANCE: u64 = 2048;
/// Within this of the deadline the local table stops growing.
const FREEZE_BEFORE_DEADLINE: Duration = Duration::from_millis(150);
/// Tables at least this large are freed on a helper thread (unmapping
/// hundreds of MiB takes milliseconds the caller should not wait for).
const FREE_IN_BACKGROUND_SLOTS: usize = 1 << 20;
/// Table buckets of the next moves' positions loaded ahead of their search.
const PREFETCH_AHEAD: usize = 2;
/// Nodes between polls of the stop.
const POLL_MASK: u64 = 1023;
/// Local table bound: 2^24 slots of 16 bytes = 256 MiB (doubled in place).
const MAX_TABLE_SLOTS: usize = 1 << 24;

struct Solver<'a> {
    rules: Rules,
    rules_bits: u64,
    present_bits: u64,
    /// Next present seat after each seat.
    next: [usize; 3],
    stop: &'a Stop,
    shared: Option<&'a TranspositionCache>,
    table: Table,
    /// Per seat and rank, the weight of one card in a node's `code`: each
    /// seat's hand is a mixed-radix number with just enough bits per rank for
    /// the copies it held at the root (1 bit for one copy, 2 for two or three,
    /// 3 for four), so all hands fit in ≤ 54 bits and playing cards subtracts
    /// their code.
    weights: [[u64; 15]; 3],
    /// Where each seat's field starts in the code, and its width.
    field: [(u32, u32); 3],
    /// `min_plays` per seat, indexed by the seat's field (`u8::MAX`: unknown).
    plays: [Vec<u8>; 3],
    nodes: u64,
    aborted: bool,
    /// Move lists per ply (reused).
    bufs: Vec<Vec<(u64, Combo)>>,
    generated: Vec<Combo>,
    scratch: Vec<Combo>,
    killers: Vec<Option<Combo>>,
    /// Node count past which the current root move's search gives up.
    limit: u64,
}

impl<'a> Solver<'a> {
    fn new(pos: &Position, stop: &'a Stop, shared: Option<&'a TranspositionCache>) -> Solver<'a> {
        let mut next = [0; 3];
        for s in Seat::ALL {
            next[s.index()] = pos.next_seat(s).index();
        }
        let mut weights = [[0u64; 15]; 3];
        let mut field = [(0u32, 0u32); 3];
        let mut off = 0u32;
        for (s, h) in pos.hands.iter().enumerate() {
            let start = off;
            for (r, w) in weights[s].iter_mut().enumerate() {
                *w = 1 << off;
                off += match h.count_at(r) {
                    0 => 0,
                    1 => 1,
                    2 | 3 => 2,
                    _ => 3,
                };
            }
            field[s] = (start, off - start);
        }
        debug_assert!(off <= 64, "at most 54 cards take part");
        let plays = field.map(|(_, bits)| vec![u8::MAX; 1 << bits]);
        Solver {
            rules: pos.rules,
            rules_bits: rules_bits(&pos.rules),
            present_bits: pos.present[0] as u64
                | (pos.present[1] as u64) << 1
                | (pos.present[2] as u64) << 2,
            next,
            stop,
            shared,
            table: Table::new(1 << 14, stop),
            weights,
            field,
            plays,
            nodes: 0,
            aborted: false,
            bufs: Vec::new(),
            generated: Vec::new(),
            scratch: Vec::new(),
            killers: Vec::new(),
            limit: u64::MAX,
        }
    }

    /// The code of `h` held by seat `s`.
    #[inline]
    fn encode(&self, s: usize, h: Hand) -> u64 {
        let w = &self.weights[s];
        let mut b = h.bits();
        let mut code = 0;
        while b != 0 {
            let i = (b.trailing_zeros() / 4) as usize;
            code += ((b >> (4 * i)) & 0xF) * w[i];
            b &= !(0xF << (4 * i));
        }
        code
    }

    fn code_of(&self, hands: &[Hand; 3]) -> u64 {
        (0..3).map(|s| self.encode(s, hands[s])).sum()
    }

    /// `min_plays` of hand `h` of seat `s`, whose code (of all hands) is `code`.
    #[inline]
    fn min_plays(&mut self, s: usize, h: Hand, code: u64) -> u32 {
        let (start, bits) = self.field[s];
        let i = ((code >> start) & ((1u64 << bits) - 1)) as usize;
        let p = self.plays[s][i];
        if p != u8::MAX {
            return p as u32;
        }
        let p = min_plays(h, &self.rules) as u8;
        self.plays[s][i] = p;
        p as u32
    }

    /// Whether `hand` holds a play that beats `c`.
    fn can_beat(&mut self, hand: Hand, c: &Combo) -> bool {
        if hand.is_empty() || c.kind == ComboType::Rocket {
            return false;
        }
        if hand.bits() >> 52 == 0x11 {
            return true; // the rocket
        }
        let m4 = hand.ranks_with_at_least(4);
        let above = |mask: u16, r: usize| (mask as u32) >> (r + 1) != 0;
        let r = c.rank.index();
        if c.kind == ComboType::Bomb {
            return above(m4, r);
        }
        if m4 != 0 {
            return true;
        }
        let run = |mask: u16, len: usize| {
            let m = mask & 0x0FFF;
            let mut acc = m;
            for i in 1..len {
                acc &= m >> i;
            }
            above(acc, r)
        };
        match c.kind {
            ComboType::Solo => above(hand.rank_mask(), r),
            ComboType::Pair => above(hand.ranks_with_at_least(2), r),
            ComboType::Trio => above(hand.ranks_with_at_least(3), r),
            ComboType::SoloChain => run(hand.rank_mask(), c.length as usize),
            ComboType::PairChain => run(hand.ranks_with_at_least(2), c.length as usize),
            ComboType::TrioChain => run(hand.ranks_with_at_least(3), c.length as usize),
            // No four here, so a trio has exactly three cards.
            ComboType::TrioSolo => {
                self.rules.trio_solo && above(hand.ranks_with_at_least(3), r) && hand.len() > 3
            }
            ComboType::TrioPair => {
                if !self.rules.trio_pair {
                    return false;
                }
                let m2 = hand.ranks_with_at_least(2) & 0x1FFF;
                let mut m3 = (hand.ranks_with_at_least(3) as u32 >> (r + 1)) << (r + 1);
                while m3 != 0 {
                    let t = m3.trailing_zeros();
                    if m2 & !(1u16 << t) != 0 {
                        return true;
                    }
                    m3 &= m3 - 1;
                }
                false
            }
            _ => {
                legal_moves_into(&mut self.scratch, hand, Some(c), &self.rules);
                !self.scratch.is_empty()
            }
        }
    }

    fn local_key(&self, n: &Node) -> Key {
        Key(canonical_key(&n.hands, n.mover, n.last))
    }

    fn shared_key(&self, n: &Node) -> CacheKey {
        shared_key(
            &n.hands,
            n.mover,
            n.last,
            self.rules_bits,
            self.present_bits,
        )
    }

    /// The position after `mv`; `None` when the mover goes out.
    #[inline]
    fn apply(&self, n: &Node, mv: &Combo) -> Option<Node> {
        let m = n.mover;
        let nx = self.next[m];
        if mv.is_pass() {
            let last = match n.last {
                Some((s, _)) if s == nx => None,
                l => l,
            };
            return Some(Node {
                hands: n.hands,
                code: n.code,
                mover: nx,
                last,
                key: 0,
            });
        }
        let mut hands = n.hands;
        hands[m] = hands[m].sub(mv.cards);
        if hands[m].is_empty() {
            return None;
        }
        Some(Node {
            hands,
            code: n.code - self.encode(m, mv.cards),
            mover: nx,
            last: Some((m, *mv)),
            key: 0,
        })
    }

    /// Whether the mover's side wins by playing `mv` (`None`: stopped).
    fn eval_move(&mut self, n: &Node, mv: &Combo, ply: usize) -> Option<bool> {
        self.eval_move_keyed(n, mv, ply, 0)
    }

    /// [`Solver::eval_move`] with the child's key if known (else 0).
    #[inline]
    fn eval_move_keyed(&mut self, n: &Node, mv: &Combo, ply: usize, key: u128) -> Option<bool> {
        match self.apply(n, mv) {
            None => Some(true),
            Some(mut child) => {
                child.key = key;
                let v = self.search(&child, ply + 1)?;
                Some(if landlord_side(child.mover) == landlord_side(n.mover) {
                    v
                } else {
                    !v
                })
            }
        }
    }

    /// Fills `out` with the mover's moves (pass included when following), best first.
    fn ordered_moves(&mut self, n: &Node, ply: usize, out: &mut Vec<(u64, Combo)>) {
        out.clear();
        let m = n.mover;
        let h = n.hands[m];
        let last = n.last.map(|(_, c)| c);
        let mut generated = std::mem::take(&mut self.generated);
        legal_moves_into(&mut generated, h, last.as_ref(), &self.rules);
        let killer = self.killers.get(ply).copied().flatten();
        let mp_h = self.min_plays(m, h, n.code);
        let me_landlord = landlord_side(m);
        let mut opps = [0usize; 2];
        let mut n_opps = 0;
        for s in 0..3 {
            if self.present_bits >> s & 1 == 1 && landlord_side(s) != me_landlord {
                opps[n_opps] = s;
                n_opps += 1;
            }
        }
        for mv in &generated {
            let rest = h.sub(mv.cards);
            let mp = self.min_plays(m, rest, n.code - self.encode(m, mv.cards)) as u64;
            let mut beatable = 0u64;
            for &o in &opps[..n_opps] {
                if self.can_beat(n.hands[o], mv) {
                    beatable = 1;
                    break;
                }
            }
            // Nobody else can beat it: every other seat must pass and the
            // mover leads again (a partner's option to beat counts too).
            let mut alone = beatable == 0;
            if alone {
                for o in 0..3 {
                    if o != m && self.present_bits >> o & 1 == 1 && landlord_side(o) == me_landlord
                    {
                        alone &= !self.can_beat(n.hands[o], mv);
                    }
                }
            }
            let base = if killer.is_some_and(|k| k.kind == mv.kind && k.cards == mv.cards) {
                0
            } else {
                1 + mp + beatable
            };
            let score = base << 40
                | beatable << 39
                | (mv.kind.is_bomb() as u64) << 30
                | (mv.rank.index() as u64) << 20
                | (mv.kickers_rank_sum() as u64) << 5
                | (31 - (mv.cards.len() as u64).min(31));
            out.push((score << 1 | alone as u64, *mv));
        }
        self.generated = generated;
        if let Some((s, _)) = n.last {
            // Passing on the partner's play comes first; otherwise the pass
            // ranks with the plays that leave as many plays as before, ahead
            // of them.
            let partner = landlord_side(s) == me_landlord;
            let score = if partner {
                1 << 41
            } else {
                (1 + mp_h as u64 + 1) << 41 | 1 << 40
            };
            out.push((score, Combo::pass()));
        }
        out.sort_unstable_by_key(|&(s, c)| (s, c.cards.bits()));
    }

    fn search(&mut self, n: &Node, ply: usize) -> Option<bool> {
        self.nodes += 1;
        if self.nodes & POLL_MASK == 0 {
            if self.stop.should_stop() || self.nodes >= self.stop.node_limit() {
                self.aborted = true;
            }
            // Doubling a large table takes tens of milliseconds: not when the
            // deadline is near.
            self.table.frozen = self.stop.remaining() < FREEZE_BEFORE_DEADLINE;
        }
        if self.aborted || self.nodes > self.limit {
            return None;
        }
        let h = n.hands[n.mover];
        // The hand is one play exactly when it needs one play (memoised).
        if self.min_plays(n.mover, h, n.code) == 1
            && let Some(c) = classify(h, &self.rules)
            && n.last.is_none_or(|(_, l)| beats(&c, &l))
        {
            return Some(true);
        }
        // A seat that cannot beat the standing play passes: no table entry
        // for a node with one move.
        if let Some((_, l)) = n.last
            && !self.can_beat(h, &l)
        {
            return self.eval_move(n, &Combo::pass(), ply);
        }
        let key = if n.key != 0 {
            Key(n.key)
        } else {
            self.local_key(n)
        };
        if let Some(v) = self.table.get(&key) {
            return Some(v);
        }
        if ply <= SHARED_LOOKUP_PLY
            && let Some(shared) = self.shared
            && let Some(v) = shared.get(&self.shared_key(n))
        {
            let win = v & 1 == 1;
            self.table.insert(key, win, u32::MAX);
            return Some(win);
        }
        let start = self.nodes;
        while self.bufs.len() <= ply {
            self.bufs.push(Vec::new());
            self.killers.push(None);
        }
        // The killer is tried before generating the moves: it wins often
        // enough that skipping generation and ordering pays.
        // (A winning pass is not promoted: passing first is a poor guess.)
        let killer = self.killers[ply].filter(|k| !k.is_pass() && self.is_legal(n, k));
        if let Some(k) = killer {
            let alone = self.nobody_beats(n, &k);
            match self.eval_scored(n, alone as u64, &k, ply, 0) {
                None => return None,
                Some(true) => return Some(self.store(n, key, ply, start, true, Some(k))),
                Some(false) => {}
            }
        }
        let mut moves = std::mem::take(&mut self.bufs[ply]);
        self.ordered_moves(n, ply, &mut moves);
        let ahead = PREFETCH_AHEAD;
        // Child keys computed for the prefetch, by move index mod 4.
        let mut keys = [0u128; 4];
        for (i, &(score, mv)) in moves.iter().take(ahead).enumerate() {
            keys[i] = self.prefetch_child(n, score, &mv);
        }
        let mut result = Some(false);
        let mut winner = None;
        for (i, &(score, mv)) in moves.iter().enumerate() {
            if let Some(&(s2, m2)) = moves.get(i + ahead) {
                keys[(i + ahead) % 4] = self.prefetch_child(n, s2, &m2);
            }
            if killer.is_some_and(|k| k.kind == mv.kind && k.cards == mv.cards) {
                continue;
            }
            match self.eval_scored(n, score, &mv, ply, keys[i % 4]) {
                None => {
                    result = None;
                    break;
                }
                Some(true) => {
                    result = Some(true);
                    winner = Some(mv);
                    break;
                }
                Some(false) => {}
            }
        }
        self.bufs[ply] = moves;
        let win = result?;
        Some(self.store(n, key, ply, start, win, winner))
    }

    /// Records a finished node's result (and its winning move as the ply's
    /// killer); returns `win`.
    fn store(
        &mut self,
        n: &Node,
        key: Key,
        ply: usize,
        start: u64,
        win: bool,
        winner: Option<Combo>,
    ) -> bool {
        if winner.is_some() {
            self.killers[ply] = winner;
        }
        let work = self.nodes - start;
        self.table
            .insert(key, win, work.min(u32::MAX as u64) as u32);
        if let Some(shared) = self.shared
            && (work >= SHARED_STORE_WORK || ply <= SHARED_STORE_PLY)
        {
            shared.insert(
                self.shared_key(n),
                encode_value(win, winner.as_ref()),
                work.min(u32::MAX as u64) as u32,
            );
        }
        win
    }

    /// Whether `mv` (a reading of its cards, not the pass) may be played at `n`.
    #[inline]
    fn is_legal(&self, n: &Node, mv: &Combo) -> bool {
        n.hands[n.mover].contains(mv.cards) && n.last.is_none_or(|(_, l)| beats(mv, &l))
    }

    /// Whether no other seat can beat `mv`: the mover then leads again.
    #[inline]
    fn nobody_beats(&mut self, n: &Node, mv: &Combo) -> bool {
        (0..3).all(|o| {
            o == n.mover || self.present_bits >> o & 1 == 0 || !self.can_beat(n.hands[o], mv)
        })
    }

    /// Starts loading the table bucket of the position after `mv`; returns
    /// that position's key.
    #[inline]
    fn prefetch_child(&self, n: &Node, score: u64, mv: &Combo) -> u128 {
        let m = n.mover;
        let key = if mv.is_pass() {
            let nx = self.next[m];
            let last = match n.last {
                Some((s, _)) if s == nx => None,
                l => l,
            };
            canonical_key(&n.hands, nx, last)
        } else {
            let mut hands = n.hands;
            hands[m] = hands[m].sub(mv.cards);
            if score & 1 == 1 {
                canonical_key(&hands, m, None)
            } else {
                canonical_key(&hands, self.next[m], Some((m, *mv)))
            }
        };
        self.table.prefetch(&Key(key));
        key
    }

    /// Evaluates an ordered move; plays nobody else can beat skip the
    /// forced passes (the mover leads again at once).
    #[inline]
    fn eval_scored(
        &mut self,
        n: &Node,
        score: u64,
        mv: &Combo,
        ply: usize,
        key: u128,
    ) -> Option<bool> {
        if score & 1 == 0 {
            return self.eval_move_keyed(n, mv, ply, key);
        }
        let mut hands = n.hands;
        hands[n.mover] = hands[n.mover].sub(mv.cards);
        if hands[n.mover].is_empty() {
            return Some(true);
        }
        let child = Node {
            hands,
            code: n.code - self.encode(n.mover, mv.cards),
            mover: n.mover,
            last: None,
            key,
        };
        self.search(&child, ply + 1)
    }

    fn solve_root(&mut self, root: &Node) -> Solution {
        let mut moves = Vec::new();
        self.ordered_moves(root, 0, &mut moves);
        let moves: Vec<Combo> = moves.into_iter().map(|(_, c)| c).collect();
        let mut cached = None;
        if let Some(shared) = self.shared
            && let Some(v) = shared.get(&self.shared_key(root))
        {
            cached = Some(decode_value(v, &self.rules));
        }
        // Root moves are searched in rounds with a growing node allowance per
        // move, so a cheap win is found before expensive refutations of the
        // moves ordered ahead of it. Finished subtrees stay in the table, so a
        // later round redoes little.
        let mut state: Vec<Option<bool>> = vec![None; moves.len()];
        let mut work = vec![0u64; moves.len()];
        let mut finished = true;
        if cached.is_none_or(|(win, _)| win) {
            let mut allowance = ROOT_FIRST_ALLOWANCE;
            'rounds: loop {
                let mut open = false;
                for (i, mv) in moves.iter().enumerate() {
                    if state[i].is_some() {
                        continue;
                    }
                    let before = self.nodes;
                    self.limit = self.nodes.saturating_add(allowance);
                    let r = self.eval_move(root, mv, 0);
                    work[i] += self.nodes - before;
                    match r {
                        Some(v) => state[i] = Some(v),
                        None if self.aborted => {
                            finished = false;
                            break 'rounds;
                        }
                        None => open = true,
                    }
                }
                if !open {
                    break;
                }
                allowance = allowance.saturating_mul(4);
            }
            self.limit = u64::MAX;
        }
        let winning: Vec<Combo> = moves
            .iter()
            .zip(&state)
            .filter(|(_, s)| **s == Some(true))
            .map(|(m, _)| *m)
            .collect();
        let lost: Vec<bool> = state.iter().map(|s| *s == Some(false)).collect();
        let cached_win = cached.map(|(w, _)| w);
        let outcome = if !winning.is_empty() || cached_win == Some(true) {
            Outcome::Win
        } else if (finished && cached.is_none()) || cached_win == Some(false) {
            Outcome::Loss
        } else {
            Outcome::Unknown
        };
        let legal = |c: &Combo| moves.iter().any(|m| m.kind == c.kind && m.cards == c.cards);
        let cached_move = cached.and_then(|(_, m)| m).filter(legal);
        let best_move = match outcome {
            Outcome::Win => winning.first().copied().or(cached_move),
            Outcome::Loss => {
                if finished && cached.is_none() {
                    // The move that took the most search to refute.
                    let mut best = 0;
                    for i in 0..moves.len() {
                        if work[i] > work[best] {
                            best = i;
                        }
                    }
                    moves.get(best).copied()
                } else {
                    cached_move.or(moves.first().copied())
                }
            }
            Outcome::Unknown => moves
                .iter()
                .zip(&lost)
                .find(|(_, l)| !**l)
                .map(|(m, _)| *m)
                .or(moves.first().copied()),
        };
        // Remember the root answer with its move for the next request.
        if let (Some(shared), None) = (self.shared, cached)
            && (outcome == Outcome::Win || (outcome == Outcome::Loss && finished))
        {
            let v = encode_value(outcome == Outcome::Win, best_move.as_ref());
            shared.insert(
                self.shared_key(root),
                v,
                self.nodes.min(u32::MAX as u64) as u32,
            );
        }
        let mut complete = finished && !self.aborted;
        let mut pv = Vec::new();
        if outcome != Outcome::Unknown
            && let Some(mv) = best_move
        {
            complete &= self.principal_line(root, mv, &mut pv);
        }
        Solution {
            outcome,
            best_move,
            winning_moves: winning,
            pv,
            nodes: self.nodes,
            complete,
            cached: cached.is_some(),
            elapsed: Duration::ZERO,
        }
    }

    /// Follows the game from `root` with `first`, then the winner's winning
    /// moves and the loser's first-ordered moves, to the end. False if stopped.
    fn principal_line(&mut self, root: &Node, first: Combo, pv: &mut Vec<(Seat, Combo)>) -> bool {
        pv.push((Seat::ALL[root.mover], first));
        let mut node = match self.apply(root, &first) {
            None => return true,
            Some(n) => n,
        };
        let mut buf = Vec::new();
        for _ in 0..200 {
            let Some(win) = self.search(&node, 1) else {
                return false;
            };
            self.ordered_moves(&node, 1, &mut buf);
            let mut chosen = buf[0].1;
            if win {
                let mut found = false;
                for &(_, mv) in &buf {
                    match self.eval_move(&node, &mv, 1) {
                        None => return false,
                        Some(true) => {
                            chosen = mv;
                            found = true;
                            break;
                        }
                        Some(false) => {}
                    }
                }
                debug_assert!(found, "a won node has a winning move");
            }
            pv.push((Seat::ALL[node.mover], chosen));
            node = match self.apply(&node, &chosen) {
                None => return true,
                Some(n) => n,
            };
        }
        false
    }
}

trait KickerRank {
    fn kickers_rank_sum(&self) -> u32;
}

impl KickerRank for Combo {
    /// Sum of the kickers' rank indexes (0 without kickers): cheap kickers first.
    #[inline]
    fn kickers_rank_sum(&self) -> u32 {
        match self.kind {
            ComboType::TrioSolo
            | ComboType::TrioSoloChain
            | ComboType::TrioPair
            | ComboType::TrioPairChain
            | ComboType::FourTwoSolo
            | ComboType::FourTwoPair => self
                .kickers()
                .cards()
                .map(|r| r.index() as u32)
                .sum::<u32>()
                .min(4095),
            _ => 0,
        }
    }
}

impl Drop for Solver<'_> {
    fn drop(&mut self) {
        if self.table.buckets.len() * BUCKET >= FREE_IN_BACKGROUND_SLOTS {
            let slots = std::mem::take(&mut self.table.buckets);
            let plays = std::mem::take(&mut self.plays);
            // The budget gets the bytes back once they are really freed.
            let memory = std::mem::replace(&mut self.table.memory, Reservation::unbudgeted());
            // If no thread can be started, the closure (and the memory) is
            // simply dropped here.
            let _ = std::thread::Builder::new()
                .name("endgame-free".into())
                .spawn(move || drop((slots, plays, memory)));
        }
    }
}

// ------------------------------------------------------------ local table

/// A node of the per-solve table: its [`canonical_key`] (< 2^123, never 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Key(u128);

impl Key {
    #[inline]
    fn hash(&self) -> u64 {
        let mut x = self.0 as u64 ^ ((self.0 >> 64) as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x ^= x >> 32;
        x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x ^ (x >> 29)
    }
}

/// One stored result in 16 bytes: the key in bits 0–122, half the log2 of
/// the nodes the subtree took (a replacement priority) in bits 123–126, the
/// result in bit 127; 0 is an empty slot.
type Slot = u128;

const KEY_BITS: u128 = (1 << 123) - 1;
const WORK_SHIFT: u32 = 123;
const WIN_BIT: u128 = 1 << 127;

#[inline]
fn slot_work(s: Slot) -> u32 {
    (s >> WORK_SHIFT) as u32 & 15
}

const BUCKET: usize = 4;

/// Four slots in one cache line.
#[derive(Debug, Clone, Copy, Default)]
#[repr(align(64))]
struct Bucket([Slot; BUCKET]);

/// Per-solve table of exact results: buckets of four slots, doubling while
/// under [`MAX_TABLE_SLOTS`] and the workers' memory budget allows, then
/// replacing the cheapest entry of a bucket.
struct Table {
    buckets: Vec<Bucket>,
    len: usize,
    /// No more doubling (the deadline is near).
    frozen: bool,
    /// The table's bytes, held against the workers' shared memory budget;
    /// a doubling the budget refuses does not happen.
    memory: Reservation,
}

impl Table {
    /// A table of `slots` slots, held against `stop`'s memory budget (the
    /// starting table is small and always allowed).
    fn new(slots: usize, stop: &Stop) -> Table {
        let len = (slots / BUCKET).max(1);
        let memory = stop.reserve_memory(len * std::mem::size_of::<Bucket>());
        let mut buckets = Vec::new();
        resize_advised(&mut buckets, len);
        Table {
            buckets,
            len: 0,
            frozen: false,
            memory,
        }
    }

    #[inline]
    fn bucket(&self, key: &Key) -> usize {
        key.hash() as usize & (self.buckets.len() - 1)
    }

    /// Hints the CPU to load `key`'s bucket (the probe is a cache and TLB
    /// miss in a large table; the search has other work to overlap with it).
    #[inline]
    fn prefetch(&self, key: &Key) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = &self.buckets[self.bucket(key)] as *const Bucket as *const i8;
            // SAFETY: a prefetch is only a hint; it never faults and has no
            // effect on memory contents (the address is in bounds anyway).
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    fn get(&self, key: &Key) -> Option<bool> {
        self.buckets[self.bucket(key)]
            .0
            .iter()
            .find(|&&s| s & KEY_BITS == key.0)
            .map(|&s| s & WIN_BIT != 0)
    }

    fn insert(&mut self, key: Key, win: bool, work: u32) {
        if self.len * 2 > self.buckets.len() * BUCKET
            && self.buckets.len() * BUCKET < MAX_TABLE_SLOTS
            && !self.frozen
        {
            if self
                .memory
                .try_grow(self.buckets.len() * std::mem::size_of::<Bucket>())
            {
                self.grow();
            } else {
                // Asked again at the next poll of the stop, by when another
                // search may have given memory back.
                self.frozen = true;
            }
        }
        let log_work = ((32 - work.leading_zeros()) / 2).min(15) as u128;
        self.put(key.0 | log_work << WORK_SHIFT | if win { WIN_BIT } else { 0 });
    }

    fn put(&mut self, slot: Slot) {
        let key = slot & KEY_BITS;
        let b = self.bucket(&Key(key));
        let bucket = &mut self.buckets[b].0;
        if let Some(s) = bucket
            .iter_mut()
            .find(|s| **s == 0 || **s & KEY_BITS == key)
        {
            if *s == 0 {
                self.len += 1;
            }
            *s = slot;
            return;
        }
        let victim = bucket
            .iter_mut()
            .min_by_key(|s| slot_work(**s))
            .expect("bucket has slots");
        if slot_work(*victim) <= slot_work(slot) {
            *victim = slot;
        }
    }

    /// Doubles the table in place: a bucket's entries either stay or move to
    /// the bucket `old_len` further on (the hash gains one bit), so nothing
    /// else is disturbed, and the allocator can extend the memory instead of
    /// copying it (only the new half is fresh pages).
    fn grow(&mut self) {
        let old_len = self.buckets.len();
        resize_advised(&mut self.buckets, old_len * 2);
        for b in 0..old_len {
            for i in 0..BUCKET {
                let s = self.buckets[b].0[i];
                if s == 0 {
                    continue;
                }
                let nb = self.bucket(&Key(s & KEY_BITS));
                if nb != b {
                    debug_assert_eq!(nb, b + old_len);
                    let free = self.buckets[nb]
                        .0
                        .iter_mut()
                        .find(|t| **t == 0)
                        .expect("a new bucket takes at most one old bucket's entries");
                    *free = s;
                    self.buckets[b].0[i] = 0;
                }
            }
        }
    }
}

/// Grows `buckets` to `len` empty buckets, asking the kernel first to back
/// the new memory with transparent huge pages: probes are random, so with
/// 4 KiB pages nearly every one also misses the TLB. The advice must come
/// before the pages are first written. Only a hint; where huge pages are off
/// or unavailable nothing changes.
fn resize_advised(buckets: &mut Vec<Bucket>, len: usize) {
    buckets.reserve_exact(len.saturating_sub(buckets.len()));
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = buckets.as_ptr() as usize;
        let end = start + buckets.capacity() * std::mem::size_of::<Bucket>();
        let first = start.next_multiple_of(PAGE);
        let last = end / PAGE * PAGE;
        if last >= first + (2 << 20) {
            // SAFETY: the range lies inside the allocation and
            // MADV_HUGEPAGE does not change its contents.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    buckets.resize(len, Bucket::default());
}

#[cfg(test)]
#[path = "endgame_tests.rs"]
mod tests;
