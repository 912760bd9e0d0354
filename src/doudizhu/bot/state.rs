//! The game state a decision starts from: the public history replayed and
//! checked, and what card counting tells the deciding seat.

use crate::doudizhu::endgame::Seat;
use crate::doudizhu::{Combo, Hand, Rank, Rules, classify_all};

/// Cards a seat starts card play with.
pub const fn starting_cards(seat: Seat) -> usize {
    if seat.is_landlord() { 20 } else { 17 }
}

/// Why a history (with hand and bottom cards) is not a reachable game state.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HistoryError {
    #[error("it is {to_move}'s turn after {len} history entries, not {seat}'s")]
    /// The history leaves another seat to move than the one asking.
    NotYourTurn {
        /// The seat asking for a decision.
        seat: Seat,
        /// The seat to move after the history.
        to_move: Seat,
        /// Number of history entries.
        len: usize,
    },
    #[error("the hand holds {actual} cards; {expected} expected after this history")]
    /// The hand size does not match what the history leaves.
    HandSize {
        /// Cards the seat should hold after the history.
        expected: usize,
        /// Cards in the given hand.
        actual: usize,
    },
    #[error("landlord_cards must be 3 cards, got {0}")]
    /// The bottom cards are not 3 cards; carries their number.
    LandlordCardsSize(usize),
    #[error("the landlord's unplayed bottom cards are not all in the landlord's hand")]
    /// The landlord's hand lacks some bottom card it has not played.
    LandlordCardsNotInHand,
    #[error("history entry {index} ({cards:?}) is not a legal combination")]
    /// A history entry is not a legal combination.
    NotACombo {
        /// The history entry.
        index: usize,
        /// Its cards, as text.
        cards: String,
    },
    #[error("history entry {index} is a pass, but {seat} leads there")]
    /// A seat passes where it must lead.
    PassOnLead {
        /// The history entry.
        index: usize,
        /// The seat that passes.
        seat: Seat,
    },
    #[error("history entry {index} ({cards:?}) does not beat the standing play {standing:?}")]
    /// A history entry does not beat the standing play.
    DoesNotBeat {
        /// The history entry.
        index: usize,
        /// Its cards, as text.
        cards: String,
        /// The standing play's cards, as text.
        standing: String,
    },
    #[error("history entry {index}: {seat} plays {played} cards but holds only {held}")]
    /// A seat plays more cards than it still holds.
    Overdrawn {
        /// The history entry.
        index: usize,
        /// The seat that plays.
        seat: Seat,
        /// Cards in the play.
        played: usize,
        /// Cards the seat held before it.
        held: usize,
    },
    #[error("more copies of {rank} are seen than the deck holds (at {})", where_(*.index, *.in_hand))]
    /// More copies of a rank are seen than the deck holds.
    TooManyCopies {
        /// The rank, as its card character.
        rank: char,
        /// The first history entry at which the excess appears; `None` when
        /// the hand and bottom cards alone exceed the deck.
        index: Option<usize>,
        /// With `index = None`: the hand alone exceeds (else the bottom cards do).
        in_hand: bool,
    },
    #[error("the game is over: {seat} went out at history entry {index}")]
    /// The history continues after a seat went out.
    GameOver {
        /// The entry with which the seat went out.
        index: usize,
        /// The seat that went out.
        seat: Seat,
    },
}

fn where_(index: Option<usize>, in_hand: bool) -> String {
    match (index, in_hand) {
        (Some(i), _) => format!("history entry {i}"),
        (None, true) => "hand".into(),
        (None, false) => "landlord_cards".into(),
    }
}

/// A seat's view of a game in card play, checked and card-counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameState {
    /// The seat to decide (always the seat to move).
    pub seat: Seat,
    /// The deciding seat's current hand.
    pub hand: Hand,
    /// The rules in play (which combination types are allowed).
    pub rules: Rules,
    /// Every play so far, landlord first; `Combo::pass()` for passes.
    pub history: Vec<Combo>,
    /// Cards each seat has played, by [`Seat::index`].
    pub played: [Hand; 3],
    /// Cards each seat still holds.
    pub counts: [usize; 3],
    /// The three bottom cards, if given.
    pub landlord_cards: Option<Hand>,
    /// Bottom cards the landlord has not played yet (it certainly holds them).
    pub landlord_known: Hand,
    /// The play to beat and who made it; `None` when this seat leads.
    pub last: Option<(Seat, Combo)>,
    /// Cards this seat has not seen: deck − own hand − everything played.
    /// They are exactly the other two seats' hands.
    pub unseen: Hand,
}

