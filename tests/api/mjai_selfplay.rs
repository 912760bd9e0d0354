//! Self-play under a referee: four `gamebot::protocol::mjai::Session`s play seeded Riichi hands
//! against each other through exactly the lines an mjai server sends (one JSON array of
//! the events new to the seat, others' draws and start hands as `"?"`), and a referee
//! written for this test checks every answer against the true state and every replayed
//! table against the truth after every line.
//!
//! The referee keeps its own books (wall, hands, melds, rivers, turn order, furiten,
//! kuikae, riichi) and decides hand completeness with its own code, so that a mistake
//! shared by the bot and the crate's table cannot hide. The crate's scoring is asked only
//! whether a hand the referee found complete has a yaku, and for the points the `hora`
//! event carries.
//!
//! Rules (Tenhou's, as mjai servers play them): chi from the left seat only; pon and kan
//! from any seat; priority ron > pon/kan > chi, one winner per discard (the first seat
//! after the discarder); no call on the last discard; kans only after a draw, at most
//! four, while the live wall is not empty; a concealed kan shows its dora at once, an open
//! or added kan after the next discard; riichi closed, with 1,000 points and four tiles
//! left, then only the drawn copy; furiten by own discards, by a winning tile passed since
//! the seat's last discard, and for the rest of the hand by one passed after its riichi.
//! No abortive draw besides nine terminals (four winds, four riichi and four kans are not
//! played), no nagashi mangan.
//!
//! A failing seed prints every line and answer of its hand with
//! `SELFPLAY_SEED=N cargo test --test api mjai_selfplay::transcript -- --ignored --nocapture`.

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

use gamebot::mahjong::Strategy;
use gamebot::mahjong::riichi_bot::legal_actions;
use gamebot::mahjong::scoring::{HandScore, Situation, score_hand};
use gamebot::mahjong::tiles::{Meld, MeldKind, Tile, TileCounts};
use gamebot::protocol::mjai::{Session, action_value};
use gamebot::rng::SplitMix64;
use serde_json::{Value, json};

/// Seeds played by the property test: enough that every kind of answer the bots give
/// shows up (see the coverage asserts), in a few seconds in the test profile.
const HANDS: u64 = 1000;
/// Seeds beyond that run on which a bot or the replay went wrong: seed 3442 (an
/// `efficient` seat declares an added kan right after its pon) and seed 12642 (a `dora`
/// event right after a discard makes the replay count the discard as a passed winning
/// tile, so the seat is furiten and lets a legal ron go).
const KNOWN_BAD_SEEDS: [u64; 2] = [3442, 12642];
/// Draws in a hand: 136 tiles, 14 in the dead wall, 52 dealt.
const LIVE_DRAWS: u8 = 70;
/// Where the dead wall's parts sit in the shuffled wall.
const DEAD: usize = 122;
const RINSHAN: usize = DEAD;
const DORA: usize = DEAD + 4;
const URA: usize = DEAD + 9;
/// Every so many seeds the dealer is dealt nine kinds of terminals and honors (a
/// permutation of the shuffled wall), so the nine-terminal abort is offered: dealt at
/// random it comes about once in a few thousand hands.
const NINE_TERMINAL_EVERY: u64 = 37;
/// Hands played with random legal answers.
const CHAOS_HANDS: u64 = 300;
const STRATEGIES: [Strategy; 3] = [Strategy::Balanced, Strategy::Efficient, Strategy::Classic];

// ---------------------------------------------------------------------------------------
// Tiles, the referee's own way

const HONORS: [&str; 7] = ["E", "S", "W", "N", "P", "F", "C"];

fn name(t: Tile) -> String {
    if t.index >= 27 {
        HONORS[usize::from(t.index - 27)].to_string()
    } else {
        let suit = ["m", "p", "s"][usize::from(t.index / 9)];
        let red = if t.red { "r" } else { "" };
        format!("{}{suit}{red}", t.index % 9 + 1)
    }
}

fn parse(s: &str) -> Option<Tile> {
    if let Some(i) = HONORS.iter().position(|h| *h == s) {
        return Some(Tile {
            index: 27 + i as u8,
            red: false,
        });
    }
    let (digit, suit, red) = match s.as_bytes() {
        [d, s] => (*d, *s, false),
        [d, s, b'r'] => (*d, *s, true),
        _ => return None,
    };
    if !(b'1'..=b'9').contains(&digit) {
        return None;
    }
    let suit = match suit {
        b'm' => 0,
        b'p' => 1,
        b's' => 2,
        _ => return None,
    };
    let rank = digit - b'1';
    if red && rank != 4 {
        return None;
    }
    Some(Tile {
        index: suit * 9 + rank,
        red,
    })
}

fn names(tiles: &[Tile]) -> Vec<String> {
    tiles.iter().map(|&t| name(t)).collect()
}

fn terminal_or_honor(k: u8) -> bool {
    k >= 27 || k.is_multiple_of(9) || k % 9 == 8
}

type Counts = [u8; 34];

fn counts(tiles: &[Tile]) -> Counts {
    let mut c = [0; 34];
    for t in tiles {
        c[usize::from(t.index)] += 1;
    }
    c
}

/// Whether `c` splits into pungs and chows with no tile left over. The lowest kind
/// present can only start a pung or a chow, which makes the search short.
fn all_sets(c: &mut Counts) -> bool {
    let Some(k) = c.iter().position(|&n| n > 0) else {
        return true;
    };
    if c[k] >= 3 {
        c[k] -= 3;
        let ok = all_sets(c);
        c[k] += 3;
        if ok {
            return true;
        }
    }
    if k < 27 && k % 9 <= 6 && c[k + 1] > 0 && c[k + 2] > 0 {
        c[k] -= 1;
        c[k + 1] -= 1;
        c[k + 2] -= 1;
        let ok = all_sets(c);
        c[k] += 1;
        c[k + 1] += 1;
        c[k + 2] += 1;
        if ok {
            return true;
        }
    }
    false
}

/// Whether the concealed tiles `c`, beside `melds` declared melds, make a winning shape:
/// four sets and a pair, seven distinct pairs, or thirteen orphans.
fn complete(c: &Counts, melds: usize) -> bool {
    let total: usize = c.iter().map(|&n| usize::from(n)).sum();
    if melds > 4 || total != 14 - 3 * melds {
        return false;
    }
    let mut w = *c;
    for k in 0..34 {
        if w[k] >= 2 {
            w[k] -= 2;
            let ok = all_sets(&mut w);
            w[k] += 2;
            if ok {
                return true;
            }
        }
    }
    if melds == 0 {
        if c.iter().filter(|&&n| n == 2).count() == 7 {
            return true;
        }
        let orphans = (0..34u8).all(|k| (c[usize::from(k)] > 0) == terminal_or_honor(k));
        if orphans {
            return true;
        }
    }
    false
}

