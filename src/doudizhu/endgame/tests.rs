//! Tests of the endgame solver. The reference solver here is written plainly:
//! a straightforward recursion over `legal_moves` plus the pass, with its own
//! turn logic, no ordering, no pruning and no shared code with the solver (its
//! memo is keyed by the whole state, standing play's cards included).

use super::key::canonical_key;
use super::search::{Node, Solver};
use super::*;
use crate::doudizhu::{
    Combo, ComboType, Hand, Rank, Rules, classify, legal_moves, legal_moves_into,
};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::{HashMap, HashSet};

fn h(s: &str) -> Hand {
    Hand::parse_str(s).unwrap()
}

fn combo(s: &str, rules: &Rules) -> Combo {
    classify(h(s), rules).unwrap()
}

fn rules_from(bits: u32) -> Rules {
    Rules {
        trio_solo: bits & 1 != 0,
        trio_pair: bits & 2 != 0,
        four_two_solo: bits & 4 != 0,
        four_two_pair: bits & 8 != 0,
    }
}

/// A position built without [`Position::new`]'s checks, so that tests can
/// state invalid ones too.
fn position(
    hands: [Option<Hand>; 3],
    to_move: Seat,
    last: Option<(Seat, Combo)>,
    rules: Rules,
) -> Position {
    Position {
        hands: hands.map(|h| h.unwrap_or(Hand::EMPTY)),
        present: hands.map(|h| h.is_some()),
        to_move,
        last,
        rules,
    }
}

fn duel(first: &str, second: &str, rules: Rules) -> Position {
    position(
        [Some(h(first)), Some(h(second)), None],
        Seat::Landlord,
        None,
        rules,
    )
}

fn solve(p: &Position) -> Solution {
    solve_endgame(p, &Stop::never(), None)
}

// ------------------------------------------------------------- reference

type PlainKey = ([u64; 3], usize, Option<(usize, u64, ComboType)>);

/// Does the side of `mover` win? Plain recursion.
fn plain(
    hands: [Hand; 3],
    present: [bool; 3],
    mover: usize,
    last: Option<(usize, Combo)>,
    rules: &Rules,
    memo: &mut HashMap<PlainKey, bool>,
) -> bool {
    let key = (
        hands.map(|h| h.bits()),
        mover,
        last.map(|(s, c)| (s, c.cards.bits(), c.kind)),
    );
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let v = plain_moves(hands, present, mover, last, rules)
        .into_iter()
        .any(|mv| plain_after(hands, present, mover, last, &mv, rules, memo));
    memo.insert(key, v);
    v
}

fn plain_moves(
    hands: [Hand; 3],
    _present: [bool; 3],
    mover: usize,
    last: Option<(usize, Combo)>,
    rules: &Rules,
) -> Vec<Combo> {
    let mut out = legal_moves(hands[mover], last.as_ref().map(|(_, c)| c), rules);
    if last.is_some() {
        out.push(Combo::pass());
    }
    out
}

fn plain_next(present: [bool; 3], s: usize) -> usize {
    let mut n = (s + 1) % 3;
    while !present[n] {
        n = (n + 1) % 3;
    }
    n
}

/// Does the side of `mover` win by playing `mv`?
fn plain_after(
    hands: [Hand; 3],
    present: [bool; 3],
    mover: usize,
    last: Option<(usize, Combo)>,
    mv: &Combo,
    rules: &Rules,
    memo: &mut HashMap<PlainKey, bool>,
) -> bool {
    let nx = plain_next(present, mover);
    let (hands2, last2) = if mv.is_pass() {
        let l = match last {
            Some((s, _)) if s == nx => None,
            other => other,
        };
        (hands, l)
    } else {
        let mut hs = hands;
        hs[mover] = hs[mover].sub(mv.cards);
        if hs[mover].is_empty() {
            return true;
        }
        (hs, Some((mover, *mv)))
    };
    let child = plain(hands2, present, nx, last2, rules, memo);
    if (nx == 0) == (mover == 0) {
        child
    } else {
        !child
    }
}

