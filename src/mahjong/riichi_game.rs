//! One hand of Riichi played out: the referee of a table of four seats.
//!
//! The referee holds the wall and gives each seat exactly the events that
//! seat sees, replayed into the seat's own [`Table`]. What a seat may do is
//! [`legal_actions`] on that view, so legality is decided in one place, the
//! same for a bot, a player and the checks; a [`Chooser`] picks each seat's
//! action (the bot's, or a player's from a list), or pauses the hand where a
//! player still has to decide. Everything follows from the seed, so a hand
//! replayed with the same choices is the same hand: that is how a stateless
//! route lets a player sit at a table.
//!
//! The rules are Tenhou's as mjai servers play them (see [`legal_actions`]
//! for what a seat may do), and the referee's part: 136 tiles with one red
//! five a suit; 14 in the dead wall (four replacement tiles, five dora and five
//! ura-dora indicators), so 70 draws, replacement draws among them; a concealed
//! kan shows its dora at once, an open or added kan after the next discard;
//! on a discard the first seat after the discarder that wins takes it (one
//! winner), else a pon or open kan beats a chi; a riichi stands, with its 1,000
//! points on the table, once its discard is not won on; at an exhaustive draw
//! the ready seats take 3,000 points from the others (a seat is ready when it
//! waits on a kind it does not hold all four of). The only abortive draw is the
//! nine-terminal one; four kans, four riichi, four winds and triple ron are not
//! played, nor nagashi mangan.

use super::riichi_bot::{TableAction, legal_actions, win_items, win_score};
use super::table::{Event, LIVE_WALL, RIICHI_DEPOSIT, Table};
use super::tiles::{KINDS, Tile};
use crate::rng::SplitMix64;

/// Tiles in the wall.
const TILES: usize = 136;
/// Where the dead wall starts in the shuffled wall, and its parts.
const DEAD: usize = 122;
const REPLACEMENTS: usize = DEAD;
const DORA: usize = DEAD + 4;
const URA: usize = DEAD + 9;
/// Tiles dealt to the four seats.
const DEALT: usize = 52;
/// Points the ready seats share at an exhaustive draw.
const NOTEN_PENALTY: i32 = 3000;

/// The hand to play: the wall's seed and where in the game it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandSetup {
    /// Shuffles the wall.
    pub seed: u64,
    /// Round wind tile index 27..=30.
    pub round_wind: u8,
    /// The dealer's seat 0..=3 (the hand is `kyoku` dealer + 1).
    pub dealer: u8,
    /// Repeat counters.
    pub honba: u32,
    /// Riichi sticks on the table.
    pub kyotaku: u32,
    /// Scores by seat.
    pub scores: [i32; 4],
}

impl HandSetup {
    /// East 1, no counters, 25,000 points each, dealer seat 0.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            round_wind: 27,
            dealer: 0,
            honba: 0,
            kyotaku: 0,
            scores: [25_000; 4],
        }
    }
}

/// A seat's pick among its legal actions, or `None` to pause the hand there.
pub type Chooser<'a> = dyn FnMut(u8, &Table, &[TableAction]) -> Option<TableAction> + 'a;

/// How the hand ended.
#[derive(Debug, Clone, PartialEq)]
pub enum HandEnd {
    /// `winner` won on `tile`, by self-draw when `from` is the winner.
    Win {
        /// The winning seat.
        winner: u8,
        /// The seat that dealt in; the winner itself for a self-draw.
        from: u8,
        /// The winning tile.
        tile: Tile,
        /// Han, ura dora included (13 per yakuman).
        han: u32,
        /// Fu of the hand's reading.
        fu: u32,
        /// Points the winner gained, honba and riichi sticks included.
        points: i32,
        /// What scores the hand, each with its han (13 per yakuman).
        items: Vec<(&'static str, u32)>,
        /// The winner's concealed tiles (the winning tile included).
        hand: Vec<Tile>,
        /// Ura-dora indicators, shown for a riichi win.
        ura_indicators: Vec<Tile>,
    },
    /// The wall ran out; which seats were ready.
    Exhaustive {
        /// Which seats were ready, by seat.
        ready: [bool; 4],
    },
    /// `seat` aborted with nine terminal and honour kinds.
    NineTerminals {
        /// The seat that aborted.
        seat: u8,
    },
}

/// Where the hand stands after [`play`].
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// `seat` must choose one of `legal` (its chooser paused).
    Waiting {
        /// The seat to decide.
        seat: u8,
        /// Its legal actions.
        legal: Vec<TableAction>,
    },
    /// The hand is over: how, and the points each seat gained or lost.
    Over {
        /// How it ended.
        end: HandEnd,
        /// Points gained (or lost, negative) by seat.
        deltas: [i32; 4],
    },
}