/// Kinds that complete a hand of 13 − 3n tiles (a kind the hand holds four of cannot
/// come, so it is no wait).
fn waits(hand: &[Tile], melds: usize) -> Vec<u8> {
    let c = counts(hand);
    (0..34u8)
        .filter(|&k| {
            let mut w = c;
            w[usize::from(k)] += 1;
            c[usize::from(k)] < 4 && complete(&w, melds)
        })
        .collect()
}

/// Kinds a seat may not discard right after its chi of `called` with `own`: the called
/// kind, and the far end of a two-sided wait it filled (chi 3 with 45: 3 and 6).
fn chi_kuikae(called: u8, own: [u8; 2]) -> Vec<u8> {
    let (lo, hi) = (own[0].min(own[1]), own[0].max(own[1]));
    let mut out = vec![called];
    if lo == called + 1 && hi == called + 2 && called % 9 + 3 <= 8 {
        out.push(called + 3);
    }
    if hi + 1 == called && lo + 2 == called && called % 9 >= 3 {
        out.push(called - 3);
    }
    out
}

/// Removes the exact copies `take` (red flag included) from `hand`; `false` (and `hand`
/// unchanged) if one is missing.
fn take_exact(hand: &mut Vec<Tile>, take: &[Tile]) -> bool {
    let mut left = hand.clone();
    for t in take {
        match left.iter().position(|h| h == t) {
            Some(i) => {
                left.remove(i);
            }
            None => return false,
        }
    }
    *hand = left;
    true
}

fn sorted(tiles: &[Tile]) -> Vec<Tile> {
    let mut v = tiles.to_vec();
    v.sort();
    v
}

// ---------------------------------------------------------------------------------------
// The referee

/// What one seat's answer to a discard (or an added kan) asks for.
#[derive(Debug, Clone, PartialEq)]
enum Response {
    Pass,
    Ron,
    Pon([Tile; 2]),
    Chi([Tile; 2]),
    Kan([Tile; 3]),
}

/// What comes next in the hand.
enum Step {
    Draw {
        seat: u8,
        rinshan: bool,
    },
    Act {
        seat: u8,
        drawn: Option<Tile>,
        rinshan: bool,
    },
    Over,
}

/// Actions seen over a run, so that the test notices when it stops covering one.
#[derive(Debug, Default, Clone)]
struct Stats {
    hands: u64,
    lines: u64,
    dahai: u64,
    tsumogiri: u64,
    reach: u64,
    chi: u64,
    pon: u64,
    daiminkan: u64,
    kakan: u64,
    ankan: u64,
    kan_dora: u64,
    tsumo: u64,
    ron: u64,
    chankan: u64,
    rinshan_win: u64,
    nine_terminals: u64,
    exhaustive: u64,
    /// A discard that completes a seat's hand with a yaku, refused because the seat is
    /// furiten (the bot got furiten right where it matters).
    furiten_pass: u64,
    /// A legal ron the bot did not take (no rule is broken; the bot may decline).
    ron_declined: u64,
    /// A seat under 1,000 points with a ready closed hand, that may not declare riichi.
    poor_ready: u64,
    /// Answers replaced by a random legal action.
    random_answers: u64,
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        let fields = [
            (&mut self.hands, o.hands),
            (&mut self.lines, o.lines),
            (&mut self.dahai, o.dahai),
            (&mut self.tsumogiri, o.tsumogiri),
            (&mut self.reach, o.reach),
            (&mut self.chi, o.chi),
            (&mut self.pon, o.pon),
            (&mut self.daiminkan, o.daiminkan),
            (&mut self.kakan, o.kakan),
            (&mut self.ankan, o.ankan),
            (&mut self.kan_dora, o.kan_dora),
            (&mut self.tsumo, o.tsumo),
            (&mut self.ron, o.ron),
            (&mut self.chankan, o.chankan),
            (&mut self.rinshan_win, o.rinshan_win),
            (&mut self.nine_terminals, o.nine_terminals),
            (&mut self.exhaustive, o.exhaustive),
            (&mut self.furiten_pass, o.furiten_pass),
            (&mut self.ron_declined, o.ron_declined),
            (&mut self.poor_ready, o.poor_ready),
            (&mut self.random_answers, o.random_answers),
        ];
        for (a, b) in fields {
            *a += b;
        }
    }
}

/// An illegal answer, a replay that disagrees with the truth, or a panic.
#[derive(Debug)]
struct Failure {
    seed: u64,
    seat: u8,
    /// The last line the seat got and its answer.
    line: String,
    answer: String,
    message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "seed {} seat {}: {}", self.seed, self.seat, self.message)?;
        writeln!(f, "  line:   {}", self.line)?;
        writeln!(f, "  answer: {}", self.answer)?;
        write!(
            f,
            "  whole hand: SELFPLAY_SEED={} cargo test --test api mjai_selfplay::transcript -- --ignored --nocapture",
            self.seed
        )
    }
}

type Res<T> = Result<T, Failure>;

/// One seat: its bot and the truth about it.
struct Player {
    session: Session,
    hand: Vec<Tile>,
    melds: Vec<Meld>,
    /// Kinds of every tile the seat discarded this hand, called ones too.
    discarded: Vec<u8>,
    /// The riichi discard is made.
    riichi: bool,
    riichi_accepted: bool,
    double_riichi: bool,
    ippatsu: bool,
    /// Has not discarded yet this hand.
    first_turn: bool,
    /// Let a winning tile pass since its last discard.
    temp_furiten: bool,
    /// Let a winning tile pass after its riichi.
    riichi_furiten: bool,
    /// Kinds it may not discard now, after its own chi or pon.
    kuikae: Vec<u8>,
    /// Events not yet sent to the seat.
    outbox: Vec<Value>,
}

struct Game {
    seed: u64,
    wall: Vec<Tile>,
    next_live: usize,
    rinshan_taken: usize,
    /// Draws made, replacement draws included.
    draws: u8,
    dora_shown: usize,
    /// Open and added kans whose dora shows after the next discard.
    pending_dora: usize,
    kans: usize,
    players: [Player; 4],
    /// (seat, tile, tsumogiri, called).
    river: Vec<(u8, Tile, bool, bool)>,
    scores: [i32; 4],
    kyotaku: u32,
    honba: u32,
    dealer: u8,
    round_wind: u8,
    kyoku: u8,
    any_call: bool,
    /// The hand has ended (a win or a draw was announced).
    over: bool,
    stats: Stats,
    /// The last (seat, line, answer), for failures.
    last: (u8, String, String),
    /// Every (seat, line, answer) when asked for.
    transcript: Option<Vec<(u8, String, String)>>,
    /// When set, half of all answers are replaced by a random legal action
    /// (`legal_actions`), for the referee to check.
    chaos: Option<SplitMix64>,
}

/// An action object with its `consumed` tiles in a fixed order, for comparing.
fn normalized(mut action: Value) -> Value {
    if let Some(list) = action.get_mut("consumed").and_then(Value::as_array_mut) {
        list.sort_by_key(|v| v.to_string());
    }
    action
}