fn add_counts(total: &mut [u32; 15], h: Hand) {
    for (t, c) in total.iter_mut().zip(h.counts()) {
        *t += u32::from(c);
    }
}

fn first_excess(total: &[u32; 15]) -> Option<char> {
    Rank::ALL
        .iter()
        .zip(total)
        .find(|(r, t)| **t > r.deck_count())
        .map(|(r, _)| r.to_char())
}

/// Per-rank `a − b`, saturating at zero.
fn saturating_sub(a: Hand, b: Hand) -> Hand {
    let (ca, cb) = (a.counts(), b.counts());
    let mut out = [0u8; 15];
    for i in 0..15 {
        out[i] = ca[i].saturating_sub(cb[i]);
    }
    Hand::from_counts(&out).expect("a sub-multiset of a hand is a hand")
}

impl GameState {
    /// Replays `history` (entries as card sets; the empty hand is a pass)
    /// for `seat` holding `hand`. See [`HistoryError`] for what is checked.
    pub fn from_history(
        seat: Seat,
        hand: Hand,
        history: &[Hand],
        landlord_cards: Option<Hand>,
        rules: Rules,
    ) -> Result<GameState, HistoryError> {
        GameState::replay(seat, hand, history, landlord_cards, rules, true)
    }

    /// The game before the first play, as `seat` holding `hand` sees it
    /// (whoever's turn it is: the landlord leads): for decisions taken
    /// before play, such as doubling.
    pub fn before_play(
        seat: Seat,
        hand: Hand,
        landlord_cards: Option<Hand>,
        rules: Rules,
    ) -> Result<GameState, HistoryError> {
        GameState::replay(seat, hand, &[], landlord_cards, rules, false)
    }

