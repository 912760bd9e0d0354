//! The board: stones, per-line bit masks, incrementally kept pattern codes,
//! evaluation sums, the candidate cells and a Zobrist hash.

use std::sync::{Arc, OnceLock};

use super::patterns::{
    self, B4, CellInfo, F3, F4, F44, FL_FIVE, FL_MAYBE_FORBIDDEN, LINE_LEN, Lane, OVER, Tables,
};
use super::{MAX_SIZE, MIN_SIZE, Point, PositionError, Rule, Stone};

/// Lines are stored with this many wall bits on each side, so a 5-each-way window never
/// runs off the mask.
const PAD: u32 = 5;
// the refresh reaches up to five cells out and relies on the wall bits to stop it
const _: () = assert!(PAD >= 5);
const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;
/// (dx, dy) for the four line directions: row, column, diagonal, anti-diagonal.
pub(crate) const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Geometry shared by all boards of one size.
#[derive(Debug)]
struct Geometry {
    /// For each cell and direction: (line id, position in the line).
    line_of: Vec<[(u16, u8); 4]>,
    /// Cells of each line, in order.
    line_cells: Vec<Vec<u16>>,
    /// Bits outside the line (the padding), which count as blocked for both sides.
    wall: Vec<u64>,
    /// Per cell, the bits (as in `Board::cand`) of the cells within two king steps.
    near: Vec<[u64; CAND_WORDS]>,
}

fn geometry(size: usize) -> Arc<Geometry> {
    static GEOMS: [OnceLock<Arc<Geometry>>; MAX_SIZE + 1] =
        [const { OnceLock::new() }; MAX_SIZE + 1];
    GEOMS[size]
        .get_or_init(|| Arc::new(build_geometry(size)))
        .clone()
}

fn build_geometry(size: usize) -> Geometry {
    let n = size as i32;
    let mut line_of = vec![[(0u16, 0u8); 4]; size * size];
    let mut line_cells: Vec<Vec<u16>> = Vec::new();
    for (d, &(dx, dy)) in DIRS.iter().enumerate() {
        // a line starts at a cell whose predecessor is off the board
        for y in 0..n {
            for x in 0..n {
                let (px, py) = (x - dx, y - dy);
                if (0..n).contains(&px) && (0..n).contains(&py) {
                    continue;
                }
                let id = line_cells.len();
                let mut cells = Vec::new();
                let (mut cx, mut cy) = (x, y);
                while (0..n).contains(&cx) && (0..n).contains(&cy) {
                    let idx = (cy * n + cx) as usize;
                    line_of[idx][d] = (id as u16, cells.len() as u8);
                    cells.push(idx as u16);
                    cx += dx;
                    cy += dy;
                }
                line_cells.push(cells);
            }
        }
    }
    let wall = line_cells
        .iter()
        .map(|c| !(((1u64 << c.len()) - 1) << PAD))
        .collect();
    let near = (0..size * size)
        .map(|i| {
            let (x, y) = ((i % size) as i32, (i / size) as i32);
            let mut mask = [0u64; CAND_WORDS];
            for ny in (y - 2).max(0)..=(y + 2).min(n - 1) {
                for nx in (x - 2).max(0)..=(x + 2).min(n - 1) {
                    if (nx, ny) != (x, y) {
                        let q = (ny * n + nx) as usize;
                        mask[q / 64] |= 1u64 << (q % 64);
                    }
                }
            }
            mask
        })
        .collect();
    Geometry {
        line_of,
        line_cells,
        wall,
        near,
    }
}

fn zobrist() -> &'static [[u64; 2]; MAX_CELLS] {
    static Z: OnceLock<[[u64; 2]; MAX_CELLS]> = OnceLock::new();
    Z.get_or_init(|| {
        // A fixed seed: hashes are the same in every run.
        let mut rng = crate::rng::SplitMix64::new(0x9E37_79B9_7F4A_7C15);
        [[0u64; 2]; MAX_CELLS].map(|_| [rng.next_u64(), rng.next_u64()])
    })
}