fn plain_position(p: &Position) -> (bool, Vec<Combo>) {
    let mut memo = HashMap::new();
    let last = p.last.map(|(s, c)| (s.index(), c));
    let m = p.to_move.index();
    let wins: Vec<Combo> = plain_moves(p.hands, p.present, m, last, &p.rules)
        .into_iter()
        .filter(|mv| plain_after(p.hands, p.present, m, last, mv, &p.rules, &mut memo))
        .collect();
    (!wins.is_empty(), wins)
}

// ------------------------------------------------------------- checks

fn key_set(v: &[Combo]) -> HashSet<(u64, ComboType)> {
    v.iter().map(|c| (c.cards.bits(), c.kind)).collect()
}

/// Checks a complete solution against the reference and by replaying.
fn check(p: &Position, sol: &Solution) {
    let (win, wins) = plain_position(p);
    assert!(sol.complete, "{p:?}");
    assert_eq!(
        sol.outcome,
        if win { Outcome::Win } else { Outcome::Loss },
        "{p:?}"
    );
    assert_eq!(key_set(&sol.winning_moves), key_set(&wins), "{p:?}");
    let best = sol.best_move.expect("a move");
    assert!(
        p.legal_moves()
            .iter()
            .any(|m| m.cards == best.cards && m.kind == best.kind)
    );
    if win {
        assert!(key_set(&wins).contains(&(best.cards.bits(), best.kind)));
    }
    // Every winning move, replayed: the next mover's side is ours and wins,
    // or is the other side and loses.
    for mv in &sol.winning_moves {
        match p.play(mv).expect("legal") {
            Played::Out(s) => assert_eq!(s, p.to_move),
            Played::Next(q) => {
                let r = solve(&q);
                let expect = if q.to_move.same_team(p.to_move) {
                    Outcome::Win
                } else {
                    Outcome::Loss
                };
                assert_eq!(r.outcome, expect, "after {mv} from {p:?}");
            }
        }
    }
    // The principal line is legal and ends with the winner going out.
    let mut q = *p;
    for (i, (seat, mv)) in sol.pv.iter().enumerate() {
        assert_eq!(*seat, q.to_move);
        match q.play(mv).expect("pv move is legal") {
            Played::Out(s) => {
                assert_eq!(i, sol.pv.len() - 1);
                assert_eq!(s.same_team(p.to_move), win, "pv winner");
                return;
            }
            Played::Next(n) => q = n,
        }
    }
    panic!("pv does not reach the end: {p:?} {:?}", sol.pv);
}

fn deck() -> Vec<Rank> {
    Hand::DECK.cards().collect()
}

fn hand_of(cards: &[Rank]) -> Hand {
    cards
        .iter()
        .fold(Hand::EMPTY, |h, &r| h.add(Hand::of(r, 1)))
}

/// A random position: `seats` = 2 or 3, hands of 1..=max cards, random rules,
/// mover and (half the time) a standing play from the unused cards.
fn random_position(rng: &mut StdRng, seats: usize, max: usize) -> Position {
    position_from(rng, deck(), seats, max, 8)
}

/// A random position dealt from `cards` (shuffled here): hands of 1..=max
/// cards for `seats` = 2 or 3 seats, random rules and mover, and half the
/// time a standing play drawn from the next `standing_pool` unused cards.
fn position_from(
    rng: &mut StdRng,
    mut cards: Vec<Rank>,
    seats: usize,
    max: usize,
    standing_pool: usize,
) -> Position {
    cards.shuffle(rng);
    let mut present = [true; 3];
    if seats == 2 {
        present[rng.random_range(1..3)] = false;
    }
    let mut hands = [Hand::EMPTY; 3];
    let mut at = 0;
    for s in 0..3 {
        if present[s] {
            let n = rng.random_range(1..=max);
            hands[s] = hand_of(&cards[at..at + n]);
            at += n;
        }
    }
    let rules = rules_from(rng.random_range(0..16));
    let seat_list: Vec<Seat> = Seat::ALL
        .into_iter()
        .filter(|s| present[s.index()])
        .collect();
    let to_move = seat_list[rng.random_range(0..seat_list.len())];
    let mut last = None;
    if rng.random_bool(0.5) {
        let pool = hand_of(&cards[at..at + standing_pool]);
        let leads = legal_moves(pool, None, &rules);
        let c = leads[rng.random_range(0..leads.len())];
        let others: Vec<Seat> = seat_list
            .iter()
            .copied()
            .filter(|&s| s != to_move)
            .collect();
        last = Some((others[rng.random_range(0..others.len())], c));
    }
    let p = Position {
        hands,
        present,
        to_move,
        last,
        rules,
    };
    p.validate().unwrap();
    p
}

