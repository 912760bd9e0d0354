//! Gomoku engine speed: nodes per second and the depth reached on a fixed set of
//! midgame positions (15×15, freestyle and renju), one thread, one search per position.
//!
//! `cargo run --release --example gomoku_speed [-- --ms 1000 | --nodes N]`

use std::time::{Duration, Instant};

use gamebot::gomoku::{Board, Limits, Point, Rule, search};
use gamebot::pool::Stop;

/// Midgame positions from engine self-play openings (none is decided by a short forced win).
const POSITIONS: [(Rule, &[Point]); 10] = [
    (
        Rule::Freestyle,
        &[
            (7, 7),
            (8, 6),
            (9, 7),
            (6, 7),
            (8, 8),
            (10, 6),
            (7, 6),
            (7, 8),
            (9, 9),
            (6, 6),
        ],
    ),
    (
        Rule::Freestyle,
        &[
            (7, 7),
            (7, 6),
            (9, 5),
            (10, 4),
            (8, 7),
            (9, 7),
            (8, 8),
            (8, 6),
            (6, 6),
            (5, 5),
            (7, 5),
            (8, 4),
            (10, 5),
            (8, 5),
            (9, 6),
            (7, 8),
            (9, 4),
            (8, 3),
            (8, 2),
            (9, 2),
            (10, 10),
            (9, 9),
            (6, 7),
            (5, 7),
            (8, 10),
            (6, 5),
        ],
    ),
    (
        Rule::Freestyle,
        &[
            (7, 7),
            (8, 8),
            (6, 9),
            (6, 8),
            (7, 8),
            (7, 9),
            (8, 7),
            (9, 6),
            (9, 7),
            (6, 7),
            (10, 7),
        ],
    ),
    (
        Rule::Freestyle,
        &[
            (7, 7),
            (6, 7),
            (8, 9),
            (7, 6),
            (8, 8),
            (6, 6),
            (8, 6),
            (8, 5),
            (5, 8),
            (6, 8),
            (6, 5),
            (8, 10),
        ],
    ),
    (
        Rule::Freestyle,
        &[
            (7, 7),
            (7, 8),
            (9, 9),
            (10, 10),
            (8, 7),
            (9, 7),
            (8, 6),
            (8, 8),
            (6, 8),
            (5, 9),
            (7, 9),
            (8, 10),
            (10, 9),
            (8, 9),
            (9, 8),
            (7, 6),
            (9, 10),
            (8, 11),
            (8, 12),
            (9, 12),
            (6, 7),
            (5, 7),
            (6, 5),
            (6, 9),
            (7, 10),
            (5, 10),
        ],
    ),
    (
        Rule::Renju,
        &[
            (7, 7),
            (8, 6),
            (9, 7),
            (6, 7),
            (8, 8),
            (10, 6),
            (7, 6),
            (7, 8),
            (5, 6),
            (6, 6),
            (6, 5),
        ],
    ),
    (
        Rule::Renju,
        &[
            (7, 7),
            (7, 6),
            (9, 5),
            (10, 4),
            (8, 7),
            (9, 7),
            (8, 8),
            (8, 6),
            (6, 6),
            (5, 5),
            (7, 5),
            (8, 4),
            (9, 4),
            (9, 3),
            (10, 5),
            (11, 5),
            (8, 2),
            (11, 6),
            (6, 5),
            (8, 5),
            (6, 7),
            (9, 6),
            (10, 6),
            (6, 8),
            (4, 7),
            (5, 7),
        ],
    ),
    (
        Rule::Renju,
        &[
            (7, 7),
            (8, 8),
            (6, 9),
            (7, 9),
            (6, 10),
            (6, 8),
            (5, 7),
            (5, 8),
            (4, 8),
            (9, 7),
        ],
    ),
    (
        Rule::Renju,
        &[
            (7, 7),
            (8, 7),
            (6, 5),
            (7, 8),
            (6, 9),
            (8, 9),
            (6, 7),
            (6, 8),
            (8, 8),
            (9, 9),
            (10, 9),
            (9, 10),
        ],
    ),
    (
        Rule::Renju,
        &[
            (7, 7),
            (7, 8),
            (9, 9),
            (10, 10),
            (8, 7),
            (9, 7),
            (8, 6),
            (8, 8),
            (6, 8),
            (5, 9),
            (7, 9),
            (8, 10),
            (9, 10),
            (9, 11),
            (10, 9),
            (11, 9),
            (8, 12),
            (11, 8),
            (6, 9),
            (8, 9),
            (6, 7),
            (9, 8),
            (10, 8),
            (6, 6),
            (4, 7),
            (5, 7),
        ],
    ),
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let ms = args
        .iter()
        .position(|a| a == "--ms")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000u64);
    // a fixed node count instead of a time budget (for instruction-count comparisons)
    let max_nodes: Option<u64> = args
        .iter()
        .position(|a| a == "--nodes")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok());
    // build the pattern tables outside the timed searches
    let _ = Board::new(15, Rule::Renju);
    println!(
        "{:<10} {:>5} {:>6} {:>10} {:>9} {:>8}  best",
        "rule", "moves", "depth", "nodes", "knodes/s", "eval"
    );
    let (mut total_nodes, mut total_time, mut depths) = (0u64, Duration::ZERO, vec![]);
    for (rule, moves) in POSITIONS {
        let board = Board::from_moves(15, rule, moves).expect("valid position");
        let start = Instant::now();
        let limits = Limits {
            max_depth: None,
            max_nodes,
        };
        let stop = match max_nodes {
            Some(_) => Stop::never(),
            None => Stop::after(Duration::from_millis(ms)),
        };
        let r = search(&board, &limits, &stop);
        let took = start.elapsed();
        total_nodes += r.nodes;
        total_time += took;
        depths.push(r.depth);
        println!(
            "{:<10} {:>5} {:>6} {:>10} {:>9.0} {:>8}  {:?}{}",
            format!("{rule:?}"),
            moves.len(),
            r.depth,
            r.nodes,
            r.nodes as f64 / took.as_secs_f64() / 1e3,
            r.eval,
            r.best,
            r.win_in
                .map(|n| format!(" (win_in {n})"))
                .unwrap_or_default()
        );
    }
    depths.sort_unstable();
    println!(
        "total: {:.0} knodes/s, depth min {} median {} max {} ({} ms per position, one thread)",
        total_nodes as f64 / total_time.as_secs_f64() / 1e3,
        depths[0],
        depths[depths.len() / 2],
        depths[depths.len() - 1],
        ms
    );
}
