use super::tuning::*;
use super::*;
use crate::mahjong::tiles::parse_tiles;

fn k(name: &str) -> u8 {
    parse_tiles(name).unwrap()[0].index
}

/// A river from `(seat, tiles, tsumogiri)` steps, tiles in tenhou notation, one discard
/// per tile in the given order.
fn river(steps: &[(u8, &str)]) -> Vec<RiverTile> {
    steps
        .iter()
        .flat_map(|&(seat, tiles)| {
            parse_tiles(tiles)
                .unwrap()
                .into_iter()
                .map(move |tile| RiverTile {
                    seat,
                    tile,
                    tsumogiri: false,
                })
        })
        .collect()
}

/// Interleaves per-seat discard lists turn by turn starting with seat 0.
fn turns(per_seat: [&str; 4]) -> Vec<RiverTile> {
    let lists: Vec<Vec<Tile>> = per_seat.iter().map(|s| parse_tiles(s).unwrap()).collect();
    let n = lists.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = Vec::new();
    for t in 0..n {
        for (seat, list) in lists.iter().enumerate() {
            if let Some(&tile) = list.get(t) {
                out.push(RiverTile {
                    seat: seat as u8,
                    tile,
                    tsumogiri: false,
                });
            }
        }
    }
    out
}

const NO_MELDS: &[Meld] = &[];

fn view<'a>(river: &'a [RiverTile], hand: &str) -> TableView<'a> {
    let mut seen = TileCounts::from_tiles(&parse_tiles(hand).unwrap());
    for r in river {
        seen.add(r.tile.index);
    }
    TableView {
        me: 0,
        river,
        riichi: [None; 4],
        melds: [NO_MELDS; 4],
        seen,
        dora: vec![k("1z")],
        seat_winds: [27, 28, 29, 30],
        round_wind: 27,
        tiles_left: 50,
        furiten: true,
    }
}

/// Index in `river` of the `n`-th (0-based) discard of `seat`.
fn nth_of(river: &[RiverTile], seat: u8, n: usize) -> usize {
    river
        .iter()
        .enumerate()
        .filter(|(_, r)| r.seat == seat)
        .nth(n)
        .unwrap()
        .0
}

fn add_seen(v: &mut TableView, tiles: &str) {
    for t in parse_tiles(tiles).unwrap() {
        v.seen.add(t.index);
    }
}

/// Seat 1 riichi on its 6th discard; its river holds 4p (so 1p/7p are suji, 4p's
/// partners), 2s and 8s (5s is suji on both sides), nothing in m.
fn riichi_table() -> Vec<RiverTile> {
    turns([
        "1z9m9p1s2z3z7z",
        "9s4p2s8s1z2p",
        "7z6z5z4z3z2z1z",
        "3z4z5z6z7z2z3z",
    ])
}

#[test]
fn riichi_seat_is_tenpai_and_early_closed_hand_is_not() {
    let r = riichi_table();
    let mut v = view(&r, "");
    let at = nth_of(&r, 1, 5);
    v.riichi[1] = Some(at);
    assert_eq!(tenpai_probability(&v, 1), 1.0);
    let early = turns(["1z9m", "9s1p", "7z6z", "3z4z"]);
    let v2 = view(&early, "");
    let p = tenpai_probability(&v2, 2);
    assert!(p < 0.03, "turn 2 closed: {p}");
    assert_eq!(tenpai_probability(&v2, 0), 0.0, "own seat");
}

