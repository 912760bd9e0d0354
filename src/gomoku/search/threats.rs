//! Threat-space search: victory by continuous fours (VCF) and by continuous
//! threats (VCT), and the root's defence against the opponent's VCF.

use crate::gomoku::board::Board;
use crate::gomoku::patterns::{FL_DOUBLE, FL_FIVE, FL_FOUR, FL_OPEN4, FL_THREE};

use super::{
    MAX_PLY, NO_MOVE, ROOT_DEFEND_NODES, ROOT_DEFEND_WIDTH, ROOT_THREAT_NODES, Searcher, VCT_WIDTH,
};

impl Searcher<'_> {
    /// Victory by continuous fours for the side to move, at most `depth` more fours.
    /// On success `pv[ply]` holds the sequence.
    pub(super) fn vcf(&mut self, ply: usize, depth: i32) -> bool {
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
                fours.push((c as u16, me.mover_value()));
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
    /// At the root, every threat is tried and the shortest win kept.
    pub(super) fn vct(&mut self, ply: usize, depth: i32) -> Option<i32> {
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
                moves.push((c as u16, me.mover_value()));
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
                        if found.is_none_or(|f| n + 1 < f) {
                            self.pv[ply][ply] = c;
                            self.pv_len[ply] = ply + 1;
                            found = Some(n + 1);
                        }
                        // below the root any win will do; at the root, another
                        // threat may win sooner
                        if ply > 0 {
                            break;
                        }
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
    pub(super) fn bounded<T>(&mut self, nodes: u64, f: impl FnOnce(&mut Self) -> T) -> (T, bool) {
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
    pub(super) fn vcf_defences(&mut self, list: &[(u16, i32)], depth: i32) -> Vec<u16> {
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
        for (dx, dy) in crate::gomoku::board::DIRS {
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
}
