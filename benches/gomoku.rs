//! Gomoku engine benchmarks: play/undo with the incremental patterns, renju forbidden-move
//! tests and fixed-node searches on a midgame position.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gamebot::gomoku::midgames::MIDGAMES;
use gamebot::gomoku::{Board, Limits, Point, Rule, search};
use gamebot::stop::Stop;

/// The renju position of the shared midgame set (also searched as freestyle).
const MIDGAME: &[Point] = MIDGAMES[5].1;

fn bench(c: &mut Criterion) {
    for rule in [Rule::Freestyle, Rule::Renju] {
        let board = Board::from_moves(15, rule, MIDGAME).expect("position");
        let empties: Vec<Point> = (0..15 * 15)
            .map(|i| (i % 15, i / 15))
            .filter(|&p| board.is_legal(p))
            .take(40)
            .collect();
        c.bench_function(&format!("gomoku/play_undo_40/{rule:?}"), |b| {
            let mut board = board.clone();
            b.iter(|| {
                for &p in &empties {
                    board.play(black_box(p));
                    board.undo();
                }
            })
        });
        c.bench_function(&format!("gomoku/search_20k_nodes/{rule:?}"), |b| {
            let limits = Limits {
                max_nodes: Some(20_000),
                ..Limits::default()
            };
            b.iter(|| search(black_box(&board), &limits, &Stop::never()))
        });
    }
    let renju = Board::from_moves(15, Rule::Renju, &MIDGAME[..10]).expect("position");
    c.bench_function("gomoku/is_forbidden_all_cells/Renju", |b| {
        b.iter(|| {
            (0..15 * 15)
                .filter(|&i| renju.is_forbidden(black_box((i % 15, i / 15))))
                .count()
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
