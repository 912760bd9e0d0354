//! Gomoku arena: the engine (`gamebot::gomoku::Engine`) against the baseline
//! "ways to win" AI, on seeded random openings, with its own referee.
//!
//! ```text
//! cargo run --release --example gomoku_arena -- --pairs 50 --seed 1 --ms 100
//!     [--size 15] [--rule freestyle|standard|renju] [--opening-stones 3]
//!     [--max-nodes N] [--verbose]
//! cargo run --release --example gomoku_arena -- --check-rules 3000 --rule renju --seed 7
//! cargo run --release --example gomoku_arena -- --help
//! ```
//!
//! Defaults: 50 pairs, seed 1, 100 ms a move, 15×15 freestyle, 3 opening stones.
//!
//! Each opening (a few stones placed at random near the centre, alternating
//! colours, black first, rejected while either side already has three in a
//! five-cell window) is played twice: once with the engine as black, once as
//! white (a game pair). The engine thinks `--ms` per move (`Stop::after`), or
//! `--max-nodes` nodes per move for fully reproducible games, and keeps its
//! transposition table within a game.
//!
//! The referee (here, written apart from the engine's rule code) decides wins
//! (five or more; exactly five under standard and for black under renju),
//! overlines and black's renju forbidden moves (double three, double four,
//! overline, with the recursive "three" test). It also replays every move on
//! the engine's board and reports any disagreement about legality or wins.
//!
//! The opponent is the baseline, the prototype written from seed document
//! 004: the classic ways-to-win evaluator. The board is worth Σ W[own stones]
//! over every five-cell window holding no enemy stone minus the same for the
//! enemy; it plays the empty cell that makes this largest (a move adds to its
//! own open windows and kills the enemy's), after taking any win at once.
//!
//! Reported: the engine's score (win 1, draw ½) with a Wilson 95% interval,
//! per colour, and its time, nodes per second and depth per move.

use std::time::{Duration, Instant};

use clap::Parser;
use clap::builder::{PossibleValuesParser, TypedValueParser};

use gamebot::gomoku::{self, Board, Engine, Limits, Rule};
use gamebot::rng::SplitMix64;
use gamebot::stop::Stop;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Colour {
    Black = 1,
    White = 2,
}

impl Colour {
    fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }
}

// ---------------------------------------------------------------------------
// Referee
// ---------------------------------------------------------------------------

const DIRS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

#[derive(Clone)]
struct Grid {
    n: usize,
    /// 0 empty, 1 black, 2 white; index y * n + x.
    cells: Vec<u8>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Verdict {
    Win,
    /// Black broke a renju prohibition: black loses.
    Forbidden,
    Continue,
}

impl Grid {
    fn new(n: usize) -> Grid {
        Grid {
            n,
            cells: vec![0; n * n],
        }
    }

    fn at(&self, x: isize, y: isize) -> Option<u8> {
        let n = self.n as isize;
        (0..n).contains(&x).then_some(())?;
        (0..n).contains(&y).then_some(())?;
        Some(self.cells[(y * n + x) as usize])
    }

    fn set(&mut self, x: isize, y: isize, v: u8) {
        let n = self.n as isize;
        self.cells[(y * n + x) as usize] = v;
    }