// ------------------------------------------------------------- tests

#[test]
fn known_duels() {
    let r = Rules::default();
    // KK5543 vs 225543: first wins.
    assert_eq!(solve(&duel("KK5543", "225543", r)).outcome, Outcome::Win);
    // ZA54333 vs Y222KQ (Z = red joker, Y = black joker): first wins.
    assert_eq!(solve(&duel("RA54333", "B222KQ", r)).outcome, Outcome::Win);
    // 2KK0077554 vs AA8: second wins.
    assert_eq!(solve(&duel("2KKTT77554", "AA8", r)).outcome, Outcome::Loss);
    for p in [
        duel("KK5543", "225543", r),
        duel("RA54333", "B222KQ", r),
        duel("2KKTT77554", "AA8", r),
    ] {
        check(&p, &solve(&p));
    }
}

#[test]
fn seed_002_farmer_loses() {
    let rules = Rules {
        trio_solo: true,
        trio_pair: false,
        four_two_solo: true,
        four_two_pair: true,
    };
    let p = position(
        [Some(h("BRJJ999")), Some(h("3333 4567 TT AAAA")), None],
        Seat::LandlordDown,
        None,
        rules,
    );
    let sol = solve(&p);
    assert_eq!(sol.outcome, Outcome::Loss);
    assert!(sol.complete && sol.winning_moves.is_empty());
    check(&p, &sol);
}

#[test]
fn a_peasant_answers_a_standing_eight() {
    let r = Rules::default();
    let p = position(
        [Some(h("AA")), Some(h("2KKTT77554")), None],
        Seat::LandlordDown,
        Some((Seat::Landlord, combo("8", &r))),
        r,
    );
    let sol = solve(&p);
    check(&p, &sol);
    assert_ne!(sol.outcome, Outcome::Unknown);
}

#[test]
fn validation() {
    let r = Rules::default();
    let ok = duel("33", "44", r);
    assert_eq!(ok.validate(), Ok(()));
    let mut p = ok;
    p.last = Some((Seat::Landlord, combo("5", &r)));
    assert_eq!(
        p.validate(),
        Err(PositionError::LastIsMover(Seat::Landlord))
    );
    let p = position(
        [None, Some(h("3")), Some(h("4"))],
        Seat::LandlordDown,
        None,
        r,
    );
    assert_eq!(p.validate(), Err(PositionError::NoLandlord));
    let p = position([Some(h("3")), None, None], Seat::Landlord, None, r);
    assert_eq!(p.validate(), Err(PositionError::SeatCount(1)));
    let p = position(
        [Some(h("3")), Some(h("4")), None],
        Seat::LandlordUp,
        None,
        r,
    );
    assert!(matches!(
        p.validate(),
        Err(PositionError::AbsentSeat {
            role: SeatRole::ToMove,
            ..
        })
    ));
    let p = position(
        [Some(h("3")), Some(h("4")), None],
        Seat::Landlord,
        Some((Seat::LandlordUp, combo("5", &r))),
        r,
    );
    assert!(matches!(
        p.validate(),
        Err(PositionError::AbsentSeat {
            role: SeatRole::StandingPlay,
            ..
        })
    ));
    let p = position(
        [Some(h("3")), Some(Hand::EMPTY), None],
        Seat::Landlord,
        None,
        r,
    );
    assert_eq!(
        p.validate(),
        Err(PositionError::EmptyHand(Seat::LandlordDown))
    );
    let p = position(
        [Some(h("33334444555566667777B")), Some(h("8")), None],
        Seat::Landlord,
        None,
        r,
    );
    assert!(matches!(
        p.validate(),
        Err(PositionError::TooManyCards { count: 21, .. })
    ));
    let p = position(
        [Some(h("333")), Some(h("33")), None],
        Seat::Landlord,
        None,
        r,
    );
    assert_eq!(p.validate(), Err(PositionError::TooManyCopies('3')));
    let mut p = duel("33", "44", r);
    p.to_move = Seat::LandlordDown;
    p.last = Some((Seat::Landlord, Combo::pass()));
    assert_eq!(p.validate(), Err(PositionError::LastIsPass));
    // Position::new states the same rules: only valid positions are made.
    assert_eq!(
        Position::new([Some(h("3")), None, None], Seat::Landlord, None, r),
        Err(PositionError::SeatCount(1))
    );
    let made = Position::new(
        [Some(h("33")), Some(h("44")), None],
        Seat::Landlord,
        None,
        r,
    );
    assert_eq!(made, Ok(duel("33", "44", r)));
    assert_eq!("landlord_up".parse::<Seat>(), Ok(Seat::LandlordUp));
    assert!("dealer".parse::<Seat>().is_err());
}

