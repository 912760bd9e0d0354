//! A Riichi table as one seat sees it, rebuilt event by event.
//!
//! The events are the mjai vocabulary (`start_kyoku`, `tsumo`, `dahai`, calls, `reach`,
//! `dora`, …) as domain values; parsing them from JSON is the protocol front end's job.
//! [`Table::apply`] checks each event against the state (whose turn it is, that the seat
//! holds the tiles it plays, that no kind is seen five times) and refuses one that cannot
//! happen, so a decision is only ever made on a table that exists.
//!
//! Besides what is on the table (rivers with tsumogiri flags, melds, riichi turns, scores,
//! dora indicators, the live wall) it keeps what only the history shows: the seat's
//! furiten (own discards, a passed winning tile, riichi furiten), kuikae after a call,
//! and the flags for situational yaku (ippatsu, rinshan, chankan, haitei and houtei,
//! double riichi, tenhou and chiihou).
//!
//! Wall: 136 tiles, 14 in the dead wall and 52 dealt, so there are 70 draws in a hand;
//! a replacement draw after a kan is one of them.

use super::shanten;
use super::tiles::{KINDS, Meld, MeldKind, Tile, TileCounts, Variant, is_terminal_or_honor};

/// Draws in a hand (136 − 14 dead wall − 4 × 13 dealt).
pub const LIVE_WALL: u8 = 70;
/// Dora indicators at most: the first one and four kan dora.
pub const MAX_DORA_INDICATORS: usize = 5;
/// Points a riichi costs, and the least a seat must hold to declare.
pub const RIICHI_DEPOSIT: i32 = 1000;
/// Tiles that must be left in the wall to declare riichi.
pub const RIICHI_MIN_WALL: u8 = 4;
/// Bounds on the counters a log may carry, far beyond any real game, so that point
/// arithmetic cannot overflow.
pub const MAX_STICKS: u32 = 100;
/// Largest score, positive or negative, a log may carry (see [`MAX_STICKS`]).
pub const MAX_SCORE: i32 = 10_000_000;

/// One event of a hand, as the seat sees it (`None` tiles are hidden).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A new game: the table starts afresh.
    StartGame,
    /// A new hand is dealt.
    StartKyoku {
        /// Round wind tile index 27..=30.
        round_wind: u8,
        /// 1..=4 within the round.
        kyoku: u8,
        /// Repeat counters.
        honba: u32,
        /// Riichi sticks on the table.
        kyotaku: u32,
        /// Dealer's seat 0..=3.
        dealer: u8,
        /// The first dora indicator.
        dora_indicator: Tile,
        /// Scores by seat at the start of the hand.
        scores: [i32; 4],
        /// The seat's own 13 tiles.
        hand: Vec<Tile>,
    },
    /// `actor` draws.
    Tsumo {
        /// The drawing seat.
        actor: u8,
        /// The tile drawn; `None` when hidden (another seat's draw).
        tile: Option<Tile>,
    },
    /// `actor` discards.
    Dahai {
        /// The discarding seat.
        actor: u8,
        /// The discarded tile.
        tile: Tile,
        /// Discarded straight from the draw.
        tsumogiri: bool,
    },
    /// `actor` calls a chow on the discard of `target`, the seat to its left.
    Chi {
        /// The calling seat.
        actor: u8,
        /// The seat that discarded.
        target: u8,
        /// The called discard.
        tile: Tile,
        /// The two tiles from the caller's hand.
        consumed: [Tile; 2],
    },
    /// `actor` calls a pung on `target`'s discard.
    Pon {
        /// The calling seat.
        actor: u8,
        /// The seat that discarded.
        target: u8,
        /// The called discard.
        tile: Tile,
        /// The two tiles from the caller's hand.
        consumed: [Tile; 2],
    },
    /// `actor` calls an open kan on `target`'s discard; a replacement draw follows.
    Daiminkan {
        /// The calling seat.
        actor: u8,
        /// The seat that discarded.
        target: u8,
        /// The called discard.
        tile: Tile,
        /// The three tiles from the caller's hand.
        consumed: [Tile; 3],
    },
    /// `actor` adds `tile` to its pung, making a kan; the others may rob it (chankan).
    Kakan {
        /// The seat making the kan.
        actor: u8,
        /// The added tile.
        tile: Tile,
    },
    /// `actor` declares a concealed kan; a replacement draw follows.
    Ankan {
        /// The seat making the kan.
        actor: u8,
        /// The four tiles of one kind.
        consumed: [Tile; 4],
    },
    /// A new (kan) dora indicator is revealed.
    Dora {
        /// The indicator tile.
        indicator: Tile,
    },
    /// `actor` declares riichi; its next discard is the declaration tile.
    Reach {
        /// The declaring seat.
        actor: u8,
    },
    /// `actor`'s riichi stands: the 1,000-point deposit goes to the table.
    ReachAccepted {
        /// The seat whose riichi stands.
        actor: u8,
    },
    /// A win, a drawn hand or the hand's end: nothing more happens in this hand.
    /// `scores`, when the log carries them, are the scores after it.
    HandOver {
        /// Scores by seat after the hand.
        scores: Option<[i32; 4]>,
    },
    /// The game is over.
    EndGame,
}