/// Why a hand could not go on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// A chooser picked an action that is not among the seat's legal ones.
    #[error("seat {seat} chose an action the rules do not allow now: {action:?}")]
    Illegal {
        /// The seat that chose.
        seat: u8,
        /// What it chose.
        action: TableAction,
        /// The number of the seat's decision (0-based) that was illegal.
        decision: usize,
    },
    /// A seat's view refused an event the referee made: a bug.
    #[error("the referee's event {event:?} was refused by seat {seat}'s view: {message}")]
    Internal {
        /// The seat whose view refused.
        seat: u8,
        /// The event refused.
        event: Event,
        /// Why.
        message: String,
    },
}

/// The hand after [`play`]: where it stands, each seat's view and events.
#[derive(Debug, Clone)]
pub struct Played {
    /// Where the hand stands.
    pub outcome: Outcome,
    /// Each seat's table as it sees it.
    pub views: [Table; 4],
    /// Each seat's events, in order (others' draws and hands hidden).
    pub events: [Vec<Event>; 4],
    /// Scores by seat now.
    pub scores: [i32; 4],
    /// Riichi sticks on the table now.
    pub kyotaku: u32,
    /// Tiles left to draw.
    pub wall_left: u8,
}

enum Step {
    Draw { seat: u8, rinshan: bool },
    Act { seat: u8, rinshan: bool },
    Over(Outcome),
}

struct Game<'c, 'a> {
    wall: Vec<Tile>,
    next_live: usize,
    replacements_taken: usize,
    draws: u8,
    dora_shown: usize,
    /// Open and added kans whose dora shows after the next discard.
    pending_dora: usize,
    views: [Table; 4],
    events: [Vec<Event>; 4],
    scores: [i32; 4],
    kyotaku: u32,
    dealer: u8,
    /// Decisions made so far, per seat (numbers `GameError::Illegal`).
    decisions: [usize; 4],
    chooser: &'c mut Chooser<'a>,
}

/// Plays the hand of `setup` with each seat's choices from `chooser`, until it
/// ends or a chooser pauses.
pub fn play(setup: &HandSetup, chooser: &mut Chooser<'_>) -> Result<Played, GameError> {
    let mut wall = Vec::with_capacity(TILES);
    for k in 0..KINDS as u8 {
        for copy in 0..4 {
            let red = k < 27 && k % 9 == 4 && copy == 0;
            wall.push(if red { Tile::red(k) } else { Tile::new(k) });
        }
    }
    SplitMix64::new(setup.seed).shuffle(&mut wall);
    let mut game = Game {
        wall,
        next_live: DEALT,
        replacements_taken: 0,
        draws: 0,
        dora_shown: 1,
        pending_dora: 0,
        views: std::array::from_fn(|s| Table::new(s as u8)),
        events: Default::default(),
        scores: setup.scores,
        kyotaku: setup.kyotaku,
        dealer: setup.dealer,
        decisions: [0; 4],
        chooser,
    };
    let outcome = game.run(setup)?;
    Ok(Played {
        outcome,
        wall_left: LIVE_WALL - game.draws,
        scores: game.scores,
        kyotaku: game.kyotaku,
        views: game.views,
        events: game.events,
    })
}