impl Game {
    fn new(seed: u64, record: bool) -> Self {
        let mut rng = SplitMix64::new(seed.wrapping_mul(0x9E37_79B9).wrapping_add(0x5E1F));
        let mut wall = Vec::with_capacity(136);
        for k in 0..34u8 {
            for copy in 0..4 {
                wall.push(Tile {
                    index: k,
                    red: k < 27 && k % 9 == 4 && copy == 0,
                });
            }
        }
        rng.shuffle(&mut wall);
        let round_wind = 27 + rng.below(2) as u8;
        let kyoku = 1 + rng.below(4) as u8;
        let dealer = kyoku - 1;
        let honba = rng.below(3) as u32;
        let kyotaku = rng.below(2) as u32;
        let mut scores = [25_000 - 250 * kyotaku as i32; 4];
        if rng.below(6) == 0 {
            // A seat that cannot pay for riichi.
            let poor = rng.below(4);
            scores[(poor + 1) % 4] += scores[poor] - 700;
            scores[poor] = 700;
        }
        if seed % NINE_TERMINAL_EVERY == NINE_TERMINAL_EVERY - 1 {
            rig_nine_terminals(&mut wall, &mut rng);
        }
        let players = std::array::from_fn(|s| {
            let i = (s + 4 - usize::from(dealer)) % 4;
            Player {
                session: Session::new(s as u8, STRATEGIES[(seed as usize + s) % 3]),
                hand: wall[13 * i..13 * i + 13].to_vec(),
                melds: Vec::new(),
                discarded: Vec::new(),
                riichi: false,
                riichi_accepted: false,
                double_riichi: false,
                ippatsu: false,
                first_turn: true,
                temp_furiten: false,
                riichi_furiten: false,
                kuikae: Vec::new(),
                outbox: Vec::new(),
            }
        });
        Self {
            seed,
            wall,
            next_live: 52,
            rinshan_taken: 0,
            draws: 0,
            dora_shown: 1,
            pending_dora: 0,
            kans: 0,
            players,
            river: Vec::new(),
            scores,
            kyotaku,
            honba,
            dealer,
            round_wind,
            kyoku,
            any_call: false,
            over: false,
            stats: Stats::default(),
            last: (0, String::new(), String::new()),
            transcript: record.then(Vec::new),
            chaos: None,
        }
    }

    fn fail<T>(&self, seat: u8, message: impl Into<String>) -> Res<T> {
        let (line, answer) = if self.last.0 == seat {
            (self.last.1.clone(), self.last.2.clone())
        } else {
            (String::new(), String::new())
        };
        Err(Failure {
            seed: self.seed,
            seat,
            line,
            answer,
            message: message.into(),
        })
    }

    fn p(&self, seat: u8) -> &Player {
        &self.players[usize::from(seat)]
    }

    fn pm(&mut self, seat: u8) -> &mut Player {
        &mut self.players[usize::from(seat)]
    }

    fn send_all(&mut self, event: Value) {
        for p in &mut self.players {
            p.outbox.push(event.clone());
        }
    }

    fn wall_left(&self) -> u8 {
        LIVE_DRAWS - self.draws
    }

    fn furiten(&self, seat: u8) -> bool {
        let p = self.p(seat);
        p.temp_furiten
            || p.riichi_furiten
            || waits(&p.hand, p.melds.len())
                .iter()
                .any(|k| p.discarded.contains(k))
    }

    /// Sends the seat its new events as one line and takes its one answer, then checks
    /// its replayed table against the truth.
    fn ask(&mut self, seat: u8) -> Res<Value> {
        let events = std::mem::take(&mut self.pm(seat).outbox);
        let line = Value::Array(events).to_string();
        self.stats.lines += 1;
        let reply = self.pm(seat).session.react(&line);
        let mut answer = match reply {
            Ok(v) => v,
            Err(e) => {
                self.last = (seat, line, String::new());
                return self.fail(seat, format!("the replay refused a legal log: {e}"));
            }
        };
        let legal: Vec<Value> = legal_actions(self.p(seat).session.table())
            .iter()
            .map(|a| normalized(action_value(seat, a)))
            .collect();
        if !legal.contains(&normalized(answer.clone())) {
            self.last = (seat, line, answer.to_string());
            return self.fail(
                seat,
                format!("the bot's answer is not among the legal actions {legal:?}"),
            );
        }
        if let Some(rng) = &mut self.chaos
            && rng.below(2) == 0
        {
            answer = legal[rng.below(legal.len())].clone();
            self.stats.random_answers += 1;
        }
        let text = answer.to_string();
        if let Some(t) = &mut self.transcript {
            t.push((seat, line.clone(), text.clone()));
        }
        self.last = (seat, line, text);
        self.check_sync(seat)?;
        let Some(ty) = answer.get("type").and_then(Value::as_str) else {
            return self.fail(seat, "the answer has no type");
        };
        if ty != "none" && answer.get("actor").and_then(Value::as_u64) != Some(u64::from(seat)) {
            return self.fail(seat, "the answer's actor is not the seat");
        }
        Ok(answer)
    }

    /// The seat's replayed table agrees with the truth.
    fn check_sync(&self, seat: u8) -> Res<()> {
        let t = self.p(seat).session.table();
        let p = self.p(seat);
        if sorted(&t.hand) != sorted(&p.hand) {
            return self.fail(
                seat,
                format!(
                    "replayed hand {:?} but the seat holds {:?}",
                    names(&sorted(&t.hand)),
                    names(&sorted(&p.hand))
                ),
            );
        }
        for (s, truth) in self.players.iter().enumerate() {
            let seen = &t.seats[s];
            let same_melds = seen.melds.len() == truth.melds.len()
                && seen
                    .melds
                    .iter()
                    .zip(&truth.melds)
                    .all(|(a, b)| a.kind == b.kind && sorted(&a.tiles) == sorted(&b.tiles));
            if !same_melds {
                return self.fail(
                    seat,
                    format!(
                        "seat {s}'s melds replayed as {:?}, truly {:?}",
                        seen.melds, truth.melds
                    ),
                );
            }
            if usize::from(seen.concealed) != truth.hand.len() {
                return self.fail(
                    seat,
                    format!(
                        "seat {s} holds {} concealed tiles, replayed as {}",
                        truth.hand.len(),
                        seen.concealed
                    ),
                );
            }
        }
        if t.wall_left() != self.wall_left() {
            return self.fail(
                seat,
                format!(
                    "replayed wall {} but {} tiles are left",
                    t.wall_left(),
                    self.wall_left()
                ),
            );
        }
        let shown = &self.wall[DORA..DORA + self.dora_shown];
        if t.dora_indicators != shown {
            return self.fail(
                seat,
                format!(
                    "replayed dora indicators {:?}, shown {:?}",
                    names(&t.dora_indicators),
                    names(shown)
                ),
            );
        }
        // A win takes the sticks, which mjai's `hora` does not say: the count only
        // matters within the hand (the next `start_kyoku` carries it).
        if t.scores != self.scores || (!self.over && t.kyotaku != self.kyotaku) {
            return self.fail(
                seat,
                format!(
                    "replayed scores {:?} and {} sticks, truly {:?} and {}",
                    t.scores, t.kyotaku, self.scores, self.kyotaku
                ),
            );
        }
        let river_ok = t.river.len() == self.river.len()
            && t.river
                .iter()
                .zip(&self.river)
                .all(|(a, b)| (a.seat, a.tile, a.tsumogiri, a.called) == (b.0, b.1, b.2, b.3));
        if !river_ok {
            return self.fail(seat, "the replayed river differs from the true one");
        }
        Ok(())
    }

