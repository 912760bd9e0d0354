//! Search: immediate wins and forced blocks, a VCF solver, iterative-deepening PVS.

use std::cell::RefCell;

use super::Point;
use super::board::Board;
use super::patterns::{FL_DOUBLE, FL_FIVE, FL_FOUR, FL_MAYBE_FORBIDDEN, FL_OPEN4, FL_THREE};
use crate::stop::Stop;

/// Score of a five made by the side to move right now; a win `n` plies away scores
/// `WIN_SCORE - n`.
pub const WIN_SCORE: i32 = 30000;
/// Scores beyond this are proven wins or losses.
const MATE_BOUND: i32 = WIN_SCORE - 1000;
const INF: i32 = WIN_SCORE + 1;
const MAX_PLY: usize = 96;
const NO_MOVE: u16 = u16::MAX;
/// Longest VCF (in attacker moves) tried at the root.
const ROOT_VCF_DEPTH: i32 = 14;
/// Longest VCT (in attacker moves) tried at the root, its node budget and how many
/// threats it tries per attacker node.
const ROOT_VCT_DEPTH: i32 = 6;
const ROOT_VCT_NODES: u64 = 30_000;
const ROOT_VCF_NODES: u64 = 60_000;
const VCT_WIDTH: usize = 12;
/// Defence against the opponent's VCF at the root: the node budget of the whole
/// defence, the share of it for spotting the threat, and how many candidate moves get
/// checked.
const ROOT_DEFEND_NODES: u64 = 60_000;
const ROOT_THREAT_NODES: u64 = 20_000;
const ROOT_DEFEND_WIDTH: usize = 40;
/// Late-move pruning: at non-PV nodes of depth d, quiet moves past `LMP[d]` are skipped.
const LMP: [usize; 8] = [usize::MAX, 4, 6, 8, 11, 15, 20, 26];

/// Quiescence VCF at the leaves: at most this many fours, within this many nodes.
const LEAF_VCF_DEPTH: i32 = 3;
const LEAF_VCF_NODES: u64 = 24;
/// Futility margins by depth (evaluation units).
const FUTILITY: [i32; 4] = [0, 60, 150, 300];

/// Late-move reductions by (depth, move number).
static LMR: std::sync::LazyLock<[[i32; 64]; 32]> = std::sync::LazyLock::new(|| {
    let mut t = [[0; 64]; 32];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.5 + (d as f64).ln() * (i as f64).ln() / 1.5) as i32;
        }
    }
    t
});

#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub max_depth: Option<u32>,
    pub max_nodes: Option<u64>,
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Always legal for the side to move.
    pub best: Point,
    /// Side to move's view; proven wins/losses are near ±[`WIN_SCORE`].
    pub eval: i32,
    /// `Some(n > 0)`: the mover wins with its n-th own move from now; `Some(n < 0)`: loses
    /// against best defence in -n opponent moves; `None`: not proven.
    pub win_in: Option<i32>,
    /// Deepest completed iteration.
    pub depth: u32,
    pub nodes: u64,
    /// Starts with `best`.
    pub pv: Vec<Point>,
}

// ---- transposition table ------------------------------------------------------------

const BOUND_LOWER: u8 = 1;
const BOUND_UPPER: u8 = 2;
const BOUND_EXACT: u8 = 3;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    mv: u16,
    score: i16,
    depth: i8,
    bound: u8,
    generation: u16,
}

struct Tt {
    entries: Vec<Entry>,
    mask: usize,
    generation: u16,
    /// Only entries of the current search count (reproducible stateless searches).
    strict: bool,
}

impl Tt {
    fn new(mib: usize) -> Tt {
        let want = (mib.max(1) << 20) / std::mem::size_of::<Entry>();
        let len = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        };
        Tt {
            entries: vec![Entry::default(); len],
            mask: len - 1,
            generation: 1,
            strict: false,
        }
    }

    fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.generation = 1;
    }

    fn new_search(&mut self, strict: bool) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // after a wrap an old entry could look current: start clean
            self.clear();
        }
        self.strict = strict;
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.bound != 0 && e.key == key && (!self.strict || e.generation == self.generation))
            .then_some(e)
    }

    #[inline]
    fn store(&mut self, key: u64, mv: u16, score: i32, depth: i32, bound: u8) {
        let generation = self.generation;
        let e = &mut self.entries[key as usize & self.mask];
        if e.generation != generation || e.key == key || depth >= e.depth as i32 {
            *e = Entry {
                key,
                mv,
                score: score as i16,
                depth: depth.clamp(-1, 127) as i8,
                bound,
                generation,
            };
        }
    }
}

fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s > MATE_BOUND {
        s + ply as i32
    } else if s < -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s > MATE_BOUND {
        s - ply as i32
    } else if s < -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// Late-move reduction of the `i`-th move of a node at `depth` (none for the first moves
/// and for moves that are not `reducible`; one more for a `quiet` move off the PV).
fn reduction(
    depth: i32,
    new_depth: i32,
    i: usize,
    pv_node: bool,
    reducible: bool,
    quiet: bool,
) -> i32 {
    if reducible && depth >= 2 && i >= 2 + 2 * pv_node as usize {
        (LMR[depth.min(31) as usize][i.min(63)] + (quiet && !pv_node) as i32)
            .min(new_depth - 1)
            .max(0)
    } else {
        0
    }
}

// ---- engine ---------------------------------------------------------------------------

