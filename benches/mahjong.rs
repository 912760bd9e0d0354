//! Decision-time benchmark for the mahjong engine.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gamebot::mahjong::tiles::Variant;
use gamebot::mahjong::{
    ClaimContext, DiscardContext, Discarder, HandSetup, Strategy, decide_claim, decide_discard,
    parse_tiles,
};

fn setup(variant: Variant, hand: &str, strategy: Strategy) -> HandSetup {
    let mut c = HandSetup::new(variant, parse_tiles(hand).expect("hand"));
    c.strategy = strategy;
    c.visible = parse_tiles("19m19p19s1234z").expect("visible");
    c
}

fn bench(c: &mut Criterion) {
    let hands = [
        (Variant::Riichi, "1289m3478p2569s15z"),
        (Variant::Riichi, "234m5678p3455s66z7z"),
        (Variant::HongKong, "1289m3478p2569s15z"),
        (Variant::RedDragon, "1289m3478p2569s47z"),
    ];
    for (variant, hand) in hands {
        for strategy in [Strategy::Classic, Strategy::Efficient] {
            let x = DiscardContext::for_turn(setup(variant, hand, strategy)).expect("valid");
            let name = format!("discard/{variant:?}/{strategy:?}/{hand}");
            c.bench_function(&name, |b| b.iter(|| decide_discard(black_box(&x))));
        }
    }
    // the load-test body (scripts/bodies/discard.json): near ready, efficient lookahead
    for strategy in [Strategy::Classic, Strategy::Efficient] {
        let mut x = setup(Variant::Riichi, "123m456p789s1127z5m", strategy);
        x.visible = parse_tiles("1z").expect("visible");
        x.drawn = Some(parse_tiles("5m").expect("drawn")[0]);
        let x = DiscardContext::for_turn(x).expect("valid");
        let name = format!("discard/Riichi/{strategy:?}/load-body");
        c.bench_function(&name, |b| b.iter(|| decide_discard(black_box(&x))));
    }
    let mut claim = setup(Variant::HongKong, "1289m3478p2569s1z", Strategy::Classic);
    claim.min_fan = 0;
    let tile = parse_tiles("7m").expect("tile")[0];
    let claim = ClaimContext::new(claim, tile, Discarder::Left).expect("valid");
    c.bench_function("claim/HongKong/Classic", |b| {
        b.iter(|| decide_claim(black_box(&claim)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
