//! The referee, written apart from the engine's rule code: [`Grid`] judges
//! each move ([`Verdict`]: a win, a renju prohibition broken, or play on) —
//! fives (five or more; exactly five under standard and for black under
//! renju), overlines and black's renju forbidden moves (double three, double
//! four, overline, with the recursive "three" test). [`cross_check`] plays
//! random games asking the referee and the engine's board the same questions.

use gamebot::gomoku::{Board, Rule};
use gamebot::rng::SplitMix64;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Colour {
    Black = 1,
    White = 2,
}

impl Colour {
    pub fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    /// The colour of the `ply`-th stone of a game (0-based): black first.
    pub fn of_ply(ply: usize) -> Colour {
        if ply.is_multiple_of(2) {
            Colour::Black
        } else {
            Colour::White
        }
    }
}

pub const DIRS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

#[derive(Clone)]
pub struct Grid {
    pub n: usize,
    /// 0 empty, 1 black, 2 white; index y * n + x.
    pub cells: Vec<u8>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    Win,
    /// Black broke a renju prohibition: black loses.
    Forbidden,
    Continue,
}

impl Grid {
    pub fn new(n: usize) -> Grid {
        Grid {
            n,
            cells: vec![0; n * n],
        }
    }

    pub fn at(&self, x: isize, y: isize) -> Option<u8> {
        let n = self.n as isize;
        (0..n).contains(&x).then_some(())?;
        (0..n).contains(&y).then_some(())?;
        Some(self.cells[(y * n + x) as usize])
    }

    pub fn set(&mut self, x: isize, y: isize, v: u8) {
        let n = self.n as isize;
        self.cells[(y * n + x) as usize] = v;
    }

    pub fn is_empty(&self, x: isize, y: isize) -> bool {
        self.at(x, y) == Some(0)
    }

    /// Length of the run of `c` through (x, y) along (dx, dy), counting
    /// (x, y) itself as `c`.
    fn run(&self, x: isize, y: isize, (dx, dy): (isize, isize), c: u8) -> usize {
        let mut len = 1;
        for sign in [1, -1] {
            let (mut cx, mut cy) = (x + sign * dx, y + sign * dy);
            while self.at(cx, cy) == Some(c) {
                len += 1;
                cx += sign * dx;
                cy += sign * dy;
            }
        }
        len
    }

    /// The verdict on `c` just placed at (x, y).
    pub fn judge(&mut self, x: isize, y: isize, c: Colour, rule: Rule) -> Verdict {
        let runs = DIRS.map(|d| self.run(x, y, d, c as u8));
        let exact_five = runs.contains(&5);
        let five_or_more = runs.iter().any(|&r| r >= 5);
        match (rule, c) {
            (Rule::Freestyle, _) | (Rule::Renju, Colour::White) if five_or_more => Verdict::Win,
            (Rule::Standard, _) | (Rule::Renju, Colour::Black) if exact_five => Verdict::Win,
            (Rule::Renju, Colour::Black) if self.renju_forbidden(x, y) => Verdict::Forbidden,
            _ => Verdict::Continue,
        }
    }

    /// With a black stone at (x, y) that made no exact five: is it an
    /// overline, a double four or a double three?
    fn renju_forbidden(&mut self, x: isize, y: isize) -> bool {
        if DIRS.iter().any(|&d| self.run(x, y, d, 1) >= 6) {
            return true;
        }
        let mut fours = 0;
        let mut threes = 0;
        for d in DIRS {
            let f = self.fours_in_line(x, y, d);
            fours += f;
            if f == 0 && self.is_three_in_line(x, y, d) {
                threes += 1;
            }
        }
        fours >= 2 || threes >= 2
    }

    /// Distinct fours through black's (x, y) along `d`: sets of four black
    /// stones, (x, y) among them, that one more black stone on this line turns
    /// into exactly five. A straight four (two such points) is one four; two
    /// fours in one line (as in `X.XXX.X` around the middle) are two.
    fn fours_in_line(&mut self, x: isize, y: isize, d: (isize, isize)) -> usize {
        let mut stone_sets: Vec<u16> = Vec::new();
        for k in -4..=4isize {
            let (qx, qy) = (x + k * d.0, y + k * d.1);
            if k == 0 || !self.is_empty(qx, qy) {
                continue;
            }
            self.set(qx, qy, 1);
            let (back, fwd) = self.span(qx, qy, d, 1);
            self.set(qx, qy, 0);
            let (first, last) = (k - back, k + fwd);
            if last - first + 1 == 5 && first <= 0 && 0 <= last {
                // The five's stones other than q, as bits of offsets -4..=4 from (x, y).
                let set = (first..=last)
                    .filter(|&j| j != k)
                    .fold(0u16, |m, j| m | 1 << (j + 4));
                if !stone_sets.contains(&set) {
                    stone_sets.push(set);
                }
            }
        }
        stone_sets.len()
    }