/// Whether two actions are the same, whatever order their tiles are listed in.
pub fn same_action(a: &TableAction, b: &TableAction) -> bool {
    fn key(a: &TableAction) -> TableAction {
        let mut a = a.clone();
        match &mut a {
            TableAction::Chi { consumed, .. } | TableAction::Pon { consumed, .. } => {
                consumed.sort()
            }
            TableAction::Daiminkan { consumed, .. } | TableAction::Kakan { consumed, .. } => {
                consumed.sort()
            }
            TableAction::Ankan { consumed } => consumed.sort(),
            _ => {}
        }
        a
    }
    key(a) == key(b)
}

impl Game<'_, '_> {
    fn run(&mut self, setup: &HandSetup) -> Result<Outcome, GameError> {
        self.deal(setup)?;
        let mut step = Step::Draw {
            seat: self.dealer,
            rinshan: false,
        };
        loop {
            step = match step {
                Step::Draw { seat, rinshan } => {
                    self.draw(seat, rinshan)?;
                    Step::Act { seat, rinshan }
                }
                Step::Act { seat, rinshan } => self.act(seat, rinshan)?,
                Step::Over(outcome) => return Ok(outcome),
            };
        }
    }

    /// Gives every seat its view of `event` (`hidden` for the others where
    /// the event shows a tile only its actor sees).
    fn send(
        &mut self,
        actor: Option<u8>,
        event: Event,
        hidden: Option<Event>,
    ) -> Result<(), GameError> {
        for s in 0..4u8 {
            let seen = match (&hidden, actor) {
                (Some(h), Some(a)) if a != s => h.clone(),
                _ => event.clone(),
            };
            self.views[usize::from(s)]
                .apply(&seen)
                .map_err(|e| GameError::Internal {
                    seat: s,
                    event: seen.clone(),
                    message: e.message,
                })?;
            self.events[usize::from(s)].push(seen);
        }
        Ok(())
    }

    fn deal(&mut self, setup: &HandSetup) -> Result<(), GameError> {
        for s in 0..4u8 {
            let offset = usize::from((s + 4 - self.dealer) % 4);
            let start = Event::StartKyoku {
                round_wind: setup.round_wind,
                kyoku: self.dealer + 1,
                honba: setup.honba,
                kyotaku: setup.kyotaku,
                dealer: self.dealer,
                dora_indicator: self.wall[DORA],
                scores: setup.scores,
                hand: self.wall[13 * offset..13 * offset + 13].to_vec(),
            };
            let view = &mut self.views[usize::from(s)];
            for event in [Event::StartGame, start] {
                view.apply(&event).map_err(|e| GameError::Internal {
                    seat: s,
                    event: event.clone(),
                    message: e.message,
                })?;
                self.events[usize::from(s)].push(event);
            }
        }
        Ok(())
    }

    fn wall_left(&self) -> u8 {
        LIVE_WALL - self.draws
    }

    fn draw(&mut self, seat: u8, rinshan: bool) -> Result<(), GameError> {
        let tile = if rinshan {
            self.replacements_taken += 1;
            self.wall[REPLACEMENTS + self.replacements_taken - 1]
        } else {
            self.next_live += 1;
            self.wall[self.next_live - 1]
        };
        self.draws += 1;
        self.send(
            Some(seat),
            Event::Tsumo {
                actor: seat,
                tile: Some(tile),
            },
            Some(Event::Tsumo {
                actor: seat,
                tile: None,
            }),
        )
    }

    fn reveal_dora(&mut self) -> Result<(), GameError> {
        self.dora_shown += 1;
        let indicator = self.wall[DORA + self.dora_shown - 1];
        self.send(None, Event::Dora { indicator }, None)
    }

    fn reveal_pending_dora(&mut self) -> Result<(), GameError> {
        while self.pending_dora > 0 {
            self.pending_dora -= 1;
            self.reveal_dora()?;
        }
        Ok(())
    }

