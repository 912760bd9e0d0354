//! Dou Dizhu engine benchmarks: hand splitting and move generation on seeded
//! random hands. Run with `cargo bench --features testkit --bench doudizhu`.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use gamebot::doudizhu::{
    Combo, ComboType, Hand, Rank, Rules, legal_moves, legal_moves_into, min_plays, split,
};
use gamebot::rng::XorShift64Star;
use std::hint::black_box;

/// `count` seeded random hands of `n` cards dealt from a shuffled deck.
fn hands(seed: u64, n: usize, count: usize) -> Vec<Hand> {
    let mut rng = XorShift64Star::new(seed);
    let mut deck: Vec<Rank> = Hand::DECK.cards().collect();
    (0..count)
        .map(|_| {
            rng.shuffle(&mut deck);
            deck[..n]
                .iter()
                .fold(Hand::EMPTY, |h, &r| h.add(Hand::of(r, 1)))
        })
        .collect()
}

fn bench_split(c: &mut Criterion) {
    let rules = Rules::default();
    for n in [17, 20] {
        let hs = hands(0xD0D1 + n as u64, n, 512);
        let mut i = 0;
        c.bench_function(&format!("split/{n}_cards"), |b| {
            b.iter(|| {
                i = (i + 1) % hs.len();
                black_box(split(black_box(hs[i]), &rules))
            })
        });
        let mut i = 0;
        c.bench_function(&format!("min_plays/{n}_cards"), |b| {
            b.iter(|| {
                i = (i + 1) % hs.len();
                black_box(min_plays(black_box(hs[i]), &rules))
            })
        });
    }
}

fn bench_moves(c: &mut Criterion) {
    let rules = Rules::default();
    let hs = hands(0xF00D, 20, 512);
    let mut buf: Vec<Combo> = Vec::new();
    let mut i = 0;
    c.bench_function("moves/lead_20_cards_into", |b| {
        b.iter(|| {
            i = (i + 1) % hs.len();
            legal_moves_into(&mut buf, black_box(hs[i]), None, &rules);
            black_box(buf.len())
        })
    });
    let mut i = 0;
    c.bench_function("moves/lead_20_cards_vec", |b| {
        b.iter(|| {
            i = (i + 1) % hs.len();
            black_box(legal_moves(black_box(hs[i]), None, &rules))
        })
    });
    // Following: for each hand, a `last` play from the other cards, cycling
    // through the common types and taking the lowest one (the most answers).
    let kinds = [
        ComboType::Solo,
        ComboType::Pair,
        ComboType::TrioSolo,
        ComboType::SoloChain,
        ComboType::TrioPair,
        ComboType::PairChain,
        ComboType::Trio,
        ComboType::TrioSoloChain,
    ];
    let follow: Vec<(Hand, Combo)> = hs
        .iter()
        .enumerate()
        .map(|(i, &h)| {
            let others = legal_moves(Hand::DECK.sub(h), None, &rules);
            let last = others
                .iter()
                .find(|m| m.kind == kinds[i % kinds.len()])
                .unwrap_or(&others[0]);
            (h, *last)
        })
        .collect();
    let mut i = 0;
    c.bench_function("moves/follow_20_cards_into", |b| {
        b.iter_batched_ref(
            || {
                i = (i + 1) % follow.len();
                follow[i]
            },
            |(h, last)| {
                legal_moves_into(&mut buf, *h, Some(last), &rules);
                black_box(buf.len())
            },
            BatchSize::SmallInput,
        )
    });
}

criterion_group!(benches, bench_split, bench_moves);
criterion_main!(benches);