    fn situation(&self, seat: u8, self_drawn: bool, rinshan: bool, chankan: bool) -> Situation {
        let p = self.p(seat);
        let last = self.wall_left() == 0;
        let first = p.first_turn && !self.any_call;
        let kinds = |from: usize| {
            self.wall[from..from + self.dora_shown]
                .iter()
                .map(|t| t.index)
                .collect()
        };
        Situation {
            self_drawn,
            riichi: p.riichi,
            double_riichi: p.double_riichi,
            ippatsu: p.ippatsu && p.riichi_accepted,
            rinshan: self_drawn && rinshan,
            chankan,
            haitei: self_drawn && last && !rinshan,
            houtei: !self_drawn && last && !chankan,
            tenhou: self_drawn && first && seat == self.dealer,
            chiihou: self_drawn && first && seat != self.dealer,
            seat_wind: 27 + (seat + 4 - self.dealer) % 4,
            round_wind: self.round_wind,
            dora_indicators: kinds(DORA),
            ura_indicators: if p.riichi { kinds(URA) } else { Vec::new() },
            honba: self.honba,
            kyotaku: self.kyotaku,
        }
    }

    /// The score of `seat` winning on `tile` (already in its hand when self-drawn), if the
    /// referee finds the hand complete and the crate's scoring finds a yaku.
    fn win_value(
        &self,
        seat: u8,
        tile: Tile,
        self_drawn: bool,
        rinshan: bool,
        chankan: bool,
    ) -> Result<HandScore, String> {
        let p = self.p(seat);
        let mut hand = p.hand.clone();
        if !self_drawn {
            hand.push(tile);
        }
        if !complete(&counts(&hand), p.melds.len()) {
            return Err(format!(
                "{:?} with {} melds is not a complete hand",
                names(&sorted(&hand)),
                p.melds.len()
            ));
        }
        let mut conc = TileCounts::default();
        for t in &hand {
            conc.add(t.index);
        }
        let reds = hand
            .iter()
            .chain(p.melds.iter().flat_map(|m| m.tiles.iter()))
            .filter(|t| t.red)
            .count() as u32;
        let sit = self.situation(seat, self_drawn, rinshan, chankan);
        score_hand(&conc, reds, &p.melds, tile.index, &sit)
            .ok_or_else(|| format!("{:?} has no yaku", names(&sorted(&hand))))
    }

    fn tile_field(&self, seat: u8, answer: &Value, field: &str) -> Res<Tile> {
        match answer.get(field).and_then(Value::as_str).and_then(parse) {
            Some(t) => Ok(t),
            None => self.fail(seat, format!("`{field}` is not a tile")),
        }
    }

    fn consumed<const N: usize>(&self, seat: u8, answer: &Value) -> Res<[Tile; N]> {
        let tiles: Option<Vec<Tile>> = answer
            .get("consumed")
            .and_then(Value::as_array)
            .and_then(|l| l.iter().map(|v| v.as_str().and_then(parse)).collect());
        match tiles.and_then(|v| <[Tile; N]>::try_from(v).ok()) {
            Some(a) => Ok(a),
            None => self.fail(seat, format!("`consumed` is not {N} tiles")),
        }
    }

    fn reveal_dora(&mut self) {
        self.dora_shown += 1;
        self.stats.kan_dora += 1;
        let marker = name(self.wall[DORA + self.dora_shown - 1]);
        self.send_all(json!({"type": "dora", "dora_marker": marker}));
    }

    fn play(&mut self) -> Res<()> {
        self.start();
        let mut step = Step::Draw {
            seat: self.dealer,
            rinshan: false,
        };
        loop {
            step = match step {
                Step::Draw { seat, rinshan } => {
                    let drawn = self.draw(seat, rinshan);
                    Step::Act {
                        seat,
                        drawn: Some(drawn),
                        rinshan,
                    }
                }
                Step::Act {
                    seat,
                    drawn,
                    rinshan,
                } => self.act(seat, drawn, rinshan)?,
                Step::Over => return Ok(()),
            };
        }
    }

    fn start(&mut self) {
        self.stats.hands += 1;
        for s in 0..4u8 {
            let tehais: Vec<Vec<String>> = (0..4u8)
                .map(|o| {
                    if o == s {
                        names(&self.p(o).hand)
                    } else {
                        vec!["?".to_string(); 13]
                    }
                })
                .collect();
            let start_game = json!({"type": "start_game", "id": s,
                "names": ["balanced", "efficient", "classic", "mixed"]});
            let start_kyoku = json!({"type": "start_kyoku",
                "bakaze": HONORS[usize::from(self.round_wind - 27)],
                "dora_marker": name(self.wall[DORA]), "kyoku": self.kyoku,
                "honba": self.honba, "kyotaku": self.kyotaku, "oya": self.dealer,
                "scores": self.scores, "tehais": tehais});
            let p = self.pm(s);
            p.outbox.push(start_game);
            p.outbox.push(start_kyoku);
        }
    }

    fn draw(&mut self, seat: u8, rinshan: bool) -> Tile {
        assert!(
            self.draws < LIVE_DRAWS,
            "referee: a draw from an empty wall"
        );
        let tile = if rinshan {
            self.rinshan_taken += 1;
            self.wall[RINSHAN + self.rinshan_taken - 1]
        } else {
            self.next_live += 1;
            self.wall[self.next_live - 1]
        };
        self.draws += 1;
        self.pm(seat).hand.push(tile);
        for o in 0..4u8 {
            let pai = if o == seat { name(tile) } else { "?".into() };
            self.pm(o)
                .outbox
                .push(json!({"type": "tsumo", "actor": seat, "pai": pai}));
        }
        tile
    }

