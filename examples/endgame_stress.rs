//! Stress run of the Dou Dizhu endgame solver on seeded random deals.
//!
//! ```text
//! cargo run --release --features testkit --example endgame_stress -- [seats] [cards] [count] [budget_ms] [seed] [only]
//! cargo run --release --features testkit --example endgame_stress -- 2 13 100 10000 1
//! cargo run --release --features testkit --example endgame_stress -- 3 8 100 10000 1
//! cargo run --release --features testkit --example endgame_stress -- walk 2 13 20 1   # cache reuse along games
//! cargo run --release --features testkit --example endgame_stress -- --help
//! ```
//!
//! Defaults: 2 seats, 13 cards, 50 deals, 10000 ms, seed 1 (`walk`: 2 13 20 1).
//!
//! `only` solves just the deal with that index (0-based) of the seeded run.
//! Prints each slow or incomplete position, then median / p90 / worst time, nodes per second
//! and how many positions ran out of budget. `walk` solves a deal, plays the
//! best move and the first-ordered reply, solves again … with one shared
//! cache, and prints the cache hit rate per step.

use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};

use gamebot::cache::TranspositionCache;
use gamebot::doudizhu::endgame::{
    Outcome, Played, Position, Seat, solve_endgame, solve_endgame_on,
};
use gamebot::doudizhu::{Hand, Rank, Rules};
use gamebot::rng::XorShift64Star;
use gamebot::stop::Stop;

/// A whole deal, double-dummy: the landlord holds 20 cards (with the three
/// landlord cards) and leads, the peasants 17 each.
fn whole_deal(rng: &mut XorShift64Star) -> Position {
    let mut deck: Vec<Rank> = Hand::DECK.cards().collect();
    rng.shuffle(&mut deck);
    let hand = |cards: &[Rank]| {
        cards
            .iter()
            .fold(Hand::EMPTY, |h, &r| h.add(Hand::of(r, 1)))
    };
    let hands = [
        Some(hand(&deck[..20])),
        Some(hand(&deck[20..37])),
        Some(hand(&deck[37..])),
    ];
    Position::new(hands, Seat::Landlord, None, Rules::default())
        .expect("a fresh deal is a valid position")
}

fn deal(rng: &mut XorShift64Star, seats: usize, cards: usize) -> Position {
    let mut deck: Vec<Rank> = Hand::DECK.cards().collect();
    rng.shuffle(&mut deck);
    let mut hands = [None; 3];
    let who: &[usize] = if seats == 2 { &[0, 1] } else { &[0, 1, 2] };
    for (k, &s) in who.iter().enumerate() {
        let h = deck[k * cards..(k + 1) * cards]
            .iter()
            .fold(Hand::EMPTY, |h, &r| h.add(Hand::of(r, 1)));
        hands[s] = Some(h);
    }
    let to_move = Seat::ALL[who[rng.below(who.len())]];
    Position::new(hands, to_move, None, Rules::default()).expect("a fresh deal is a valid position")
}

fn describe(p: &Position) -> String {
    let hands: Vec<String> = p
        .seats()
        .map(|s| format!("{}={}", s.as_str(), p.hand(s)))
        .collect();
    format!("{} to_move={}", hands.join(" "), p.to_move())
}