    /// How many stones of `c` follow (x, y) backwards and forwards along `d`.
    fn span(&self, x: isize, y: isize, (dx, dy): (isize, isize), c: u8) -> (isize, isize) {
        let count = |sign: isize| {
            let mut k = 0;
            while self.at(x + sign * (k + 1) * dx, y + sign * (k + 1) * dy) == Some(c) {
                k += 1;
            }
            k
        };
        (count(-1), count(1))
    }

    /// A three through black's (x, y) along `d`: some empty point q of the line
    /// makes a straight four there (four in a row through (x, y), both ends
    /// empty, each end making exactly five), and q is itself allowed for black.
    fn is_three_in_line(&mut self, x: isize, y: isize, d: (isize, isize)) -> bool {
        for k in -3..=3isize {
            let (qx, qy) = (x + k * d.0, y + k * d.1);
            if k == 0 || !self.is_empty(qx, qy) {
                continue;
            }
            self.set(qx, qy, 1);
            let straight = self.is_straight_four(x, y, d) && !self.black_forbidden_at(qx, qy);
            self.set(qx, qy, 0);
            if straight {
                return true;
            }
        }
        false
    }

    fn is_straight_four(&self, x: isize, y: isize, d: (isize, isize)) -> bool {
        if self.run(x, y, d, 1) != 4 {
            return false;
        }
        // Ends of the run.
        let mut ends = Vec::with_capacity(2);
        for sign in [1, -1] {
            let (mut cx, mut cy) = (x, y);
            while self.at(cx + sign * d.0, cy + sign * d.1) == Some(1) {
                cx += sign * d.0;
                cy += sign * d.1;
            }
            let (ex, ey) = (cx + sign * d.0, cy + sign * d.1);
            // Empty, and the point beyond it not black (else an overline).
            let ok = self.is_empty(ex, ey) && self.at(ex + sign * d.0, ey + sign * d.1) != Some(1);
            ends.push(ok);
        }
        ends.iter().all(|&ok| ok)
    }

    /// With black already at (x, y): is that stone forbidden (an exact five
    /// anywhere makes it allowed)?
    fn black_forbidden_at(&mut self, x: isize, y: isize) -> bool {
        if DIRS.iter().any(|&d| self.run(x, y, d, 1) == 5) {
            return false;
        }
        self.renju_forbidden(x, y)
    }

    /// The verdict of `c` playing (x, y), without playing it.
    pub fn try_move(&mut self, x: isize, y: isize, c: Colour, rule: Rule) -> Verdict {
        self.set(x, y, c as u8);
        let v = self.judge(x, y, c, rule);
        self.set(x, y, 0);
        v
    }
}

/// Plays `games` random games (moves drawn from the central 9×9 first, so
/// lines get crowded and renju shapes appear) and, before every move, asks
/// the referee and the engine's board about every empty point: may the side
/// to move play there, and does the move win? Returns the disagreements and
/// the numbers of points compared and of points the referee forbade.
pub fn cross_check(seed: u64, games: usize, n: usize, rule: Rule) -> (Vec<String>, u64, u64) {
    let mut rng = SplitMix64::new(seed);
    let mut disagreements = Vec::new();
    let mut compared = 0u64;
    let mut forbidden = 0u64;
    let span = 9.min(n);
    let lo = (n - span) / 2;
    for _ in 0..games {
        let mut grid = Grid::new(n);
        let mut board = Board::new(n, rule).expect("size checked");
        let mut colour = Colour::Black;
        loop {
            let mut playable = Vec::new();
            for y in 0..n {
                for x in 0..n {
                    let (xi, yi) = (x as isize, y as isize);
                    if !grid.is_empty(xi, yi) {
                        continue;
                    }
                    let verdict = grid.try_move(xi, yi, colour, rule);
                    compared += 1;
                    let referee_legal = verdict != Verdict::Forbidden;
                    forbidden += u64::from(!referee_legal);
                    if referee_legal != board.is_legal((x, y)) {
                        disagreements.push(format!(
                            "{colour:?} at ({x}, {y}): referee {verdict:?}, engine legal {} after {:?}",
                            board.is_legal((x, y)),
                            board.moves()
                        ));
                    }
                    if referee_legal {
                        let central = (lo..lo + span).contains(&x) && (lo..lo + span).contains(&y);
                        playable.push(((x, y), verdict, central));
                    }
                }
            }
            let central: Vec<_> = playable.iter().filter(|c| c.2).copied().collect();
            let pool = if central.is_empty() {
                &playable
            } else {
                &central
            };
            if pool.is_empty() {
                break;
            }
            let (p, verdict, _) = pool[(rng.next_u64() % pool.len() as u64) as usize];
            grid.set(p.0 as isize, p.1 as isize, colour as u8);
            board.play(p);
            if (verdict == Verdict::Win) != board.winner().is_some() {
                disagreements.push(format!(
                    "win at {p:?}: referee {verdict:?}, engine {:?} after {:?}",
                    board.winner(),
                    board.moves()
                ));
            }
            if verdict == Verdict::Win || board.winner().is_some() || board.is_full() {
                break;
            }
            colour = colour.other();
        }
    }
    (disagreements, compared, forbidden)
}