    /// The seat holds 3n + 2 tiles and must act.
    fn act(&mut self, seat: u8, drawn: Option<Tile>, rinshan: bool) -> Res<Step> {
        let p = self.p(seat);
        if self.scores[usize::from(seat)] < 1000
            && drawn.is_some()
            && !p.riichi
            && p.melds.iter().all(|m| m.kind == MeldKind::ConcealedKong)
            && self.wall_left() >= 4
            && self.some_discard_is_ready(seat)
        {
            self.stats.poor_ready += 1;
        }
        let answer = self.ask(seat)?;
        let ty = answer["type"].as_str().unwrap_or_default().to_string();
        match ty.as_str() {
            "dahai" => {
                let (tile, tsumogiri) = self.check_dahai(seat, &answer, drawn, false)?;
                self.discard(seat, tile, tsumogiri, false)
            }
            "reach" => {
                self.check_reach(seat, drawn)?;
                self.stats.reach += 1;
                self.send_all(json!({"type": "reach", "actor": seat}));
                let answer = self.ask(seat)?;
                if answer["type"] != "dahai" {
                    return self.fail(seat, "after its reach the seat must discard");
                }
                let (tile, tsumogiri) = self.check_dahai(seat, &answer, drawn, true)?;
                self.discard(seat, tile, tsumogiri, true)
            }
            "hora" => {
                let tile = self.tile_field(seat, &answer, "pai")?;
                if drawn != Some(tile) {
                    return self.fail(seat, "a self-drawn win must name the very tile drawn");
                }
                if answer["target"] != seat {
                    return self.fail(seat, "a self-drawn win targets the seat itself");
                }
                if let Err(why) = self.win_value(seat, tile, true, rinshan, false) {
                    return self.fail(seat, format!("illegal tsumo: {why}"));
                }
                self.win(seat, seat, tile, rinshan, false)
            }
            "ryukyoku" => {
                let p = self.p(seat);
                let c = counts(&p.hand);
                let kinds = (0..34u8)
                    .filter(|&k| terminal_or_honor(k) && c[usize::from(k)] > 0)
                    .count();
                if drawn.is_none() || !p.first_turn || self.any_call || kinds < 9 {
                    return self.fail(
                        seat,
                        format!(
                            "nine-terminal abort with {kinds} kinds, first turn {}, a call before {}",
                            p.first_turn, self.any_call
                        ),
                    );
                }
                self.stats.nine_terminals += 1;
                self.send_all(json!({"type": "ryukyoku", "reason": "kyushukyuhai",
                    "deltas": [0, 0, 0, 0], "scores": self.scores}));
                self.end_hand()
            }
            "ankan" => {
                let consumed: [Tile; 4] = self.consumed(seat, &answer)?;
                self.check_kan_now(seat, drawn)?;
                let k = consumed[0].index;
                if consumed.iter().any(|t| t.index != k) {
                    return self.fail(seat, "a concealed kan is four of one kind");
                }
                let mut hand = self.p(seat).hand.clone();
                if !take_exact(&mut hand, &consumed) {
                    return self.fail(seat, "the concealed kan's tiles are not all held");
                }
                let p = self.p(seat);
                if p.riichi {
                    // In riichi a concealed kan may use the drawn tile only and must
                    // leave the waits as they were.
                    let mut before = p.hand.clone();
                    take_exact(&mut before, &[drawn.expect("checked")]);
                    let same = waits(&before, p.melds.len()) == waits(&hand, p.melds.len() + 1);
                    if drawn.map(|d| d.index) != Some(k) || !same {
                        return self.fail(seat, "this concealed kan changes the riichi hand");
                    }
                }
                let p = self.pm(seat);
                p.hand = hand;
                p.melds.push(Meld {
                    kind: MeldKind::ConcealedKong,
                    tiles: consumed.to_vec(),
                });
                self.after_kan();
                self.stats.ankan += 1;
                self.send_all(
                    json!({"type": "ankan", "actor": seat, "consumed": names(&consumed)}),
                );
                while self.pending_dora > 0 {
                    self.pending_dora -= 1;
                    self.reveal_dora();
                }
                self.reveal_dora();
                Ok(Step::Draw {
                    seat,
                    rinshan: true,
                })
            }
            "kakan" => {
                let tile = self.tile_field(seat, &answer, "pai")?;
                self.check_kan_now(seat, drawn)?;
                let p = self.p(seat);
                let Some(m) = p
                    .melds
                    .iter()
                    .position(|m| m.kind == MeldKind::Pung && m.tiles[0].index == tile.index)
                else {
                    return self.fail(seat, "an added kan needs a pon of the kind");
                };
                let mut hand = p.hand.clone();
                if !take_exact(&mut hand, &[tile]) {
                    return self.fail(seat, "the added tile is not held (exact copy)");
                }
                if p.riichi {
                    return self.fail(seat, "no added kan in riichi");
                }
                let pon = p.melds[m].tiles.clone();
                let p = self.pm(seat);
                p.hand = hand;
                p.melds[m].kind = MeldKind::Kong;
                p.melds[m].tiles.push(tile);
                self.after_kan();
                self.stats.kakan += 1;
                self.send_all(json!({"type": "kakan", "actor": seat, "pai": name(tile),
                    "consumed": names(&pon)}));
                while self.pending_dora > 0 {
                    self.pending_dora -= 1;
                    self.reveal_dora();
                }
                // The others may rob the added tile.
                let responses = self.responses(seat, tile, true)?;
                if let Some(&(winner, _)) = responses.iter().find(|r| r.1 == Response::Ron) {
                    return self.win(winner, seat, tile, false, true);
                }
                self.pass_by(seat, tile);
                self.pending_dora += 1;
                Ok(Step::Draw {
                    seat,
                    rinshan: true,
                })
            }
            other => self.fail(seat, format!("`{other}` where the seat must discard")),
        }
    }

    fn after_kan(&mut self) {
        self.kans += 1;
        self.any_call = true;
        for p in &mut self.players {
            p.ippatsu = false;
        }
    }

    /// A kan is allowed at this point of the turn (after a draw, with a replacement tile
    /// to come).
    fn check_kan_now(&self, seat: u8, drawn: Option<Tile>) -> Res<()> {
        if drawn.is_none() {
            return self.fail(seat, "no kan right after a call");
        }
        if self.wall_left() == 0 || self.kans >= 4 {
            return self.fail(seat, "no kan on the last tile or after four kans");
        }
        Ok(())
    }

    fn check_reach(&self, seat: u8, drawn: Option<Tile>) -> Res<()> {
        let p = self.p(seat);
        if drawn.is_none() {
            return self.fail(seat, "riichi right after a call");
        }
        if p.riichi {
            return self.fail(seat, "riichi twice");
        }
        if p.melds.iter().any(|m| m.kind != MeldKind::ConcealedKong) {
            return self.fail(seat, "riichi with an open hand");
        }
        if self.scores[usize::from(seat)] < 1000 {
            return self.fail(seat, "riichi with fewer than 1,000 points");
        }
        if self.wall_left() < 4 {
            return self.fail(seat, "riichi with fewer than four tiles left");
        }
        if !self.some_discard_is_ready(seat) {
            return self.fail(seat, "riichi with a hand no discard makes ready");
        }
        Ok(())
    }

    /// Some discard leaves the seat's 3n + 2 tiles ready.
    fn some_discard_is_ready(&self, seat: u8) -> bool {
        let p = self.p(seat);
        p.hand.iter().any(|&t| {
            let mut h = p.hand.clone();
            take_exact(&mut h, &[t]);
            !waits(&h, p.melds.len()).is_empty()
        })
    }