/// Hash, keys of the empty cells, lane sums (values and threat counts), candidate
/// cells (tests).
#[cfg(test)]
pub(crate) type Snapshot = (u64, Vec<u32>, [u128; 2], Vec<usize>);

/// What an empty cell looks like to both sides (side 0 black, 1 white): the four
/// direction codes packed 4 bits each, black's in the low half of `keys` and white's
/// in the high half, and `tables.cell` of each side's 16 bits, cached.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    keys: u32,
    infos: [CellInfo; 2],
}

impl Slot {
    #[inline]
    fn from_keys(keys: u32, cell: &[CellInfo; 1 << 16]) -> Slot {
        Slot {
            keys,
            infos: [cell[(keys & 0xFFFF) as usize], cell[(keys >> 16) as usize]],
        }
    }

    /// The slot with both sides' codes in direction `d` set to `k0` and `k1`.
    #[inline]
    fn with_codes(self, d: usize, k0: u8, k1: u8, cell: &[CellInfo; 1 << 16]) -> Slot {
        let shift = 4 * d;
        let keys = self.keys & !(0x000F_000F << shift) | (k0 as u32 | (k1 as u32) << 16) << shift;
        Slot::from_keys(keys, cell)
    }
}

const CAND_WORDS: usize = MAX_CELLS.div_ceil(64);

/// The state before one placed stone, for undo.
#[derive(Clone, Copy, Debug)]
struct Frame {
    start: u32,
    sums: [u128; 2],
    cand: [u64; CAND_WORDS],
}

/// Iterator over the set bits of the candidate mask.
pub(crate) struct Candidates {
    words: [u64; CAND_WORDS],
    word: usize,
}

