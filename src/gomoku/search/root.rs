//! The root driver: immediate answers, the root threat searches within their
//! share of the node budget, then iterative deepening (over one line, or over
//! several for ranked candidates); the result and its PV.

use super::{
    ASPIRATION_DELTA, ASPIRATION_MAX, ASPIRATION_MIN_DEPTH, Candidate, INF, Limits, MATE_BOUND,
    MAX_CANDIDATES, MAX_PLY, NO_MOVE, Outcome, Point, ROOT_VCF_DEPTH, ROOT_VCF_NODES,
    ROOT_VCT_DEPTH, ROOT_VCT_NODES, SearchResult, Searcher, WIN_SCORE,
};

/// `win_in` of an evaluation: the proven win or loss it stands for, if any.
fn win_in(eval: i32) -> Option<i32> {
    if eval > MATE_BOUND {
        Some((WIN_SCORE - eval) / 2 + 1)
    } else if eval < -MATE_BOUND {
        Some(-((WIN_SCORE + eval + 1) / 2))
    } else {
        None
    }
}

/// One root line of the multi-PV search: its move, value and PV.
struct Line {
    mv: u16,
    eval: i32,
    pv: Vec<u16>,
}

impl Searcher<'_> {
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

    /// The line `pv` as points, starting with `best` (a `pv` that doesn't
    /// start with it is not `best`'s line and is left out).
    fn line_points(&self, best: u16, pv: &[u16]) -> Vec<Point> {
        let mut points: Vec<Point> = vec![self.b.point(best as usize)];
        if pv.first() == Some(&best) {
            points.extend(
                pv[1..]
                    .iter()
                    .take_while(|&&c| c != NO_MOVE)
                    .map(|&c| self.b.point(c as usize)),
            );
        }
        points
    }

    fn candidate(&self, mv: u16, eval: i32, pv: &[u16]) -> Candidate {
        Candidate {
            point: self.b.point(mv as usize),
            eval,
            win_in: win_in(eval),
            pv: self.line_points(mv, pv),
        }
    }

    /// The answer with `best` as its only candidate.
    fn result(&self, best: u16, eval: i32, depth: u32, pv: &[u16]) -> SearchResult {
        self.ranked(vec![self.candidate(best, eval, pv)], depth)
    }

    /// The answer from ranked candidates (at least one), the first the best.
    fn ranked(&self, candidates: Vec<Candidate>, depth: u32) -> SearchResult {
        let first = &candidates[0];
        SearchResult {
            best: first.point,
            eval: first.eval,
            win_in: first.win_in,
            depth,
            nodes: self.nodes,
            pv: first.pv.clone(),
            candidates,
        }
    }

    pub(super) fn root(&mut self, limits: &Limits) -> SearchResult {
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
        let lines = limits.candidates.clamp(1, MAX_CANDIDATES);
        if lines > 1 {
            let mut root_list = list;
            if outcome != Outcome::Forced {
                self.restrict_root(&mut root_list);
            }
            let lines = lines.min(root_list.len());
            if lines > 1 {
                return self.multi_pv(lines, max_depth, fallback);
            }
        }
        let mut best = fallback;
        let mut eval = self.evaluate();
        let mut depth_done = 0;
        let mut pv = vec![fallback];
        for depth in 1..=max_depth {
            let score = if depth >= ASPIRATION_MIN_DEPTH && eval.abs() < MATE_BOUND {
                self.aspiration(depth as i32, eval)
            } else {
                self.pvs(depth as i32, -INF, INF, 0)
            };
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

    /// The root searched in a window around the last iteration's value `guess`,
    /// widened on the failing side until the value falls inside (or the window
    /// is the whole range).
    fn aspiration(&mut self, depth: i32, guess: i32) -> i32 {
        let mut delta = ASPIRATION_DELTA;
        let (mut lo, mut hi) = (guess - delta, guess + delta);
        loop {
            let score = self.pvs(depth, lo, hi, 0);
            if self.aborted || (score > lo && score < hi) {
                return score;
            }
            delta *= 2;
            let wide = delta > ASPIRATION_MAX;
            if score <= lo {
                lo = if wide { -INF } else { score - delta };
            } else {
                hi = if wide { INF } else { score + delta };
            }
        }
    }

    /// Iterative deepening over the `lines` best root moves (more than one, at
    /// most the number of root moves): each iteration searches the best move
    /// with a full window, then the best of the others, and so on.
    fn multi_pv(&mut self, lines: usize, max_depth: u32, fallback: u16) -> SearchResult {
        let mut ranked: Vec<Line> = Vec::new();
        let mut depth_done = 0;
        for depth in 1..=max_depth {
            let mut fresh: Vec<Line> = Vec::with_capacity(lines);
            self.root_excluded.clear();
            while fresh.len() < lines {
                let score = self.pvs(depth as i32, -INF, INF, 0);
                if self.aborted || self.pv_len[0] == 0 || self.pv[0][0] == NO_MOVE {
                    break;
                }
                let mv = self.pv[0][0];
                fresh.push(Line {
                    mv,
                    eval: score,
                    pv: self.pv[0][..self.pv_len[0]].to_vec(),
                });
                self.root_excluded.push(mv);
            }
            self.root_excluded.clear();
            if !fresh.is_empty() {
                // a later line can come out a little above an earlier one (the
                // table and history changed in between): rank by value
                fresh.sort_by_key(|l| std::cmp::Reverse(l.eval));
                // an iteration cut short keeps the earlier iteration's other
                // lines, after its own deeper ones
                let rest: Vec<Line> = ranked
                    .into_iter()
                    .filter(|l| fresh.iter().all(|f| f.mv != l.mv))
                    .collect();
                fresh.extend(rest);
                fresh.truncate(lines);
                ranked = fresh;
                depth_done = depth;
            }
            if self.aborted || ranked.iter().all(|l| l.eval.abs() > MATE_BOUND) {
                break;
            }
        }
        let mut candidates = Vec::with_capacity(ranked.len());
        for l in &ranked {
            if self.b.legal_idx(l.mv as usize) {
                candidates.push(self.candidate(l.mv, l.eval, &l.pv));
            }
        }
        if candidates.is_empty() {
            return self.result(fallback, self.evaluate(), 0, &[fallback]);
        }
        self.ranked(candidates, depth_done)
    }
}
