//! Fits the gomoku evaluation to the outcomes of self-play games (Texel's
//! method): the engine plays itself at a fixed node count from random
//! openings, every quiet position of those games is labelled with the result
//! for its side to move, and the cell weights (one set for the side to move,
//! one for its opponent) and the threat-combination table are moved, by
//! gradient descent, to minimise the squared error between the result and
//! `sigmoid(eval / K)`. `K` is fitted first, with today's weights, so the
//! fitted weights keep the evaluation's scale (the search's margins are in
//! its units). Threat combinations seen in few positions are pulled towards 0.
//! Under renju each colour has its own weights and threat table (a sample
//! with black to move trains black's mover weights, white's opponent weights
//! and black's table); freestyle and standard fit one set for both colours.
//!
//! `cargo run --release --features testkit --example gomoku_tune -- --games 10000 --nodes 10000 --out games.txt`
//! generates and fits; `--data games.txt` fits again on saved games. The
//! result is printed as the `Weights` constants of `src/gomoku/weights.rs`
//! (`FREE`, or `RENJU_BLACK` and `RENJU_WHITE`, with their threat entries),
//! and is accepted only after an SPRT between the two builds (CONTRIBUTING.md).

use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};

use clap::{Parser, ValueEnum};

use gamebot::gomoku::tuning::{
    FEATURE_NAMES, FEATURES, FIVE_FEATURE, SideFeatures, THREAT_MASKS, VALUE_SCALE, Weights,
    quiet_features, weights,
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
    fit(&train, &test, args.epochs, rule);
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

/// A quiet position's features, its threat mask, the side to move (0 black,
/// 1 white) and its score.
struct Sample {
    me: SideFeatures,
    op: SideFeatures,
    mask: usize,
    side: usize,
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
                side: if black { 0 } else { 1 },
                score,
            });
        }
        if !board.is_legal(p) {
            panic!("an illegal move {p:?} in a game");
        }
        board.play(p);
    }
}

/// One colour's weights being fitted: its cell weights as the side to move's
/// and as the opponent's, and its threat table.
#[derive(Clone)]
struct Set {
    mover: [f64; FEATURES],
    opponent: [f64; FEATURES],
    threat: Vec<f64>,
}

/// A set's parameters in the gradient's layout: mover weights, opponent
/// weights, threat table.
const SET_PARAMS: usize = 2 * FEATURES + THREAT_MASKS;

impl Set {
    fn from(w: &Weights) -> Set {
        Set {
            mover: w.mover.map(|w| w as f64),
            opponent: w.opponent.map(|w| w as f64),
            threat: w.threat.iter().map(|&t| t as f64).collect(),
        }
    }
}

/// The sets being fitted: one for both colours, or (renju) black's and white's.
#[derive(Clone)]
struct Model {
    sets: Vec<Set>,
}

impl Model {
    /// The sets weighing the side to move's and its opponent's stones.
    fn sets_of(&self, s: &Sample) -> (usize, usize) {
        if self.sets.len() == 2 {
            (s.side, 1 - s.side)
        } else {
            (0, 0)
        }
    }