#[test]
fn turn_order_and_implied_passes() {
    let r = Rules::default();
    // Three seats; the landlord's 5 stands, landlord_down passed (implied),
    // landlord_up to move. If it passes, the landlord leads again.
    let p = position(
        [Some(h("3")), Some(h("44")), Some(h("6"))],
        Seat::LandlordUp,
        Some((Seat::Landlord, combo("5", &r))),
        r,
    );
    // landlord_up wins at once with its 6.
    let sol = solve(&p);
    assert_eq!(sol.outcome, Outcome::Win);
    assert_eq!(sol.winning_moves.len(), 1);
    match p.play(&Combo::pass()).unwrap() {
        Played::Next(q) => {
            assert_eq!(q.to_move, Seat::Landlord);
            assert_eq!(q.last, None);
            // The landlord leads its last card and wins.
            assert_eq!(solve(&q).outcome, Outcome::Win);
        }
        Played::Out(_) => panic!(),
    }
    // A peasant may pass on its partner's play: landlord_up's Q stands (the
    // landlord passed); when landlord_down passes too, landlord_up leads.
    let p = position(
        [Some(h("KK")), Some(h("AA")), Some(h("3"))],
        Seat::LandlordDown,
        Some((Seat::LandlordUp, combo("Q", &r))),
        r,
    );
    match p.play(&Combo::pass()).unwrap() {
        Played::Next(q) => assert_eq!((q.to_move, q.last), (Seat::LandlordUp, None)),
        Played::Out(_) => panic!(),
    }
    // With the landlord's Q standing, landlord_down's pass hands the turn to
    // landlord_up, who still has to beat the Q or pass.
    let p2 = position(
        [Some(h("KK")), Some(h("AA")), Some(h("3"))],
        Seat::LandlordDown,
        Some((Seat::Landlord, combo("Q", &r))),
        r,
    );
    match p2.play(&Combo::pass()).unwrap() {
        Played::Next(q) => assert_eq!((q.to_move, q.last.is_some()), (Seat::LandlordUp, true)),
        Played::Out(_) => panic!(),
    }
    check(&p2, &solve(&p2));
    check(&p, &solve(&p));
}

#[test]
fn matches_plain_solver_two_seats() {
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..3000 {
        let p = random_position(&mut rng, 2, 6);
        check(&p, &solve(&p));
    }
}

#[test]
fn matches_plain_solver_three_seats() {
    let mut rng = StdRng::seed_from_u64(11);
    for _ in 0..1500 {
        let p = random_position(&mut rng, 3, 5);
        check(&p, &solve(&p));
    }
}