    fn is_empty(&self, x: isize, y: isize) -> bool {
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
    fn judge(&mut self, x: isize, y: isize, c: Colour, rule: Rule) -> Verdict {
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
    fn try_move(&mut self, x: isize, y: isize, c: Colour, rule: Rule) -> Verdict {
        self.set(x, y, c as u8);
        let v = self.judge(x, y, c, rule);
        self.set(x, y, 0);
        v
    }
}

// ---------------------------------------------------------------------------
// The baseline: the ways-to-win AI
// ---------------------------------------------------------------------------

/// Worth of an open window (no enemy stone) by its own stones, 0–4.
const WINDOW_WEIGHT: [i64; 5] = [0, 1, 12, 150, 2_000];

/// Every five-cell window of the board, as its cells' indices.
fn windows(n: usize) -> Vec<[usize; 5]> {
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

struct WaysToWin {
    windows: Vec<[usize; 5]>,
    /// For each cell, the windows through it.
    through: Vec<Vec<usize>>,
}

impl WaysToWin {
    fn new(n: usize) -> WaysToWin {
        let windows = windows(n);
        let mut through = vec![Vec::new(); n * n];
        for (w, cells) in windows.iter().enumerate() {
            for &c in cells {
                through[c].push(w);
            }
        }
        WaysToWin { windows, through }
    }

    fn choose(&self, grid: &mut Grid, me: Colour, rule: Rule) -> Option<(usize, usize)> {
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

// ---------------------------------------------------------------------------
// Games
// ---------------------------------------------------------------------------

/// A random opening of `stones` stones within the central 7×7 (black first,
/// alternating), rejected while a side has three or more in an open window,
/// or the position is already decided by the referee.
fn opening(rng: &mut SplitMix64, n: usize, stones: usize, rule: Rule) -> Vec<(usize, usize)> {
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

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Outcome {
    EngineWon,
    EngineLost,
    Draw,
    /// The referee and the engine's board disagreed; the game was stopped.
    Disputed,
}

#[derive(Default)]
struct EngineStats {
    moves: u64,
    ms: Vec<f64>,
    nodes: u64,
    depth_sum: u64,
    max_ms: f64,
}

/// Gomoku arena: the engine against the baseline ways-to-win AI on seeded
/// random openings, each played once with the engine as black and once as
/// white, judged by a referee written apart from the engine.
#[derive(Parser, Debug)]
struct Args {
    /// Number of game pairs (one opening, each colour once).
    #[arg(long, default_value_t = 50, value_name = "N")]
    pairs: usize,
    /// RNG seed for the openings.
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
    /// The engine's time per move, in milliseconds (ignored with --max-nodes).
    #[arg(long, default_value_t = 100, value_name = "N")]
    ms: u64,
    /// Board size.
    #[arg(long, default_value_t = 15, value_name = "N", value_parser = parse_size)]
    size: usize,
    /// Rule set.
    #[arg(long, default_value = "freestyle", value_name = "RULE", value_parser = rule_parser())]
    rule: Rule,
    /// Stones placed at random near the centre before play starts.
    #[arg(long, default_value_t = 3, value_name = "N")]
    opening_stones: usize,
    /// A node limit per move instead of a time budget (fully reproducible games).
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// Instead of the arena: GAMES random games checking that referee and engine agree.
    #[arg(long, value_name = "GAMES")]
    check_rules: Option<usize>,
    /// Print every game, not only the lost and disputed ones.
    #[arg(long)]
    verbose: bool,
}

fn rule_parser() -> impl TypedValueParser<Value = Rule> {
    PossibleValuesParser::new(["freestyle", "standard", "renju"]).map(|r| match r.as_str() {
        "standard" => Rule::Standard,
        "renju" => Rule::Renju,
        _ => Rule::Freestyle,
    })
}

fn parse_size(s: &str) -> Result<usize, String> {
    let n: usize = s.parse().map_err(|e| format!("{e}"))?;
    if (gomoku::MIN_SIZE..=gomoku::MAX_SIZE).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "must be {}..={}",
            gomoku::MIN_SIZE,
            gomoku::MAX_SIZE
        ))
    }
}

fn play_game(
    args: &Args,
    opening: &[(usize, usize)],
    engine_colour: Colour,
    engine: &mut Engine,
    ai: &WaysToWin,
    stats: &mut EngineStats,
) -> (Outcome, Vec<(usize, usize)>) {
    let n = args.size;
    let mut grid = Grid::new(n);
    let mut board = Board::new(n, args.rule).expect("size checked");
    let mut moves = Vec::new();
    engine.clear();
    let mut to_move = Colour::Black;
    let mut ply = 0usize;
    loop {
        if moves.len() == n * n {
            return (Outcome::Draw, moves);
        }
        let p = if ply < opening.len() {
            opening[ply]
        } else if to_move == engine_colour {
            let stop = Stop::after(Duration::from_millis(args.ms));
            let (stop, limits) = match args.max_nodes {
                Some(nodes) => (
                    Stop::never().with_node_limit(nodes),
                    Limits {
                        max_depth: None,
                        max_nodes: Some(nodes),
                    },
                ),
                None => (stop, Limits::default()),
            };
            let t = Instant::now();
            let r = engine.search(&board, &limits, &stop);
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            stats.moves += 1;
            stats.ms.push(ms);
            stats.max_ms = stats.max_ms.max(ms);
            stats.nodes += r.nodes;
            stats.depth_sum += u64::from(r.depth);
            r.best
        } else {
            match ai.choose(&mut grid, to_move, args.rule) {
                Some(p) => p,
                // Every empty cell forbidden to black: black can't move.
                None => {
                    let out = if to_move == engine_colour {
                        Outcome::EngineLost
                    } else {
                        Outcome::EngineWon
                    };
                    return (out, moves);
                }
            }
        };
        ply += 1;
        let (x, y) = (p.0 as isize, p.1 as isize);
        if !grid.is_empty(x, y) {
            eprintln!("illegal move {p:?} by {to_move:?} (occupied or off the board)");
            let out = if to_move == engine_colour {
                Outcome::EngineLost
            } else {
                Outcome::EngineWon
            };
            return (out, moves);
        }
        // The engine's own view of the move, checked against the referee's.
        let engine_says_legal = board.is_legal(p);
        grid.set(x, y, to_move as u8);
        moves.push(p);
        let verdict = grid.judge(x, y, to_move, args.rule);
        if engine_says_legal != (verdict != Verdict::Forbidden) {
            eprintln!(
                "referee and engine disagree on the legality of {p:?} after {:?}",
                &moves[..moves.len() - 1]
            );
            return (Outcome::Disputed, moves);
        }
        match verdict {
            Verdict::Forbidden | Verdict::Win => {
                let mover_won = verdict == Verdict::Win;
                let engine_won = mover_won == (to_move == engine_colour);
                if mover_won {
                    board.play(p);
                    if board.winner().is_none() {
                        eprintln!("the engine's board does not see the win {p:?} in {moves:?}");
                        return (Outcome::Disputed, moves);
                    }
                }
                let out = if engine_won {
                    Outcome::EngineWon
                } else {
                    Outcome::EngineLost
                };
                return (out, moves);
            }
            Verdict::Continue => {
                board.play(p);
                if board.winner().is_some() {
                    eprintln!("the engine's board sees a win the referee does not: {moves:?}");
                    return (Outcome::Disputed, moves);
                }
            }
        }
        to_move = to_move.other();
    }
}

/// Wilson score interval at 95% for `k` successes out of `n`.
fn wilson(k: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964f64;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n) + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i]
}

/// Plays `games` random games (moves drawn from the central 9×9 first, so
/// lines get crowded and renju shapes appear) and, before every move, asks
/// the referee and the engine's board about every empty point: may the side
/// to move play there, and does the move win? Returns the disagreements and
/// the numbers of points compared and of points the referee forbade.
fn cross_check(seed: u64, games: usize, n: usize, rule: Rule) -> (Vec<String>, u64, u64) {
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

fn main() {
    let args = Args::parse();
    if let Some(games) = args.check_rules {
        let started = Instant::now();
        let (disagreements, compared, forbidden) =
            cross_check(args.seed, games, args.size, args.rule);
        for d in disagreements.iter().take(20) {
            println!("{d}");
        }
        println!(
            "rules check: {games} random {:?} games on {}x{}, {compared} points compared \
             ({forbidden} forbidden), {} disagreements, {:.1} s",
            args.rule,
            args.size,
            args.size,
            disagreements.len(),
            started.elapsed().as_secs_f64()
        );
        std::process::exit(i32::from(!disagreements.is_empty()));
    }
    let mut rng = SplitMix64::new(args.seed);
    let ai = WaysToWin::new(args.size);
    let mut engine = Engine::new(64);
    let mut stats = EngineStats::default();
    // [as black, as white]: (won, drawn, lost, disputed)
    let mut tally = [[0usize; 4]; 2];
    let mut game_moves = 0usize;
    let started = Instant::now();
    for pair in 0..args.pairs {
        let open = opening(&mut rng, args.size, args.opening_stones, args.rule);
        for (side, colour) in [Colour::Black, Colour::White].into_iter().enumerate() {
            let (outcome, moves) = play_game(&args, &open, colour, &mut engine, &ai, &mut stats);
            game_moves += moves.len();
            let slot = match outcome {
                Outcome::EngineWon => 0,
                Outcome::Draw => 1,
                Outcome::EngineLost => 2,
                Outcome::Disputed => 3,
            };
            tally[side][slot] += 1;
            if args.verbose || matches!(outcome, Outcome::EngineLost | Outcome::Disputed) {
                let line: Vec<String> = moves.iter().map(|(x, y)| format!("{x},{y}")).collect();
                println!(
                    "pair {pair} engine {colour:?}: {outcome:?} in {} moves: {}",
                    moves.len(),
                    line.join(" ")
                );
            }
        }
    }
    let wall = started.elapsed();

    println!(
        "gomoku arena: {} pairs, seed {}, {}x{} {:?}, {} opening stones, engine {}",
        args.pairs,
        args.seed,
        args.size,
        args.size,
        args.rule,
        args.opening_stones,
        match args.max_nodes {
            Some(n) => format!("{n} nodes a move"),
            None => format!("{} ms a move", args.ms),
        }
    );
    println!("| engine as | games | won | drawn | lost | disputed | score [95% CI] |");
    println!("|---|---|---|---|---|---|---|");
    let mut total = [0usize; 4];
    for (side, name) in ["black", "white"].iter().enumerate() {
        let t = tally[side];
        for (k, v) in t.iter().enumerate() {
            total[k] += v;
        }
        print_row(name, t);
    }
    print_row("both", total);

    let mut ms = stats.ms.clone();
    ms.sort_by(f64::total_cmp);
    let think_s: f64 = ms.iter().sum::<f64>() / 1000.0;
    println!(
        "engine: {} moves, time per move median {:.1} ms, p99 {:.1} ms, max {:.1} ms; \
         {:.0} nodes/s; mean depth {:.1}",
        stats.moves,
        percentile(&ms, 0.5),
        percentile(&ms, 0.99),
        stats.max_ms,
        stats.nodes as f64 / think_s.max(1e-9),
        stats.depth_sum as f64 / (stats.moves.max(1)) as f64,
    );
    println!(
        "{} games, {:.1} moves a game, wall {:.1} s",
        2 * args.pairs,
        game_moves as f64 / (2 * args.pairs).max(1) as f64,
        wall.as_secs_f64()
    );
}

fn print_row(name: &str, t: [usize; 4]) {
    let games = t.iter().sum::<usize>() as f64;
    let score = t[0] as f64 + 0.5 * t[1] as f64;
    let (lo, hi) = wilson(score, games);
    println!(
        "| {name} | {} | {} | {} | {} | {} | {:.1}% [{:.1}%, {:.1}%] |",
        games,
        t[0],
        t[1],
        t[2],
        t[3],
        100.0 * score / games.max(1.0),
        100.0 * lo,
        100.0 * hi
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(n: usize, black: &[(isize, isize)], white: &[(isize, isize)]) -> Grid {
        let mut g = Grid::new(n);
        for &(x, y) in black {
            g.set(x, y, 1);
        }
        for &(x, y) in white {
            g.set(x, y, 2);
        }
        g
    }

    #[test]
    fn fives_and_overlines_by_rule() {
        let mut g = grid(15, &[(3, 7), (4, 7), (5, 7), (6, 7), (8, 7)], &[]);
        // (7, 7) joins five and one more: an overline of six.
        assert_eq!(
            g.try_move(7, 7, Colour::Black, Rule::Freestyle),
            Verdict::Win
        );
        assert_eq!(
            g.try_move(7, 7, Colour::Black, Rule::Standard),
            Verdict::Continue
        );
        assert_eq!(
            g.try_move(7, 7, Colour::Black, Rule::Renju),
            Verdict::Forbidden
        );
        let mut w = grid(15, &[], &[(3, 7), (4, 7), (5, 7), (6, 7), (8, 7)]);
        assert_eq!(w.try_move(7, 7, Colour::White, Rule::Renju), Verdict::Win);
        assert_eq!(
            w.try_move(7, 7, Colour::White, Rule::Standard),
            Verdict::Continue
        );
        // Exactly five wins everywhere.
        let mut g = grid(15, &[(3, 7), (4, 7), (5, 7), (6, 7)], &[]);
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            assert_eq!(g.try_move(7, 7, Colour::Black, rule), Verdict::Win);
        }
    }

    #[test]
    fn renju_double_three_and_double_four() {
        // Two open twos crossing at (7, 7): a double three.
        let mut g = grid(15, &[(5, 7), (6, 7), (7, 5), (7, 6)], &[]);
        assert_eq!(
            g.try_move(7, 7, Colour::Black, Rule::Renju),
            Verdict::Forbidden
        );
        assert_eq!(
            g.try_move(7, 7, Colour::Black, Rule::Freestyle),
            Verdict::Continue
        );
        // One of the threes is blocked at an end: only a single three.
        let mut g = grid(15, &[(5, 7), (6, 7), (7, 5), (7, 6)], &[(4, 7), (8, 7)]);
        assert_eq!(
            g.try_move(7, 7, Colour::Black, Rule::Renju),
            Verdict::Continue
        );
        // Two fours crossing: forbidden; four-three: allowed.
        let mut g = grid(
            15,
            &[(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)],
            &[(3, 7), (7, 3)],
        );
        assert_eq!(
            g.try_move(7, 7, Colour::Black, Rule::Renju),
            Verdict::Forbidden
        );
        let mut g = grid(15, &[(4, 7), (5, 7), (6, 7), (7, 5), (7, 6)], &[(3, 7)]);
        assert_eq!(
            g.try_move(7, 7, Colour::Black, Rule::Renju),
            Verdict::Continue
        );
        // Double four in one line: X.XXX.X with the middle stone played.
        let mut g = grid(15, &[(3, 7), (5, 7), (7, 7), (9, 7)], &[]);
        assert_eq!(
            g.try_move(6, 7, Colour::Black, Rule::Renju),
            Verdict::Forbidden
        );
        // A straight four is a single four.
        let mut g = grid(15, &[(4, 7), (5, 7), (6, 7)], &[]);
        assert_eq!(
            g.try_move(7, 7, Colour::Black, Rule::Renju),
            Verdict::Continue
        );
    }

    #[test]
    fn renju_three_that_cannot_become_a_straight_four() {
        // (7, 7) makes a vertical three and a horizontal "three" 5-6-7.
        let black = [(5, 7), (6, 7), (7, 5), (7, 6)];
        let mut g = grid(15, &black, &[]);
        assert_eq!(
            g.try_move(7, 7, Colour::Black, Rule::Renju),
            Verdict::Forbidden
        );
        // The horizontal one can become a straight four only at (4, 7) or
        // (8, 7); make both overline points (columns of three above and
        // below): forbidden to black, so it is no three, and (7, 7) is allowed.
        let mut columns = black.to_vec();
        for x in [4, 8] {
            for y in [4, 5, 6, 8, 9, 10] {
                columns.push((x, y));
            }
        }
        let mut g = grid(15, &columns, &[]);
        assert_eq!(
            g.try_move(4, 7, Colour::Black, Rule::Renju),
            Verdict::Forbidden
        );
        assert_eq!(
            g.try_move(7, 7, Colour::Black, Rule::Renju),
            Verdict::Continue
        );
        // Blocked on both sides: no three either.
        let mut g = grid(15, &black, &[(4, 7), (8, 7)]);
        assert_eq!(
            g.try_move(7, 7, Colour::Black, Rule::Renju),
            Verdict::Continue
        );
    }

    #[test]
    fn ways_to_win_takes_a_win_and_blocks_a_four() {
        let ai = WaysToWin::new(15);
        let mut g = grid(
            15,
            &[(3, 3), (4, 3), (5, 3), (6, 3)],
            &[(2, 3), (9, 9), (10, 10)],
        );
        assert_eq!(
            ai.choose(&mut g, Colour::Black, Rule::Freestyle),
            Some((7, 3))
        );
        let mut g = grid(
            15,
            &[(3, 3), (4, 3), (5, 3), (6, 3), (7, 8)],
            &[(2, 3), (9, 9), (10, 10)],
        );
        assert_eq!(
            ai.choose(&mut g, Colour::White, Rule::Freestyle),
            Some((7, 3))
        );
    }

    #[test]
    fn referee_and_engine_agree_on_random_games() {
        for (seed, rule) in [(1, Rule::Renju), (2, Rule::Standard), (3, Rule::Freestyle)] {
            let (disagreements, compared, forbidden) = cross_check(seed, 6, 15, rule);
            assert!(compared > 1000);
            assert_eq!(forbidden > 0, rule == Rule::Renju, "{rule:?}");
            assert!(disagreements.is_empty(), "{rule:?}: {disagreements:#?}");
        }
    }

    #[test]
    fn wilson_bounds() {
        let (lo, hi) = wilson(100.0, 100.0);
        assert!((lo - 0.963).abs() < 0.001 && hi == 1.0, "{lo} {hi}");
    }
}