/// A search engine that keeps its transposition table between searches.
pub struct Engine {
    tt: Tt,
}

impl Engine {
    pub fn new(tt_mib: usize) -> Engine {
        Engine {
            tt: Tt::new(tt_mib),
        }
    }

    /// Searches with the table kept from earlier searches (a brain playing one game).
    pub fn search(&mut self, board: &Board, limits: &Limits, stop: &Stop) -> SearchResult {
        self.run(board, limits, stop, false)
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    fn run(&mut self, board: &Board, limits: &Limits, stop: &Stop, strict: bool) -> SearchResult {
        self.tt.new_search(strict);
        let node_limit = limits
            .max_nodes
            .unwrap_or(u64::MAX)
            .min(stop.node_limit())
            .max(1);
        let mut s = Searcher::new(board.clone(), &mut self.tt, stop, node_limit);
        s.root(limits)
    }
}

/// Searches `board` for the side to move. Stateless: the answer under `max_depth` /
/// `max_nodes` (no deadline hit) depends only on the board and the limits.
pub fn search(board: &Board, limits: &Limits, stop: &Stop) -> SearchResult {
    thread_local! {
        static ENGINE: RefCell<Engine> = RefCell::new(Engine::new(16));
    }
    ENGINE.with(|e| e.borrow_mut().run(board, limits, stop, true))
}

/// What a node is, before any search.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Outcome {
    /// The side to move completes a five at this cell.
    Win(u16),
    /// The side to move makes a straight four (or two fours) here; the opponent has no five.
    WinIn2(u16),
    /// The opponent has a five point the mover can't (legally) take or has two of them.
    Lost(u16),
    /// The only move is to block the opponent's four (the list holds it).
    Forced,
    /// The list holds the moves to search; `true` when restricted to answers to an open three.
    Moves(bool),
}

struct Searcher<'a> {
    b: Board,
    tt: &'a mut Tt,
    stop: &'a Stop,
    node_limit: u64,
    nodes: u64,
    aborted: bool,
    killers: [[u16; 2]; MAX_PLY],
    history: Vec<i32>,
    pv: Vec<[u16; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    bufs: Vec<Vec<(u16, i32)>>,
    /// Plies after the end of the last VCF line found: 0 when it ends with a five, 2 when
    /// it ends with a threat the defender can't meet (straight four, forbidden block).
    vcf_tail: i32,
    /// When not empty, the root searches only these moves (the ones that stop the
    /// opponent's VCF).
    root_moves: Vec<u16>,
}