/// Two threads sharing one table give the reference's values and winning moves.
#[test]
fn matches_plain_solver_on_two_threads() {
    let mut rng = StdRng::seed_from_u64(23);
    for i in 0..300 {
        let p = random_position(&mut rng, 2 + i % 2, 6);
        // A short budget keeps the shared table small; these solve in microseconds.
        let stop = Stop::after(std::time::Duration::from_millis(500));
        // Straight to the threads (the public entry would solve these on
        // one thread first).
        check(&p, &super::solve_on(&p, &stop, None, 2));
    }
}

#[test]
fn matches_plain_solver_larger_duels() {
    let mut rng = StdRng::seed_from_u64(13);
    for _ in 0..150 {
        let p = random_position(&mut rng, 2, 9);
        check(&p, &solve(&p));
    }
}

/// A search held to a memory budget keeps its table within it and still
/// solves exactly; the budget gets every byte back.
#[test]
fn the_table_stays_within_the_memory_budget() {
    use crate::memory::MemoryBudget;
    // Big enough for the starting table only.
    let tiny = MemoryBudget::new(300 << 10);
    let mut rng = StdRng::seed_from_u64(17);
    for _ in 0..100 {
        let p = random_position(&mut rng, 2, 8);
        let stop = Stop::never().with_memory(tiny.clone());
        check(&p, &solve_endgame(&p, &stop, None));
    }
    assert!(tiny.peak() <= tiny.limit());
    assert_eq!(tiny.used(), 0);

    // Three hands of ten soon want more than the starting 256 KiB; they get
    // no more.
    let budget = MemoryBudget::new(400 << 10);
    for _ in 0..20 {
        let p = random_position(&mut rng, 3, 10);
        let stop = Stop::never()
            .with_node_limit(300_000)
            .with_memory(budget.clone());
        let sol = solve_endgame(&p, &stop, None);
        assert!(sol.best_move.is_some() || sol.outcome != Outcome::Unknown);
    }
    assert!(
        budget.refused() > 0,
        "the table asked to grow past the budget"
    );
    assert!(budget.peak() <= budget.limit(), "peak {}", budget.peak());
    assert_eq!(budget.used(), 0);
}

#[test]
fn shared_cache_answers_repeats_and_successors() {
    let cache = TranspositionCache::with_mib(16);
    let r = Rules::default();
    let p = duel("33456789TJQKA2", "4455667788B", r);
    let first = solve_endgame(&p, &Stop::never(), Some(&cache));
    assert!(first.complete && !first.cached);
    let again = solve_endgame(&p, &Stop::never(), Some(&cache));
    assert!(again.cached);
    assert_eq!(again.outcome, first.outcome);
    assert_eq!(key_set(&again.winning_moves), key_set(&first.winning_moves));
    check(&p, &again);
    // Walk the principal line: every later position answers from the cache.
    let mut q = p;
    for (_, mv) in &first.pv {
        match q.play(mv).unwrap() {
            Played::Out(_) => break,
            Played::Next(n) => q = n,
        }
        let s = solve_endgame(&q, &Stop::never(), Some(&cache));
        // Positions the search finished at once (the mover goes out) are not stored.
        assert!(s.cached || s.nodes < 100, "{q:?}");
        let expect = if q.to_move.same_team(p.to_move) {
            first.outcome
        } else {
            Outcome::Loss
        };
        if first.outcome == Outcome::Win {
            assert_eq!(s.outcome, expect);
        }
    }
}

#[test]
fn cache_key_layout() {
    let r = Rules::default();
    let a = position(
        [Some(h("33")), Some(h("44")), None],
        Seat::LandlordDown,
        Some((Seat::Landlord, combo("5556", &r))),
        r,
    );
    let mut b = a;
    // Same type, rank and length with another kicker: the same position.
    b.last = Some((Seat::Landlord, combo("5557", &r)));
    assert_eq!(cache_key(&a), cache_key(&b));
    assert_eq!(cache_key(&a).0[0], CACHE_TAG);
    let mut c = a;
    c.rules.trio_pair = false;
    assert_ne!(cache_key(&a), cache_key(&c));
    let mut d = a;
    d.last = Some((Seat::Landlord, combo("6667", &r)));
    assert_ne!(cache_key(&a), cache_key(&d));
}