#[test]
fn tenpai_rises_with_turn_melds_and_tells() {
    let base: Vec<RiverTile> = (0..10)
        .map(|_| RiverTile {
            seat: 1,
            tile: Tile::new(k("1z")),
            tsumogiri: false,
        })
        .collect();
    let v = view(&base, "");
    let late_closed = tenpai_probability(&v, 1);
    let v_short = view(&base[..4], "");
    assert!(tenpai_probability(&v_short, 1) < late_closed);
    let chi = [Meld {
        kind: MeldKind::Chow,
        tiles: parse_tiles("345m").unwrap(),
    }];
    let mut v_open = view(&base, "");
    v_open.melds[1] = &chi;
    let open = tenpai_probability(&v_open, 1);
    assert!(open > late_closed);
    let mut streak = base.clone();
    for r in streak.iter_mut().skip(6) {
        r.tsumogiri = true;
    }
    let mut v_streak = view(&streak, "");
    v_streak.melds[1] = &chi;
    assert!(tenpai_probability(&v_streak, 1) > open);
    let four = [
        chi[0].clone(),
        chi[0].clone(),
        chi[0].clone(),
        chi[0].clone(),
    ];
    let mut v_bare = view(&base, "");
    v_bare.melds[1] = &four;
    assert_eq!(tenpai_probability(&v_bare, 1), 1.0);
}

#[test]
fn own_discards_and_post_riichi_discards_are_genbutsu() {
    // seat 3 discards 5m before seat 1 declares; seat 2 discards 6p after it
    let r = river(&[
        (1, "3m"),
        (3, "5m"),
        (1, "1z"),
        (2, "2z"),
        (1, "8s"),
        (2, "6p"),
        (3, "4s"),
    ]);
    let mut v = view(&r, "");
    v.riichi[1] = Some(4); // 8s is the riichi tile
    let g = genbutsu(&v, 1);
    for name in ["3m", "1z", "8s", "6p", "4s"] {
        assert!(g[k(name) as usize], "{name} should be genbutsu");
        assert_eq!(deal_in_probability(&v, 1, k(name)), 0.0, "{name}");
    }
    assert!(!g[k("5m") as usize], "5m passed before the declaration");
    // 2z passed between two of its discards: temporary furiten ended with the riichi tile
    assert!(!g[k("2z") as usize]);
    assert!(deal_in_probability(&v, 1, k("5m")) > 0.0);
    assert_eq!(
        genbutsu_kinds(&v, 1),
        vec![k("3m"), k("6p"), k("4s"), k("8s"), k("1z")]
    );
}

#[test]
fn temporary_furiten_of_a_silent_hand() {
    let r = river(&[(1, "9m"), (2, "5p"), (3, "5s"), (1, "1z"), (2, "5m")]);
    let v = view(&r, "");
    let g = genbutsu(&v, 1);
    assert!(g[k("5m") as usize], "passed after seat 1's last discard");
    assert!(!g[k("5p") as usize] && !g[k("5s") as usize]);
}

#[test]
fn suji_is_safer_than_non_suji_per_rank_class() {
    let r = riichi_table();
    let mut v = view(&r, "");
    v.riichi[1] = Some(nth_of(&r, 1, 5));
    let d = |name: &str| deal_in_probability(&v, 1, k(name));
    // 1/9 and 3/7 classes: 1p, 7p are suji of the discarded 4p; 1m, 7m are not
    assert!(d("1p") < d("1m"), "{} {}", d("1p"), d("1m"));
    assert!(d("7p") < d("7m"));
    // 4-5-6 class: 5s is suji on both sides (2s, 8s), 5p on one (2p), 5m on none
    assert!(d("5s") < d("5p") && d("5p") < d("5m"));
    // calibration: rough commonly quoted rates
    assert!((0.10..=0.16).contains(&d("5m")), "non-suji 5: {}", d("5m"));
    assert!((0.025..=0.05).contains(&d("5s")), "suji 5: {}", d("5s"));
    // terminals safer than middle tiles
    assert!(d("1m") < d("4m"));
    assert!(d("1m") < d("5m"));
}

