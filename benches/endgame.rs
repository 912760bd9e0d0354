//! Endgame solver benchmarks (one thread):
//! `cargo bench --features testkit --bench endgame`.
//!
//! * five named positions (known duels, the seed document's farmer loss, a
//!   standing eight), each solved from scratch (no shared cache);
//! * seeded random deals: two seats × 10 cards and three seats × 6 cards;
//! * a repeated request answered from the shared cache.
//!
//! Harder sizes (13 a side, three seats × 8) are measured by
//! `examples/endgame_stress.rs`, which prints median and worst times.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use gamebot::cache::TranspositionCache;
use gamebot::doudizhu::endgame::{Position, Seat, solve_endgame};
use gamebot::doudizhu::{Hand, Rank, Rules, classify};
use gamebot::rng::XorShift64Star;
use gamebot::stop::Stop;

fn h(s: &str) -> Hand {
    Hand::parse_str(s).expect("valid cards")
}

fn duel(first: &str, second: &str, rules: Rules) -> Position {
    Position::new(
        [Some(h(first)), Some(h(second)), None],
        Seat::Landlord,
        None,
        rules,
    )
    .expect("a valid position")
}

fn named_positions() -> Vec<(&'static str, Position)> {
    let r = Rules::default();
    let seed_rules = Rules {
        trio_solo: true,
        trio_pair: false,
        four_two_solo: true,
        four_two_pair: true,
    };
    vec![
        ("KK5543_vs_225543", duel("KK5543", "225543", r)),
        ("RA54333_vs_B222KQ", duel("RA54333", "B222KQ", r)),
        ("2KKTT77554_vs_AA8", duel("2KKTT77554", "AA8", r)),
        (
            "seed002_farmer",
            Position::new(
                [Some(h("BRJJ999")), Some(h("3333 4567 TT AAAA")), None],
                Seat::LandlordDown,
                None,
                seed_rules,
            )
            .expect("a valid position"),
        ),
        (
            "standing_eight",
            Position::new(
                [Some(h("AA")), Some(h("2KKTT77554")), None],
                Seat::LandlordDown,
                Some((Seat::Landlord, classify(h("8"), &r).expect("a solo"))),
                r,
            )
            .expect("a valid position"),
        ),
    ]
}

/// Seeded deals (xorshift), so runs are comparable.
fn deals(seats: usize, cards: usize, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = XorShift64Star::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    (0..count)
        .map(|_| {
            let mut deck: Vec<Rank> = Hand::DECK.cards().collect();
            rng.shuffle(&mut deck);
            let mut hands = [None; 3];
            for (k, slot) in hands.iter_mut().take(seats).enumerate() {
                *slot = Some(
                    deck[k * cards..(k + 1) * cards]
                        .iter()
                        .fold(Hand::EMPTY, |h, &r| h.add(Hand::of(r, 1))),
                );
            }
            let to_move = Seat::ALL[rng.below(seats)];
            Position::new(hands, to_move, None, Rules::default()).expect("a fresh deal is valid")
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("endgame");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    for (name, pos) in named_positions() {
        g.bench_function(name, |b| {
            b.iter(|| solve_endgame(black_box(&pos), &Stop::never(), None))
        });
    }
    let duels = deals(2, 10, 10, 1);
    g.bench_function("random_2x10_cards_10_deals", |b| {
        b.iter(|| {
            for p in &duels {
                black_box(solve_endgame(p, &Stop::never(), None));
            }
        })
    });
    let triples = deals(3, 6, 10, 1);
    g.bench_function("random_3x6_cards_10_deals", |b| {
        b.iter(|| {
            for p in &triples {
                black_box(solve_endgame(p, &Stop::never(), None));
            }
        })
    });
    let cache = TranspositionCache::with_mib(64);
    let pos = duels[0];
    solve_endgame(&pos, &Stop::never(), Some(&cache));
    g.bench_function("repeat_from_shared_cache_2x10", |b| {
        b.iter(|| solve_endgame(black_box(&pos), &Stop::never(), Some(&cache)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