    /// The seat's choice among its legal actions; `Ok(None)` when it has
    /// nothing to decide (only the pass), `Err(outcome)` when its chooser
    /// paused.
    fn ask(&mut self, seat: u8) -> Result<Result<TableAction, Outcome>, GameError> {
        let view = &self.views[usize::from(seat)];
        let legal = legal_actions(view);
        if legal == [TableAction::Pass] {
            return Ok(Ok(TableAction::Pass));
        }
        let Some(choice) = (self.chooser)(seat, view, &legal) else {
            return Ok(Err(Outcome::Waiting { seat, legal }));
        };
        let decision = self.decisions[usize::from(seat)];
        self.decisions[usize::from(seat)] += 1;
        match legal.into_iter().find(|a| same_action(a, &choice)) {
            Some(action) => Ok(Ok(action)),
            None => Err(GameError::Illegal {
                seat,
                action: choice,
                decision,
            }),
        }
    }

    fn act(&mut self, seat: u8, rinshan: bool) -> Result<Step, GameError> {
        let action = match self.ask(seat)? {
            Ok(a) => a,
            Err(waiting) => return Ok(Step::Over(waiting)),
        };
        match action {
            TableAction::Discard { tile, tsumogiri } => self.discard(seat, tile, tsumogiri, false),
            TableAction::Riichi => {
                self.send(None, Event::Reach { actor: seat }, None)?;
                match self.ask(seat)? {
                    Ok(TableAction::Discard { tile, tsumogiri }) => {
                        self.discard(seat, tile, tsumogiri, true)
                    }
                    Ok(other) => Err(GameError::Illegal {
                        seat,
                        action: other,
                        decision: self.decisions[usize::from(seat)] - 1,
                    }),
                    Err(waiting) => Ok(Step::Over(waiting)),
                }
            }
            TableAction::Hora { tile, .. } => self.win(seat, seat, tile, rinshan, false),
            TableAction::NineTerminals => {
                self.send(None, Event::HandOver { scores: None }, None)?;
                Ok(Step::Over(Outcome::Over {
                    end: HandEnd::NineTerminals { seat },
                    deltas: [0; 4],
                }))
            }
            TableAction::Ankan { consumed } => {
                self.send(
                    None,
                    Event::Ankan {
                        actor: seat,
                        consumed,
                    },
                    None,
                )?;
                self.reveal_pending_dora()?;
                self.reveal_dora()?;
                Ok(Step::Draw {
                    seat,
                    rinshan: true,
                })
            }
            TableAction::Kakan { tile, .. } => {
                self.send(None, Event::Kakan { actor: seat, tile }, None)?;
                self.reveal_pending_dora()?;
                for i in 1..4 {
                    let other = (seat + i) % 4;
                    match self.ask(other)? {
                        Ok(TableAction::Hora { .. }) => {
                            return self.win(other, seat, tile, false, true);
                        }
                        Ok(_) => {}
                        Err(waiting) => return Ok(Step::Over(waiting)),
                    }
                }
                self.pending_dora += 1;
                Ok(Step::Draw {
                    seat,
                    rinshan: true,
                })
            }
            // Legal actions on a seat's own turn are never these.
            TableAction::Pass
            | TableAction::Chi { .. }
            | TableAction::Pon { .. }
            | TableAction::Daiminkan { .. } => Err(GameError::Illegal {
                seat,
                action,
                decision: self.decisions[usize::from(seat)] - 1,
            }),
        }
    }