/// A discard in the order made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RiverTile {
    /// Seat 0..=3 that discarded it.
    pub seat: u8,
    /// The discarded tile.
    pub tile: Tile,
    /// Discarded straight from the draw.
    pub tsumogiri: bool,
    /// Taken by another seat's call (it then stands in that seat's meld).
    pub called: bool,
}

/// What each seat has shown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Seat {
    /// Declared melds, in the order made.
    pub melds: Vec<Meld>,
    /// Index in [`Table::river`] of the riichi declaration tile.
    pub riichi: Option<usize>,
    /// Declared riichi and the deposit was taken.
    pub riichi_accepted: bool,
    /// Declared on the seat's first discard with no call before it.
    pub double_riichi: bool,
    /// Won on this draw or the next discard would be ippatsu.
    pub ippatsu: bool,
    /// Tiles in the concealed hand.
    pub concealed: u8,
    /// Has not discarded yet this hand.
    pub first_turn: bool,
    /// Declared riichi and must discard now.
    riichi_declared: bool,
}

impl Seat {
    /// Whether a meld opens the hand (a concealed kan does not).
    pub fn has_open_meld(&self) -> bool {
        self.melds.iter().any(|m| m.kind.is_open())
    }
}

/// Whose move it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// No hand is being played.
    Idle,
    /// `seat` is to draw (a replacement draw after a kan when `rinshan`).
    Draw {
        /// The seat to draw.
        seat: u8,
        /// The draw is a replacement after a kan.
        rinshan: bool,
    },
    /// `seat` holds 3n+2 tiles and must act: discard, riichi, kan or win. `drawn` is the
    /// tile it just drew, as the seat sees it (`None` for another seat's draw and after a
    /// call), `rinshan` when that was a replacement draw, `after_call` when the seat
    /// called instead of drawing (it may then only discard).
    Act {
        /// The seat to act.
        seat: u8,
        /// The tile just drawn, as the seat sees it.
        drawn: Option<Tile>,
        /// The tile was a replacement draw after a kan.
        rinshan: bool,
        /// The seat called instead of drawing.
        after_call: bool,
    },
    /// `seat` discarded the last river tile; the others may call or win on it.
    Discarded {
        /// The seat that discarded.
        seat: u8,
    },
    /// `seat` added `tile` to a pung; the others may rob it (chankan).
    Added {
        /// The seat that added the tile.
        seat: u8,
        /// The added tile.
        tile: Tile,
    },
}

/// Why an event cannot happen at this point.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ReplayError {
    /// What is wrong, in words.
    pub message: String,
}

fn refuse<T>(message: impl Into<String>) -> Result<T, ReplayError> {
    Err(ReplayError {
        message: message.into(),
    })
}

