use proptest::prelude::*;

use super::*;
use crate::stop::Stop;

/// Far-away white stones used to keep the turn order (no five among them, clear of the
/// centre where the test shapes are built).
const FILLERS: [Point; 16] = [
    (0, 0),
    (0, 2),
    (0, 4),
    (2, 0),
    (4, 0),
    (14, 0),
    (14, 2),
    (14, 4),
    (12, 0),
    (10, 0),
    (0, 14),
    (2, 14),
    (4, 14),
    (14, 14),
    (14, 12),
    (12, 14),
];

/// A 15×15 board with the given stones, black to move when `black_to_move`, else white.
/// Stones are placed without validation (shapes may include points black couldn't have
/// played in a real renju game).
fn position(rule: Rule, black: &[Point], white: &[Point], black_to_move: bool) -> Board {
    let mut white = white.to_vec();
    let want = if black_to_move {
        black.len()
    } else {
        black.len() - 1
    };
    let mut fillers = FILLERS.iter();
    while white.len() < want {
        white.push(*fillers.next().expect("enough fillers"));
    }
    assert_eq!(white.len(), want, "too many white stones");
    let mut b = Board::new(15, rule).unwrap();
    for i in 0..black.len() {
        b.play(black[i]);
        if i < white.len() {
            b.play(white[i]);
        }
    }
    assert_eq!(b.to_move() == Stone::Black, black_to_move);
    b
}

fn limits(depth: u32, nodes: u64) -> Limits {
    Limits {
        max_depth: Some(depth),
        max_nodes: Some(nodes),
        ..Limits::default()
    }
}

/// Naive check (independent of the engine's solver): does the side to move win by at
/// most `depth` continuous fours (each answered by the only block), ending in a five or in
/// two five points the defender can't both take?
fn has_vcf(b: &Board, depth: u32) -> bool {
    let me = b.to_move();
    let opp = me.opponent();
    let empty = empty_points(b);
    if empty
        .iter()
        .any(|&p| b.is_legal(p) && makes_five_for(b, p, me))
    {
        return true;
    }
    let opp_fives: Vec<Point> = empty
        .iter()
        .copied()
        .filter(|&p| makes_five_for(b, p, opp))
        .collect();
    if depth == 0 || opp_fives.len() > 1 {
        return false;
    }
    for &p in &empty {
        if !b.is_legal(p) || (!opp_fives.is_empty() && p != opp_fives[0]) {
            continue;
        }
        let mut c = b.clone();
        c.play(p);
        let mine: Vec<Point> = empty_points(&c)
            .into_iter()
            .filter(|&q| makes_five_for(&c, q, me))
            .collect();
        if mine.is_empty()
            || empty_points(&c)
                .iter()
                .any(|&q| c.is_legal(q) && makes_five_for(&c, q, opp))
        {
            continue;
        }
        if mine.len() >= 2 || !c.is_legal(mine[0]) {
            return true;
        }
        c.play(mine[0]);
        if has_vcf(&c, depth - 1) {
            return true;
        }
    }
    false
}

/// Plays `picks` as indexes into the legal moves, stopping at a win or a full board.
fn random_game(size: usize, rule: Rule, picks: &[usize]) -> Board {
    let mut b = Board::new(size, rule).unwrap();
    for &k in picks {
        if b.winner().is_some() || b.is_full() {
            break;
        }
        let legal: Vec<Point> = empty_points(&b)
            .into_iter()
            .filter(|&p| b.is_legal(p))
            .collect();
        if legal.is_empty() {
            break;
        }
        // stay near the middle so shapes form
        b.play(legal[k % legal.len()]);
    }
    b
}

fn rule_of(k: u8) -> Rule {
    [Rule::Freestyle, Rule::Standard, Rule::Renju][k as usize % 3]
}

/// A full 5×5 board with no five anywhere: colour by (x / 2 + y) parity.
fn drawn_5x5() -> Vec<Point> {
    let (mut black, mut white) = (vec![], vec![]);
    for y in 0..5 {
        for x in 0..5 {
            if (x / 2 + y) % 2 == 0 {
                black.push((x, y));
            } else {
                white.push((x, y));
            }
        }
    }
    assert_eq!((black.len(), white.len()), (13, 12));
    let mut moves = vec![];
    for i in 0..13 {
        moves.push(black[i]);
        if i < 12 {
            moves.push(white[i]);
        }
    }
    moves
}

/// Black: closed row three (7..=9, 7), closed diagonal three (7..=9), column two
/// (10, 8..=9) closed below. (10, 10) is a diagonal four; after the block, (10, 7) is a
/// double four. A three-move win by continuous fours.
fn vcf_position(rule: Rule) -> Board {
    let black = [(7, 7), (8, 7), (9, 7), (8, 8), (9, 9), (10, 8), (10, 9)];
    let white = [(6, 7), (6, 6), (10, 11)];
    position(rule, &black, &white, true)
}

fn empty_points(b: &Board) -> Vec<Point> {
    let n = b.size();
    (0..n * n)
        .map(|i| (i % n, i / n))
        .filter(|&p| b.stone(p).is_none())
        .collect()
}

/// Naive five test: would `side`'s stone at `p` complete a winning row under the rule?
fn makes_five_for(b: &Board, p: Point, side: Stone) -> bool {
    let n = b.size() as i32;
    let exact = match b.rule() {
        Rule::Freestyle => false,
        Rule::Standard => true,
        Rule::Renju => side == Stone::Black,
    };
    [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
        let mut len = 1;
        for sign in [1, -1] {
            let (mut x, mut y) = (p.0 as i32 + sign * dx, p.1 as i32 + sign * dy);
            while x >= 0
                && y >= 0
                && x < n
                && y < n
                && b.stone((x as usize, y as usize)) == Some(side)
            {
                len += 1;
                x += sign * dx;
                y += sign * dy;
            }
        }
        if exact { len == 5 } else { len >= 5 }
    })
}

mod defence;
mod properties;
mod ranked;
mod renju;
mod rules;
mod tactics;