fn percentile<T: Copy>(sorted: &[T], q: f64) -> T {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// The process's peak resident memory in MiB.
fn peak_rss_mib() -> f64 {
    // SAFETY: an all-zero rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage only writes the struct it is given.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    usage.ru_maxrss as f64 / 1024.0
}

fn stress(a: &Stress) {
    let Stress {
        seats,
        cards,
        deals: count,
        seed,
        only,
        threads,
        whole,
        list,
        ..
    } = *a;
    let budget = Duration::from_millis(a.budget_ms);
    let mut rng = XorShift64Star::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut times = Vec::new();
    let mut node_counts = Vec::new();
    let (mut nodes, mut unknown, mut wins, mut complete) = (0u64, 0, 0, 0);
    let started = Instant::now();
    for i in 0..count {
        let p = if whole {
            whole_deal(&mut rng)
        } else {
            deal(&mut rng, seats, cards)
        };
        if only.is_some_and(|o| o != i) {
            continue;
        }
        let cache = (a.cache_mib > 0).then(|| TranspositionCache::with_mib(a.cache_mib));
        let t = Instant::now();
        let sol = solve_endgame_on(&p, &Stop::after(budget), cache.as_ref(), threads);
        let el = t.elapsed();
        times.push(el);
        node_counts.push(sol.nodes);
        nodes += sol.nodes;
        complete += sol.complete as usize;
        match sol.outcome {
            Outcome::Unknown => unknown += 1,
            Outcome::Win => wins += 1,
            Outcome::Loss => {}
        }
        if list || el > Duration::from_millis(200) || !sol.complete || only.is_some() {
            println!(
                "#{i}: {:?} {} nodes={} {:?} {}",
                sol.outcome,
                sol.complete,
                sol.nodes,
                el,
                describe(&p)
            );
        }
    }
    let total = started.elapsed();
    times.sort();
    node_counts.sort();
    let within = |limit: Duration| times.iter().filter(|&&t| t <= limit).count();
    let solved = times.len();
    let class = if whole {
        "whole deals (20/17/17)".to_string()
    } else {
        format!("{seats} seats x {cards} cards")
    };
    println!(
        "{class}, {solved} deals (seed {seed}, budget {budget:?}, {threads} thread(s)): \
         time median {:?}, p90 {:?}, p99 {:?}, max {:?}, mean {:?}; \
         nodes median {}, p90 {}, p99 {}, max {}; \
         wins {wins}, unknown {unknown}, complete {complete}/{solved}, \
         within 2 s {}, within 10 s {}; {:.2} M nodes/s; peak RSS {:.0} MiB",
        percentile(&times, 0.5),
        percentile(&times, 0.9),
        percentile(&times, 0.99),
        times[times.len() - 1],
        total / solved as u32,
        percentile(&node_counts, 0.5),
        percentile(&node_counts, 0.9),
        percentile(&node_counts, 0.99),
        node_counts[node_counts.len() - 1],
        within(Duration::from_secs(2)),
        within(Duration::from_secs(10)),
        nodes as f64 / total.as_secs_f64() / 1e6,
        peak_rss_mib(),
    );
}

/// Solves along games with one shared cache: after each solve, the mover
/// plays the best move; the cache's hits are printed per position.
fn walk(seats: usize, cards: usize, games: usize, seed: u64) {
    let cache = TranspositionCache::with_mib(256);
    let mut rng = XorShift64Star::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let (mut asked, mut cached, mut first_time, mut later_time) =
        (0, 0, Duration::ZERO, Duration::ZERO);
    for g in 0..games {
        let mut p = deal(&mut rng, seats, cards);
        let mut step = 0;
        loop {
            let before = cache.stats();
            let t = Instant::now();
            let sol = solve_endgame(&p, &Stop::after(Duration::from_secs(10)), Some(&cache));
            let el = t.elapsed();
            let after = cache.stats();
            if step == 0 {
                first_time += el;
            } else {
                later_time += el;
                asked += 1;
                cached += sol.cached as usize;
            }
            if g < 3 {
                println!(
                    "game {g} step {step}: {} {:?} cached={} nodes={} {:?} cache hits+{} misses+{}",
                    sol.outcome,
                    sol.best_move.map(|m| m.to_string()),
                    sol.cached,
                    sol.nodes,
                    el,
                    after.hits - before.hits,
                    after.misses - before.misses
                );
            }
            let Some(mv) = sol.best_move else { break };
            match p.play(&mv) {
                Some(Played::Next(q)) => p = q,
                _ => break,
            }
            step += 1;
        }
    }
    let s = cache.stats();
    println!(
        "{games} games: first solves {:?} in total, {asked} later solves {:?} in total, \
         root answered from cache {cached}/{asked}; cache hits {} misses {} entries {}",
        first_time, later_time, s.hits, s.misses, s.entries
    );
}

/// Stress run of the Dou Dizhu endgame solver on seeded random deals: prints
/// each slow or incomplete position, then the time distribution, nodes per
/// second and how many positions ran out of budget.
#[derive(Parser, Debug)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    stress: Stress,
}

#[derive(clap::Args, Debug)]
struct Stress {
    /// Seats holding cards (2 or 3).
    #[arg(default_value_t = 2)]
    seats: usize,
    /// Cards per seat.
    #[arg(default_value_t = 13)]
    cards: usize,
    /// Number of deals.
    #[arg(default_value_t = 50)]
    deals: usize,
    /// Time budget per solve, in milliseconds.
    #[arg(default_value_t = 10_000)]
    budget_ms: u64,
    /// RNG seed for the deals.
    #[arg(default_value_t = 1)]
    seed: u64,
    /// Solve only the deal with this index (0-based) of the seeded run.
    only: Option<usize>,
    /// Threads one solve may use.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// A shared cache of this many MiB (a new one for each deal), through
    /// which the threads of one solve share solved positions; 0: none.
    #[arg(long, default_value_t = 0)]
    cache_mib: usize,
    /// Whole deals instead: landlord 20 cards, peasants 17, landlord leads.
    #[arg(long)]
    whole: bool,
    /// Print every deal's result, not only the slow and incomplete ones.
    #[arg(long)]
    list: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve a deal, play the best move and the first-ordered reply, solve
    /// again … with one shared cache; print the cache hit rate per step.
    Walk {
        /// Seats holding cards (2 or 3).
        #[arg(default_value_t = 2)]
        seats: usize,
        /// Cards per seat.
        #[arg(default_value_t = 13)]
        cards: usize,
        /// Number of games.
        #[arg(default_value_t = 20)]
        games: usize,
        /// RNG seed for the deals.
        #[arg(default_value_t = 1)]
        seed: u64,
    },
}

fn main() {
    let cli = Cli::parse();
    if let Some(Command::Walk {
        seats,
        cards,
        games,
        seed,
    }) = cli.command
    {
        walk(seats, cards, games, seed);
        return;
    }
    stress(&cli.stress);
}