    /// A discard is legal: the exact copy is held, the tsumogiri flag tells the truth, no
    /// kuikae, the drawn tile after riichi, a ready hand after a riichi discard.
    fn check_dahai(
        &self,
        seat: u8,
        answer: &Value,
        drawn: Option<Tile>,
        declaring: bool,
    ) -> Res<(Tile, bool)> {
        let tile = self.tile_field(seat, answer, "pai")?;
        let Some(tsumogiri) = answer.get("tsumogiri").and_then(Value::as_bool) else {
            return self.fail(seat, "`tsumogiri` is not a boolean");
        };
        let p = self.p(seat);
        let held = p.hand.iter().filter(|&&t| t == tile).count();
        if held == 0 {
            return self.fail(seat, format!("{} is not held (exact copy)", name(tile)));
        }
        if tsumogiri && drawn != Some(tile) {
            return self.fail(seat, "tsumogiri of a tile that was not just drawn");
        }
        if !tsumogiri && held == usize::from(drawn == Some(tile)) {
            return self.fail(
                seat,
                "the only copy held is the drawn one: tsumogiri is true",
            );
        }
        if p.kuikae.contains(&tile.index) {
            return self.fail(
                seat,
                format!("kuikae: {} may not go right after the call", name(tile)),
            );
        }
        if p.riichi && !(tsumogiri && drawn == Some(tile)) {
            return self.fail(seat, "in riichi only the drawn copy may go");
        }
        if declaring {
            let mut h = p.hand.clone();
            take_exact(&mut h, &[tile]);
            if waits(&h, p.melds.len()).is_empty() {
                return self.fail(seat, "the riichi discard leaves the hand not ready");
            }
        }
        Ok((tile, tsumogiri))
    }

    fn discard(&mut self, seat: u8, tile: Tile, tsumogiri: bool, declaring: bool) -> Res<Step> {
        let any_call = self.any_call;
        let p = self.pm(seat);
        take_exact(&mut p.hand, &[tile]);
        p.discarded.push(tile.index);
        p.temp_furiten = false;
        p.kuikae.clear();
        if declaring {
            p.riichi = true;
            p.double_riichi = p.first_turn && !any_call;
        } else {
            p.ippatsu = false;
        }
        p.first_turn = false;
        self.river.push((seat, tile, tsumogiri, false));
        self.stats.dahai += 1;
        self.stats.tsumogiri += u64::from(tsumogiri);
        self.send_all(json!({"type": "dahai", "actor": seat, "pai": name(tile),
            "tsumogiri": tsumogiri}));
        while self.pending_dora > 0 {
            self.pending_dora -= 1;
            self.reveal_dora();
        }
        let responses = self.responses(seat, tile, false)?;
        if let Some(&(winner, _)) = responses.iter().find(|r| r.1 == Response::Ron) {
            return self.win(winner, seat, tile, false, false);
        }
        if declaring {
            let s = usize::from(seat);
            self.scores[s] -= 1000;
            self.kyotaku += 1;
            let p = self.pm(seat);
            p.riichi_accepted = true;
            p.ippatsu = true;
            let mut deltas = [0; 4];
            deltas[s] = -1000;
            self.send_all(
                json!({"type": "reach_accepted", "actor": seat, "deltas": deltas,
                "scores": self.scores}),
            );
        }
        self.pass_by(seat, tile);
        let call = responses
            .iter()
            .find(|r| matches!(r.1, Response::Pon(_) | Response::Kan(_)))
            .or_else(|| responses.iter().find(|r| matches!(r.1, Response::Chi(_))))
            .cloned();
        let Some((caller, call)) = call else {
            if self.wall_left() == 0 {
                return self.exhaustive();
            }
            return Ok(Step::Draw {
                seat: (seat + 1) % 4,
                rinshan: false,
            });
        };
        self.river.last_mut().expect("just discarded").3 = true;
        self.any_call = true;
        for p in &mut self.players {
            p.ippatsu = false;
        }
        let (kind, consumed, next) = match call {
            Response::Pon(c) => {
                self.pm(caller).kuikae = vec![tile.index];
                (MeldKind::Pung, c.to_vec(), None)
            }
            Response::Chi(c) => {
                self.pm(caller).kuikae = chi_kuikae(tile.index, [c[0].index, c[1].index]);
                (MeldKind::Chow, c.to_vec(), None)
            }
            Response::Kan(c) => {
                self.kans += 1;
                self.pending_dora += 1;
                (MeldKind::Kong, c.to_vec(), Some(()))
            }
            Response::Pass | Response::Ron => unreachable!("filtered above"),
        };
        let event = match kind {
            MeldKind::Pung => "pon",
            MeldKind::Chow => "chi",
            _ => "daiminkan",
        };
        match kind {
            MeldKind::Pung => self.stats.pon += 1,
            MeldKind::Chow => self.stats.chi += 1,
            _ => self.stats.daiminkan += 1,
        }
        let p = self.pm(caller);
        take_exact(&mut p.hand, &consumed);
        let mut tiles = consumed.clone();
        tiles.push(tile);
        p.melds.push(Meld { kind, tiles });
        self.send_all(json!({"type": event, "actor": caller, "target": seat,
            "pai": name(tile), "consumed": names(&consumed)}));
        Ok(match next {
            Some(()) => Step::Draw {
                seat: caller,
                rinshan: true,
            },
            None => Step::Act {
                seat: caller,
                drawn: None,
                rinshan: false,
            },
        })
    }

    /// Asks each other seat, in turn order from `from`, what it does with `tile` (a
    /// discard, or an added kan's tile when `chankan`), and checks each answer.
    fn responses(&mut self, from: u8, tile: Tile, chankan: bool) -> Res<Vec<(u8, Response)>> {
        let mut out = Vec::new();
        for i in 1..4 {
            let o = (from + i) % 4;
            let answer = self.ask(o)?;
            let table_furiten = self.p(o).session.table().furiten();
            if table_furiten != self.furiten(o) {
                let p = self.p(o);
                let wins = match self.win_value(o, tile, false, false, chankan) {
                    Ok(s) => format!("wins with {:?}", s.yaku),
                    Err(why) => format!("does not win: {why}"),
                };
                return self.fail(
                    o,
                    format!(
                        "replayed furiten {table_furiten}, truly {}: hand {:?}, {} melds, \
                         own discards {:?}; {} {wins}",
                        self.furiten(o),
                        names(&sorted(&p.hand)),
                        p.melds.len(),
                        p.discarded
                            .iter()
                            .map(|&k| name(Tile {
                                index: k,
                                red: false
                            }))
                            .collect::<Vec<_>>(),
                        name(tile)
                    ),
                );
            }
            let r = self.check_response(o, from, tile, &answer, chankan)?;
            out.push((o, r));
        }
        Ok(out)
    }