#[test]
fn honors_by_copies_seen() {
    let r2 = river(&[(2, "6z6z"), (3, "7z7z7z"), (2, "1s"), (1, "1m")]);
    let mut v2 = view(&r2, "5z");
    add_seen(&mut v2, "7z"); // the 4th red dragon in another meld
    v2.riichi[1] = Some(3);
    let d = |name: &str| deal_in_probability(&v2, 1, k(name));
    assert_eq!(d("7z"), 0.0, "all four seen");
    assert!(d("7z") < d("5z") && d("5z") < d("4z"), "1 seen vs 0 seen");
    assert!((0.015..=0.03).contains(&d("6z")), "2 seen: {}", d("6z"));
    assert!(d("6z") < d("5z"));
}

#[test]
fn kabe_and_one_chance_make_tiles_safer() {
    let r = riichi_table();
    let mut plain = view(&r, "");
    plain.riichi[1] = Some(nth_of(&r, 1, 5));
    let mut one_chance = plain.clone();
    add_seen(&mut one_chance, "4m4m4m");
    let mut kabe = plain.clone();
    add_seen(&mut kabe, "4m4m4m4m");
    let d = |v: &TableView| deal_in_probability(v, 1, k("3m"));
    assert!(d(&kabe) < d(&one_chance) && d(&one_chance) < d(&plain));
    // no-chance on both sides of 7m: 8m and 5m gone
    let mut both = plain.clone();
    add_seen(&mut both, "8m8m8m8m5m5m5m5m");
    assert!(deal_in_probability(&both, 1, k("7m")) < d(&plain) / 2.0);
}

/// An open hand showing only bamboo: a pon of 7s and a chi of 123s.
fn bamboo_melds() -> [Meld; 2] {
    [
        Meld {
            kind: MeldKind::Pung,
            tiles: parse_tiles("777s").unwrap(),
        },
        Meld {
            kind: MeldKind::Chow,
            tiles: parse_tiles("123s").unwrap(),
        },
    ]
}

#[test]
fn flush_opponent_makes_its_suit_dangerous() {
    let r = turns([
        "1z2z3z4z5z6z",
        "1m9p2s5p8m3s",
        "7z6z5z4z3z2z",
        "3z4z5z6z7z2z",
    ]);
    let pon = bamboo_melds();
    let mut v = view(&r, "");
    v.melds[1] = &pon;
    assert_eq!(flush_suit(&v, 1), None, "3s is among the last six discards");
    // the same two early s discards, then six of other suits
    let r2 = turns([
        "1z2z3z4z5z6z7z1z",
        "2s3s1m9p5p8m1p9m",
        "7z6z5z4z3z2z1z7z",
        "3z4z5z6z7z2z3z3z",
    ]);
    let mut v2 = view(&r2, "");
    v2.melds[1] = &pon;
    assert_eq!(flush_suit(&v2, 1), Some(2));
    let d = |name: &str| deal_in_probability(&v2, 1, k(name));
    assert!(d("5s") > 2.0 * d("4p"), "{} vs {}", d("5s"), d("4p"));
    assert!(d("4m") < 0.02);
    let plain = view(&r2, "");
    assert!(tenpai_probability(&v2, 1) > tenpai_probability(&plain, 1));
    assert!(expected_hand_value(&v2, 1) > 3_000.0);
}

#[test]
fn early_outside_discards_dora_and_riichi_tile_raise_danger() {
    // seat 1: early 1m 9m, late 1p 9p
    let r = river(&[(1, "1m9m1z2z3z4z5z6z7z1p9p")]);
    let v = view(&r, "");
    let d = |v: &TableView, name: &str| deal_in_probability(v, 1, k(name));
    assert!(d(&v, "5m") > d(&v, "5p"));
    let mut dora = v.clone();
    dora.dora = vec![k("5s")];
    assert!(d(&dora, "5s") > d(&v, "5s"));
    assert!(d(&dora, "6s") > d(&v, "6s"));
    // riichi on a hand-cut 4m vs 4p: 2m (matagi-suji of 4m) more dangerous
    let a = river(&[(1, "4p2z3z4z5z6z7z4m")]);
    let b = river(&[(1, "4m2z3z4z5z6z7z4p")]);
    let mut va = view(&a, "");
    va.riichi[1] = Some(7);
    let mut vb = view(&b, "");
    vb.riichi[1] = Some(7);
    assert!(d(&va, "2m") > d(&vb, "2m"));
    assert!(d(&va, "2p") < d(&vb, "2p"));
}

