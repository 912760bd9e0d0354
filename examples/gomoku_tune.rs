//! Fits the gomoku evaluation to the outcomes of self-play games (Texel's
//! method): the engine plays itself at a fixed node count from random
//! openings, every quiet position of those games is labelled with the result
//! for its side to move, and the cell weights (one set for the side to move,
//! one for its opponent) and the threat-combination table are moved, by
//! gradient descent, to minimise the squared error between the result and
//! `sigmoid(eval / K)`. `K` is fitted first, with today's weights, so the
//! fitted weights keep the evaluation's scale (the search's margins are in
//! its units). Threat combinations seen in few positions are pulled towards 0.
//!
//! `cargo run --release --features testkit --example gomoku_tune -- --games 10000 --nodes 10000 --out games.txt`
//! generates and fits; `--data games.txt` fits again on saved games. The
//! result is printed as the `MOVER_WEIGHTS`, `OPPONENT_WEIGHTS` and
//! `THREAT_ENTRIES` constants of `src/gomoku/patterns.rs`, and is accepted
//! only after an SPRT between the two builds (CONTRIBUTING.md).

use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};

use clap::{Parser, ValueEnum};

use gamebot::gomoku::tuning::{
    FEATURE_NAMES, FEATURES, FIVE_FEATURE, MOVER_WEIGHTS, OPPONENT_WEIGHTS, SideFeatures, THREAT,
    THREAT_MASKS, VALUE_SCALE, quiet_features,
};
use gamebot::gomoku::{Board, Engine, Limits, Point, Rule, Stone};
use gamebot::rng::SplitMix64;
use gamebot::stop::Stop;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum RuleArg {
    Freestyle,
    Standard,
    Renju,
}

/// Fits the gomoku evaluation weights to self-play outcomes.
#[derive(Parser, Debug)]
struct Args {
    /// Self-play games to generate.
    #[arg(long, default_value_t = 4000)]
    games: usize,
    /// Nodes a move in self-play.
    #[arg(long, default_value_t = 4000)]
    nodes: u64,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The rule of the self-play games (15×15).
    #[arg(long, value_enum, default_value_t = RuleArg::Freestyle)]
    rule: RuleArg,
    /// Threads playing games.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Write the generated games here (one a line: result, then the moves).
    #[arg(long, value_name = "FILE")]
    out: Option<String>,
    /// Fit on games read from this file instead of generating.
    #[arg(long, value_name = "FILE")]
    data: Option<String>,
    /// Gradient-descent steps over the whole set.
    #[arg(long, default_value_t = 3000)]
    epochs: usize,
    /// Share of the games held out to check the fit.
    #[arg(long, default_value_t = 0.1)]
    holdout: f64,
    /// Skip this many plies of each game (the random opening and its echo).
    #[arg(long, default_value_t = 8)]
    skip: usize,
}

const SIZE: usize = 15;

/// One self-play game: its moves and black's score (1, ½ or 0).
struct Game {
    moves: Vec<Point>,
    black_score: f64,
}

fn main() {
    let args = Args::parse();
    let rule = match args.rule {
        RuleArg::Freestyle => Rule::Freestyle,
        RuleArg::Standard => Rule::Standard,
        RuleArg::Renju => Rule::Renju,
    };
    let games = match &args.data {
        Some(path) => read_games(path),
        None => {
            let games = generate(&args, rule);
            if let Some(path) = &args.out {
                write_games(path, &games);
            }
            games
        }
    };
    let (mut train, mut test) = (Vec::new(), Vec::new());
    let mut rng = SplitMix64::new(args.seed ^ 0x7e57);
    for g in &games {
        let set = if (rng.next_u64() % 10_000) as f64 / 10_000.0 < args.holdout {
            &mut test
        } else {
            &mut train
        };
        positions(g, rule, args.skip, set);
    }
    let (b, w, d) = games
        .iter()
        .fold((0, 0, 0), |(b, w, d), g| match g.black_score {
            s if s > 0.75 => (b + 1, w, d),
            s if s < 0.25 => (b, w + 1, d),
            _ => (b, w, d + 1),
        });
    println!(
        "{} games (black {b}, white {w}, drawn {d}); {} training and {} held-out quiet positions",
        games.len(),
        train.len(),
        test.len()
    );
    fit(&train, &test, args.epochs);
}