    fn check_response(
        &mut self,
        o: u8,
        from: u8,
        tile: Tile,
        answer: &Value,
        chankan: bool,
    ) -> Res<Response> {
        let ty = answer["type"].as_str().unwrap_or_default();
        if !matches!(ty, "none" | "hora" | "pon" | "chi" | "daiminkan") {
            return self.fail(o, format!("`{ty}` in answer to a discard"));
        }
        let could_win = self.win_value(o, tile, false, false, chankan).is_ok();
        if ty == "none" {
            if could_win && self.furiten(o) {
                self.stats.furiten_pass += 1;
            } else if could_win {
                self.stats.ron_declined += 1;
            }
            return Ok(Response::Pass);
        }
        if ty != "hora" && chankan {
            return self.fail(o, format!("`{ty}` on an added kan (only hora or none)"));
        }
        let named = self.tile_field(o, answer, "pai")?;
        if named != tile {
            return self.fail(
                o,
                format!("the answer names {}, not {}", name(named), name(tile)),
            );
        }
        if answer["target"] != from {
            return self.fail(o, format!("the target is not seat {from}"));
        }
        if ty == "hora" {
            if self.furiten(o) {
                return self.fail(o, "ron while furiten");
            }
            if let Err(why) = self.win_value(o, tile, false, false, chankan) {
                return self.fail(o, format!("illegal ron: {why}"));
            }
            return Ok(Response::Ron);
        }
        let p = self.p(o);
        if p.riichi {
            return self.fail(o, format!("`{ty}` in riichi"));
        }
        if self.wall_left() == 0 {
            return self.fail(o, format!("`{ty}` on the last discard"));
        }
        match ty {
            "pon" | "chi" => {
                let consumed: [Tile; 2] = self.consumed(o, answer)?;
                let mut hand = p.hand.clone();
                if !take_exact(&mut hand, &consumed) {
                    return self.fail(o, "the consumed tiles are not held (exact copies)");
                }
                let forbidden = if ty == "pon" {
                    if consumed.iter().any(|t| t.index != tile.index) {
                        return self.fail(o, "a pon takes two of the called kind");
                    }
                    vec![tile.index]
                } else {
                    if (from + 1) % 4 != o {
                        return self.fail(o, "chi from a seat other than the left one");
                    }
                    let mut ks = [consumed[0].index, consumed[1].index, tile.index];
                    ks.sort_unstable();
                    let run = ks[2] < 27
                        && ks[0] / 9 == ks[2] / 9
                        && ks[1] == ks[0] + 1
                        && ks[2] == ks[1] + 1;
                    if !run {
                        return self.fail(o, "the chi tiles do not make a sequence");
                    }
                    chi_kuikae(tile.index, [consumed[0].index, consumed[1].index])
                };
                if hand.iter().all(|t| forbidden.contains(&t.index)) {
                    return self.fail(o, "a call after which every tile is kuikae");
                }
                Ok(if ty == "pon" {
                    Response::Pon(consumed)
                } else {
                    Response::Chi(consumed)
                })
            }
            "daiminkan" => {
                let consumed: [Tile; 3] = self.consumed(o, answer)?;
                if consumed.iter().any(|t| t.index != tile.index) {
                    return self.fail(o, "an open kan takes three of the called kind");
                }
                let mut hand = p.hand.clone();
                if !take_exact(&mut hand, &consumed) {
                    return self.fail(o, "the consumed tiles are not held (exact copies)");
                }
                if self.kans >= 4 {
                    return self.fail(o, "a fifth kan");
                }
                Ok(Response::Kan(consumed))
            }
            other => self.fail(o, format!("`{other}` in answer to a discard")),
        }
    }

    /// Furiten for the seats that let `tile` (from `from`) pass although it completes
    /// their hand.
    fn pass_by(&mut self, from: u8, tile: Tile) {
        for o in (0..4u8).filter(|&o| o != from) {
            let p = self.pm(o);
            if waits(&p.hand, p.melds.len()).contains(&tile.index) {
                p.temp_furiten = true;
                if p.riichi {
                    p.riichi_furiten = true;
                }
            }
        }
    }

    fn win(&mut self, winner: u8, from: u8, tile: Tile, rinshan: bool, chankan: bool) -> Res<Step> {
        let self_drawn = winner == from;
        let score = match self.win_value(winner, tile, self_drawn, rinshan, chankan) {
            Ok(s) => s,
            Err(why) => return self.fail(winner, format!("referee: checked win fails: {why}")),
        };
        let w = usize::from(winner);
        let mut deltas = score.payments.deltas(winner, from, self.dealer);
        deltas[w] += 1000 * self.kyotaku as i32;
        self.kyotaku = 0;
        for (s, d) in self.scores.iter_mut().zip(deltas) {
            *s += d;
        }
        if self_drawn {
            self.stats.tsumo += 1;
        } else {
            self.stats.ron += 1;
        }
        self.stats.chankan += u64::from(chankan);
        self.stats.rinshan_win += u64::from(rinshan);
        let ura: Vec<String> = if self.p(winner).riichi {
            names(&self.wall[URA..URA + self.dora_shown])
        } else {
            Vec::new()
        };
        self.send_all(json!({"type": "hora", "actor": winner, "target": from,
            "pai": name(tile), "ura_markers": ura, "deltas": deltas, "scores": self.scores}));
        self.end_hand()
    }

    /// The wall is empty: ready seats take 3,000 points from the others.
    fn exhaustive(&mut self) -> Res<Step> {
        let ready: Vec<bool> = self
            .players
            .iter()
            .map(|p| !waits(&p.hand, p.melds.len()).is_empty())
            .collect();
        let n = ready.iter().filter(|&&r| r).count() as i32;
        let mut deltas = [0i32; 4];
        if (1..4).contains(&n) {
            for (d, &r) in deltas.iter_mut().zip(&ready) {
                *d = if r { 3000 / n } else { -3000 / (4 - n) };
            }
        }
        for (s, d) in self.scores.iter_mut().zip(deltas) {
            *s += d;
        }
        self.stats.exhaustive += 1;
        self.send_all(
            json!({"type": "ryukyoku", "reason": "fanpai", "tenpais": ready,
            "deltas": deltas, "scores": self.scores}),
        );
        self.end_hand()
    }

    /// `end_kyoku` and `end_game` to every seat, whose answer must be `none`.
    fn end_hand(&mut self) -> Res<Step> {
        self.over = true;
        self.send_all(json!({"type": "end_kyoku"}));
        self.send_all(json!({"type": "end_game"}));
        for s in 0..4 {
            let answer = self.ask(s)?;
            if answer["type"] != "none" {
                return self.fail(s, "an action after the hand is over");
            }
        }
        Ok(Step::Over)
    }
}

/// Moves nine different terminal and honor kinds into the dealer's first 13 tiles (the
/// dealer's share comes first in the wall), so that the dealer's first draw may abort.
fn rig_nine_terminals(wall: &mut [Tile], rng: &mut SplitMix64) {
    let mut kinds: Vec<u8> = (0..34u8).filter(|&k| terminal_or_honor(k)).collect();
    rng.shuffle(&mut kinds);
    for &k in &kinds[..9] {
        if wall[..13].iter().any(|t| t.index == k) {
            continue;
        }
        let from = (13..wall.len())
            .find(|&i| wall[i].index == k)
            .expect("four of each kind");
        // Give up a simple tile or a second copy, never a kind placed before.
        let to = (0..13)
            .find(|&i| {
                let h = wall[i].index;
                !terminal_or_honor(h) || wall[..13].iter().filter(|t| t.index == h).count() > 1
            })
            .expect("fewer than nine kinds so far leave a simple tile or a copy");
        wall.swap(from, to);
    }
}

