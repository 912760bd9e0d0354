//! The solver proper: the AND/OR search with its move ordering, static
//! out-checks, table and shared-cache use (the root's part is in `root`;
//! see the module documentation of [`super`] for how it works).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::cache::{CacheKey, TranspositionCache};
use crate::doudizhu::{
    Combo, ComboType, Hand, Rules, beats, classify, legal_moves_into, min_plays,
};
use crate::memory::Reservation;
use crate::stop::Stop;

use super::dominance::KickerPools;
use super::key::{canonical_key, encode_value, rules_bits, shared_key};
use super::shared_table::SharedTable;
use super::table::{BUCKET, Key, Table};
use super::{Position, Seat};

#[derive(Debug, Clone, Copy)]
pub(super) struct Node {
    pub(super) hands: [Hand; 3],
    /// The hands packed relative to the root's (see [`Solver::weights`]).
    pub(super) code: u64,
    pub(super) mover: usize,
    pub(super) last: Option<(usize, Combo)>,
    /// The [`canonical_key`] when already computed (for the prefetch), else 0.
    pub(super) key: u128,
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
/// Within this of the deadline the local table stops growing.
const FREEZE_BEFORE_DEADLINE: Duration = Duration::from_millis(150);
/// Tables at least this large are freed on a helper thread (unmapping
/// hundreds of MiB takes milliseconds the caller should not wait for).
const FREE_IN_BACKGROUND_SLOTS: usize = 1 << 20;
/// Table buckets of the next moves' positions loaded ahead of their search.
const PREFETCH_AHEAD: usize = 2;
/// With threads, nodes up to this ply mark themselves as being searched.
const BUSY_PLY: usize = 10;
/// Plays nobody can beat that the static out-check chains before the last.
const UNBEATEN_PLAYS: usize = 2;
/// Nodes between polls of the stop.
const POLL_MASK: u64 = 1023;
/// Slots of a solver's own table at the start (it doubles as it fills).
const OWN_TABLE_SLOTS: usize = 1 << 14;

pub(super) struct Solver<'a> {
    pub(super) rules: Rules,
    rules_bits: u64,
    present_bits: u64,
    /// Next present seat after each seat.
    next: [usize; 3],
    pub(super) stop: &'a Stop,
    pub(super) shared: Option<&'a TranspositionCache>,
    table: Table,
    /// The table of all threads of the solve, used instead of `table` when set.
    pub(super) shared_table: Option<&'a SharedTable>,
    /// Per seat and rank, the weight of one card in a node's `code`: each
    /// seat's hand is a mixed-radix number with just enough bits per rank for
    /// the copies it held at the root (1 bit for one copy, 2 for two or three,
    /// 3 for four), so all hands fit in ≤ 54 bits and playing cards subtracts
    /// their code.
    weights: [[u64; 15]; 3],
    /// Where each seat's field starts in the code, and its width.
    pub(super) field: [(u32, u32); 3],
    /// `min_plays` per seat, indexed by the seat's field (`u8::MAX`: unknown).
    plays: [Vec<u8>; 3],
    pub(super) nodes: u64,
    pub(super) aborted: bool,
    /// Move lists per ply (reused).
    bufs: Vec<Vec<(u64, Combo)>>,
    generated: Vec<Combo>,
    scratch: Vec<Combo>,
    /// Move lists of [`Solver::goes_out_unbeaten`], one per depth.
    unbeaten_bufs: Vec<Vec<Combo>>,
    killers: Vec<Option<Combo>>,
    /// Set when another thread resolved the root move being searched.
    pub(super) given_up: Option<Arc<AtomicBool>>,
    /// Node count past which the current root move's search gives up.
    pub(super) limit: u64,
}

