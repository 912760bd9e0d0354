//! What a move is worth to the bot: the objective it plays for, the points a
//! finished game gives its seat, and the ranked candidates a decision shows.

use crate::doudizhu::Combo;
use crate::doudizhu::endgame::Seat;
use crate::doudizhu::score::{DealResult, Payout, is_spring, points};

/// What the bot plays for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Objective {
    /// The most games won (DouZero's WP agent).
    #[default]
    Win,
    /// The most points on average (DouZero's ADP agent): bombs and springs
    /// count, so a won game is pressed for more and a lost one kept cheap.
    Score,
}

impl Objective {
    /// What the objective ranks by, given a share of won deals (or 0/1 for
    /// one deal) and average points (or one deal's points).
    pub fn measure(self, win_rate: f64, points: f64) -> f64 {
        match self {
            Objective::Win => win_rate,
            Objective::Score => points,
        }
    }
}

/// One ranked move of a decision, with what the bot estimated for it.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The move (`Combo::pass()` for a pass).
    pub play: Combo,
    /// Share of the sampled deals in which this move wins for the bot's side.
    pub win_rate: f64,
    /// Average points for the bot's seat per unit of base (bid 1, nobody
    /// doubled), counting the bombs already played (see [`seat_points`]).
    pub expected_points: f64,
    /// Deals (solved exactly) or rollouts behind the two estimates.
    pub samples: u32,
}

impl Candidate {
    /// The estimate the objective ranks by.
    pub fn value(&self, objective: Objective) -> f64 {
        objective.measure(self.win_rate, self.expected_points)
    }
}

/// Orders `cands` best first by `objective`, `chosen` first of all (the
/// decision's move leads the list whatever the estimates say), and keeps at
/// most `n`. Ties keep the incoming order, so the result depends on the
/// inputs alone.
pub(super) fn rank(
    mut cands: Vec<Candidate>,
    chosen: &Combo,
    objective: Objective,
    n: usize,
) -> Vec<Candidate> {
    cands.sort_by(|a, b| {
        let first = |c: &Candidate| c.play == *chosen;
        first(b)
            .cmp(&first(a))
            .then(b.value(objective).total_cmp(&a.value(objective)))
    });
    cands.truncate(n.max(1));
    cands
}

/// The points a finished game gives `me` per unit of base (bid 1, nobody
/// doubled): the landlord wins or loses 2, a peasant 1, times the
/// multiplier for `bombs` played in the whole game and a spring, under
/// `payout`. `plays` counts the non-pass plays of each seat over the game.
pub fn seat_points(me: Seat, winner: Seat, bombs: u32, plays: [u32; 3], payout: &Payout) -> f64 {
    let landlord_won = winner.is_landlord();
    let spring = is_spring(landlord_won, plays[0], plays[1] + plays[2]);
    let result = DealResult {
        landlord_won,
        bid: 1,
        bombs,
        spring,
        doubled: [false; 3],
    };
    points(&result, payout)[me.index()] as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doudizhu::{Hand, Rules, classify};

    fn combo(s: &str) -> Combo {
        classify(Hand::parse_str(s).unwrap(), &Rules::default()).unwrap()
    }

    #[test]
    fn chosen_move_leads_the_ranking() {
        let c = |p: &str, w: f64, e: f64| Candidate {
            play: combo(p),
            win_rate: w,
            expected_points: e,
            samples: 10,
        };
        let cands = vec![c("3", 0.2, -1.0), c("4", 0.9, 0.5), c("5", 0.5, 2.0)];
        let by_win = rank(cands.clone(), &combo("3"), Objective::Win, 3);
        let order: Vec<String> = by_win.iter().map(|c| c.play.cards.to_string()).collect();
        assert_eq!(order, ["3", "4", "5"]);
        let by_score = rank(cands, &combo("4"), Objective::Score, 2);
        let order: Vec<String> = by_score.iter().map(|c| c.play.cards.to_string()).collect();
        assert_eq!(order, ["4", "5"]);
    }

    #[test]
    fn points_follow_the_seat_and_the_spring() {
        let all = Payout::default();
        // The landlord wins with one bomb; the peasants played: ×2.
        assert_eq!(
            seat_points(Seat::Landlord, Seat::Landlord, 1, [6, 2, 1], &all),
            4.0
        );
        assert_eq!(
            seat_points(Seat::LandlordUp, Seat::Landlord, 1, [6, 2, 1], &all),
            -2.0
        );
        // A spring: ×2 more.
        assert_eq!(
            seat_points(Seat::Landlord, Seat::Landlord, 0, [7, 0, 0], &all),
            4.0
        );
        // Anti-spring for a peasant.
        assert_eq!(
            seat_points(Seat::LandlordDown, Seat::LandlordUp, 0, [1, 5, 5], &all),
            2.0
        );
    }
}