    fn discard(
        &mut self,
        seat: u8,
        tile: Tile,
        tsumogiri: bool,
        declaring: bool,
    ) -> Result<Step, GameError> {
        self.send(
            None,
            Event::Dahai {
                actor: seat,
                tile,
                tsumogiri,
            },
            None,
        )?;
        self.reveal_pending_dora()?;
        let mut call = None;
        for i in 1..4 {
            let other = (seat + i) % 4;
            let answer = match self.ask(other)? {
                Ok(a) => a,
                Err(waiting) => return Ok(Step::Over(waiting)),
            };
            match answer {
                TableAction::Hora { .. } => return self.win(other, seat, tile, false, false),
                // Only one seat can hold two copies of the discard, and a
                // pon or open kan beats the left seat's chi.
                TableAction::Pon { .. } | TableAction::Daiminkan { .. } => {
                    call = Some((other, answer))
                }
                TableAction::Chi { .. } if call.is_none() => call = Some((other, answer)),
                _ => {}
            }
        }
        if declaring {
            self.scores[usize::from(seat)] -= RIICHI_DEPOSIT;
            self.kyotaku += 1;
            self.send(None, Event::ReachAccepted { actor: seat }, None)?;
        }
        let Some((caller, call)) = call else {
            if self.wall_left() == 0 {
                return self.exhaustive();
            }
            return Ok(Step::Draw {
                seat: (seat + 1) % 4,
                rinshan: false,
            });
        };
        let event = match call {
            TableAction::Chi {
                target,
                tile,
                consumed,
            } => Event::Chi {
                actor: caller,
                target,
                tile,
                consumed,
            },
            TableAction::Pon {
                target,
                tile,
                consumed,
            } => Event::Pon {
                actor: caller,
                target,
                tile,
                consumed,
            },
            TableAction::Daiminkan {
                target,
                tile,
                consumed,
            } => Event::Daiminkan {
                actor: caller,
                target,
                tile,
                consumed,
            },
            other => unreachable!("only calls are kept: {other:?}"),
        };
        let open_kan = matches!(event, Event::Daiminkan { .. });
        self.send(None, event, None)?;
        if open_kan {
            self.pending_dora += 1;
            Ok(Step::Draw {
                seat: caller,
                rinshan: true,
            })
        } else {
            Ok(Step::Act {
                seat: caller,
                rinshan: false,
            })
        }
    }

    fn win(
        &mut self,
        winner: u8,
        from: u8,
        tile: Tile,
        rinshan: bool,
        chankan: bool,
    ) -> Result<Step, GameError> {
        let view = &self.views[usize::from(winner)];
        let ura: Vec<Tile> = self.wall[URA..URA + self.dora_shown].to_vec();
        let self_drawn = winner == from;
        let score = win_score(view, tile, self_drawn, rinshan, chankan, &ura).ok_or_else(|| {
            GameError::Internal {
                seat: winner,
                event: Event::HandOver { scores: None },
                message: "a legal win that does not score".into(),
            }
        })?;
        let riichi = view.in_riichi();
        let mut hand = view.hand.clone();
        if !self_drawn {
            hand.push(tile);
        }
        hand.sort();
        let w = usize::from(winner);
        let mut deltas = score.payments.deltas(winner, from, self.dealer);
        deltas[w] += RIICHI_DEPOSIT * self.kyotaku as i32;
        self.kyotaku = 0;
        self.settle(deltas)?;
        Ok(Step::Over(Outcome::Over {
            end: HandEnd::Win {
                winner,
                from,
                tile,
                han: score.han,
                fu: score.fu,
                points: deltas[w],
                items: win_items(&score),
                hand,
                ura_indicators: if riichi { ura } else { Vec::new() },
            },
            deltas,
        }))
    }

    fn exhaustive(&mut self) -> Result<Step, GameError> {
        let ready: [bool; 4] = std::array::from_fn(|s| {
            let view = &self.views[s];
            !view.waits(&view.concealed()).is_empty()
        });
        let n = ready.iter().filter(|&&r| r).count() as i32;
        let mut deltas = [0i32; 4];
        if (1..4).contains(&n) {
            for (d, &r) in deltas.iter_mut().zip(&ready) {
                *d = if r {
                    NOTEN_PENALTY / n
                } else {
                    -NOTEN_PENALTY / (4 - n)
                };
            }
        }
        self.settle(deltas)?;
        Ok(Step::Over(Outcome::Over {
            end: HandEnd::Exhaustive { ready },
            deltas,
        }))
    }

    /// Pays out and tells every seat the hand is over.
    fn settle(&mut self, deltas: [i32; 4]) -> Result<(), GameError> {
        for (s, d) in self.scores.iter_mut().zip(deltas) {
            *s += d;
        }
        let scores = self.scores;
        self.send(
            None,
            Event::HandOver {
                scores: Some(scores),
            },
            None,
        )
    }
}

#[cfg(test)]
mod tests;