/// The whole table as seat `me` knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// The seat the table is seen from, 0..=3.
    pub me: u8,
    /// Round wind tile index 27..=30.
    pub round_wind: u8,
    /// Hand number within the round, 1..=4.
    pub kyoku: u8,
    /// Repeat counters.
    pub honba: u32,
    /// Riichi sticks on the table.
    pub kyotaku: u32,
    /// Dealer's seat 0..=3.
    pub dealer: u8,
    /// Scores by seat.
    pub scores: [i32; 4],
    /// Dora indicators shown, the first one first (at most [`MAX_DORA_INDICATORS`]).
    pub dora_indicators: Vec<Tile>,
    /// The seat's concealed tiles (including a drawn tile).
    pub hand: Vec<Tile>,
    /// What each seat has shown, by seat number.
    pub seats: [Seat; 4],
    /// Every discard of the hand in the order made, all seats, called ones included.
    pub river: Vec<RiverTile>,
    /// Draws made this hand (the live wall holds [`LIVE_WALL`] minus this).
    pub draws: u8,
    /// Whose move it is.
    pub turn: Turn,
    /// Tiles seen that the rivers, melds and indicators do not account for (a stateless
    /// caller's `visible`).
    pub extra_visible: TileCounts,
    /// A winning tile passed since the seat's last discard (temporary furiten).
    pub missed_win: bool,
    /// A winning tile passed after the seat's riichi (furiten for the rest of the hand).
    pub riichi_furiten: bool,
    /// Kinds the seat may not discard now (kuikae, after its own chi or pon).
    pub kuikae: Vec<u8>,
    /// Someone called (any chi, pon or kan) this hand: no double riichi, tenhou, chiihou
    /// or nine-terminal draw after it.
    pub any_call: bool,
    /// A winning tile of the seat was just discarded or added; if the next event is not
    /// its win, it becomes furiten.
    pending_miss: bool,
    in_hand: bool,
}

/// Seat wind index (27..=30) of `seat` when `dealer` is East.
pub fn seat_wind_of(seat: u8, dealer: u8) -> u8 {
    27 + (seat + 4 - dealer) % 4
}

impl Table {
    /// An empty table for seat `me`, before `start_kyoku`.
    pub fn new(me: u8) -> Self {
        Self {
            me: me % 4,
            round_wind: 27,
            kyoku: 1,
            honba: 0,
            kyotaku: 0,
            dealer: 0,
            scores: [25_000; 4],
            dora_indicators: Vec::new(),
            hand: Vec::new(),
            seats: Default::default(),
            river: Vec::new(),
            draws: 0,
            turn: Turn::Idle,
            extra_visible: TileCounts::default(),
            missed_win: false,
            riichi_furiten: false,
            kuikae: Vec::new(),
            any_call: false,
            pending_miss: false,
            in_hand: false,
        }
    }

    /// Marks a table built from fields (not events) as a hand in progress.
    pub fn begin_hand(&mut self) {
        self.in_hand = true;
    }

    /// Checks that no kind is seen more than four times, nor a red five twice.
    pub fn check_tile_counts(&self) -> Result<(), ReplayError> {
        self.check_counts()
    }

    /// Tiles left to draw in the live wall.
    pub fn wall_left(&self) -> u8 {
        LIVE_WALL.saturating_sub(self.draws)
    }

    /// Seat wind tile index 27..=30 of `seat`.
    pub fn seat_wind(&self, seat: u8) -> u8 {
        seat_wind_of(seat, self.dealer)
    }

    /// The seat the table is seen from.
    pub fn my_seat(&self) -> &Seat {
        &self.seats[self.me as usize]
    }

    /// Counts of the seat's concealed tiles.
    pub fn concealed(&self) -> TileCounts {
        TileCounts::from_tiles(&self.hand)
    }

    /// Every tile the seat can see: its hand, the rivers (a called tile once, in the
    /// meld), all melds, the dora indicators and `extra_visible`.
    pub fn seen(&self) -> TileCounts {
        let mut c = self.concealed();
        for r in self.river.iter().filter(|r| !r.called) {
            c.add(r.tile.index);
        }
        for s in &self.seats {
            for m in &s.melds {
                for t in &m.tiles {
                    c.add(t.index);
                }
            }
        }
        for t in &self.dora_indicators {
            c.add(t.index);
        }
        for (k, n) in self.extra_visible.kinds() {
            for _ in 0..n {
                c.add(k);
            }
        }
        c
    }

    /// Kinds the seat has discarded this hand (called ones too).
    pub fn own_discard_kinds(&self) -> TileCounts {
        let mut c = TileCounts::default();
        for r in self.river.iter().filter(|r| r.seat == self.me) {
            c.add(r.tile.index);
        }
        c
    }

    /// Kinds that complete the seat's hand (13 − 3n tiles), with or without a yaku.
    pub fn waits(&self, conc: &TileCounts) -> Vec<u8> {
        let melds = &self.my_seat().melds;
        (0..KINDS as u8)
            .filter(|&k| {
                if conc.get(k) >= 4 {
                    return false;
                }
                let mut with = *conc;
                with.add(k);
                super::rules::is_winning_hand(Variant::Riichi, &with, melds)
            })
            .collect()
    }

