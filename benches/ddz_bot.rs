//! Play-bot benchmarks: `choose_play` on opening leads, mid-game follows and
//! small endgames (the determinized search), plus `GameState::from_history`.
//! Run with `cargo bench --features testkit --bench ddz_bot`.

use criterion::{Criterion, criterion_group, criterion_main};
use gamebot::doudizhu::bot::{GameState, SplitMix64, choose_play, random_deal};
use gamebot::doudizhu::endgame::Seat;
use gamebot::doudizhu::{Hand, Rules};
use gamebot::stop::Stop;
use std::hint::black_box;
use std::time::Duration;

/// Seeded self-play: the states met by the bot in `games` games, with the
/// history that led to each.
fn collect_states(seed: u64, games: usize) -> Vec<(Seat, Hand, Vec<Hand>, Hand)> {
    let rules = Rules::default();
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for g in 0..games {
        let (mut hands, bottom) = random_deal(&mut rng);
        let mut history = Vec::new();
        let mut seat = Seat::Landlord;
        loop {
            let i = seat.index();
            let st = GameState::from_history(seat, hands[i], &history, Some(bottom), rules)
                .expect("self-play history is valid");
            out.push((seat, hands[i], history.clone(), bottom));
            let d = choose_play(
                &st,
                &Stop::after(Duration::from_millis(200)),
                g as u64,
                None,
            );
            hands[i] = hands[i].sub(d.play.cards);
            history.push(d.play.cards);
            if hands[i].is_empty() {
                break;
            }
            seat = seat.next();
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let rules = Rules::default();
    let states = collect_states(11, 6);
    let build = |(seat, hand, history, bottom): &(Seat, Hand, Vec<Hand>, Hand)| {
        GameState::from_history(*seat, *hand, history, Some(*bottom), rules).unwrap()
    };
    let total = |s: &GameState| s.counts.iter().sum::<usize>();
    let opening: Vec<GameState> = states.iter().map(build).filter(|s| total(s) > 45).collect();
    let middle: Vec<GameState> = states
        .iter()
        .map(build)
        .filter(|s| (33..=45).contains(&total(s)))
        .collect();
    let endgame: Vec<GameState> = states
        .iter()
        .map(build)
        .filter(|s| (10..=26).contains(&total(s)))
        .collect();
    let mut g = c.benchmark_group("ddz_bot");
    g.sample_size(20);
    for (name, set) in [
        ("opening", &opening),
        ("middle", &middle),
        ("endgame", &endgame),
    ] {
        let mut k = 0usize;
        g.bench_function(format!("choose_play/{name}"), |b| {
            b.iter(|| {
                k = (k + 1) % set.len();
                let st = &set[k];
                black_box(choose_play(
                    st,
                    &Stop::after(Duration::from_millis(200)),
                    7,
                    None,
                ))
            })
        });
    }
    let long = states
        .iter()
        .max_by_key(|s| s.2.len())
        .expect("some states")
        .clone();
    g.bench_function("from_history/longest", |b| {
        b.iter(|| black_box(build(&long)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
