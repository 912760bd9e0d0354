//! Solitaire benchmark for the mahjong engine.
//!
//! A random deal of 13 tiles from a fresh wall, then 18 draws, each followed by the bot's
//! decision; nobody else plays (so no claims, and the visible set is the own discards).
//! A win = the hand becomes complete by self-draw and the variant allows the win
//! (Hong Kong: at least `min_fan`, Riichi: a closed complete hand always has menzen tsumo,
//! Red Dragon: at least `min_score`). Kongs draw a replacement tile that does not count as
//! one of the 18 draws. Riichi declarations are not locked in (the hand keeps improving).
//!
//! `cargo run --release --example mahjong_sim -- [--deals N] [--seed S] [--variant riichi|hong_kong|red_dragon|all]`

use std::time::Instant;

use clap::{Parser, ValueEnum};

use gamebot::mahjong::shanten::{live_counts, shanten};
use gamebot::mahjong::tiles::{
    Meld, MeldKind, Tile, TileCounts, Variant, is_terminal_or_honor, rank_of,
};
use gamebot::mahjong::{Action, Category, DiscardContext, HandSetup, Strategy, decide_discard};
use gamebot::rng::SplitMix64;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Policy {
    Bot(Strategy),
    /// Minimum shanten, maximum ukeire, ties by lowest tile.
    Naive,
    /// Same, ties: isolated honors and terminals first.
    NaiveTieBreak,
}

impl Policy {
    fn name(self) -> &'static str {
        match self {
            Self::Bot(s) => gamebot::mahjong::riichi_bot::strategy_name(s),
            Self::Naive => "naive greedy",
            Self::NaiveTieBreak => "greedy + tie-break",
        }
    }
}

fn wall(variant: Variant) -> Vec<Tile> {
    let mut w = Vec::new();
    for k in variant.kinds() {
        for copy in 0..4 {
            let red = variant.has_red_fives() && k < 27 && rank_of(k) == 5 && copy == 0;
            w.push(Tile { index: k, red });
        }
    }
    w
}

struct Outcome {
    tenpai: bool,
    win: bool,
    times: Vec<u32>,
}

fn play(variant: Variant, policy: Policy, rng: &mut SplitMix64) -> Outcome {
    let mut w = wall(variant);
    for i in (1..w.len()).rev() {
        // by modulo, as the seeded runs in the README were drawn
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        w.swap(i, j);
    }
    let mut ctx = HandSetup::new(variant, w.drain(..13).collect());
    ctx.strategy = match policy {
        Policy::Bot(s) => s,
        _ => Strategy::Efficient,
    };
    let mut out = Outcome {
        tenpai: false,
        win: false,
        times: Vec::with_capacity(20),
    };
    let mut draws = 0;
    let mut replacement = false;
    while draws < 18 || replacement {
        let t = w.pop().expect("wall");
        if !replacement {
            draws += 1;
        }
        replacement = false;
        ctx.hand.push(t);
        ctx.drawn = Some(t);
        let checked = DiscardContext::for_turn(ctx.clone()).expect("a dealt hand is a valid hand");
        let start = Instant::now();
        let d = decide_discard(&checked);
        let tile = match policy {
            Policy::Bot(_) => {
                out.times.push(start.elapsed().as_nanos() as u32);
                if d.action == Action::Win {
                    out.win = true;
                    out.tenpai = true;
                    return out;
                }
                if d.action == Action::Kong {
                    let k = d.tile.index;
                    let concealed = ctx.hand.iter().filter(|x| x.index == k).count() == 4;
                    if concealed {
                        let tiles: Vec<Tile> =
                            ctx.hand.iter().copied().filter(|x| x.index == k).collect();
                        ctx.hand.retain(|x| x.index != k);
                        ctx.melds.push(Meld {
                            kind: MeldKind::ConcealedKong,
                            tiles,
                        });
                    } else {
                        let pos = ctx
                            .hand
                            .iter()
                            .position(|x| x.index == k)
                            .expect("kong tile");
                        let extra = ctx.hand.remove(pos);
                        if let Some(m) = ctx
                            .melds
                            .iter_mut()
                            .find(|m| m.kind == MeldKind::Pung && m.base() == k)
                        {
                            m.kind = MeldKind::Kong;
                            m.tiles.push(extra);
                        }
                    }
                    replacement = true;
                    continue;
                }
                d.tile
            }
            Policy::Naive | Policy::NaiveTieBreak => {
                let conc = TileCounts::from_tiles(&ctx.hand);
                if shanten(variant, &conc, ctx.melds.len()) < 0 {
                    out.win = true;
                    out.tenpai = true;
                    return out;
                }
                let best = d
                    .candidates
                    .iter()
                    .min_by_key(|c| {
                        let isolated_edge = matches!(
                            c.category,
                            Category::IsolatedHonor | Category::IsolatedNumber
                        ) && is_terminal_or_honor(c.tile.index);
                        let tb = if policy == Policy::NaiveTieBreak {
                            u8::from(!isolated_edge)
                        } else {
                            0
                        };
                        (c.shanten, std::cmp::Reverse(c.ukeire), tb, c.tile.index)
                    })
                    .expect("candidate");
                best.tile
            }
        };
        let pos = ctx
            .hand
            .iter()
            .position(|x| *x == tile)
            .expect("discard in hand");
        let gone = ctx.hand.remove(pos);
        ctx.visible.push(gone);
        ctx.drawn = None;
        if shanten(variant, &TileCounts::from_tiles(&ctx.hand), ctx.melds.len()) <= 0 {
            out.tenpai = true;
        }
    }
    let _ = live_counts(variant, &TileCounts::default());
    out
}

