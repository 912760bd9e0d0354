//! A solved position's whole answer as bytes, for a cache outside the process
//! (the replicas' shared Redis), and read back only when it replays on the
//! position: every winning move and the best move are legal at the root, and
//! the principal line is a legal game from the root to a seat going out.
//! A damaged or foreign answer that passes the cache's checksum still cannot
//! make the service answer an illegal move.
//!
//! Layout: a version byte, the outcome (1 win, 2 loss), the best move, the
//! count and list of winning moves, the count and list of the line's plays;
//! a move is its type and its cards (`Hand` bits, little-endian), a pass
//! the pass type and no cards.

use super::{Outcome, Played, Position, Solution};
use crate::doudizhu::Combo;

const VERSION: u8 = 1;
/// Plays in a line at most (a whole deal has 54 cards, so far fewer).
const MAX_LINE: usize = 400;

fn put_move(out: &mut Vec<u8>, mv: &Combo) {
    out.push(mv.kind as u8);
    out.extend_from_slice(&mv.cards.bits().to_le_bytes());
}

/// The bytes of a complete answer; `None` for one that is not complete (only
/// proven answers are shared).
pub fn answer_bytes(sol: &Solution) -> Option<Vec<u8>> {
    let outcome = match sol.outcome {
        Outcome::Win => 1,
        Outcome::Loss => 2,
        Outcome::Unknown => return None,
    };
    let best = sol.best_move.as_ref()?;
    if !sol.complete || sol.pv.len() > MAX_LINE {
        return None;
    }
    let mut out = vec![VERSION, outcome];
    put_move(&mut out, best);
    out.extend_from_slice(&(sol.winning_moves.len() as u16).to_le_bytes());
    for mv in &sol.winning_moves {
        put_move(&mut out, mv);
    }
    out.extend_from_slice(&(sol.pv.len() as u16).to_le_bytes());
    for (seat, mv) in &sol.pv {
        out.push(seat.index() as u8);
        put_move(&mut out, mv);
    }
    Some(out)
}

struct Reader<'b> {
    bytes: &'b [u8],
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.bytes.split_first_chunk::<N>()?;
        self.bytes = rest;
        Some(*head)
    }
    fn byte(&mut self) -> Option<u8> {
        self.take::<1>().map(|b| b[0])
    }
    fn count(&mut self) -> Option<usize> {
        self.take::<2>().map(|b| u16::from_le_bytes(b) as usize)
    }
    /// A move as stored: (type, cards).
    fn play(&mut self) -> Option<(u8, u64)> {
        Some((self.byte()?, u64::from_le_bytes(self.take::<8>()?)))
    }
}

/// The stored move `(kind, cards)` if it is a legal move in `pos`.
fn legal(pos: &Position, (kind, cards): (u8, u64)) -> Option<Combo> {
    pos.legal_moves()
        .into_iter()
        .find(|m| m.kind as u8 == kind && m.cards.bits() == cards)
}

/// The answer in `bytes` for `pos`, if it is one [`answer_bytes`] made and it
/// replays legally on `pos`. Marked `cached`, with no nodes searched.
pub fn answer_from_bytes(pos: &Position, bytes: &[u8]) -> Option<Solution> {
    let mut r = Reader { bytes };
    if r.byte()? != VERSION {
        return None;
    }
    let outcome = match r.byte()? {
        1 => Outcome::Win,
        2 => Outcome::Loss,
        _ => return None,
    };
    let best_move = legal(pos, r.play()?)?;
    let mut winning_moves = Vec::new();
    for _ in 0..r.count()? {
        let mv = legal(pos, r.play()?)?;
        if winning_moves.contains(&mv) {
            return None;
        }
        winning_moves.push(mv);
    }
    // A win lists its winning moves, the best among them; a loss lists none.
    let win = outcome == Outcome::Win;
    if win == winning_moves.is_empty() || (win && !winning_moves.contains(&best_move)) {
        return None;
    }
    let plays = r.count()?;
    if plays == 0 || plays > MAX_LINE {
        return None;
    }
    let mut at = *pos;
    let mut pv = Vec::with_capacity(plays);
    for i in 0..plays {
        let seat = r.byte()?;
        if usize::from(seat) != at.to_move().index() {
            return None;
        }
        let mv = legal(&at, r.play()?)?;
        if i == 0 && mv != best_move {
            return None;
        }
        pv.push((at.to_move(), mv));
        // The line ends exactly when a seat goes out.
        match at.play(&mv)? {
            Played::Out(_) if i + 1 == plays => {}
            Played::Next(next) if i + 1 < plays => at = next,
            _ => return None,
        }
    }
    if !r.bytes.is_empty() {
        return None;
    }
    Some(Solution {
        outcome,
        best_move: Some(best_move),
        winning_moves,
        pv,
        nodes: 0,
        complete: true,
        cached: true,
        elapsed: std::time::Duration::ZERO,
    })
}