    /// Whether the seat may not win on a discard now.
    pub fn furiten(&self) -> bool {
        if self.missed_win || self.riichi_furiten {
            return true;
        }
        let own = self.own_discard_kinds();
        self.waits(&self.concealed())
            .iter()
            .any(|&k| own.get(k) > 0)
    }

    /// Applies one event; on error the table is unchanged.
    pub fn apply(&mut self, event: &Event) -> Result<(), ReplayError> {
        let mut next = self.clone();
        next.step(event)?;
        next.check_counts()?;
        *self = next;
        Ok(())
    }

    fn check_counts(&self) -> Result<(), ReplayError> {
        let seen = self.seen();
        if let Some((k, _)) = seen.kinds().find(|&(_, n)| n > 4) {
            return refuse(format!(
                "{} would be seen {} times",
                super::tiles::kind_name(k),
                seen.get(k)
            ));
        }
        let mut reds = [0u8; 3];
        let mine = self.hand.iter();
        let melded = self
            .seats
            .iter()
            .flat_map(|s| s.melds.iter())
            .flat_map(|m| m.tiles.iter());
        let river = self.river.iter().filter(|r| !r.called).map(|r| &r.tile);
        for t in mine
            .chain(melded)
            .chain(river)
            .chain(self.dora_indicators.iter())
        {
            if t.red {
                reds[t.suit() as usize] += 1;
                if reds[t.suit() as usize] > 1 {
                    return refuse(format!("a second red five of {}", t.kind_name()));
                }
            }
        }
        Ok(())
    }

    fn expect_hand(&self) -> Result<(), ReplayError> {
        if self.in_hand {
            Ok(())
        } else {
            refuse("no hand is being played (start_kyoku first)")
        }
    }

    fn check_seat(actor: u8) -> Result<usize, ReplayError> {
        if actor < 4 {
            Ok(actor as usize)
        } else {
            refuse(format!("actor {actor} is not a seat 0-3"))
        }
    }

    /// Removes exactly `tile` (red flag included) from the seat's hand.
    fn take_from_hand(&mut self, tile: Tile) -> Result<(), ReplayError> {
        match self.hand.iter().position(|t| *t == tile) {
            Some(i) => {
                self.hand.remove(i);
                Ok(())
            }
            None => refuse(format!("{} is not in the hand", tile.mjai_name())),
        }
    }

    fn settle_miss(&mut self, event: &Event) {
        // A kan dora or a riichi acceptance can come before the seat has answered the
        // discard; only what follows the answer closes the chance to win on it.
        if matches!(event, Event::Dora { .. } | Event::ReachAccepted { .. }) {
            return;
        }
        if self.pending_miss {
            let won = matches!(event, Event::HandOver { .. });
            if !won {
                self.missed_win = true;
                if self.my_seat().riichi.is_some() {
                    self.riichi_furiten = true;
                }
            }
            self.pending_miss = false;
        }
    }

    /// Marks a winning tile of the seat passing by (from another seat).
    fn offer(&mut self, tile: Tile) {
        let conc = self.concealed();
        if conc.total() % 3 == 1 && self.waits(&conc).contains(&tile.index) {
            self.pending_miss = true;
        }
    }

    fn clear_ippatsu(&mut self) {
        for s in &mut self.seats {
            s.ippatsu = false;
        }
    }

    fn call_common(&mut self, actor: usize, target: u8, tile: Tile) -> Result<(), ReplayError> {
        let Turn::Discarded { seat } = self.turn else {
            return refuse("a call needs a discard to call");
        };
        if seat != target {
            return refuse(format!("seat {target} did not make the last discard"));
        }
        if actor == target as usize {
            return refuse("a seat cannot call its own discard");
        }
        if self.seats[actor].riichi_accepted {
            return refuse("a seat in riichi cannot call");
        }
        let Some(last) = self.river.last_mut() else {
            return refuse("no discard to call");
        };
        if last.tile != tile {
            return refuse(format!(
                "the last discard is {}, not {}",
                last.tile.mjai_name(),
                tile.mjai_name()
            ));
        }
        last.called = true;
        self.any_call = true;
        self.clear_ippatsu();
        Ok(())
    }