/// Which variants to simulate.
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
#[value(rename_all = "snake_case")]
enum Which {
    Riichi,
    HongKong,
    RedDragon,
    All,
}

/// Solitaire benchmark for the mahjong engine: random deals, 18 draws each,
/// the bot's discard after every draw; tenpai and win rates per policy.
#[derive(Parser, Debug)]
struct Args {
    /// Deals per table row.
    #[arg(long, default_value_t = 10_000, value_name = "N")]
    deals: usize,
    /// RNG seed for the deals (each row starts from it).
    #[arg(long, default_value_t = 2024, value_name = "S")]
    seed: u64,
    /// Variant to simulate (all: every variant, one after the other).
    #[arg(long, value_enum, default_value_t = Which::All)]
    variant: Which,
}

fn main() {
    let Args {
        deals,
        seed,
        variant,
    } = Args::parse();
    let variants: Vec<Variant> = match variant {
        Which::All => vec![Variant::Riichi, Variant::HongKong, Variant::RedDragon],
        Which::Riichi => vec![Variant::Riichi],
        Which::HongKong => vec![Variant::HongKong],
        Which::RedDragon => vec![Variant::RedDragon],
    };
    println!("deals per row: {deals}, seed {seed}; HK min_fan 3, Red Dragon min_score 0");
    println!("| variant | policy | tenpai ≤18 draws | win ≤18 draws | median µs | p99 µs |");
    println!("|---|---|---|---|---|---|");
    for v in variants {
        let mut policies = vec![
            Policy::Bot(Strategy::Efficient),
            Policy::Bot(Strategy::Classic),
        ];
        if v == Variant::Riichi {
            policies.extend([Policy::Naive, Policy::NaiveTieBreak]);
        }
        for p in policies {
            let mut rng = SplitMix64::new(seed);
            let (mut tenpai, mut win) = (0usize, 0usize);
            let mut times: Vec<u32> = Vec::new();
            for _ in 0..deals {
                let o = play(v, p, &mut rng);
                tenpai += usize::from(o.tenpai);
                win += usize::from(o.win);
                times.extend(o.times);
            }
            times.sort_unstable();
            let (med, p99) = if times.is_empty() {
                ("-".to_string(), "-".to_string())
            } else {
                (
                    format!("{:.0}", times[times.len() / 2] as f64 / 1e3),
                    format!("{:.0}", times[times.len() * 99 / 100] as f64 / 1e3),
                )
            };
            let name = match v {
                Variant::Riichi => "riichi",
                Variant::HongKong => "hong_kong",
                Variant::RedDragon => "red_dragon",
            };
            println!(
                "| {name} | {} | {:.1}% | {:.1}% | {med} | {p99} |",
                p.name(),
                100.0 * tenpai as f64 / deals as f64,
                100.0 * win as f64 / deals as f64
            );
        }
    }
}