/// Plays the games, `threads` at a time, each from its own random opening.
fn generate(args: &Args, rule: Rule) -> Vec<Game> {
    let next = AtomicUsize::new(0);
    let mut games: Vec<(usize, Game)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..args.threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut engine = Engine::new(16);
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= args.games {
                            break done;
                        }
                        done.push((i, self_play(&mut engine, rule, args.nodes, args.seed, i)));
                        if (i + 1).is_multiple_of(500) {
                            eprintln!("{} games played", i + 1);
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a self-play thread panicked"))
            .collect()
    });
    games.sort_by_key(|(i, _)| *i);
    games.into_iter().map(|(_, g)| g).collect()
}

/// One game: three to six random stones in the central 7×7, then the engine
/// for both sides until a five or a full board.
fn self_play(engine: &mut Engine, rule: Rule, nodes: u64, seed: u64, index: usize) -> Game {
    let mut rng = SplitMix64::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ index as u64);
    engine.clear();
    let mut board = Board::new(SIZE, rule).expect("15 is a legal size");
    let opening = 3 + rng.below(4);
    while board.moves().len() < opening {
        let p = (4 + rng.below(7), 4 + rng.below(7));
        if board.is_legal(p) {
            board.play(p);
        }
    }
    let limits = Limits {
        max_nodes: Some(nodes),
        ..Limits::default()
    };
    while board.winner().is_none() && !board.is_full() {
        let r = engine.search(&board, &limits, &Stop::never());
        board.play(r.best);
    }
    let black_score = match board.winner() {
        Some(Stone::Black) => 1.0,
        Some(Stone::White) => 0.0,
        None => 0.5,
    };
    Game {
        moves: board.moves(),
        black_score,
    }
}

fn write_games(path: &str, games: &[Game]) {
    let mut text = String::new();
    for g in games {
        write!(text, "{}", g.black_score).expect("writing to a string");
        for (x, y) in &g.moves {
            write!(text, " {x},{y}").expect("writing to a string");
        }
        text.push('\n');
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {path}: {e}"));
}

fn read_games(path: &str) -> Vec<Game> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(n, line)| {
            let bad = || format!("{path}:{}: expected `score x,y x,y ...`", n + 1);
            let mut fields = line.split_whitespace();
            let black_score: f64 = fields
                .next()
                .and_then(|s| s.parse().ok())
                .unwrap_or_else(|| panic!("{}", bad()));
            let moves = fields
                .map(|m| {
                    m.split_once(',')
                        .and_then(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?)))
                        .unwrap_or_else(|| panic!("{}", bad()))
                })
                .collect();
            Game { moves, black_score }
        })
        .collect()
}

/// A quiet position's features, its threat mask and the side to move's score.
struct Sample {
    me: SideFeatures,
    op: SideFeatures,
    mask: usize,
    score: f64,
}

fn positions(game: &Game, rule: Rule, skip: usize, out: &mut Vec<Sample>) {
    let mut board = Board::new(SIZE, rule).expect("15 is a legal size");
    for (ply, &p) in game.moves.iter().enumerate() {
        if ply >= skip
            && let Some(f) = quiet_features(&board)
        {
            let black = board.to_move() == Stone::Black;
            let score = if black {
                game.black_score
            } else {
                1.0 - game.black_score
            };
            out.push(Sample {
                me: f.mover,
                op: f.opponent,
                mask: f.threats,
                score,
            });
        }
        if !board.is_legal(p) {
            panic!("an illegal move {p:?} in a game");
        }
        board.play(p);
    }
}

/// The weights being fitted: the side to move's and the opponent's cell
/// weights and the threat-combination table.
#[derive(Clone)]
struct Model {
    mover: [f64; FEATURES],
    opponent: [f64; FEATURES],
    threat: Vec<f64>,
}