#[test]
fn stops_within_budget() {
    let r = Rules::default();
    let p = duel("3344556677889TJQKA", "3456789TJQKA22BR", r);
    let t = Instant::now();
    let sol = solve_endgame(&p, &Stop::after(Duration::from_millis(20)), None);
    assert!(
        t.elapsed() < Duration::from_millis(200),
        "{:?}",
        t.elapsed()
    );
    if sol.outcome == Outcome::Unknown {
        assert!(!sol.complete);
    }
    assert!(sol.best_move.is_some());
    let stop = Stop::never();
    stop.cancel();
    let sol = solve_endgame(&p, &stop, None);
    assert!(sol.best_move.is_some());
}

/// The packed hands code: within 64 bits, injective on the subsets of the
/// root hands, and kept up to date by subtracting played cards.
#[test]
fn packed_code_is_exact() {
    let mut rng = StdRng::seed_from_u64(7);
    for round in 0..200 {
        let seats = 2 + round % 2;
        let p = random_position(&mut rng, seats, 15);
        let stop = Stop::never();
        let s = Solver::new(&p, &stop, None, None);
        let (start, bits) = s.field[2];
        assert!(start + bits <= 64, "{p:?}");
        // Subsets of the mover's root hand get distinct codes.
        let seat = p.to_move.index();
        let root = p.hands[seat];
        let mut seen = HashMap::new();
        for _ in 0..300 {
            let mut sub = Hand::EMPTY;
            for r in Rank::ALL {
                let k = rng.random_range(0..=root.count(r));
                sub = sub.add(Hand::of(r, k));
            }
            let code = s.encode(seat, sub);
            if let Some(other) = seen.insert(code, sub) {
                assert_eq!(other, sub, "{p:?}");
            }
        }
        // Playing along a random line keeps the code equal to a fresh encoding.
        let mut n = Node {
            hands: p.hands,
            code: s.code_of(&p.hands),
            mover: p.to_move.index(),
            last: p.last.map(|(seat, c)| (seat.index(), c)),
            key: 0,
        };
        for _ in 0..40 {
            let mut moves = Vec::new();
            legal_moves_into(
                &mut moves,
                n.hands[n.mover],
                n.last.map(|(_, c)| c).as_ref(),
                &p.rules,
            );
            if n.last.is_some() {
                moves.push(Combo::pass());
            }
            let mv = moves[rng.random_range(0..moves.len())];
            let Some(next) = s.apply(&n, &mv) else { break };
            assert_eq!(next.code, s.code_of(&next.hands), "{p:?}");
            n = next;
        }
    }
}

/// A random position whose cards come from seven adjacent ranks, 2 and the
/// jokers: chains, planes and ranks emptied inside runs are common, the
/// shapes the table's renaming of chain ranks (see [`canonical_key`]) must
/// get right.
fn chain_rich_position(rng: &mut StdRng, seats: usize, max: usize) -> Position {
    let low = rng.random_range(0..=5);
    let cards: Vec<Rank> = deck()
        .into_iter()
        .filter(|r| (low..low + 7).contains(&r.index()) || !r.chains())
        .collect();
    position_from(rng, cards, seats, max, 10)
}

#[test]
fn matches_plain_solver_chain_rich() {
    let mut rng = StdRng::seed_from_u64(17);
    for i in 0..900 {
        let p = if i % 3 == 0 {
            chain_rich_position(&mut rng, 3, 5)
        } else {
            chain_rich_position(&mut rng, 2, 8)
        };
        check(&p, &solve(&p));
    }
}