impl<'a> Solver<'a> {
    /// A solver of `pos` with its own table, or with the threads' shared table
    /// (`shared_table`) in its place.
    pub(super) fn new(
        pos: &Position,
        stop: &'a Stop,
        shared: Option<&'a TranspositionCache>,
        shared_table: Option<&'a SharedTable>,
    ) -> Solver<'a> {
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
            // a solver on the shared table never touches its own: keep it one bucket
            table: Table::new(
                if shared_table.is_some() {
                    BUCKET
                } else {
                    OWN_TABLE_SLOTS
                },
                stop,
            ),
            shared_table,
            weights,
            field,
            plays,
            nodes: 0,
            aborted: false,
            bufs: Vec::new(),
            generated: Vec::new(),
            scratch: Vec::new(),
            unbeaten_bufs: Vec::new(),
            killers: Vec::new(),
            given_up: None,
            limit: u64::MAX,
        }
    }

    #[inline]
    fn probe(&self, key: &Key) -> Option<bool> {
        match self.shared_table {
            Some(t) => t.get(key),
            None => self.table.get(key),
        }
    }

    #[inline]
    fn record(&mut self, key: Key, win: bool, work: u32) {
        match self.shared_table {
            Some(t) => t.insert(key, win, work),
            None => self.table.insert(key, win, work),
        }
    }

    /// The code of `h` held by seat `s`.
    #[inline]
    pub(super) fn encode(&self, s: usize, h: Hand) -> u64 {
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

    pub(super) fn code_of(&self, hands: &[Hand; 3]) -> u64 {
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

    pub(super) fn shared_key(&self, n: &Node) -> CacheKey {
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
    pub(super) fn apply(&self, n: &Node, mv: &Combo) -> Option<Node> {
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
    pub(super) fn eval_move(&mut self, n: &Node, mv: &Combo, ply: usize) -> Option<bool> {
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

    /// The mover's partner's hand, if the mover has a partner taking part.
    fn partner_hand(&self, n: &Node) -> Option<Hand> {
        let partner = match n.mover {
            0 => return None,
            m => 3 - m,
        };
        (self.present_bits >> partner & 1 == 1).then_some(n.hands[partner])
    }

    /// Fills `out` with the mover's moves (pass included when following),
    /// best first. Below the root, plays whose kickers another choice
    /// dominates are left out (the root lists every winning move).
    pub(super) fn ordered_moves(&mut self, n: &Node, ply: usize, out: &mut Vec<(u64, Combo)>) {
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
        let pools = (ply > 0).then(|| KickerPools::new(h, self.partner_hand(n)));
        for mv in &generated {
            if pools.is_some_and(|p| p.dominated(mv)) {
                continue;
            }
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

    pub(super) fn search(&mut self, n: &Node, ply: usize) -> Option<bool> {
        self.nodes += 1;
        if self.nodes & POLL_MASK == 0 {
            if self.stop.should_stop() || self.nodes >= self.stop.node_limit() {
                self.aborted = true;
            }
            if self
                .given_up
                .as_ref()
                .is_some_and(|r| r.load(Ordering::Relaxed))
            {
                self.limit = 0;
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
        if let Some(v) = self.probe(&key) {
            return Some(v);
        }
        if self.min_plays(n.mover, h, n.code) <= UNBEATEN_PLAYS as u32 + 1
            && self.goes_out_unbeaten(n, h, n.last.map(|(_, c)| c), UNBEATEN_PLAYS)
        {
            self.record(key, true, 1);
            return Some(true);
        }
        if ply <= SHARED_LOOKUP_PLY
            && let Some(shared) = self.shared
            && let Some(v) = shared.get(&self.shared_key(n))
        {
            let win = v & 1 == 1;
            self.record(key, win, u32::MAX);
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
        // With threads, a node near the root says it is being searched,
        // and its parent leaves such children for last: by then the other
        // thread has often stored their results.
        let shared = self.shared_table.filter(|_| ply <= BUSY_PLY);
        if let Some(t) = shared {
            t.mark_busy(&key);
        }
        let mut deferred = 0u64;
        let mut result = Some(false);
        let mut winner = None;
        for (i, &(score, mv)) in moves.iter().enumerate() {
            if let Some(&(s2, m2)) = moves.get(i + ahead) {
                keys[(i + ahead) % 4] = self.prefetch_child(n, s2, &m2);
            }
            if killer.is_some_and(|k| k.kind == mv.kind && k.cards == mv.cards) {
                continue;
            }
            if i < 64 && ply < BUSY_PLY && shared.is_some_and(|t| t.is_busy(&Key(keys[i % 4]))) {
                deferred |= 1 << i;
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
        while result == Some(false) && deferred != 0 {
            let i = deferred.trailing_zeros() as usize;
            deferred &= deferred - 1;
            let (score, mv) = moves[i];
            match self.eval_scored(n, score, &mv, ply, 0) {
                None => result = None,
                Some(true) => {
                    result = Some(true);
                    winner = Some(mv);
                }
                Some(false) => {}
            }
        }
        if let Some(t) = shared {
            t.clear_busy(&key);
        }
        self.bufs[ply] = moves;
        let win = result?;
        Some(self.store(n, key, ply, start, win, winner))
    }

    /// Whether the mover can go out with `hand` by at most `depth` plays no
    /// opponent can beat (each followed by the opponents' forced passes and
    /// the partner's pass, so the mover leads again) and then one last play;
    /// the first play must beat `last` when there is one. A proof without
    /// search: the opponents' hands do not change on the way.
    fn goes_out_unbeaten(
        &mut self,
        n: &Node,
        hand: Hand,
        last: Option<Combo>,
        depth: usize,
    ) -> bool {
        if let Some(c) = classify(hand, &self.rules)
            && last.is_none_or(|l| beats(&c, &l))
        {
            return true;
        }
        if depth == 0 {
            return false;
        }
        while self.unbeaten_bufs.len() < depth {
            self.unbeaten_bufs.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut self.unbeaten_bufs[depth - 1]);
        legal_moves_into(&mut moves, hand, last.as_ref(), &self.rules);
        let me_landlord = landlord_side(n.mover);
        let mut found = false;
        for mv in &moves {
            let unbeaten = (0..3).all(|o| {
                self.present_bits >> o & 1 == 0
                    || landlord_side(o) == me_landlord
                    || !self.can_beat(n.hands[o], mv)
            });
            if !unbeaten {
                continue;
            }
            let rest = hand.sub(mv.cards);
            // The rest must be playable in the plays left.
            let code = self.encode(n.mover, rest);
            if self.min_plays(n.mover, rest, code) as usize <= depth
                && self.goes_out_unbeaten(n, rest, None, depth - 1)
            {
                found = true;
                break;
            }
        }
        self.unbeaten_bufs[depth - 1] = moves;
        found
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
        self.record(key, win, work.min(u32::MAX as u64) as u32);
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
        match self.shared_table {
            Some(t) => t.prefetch(&Key(key)),
            None => self.table.prefetch(&Key(key)),
        }
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
