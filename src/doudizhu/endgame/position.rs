//! An endgame position: the known hands, who takes part, who moves and the
//! standing play; its validation and the moves it allows.

use crate::doudizhu::{Combo, Hand, Rules, beats, classify, legal_moves_into};

use super::Seat;

/// Most cards a hand may hold.
pub const MAX_HAND: usize = 20;

/// An endgame position with every hand known; valid by construction
/// ([`Position::new`] checks what the solver relies on), so the solver never
/// checks again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Hands by [`Seat::index`]; [`Hand::EMPTY`] for an absent seat.
    pub(super) hands: [Hand; 3],
    /// Which seats take part (two or three of them, the landlord always).
    pub(super) present: [bool; 3],
    pub(super) to_move: Seat,
    /// The standing play and the seat that made it; `None`: `to_move` leads.
    pub(super) last: Option<(Seat, Combo)>,
    pub(super) rules: Rules,
}

/// Why a [`Position`] cannot be solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("unknown seat {0:?} (expected landlord, landlord_down or landlord_up)")]
    /// A seat name is not one of the three; carries the name.
    UnknownSeat(String),
    #[error("the landlord must take part")]
    /// The landlord has no hand in the position.
    NoLandlord,
    #[error("{0} seat(s) take part; an endgame needs two or three")]
    /// Fewer than two or more than three seats; carries the count.
    SeatCount(usize),
    #[error("{seat} is named as {role} but has no hand in this position")]
    /// A seat named in the position takes no part.
    AbsentSeat {
        /// The seat named.
        seat: Seat,
        /// What it is named as.
        role: SeatRole,
    },
    #[error("{0} takes part with an empty hand")]
    /// A seat takes part with no cards.
    EmptyHand(Seat),
    #[error("{seat} holds {count} cards; at most {MAX_HAND} are allowed")]
    /// A hand holds more than the largest hand allows.
    TooManyCards {
        /// The seat.
        seat: Seat,
        /// Cards in its hand.
        count: usize,
    },
    #[error("the standing play was made by {0}, the seat to move: it would lead instead")]
    /// The standing play is the mover's own.
    LastIsMover(Seat),
    #[error("the standing play cannot be a pass; leave `last` out when the mover leads")]
    /// The standing play is a pass.
    LastIsPass,
    #[error("the hands and the standing play hold more copies of {0} than a deck has")]
    /// More copies of a rank than a deck has; carries the rank's card character.
    TooManyCopies(char),
}

/// What a seat named in a position is named as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatRole {
    /// The seat to move.
    ToMove,
    /// The seat that made the standing play.
    StandingPlay,
}

impl std::fmt::Display for SeatRole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SeatRole::ToMove => "the seat to move",
            SeatRole::StandingPlay => "the seat of the standing play",
        })
    }
}

/// What a move leads to (see [`Position::play`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Played {
    /// The game goes on.
    Next(Position),
    /// The mover went out: its side won.
    Out(Seat),
}

impl Position {
    /// A position from optional hands (`None` = the seat is absent), if it is
    /// one the solver can play: the landlord and one or two peasants take
    /// part, each with 1–20 cards; `to_move` and the standing play's seat take
    /// part and differ; the standing play is not a pass; no rank has more
    /// copies than the deck across the hands and the standing play.
    pub fn new(
        hands: [Option<Hand>; 3],
        to_move: Seat,
        last: Option<(Seat, Combo)>,
        rules: Rules,
    ) -> Result<Position, PositionError> {
        let position = Position {
            hands: hands.map(|h| h.unwrap_or(Hand::EMPTY)),
            present: hands.map(|h| h.is_some()),
            to_move,
            last,
            rules,
        };
        position.validate()?;
        Ok(position)
    }

    /// The seat to move.
    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    /// The standing play and the seat that made it (`None`: the mover leads).
    pub fn last(&self) -> Option<(Seat, Combo)> {
        self.last
    }

