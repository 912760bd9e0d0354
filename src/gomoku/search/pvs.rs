//! The principal-variation search: move generation and ordering, pruning and
//! reductions, the quiescence VCF at the leaves, killers, history and the PV.

use crate::gomoku::patterns::{
    FL_DOUBLE, FL_FIVE, FL_FOUR, FL_MAYBE_FORBIDDEN, FL_OPEN4, FL_THREE, THREAT, VALUE_SCALE,
    threat_index,
};

use super::table::{BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, Entry, score_from_tt, score_to_tt};
use super::{
    FUTILITY, HISTORY_MAX, IIR_MIN_DEPTH, INF, LEAF_VCF_DEPTH, LEAF_VCF_NODES, LMP, LMR,
    MATE_BOUND, MAX_PLY, NO_MOVE, Outcome, SINGULAR_MARGIN, SINGULAR_MIN_DEPTH, SINGULAR_TT_SLACK,
    Searcher, WIN_SCORE,
};

/// Late-move reduction of the `i`-th move of a node at `depth` (none for the first moves
/// and for moves that are not `reducible`; one more for a `quiet` move off the PV).
pub(super) fn reduction(
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

/// What the singular-extension test says of a table move.
enum Singular {
    /// The only good move: search it a ply deeper.
    Extend,
    /// Other moves hold too, above beta: the node fails high with this value.
    Cut(i32),
    /// Neither (or not tested).
    No,
}

impl Searcher<'_> {
    /// Classifies the node and fills `list` with the moves to search (ordering score in .1).
    pub(super) fn generate(&mut self, list: &mut Vec<(u16, i32)>) -> Outcome {
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
                list.push((c as u16, me.mover_value() + op.opponent_value()));
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

    /// The static evaluation, from the side to move's view (see `patterns::MOVER_WEIGHTS`).
    pub(super) fn evaluate(&self) -> i32 {
        let s = self.b.side();
        let o = 1 - s;
        let values = self.b.mover_value_sum(s) - self.b.opponent_value_sum(o);
        let threats = threat_index(self.b.threats(s), self.b.threats(o));
        values / VALUE_SCALE + THREAT[threats]
    }

    pub(super) fn pvs(&mut self, mut depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if self.tick() {
            return 0;
        }
        if ply == 0 {
            self.root_depth = depth;
        }
        // a singular-extension test of this node: everything but this move
        let excluded = self.excluded[ply];
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
        // (the table's entry is the whole node's, so a test without its move ignores it)
        let tt_entry = if excluded == NO_MOVE {
            self.tt.probe(key)
        } else {
            None
        };
        if let Some(e) = tt_entry {
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
        // internal iterative reduction: a node the table has no move for is searched
        // a ply shallower (it is seldom on the line that matters, and without a first
        // move to try its full-depth search is the most expensive)
        if depth >= IIR_MIN_DEPTH && tt_move == NO_MOVE && ply > 0 && excluded == NO_MOVE {
            depth -= 1;
        }
        // reverse futility: near the leaves, with no threat to answer, a position far
        // above beta is left at its static value
        if !pv_node
            && ply > 0
            && excluded == NO_MOVE
            && depth < FUTILITY.len() as i32
            && beta.abs() < MATE_BOUND
            && self.plain_node(s)
        {
            let eval = self.evaluate();
            if eval - FUTILITY[depth as usize] >= beta {
                return eval;
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
                    || c == excluded
                    || pre[..n_pre].iter().any(|m| m.0 == c)
                    || !self.b.is_candidate(c)
                    || self.b.renju_black(s) && self.b.forbidden_black(c as usize)
                {
                    continue;
                }
                let mut new_depth = depth - 1;
                if c == tt_move
                    && let Some(e) = tt_entry
                {
                    let verdict = self.singular(e, depth, beta, ply);
                    if self.aborted {
                        return 0;
                    }
                    match verdict {
                        Singular::Extend => new_depth += 1,
                        Singular::Cut(score) => return score,
                        Singular::No => {}
                    }
                }
                let reducible = !self.is_double_threat(c, s);
                let quiet = !self.is_sharp(c, s) && self.is_plain(c, s, k);
                let r = reduction(depth, new_depth, n_pre, pv_node, reducible, quiet);
                let score = self.search_move(c, n_pre, new_depth, r, alpha, beta, ply);
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
                            for &(m, _) in &pre[..n_pre - 1] {
                                self.lower_history(s, m as usize, depth);
                            }
                            if excluded == NO_MOVE {
                                self.tt
                                    .store(key, c, score_to_tt(score, ply), depth, BOUND_LOWER);
                            }
                            return score;
                        }
                    }
                }
            }
        }
        let mut list = std::mem::take(&mut self.bufs[ply]);
        let outcome = self.generate(&mut list);
        if ply == 0 && matches!(outcome, Outcome::Moves(_)) {
            self.restrict_root(&mut list);
        }
        if excluded != NO_MOVE {
            list.retain(|m| m.0 != excluded);
            if list.is_empty() && n_pre == 0 {
                // no other move: the left-out one is singular
                self.bufs[ply] = list;
                return alpha;
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

    /// Keeps, of the root's generated moves, those the root searches: the ones
    /// that stop the opponent's VCF when that was checked, less the lines a
    /// multi-PV iteration has already ranked.
    pub(super) fn restrict_root(&self, list: &mut Vec<(u16, i32)>) {
        if !self.root_moves.is_empty() {
            let keep = &self.root_moves;
            list.retain(|m| keep.contains(&m.0));
            if list.is_empty() {
                // the restriction to answers to a three left out every safe move
                list.extend(self.root_moves.iter().map(|&c| (c, 0)));
            }
        }
        if !self.root_excluded.is_empty() {
            let skip = &self.root_excluded;
            list.retain(|m| !skip.contains(&m.0));
        }
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
                let mut sc = m.1 * 16 + self.history[side * cells + c as usize] / 64;
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
        // only the mover's double threats are never reduced (a four's forced block
        // costs no depth, so a four's line is cheap to search even reduced); sharp
        // moves and the mover's threes are reduced less than quiet moves, and
        // futility skips only quiet moves
        let sharp = |me: &Self, c: u16| forced || restricted || me.is_sharp(c, side);
        let is_quiet = |me: &Self, c: u16| !sharp(me, c) && me.is_plain(c, side, k);
        // past a move count, near the leaves, only double threats (either side's)
        // and killers are searched (late-move pruning)
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
        let protected = |me: &Self, c: u16| {
            forced
                || restricted
                || c == k[0]
                || c == k[1]
                || (me.b.info(c as usize, side).flags() | me.b.info(c as usize, 1 - side).flags())
                    & FL_DOUBLE
                    != 0
        };
        let futile_from = if futile { 1 } else { usize::MAX };
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
        let mut futility_pruned = false;
        let mut count_pruned = false;
        while i < len {
            let drop_quiet = !futility_pruned && i >= futile_from;
            let drop_late = !count_pruned && i >= lmp;
            if drop_quiet || drop_late {
                futility_pruned |= drop_quiet;
                count_pruned |= drop_late;
                // drop the rest at once: the quiet moves (futility), or all but
                // the protected ones (move count)
                let mut j = i;
                while j < len {
                    let c = list[j].0;
                    let gone = if drop_late {
                        !protected(self, c)
                    } else {
                        is_quiet(self, c)
                    };
                    if gone {
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
            let reducible = !forced && !self.is_double_threat(c, side);
            // a plain four (either side's) is reduced as much as a quiet move
            let quiet =
                is_quiet(self, c) || (!forced && !restricted && self.is_plain_four(c, side, k));
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
                            for &(m, _) in &list[..i] {
                                self.lower_history(side, m as usize, depth);
                            }
                        }
                        break;
                    }
                }
            }
            i += 1;
        }
        if ply == 0 && !self.root_excluded.is_empty() {
            // the best of the moves left is not the root's value: keep the
            // table's root move for the next iteration's first line
            return best;
        }
        if self.excluded[ply] != NO_MOVE {
            return best;
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

    /// The singular-extension test of the table move `e.mv` at a node of `depth`:
    /// the node searched without it, half as deep, against a bound a margin
    /// below the table's value.
    fn singular(&mut self, e: Entry, depth: i32, beta: i32, ply: usize) -> Singular {
        let value = score_from_tt(e.score as i32, ply);
        if depth < SINGULAR_MIN_DEPTH
            || e.bound & BOUND_LOWER == 0
            || (e.depth as i32) < depth - SINGULAR_TT_SLACK
            || value.abs() >= MATE_BOUND
            || ply as i32 >= 2 * self.root_depth
        {
            return Singular::No;
        }
        let bound = value - SINGULAR_MARGIN * depth;
        self.excluded[ply] = e.mv;
        let score = self.pvs(depth / 2, bound - 1, bound, ply);
        self.excluded[ply] = NO_MOVE;
        // the test wrote its own line at this ply
        self.pv_len[ply] = ply;
        if score < bound {
            Singular::Extend
        } else if bound >= beta {
            // another move also holds above beta, even a margin lower: cut
            Singular::Cut(bound)
        } else {
            Singular::No
        }
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
    /// never quiet: reduced less, and not skipped by futility).
    #[inline]
    fn is_sharp(&self, c: u16, side: usize) -> bool {
        let c = c as usize;
        (self.b.info(c, side).flags() | self.b.info(c, 1 - side).flags()) & (FL_FOUR | FL_DOUBLE)
            != 0
    }

    /// Whether `c` makes a four for either side but no double threat, and is no
    /// three of the mover's and no killer.
    #[inline]
    fn is_plain_four(&self, c: u16, side: usize, k: [u16; 2]) -> bool {
        let f = self.b.info(c as usize, side).flags() | self.b.info(c as usize, 1 - side).flags();
        f & FL_FOUR != 0 && f & FL_DOUBLE == 0 && self.is_plain(c, side, k)
    }

    /// Whether `c` makes a four-three or a three-three for the mover (a win threat
    /// that only fours can delay): such moves are never reduced.
    #[inline]
    fn is_double_threat(&self, c: u16, side: usize) -> bool {
        self.b.info(c as usize, side).flags() & FL_DOUBLE != 0
    }

    /// Whether `c`, not sharp, is also no three of the mover's and no killer `k`: a
    /// quiet move, which futility may skip.
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
        self.add_history(side, c, depth * depth);
    }

    /// A move `c` searched before the one that refuted the node did not: it loses
    /// what a cut would have given it.
    fn lower_history(&mut self, side: usize, c: usize, depth: i32) {
        self.add_history(side, c, -depth * depth);
    }

    fn add_history(&mut self, side: usize, c: usize, delta: i32) {
        let cells = self.b.cells_len();
        let h = &mut self.history[side * cells + c];
        *h = (*h + delta).clamp(-HISTORY_MAX, HISTORY_MAX);
    }

    pub(super) fn set_pv(&mut self, ply: usize, c: u16) {
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
}