impl<'a> Searcher<'a> {
    fn new(b: Board, tt: &'a mut Tt, stop: &'a Stop, node_limit: u64) -> Searcher<'a> {
        let cells = b.cells_len();
        Searcher {
            b,
            tt,
            stop,
            node_limit,
            nodes: 0,
            aborted: false,
            killers: [[NO_MOVE; 2]; MAX_PLY],
            history: vec![0; 2 * cells],
            pv: vec![[NO_MOVE; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            bufs: (0..MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            vcf_tail: 0,
            root_moves: Vec::new(),
        }
    }

    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit || (self.nodes & 1023 == 0 && self.stop.should_stop()) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Classifies the node and fills `list` with the moves to search (ordering score in .1).
    fn generate(&mut self, list: &mut Vec<(u16, i32)>) -> Outcome {
        list.clear();
        let s = self.b.side();
        let o = 1 - s;
        // the board's counts say which special cases exist; most nodes have none
        if self.b.five_count(s) > 0
            && let Some(c) = self.find_cell(s, FL_FIVE)
        {
            return Outcome::Win(c);
        }
        let opp_fives = self.b.five_count(o);
        let opp_five = if opp_fives > 0 {
            self.find_cell(o, FL_FIVE).unwrap_or(NO_MOVE)
        } else {
            NO_MOVE
        };
        let opp_open4 = self.b.open4_count(o) > 0;
        let my_open4 = self.b.open4_count(s) > 0;
        let renju_me = self.b.renju_black(s);
        let mut maybe_forbidden = false;
        if opp_fives == 0 {
            list.reserve(self.b.cells_len());
            for c in self.b.candidates() {
                let me = self.b.info(c, s);
                let op = self.b.info(c, o);
                maybe_forbidden |= me.flags() & FL_MAYBE_FORBIDDEN != 0;
                list.push((c as u16, me.value() * 5 / 4 + op.value()));
            }
        }
        if opp_fives > 0 {
            let c = opp_five as usize;
            if opp_fives > 1 || (renju_me && self.b.forbidden_black(c)) {
                return Outcome::Lost(opp_five);
            }
            list.push((opp_five, 0));
            return Outcome::Forced;
        }
        if renju_me && maybe_forbidden {
            let mut i = 0;
            while i < list.len() {
                let c = list[i].0 as usize;
                if self.b.info(c, s).flags() & FL_MAYBE_FORBIDDEN != 0 && self.b.forbidden_black(c)
                {
                    list.swap_remove(i);
                } else {
                    i += 1;
                }
            }
        }
        if my_open4 {
            // forbidden cells are already gone from the list
            if let Some(&(c, _)) = list
                .iter()
                .find(|&&(c, _)| self.b.info(c as usize, s).flags() & FL_OPEN4 != 0)
            {
                return Outcome::WinIn2(c);
            }
        }
        if opp_open4 && self.opponent_open4_is_real(list, o) {
            // only fours of ours or points on the opponent's threat lines can help
            list.retain(|&(c, _)| {
                let c = c as usize;
                self.b.info(c, s).flags() & FL_FOUR != 0 || self.b.info(c, o).flags() & FL_FOUR != 0
            });
            return Outcome::Moves(true);
        }
        Outcome::Moves(false)
    }

    /// Whether the opponent has a straight-four point he may legally take.
    fn opponent_open4_is_real(&mut self, list: &[(u16, i32)], o: usize) -> bool {
        if !self.b.renju_black(o) {
            return true;
        }
        list.iter().any(|&(c, _)| {
            let c = c as usize;
            self.b.info(c, o).flags() & FL_OPEN4 != 0 && !self.b.forbidden_for(c, o)
        })
    }

    fn evaluate(&self) -> i32 {
        let s = self.b.side();
        let me = self.b.value_sum(s);
        let op = self.b.value_sum(1 - s);
        // the side to move gets the initiative
        (me * 5 / 4 - op) / 4
    }

    fn pvs(&mut self, depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if self.tick() {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let s = self.b.side();
        if self.b.five_count(s) > 0 {
            if pv_node && let Some(c) = self.find_cell(s, FL_FIVE) {
                self.set_pv(ply, c);
            }
            return WIN_SCORE - ply as i32;
        }
        // mate distance pruning
        alpha = alpha.max(-(WIN_SCORE - ply as i32));
        beta = beta.min(WIN_SCORE - ply as i32);
        if alpha >= beta {
            return alpha;
        }
        let opp_four = self.b.five_count(1 - s) > 0;
        if (depth <= 0 || ply + 2 >= MAX_PLY) && !opp_four {
            if self.b.open4_count(s) > 0 && !self.b.renju_black(s) {
                return WIN_SCORE - ply as i32 - 2;
            }
            if self.b.four_three_count(s) > 0 && ply + 2 * LEAF_VCF_DEPTH as usize + 4 < MAX_PLY {
                // quiescence: with a four-three on the board, check for a short win by
                // fours for the side to move (a four-three is one only when the block
                // doesn't make a four and the three is real); the VCF counts this
                // position again as its first node
                self.nodes -= 1;
                let (won, _) = self.bounded(LEAF_VCF_NODES, |me| me.vcf(ply, LEAF_VCF_DEPTH));
                if self.aborted {
                    return 0;
                }
                if won {
                    let moves = (self.pv_len[ply] - ply) as i32;
                    return WIN_SCORE - ply as i32 - (moves - 1) - self.vcf_tail;
                }
                self.pv_len[ply] = ply;
            }
            return self.evaluate();
        }
        let key = self.b.hash();
        let mut tt_move = NO_MOVE;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.mv;
            if !pv_node && e.depth as i32 >= depth {
                let sc = score_from_tt(e.score as i32, ply);
                let cut = match e.bound {
                    BOUND_EXACT => true,
                    BOUND_LOWER => sc >= beta,
                    _ => sc <= alpha,
                };
                if cut {
                    return sc;
                }
            }
        }
        // the table move and the killers first, before generating: one of them often
        // cuts, and then the generation is saved (only where nothing forces the reply)
        let mut pre = [(NO_MOVE, 0); 3];
        let mut n_pre = 0;
        if ply > 0 && self.plain_node(s) {
            let k = self.killers[ply];
            let (mut best, mut alpha) = (-INF, alpha);
            for c in [tt_move, k[0], k[1]] {
                if c == NO_MOVE
                    || pre[..n_pre].iter().any(|m| m.0 == c)
                    || !self.b.is_candidate(c)
                    || self.b.renju_black(s) && self.b.forbidden_black(c as usize)
                {
                    continue;
                }
                let reducible = !self.is_sharp(c, s);
                let quiet = reducible && self.is_plain(c, s, k);
                let r = reduction(depth, depth - 1, n_pre, pv_node, reducible, quiet);
                let score = self.search_move(c, n_pre, depth - 1, r, alpha, beta, ply);
                if self.aborted {
                    return 0;
                }
                pre[n_pre] = (c, score);
                n_pre += 1;
                if score > best {
                    best = score;
                    if score > alpha {
                        alpha = score;
                        self.update_pv(ply, c);
                        if score >= beta {
                            self.record_cut(ply, s, c as usize, depth);
                            self.tt
                                .store(key, c, score_to_tt(score, ply), depth, BOUND_LOWER);
                            return score;
                        }
                    }
                }
            }
        }
        let mut list = std::mem::take(&mut self.bufs[ply]);
        let outcome = self.generate(&mut list);
        if ply == 0 && !self.root_moves.is_empty() && matches!(outcome, Outcome::Moves(_)) {
            let keep = &self.root_moves;
            list.retain(|m| keep.contains(&m.0));
            if list.is_empty() {
                // the restriction to answers to a three left out every safe move
                list.extend(self.root_moves.iter().map(|&c| (c, 0)));
            }
        }
        let result = self.pvs_moves(
            depth,
            alpha,
            beta,
            ply,
            pv_node,
            tt_move,
            outcome,
            &mut list,
            &pre[..n_pre],
        );
        self.bufs[ply] = list;
        result
    }

    /// First empty cell (near stones) whose flags for `side` include `flag`.
    fn find_cell(&self, side: usize, flag: u8) -> Option<u16> {
        self.b
            .candidates()
            .find(|&c| self.b.info(c, side).flags() & flag != 0)
            .map(|c| c as u16)
    }

    #[allow(clippy::too_many_arguments)]
    fn pvs_moves(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        tt_move: u16,
        outcome: Outcome,
        list: &mut [(u16, i32)],
        pre: &[(u16, i32)],
    ) -> i32 {
        let forced = match outcome {
            Outcome::Win(c) => {
                self.set_pv(ply, c);
                return WIN_SCORE - ply as i32;
            }
            Outcome::WinIn2(c) => {
                self.set_pv(ply, c);
                return WIN_SCORE - ply as i32 - 2;
            }
            Outcome::Lost(c) => {
                self.set_pv(ply, c);
                return -(WIN_SCORE - ply as i32 - 1);
            }
            Outcome::Forced => true,
            Outcome::Moves(_) => false,
        };
        if list.is_empty() {
            // no legal move near the stones (renju forbids them all, or a full board): a draw
            return 0;
        }
        if ply + 2 >= MAX_PLY || (depth <= 0 && !forced) {
            return self.evaluate();
        }
        let key = self.b.hash();
        let side = self.b.side();
        let cells = self.b.cells_len();
        let k = self.killers[ply];
        for m in list.iter_mut() {
            let c = m.0;
            m.1 = if c == tt_move {
                i32::MAX
            } else {
                let mut sc = m.1 * 16 + self.history[side * cells + c as usize].min(1 << 20) / 64;
                if c == k[0] || c == k[1] {
                    sc += 2000;
                }
                sc
            };
        }
        let new_depth = if forced { depth } else { depth - 1 };
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        let restricted = matches!(outcome, Outcome::Moves(true));
        // sharp moves (fours, double threats, for either side) are never reduced or
        // pruned; a plain three is reduced like a quiet move but never pruned
        let sharp = |me: &Self, c: u16| forced || restricted || me.is_sharp(c, side);
        let is_quiet = |me: &Self, c: u16| !sharp(me, c) && me.is_plain(c, side, k);
        // late quiet moves are skipped near the leaves (late-move pruning)
        let lmp = if !pv_node && depth < LMP.len() as i32 {
            LMP[depth as usize]
        } else {
            usize::MAX
        };
        // futility: near the leaves, a quiet move can't lift a position far below alpha
        let futile = !pv_node
            && !forced
            && !restricted
            && depth < FUTILITY.len() as i32
            && alpha.abs() < MATE_BOUND
            && self.evaluate() + FUTILITY[depth as usize] <= alpha;
        let lmp = if futile { lmp.min(1) } else { lmp };
        let mut len = list.len();
        // the moves searched before generating (none cut) take the first slots
        for (j, &(c, score)) in pre.iter().enumerate() {
            let at = list[j..].iter().position(|m| m.0 == c);
            debug_assert!(at.is_some(), "a move searched early is a generated move");
            list.swap(j, j + at.unwrap_or(0));
            if score > best {
                best = score;
                best_move = c;
            }
        }
        alpha = alpha.max(best);
        let mut i = pre.len();
        let mut pruned = false;
        while i < len {
            if !pruned && i >= lmp {
                pruned = true;
                // from here on only threats: drop the quiet rest at once
                let mut j = i;
                while j < len {
                    if is_quiet(self, list[j].0) {
                        len -= 1;
                        list.swap(j, len);
                    } else {
                        j += 1;
                    }
                }
                if i >= len {
                    break;
                }
            }
            // pick the best remaining move (ordering is lazy: most nodes cut early)
            let mut top = i;
            for j in i + 1..len {
                if list[j].1 > list[top].1 {
                    top = j;
                }
            }
            list.swap(i, top);
            let c = list[i].0;
            let ci = c as usize;
            let reducible = !sharp(self, c);
            let quiet = reducible && is_quiet(self, c);
            let r = reduction(depth, new_depth, i, pv_node, reducible, quiet);
            let score = self.search_move(c, i, new_depth, r, alpha, beta, ply);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = c;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, c);
                    if alpha >= beta {
                        if !forced {
                            self.record_cut(ply, side, ci, depth);
                        }
                        break;
                    }
                }
            }
            i += 1;
        }
        let bound = if best >= beta {
            BOUND_LOWER
        } else if best > alpha0 {
            BOUND_EXACT
        } else {
            BOUND_UPPER
        };
        self.tt
            .store(key, best_move, score_to_tt(best, ply), depth, bound);
        best
    }

    /// Whether nothing forces the reply here: no five to make or stop, no straight four
    /// on either side (then [`Self::generate`] answers [`Outcome::Moves`]`(false)`).
    #[inline]
    fn plain_node(&self, s: usize) -> bool {
        let o = 1 - s;
        self.b.five_count(s) == 0
            && self.b.five_count(o) == 0
            && self.b.open4_count(s) == 0
            && self.b.open4_count(o) == 0
    }

    /// Whether `c` makes a four or a double threat for either side (such moves are
    /// never reduced or pruned).
    #[inline]
    fn is_sharp(&self, c: u16, side: usize) -> bool {
        let c = c as usize;
        (self.b.info(c, side).flags() | self.b.info(c, 1 - side).flags()) & (FL_FOUR | FL_DOUBLE)
            != 0
    }

    /// Whether `c`, not sharp, is also no three of the mover's and no killer `k`: a
    /// quiet move, which late-move pruning may skip.
    #[inline]
    fn is_plain(&self, c: u16, side: usize, k: [u16; 2]) -> bool {
        self.b.info(c as usize, side).flags() & FL_THREE == 0 && c != k[0] && c != k[1]
    }

    /// Plays `c`, the `i`-th move searched at a node, searches it to `new_depth` (after
    /// the first: a zero window reduced by `r`, searched again when it beats `alpha`)
    /// and takes it back. The score is the mover's.
    #[allow(clippy::too_many_arguments)]
    fn search_move(
        &mut self,
        c: u16,
        i: usize,
        new_depth: i32,
        r: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.b.play_idx(c as usize);
        let mut score;
        if i == 0 {
            score = -self.pvs(new_depth, -beta, -alpha, ply + 1);
        } else {
            score = -self.pvs(new_depth - r, -alpha - 1, -alpha, ply + 1);
            if r > 0 && score > alpha {
                score = -self.pvs(new_depth, -alpha - 1, -alpha, ply + 1);
            }
            if score > alpha && score < beta {
                score = -self.pvs(new_depth, -beta, -alpha, ply + 1);
            }
        }
        self.b.undo_idx();
        score
    }

    /// A quiet move `c` refuted the node: remember it (killers, history).
    fn record_cut(&mut self, ply: usize, side: usize, c: usize, depth: i32) {
        let kk = &mut self.killers[ply];
        if kk[0] != c as u16 {
            kk[1] = kk[0];
            kk[0] = c as u16;
        }
        let cells = self.b.cells_len();
        self.history[side * cells + c] += depth * depth;
    }

    fn set_pv(&mut self, ply: usize, c: u16) {
        self.pv[ply][ply] = c;
        self.pv_len[ply] = ply + 1;
    }

    fn update_pv(&mut self, ply: usize, c: u16) {
        self.pv[ply][ply] = c;
        let end = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..end {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = end;
    }

    /// Victory by continuous fours for the side to move, at most `depth` more fours.
    /// On success `pv[ply]` holds the sequence.
    fn vcf(&mut self, ply: usize, depth: i32) -> bool {
        self.pv_len[ply] = ply;
        if ply + 3 >= MAX_PLY || self.tick() {
            return false;
        }
        let s = self.b.side();
        let o = 1 - s;
        let mut fours = std::mem::take(&mut self.bufs[ply]);
        fours.clear();
        let mut opp_five = NO_MOVE;
        let mut opp_fives = 0;
        let mut win = NO_MOVE;
        for c in self.b.candidates() {
            let me = self.b.info(c, s);
            if me.flags() & FL_FIVE != 0 {
                win = c as u16;
                break;
            }
            if self.b.info(c, o).flags() & FL_FIVE != 0 {
                opp_five = c as u16;
                opp_fives += 1;
            }
            if me.flags() & FL_FOUR != 0 {
                fours.push((c as u16, me.value()));
            }
        }
        let found = if win != NO_MOVE {
            self.set_pv(ply, win);
            self.vcf_tail = 0;
            true
        } else if opp_fives > 1 {
            false
        } else {
            if opp_fives == 1 {
                // we must block; it keeps the attack only if the block is itself a four
                fours.retain(|&(c, _)| c == opp_five);
            }
            if self.b.renju_black(s) {
                fours.retain(|&(c, _)| !self.b.forbidden_black(c as usize));
            }
            fours.sort_unstable_by_key(|m| std::cmp::Reverse(m.1));
            let mut found = false;
            if let Some(&(c, _)) = fours.iter().find(|&&(c, _)| {
                opp_fives == 0 && self.b.info(c as usize, s).flags() & FL_OPEN4 != 0
            }) {
                self.set_pv(ply, c);
                self.vcf_tail = 2;
                found = true;
            } else if depth > 0 {
                for &(c, _) in fours.iter() {
                    if self.vcf_try(ply, c, depth) {
                        found = true;
                        break;
                    }
                    if self.aborted {
                        break;
                    }
                }
            }
            found
        };
        self.bufs[ply] = fours;
        found
    }

    /// Plays the four `c`, the forced block, and continues the VCF.
    fn vcf_try(&mut self, ply: usize, c: u16, depth: i32) -> bool {
        let s = self.b.side();
        self.b.play_idx(c as usize);
        // the block is the attacker's unique five point, on one of c's lines
        let block = self.five_point_near(c as usize, s);
        let mut won = false;
        if let Some(blk) = block {
            if self.b.forbidden_for(blk, 1 - s) {
                // the defender can't take the point: the five comes next move
                self.pv_len[ply + 1] = ply + 1;
                self.vcf_tail = 2;
                won = true;
            } else {
                self.b.play_idx(blk);
                self.tick();
                if self.vcf(ply + 2, depth - 1) {
                    self.pv[ply + 1][ply + 1] = blk as u16;
                    for i in ply + 2..self.pv_len[ply + 2] {
                        self.pv[ply + 1][i] = self.pv[ply + 2][i];
                    }
                    self.pv_len[ply + 1] = self.pv_len[ply + 2];
                    won = true;
                }
                self.b.undo_idx();
            }
        }
        self.b.undo_idx();
        if won {
            self.pv[ply][ply] = c;
            for i in ply + 1..self.pv_len[ply + 1] {
                self.pv[ply][i] = self.pv[ply + 1][i];
            }
            self.pv_len[ply] = self.pv_len[ply + 1];
        }
        won
    }

    /// Victory by continuous threats (fours and threes) for the side to move within
    /// `depth` more attacker moves. Returns how many own moves the win takes against the
    /// defences tried (forced blocks; against a three: the defender's fours and every cell
    /// where the attacker would make a four, which covers all ways to stop a straight four).
    fn vct(&mut self, ply: usize, depth: i32) -> Option<i32> {
        if ply + 4 >= MAX_PLY || self.tick() {
            return None;
        }
        let s = self.b.side();
        let o = 1 - s;
        let mut moves = std::mem::take(&mut self.bufs[ply]);
        moves.clear();
        let (mut opp_five, mut opp_fives, mut win) = (NO_MOVE, 0, false);
        for c in self.b.candidates() {
            let me = self.b.info(c, s);
            if me.flags() & FL_FIVE != 0 {
                win = true;
                break;
            }
            if self.b.info(c, o).flags() & FL_FIVE != 0 {
                opp_five = c as u16;
                opp_fives += 1;
            }
            if me.flags() & (FL_FOUR | FL_THREE) != 0 {
                moves.push((c as u16, me.value()));
            }
        }
        let result = if win {
            Some(1)
        } else if opp_fives > 1 {
            None
        } else {
            if opp_fives == 1 {
                // the block is forced; the attack goes on only if it is itself a threat
                moves.retain(|&(c, _)| c == opp_five);
            }
            if self.b.renju_black(s) {
                moves.retain(|&(c, _)| !self.b.forbidden_black(c as usize));
            }
            if opp_fives == 0
                && moves
                    .iter()
                    .any(|&(c, _)| self.b.info(c as usize, s).flags() & FL_OPEN4 != 0)
            {
                Some(2)
            } else if depth <= 0 {
                None
            } else {
                moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.1));
                moves.truncate(VCT_WIDTH);
                let mut found = None;
                for &(c, _) in moves.iter() {
                    self.b.play_idx(c as usize);
                    let r = self.vct_defend(ply + 1, depth);
                    self.b.undo_idx();
                    if let Some(n) = r {
                        self.pv[ply][ply] = c;
                        self.pv_len[ply] = ply + 1;
                        found = Some(n + 1);
                        break;
                    }
                    if self.aborted {
                        break;
                    }
                }
                found
            }
        };
        self.bufs[ply] = moves;
        result
    }

    /// The defender's turn in [`Self::vct`]: every defence must lose. Returns the
    /// attacker's moves still needed against the longest defence.
    fn vct_defend(&mut self, ply: usize, depth: i32) -> Option<i32> {
        if ply + 4 >= MAX_PLY || self.tick() {
            return None;
        }
        let d = self.b.side();
        let a = 1 - d;
        if self.b.five_count(d) > 0 {
            return None;
        }
        let mut defences = std::mem::take(&mut self.bufs[ply]);
        defences.clear();
        let mut result = None;
        'node: {
            let att_fives = self.b.five_count(a);
            if att_fives >= 2 {
                result = Some(1);
                break 'node;
            }
            let mut threat = att_fives == 1;
            for c in self.b.candidates() {
                let att = self.b.info(c, a);
                if att_fives == 1 {
                    if att.flags() & FL_FIVE != 0 {
                        defences.push((c as u16, 0));
                    }
                    continue;
                }
                if att.flags() & FL_OPEN4 != 0 && !threat && !self.b.forbidden_for(c, a) {
                    threat = true;
                }
                if att.flags() & FL_FOUR != 0 || self.b.info(c, d).flags() & FL_FOUR != 0 {
                    defences.push((c as u16, 0));
                }
            }
            if !threat {
                // the "three" can't become a straight four: the defender is free
                break 'node;
            }
            if self.b.renju_black(d) {
                defences.retain(|&(c, _)| !self.b.forbidden_black(c as usize));
            }
            if defences.is_empty() {
                result = Some(1 + (att_fives == 0) as i32);
                break 'node;
            }
            let mut worst = 0;
            for &(c, _) in defences.iter() {
                let c = c as usize;
                self.b.play_idx(c);
                let r = self.vct(ply + 1, depth - 1);
                self.b.undo_idx();
                match r {
                    Some(n) => worst = worst.max(n),
                    None => break 'node,
                }
            }
            result = Some(worst);
        }
        self.bufs[ply] = defences;
        result
    }

    /// Runs `f` with at most `nodes` more nodes. Returns its answer and whether it was cut
    /// short; `self.aborted` stays set only when the whole search must end.
    fn bounded<T>(&mut self, nodes: u64, f: impl FnOnce(&mut Self) -> T) -> (T, bool) {
        let saved = self.node_limit;
        let budget = self.nodes.saturating_add(nodes).min(saved);
        self.node_limit = budget;
        let r = f(self);
        self.node_limit = saved;
        let cut = self.aborted;
        if cut && self.nodes >= budget && budget < saved {
            self.aborted = false;
        }
        (r, cut)
    }

    /// Whether the opponent, were it his move now, would win by continuous fours.
    fn opponent_vcf(&mut self, depth: i32) -> bool {
        self.b.toggle_pass();
        let won = self.vcf(0, depth);
        self.b.toggle_pass();
        won
    }

    /// When the opponent, given the move, would win by continuous fours: the root moves
    /// (from `list`) after which he proven no longer can within the budget, our fours
    /// first, then the cells of his winning line, his threat cells and their neighbours.
    /// Empty when he has no such win, when no move stops it or when the search is stopped.
    fn vcf_defences(&mut self, list: &[(u16, i32)], depth: i32) -> Vec<u16> {
        let total = (self.node_limit / 4).min(ROOT_DEFEND_NODES);
        let end = self.nodes.saturating_add(total);
        let (threat, cut) = self.bounded(total.min(ROOT_THREAT_NODES), |me| me.opponent_vcf(depth));
        if !threat || cut {
            return Vec::new();
        }
        let s = self.b.side();
        let o = 1 - s;
        let line: Vec<u16> = self.pv[0][..self.pv_len[0]].to_vec();
        let attacks: Vec<u16> = line.iter().step_by(2).copied().collect();
        let near_attack = |b: &Board, c: u16| {
            let (x, y) = b.point(c as usize);
            attacks.iter().any(|&a| {
                let (ax, ay) = b.point(a as usize);
                x.abs_diff(ax).max(y.abs_diff(ay)) <= 1
            })
        };
        let mut cands: Vec<u16> = Vec::new();
        let mut by_rank: [Vec<(u16, i32)>; 4] = Default::default();
        for &(c, v) in list {
            let ci = c as usize;
            let rank = if self.b.info(ci, s).flags() & FL_FOUR != 0 {
                0
            } else if line.contains(&c) {
                1
            } else if self.b.info(ci, o).flags() & (FL_FOUR | FL_THREE | FL_DOUBLE) != 0 {
                2
            } else if near_attack(&self.b, c) {
                3
            } else {
                continue;
            };
            by_rank[rank].push((c, v));
        }
        for group in by_rank.iter_mut() {
            group.sort_unstable_by_key(|m| std::cmp::Reverse(m.1));
            cands.extend(group.iter().map(|m| m.0));
        }
        cands.truncate(ROOT_DEFEND_WIDTH);
        let mut safe = Vec::new();
        for c in cands {
            if self.nodes >= end {
                break;
            }
            let left = end - self.nodes;
            let share = (left / 4).max(2_000).min(left);
            let ci = c as usize;
            let four = self.b.info(ci, s).flags() & FL_FOUR != 0;
            self.b.play_idx(ci);
            let (wins, cut) = if four {
                // he must block; then we are to move again, so he is safe from our
                // pass only if he has no VCF even then
                match self.five_point_near(ci, s) {
                    Some(blk) if !self.b.forbidden_for(blk, o) => {
                        self.b.play_idx(blk);
                        let r = self.bounded(share, |me| me.opponent_vcf(depth));
                        self.b.undo_idx();
                        r
                    }
                    _ => (false, false),
                }
            } else {
                self.bounded(share, |me| me.vcf(0, depth))
            };
            self.b.undo_idx();
            if self.aborted {
                break;
            }
            if !wins && !cut {
                safe.push(c);
            }
        }
        safe
    }

    /// A cell within four steps of `c` along its lines where `side` completes a five.
    fn five_point_near(&self, c: usize, side: usize) -> Option<usize> {
        let n = self.b.size() as i32;
        let (x, y) = self.b.point(c);
        for (dx, dy) in super::board::DIRS {
            for k in -4i32..=4 {
                let (qx, qy) = (x as i32 + k * dx, y as i32 + k * dy);
                if k == 0 || qx < 0 || qy < 0 || qx >= n || qy >= n {
                    continue;
                }
                let q = (qy * n + qx) as usize;
                if self.b.is_empty_idx(q) && self.b.info(q, side).flags() & FL_FIVE != 0 {
                    return Some(q);
                }
            }
        }
        None
    }

    /// Any legal move, preferring good ones: used when the search can't say more.
    fn fallback(&mut self) -> u16 {
        let mut list = Vec::new();
        let _ = self.generate(&mut list);
        let s = self.b.side();
        list.sort_unstable_by_key(|m| std::cmp::Reverse(m.1));
        for &(c, _) in &list {
            if self.b.legal_idx(c as usize) {
                return c;
            }
        }
        let size = self.b.size();
        let centre = (size / 2) * size + size / 2;
        let order = std::iter::once(centre).chain(0..self.b.cells_len());
        let mut any_empty = None;
        for c in order {
            if self.b.is_empty_idx(c) {
                any_empty.get_or_insert(c);
                if !self.b.forbidden_for(c, s) {
                    return c as u16;
                }
            }
        }
        // every empty cell is forbidden for black: nothing legal exists; stay on the board
        any_empty.unwrap_or(0) as u16
    }

    fn result(&self, best: u16, eval: i32, depth: u32, pv: &[u16]) -> SearchResult {
        let win_in = if eval > MATE_BOUND {
            Some((WIN_SCORE - eval) / 2 + 1)
        } else if eval < -MATE_BOUND {
            Some(-((WIN_SCORE + eval + 1) / 2))
        } else {
            None
        };
        let mut pv_points: Vec<Point> = vec![self.b.point(best as usize)];
        if pv.first() == Some(&best) {
            pv_points.extend(
                pv[1..]
                    .iter()
                    .take_while(|&&c| c != NO_MOVE)
                    .map(|&c| self.b.point(c as usize)),
            );
        }
        SearchResult {
            best: self.b.point(best as usize),
            eval,
            win_in,
            depth,
            nodes: self.nodes,
            pv: pv_points,
        }
    }

    fn root(&mut self, limits: &Limits) -> SearchResult {
        if self.b.ply() == 0 {
            let size = self.b.size();
            let c = ((size / 2) * size + size / 2) as u16;
            return self.result(c, 0, 0, &[c]);
        }
        let mut list = Vec::new();
        let outcome = self.generate(&mut list);
        self.nodes += 1;
        match outcome {
            Outcome::Win(c) => return self.result(c, WIN_SCORE, 1, &[c]),
            Outcome::WinIn2(c) => return self.result(c, WIN_SCORE - 2, 1, &[c]),
            Outcome::Lost(c) => {
                // block what can be blocked; if the point is forbidden, any legal move
                let best = if self.b.legal_idx(c as usize) {
                    c
                } else {
                    self.fallback()
                };
                return self.result(best, -(WIN_SCORE - 1), 1, &[best]);
            }
            Outcome::Forced | Outcome::Moves(_) => {}
        }
        let fallback = if outcome == Outcome::Forced {
            list[0].0
        } else {
            self.fallback()
        };
        if outcome != Outcome::Forced {
            // a forced win by fours ends the question at once
            // the threat searches get a bounded share of the node budget
            let budget = self.nodes + (self.node_limit / 4).min(ROOT_VCF_NODES);
            let saved = std::mem::replace(&mut self.node_limit, budget);
            let vcf_depth = limits
                .max_depth
                .map_or(ROOT_VCF_DEPTH, |d| (d as i32).clamp(1, ROOT_VCF_DEPTH));
            let found = self.vcf(0, vcf_depth);
            self.node_limit = saved;
            let hit_budget = self.aborted && self.nodes >= budget && budget < saved;
            if found {
                let pv: Vec<u16> = self.pv[0][..self.pv_len[0]].to_vec();
                let eval = WIN_SCORE - (pv.len() as i32 - 1) - self.vcf_tail;
                return self.result(pv[0], eval, 1, &pv);
            }
            if self.aborted && !hit_budget {
                return self.result(fallback, self.evaluate(), 0, &[fallback]);
            }
            self.aborted = false;
            // then a win by threes and fours, shortest first
            let budget = self.nodes + (saved / 8).min(ROOT_VCT_NODES);
            self.node_limit = budget;
            let max_vct = limits
                .max_depth
                .map_or(ROOT_VCT_DEPTH, |d| (d as i32).clamp(1, ROOT_VCT_DEPTH));
            let mut vct = None;
            for depth in 2..=max_vct {
                vct = self.vct(0, depth);
                if vct.is_some() || self.aborted {
                    break;
                }
            }
            self.node_limit = saved;
            let hit_budget = self.aborted && self.nodes >= budget && budget < saved;
            if let Some(n) = vct {
                let c = self.pv[0][0];
                return self.result(c, WIN_SCORE - 2 * (n - 1), 1, &[c]);
            }
            if self.aborted && !hit_budget {
                return self.result(fallback, self.evaluate(), 0, &[fallback]);
            }
            self.aborted = false;
        }
        let mut fallback = fallback;
        if outcome != Outcome::Forced {
            // the opponent's threat is looked at in full whatever the PVS depth limit
            // (the node budget bounds it): a shallow search must not walk into it
            let safe = self.vcf_defences(&list, ROOT_VCF_DEPTH);
            if let Some(&first) = safe.first() {
                fallback = first;
            }
            if self.aborted {
                return self.result(fallback, self.evaluate(), 0, &[fallback]);
            }
            self.root_moves = safe;
        }
        let max_depth = limits
            .max_depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8);
        let mut best = fallback;
        let mut eval = self.evaluate();
        let mut depth_done = 0;
        let mut pv = vec![fallback];
        for depth in 1..=max_depth {
            let score = self.pvs(depth as i32, -INF, INF, 0);
            if self.aborted {
                break;
            }
            if self.pv_len[0] > 0 && self.pv[0][0] != NO_MOVE {
                best = self.pv[0][0];
                pv = self.pv[0][..self.pv_len[0]].to_vec();
            }
            eval = score;
            depth_done = depth;
            if score.abs() > MATE_BOUND {
                break;
            }
        }
        if !self.b.legal_idx(best as usize) {
            best = fallback;
        }
        self.result(best, eval, depth_done, &pv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::Rule;

    /// Black to move has a four-three at (8, 7): a closed three in the row and an open
    /// two in the column. No single move wins and there is no open four yet, so only the
    /// quiescence VCF sees the win at a leaf.
    #[test]
    fn leaf_vcf_sees_a_four_three_win() {
        let moves = [
            (5, 7),
            (4, 7),
            (6, 7),
            (0, 0),
            (7, 7),
            (14, 0),
            (8, 5),
            (0, 14),
            (8, 6),
            (14, 14),
        ];
        let board = Board::from_moves(15, Rule::Freestyle, &moves).expect("position");
        let mut tt = Tt::new(1);
        let stop = Stop::never();
        let mut s = Searcher::new(board, &mut tt, &stop, u64::MAX);
        assert!(s.evaluate().abs() < MATE_BOUND);
        assert_eq!(s.b.open4_count(0), 0);
        let score = s.pvs(0, -INF, INF, 0);
        assert_eq!(score, WIN_SCORE - 4, "four, block, straight four");
        let line: Vec<Point> = s.pv[0][..s.pv_len[0]]
            .iter()
            .map(|&c| s.b.point(c as usize))
            .collect();
        assert_eq!(line[..2], [(8, 7), (9, 7)]);
    }
}