    fn eval(&self, s: &Sample) -> f64 {
        let (m, o) = self.sets_of(s);
        let (mover, opponent) = (&self.sets[m], &self.sets[o]);
        let (mut me, mut op) = (0.0, 0.0);
        for k in 0..FEATURES {
            me += mover.mover[k] * s.me[k] as f64;
            op += opponent.opponent[k] * s.op[k] as f64;
        }
        (me - op) / SCALE + mover.threat[s.mask]
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

fn fit(train: &[Sample], test: &[Sample], epochs: usize, rule: Rule) {
    let (names, start): (&[&str], Model) = match rule {
        Rule::Renju => (
            &["RENJU_BLACK", "RENJU_WHITE"],
            Model {
                sets: vec![Set::from(weights(rule, 0)), Set::from(weights(rule, 1))],
            },
        ),
        Rule::Freestyle | Rule::Standard => (
            &["FREE"],
            Model {
                sets: vec![Set::from(weights(rule, 0))],
            },
        ),
    };
    let k = fit_scale(&start, train);
    println!(
        "K = {k:.1}; loss with today's weights: train {:.5}, held out {:.5}",
        loss(&start, k, train),
        loss(&start, k, test)
    );
    let sets = start.sets.len();
    let mut seen = vec![vec![0usize; THREAT_MASKS]; sets];
    for s in train {
        seen[start.sets_of(s).0][s.mask] += 1;
    }
    // Adam over the cell weights (all but the five's, which quiet positions
    // never see) and the threat tables; a threat entry seen in few positions
    // is pulled towards 0 (ridge), so that rare masks don't get noise
    let mut model = start.clone();
    let n = sets * SET_PARAMS;
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-9);
    let scale = 1.0 / train.len().max(1) as f64;
    for epoch in 1..=epochs {
        let mut grad = vec![0.0; n];
        for s in train {
            let p = sigmoid(model.eval(s) / k);
            let g = 2.0 * (p - s.score) * p * (1.0 - p) / k;
            let (mover, opponent) = model.sets_of(s);
            let (mb, ob) = (mover * SET_PARAMS, opponent * SET_PARAMS);
            for j in 0..FEATURES {
                grad[mb + j] += g * s.me[j] as f64 / SCALE;
                grad[ob + FEATURES + j] -= g * s.op[j] as f64 / SCALE;
            }
            grad[mb + 2 * FEATURES + s.mask] += g;
        }
        for (i, set) in model.sets.iter().enumerate() {
            for (t, &w) in set.threat.iter().enumerate() {
                grad[i * SET_PARAMS + 2 * FEATURES + t] += RIDGE * w * scale;
            }
        }
        for i in 0..n {
            let (set, j) = (i / SET_PARAMS, i % SET_PARAMS);
            if j % FEATURES == FIVE_FEATURE && j < 2 * FEATURES {
                continue;
            }
            let gi = grad[i] * scale;
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            // cell weights move by up to a quarter of `VALUE_SCALE` a step
            // (a quarter of an evaluation unit), threat entries by 1
            let lr = if j < 2 * FEATURES { SCALE / 4.0 } else { 1.0 };
            let step = lr * mh / (vh.sqrt() + eps);
            let set = &mut model.sets[set];
            if j < FEATURES {
                // the board's sums need values that are never negative
                set.mover[j] = (set.mover[j] - step).max(0.0);
            } else if j < 2 * FEATURES {
                let j = j - FEATURES;
                set.opponent[j] = (set.opponent[j] - step).max(0.0);
            } else {
                set.threat[j - 2 * FEATURES] -= step;
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
    for (i, name) in names.iter().enumerate() {
        report(name, &start.sets[i], &model.sets[i], &seen[i]);
    }
}

/// Prints a fitted set beside today's, as the constants of `weights.rs`,
/// and its most frequent threat masks.
fn report(name: &str, today: &Set, fitted: &Set, seen: &[usize]) {
    println!(
        "\n{name}\n{:<28} {:>7} {:>9} {:>7} {:>9}",
        "feature", "mover", "fitted", "opp.", "fitted"
    );
    for (j, name) in FEATURE_NAMES.iter().enumerate() {
        println!(
            "{name:<28} {:>7} {:>9.1} {:>7} {:>9.1}",
            today.mover[j], fitted.mover[j], today.opponent[j], fitted.opponent[j]
        );
    }
    let row = |w: &[f64]| {
        w.iter()
            .map(|w| format!("{}", w.round()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!("\npub const {name}: Weights = Weights {{");
    println!("    mover: [{}],", row(&fitted.mover));
    println!("    opponent: [{}],", row(&fitted.opponent));
    println!("    threat: threat_table({name}_THREATS),\n}};");
    let entries: Vec<String> = fitted
        .threat
        .iter()
        .enumerate()
        .filter(|(_, t)| t.round() != 0.0)
        .map(|(i, t)| {
            let bits = format!("{i:09b}");
            format!("(0b{}_{}, {}),", &bits[..5], &bits[5..], t.round())
        })
        .collect();
    println!("const {name}_THREATS: &[(u16, i32)] = &[");
    for chunk in entries.chunks(4) {
        println!("    {}", chunk.join(" "));
    }
    println!("];");
    println!("\nmost frequent masks (positions, fitted value):");
    let mut order: Vec<usize> = (0..THREAT_MASKS).collect();
    order.sort_by_key(|&t| std::cmp::Reverse(seen[t]));
    for &t in order.iter().take(24) {
        println!("  {t:09b} {:>7} {:>7.1}", seen[t], fitted.threat[t]);
    }
}

const SCALE: f64 = VALUE_SCALE as f64;

/// How strongly the threat tables are pulled towards 0.
const RIDGE: f64 = 4e-4;
