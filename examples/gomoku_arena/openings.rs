//! Seeded openings. A random opening is a few stones placed at random in the
//! central 7×7 (alternating colours, black first), redrawn while either side
//! already has three in a five-cell window or the referee sees the game
//! decided. A balanced opening is a random one that our engine, searching it
//! to a fixed node budget, finds close to even: |eval| within a bound and no
//! proven win. Both depend only on the seed (a node-capped search of a fresh
//! engine is deterministic), but balanced ones also on the engine's build. A
//! book (a file of openings, one a line, as `--write-book` saves them) fixes
//! the openings across builds, so that two builds' matches against the same
//! opponent are played from the same positions.

use gamebot::gomoku::{self, Board, Limits, Point, Rule};
use gamebot::rng::SplitMix64;
use gamebot::stop::Stop;

use crate::baseline::windows;
use crate::referee::{Colour, Grid, Verdict};

/// Random openings drawn before giving up on a balanced one: a bound that
/// rejects nearly everything is a mistake to report, not to loop on.
const MAX_DRAWS: usize = 1_000;

/// How openings are chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    Random,
    /// Random, kept when a search of `nodes` nodes finds |eval| ≤ `max_eval`
    /// and no proven win for either side.
    Balanced {
        nodes: u64,
        max_eval: i32,
    },
    /// A book's openings, in order.
    Book(Vec<Vec<Point>>),
}

/// One chosen opening.
#[derive(Clone, Debug)]
pub struct Opening {
    pub moves: Vec<Point>,
    /// The engine's eval of it for the side to move (balanced openings only).
    pub eval: Option<i32>,
    /// Random openings drawn and rejected before this one.
    pub rejected: usize,
}

impl Openings {
    /// The opening of pair `pair`.
    pub fn next(
        &self,
        pair: usize,
        rng: &mut SplitMix64,
        n: usize,
        stones: usize,
        rule: Rule,
    ) -> Result<Opening, String> {
        let (nodes, max_eval) = match self {
            Openings::Random => {
                return Ok(Opening {
                    moves: random_opening(rng, n, stones, rule),
                    eval: None,
                    rejected: 0,
                });
            }
            Openings::Book(book) => {
                let moves = book.get(pair).cloned().ok_or_else(|| {
                    format!("the book has {} openings: no more pairs", book.len())
                })?;
                return Ok(Opening {
                    moves,
                    eval: None,
                    rejected: 0,
                });
            }
            Openings::Balanced { nodes, max_eval } => (*nodes, *max_eval),
        };
        let limits = Limits {
            max_nodes: Some(nodes),
            ..Limits::default()
        };
        for rejected in 0..MAX_DRAWS {
            let moves = random_opening(rng, n, stones, rule);
            let board = Board::from_moves(n, rule, &moves).map_err(|e| e.to_string())?;
            let found = gomoku::search(&board, &limits, &Stop::never());
            if found.win_in.is_none() && found.eval.abs() <= max_eval {
                return Ok(Opening {
                    moves,
                    eval: Some(found.eval),
                    rejected,
                });
            }
        }
        Err(format!(
            "no balanced opening in {MAX_DRAWS} random ones (|eval| <= {max_eval} at {nodes} \
             nodes): raise --balance-eval or use --openings random"
        ))
    }
}

/// Reads a book: one opening a line, `x,y` points separated by spaces (black
/// first); `#` starts a comment. Each must be legal on an `n`×`n` board under
/// `rule` and leave the game undecided.
pub fn read_book(path: &str, n: usize, rule: Rule) -> Result<Vec<Vec<Point>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut book = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = |what: &str| format!("{path}:{}: {what}", i + 1);
        let mut moves = Vec::new();
        for point in line.split_whitespace() {
            let (x, y) = point
                .split_once(',')
                .and_then(|(x, y)| Some((x.parse::<usize>().ok()?, y.parse::<usize>().ok()?)))
                .ok_or_else(|| bad(&format!("`{point}` is not a point `x,y`")))?;
            moves.push((x, y));
        }
        let mut grid = Grid::new(n);
        let mut colour = Colour::Black;
        for &(x, y) in &moves {
            let (x, y) = (x as isize, y as isize);
            if !grid.is_empty(x, y) {
                return Err(bad(&format!("({x}, {y}) is off the board or taken")));
            }
            if grid.try_move(x, y, colour, rule) != Verdict::Continue {
                return Err(bad(&format!("({x}, {y}) decides the game or is forbidden")));
            }
            grid.set(x, y, colour as u8);
            colour = colour.other();
        }
        book.push(moves);
    }
    if book.is_empty() {
        return Err(format!("{path}: no openings"));
    }
    Ok(book)
}

/// A random opening of `stones` stones within the central 7×7 (black first,
/// alternating), rejected while a side has three or more in an open window,
/// or the position is already decided by the referee.
pub fn random_opening(rng: &mut SplitMix64, n: usize, stones: usize, rule: Rule) -> Vec<Point> {
    let all_windows = windows(n);
    let span = 7.min(n) as u64;
    let lo = (n as u64 - span) / 2;
    'retry: loop {
        let mut grid = Grid::new(n);
        let mut moves = Vec::new();
        let mut colour = Colour::Black;
        while moves.len() < stones {
            let x = (lo + (rng.next_u64() % span)) as isize;
            let y = (lo + (rng.next_u64() % span)) as isize;
            if !grid.is_empty(x, y) {
                continue;
            }
            if grid.try_move(x, y, colour, rule) != Verdict::Continue {
                continue 'retry;
            }
            grid.set(x, y, colour as u8);
            moves.push((x as usize, y as usize));
            colour = colour.other();
        }
        let lopsided = all_windows.iter().any(|w| {
            let b = w.iter().filter(|&&c| grid.cells[c] == 1).count();
            let wh = w.iter().filter(|&&c| grid.cells[c] == 2).count();
            (b >= 3 && wh == 0) || (wh >= 3 && b == 0)
        });
        if !lopsided {
            return moves;
        }
    }
}