/// A random position in which every hand holds a trio (now and then a
/// four) and `extra` more cards, mostly of ranks no chain can use: many
/// kicker choices per body, the shapes kicker dominance prunes.
fn kicker_rich_position(rng: &mut StdRng, seats: usize, extra: usize) -> Position {
    let mut present = [true; 3];
    if seats == 2 {
        present[rng.random_range(1..3)] = false;
    }
    let mut pool = deck();
    pool.shuffle(rng);
    let mut hands = [Hand::EMPTY; 3];
    for s in 0..3 {
        if !present[s] {
            continue;
        }
        // A rank with at least three copies left.
        let left = |r: Rank, pool: &[Rank]| pool.iter().filter(|&&c| c == r).count();
        let body = Rank::ALL[..13]
            .iter()
            .copied()
            .filter(|&r| left(r, &pool) >= 3)
            .nth(rng.random_range(0..4))
            .expect("thirteen ranks cannot all be used up");
        let copies = if rng.random_bool(0.2) && left(body, &pool) == 4 {
            4
        } else {
            3
        };
        for _ in 0..copies {
            let i = pool.iter().position(|&c| c == body).unwrap();
            pool.swap_remove(i);
        }
        let n = rng.random_range(1..=extra);
        let mut h = Hand::of(body, copies);
        for _ in 0..n {
            h = h.add(Hand::of(pool.pop().unwrap(), 1));
        }
        hands[s] = h;
    }
    let rules = rules_from(rng.random_range(0..16) | 0b11);
    let seat_list: Vec<Seat> = Seat::ALL
        .into_iter()
        .filter(|s| present[s.index()])
        .collect();
    let to_move = seat_list[rng.random_range(0..seat_list.len())];
    let p = Position {
        hands,
        present,
        to_move,
        last: None,
        rules,
    };
    p.validate().unwrap();
    p
}

/// Kicker dominance and the static out-check leave the values and every
/// root's winning moves as the reference solver finds them.
#[test]
fn matches_plain_solver_kicker_rich() {
    let mut rng = StdRng::seed_from_u64(19);
    for i in 0..4000 {
        let p = if i % 2 == 0 {
            kicker_rich_position(&mut rng, 3, 4)
        } else {
            kicker_rich_position(&mut rng, 2, 4)
        };
        check(&p, &solve(&p));
    }
}

/// Positions with the same renamed key have the same value. Variants of
/// random chain-rich positions move all cards of one chain rank to an
/// adjacent rank nobody holds; whenever that gives the same key, the
/// reference solver must give the same value (and such merges must occur).
#[test]
fn renamed_key_merges_only_equal_positions() {
    let mut rng = StdRng::seed_from_u64(19);
    let key_of = |p: &Position| {
        let last = p.last.map(|(s, c)| (s.index(), c));
        canonical_key(&p.hands, p.to_move.index(), last)
    };
    let (mut merged, mut kept_apart) = (0, 0);
    for i in 0..1500 {
        let p = chain_rich_position(&mut rng, 2 + i % 2, 5);
        let held = p.hands.iter().fold(0u16, |m, h| m | h.rank_mask());
        let value = plain_position(&p).0;
        let mut variants = Vec::new();
        // The standing play one rank up or down (a plain solo … bomb).
        if let Some((seat, c)) = p.last
            && matches!(
                c.kind,
                ComboType::Solo | ComboType::Pair | ComboType::Trio | ComboType::Bomb
            )
        {
            let r = c.rank.index();
            for to in [r.wrapping_sub(1), r + 1] {
                if to < 14 {
                    let moved = Hand::of(Rank::ALL[to], c.cards.len() as u32);
                    if let Some(m) = classify(moved, &p.rules) {
                        let mut q = p;
                        q.last = Some((seat, m));
                        variants.push(q);
                    }
                }
            }
        }
        for r in 0..12usize {
            for to in [r.wrapping_sub(1), r + 1] {
                if held >> r & 1 == 0 || to >= 12 || held >> to & 1 == 1 {
                    continue;
                }
                let mut q = p;
                for hand in q.hands.iter_mut() {
                    let n = hand.count_at(r);
                    let moved = hand.sub(Hand::of(Rank::ALL[r], n));
                    *hand = moved.add(Hand::of(Rank::ALL[to], n));
                }
                variants.push(q);
            }
        }
        for q in variants {
            if q.validate().is_err() {
                continue;
            }
            if key_of(&q) == key_of(&p) {
                merged += 1;
                assert_eq!(plain_position(&q).0, value, "{p:?} and {q:?} share a key");
            } else {
                kept_apart += 1;
            }
        }
    }
    assert!(
        merged > 1000 && kept_apart > 100,
        "{merged} merged, {kept_apart} kept apart"
    );
}

