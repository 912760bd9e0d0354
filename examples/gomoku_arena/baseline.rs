//! The baseline opponent, the prototype written from seed document 004: the
//! classic ways-to-win evaluator. The board is worth Σ W[own stones] over
//! every five-cell window holding no enemy stone minus the same for the
//! enemy; it plays the empty cell that makes this largest (a move adds to its
//! own open windows and kills the enemy's), after taking any win at once.

use gamebot::gomoku::Rule;

use crate::referee::{Colour, DIRS, Grid, Verdict};

/// Worth of an open window (no enemy stone) by its own stones, 0–4.
const WINDOW_WEIGHT: [i64; 5] = [0, 1, 12, 150, 2_000];

/// Every five-cell window of the board, as its cells' indices.
pub fn windows(n: usize) -> Vec<[usize; 5]> {
    let mut out = Vec::new();
    for y in 0..n as isize {
        for x in 0..n as isize {
            for (dx, dy) in DIRS {
                let (ex, ey) = (x + 4 * dx, y + 4 * dy);
                if (0..n as isize).contains(&ex) && (0..n as isize).contains(&ey) {
                    out.push(std::array::from_fn(|k| {
                        ((y + k as isize * dy) * n as isize + x + k as isize * dx) as usize
                    }));
                }
            }
        }
    }
    out
}

pub struct WaysToWin {
    windows: Vec<[usize; 5]>,
    /// For each cell, the windows through it.
    through: Vec<Vec<usize>>,
}

impl WaysToWin {
    pub fn new(n: usize) -> WaysToWin {
        let windows = windows(n);
        let mut through = vec![Vec::new(); n * n];
        for (w, cells) in windows.iter().enumerate() {
            for &c in cells {
                through[c].push(w);
            }
        }
        WaysToWin { windows, through }
    }

    pub fn choose(&self, grid: &mut Grid, me: Colour, rule: Rule) -> Option<(usize, usize)> {
        let n = grid.n;
        let (mine, theirs) = (me as u8, me.other() as u8);
        let centre = (n as i64 - 1) / 2;
        let mut best: Option<((i64, i64), usize)> = None;
        for cell in 0..n * n {
            if grid.cells[cell] != 0 {
                continue;
            }
            let (x, y) = ((cell % n) as isize, (cell / n) as isize);
            let verdict = grid.try_move(x, y, me, rule);
            if verdict == Verdict::Win {
                return Some((x as usize, y as usize));
            }
            if verdict == Verdict::Forbidden {
                continue;
            }
            // Change of (own total − enemy total) from playing here.
            let mut gain = 0i64;
            for &w in &self.through[cell] {
                let (mut own, mut enemy) = (0usize, 0usize);
                for &c in &self.windows[w] {
                    own += usize::from(grid.cells[c] == mine);
                    enemy += usize::from(grid.cells[c] == theirs);
                }
                if enemy == 0 {
                    // own ≤ 3 here, or the move would have been a five.
                    let next = WINDOW_WEIGHT
                        .get(own + 1)
                        .copied()
                        .unwrap_or(WINDOW_WEIGHT[4]);
                    gain += next - WINDOW_WEIGHT[own];
                } else if own == 0 {
                    gain += WINDOW_WEIGHT[enemy.min(4)];
                }
            }
            let dist = (x as i64 - centre).abs().max((y as i64 - centre).abs());
            let key = (gain, -dist);
            if best.is_none_or(|(k, _)| key > k) {
                best = Some((key, cell));
            }
        }
        best.map(|(_, cell)| (cell % n, cell / n))
    }
}