impl Model {
    fn eval(&self, s: &Sample) -> f64 {
        let (mut me, mut op) = (0.0, 0.0);
        for k in 0..FEATURES {
            me += self.mover[k] * s.me[k] as f64;
            op += self.opponent[k] * s.op[k] as f64;
        }
        (me - op) / SCALE + self.threat[s.mask]
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn loss(model: &Model, k: f64, set: &[Sample]) -> f64 {
    let sum: f64 = set
        .iter()
        .map(|s| (sigmoid(model.eval(s) / k) - s.score).powi(2))
        .sum();
    sum / set.len().max(1) as f64
}

/// The `K` that fits today's weights best (golden-section search on a log scale).
fn fit_scale(model: &Model, set: &[Sample]) -> f64 {
    let (mut lo, mut hi) = (1.0f64.ln(), 10_000.0f64.ln());
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if loss(model, a.exp(), set) < loss(model, b.exp(), set) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

fn fit(train: &[Sample], test: &[Sample], epochs: usize) {
    let start = Model {
        mover: MOVER_WEIGHTS.map(|w| w as f64),
        opponent: OPPONENT_WEIGHTS.map(|w| w as f64),
        threat: THREAT.iter().map(|&t| t as f64).collect(),
    };
    let k = fit_scale(&start, train);
    println!(
        "K = {k:.1}; loss with today's weights: train {:.5}, held out {:.5}",
        loss(&start, k, train),
        loss(&start, k, test)
    );
    let mut seen = vec![0usize; THREAT_MASKS];
    for s in train {
        seen[s.mask] += 1;
    }
    // Adam over the cell weights (all but the five's, which quiet positions
    // never see) and the threat table; a threat entry seen in few positions
    // is pulled towards 0 (ridge), so that rare masks don't get noise
    let mut model = start.clone();
    let n = 2 * FEATURES + THREAT_MASKS;
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-9);
    let scale = 1.0 / train.len().max(1) as f64;
    for epoch in 1..=epochs {
        let mut grad = vec![0.0; n];
        for s in train {
            let p = sigmoid(model.eval(s) / k);
            let g = 2.0 * (p - s.score) * p * (1.0 - p) / k;
            for j in 0..FEATURES {
                grad[j] += g * s.me[j] as f64 / SCALE;
                grad[FEATURES + j] -= g * s.op[j] as f64 / SCALE;
            }
            grad[2 * FEATURES + s.mask] += g;
        }
        for (t, &w) in model.threat.iter().enumerate() {
            grad[2 * FEATURES + t] += RIDGE * w * scale;
        }
        for j in 0..n {
            if j % FEATURES == FIVE_FEATURE && j < 2 * FEATURES {
                continue;
            }
            let gj = grad[j] * scale;
            m[j] = b1 * m[j] + (1.0 - b1) * gj;
            v[j] = b2 * v[j] + (1.0 - b2) * gj * gj;
            let mh = m[j] / (1.0 - b1.powi(epoch as i32));
            let vh = v[j] / (1.0 - b2.powi(epoch as i32));
            // cell weights move by up to a quarter of `VALUE_SCALE` a step
            // (a quarter of an evaluation unit), threat entries by 1
            let lr = if j < 2 * FEATURES { SCALE / 4.0 } else { 1.0 };
            let step = lr * mh / (vh.sqrt() + eps);
            if j < FEATURES {
                // the board's sums need values that are never negative
                model.mover[j] = (model.mover[j] - step).max(0.0);
            } else if j < 2 * FEATURES {
                let j = j - FEATURES;
                model.opponent[j] = (model.opponent[j] - step).max(0.0);
            } else {
                model.threat[j - 2 * FEATURES] -= step;
            }
        }
        if epoch % 500 == 0 || epoch == epochs {
            println!(
                "epoch {epoch}: train {:.5}, held out {:.5}",
                loss(&model, k, train),
                loss(&model, k, test),
            );
        }
    }
    println!(
        "\n{:<28} {:>7} {:>9} {:>7} {:>9}",
        "feature", "mover", "fitted", "opp.", "fitted"
    );
    for j in 0..FEATURES {
        println!(
            "{:<28} {:>7} {:>9.1} {:>7} {:>9.1}",
            FEATURE_NAMES[j],
            MOVER_WEIGHTS[j],
            model.mover[j],
            OPPONENT_WEIGHTS[j],
            model.opponent[j]
        );
    }
    let row = |w: &[f64]| {
        w.iter()
            .map(|w| format!("{}", w.round()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!(
        "\npub const MOVER_WEIGHTS: [i32; FEATURES] = [{}];",
        row(&model.mover)
    );
    println!(
        "pub const OPPONENT_WEIGHTS: [i32; FEATURES] = [{}];",
        row(&model.opponent)
    );
    let entries: Vec<String> = model
        .threat
        .iter()
        .enumerate()
        .filter(|(_, t)| t.round() != 0.0)
        .map(|(i, t)| {
            let bits = format!("{i:09b}");
            format!("(0b{}_{}, {}),", &bits[..5], &bits[5..], t.round())
        })
        .collect();
    println!("const THREAT_ENTRIES: &[(u16, i32)] = &[");
    for chunk in entries.chunks(4) {
        println!("    {}", chunk.join(" "));
    }
    println!("];");
    println!("\nmost frequent masks (positions, fitted value):");
    let mut order: Vec<usize> = (0..THREAT_MASKS).collect();
    order.sort_by_key(|&t| std::cmp::Reverse(seen[t]));
    for &t in order.iter().take(24) {
        println!("  {t:09b} {:>7} {:>7.1}", seen[t], model.threat[t]);
    }
}

const SCALE: f64 = VALUE_SCALE as f64;

/// How strongly the threat table is pulled towards 0.
const RIDGE: f64 = 4e-4;