    fn take_consumed(&mut self, actor: usize, consumed: &[Tile]) -> Result<(), ReplayError> {
        if actor == self.me as usize {
            for t in consumed {
                self.take_from_hand(*t)?;
            }
        }
        let n = consumed.len() as u8;
        let s = &mut self.seats[actor];
        if s.concealed < n {
            return refuse("the seat does not hold that many tiles");
        }
        s.concealed -= n;
        Ok(())
    }

    /// A kan is declared on a turn that began with a draw, not right after a call.
    fn expect_drawn_turn(&self, actor: u8, what: &str) -> Result<(), ReplayError> {
        match self.turn {
            Turn::Act {
                seat,
                after_call: false,
                ..
            } if seat == actor => Ok(()),
            _ => refuse(format!("seat {actor} cannot {what} now")),
        }
    }

    /// A pon or open kan of `tile` from `target`'s discard with `consumed` from the hand;
    /// returns the caller's seat index.
    fn claim_set(
        &mut self,
        actor: u8,
        target: u8,
        tile: Tile,
        consumed: &[Tile],
        kind: MeldKind,
    ) -> Result<usize, ReplayError> {
        self.expect_hand()?;
        let a = Self::check_seat(actor)?;
        if consumed.iter().any(|t| t.index != tile.index) {
            return refuse("a pon or kan takes tiles of the called kind only");
        }
        self.call_common(a, target, tile)?;
        self.take_consumed(a, consumed)?;
        let mut tiles = consumed.to_vec();
        tiles.push(tile);
        self.seats[a].melds.push(Meld { kind, tiles });
        Ok(a)
    }