#[test]
fn hand_values() {
    let r = riichi_table();
    let mut v = view(&r, "");
    v.riichi[1] = Some(nth_of(&r, 1, 5));
    let riichi = expected_hand_value(&v, 1);
    assert!((5_000.0..=6_000.0).contains(&riichi), "{riichi}");
    v.seat_winds = [28, 27, 30, 29];
    assert!((expected_hand_value(&v, 1) - 1.5 * riichi).abs() < 1e-6);
    let chi = [Meld {
        kind: MeldKind::Chow,
        tiles: parse_tiles("345m").unwrap(),
    }];
    let mut open = view(&r, "");
    open.melds[2] = &chi;
    let bare = expected_hand_value(&open, 2);
    assert!((2_000.0..=3_000.0).contains(&bare), "{bare}");
    let dora_chi = [Meld {
        kind: MeldKind::Chow,
        tiles: parse_tiles("305m").unwrap(),
    }];
    open.melds[2] = &dora_chi;
    assert!(expected_hand_value(&open, 2) > bare);
    let dragon = [Meld {
        kind: MeldKind::Pung,
        tiles: parse_tiles("555z").unwrap(),
    }];
    open.melds[2] = &dragon;
    assert!(expected_hand_value(&open, 2) > bare);
    assert_eq!(expected_hand_value(&open, 0), 0.0);
}

#[test]
fn table_danger_combines_opponents() {
    let r = riichi_table();
    let mut v = view(&r, "");
    v.riichi[1] = Some(nth_of(&r, 1, 5));
    let t = table_danger(&v);
    assert!(t.opponents[0].is_none());
    let one = t.opponents[1].as_ref().unwrap();
    for kind in 0..KINDS as u8 {
        let i = kind as usize;
        let mut safe = 1.0;
        for read in t.opponents.iter().flatten() {
            safe *= 1.0 - read.tenpai * read.deal_in[i];
        }
        assert!((t.combined[i] - (1.0 - safe)).abs() < 1e-12);
        assert!((tile_danger(&v, kind) - t.combined[i]).abs() < 1e-12);
        assert!(t.combined[i] >= one.deal_in[i] - 1e-12);
        assert!((expected_loss(&v, kind) - t.expected_loss[i]).abs() < 1e-9);
    }
    // 9s: genbutsu for seat 1 (riichi), 5m dangerous
    assert!(t.combined[k("5m") as usize] > t.combined[k("9s") as usize]);
    let values = [0.0, 8_000.0, 0.0, 0.0];
    let only_riichi = expected_loss_with_values(&v, k("5m"), values);
    assert!((only_riichi - 8_000.0 * one.deal_in[k("5m") as usize]).abs() < 1e-9);
    // a dora tile costs more when hit
    let mut dora = v.clone();
    dora.dora = vec![k("5m")];
    let hit = expected_loss_with_values(&dora, k("5m"), values);
    let prob = deal_in_probability(&dora, 1, k("5m"));
    assert!((hit - 8_000.0 * prob * DORA_HIT_VALUE_FACTOR).abs() < 1e-9);
}

#[test]
fn without_furiten_own_discards_are_only_safer() {
    // seat 1 discarded 5m; 5p is a plain tile in the same spot of another suit
    let r = river(&[(1, "5m1z2z3z"), (2, "5p")]);
    let mut v = view(&r, "");
    v.furiten = false;
    assert!(genbutsu_kinds(&v, 1).is_empty());
    let d = |name: &str| deal_in_probability(&v, 1, k(name));
    assert!(d("5m") > 0.0, "it may still win on its own discard");
    assert!(d("5m") < 0.5 * d("5s"), "{} vs {}", d("5m"), d("5s"));
    // 5p passed after seat 1's last discard: safer than 5s, not safe
    assert!(d("5p") > 0.0 && d("5p") < d("5s"));
    // suji of its discard: safer than non-suji, not dead
    assert!(d("2m") > DEAL_IN_FLOOR && d("2m") < d("2s"));
    // the same tiles are genbutsu with furiten
    v.furiten = true;
    assert_eq!(deal_in_probability(&v, 1, k("5m")), 0.0);
}

