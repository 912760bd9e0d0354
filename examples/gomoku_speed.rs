//! Gomoku engine speed: nodes per second and the depth reached on a fixed set of
//! midgame positions (15×15, freestyle and renju), one thread, one search per position.
//!
//! `cargo run --release --features testkit --example gomoku_speed [-- --ms 1000 | --nodes N | --depth D]`
//! (`-- --help` for the options)

use std::time::{Duration, Instant};

use clap::Parser;

use gamebot::gomoku::midgames::MIDGAMES;
use gamebot::gomoku::{Board, Limits, Rule, search};
use gamebot::stop::Stop;

/// Gomoku engine speed: nodes per second and depth reached on fixed midgame
/// positions (15×15, freestyle and renju), one thread, one search per position.
#[derive(Parser, Debug)]
struct Args {
    /// Time per position, in milliseconds (ignored with --nodes or --depth).
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    ms: u64,
    /// A fixed node count instead of a time budget (for instruction-count comparisons).
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// A fixed depth (time to depth, for comparing search changes).
    #[arg(long, value_name = "D")]
    depth: Option<u32>,
}

fn main() {
    let Args {
        ms,
        nodes: max_nodes,
        depth: max_depth,
    } = Args::parse();
    // build the pattern tables outside the timed searches
    let _ = Board::new(15, Rule::Renju);
    println!(
        "{:<10} {:>5} {:>6} {:>10} {:>9} {:>8}  best",
        "rule", "moves", "depth", "nodes", "knodes/s", "eval"
    );
    let (mut total_nodes, mut total_time, mut depths) = (0u64, Duration::ZERO, vec![]);
    for (rule, moves) in MIDGAMES {
        let board = Board::from_moves(15, rule, moves).expect("valid position");
        let start = Instant::now();
        let limits = Limits {
            max_depth,
            max_nodes,
            ..Limits::default()
        };
        let stop = match (max_nodes, max_depth) {
            (None, None) => Stop::after(Duration::from_millis(ms)),
            _ => Stop::never(),
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
    let limit = match (max_nodes, max_depth) {
        (Some(n), _) => format!("{n} nodes"),
        (None, Some(d)) => format!("depth {d}"),
        (None, None) => format!("{ms} ms"),
    };
    println!(
        "total: {:.0} knodes/s, depth min {} median {} max {}, {} nodes in {:.2} s ({limit} per position, one thread)",
        total_nodes as f64 / total_time.as_secs_f64() / 1e3,
        depths[0],
        depths[depths.len() / 2],
        depths[depths.len() - 1],
        total_nodes,
        total_time.as_secs_f64(),
    );
}