    fn step(&mut self, event: &Event) -> Result<(), ReplayError> {
        self.settle_miss(event);
        match *event {
            Event::StartGame => {
                *self = Table::new(self.me);
            }
            Event::StartKyoku {
                round_wind,
                kyoku,
                honba,
                kyotaku,
                dealer,
                dora_indicator,
                scores,
                ref hand,
            } => {
                if !(27..=30).contains(&round_wind) {
                    return refuse("the round wind must be E, S, W or N");
                }
                if !(1..=4).contains(&kyoku) {
                    return refuse(format!("kyoku {kyoku} is not 1-4"));
                }
                if dealer > 3 {
                    return refuse(format!("oya {dealer} is not a seat 0-3"));
                }
                if honba > MAX_STICKS || kyotaku > MAX_STICKS {
                    return refuse(format!("honba and kyotaku are at most {MAX_STICKS}"));
                }
                if scores.iter().any(|s| s.abs() > MAX_SCORE) {
                    return refuse(format!("scores are within ±{MAX_SCORE}"));
                }
                if hand.len() != 13 {
                    return refuse(format!("the seat's hand has {} tiles, not 13", hand.len()));
                }
                let me = self.me;
                *self = Table::new(me);
                self.round_wind = round_wind;
                self.kyoku = kyoku;
                self.honba = honba;
                self.kyotaku = kyotaku;
                self.dealer = dealer;
                self.scores = scores;
                self.dora_indicators = vec![dora_indicator];
                self.hand = hand.clone();
                for s in &mut self.seats {
                    s.concealed = 13;
                    s.first_turn = true;
                }
                self.turn = Turn::Draw {
                    seat: dealer,
                    rinshan: false,
                };
                self.in_hand = true;
            }
            Event::Tsumo { actor, tile } => {
                self.expect_hand()?;
                let a = Self::check_seat(actor)?;
                let rinshan = match self.turn {
                    Turn::Draw { seat, rinshan } if seat == actor => rinshan,
                    Turn::Discarded { seat } if (seat + 1) % 4 == actor => false,
                    Turn::Added { seat, .. } if seat == actor => true,
                    _ => return refuse(format!("it is not seat {actor}'s turn to draw")),
                };
                if self.wall_left() == 0 {
                    return refuse("the wall is empty");
                }
                self.draws += 1;
                if a == self.me as usize {
                    let Some(t) = tile else {
                        return refuse("the seat's own draw must show the tile");
                    };
                    self.hand.push(t);
                }
                self.seats[a].concealed += 1;
                self.turn = Turn::Act {
                    seat: actor,
                    drawn: if a == self.me as usize { tile } else { None },
                    rinshan,
                    after_call: false,
                };
            }
            Event::Dahai {
                actor,
                tile,
                tsumogiri,
            } => {
                self.expect_hand()?;
                let a = Self::check_seat(actor)?;
                let Turn::Act { seat, drawn, .. } = self.turn else {
                    return refuse(format!("seat {actor} has nothing to discard now"));
                };
                if seat != actor {
                    return refuse(format!("it is seat {seat}'s turn, not seat {actor}'s"));
                }
                if a == self.me as usize {
                    if tsumogiri && drawn != Some(tile) {
                        return refuse("tsumogiri, but that is not the tile just drawn");
                    }
                    self.take_from_hand(tile)?;
                    self.missed_win = false;
                    self.kuikae.clear();
                }
                let s = &mut self.seats[a];
                s.concealed -= 1;
                if !s.riichi_declared {
                    s.ippatsu = false;
                }
                let declared = std::mem::take(&mut s.riichi_declared);
                s.first_turn = false;
                if declared {
                    self.seats[a].riichi = Some(self.river.len());
                }
                self.river.push(RiverTile {
                    seat: actor,
                    tile,
                    tsumogiri,
                    called: false,
                });
                if a != self.me as usize {
                    self.offer(tile);
                }
                self.turn = Turn::Discarded { seat: actor };
            }
            Event::Chi {
                actor,
                target,
                tile,
                consumed,
            } => {
                self.expect_hand()?;
                let a = Self::check_seat(actor)?;
                if (target + 1) % 4 != actor {
                    return refuse("chi takes a discard of the seat on the left only");
                }
                let meld = Meld {
                    kind: MeldKind::Chow,
                    tiles: vec![consumed[0], consumed[1], tile],
                };
                if !meld.is_valid(None) {
                    return refuse("the tiles do not make a sequence");
                }
                self.call_common(a, target, tile)?;
                self.take_consumed(a, &consumed)?;
                if a == self.me as usize {
                    self.kuikae = kuikae_kinds(tile.index, [consumed[0].index, consumed[1].index]);
                }
                self.seats[a].melds.push(meld);
                self.turn = Turn::Act {
                    seat: actor,
                    drawn: None,
                    rinshan: false,
                    after_call: true,
                };
            }
            Event::Pon {
                actor,
                target,
                tile,
                consumed,
            } => {
                let a = self.claim_set(actor, target, tile, &consumed, MeldKind::Pung)?;
                if a == self.me as usize {
                    self.kuikae = vec![tile.index];
                }
                self.turn = Turn::Act {
                    seat: actor,
                    drawn: None,
                    rinshan: false,
                    after_call: true,
                };
            }
            Event::Daiminkan {
                actor,
                target,
                tile,
                consumed,
            } => {
                self.claim_set(actor, target, tile, &consumed, MeldKind::Kong)?;
                self.turn = Turn::Draw {
                    seat: actor,
                    rinshan: true,
                };
            }
            Event::Kakan { actor, tile } => {
                self.expect_hand()?;
                let a = Self::check_seat(actor)?;
                self.expect_drawn_turn(actor, "add a kan")?;
                let Some(m) = self.seats[a]
                    .melds
                    .iter()
                    .position(|m| m.kind == MeldKind::Pung && m.tiles[0].index == tile.index)
                else {
                    return refuse(format!("seat {actor} has no pon of {}", tile.kind_name()));
                };
                if a == self.me as usize {
                    self.take_from_hand(tile)?;
                }
                let s = &mut self.seats[a];
                s.concealed -= 1;
                s.melds[m].kind = MeldKind::Kong;
                s.melds[m].tiles.push(tile);
                self.any_call = true;
                self.clear_ippatsu();
                if a != self.me as usize {
                    self.offer(tile);
                }
                self.turn = Turn::Added { seat: actor, tile };
            }
            Event::Ankan { actor, consumed } => {
                self.expect_hand()?;
                let a = Self::check_seat(actor)?;
                self.expect_drawn_turn(actor, "declare a kan")?;
                if consumed.iter().any(|t| t.index != consumed[0].index) {
                    return refuse("a concealed kan is four tiles of one kind");
                }
                self.take_consumed(a, &consumed)?;
                self.seats[a].melds.push(Meld {
                    kind: MeldKind::ConcealedKong,
                    tiles: consumed.to_vec(),
                });
                self.any_call = true;
                self.clear_ippatsu();
                self.turn = Turn::Draw {
                    seat: actor,
                    rinshan: true,
                };
            }
            Event::Dora { indicator } => {
                self.expect_hand()?;
                if self.dora_indicators.len() >= MAX_DORA_INDICATORS {
                    return refuse("a hand has at most five dora indicators");
                }
                self.dora_indicators.push(indicator);
            }
            Event::Reach { actor } => {
                self.expect_hand()?;
                let a = Self::check_seat(actor)?;
                match self.turn {
                    Turn::Act { seat, .. } if seat == actor => {}
                    _ => return refuse(format!("seat {actor} cannot declare riichi now")),
                }
                let s = &self.seats[a];
                if s.riichi_accepted || s.riichi_declared {
                    return refuse("the seat is in riichi already");
                }
                if s.has_open_meld() {
                    return refuse("riichi needs a closed hand");
                }
                if self.wall_left() < RIICHI_MIN_WALL {
                    return refuse("riichi needs four tiles left in the wall");
                }
                if self.scores[a] < RIICHI_DEPOSIT {
                    return refuse("riichi needs 1,000 points");
                }
                let double = s.first_turn && !self.any_call;
                let s = &mut self.seats[a];
                s.riichi_declared = true;
                s.double_riichi = double;
            }
            Event::ReachAccepted { actor } => {
                self.expect_hand()?;
                let a = Self::check_seat(actor)?;
                let s = &mut self.seats[a];
                if s.riichi.is_none() || s.riichi_accepted {
                    return refuse(format!("seat {actor} has no riichi discard to accept"));
                }
                s.riichi_accepted = true;
                s.ippatsu = true;
                self.scores[a] = self.scores[a].saturating_sub(RIICHI_DEPOSIT);
                self.kyotaku = self.kyotaku.saturating_add(1).min(MAX_STICKS);
            }
            Event::HandOver { scores } => {
                if let Some(s) = scores {
                    if s.iter().any(|x| x.abs() > MAX_SCORE) {
                        return refuse(format!("scores are within ±{MAX_SCORE}"));
                    }
                    self.scores = s;
                }
                self.in_hand = false;
                self.turn = Turn::Idle;
            }
            Event::EndGame => {
                self.in_hand = false;
                self.turn = Turn::Idle;
            }
        }
        Ok(())
    }