    fn replay(
        seat: Seat,
        hand: Hand,
        history: &[Hand],
        landlord_cards: Option<Hand>,
        rules: Rules,
        check_turn: bool,
    ) -> Result<GameState, HistoryError> {
        if let Some(b) = landlord_cards
            && b.len() != 3
        {
            return Err(HistoryError::LandlordCardsSize(b.len()));
        }
        let bottom = landlord_cards.unwrap_or(Hand::EMPTY);
        // Static copy check: the hand alone, then with the bottom cards.
        let mut base = [0u32; 15];
        add_counts(&mut base, hand);
        if let Some(r) = first_excess(&base) {
            return Err(HistoryError::TooManyCopies {
                rank: r,
                index: None,
                in_hand: true,
            });
        }
        let mut played = [Hand::EMPTY; 3];
        let mut counts = [20usize, 17, 17];
        let mut plays: Vec<Combo> = Vec::with_capacity(history.len());
        let mut last: Option<(Seat, Combo)> = None;
        let mut mover = Seat::Landlord;
        let seen_total = |played: &[Hand; 3], last_check: bool| {
            let mut t = [0u32; 15];
            add_counts(&mut t, hand);
            for p in played {
                add_counts(&mut t, *p);
            }
            let known = saturating_sub(bottom, played[0]);
            if seat.is_landlord() {
                // The landlord's unplayed bottom cards are in `hand` already
                // (checked once the whole history is known).
                if last_check && !hand.contains(known) {
                    return Err(());
                }
            } else {
                add_counts(&mut t, known);
            }
            Ok(t)
        };
        match seen_total(&played, false) {
            Err(_) => return Err(HistoryError::LandlordCardsNotInHand),
            Ok(t) => {
                if let Some(r) = first_excess(&t) {
                    return Err(HistoryError::TooManyCopies {
                        rank: r,
                        index: None,
                        in_hand: false,
                    });
                }
            }
        }
        for (index, &cards) in history.iter().enumerate() {
            if let Some(i) = counts.iter().position(|&c| c == 0) {
                return Err(HistoryError::GameOver {
                    index,
                    seat: Seat::ALL[i],
                });
            }
            let standing = last.map(|(_, c)| c);
            let combo = if cards.is_empty() {
                if standing.is_none() {
                    return Err(HistoryError::PassOnLead { index, seat: mover });
                }
                Combo::pass()
            } else {
                let readings = classify_all(cards, &rules);
                if readings.is_empty() {
                    return Err(HistoryError::NotACombo {
                        index,
                        cards: cards.to_string(),
                    });
                }
                match standing {
                    None => readings[0],
                    Some(s) => match readings.iter().find(|c| crate::doudizhu::beats(c, &s)) {
                        Some(c) => *c,
                        None => {
                            return Err(HistoryError::DoesNotBeat {
                                index,
                                cards: cards.to_string(),
                                standing: s.cards.to_string(),
                            });
                        }
                    },
                }
            };
            let m = mover.index();
            if !combo.is_pass() {
                if combo.cards.len() > counts[m] {
                    return Err(HistoryError::Overdrawn {
                        index,
                        seat: mover,
                        played: combo.cards.len(),
                        held: counts[m],
                    });
                }
                counts[m] -= combo.cards.len();
                played[m] = played[m].add(combo.cards);
                // Counts only grow along the history, so the first entry
                // where a rank exceeds the deck is the one to blame.
                match seen_total(&played, false) {
                    Ok(t) => {
                        if let Some(r) = first_excess(&t) {
                            return Err(HistoryError::TooManyCopies {
                                rank: r,
                                index: Some(index),
                                in_hand: false,
                            });
                        }
                    }
                    Err(_) => {
                        return Err(HistoryError::TooManyCopies {
                            rank: '?',
                            index: Some(index),
                            in_hand: false,
                        });
                    }
                }
                last = Some((mover, combo));
            }
            plays.push(combo);
            mover = mover.next();
            if let Some((by, _)) = last
                && by == mover
            {
                last = None;
            }
        }
        if let Some(i) = counts.iter().position(|&c| c == 0) {
            return Err(HistoryError::GameOver {
                index: history.len() - 1,
                seat: Seat::ALL[i],
            });
        }
        if seen_total(&played, true).is_err() {
            return Err(HistoryError::LandlordCardsNotInHand);
        }
        if check_turn && mover != seat {
            return Err(HistoryError::NotYourTurn {
                seat,
                to_move: mover,
                len: history.len(),
            });
        }
        if hand.len() != counts[seat.index()] {
            return Err(HistoryError::HandSize {
                expected: counts[seat.index()],
                actual: hand.len(),
            });
        }
        let mut all_played = Hand::EMPTY;
        for p in played {
            all_played = all_played.add(p);
        }
        let unseen = Hand::DECK.sub(hand).sub(all_played);
        let landlord_known = if seat.is_landlord() {
            Hand::EMPTY
        } else {
            saturating_sub(bottom, played[0])
        };
        Ok(GameState {
            seat,
            hand,
            rules,
            history: plays,
            played,
            counts,
            landlord_cards,
            landlord_known,
            last,
            unseen,
        })
    }

    /// The seat's partner (peasants only).
    pub fn partner(&self) -> Option<Seat> {
        if self.seat.is_landlord() {
            None
        } else {
            Seat::ALL
                .into_iter()
                .find(|s| *s != self.seat && !s.is_landlord())
        }
    }

    /// The two other seats, in turn order after this one.
    pub fn others(&self) -> [Seat; 2] {
        [self.seat.next(), self.seat.next().next()]
    }

    /// Bombs and rockets played so far (each doubles the stake).
    pub fn bombs_played(&self) -> usize {
        self.history.iter().filter(|c| c.kind.is_bomb()).count()
    }

    /// Peasants seen beating their partner's standing play, by
    /// [`Seat::index`]. Many players pass on a partner's play to let it
    /// run; a seat seen overtaking it is modelled as one that does.
    pub fn overtakes_partner(&self) -> [bool; 3] {
        let mut seen = [false; 3];
        let mut last: Option<Seat> = None;
        let mut seat = Seat::Landlord;
        for c in &self.history {
            if last == Some(seat) {
                last = None;
            }
            if !c.is_pass() {
                if let Some(by) = last
                    && by != seat
                    && by.same_team(seat)
                {
                    seen[seat.index()] = true;
                }
                last = Some(seat);
            }
            seat = seat.next();
        }
        seen
    }

    /// Non-pass plays each seat has made, by [`Seat::index`] (the history
    /// starts with the landlord).
    pub fn plays_made(&self) -> [u32; 3] {
        let mut plays = [0; 3];
        for (i, c) in self.history.iter().enumerate() {
            plays[i % 3] += u32::from(!c.is_pass());
        }
        plays
    }
}