/// Plays one seed; the failure, if any, and what the hand exercised.
fn play_seed(seed: u64, record: bool) -> (Game, Option<Failure>) {
    play(Game::new(seed, record))
}

fn play(mut game: Game) -> (Game, Option<Failure>) {
    let seed = game.seed;
    let result = catch_unwind(AssertUnwindSafe(|| game.play()));
    let failure = match result {
        Ok(Ok(())) => None,
        Ok(Err(f)) => Some(f),
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let (seat, line, answer) = game.last.clone();
            Some(Failure {
                seed,
                seat,
                line,
                answer,
                message: format!("panicked: {message}"),
            })
        }
    };
    (game, failure)
}

#[test]
fn four_bots_play_legal_hands_and_every_replay_matches_the_truth() {
    let started = Instant::now();
    // SELFPLAY_HANDS plays more seeds, for a longer hunt.
    let hands: u64 = std::env::var("SELFPLAY_HANDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(HANDS);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4)) as u64;
    let results: Vec<(Stats, Vec<Failure>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|i| {
                scope.spawn(move || {
                    let mut stats = Stats::default();
                    let mut failures = Vec::new();
                    for seed in (i..hands).step_by(threads as usize) {
                        let (game, failure) = play_seed(seed, false);
                        stats.add(&game.stats);
                        failures.extend(failure);
                    }
                    (stats, failures)
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let mut stats = Stats::default();
    let mut failures = Vec::new();
    for (s, f) in results {
        stats.add(&s);
        failures.extend(f);
    }
    failures.sort_by_key(|f| f.seed);
    eprintln!(
        "self-play: {hands} hands in {:.1} s: {stats:?}",
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} of {hands} hands went wrong:\n{}",
        failures.len(),
        failures
            .iter()
            .map(|f| f.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
    // The run must keep covering every kind of answer the bots give; daiminkan is not
    // among them (no strategy declares an open kan), nor chankan (too rare to count on).
    let covered = [
        ("riichi", stats.reach),
        ("chi", stats.chi),
        ("pon", stats.pon),
        ("concealed or added kan", stats.ankan + stats.kakan),
        ("kan dora", stats.kan_dora),
        ("tsumo", stats.tsumo),
        ("ron", stats.ron),
        ("nine-terminal abort", stats.nine_terminals),
        ("exhaustive draw", stats.exhaustive),
        ("tsumogiri", stats.tsumogiri),
        ("ready hand too poor for riichi", stats.poor_ready),
        ("furiten pass", stats.furiten_pass),
    ];
    for (what, n) in covered {
        assert!(n > 0, "no {what} in {hands} hands: {stats:?}");
    }
}

/// Seats that often take a random one of their legal actions instead of the
/// bot's: the referee accepts every action `legal_actions` offers, and the
/// replays stay true. Covers what no bot does (open kans, odd calls and
/// riichi discards, declining wins).
#[test]
fn random_legal_actions_are_legal_and_replay_cleanly() {
    let mut stats = Stats::default();
    let mut failures = Vec::new();
    for seed in 0..CHAOS_HANDS {
        let mut game = Game::new(seed, false);
        game.chaos = Some(SplitMix64::new(seed ^ 0xC4A0_5EED));
        let (game, failure) = play(game);
        stats.add(&game.stats);
        failures.extend(failure.map(|f| f.to_string()));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for (what, n) in [
        ("random answer", stats.random_answers),
        ("open kan", stats.daiminkan),
        ("chi", stats.chi),
        ("pon", stats.pon),
        ("riichi", stats.reach),
    ] {
        assert!(n > 0, "no {what} in {CHAOS_HANDS} hands: {stats:?}");
    }
}

#[test]
fn seeds_that_went_wrong_play_clean() {
    let failures: Vec<String> = KNOWN_BAD_SEEDS
        .iter()
        .filter_map(|&seed| play_seed(seed, false).1)
        .map(|f| f.to_string())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Prints every line and answer of one seed's hand (`SELFPLAY_SEED`, default 0).
#[test]
#[ignore = "a debugging aid: SELFPLAY_SEED=N ... -- --ignored --nocapture"]
fn transcript() {
    let seed = std::env::var("SELFPLAY_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let (game, failure) = play_seed(seed, true);
    for (seat, line, answer) in game.transcript.unwrap_or_default() {
        println!("seat {seat} <- {line}");
        println!("seat {seat} -> {answer}");
    }
    println!("{:?}", game.stats);
    if let Some(f) = failure {
        panic!("{f}");
    }
}

#[test]
fn the_referee_knows_complete_hands_and_kuikae() {
    let hand = |s: &[&str]| -> Vec<Tile> { s.iter().map(|n| parse(n).unwrap()).collect() };
    let four_sets = hand(&[
        "1m", "2m", "3m", "4p", "5pr", "6p", "7s", "8s", "9s", "E", "E", "E", "C", "C",
    ]);
    assert!(complete(&counts(&four_sets), 0));
    let pairs = hand(&[
        "1m", "1m", "3m", "3m", "5p", "5p", "7s", "7s", "9s", "9s", "E", "E", "C", "C",
    ]);
    assert!(complete(&counts(&pairs), 0));
    let orphans = hand(&[
        "1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "P", "F", "C", "C",
    ]);
    assert!(complete(&counts(&orphans), 0));
    // Four of a kind are not two pairs.
    let quad = hand(&[
        "1m", "1m", "1m", "1m", "5p", "5p", "7s", "7s", "9s", "9s", "E", "E", "C", "C",
    ]);
    assert!(!complete(&counts(&quad), 0));
    let open = hand(&["2m", "3m", "4m", "C", "C"]);
    assert!(complete(&counts(&open), 3));
    assert_eq!(waits(&hand(&["2m", "3m", "4m", "5m"]), 3), vec![1, 4]);
    // A hand waiting only on a kind it holds four of waits on nothing.
    assert!(waits(&hand(&["1m", "1m", "1m", "1m"]), 3).is_empty());
    assert_eq!(chi_kuikae(2, [3, 4]), vec![2, 5]);
    assert_eq!(chi_kuikae(5, [3, 4]), vec![5, 2]);
    assert_eq!(chi_kuikae(6, [7, 8]), vec![6]);
    assert_eq!(chi_kuikae(4, [3, 5]), vec![4]);
    for t in ["5mr", "5p", "E", "C", "9s"] {
        assert_eq!(name(parse(t).unwrap()), t);
    }
    assert!(parse("4mr").is_none() && parse("0m").is_none() && parse("Z").is_none());
}