#[test]
fn without_furiten_riichi_is_not_read_and_dead_honors_stay_safe() {
    let r = riichi_table();
    let mut v = view(&r, "");
    v.riichi[1] = Some(nth_of(&r, 1, 5));
    v.furiten = false;
    assert!(tenpai_probability(&v, 1) < 1.0);
    add_seen(&mut v, "6z6z6z");
    assert_eq!(deal_in_probability(&v, 1, k("6z")), 0.0, "all four seen");
    // seat 1 discarded 1z: only safer, with three seen less than with two
    assert!(deal_in_probability(&v, 1, k("1z")) > 0.0);
}

#[test]
fn without_furiten_a_flush_opponent_makes_its_suit_dangerous() {
    let r = turns([
        "1z2z3z4z5z6z7z1z",
        "2s3s1m9p5p8m1p9m",
        "7z6z5z4z3z2z1z7z",
        "3z4z5z6z7z2z3z3z",
    ]);
    let pon = bamboo_melds();
    let mut v = view(&r, "");
    v.furiten = false;
    v.melds[1] = &pon;
    assert_eq!(flush_suit(&v, 1), Some(2));
    let d = |name: &str| deal_in_probability(&v, 1, k(name));
    assert!(d("5s") > 2.0 * d("4p"), "{} vs {}", d("5s"), d("4p"));
    assert!(d("4m") < d("5s"));
    let mut plain = view(&r, "");
    plain.furiten = false;
    assert!(tenpai_probability(&v, 1) > tenpai_probability(&plain, 1));
}