    /// The seat's riichi is accepted or declared (its discards are locked).
    pub fn in_riichi(&self) -> bool {
        let s = self.my_seat();
        s.riichi_accepted || s.riichi_declared
    }

    /// The seat declared riichi and must now make the declaration discard.
    pub fn riichi_declared_now(&self) -> bool {
        self.my_seat().riichi_declared
    }

    /// Whether the seat may declare riichi now (before choosing the discard).
    pub fn may_riichi(&self) -> bool {
        let s = self.my_seat();
        matches!(self.turn, Turn::Act { seat, drawn: Some(_), .. } if seat == self.me)
            && !s.riichi_accepted
            && !s.riichi_declared
            && !s.has_open_meld()
            && self.wall_left() >= RIICHI_MIN_WALL
            && self.scores[self.me as usize] >= RIICHI_DEPOSIT
    }

    /// Whether the seat may declare a nine-terminal draw now.
    pub fn may_abort_nine_terminals(&self) -> bool {
        let c = self.concealed();
        matches!(self.turn, Turn::Act { seat, drawn: Some(_), .. } if seat == self.me)
            && self.my_seat().first_turn
            && !self.any_call
            && (0..KINDS as u8)
                .filter(|&k| is_terminal_or_honor(k) && c.get(k) > 0)
                .count()
                >= 9
    }

    /// Shanten of the seat's concealed hand (all forms).
    pub fn shanten(&self) -> i8 {
        shanten::shanten(
            Variant::Riichi,
            &self.concealed(),
            self.my_seat().melds.len(),
        )
    }
}

/// Kinds a seat may not discard right after a chi of `called` with `own` (the called kind,
/// and the kind at the other end of a two-sided sequence: chi 3 with 45 forbids 3 and 6).
pub fn kuikae_kinds(called: u8, own: [u8; 2]) -> Vec<u8> {
    let mut kinds = vec![called];
    let (lo, hi) = (own[0].min(own[1]), own[0].max(own[1]));
    if hi == lo + 1 {
        let rank = called % 9;
        if called + 1 == lo && rank + 3 <= 8 {
            kinds.push(called + 3);
        } else if called == hi + 1 && rank >= 3 {
            kinds.push(called - 3);
        }
    }
    kinds
}