    /// The rules in play (which combination types are allowed).
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Whether `seat` takes part.
    pub fn is_present(&self, seat: Seat) -> bool {
        self.present[seat.index()]
    }

    /// The seats taking part, in turn order from the landlord.
    pub fn seats(&self) -> impl Iterator<Item = Seat> + '_ {
        Seat::ALL.into_iter().filter(|s| self.present[s.index()])
    }

    /// The next present seat after `seat` in turn order.
    pub fn next_seat(&self, seat: Seat) -> Seat {
        let mut s = seat.next();
        while !self.present[s.index()] && s != seat {
            s = s.next();
        }
        s
    }

    /// The hand of `seat` (empty when it takes no part).
    pub fn hand(&self, seat: Seat) -> Hand {
        self.hands[seat.index()]
    }

    /// The rules [`Position::new`] states.
    pub(super) fn validate(&self) -> Result<(), PositionError> {
        let n = self.present.iter().filter(|&&p| p).count();
        if !self.present[0] {
            return Err(PositionError::NoLandlord);
        }
        if !(2..=3).contains(&n) {
            return Err(PositionError::SeatCount(n));
        }
        for s in self.seats() {
            let h = self.hands[s.index()];
            if h.is_empty() {
                return Err(PositionError::EmptyHand(s));
            }
            if h.len() > MAX_HAND {
                return Err(PositionError::TooManyCards {
                    seat: s,
                    count: h.len(),
                });
            }
        }
        if !self.present[self.to_move.index()] {
            return Err(PositionError::AbsentSeat {
                seat: self.to_move,
                role: SeatRole::ToMove,
            });
        }
        let mut total = [0u32; 15];
        for s in self.seats() {
            for (t, c) in total.iter_mut().zip(self.hands[s.index()].counts()) {
                *t += u32::from(c);
            }
        }
        if let Some((seat, combo)) = &self.last {
            if !self.present[seat.index()] {
                return Err(PositionError::AbsentSeat {
                    seat: *seat,
                    role: SeatRole::StandingPlay,
                });
            }
            if *seat == self.to_move {
                return Err(PositionError::LastIsMover(*seat));
            }
            if combo.is_pass() {
                return Err(PositionError::LastIsPass);
            }
            for (t, c) in total.iter_mut().zip(combo.cards.counts()) {
                *t += u32::from(c);
            }
        }
        for (i, &t) in total.iter().enumerate() {
            let rank = crate::doudizhu::Rank::ALL[i];
            if t > rank.deck_count() {
                return Err(PositionError::TooManyCopies(rank.to_char()));
            }
        }
        Ok(())
    }

    /// The mover's legal moves; the pass is included (last) when following.
    pub fn legal_moves(&self) -> Vec<Combo> {
        let mut out = Vec::new();
        let last = self.last.map(|(_, c)| c);
        legal_moves_into(
            &mut out,
            self.hand(self.to_move),
            last.as_ref(),
            &self.rules,
        );
        if last.is_some() {
            out.push(Combo::pass());
        }
        out
    }

    /// Plays `mv` for the seat to move: `None` when it is not legal here.
    pub fn play(&self, mv: &Combo) -> Option<Played> {
        let seat = self.to_move;
        let hand = self.hand(seat);
        let mut next = *self;
        next.to_move = self.next_seat(seat);
        if mv.is_pass() {
            let (by, _) = self.last?;
            if by == next.to_move {
                next.last = None;
            }
            return Some(Played::Next(next));
        }
        if !hand.contains(mv.cards) {
            return None;
        }
        // The move must be a reading of its cards under these rules.
        if classify(mv.cards, &self.rules).is_none_or(|c| c.kind != mv.kind) {
            return None;
        }
        if let Some((_, standing)) = &self.last
            && !beats(mv, standing)
        {
            return None;
        }
        let rest = hand.sub(mv.cards);
        if rest.is_empty() {
            return Some(Played::Out(seat));
        }
        next.hands[seat.index()] = rest;
        next.last = Some((seat, *mv));
        Some(Played::Next(next))
    }
}