impl Iterator for Candidates {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < CAND_WORDS {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(self.word * 64 + w.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }
}

/// Hashed in while a side has passed, so a passed position never shares a key with the
/// same stones and the other side to move.
const PASS_KEY: u64 = 0x9E37_79B9_7F4A_7C15;

/// A position. Cells are indexed `y * size + x`; side 0 is black, 1 is white.
#[derive(Clone, Debug)]
pub struct Board {
    size: usize,
    rule: Rule,
    geo: Arc<Geometry>,
    tables: &'static Tables,
    /// Whether each side's five must be exactly five.
    exact: [bool; 2],
    /// 0 empty, 1 black, 2 white.
    cells: Vec<u8>,
    /// Stone bits per side per line (position p at bit p + PAD).
    lines: [Vec<u64>; 2],
    /// Per cell, its codes and cell infos. Valid for empty cells.
    slots: Vec<Slot>,
    /// Per side, the lane sums ([`CellInfo::lanes`]) of all empty cells: the sums of the
    /// cell values, how many cells complete a five, make a straight four, and so on.
    sums: [u128; 2],
    /// Bit per cell: a stone.
    occupied: [u64; CAND_WORDS],
    /// Bit per cell: empty with a stone within two king steps (the search's candidates).
    cand: [u64; CAND_WORDS],
    /// Undo journal: the (cell, keys) each refresh overwrote, in order, and per placed
    /// stone where its entries start and the sums before it. Undo restores them (and
    /// looks their infos up again) instead of recomputing the windows.
    saved: Vec<(u16, u32)>,
    frames: Vec<Frame>,
    hash: u64,
    history: Vec<u16>,
    /// 1 while the search lets the side to move pass (a null move), else 0.
    passed: usize,
}

impl Board {
    /// An empty board of `size` × `size` cells under `rule`; black to move.
    pub fn new(size: usize, rule: Rule) -> Result<Board, PositionError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(PositionError::BadSize(size));
        }
        let geo = geometry(size);
        let tables = patterns::tables();
        let exact = match rule {
            Rule::Freestyle => [false, false],
            Rule::Standard => [true, true],
            Rule::Renju => [true, false],
        };
        let nlines = geo.line_cells.len();
        let mut b = Board {
            size,
            rule,
            tables,
            exact,
            cells: vec![0; size * size],
            lines: [vec![0; nlines], vec![0; nlines]],
            slots: vec![Slot::default(); size * size],
            sums: [0; 2],
            occupied: [0; CAND_WORDS],
            cand: [0; CAND_WORDS],
            saved: Vec::with_capacity(64 * 48),
            frames: Vec::with_capacity(64),
            hash: 0,
            history: Vec::with_capacity(size * size),
            passed: 0,
            geo,
        };
        for c in 0..size * size {
            for d in 0..4 {
                b.refresh(c, d);
            }
            b.account(c, 1);
        }
        Ok(b)
    }

    /// The board after `moves`, played alternately from black; every move must be
    /// legal and the game still open afterwards.
    pub fn from_moves(size: usize, rule: Rule, moves: &[Point]) -> Result<Board, PositionError> {
        let b = Board::replay(size, rule, moves)?;
        if b.winner().is_some() {
            return Err(PositionError::AlreadyWon);
        }
        if b.is_full() {
            return Err(PositionError::BoardFull);
        }
        Ok(b)
    }

    /// The board after `moves`, played alternately from black; every move must be
    /// legal, but the last one may end the game (a five or a full board).
    pub fn replay(size: usize, rule: Rule, moves: &[Point]) -> Result<Board, PositionError> {
        let mut b = Board::new(size, rule)?;
        for (index, &(x, y)) in moves.iter().enumerate() {
            if b.winner().is_some() {
                return Err(PositionError::AfterWin { index });
            }
            if x >= size || y >= size {
                return Err(PositionError::OffBoard { index, x, y });
            }
            if b.stone((x, y)).is_some() {
                return Err(PositionError::Occupied { index, x, y });
            }
            if b.is_forbidden((x, y)) {
                return Err(PositionError::Forbidden { index, x, y });
            }
            b.play((x, y));
        }
        Ok(b)
    }

    /// Cells per side.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The rule the game is played under.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The side to move.
    pub fn to_move(&self) -> Stone {
        if self.history.len().is_multiple_of(2) {
            Stone::Black
        } else {
            Stone::White
        }
    }

    /// The stone on `(x, y)`; `None` for an empty or off-board point.
    pub fn stone(&self, (x, y): Point) -> Option<Stone> {
        if x >= self.size || y >= self.size {
            return None;
        }
        match self.cells[y * self.size + x] {
            1 => Some(Stone::Black),
            2 => Some(Stone::White),
            _ => None,
        }
    }

    /// The moves played so far, in order.
    pub fn moves(&self) -> Vec<Point> {
        self.history
            .iter()
            .map(|&c| self.point(c as usize))
            .collect()
    }

    /// Whether the side to move may play `(x, y)`: on the board, empty, not forbidden.
    pub fn is_legal(&self, (x, y): Point) -> bool {
        x < self.size
            && y < self.size
            && self.cells[y * self.size + x] == 0
            && !self.is_forbidden((x, y))
    }

    /// Whether `(x, y)` is an empty point forbidden to black under [`Rule::Renju`]
    /// with black to move.
    pub fn is_forbidden(&self, (x, y): Point) -> bool {
        if self.rule != Rule::Renju
            || self.to_move() != Stone::Black
            || x >= self.size
            || y >= self.size
        {
            return false;
        }
        let c = y * self.size + x;
        if self.cells[c] != 0 {
            return false;
        }
        if self.info(c, 0).flags() & FL_MAYBE_FORBIDDEN == 0 {
            return false;
        }
        self.clone().forbidden_black(c)
    }

    /// Plays `(x, y)` for the side to move; the point must be on the board and empty.
    pub fn play(&mut self, (x, y): Point) {
        let c = y * self.size + x;
        self.play_idx(c);
    }

    /// Takes back the last move; does nothing on an empty board.
    pub fn undo(&mut self) {
        if !self.history.is_empty() {
            self.undo_idx();
        }
    }

    /// The side whose last move made a five, if it did.
    pub fn winner(&self) -> Option<Stone> {
        let &c = self.history.last()?;
        let s = (self.history.len() - 1) & 1;
        let five = (0..4).any(|d| {
            let (line, pos) = self.geo.line_of[c as usize][d];
            let (m, at) = (self.lines[s][line as usize], pos as u32 + PAD);
            // the run of own stones through the last one
            let run = (!(m >> at)).trailing_zeros() + (!(m << (64 - at))).leading_zeros();
            if self.exact[s] { run == 5 } else { run >= 5 }
        });
        five.then_some(if s == 0 { Stone::Black } else { Stone::White })
    }

    /// The winner's five (or longer run, where the rule lets it win): every
    /// stone of the run through the last move, in line order; empty while
    /// nobody has won.
    pub fn five(&self) -> Vec<Point> {
        let Some(winner) = self.winner() else {
            return Vec::new();
        };
        let Some(&last) = self.history.last() else {
            return Vec::new();
        };
        let (x0, y0) = self.point(last as usize);
        let own = |x: isize, y: isize| {
            x >= 0 && y >= 0 && self.stone((x as usize, y as usize)) == Some(winner)
        };
        for (dx, dy) in [(1isize, 0isize), (0, 1), (1, 1), (1, -1)] {
            let (mut x, mut y) = (x0 as isize, y0 as isize);
            while own(x - dx, y - dy) {
                (x, y) = (x - dx, y - dy);
            }
            let mut run = Vec::new();
            while own(x, y) {
                run.push((x as usize, y as usize));
                (x, y) = (x + dx, y + dy);
            }
            let wins = if self.exact[winner as usize] {
                run.len() == 5
            } else {
                run.len() >= 5
            };
            if wins {
                return run;
            }
        }
        Vec::new()
    }

    /// Every empty point black may not play now: empty unless the rule is
    /// renju, black is to move and the game is still open.
    pub fn forbidden_points(&self) -> Vec<Point> {
        if self.rule != Rule::Renju || self.winner().is_some() {
            return Vec::new();
        }
        (0..self.size)
            .flat_map(|y| (0..self.size).map(move |x| (x, y)))
            .filter(|&p| self.is_forbidden(p))
            .collect()
    }

    /// Whether every point holds a stone.
    pub fn is_full(&self) -> bool {
        self.history.len() == self.size * self.size
    }

    // ---- engine internals -------------------------------------------------------------

    /// Side to move: 0 black, 1 white.
    #[inline]
    pub(crate) fn side(&self) -> usize {
        (self.history.len() & 1) ^ self.passed
    }

    /// Hands the move to the other side without a stone (the search's "what if he
    /// moved now"); calling it again takes the pass back. Only the search's own copy of
    /// a board passes, and it undoes every stone played meanwhile before passing back.
    pub(crate) fn toggle_pass(&mut self) {
        self.passed ^= 1;
        self.hash ^= PASS_KEY;
    }

    #[inline]
    pub(crate) fn cells_len(&self) -> usize {
        self.cells.len()
    }

    /// Whether `c` is a cell of this board, empty and near a stone (a hash move from
    /// the transposition table might be none of these after a key collision).
    #[inline]
    pub(crate) fn is_candidate(&self, c: u16) -> bool {
        let c = c as usize;
        c < self.cells.len() && self.cand[c / 64] >> (c % 64) & 1 == 1
    }

    #[inline]
    pub(crate) fn is_empty_idx(&self, c: usize) -> bool {
        self.cells[c] == 0
    }

    #[inline]
    pub(crate) fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    pub(crate) fn ply(&self) -> usize {
        self.history.len()
    }

    #[inline]
    pub(crate) fn renju_black(&self, side: usize) -> bool {
        self.rule == Rule::Renju && side == 0
    }

    pub(crate) fn point(&self, c: usize) -> Point {
        (c % self.size, c / self.size)
    }

    /// Cell value and threat flags of empty cell `c` for `side`.
    #[inline]
    pub(crate) fn info(&self, c: usize, side: usize) -> CellInfo {
        self.slots[c].infos[side]
    }

    /// Direction code of empty cell `c` for `side` in direction `d`.
    #[inline]
    pub(crate) fn code(&self, c: usize, side: usize, d: usize) -> u8 {
        (self.slots[c].keys >> (16 * side + 4 * d) & 0xF) as u8
    }

    /// The sum of `side`'s cell values, weighted as the side to move's.
    #[inline]
    pub(crate) fn mover_value_sum(&self, side: usize) -> i32 {
        patterns::mover_value(self.sums[side])
    }

    /// The sum of `side`'s cell values, weighted as the opponent's.
    #[inline]
    pub(crate) fn opponent_value_sum(&self, side: usize) -> i32 {
        patterns::opponent_value(self.sums[side])
    }

    /// Which threats `side` has (`patterns::HAS_*` bits).
    #[inline]
    pub(crate) fn threats(&self, side: usize) -> u8 {
        patterns::threats(self.sums[side])
    }

    /// Empty cells where `side` completes a five.
    #[inline]
    pub(crate) fn five_count(&self, side: usize) -> i32 {
        Lane::Five.count(self.sums[side])
    }

    /// Empty cells where `side` makes a straight four or two fours.
    #[inline]
    pub(crate) fn open4_count(&self, side: usize) -> i32 {
        Lane::Open4.count(self.sums[side])
    }

    /// Empty cells where `side` makes a four and an open three at once.
    #[inline]
    pub(crate) fn four_three_count(&self, side: usize) -> i32 {
        Lane::FourThree.count(self.sums[side])
    }

    /// Adds (`sign` = 1) or removes (-1) empty cell `c`'s contribution to the sums.
    #[inline]
    fn account(&mut self, c: usize, sign: i32) {
        for s in 0..2 {
            let lanes = self.info(c, s).lanes();
            self.sums[s] = if sign > 0 {
                self.sums[s].wrapping_add(lanes)
            } else {
                self.sums[s].wrapping_sub(lanes)
            };
        }
    }

    /// Each side's line table.
    #[inline]
    fn side_lines(&self) -> [&'static [u8; LINE_LEN]; 2] {
        let t = self.tables;
        [
            &t.line[self.exact[0] as usize],
            &t.line[self.exact[1] as usize],
        ]
    }

    /// Recomputes the codes of cell `c` in direction `d` for both sides.
    fn refresh(&mut self, c: usize, d: usize) {
        let (line, pos) = self.geo.line_of[c][d];
        let line = line as usize;
        // the window is bits pos .. pos + 10, centre at pos + PAD
        let window = |m: u64| (m >> pos) as u32;
        let (k0, k1) = patterns::window_codes(
            &self.tables.base3,
            self.side_lines(),
            window(self.lines[0][line]),
            window(self.lines[1][line]),
            window(self.geo.wall[line]),
        );
        self.slots[c] = self.slots[c].with_codes(d, k0, k1, &self.tables.cell);
    }

    /// Refreshes the empty cells in the windows around `c` (just taken by side `s`) in
    /// all directions (only the direction of the shared line changes for each),
    /// journaling what it overwrites.
    fn refresh_around(&mut self, c: usize, s: usize) {
        let geo = &*self.geo;
        let tables = self.tables;
        let lines = self.side_lines();
        // only an own stone five cells out changes a code, and only under the exact rule
        // (it turns a five into an overline): other stones reach four cells
        let reach: u32 = if self.exact[s] { 5 } else { 4 };
        let slots = &mut self.slots;
        let saved = &mut self.saved;
        let mut delta = [0u128; 2];
        let n = self.size as isize;
        for (d, step) in [1, n, n + 1, 1 - n].into_iter().enumerate() {
            let (line, pos) = geo.line_of[c][d];
            let line = line as usize;
            let (b, w, wall) = (self.lines[0][line], self.lines[1][line], geo.wall[line]);
            // the empty cells within reach, as line bits (position p at bit p + PAD; the
            // wall covers the bits off the line, and PAD >= reach)
            let span = ((1u64 << (2 * reach + 1)) - 1) << (pos as u32 + PAD - reach);
            let mut empty = !(b | w | wall) & span;
            let keep = !(0x000F_000Fu32 << (4 * d));
            while empty != 0 {
                // position p's window is bits p .. p + 10
                let p = empty.trailing_zeros() - PAD;
                empty &= empty - 1;
                let window = |m: u64| (m >> p) as u32;
                let (k0, k1) = patterns::window_codes(
                    &tables.base3,
                    lines,
                    window(b),
                    window(w),
                    window(wall),
                );
                // the cell p - pos steps from c along the line
                let q = (c as isize + (p as isize - pos as isize) * step) as usize;
                let old = slots[q];
                let keys = old.keys & keep | (k0 as u32 | (k1 as u32) << 16) << (4 * d);
                if keys == old.keys {
                    // a stone far off in the window often leaves the code as it was
                    continue;
                }
                let new = old.with_codes(d, k0, k1, &tables.cell);
                slots[q] = new;
                saved.push((q as u16, old.keys));
                for ((delta, new), old) in delta.iter_mut().zip(new.infos).zip(old.infos) {
                    *delta = delta.wrapping_add(new.lanes().wrapping_sub(old.lanes()));
                }
            }
        }
        for (sum, d) in self.sums.iter_mut().zip(delta) {
            *sum = sum.wrapping_add(d);
        }
    }

    /// Puts a stone of side `s` on empty cell `c`: line bits, codes and sums (journaled).
    fn place(&mut self, c: usize, s: usize) {
        self.frames.push(Frame {
            start: self.saved.len() as u32,
            sums: self.sums,
            cand: self.cand,
        });
        self.account(c, -1);
        self.cells[c] = s as u8 + 1;
        for d in 0..4 {
            let (line, pos) = self.geo.line_of[c][d];
            self.lines[s][line as usize] |= 1u64 << (pos as u32 + PAD);
        }
        self.refresh_around(c, s);
    }

    /// Takes back the last [`Self::place`] (stone `c` of side `s`) from the journal.
    fn unplace(&mut self, c: usize, s: usize) {
        let f = self.frames.pop().expect("unplace without place");
        self.cells[c] = 0;
        for d in 0..4 {
            let (line, pos) = self.geo.line_of[c][d];
            self.lines[s][line as usize] &= !(1u64 << (pos as u32 + PAD));
        }
        // restore newest first, so a cell written twice gets its oldest state back
        let cell = &self.tables.cell;
        for &(q, keys) in self.saved[f.start as usize..].iter().rev() {
            self.slots[q as usize] = Slot::from_keys(keys, cell);
        }
        self.saved.truncate(f.start as usize);
        // c's own codes were never touched while it held a stone
        self.sums = f.sums;
        self.cand = f.cand;
    }

    /// Candidate cells (empty, a stone within two steps), in index order.
    #[inline]
    pub(crate) fn candidates(&self) -> Candidates {
        Candidates {
            words: self.cand,
            word: 0,
        }
    }

    pub(crate) fn play_idx(&mut self, c: usize) {
        let s = self.side();
        self.place(c, s);
        self.occupied[c / 64] |= 1u64 << (c % 64);
        let near = &self.geo.near[c];
        for ((cand, near), occupied) in self.cand.iter_mut().zip(near).zip(&self.occupied) {
            *cand = (*cand | near) & !occupied;
        }
        self.hash ^= zobrist()[c][s];
        self.history.push(c as u16);
    }

    pub(crate) fn undo_idx(&mut self) {
        let c = self.history.pop().expect("undo with no moves") as usize;
        let s = self.side();
        // the frame restores the candidates too
        self.unplace(c, s);
        self.occupied[c / 64] &= !(1u64 << (c % 64));
        self.hash ^= zobrist()[c][s];
    }

    /// Whether a black stone on empty cell `c` is forbidden under renju (ignores whose
    /// turn it is). Places stones temporarily, so the board must be owned.
    pub(crate) fn forbidden_black(&mut self, c: usize) -> bool {
        self.forbidden_rec(c, 0)
    }

    fn forbidden_rec(&mut self, c: usize, depth: u32) -> bool {
        let info = self.info(c, 0);
        if info.flags() & FL_FIVE != 0 || info.flags() & FL_MAYBE_FORBIDDEN == 0 {
            return false;
        }
        let codes = [0, 1, 2, 3].map(|d| self.code(c, 0, d));
        if codes.contains(&OVER) {
            return true;
        }
        let fours: u32 = codes
            .iter()
            .map(|&k| match k {
                B4 | F4 => 1,
                F44 => 2,
                _ => 0,
            })
            .sum();
        if fours >= 2 {
            return true;
        }
        if codes.iter().filter(|&&k| k == F3).count() < 2 || depth > 6 {
            // the recursion depth cap only guards against pathological chains; real
            // positions resolve in a few levels
            return false;
        }
        // place black at c (as a raw stone, whatever the turn) and test each three
        self.put_raw(c, 0);
        let mut real = 0;
        for (d, &k) in codes.iter().enumerate() {
            if k == F3 && self.three_is_real(c, d, depth) {
                real += 1;
                if real >= 2 {
                    break;
                }
            }
        }
        self.remove_raw(c, 0);
        real >= 2
    }

    /// With black's stone on `c`: can the three through `c` in direction `d` become a
    /// straight four by a move that is not itself forbidden?
    fn three_is_real(&mut self, c: usize, d: usize, depth: u32) -> bool {
        let (line, pos) = self.geo.line_of[c][d];
        let cells = &self.geo.line_cells[line as usize];
        let lo = (pos as usize).saturating_sub(4);
        let hi = (pos as usize + 4).min(cells.len() - 1);
        for k in lo..=hi {
            let q = self.geo.line_cells[line as usize][k] as usize;
            if self.cells[q] == 0 && self.code(q, 0, d) == F4 && !self.forbidden_rec(q, depth + 1) {
                return true;
            }
        }
        false
    }

    /// Places a stone without touching history, hash, turn or candidates (forbidden-move
    /// analysis).
    fn put_raw(&mut self, c: usize, s: usize) {
        self.place(c, s);
    }

    fn remove_raw(&mut self, c: usize, s: usize) {
        self.unplace(c, s);
    }

    /// Is `c` a legal move for the side to move (assumes on board)?
    #[inline]
    pub(crate) fn legal_idx(&mut self, c: usize) -> bool {
        self.cells[c] == 0 && !(self.renju_black(self.side()) && self.forbidden_black(c))
    }

    /// Whether a stone of `side` on `c` would be forbidden (only black under renju can be).
    #[inline]
    pub(crate) fn forbidden_for(&mut self, c: usize, side: usize) -> bool {
        self.renju_black(side) && self.forbidden_black(c)
    }

    /// This board with every empty cell's codes and the sums computed from scratch,
    /// from the line masks alone (what the incremental updates must keep equal).
    #[cfg(test)]
    pub(crate) fn recomputed(&self) -> Board {
        let mut b = self.clone();
        b.sums = [0; 2];
        for c in 0..b.cells.len() {
            if b.cells[c] == 0 {
                for d in 0..4 {
                    b.refresh(c, d);
                }
                b.account(c, 1);
            }
        }
        b
    }

    /// The incremental state that must match a board rebuilt from the same moves:
    /// hash, keys of the empty cells, value sums, candidates.
    #[cfg(test)]
    pub(crate) fn snapshot(&self) -> Snapshot {
        let keys = (0..self.cells.len())
            .map(|c| {
                if self.cells[c] == 0 {
                    self.slots[c].keys
                } else {
                    0
                }
            })
            .collect();
        (self.hash, keys, self.sums, self.candidates().collect())
    }
}