#[test]
fn a_full_table_evaluation_is_fast() {
    let r = turns([
        "1z9m9p1s2z3z7z5m6p2s4m",
        "9s4p2s8s1z2p3m6s7p1m",
        "7z6z5z4z3z2z1z8p3p2m",
        "3z4z5z6z7z2z3z4s6m7s",
    ]);
    let mut v = view(&r, "123m456p789s1122z");
    v.riichi[1] = Some(nth_of(&r, 1, 5));
    let n = 200;
    let start = std::time::Instant::now();
    let mut sink = 0.0;
    for _ in 0..n {
        sink += table_danger(&v).combined[4];
    }
    let per = start.elapsed() / n;
    assert!(sink > 0.0);
    // well under 50 µs optimised; this bound leaves room for debug builds on a busy box
    assert!(per.as_micros() < 2_000, "{per:?} per table");
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn arb_meld() -> impl Strategy<Value = Meld> {
        prop_oneof![
            (0u8..34).prop_map(|k| Meld {
                kind: MeldKind::Pung,
                tiles: vec![Tile::new(k); 3],
            }),
            (0u8..3, 0u8..7).prop_map(|(s, r)| Meld {
                kind: MeldKind::Chow,
                tiles: (0..3).map(|i| Tile::new(s * 9 + r + i)).collect(),
            }),
            (0u8..34).prop_map(|k| Meld {
                kind: MeldKind::ConcealedKong,
                tiles: vec![Tile::new(k); 4],
            }),
        ]
    }

    type Case = (
        u8,
        Vec<(u8, u8, bool)>,
        [Option<usize>; 4],
        [Vec<Meld>; 4],
        Vec<u8>,
        Vec<u8>,
    );

    fn arb_case() -> impl Strategy<Value = Case> {
        (
            0u8..4,
            proptest::collection::vec((0u8..4, 0u8..34, any::<bool>()), 0..80),
            proptest::array::uniform4(proptest::option::of(0usize..30)),
            proptest::array::uniform4(proptest::collection::vec(arb_meld(), 0..4)),
            proptest::collection::vec(0u8..34, 1..4),
            proptest::collection::vec(0u8..34, 0..14),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 400,
            failure_persistence: None,
            ..Default::default()
        })]

        /// Genbutsu is 0 and strictly safer than every other tile, except honors with
        /// all four copies seen, which are 0 as well.
        #[test]
        fn genbutsu_is_strictly_safest(case in arb_case()) {
            let (me, steps, riichi_pick, melds, dora, hand) = case;
            let river: Vec<RiverTile> = steps
                .iter()
                .map(|&(seat, kind, tsumogiri)| RiverTile {
                    seat,
                    tile: Tile::new(kind),
                    tsumogiri,
                })
                .collect();
            // riichi on the n-th own discard of a seat, when it has that many
            let riichi: [Option<usize>; 4] = std::array::from_fn(|seat| {
                riichi_pick[seat].and_then(|n| {
                    river
                        .iter()
                        .enumerate()
                        .filter(|(_, r)| r.seat as usize == seat)
                        .nth(n)
                        .map(|(i, _)| i)
                })
            });
            let mut seen = TileCounts::default();
            for r in &river {
                seen.add(r.tile.index);
            }
            for t in melds.iter().flatten().flat_map(|m| &m.tiles) {
                seen.add(t.index);
            }
            for &h in &hand {
                seen.add(h);
            }
            let v = TableView {
                me,
                river: &river,
                riichi,
                melds: std::array::from_fn(|s| melds[s].as_slice()),
                seen,
                dora,
                seat_winds: [27, 28, 29, 30],
                round_wind: 27,
                tiles_left: 30,
                furiten: true,
            };
            let table = table_danger(&v);
            for opp in 0..4u8 {
                let t = danger_table(&v, opp);
                let tenpai = tenpai_probability(&v, opp);
                prop_assert!((0.0..=1.0).contains(&tenpai));
                if opp == me {
                    prop_assert!(t.iter().all(|&p| p == 0.0));
                    prop_assert_eq!(tenpai, 0.0);
                    continue;
                }
                let g = genbutsu(&v, opp);
                let safe_max = (0..KINDS).filter(|&i| g[i]).map(|i| t[i]).fold(0.0, f64::max);
                for i in 0..KINDS {
                    prop_assert!((0.0..=1.0).contains(&t[i]));
                    let dead_honor = i >= 27 && seen.get(i as u8) >= 4;
                    if g[i] || dead_honor {
                        prop_assert_eq!(t[i], 0.0);
                    } else {
                        prop_assert!(t[i] >= DEAL_IN_FLOOR && t[i] > safe_max);
                    }
                }
                let read = table.opponents[opp as usize].as_ref().unwrap();
                prop_assert_eq!(read.deal_in, t);
                prop_assert!(expected_hand_value(&v, opp) > 0.0);
            }
            for i in 0..KINDS {
                prop_assert!((0.0..=1.0).contains(&table.combined[i]));
                prop_assert!(table.expected_loss[i] >= 0.0);
            }
            // Without furiten nothing is genbutsu: every tile but a dead honor can deal in.
            let off = TableView { furiten: false, ..v.clone() };
            for opp in (0..4u8).filter(|&o| o != me) {
                prop_assert!(genbutsu(&off, opp).iter().all(|&g| !g));
                let t = danger_table(&off, opp);
                for (i, &p) in t.iter().enumerate() {
                    let dead_honor = i >= 27 && seen.get(i as u8) >= 4;
                    if dead_honor {
                        prop_assert_eq!(p, 0.0);
                    } else {
                        prop_assert!((DEAL_IN_FLOOR..=DEAL_IN_CAP).contains(&p));
                    }
                }
            }
        }
    }
}