#[test]
fn renamed_key_keeps_what_matters() {
    let r = Rules::default();
    let key = |a: &str, b: &str, last: Option<&str>| {
        let p = position(
            [Some(h(a)), Some(h(b)), None],
            Seat::Landlord,
            last.map(|l| (Seat::LandlordDown, combo(l, &r))),
            r,
        );
        canonical_key(&p.hands, 0, p.last.map(|(s, c)| (s.index(), c)))
    };
    // Renaming chain ranks that no chain can join: the same position.
    assert_eq!(key("34568", "9", None), key("34579", "T", None));
    assert_eq!(key("3", "55", Some("4")), key("3", "66", Some("5")));
    // A run that forms a chain, a gap that breaks one, a standing play
    // between other ranks, 2 and the jokers: all kept apart.
    assert_ne!(key("34567", "9", None), key("34568", "9", None));
    assert_ne!(key("334455", "9", None), key("334466", "9", None));
    assert_ne!(key("333444", "9", None), key("333555", "9", None));
    assert_ne!(key("3", "55", Some("4")), key("3", "55", Some("6")));
    assert_ne!(key("A", "B", None), key("A", "2", None));
    assert_ne!(key("BR", "3", None), key("2B", "3", None));
    assert_ne!(key("2", "3", Some("A")), key("2", "3", Some("2")));
}

/// A complete answer survives the trip through bytes, and bytes that were
/// changed in any one place never give an answer that does not replay.
#[test]
fn stored_answers_round_trip_and_only_legal_ones_come_back() {
    let r = Rules::default();
    let positions = [
        duel("33456789TJQKA2", "4455667788B", r),
        duel("AA", "2KKTT77554", r),
        position(
            [Some(h("BRJJ999")), Some(h("33334567TTAAAA")), Some(h("5"))],
            Seat::LandlordDown,
            None,
            r,
        ),
    ];
    for p in positions {
        let sol = solve_endgame(&p, &Stop::never(), None);
        let bytes = answer_bytes(&sol).expect("a complete answer");
        let back = answer_from_bytes(&p, &bytes).expect("it replays");
        assert!(back.cached && back.complete && back.nodes == 0);
        assert_eq!(back.outcome, sol.outcome);
        assert_eq!(back.best_move, sol.best_move);
        assert_eq!(key_set(&back.winning_moves), key_set(&sol.winning_moves));
        assert_eq!(back.pv, sol.pv);
        for i in 0..bytes.len() {
            for delta in [1u8, 0x80] {
                let mut changed = bytes.clone();
                changed[i] = changed[i].wrapping_add(delta);
                if let Some(s) = answer_from_bytes(&p, &changed) {
                    let legal = p.legal_moves();
                    for mv in s.winning_moves.iter().chain(&s.best_move) {
                        assert!(legal.contains(mv), "{mv:?}");
                    }
                }
            }
        }
        // Another position's answer, a shorter one, nothing: refused.
        let other = duel("3", "4", r);
        assert!(answer_from_bytes(&other, &bytes).is_none());
        assert!(answer_from_bytes(&p, &bytes[..bytes.len() - 1]).is_none());
        assert!(answer_from_bytes(&p, b"").is_none());
    }
    // Unknown answers are not stored.
    let p = duel("33456789TJQKA2", "4455667788B", r);
    let stopped = solve_endgame(&p, &Stop::never().with_node_limit(3), None);
    assert!(stopped.complete || answer_bytes(&stopped).is_none());
}
