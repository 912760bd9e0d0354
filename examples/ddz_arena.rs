//! Dou Dizhu arena: the play bot (`gamebot::doudizhu::bot`) against a fixed
//! opponent, on seeded random deals.
//!
//! ```text
//! cargo run --release --features testkit --example ddz_arena -- --deals 2000 --seed 1 --opponent rule
//!     [--budget-ms 200] [--verbose] [--landlord-only] [--oracle] [--no-infer] [--objective score]
//! cargo run --release --features testkit --example ddz_arena -- --help
//! ```
//!
//! `--opponent` is `random`, `rule` (the default) or `baseline` (`seed`, its
//! old name, is still accepted). Defaults: 200 deals, seed 1, 200 ms, the
//! `win` objective. The opponents here are written in this project; the
//! measurements against RLCard's own rule agent, on RLCard's engine, are
//! `scripts/rlcard_arena.sh`.
//!
//! `--oracle` is a measurement, not a player: the bot's search and rollouts
//! get the true hands of all seats instead of sampled deals (an upper bound
//! for what better inference of the hidden cards could gain). `--no-infer`
//! samples deals uniformly, without the bias from passes.
//!
//! Each deal is played twice: the bot as landlord against two copies of the
//! opponent, then the bot as both peasants against the opponent as landlord.
//! No bidding: seat 0 of the deal is the landlord and takes the 3 bottom cards.
//!
//! Opponents (implemented here, from the public engine API only):
//! * `random`: a uniformly random legal move (the pass included when following);
//! * `rule`: RLCard-style rules — leading, split the hand greedily (rocket,
//!   bombs, trios and planes, chains, pairs, solos) and play the group holding
//!   the lowest card; following, the lowest play of the same type; a peasant
//!   passes on its partner's play; otherwise a random legal move;
//! * `baseline` (formerly `seed`, still accepted): the prototype bot written
//!   from the seed documents, the classic split heuristic (hand value
//!   `Σ value − 7 × plays`) — lead the group leaving the best value; answer
//!   with the beating play that leaves the best value if no worse than
//!   passing; bomb only when the rest is one play; pass on the partner's play.
//!
//! Reported per role: the bot's win rate (WP, Wilson 95% interval) and average
//! difference in points (ADP, normal 95% interval) for the bot's side: the
//! landlord side wins or loses 2 points (1 per peasant), doubled per bomb or
//! rocket played. Also the bot's decision time (median, p99, max), measured
//! single-threaded.
//!
//! Bid calibration: the landlord games are also tallied by the bid strength
//! ([`gamebot::doudizhu::bid::strength`]) of the landlord's 17 dealt cards
//! (before the bottom cards), giving the bot's landlord win rate per strength
//! band. `--landlord-only` skips the peasant games for that purpose.

use std::time::{Duration, Instant};

use clap::{Parser, ValueEnum};

use gamebot::doudizhu::bot::{
    GameState, Objective, PlayOptions, SplitMix64, choose_play_with, random_deal,
};
use gamebot::doudizhu::endgame::Seat;
use gamebot::doudizhu::{Combo, ComboType, Hand, Rank, Rules, beats, legal_moves, split};
use gamebot::stop::Stop;

/// The fixed opponent the bot plays against.
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
enum Opp {
    /// A uniformly random legal move.
    Random,
    /// RLCard-style rules: lead the group holding the lowest card, follow low.
    Rule,
    /// The baseline bot: the classic split heuristic (`seed` is an old name).
    #[value(alias = "seed")]
    Baseline,
}

/// Dou Dizhu arena: the play bot against a fixed opponent on seeded random
/// deals, each deal played with the bot as landlord and as both peasants.
#[derive(Parser, Debug)]
struct Args {
    /// Number of deals (each is played twice unless --landlord-only).
    #[arg(long, default_value_t = 200, value_name = "N")]
    deals: usize,
    /// RNG seed for the deals and the opponents.
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
    /// The opponent.
    #[arg(long, value_enum, default_value_t = Opp::Rule)]
    opponent: Opp,
    /// The bot's time budget per decision, in milliseconds.
    #[arg(long, default_value_t = 200, value_name = "N")]
    budget_ms: u64,
    /// Print the win rates every 100 deals (on stderr).
    #[arg(long)]
    verbose: bool,
    /// Play only the games with the bot as landlord (for bid calibration).
    #[arg(long)]
    landlord_only: bool,
    /// Give the bot's search the true hands of all seats (a measurement, not a player).
    #[arg(long)]
    oracle: bool,
    /// Sample the hidden hands uniformly, without the bias from passes.
    #[arg(long)]
    no_infer: bool,
    /// What the bot plays for: `win` or `score` (points: bombs and springs).
    #[arg(long, value_enum, default_value_t = ObjectiveArg::Win)]
    objective: ObjectiveArg,
}

/// The bot's objective.
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
enum ObjectiveArg {
    Win,
    Score,
}

// --------------------------------------------------------------- opponents

/// Partner pass / standing-play info an opponent sees.
struct View<'a> {
    seat: Seat,
    hand: Hand,
    last: Option<(Seat, Combo)>,
    rules: &'a Rules,
}

fn all_moves(v: &View) -> Vec<Combo> {
    let standing = v.last.map(|(_, c)| c);
    let mut m = legal_moves(v.hand, standing.as_ref(), v.rules);
    if standing.is_some() {
        m.push(Combo::pass());
    }
    m
}

fn random_move(v: &View, rng: &mut SplitMix64) -> Combo {
    let m = all_moves(v);
    m[rng.below(m.len())]
}

fn solo_of(r: Rank, n: u32) -> Hand {
    Hand::of(r, n)
}

/// RLCard-style greedy split: rocket, bombs, trios and planes, solo chains,
/// pairs, solos.
fn greedy_groups(hand: Hand, rules: &Rules) -> Vec<Combo> {
    let mut h = hand;
    let mut out = Vec::new();
    let take = |h: &mut Hand, cards: Hand, out: &mut Vec<Combo>| {
        if let Some(c) = gamebot::doudizhu::classify(cards, rules) {
            *h = h.sub(cards);
            out.push(c);
        }
    };
    if h.count(Rank::BlackJoker) == 1 && h.count(Rank::RedJoker) == 1 {
        take(&mut h, Combo::ROCKET.cards, &mut out);
    }
    for r in Rank::ALL {
        if h.count(r) == 4 {
            take(&mut h, solo_of(r, 4), &mut out);
        }
    }
    // Trios, chained into planes where consecutive (3..A).
    let mut i = 0;
    while i < 13 {
        if h.count_at(i) >= 3 {
            let mut j = i;
            while j + 1 < 12 && h.count_at(j + 1) >= 3 && i < 12 {
                j += 1;
            }
            if i >= 12 {
                j = i;
            }
            let mut cards = Hand::EMPTY;
            for k in i..=j {
                cards = cards.add(solo_of(Rank::ALL[k], 3));
            }
            take(&mut h, cards, &mut out);
            i = j + 1;
        } else {
            i += 1;
        }
    }
    // Solo chains: repeatedly take the longest run of ≥ 5 ranks (3..A).
    loop {
        let mut best: Option<(usize, usize)> = None;
        let mut s = 0;
        while s < 12 {
            if h.count_at(s) == 0 {
                s += 1;
                continue;
            }
            let mut e = s;
            while e + 1 < 12 && h.count_at(e + 1) > 0 {
                e += 1;
            }
            if e + 1 - s >= 5 && best.is_none_or(|(bs, be)| e - s > be - bs) {
                best = Some((s, e));
            }
            s = e + 1;
        }
        let Some((s, e)) = best else { break };
        let mut cards = Hand::EMPTY;
        for k in s..=e {
            cards = cards.add(solo_of(Rank::ALL[k], 1));
        }
        take(&mut h, cards, &mut out);
    }
    for r in Rank::ALL {
        if h.count(r) >= 2 {
            take(&mut h, solo_of(r, 2), &mut out);
        }
    }
    for r in Rank::ALL {
        if h.count(r) >= 1 {
            take(&mut h, solo_of(r, 1), &mut out);
        }
    }
    out
}

fn rule_move(v: &View, rng: &mut SplitMix64) -> Combo {
    match v.last {
        None => {
            let groups = greedy_groups(v.hand, v.rules);
            let low = v.hand.lowest().expect("non-empty hand");
            *groups
                .iter()
                .find(|g| g.cards.count(low) > 0)
                .expect("the groups partition the hand")
        }
        Some((by, standing)) => {
            if !v.seat.is_landlord() && !by.is_landlord() {
                return Combo::pass();
            }
            let same = legal_moves(v.hand, Some(&standing), v.rules)
                .into_iter()
                .filter(|m| m.kind == standing.kind)
                .min_by_key(|m| m.rank);
            match same {
                Some(m) => m,
                None => random_move(v, rng),
            }
        }
    }
}

fn hand_value(h: Hand, rules: &Rules) -> i32 {
    if h.is_empty() {
        1000
    } else {
        split(h, rules).score
    }
}

fn baseline_move(v: &View) -> Combo {
    match v.last {
        None => {
            let sp = split(v.hand, v.rules);
            let mut best = sp.groups[0];
            let mut best_v = i32::MIN;
            for g in &sp.groups {
                let val = hand_value(v.hand.sub(g.cards), v.rules);
                if val > best_v {
                    best_v = val;
                    best = *g;
                }
            }
            best
        }
        Some((by, standing)) => {
            let moves = legal_moves(v.hand, Some(&standing), v.rules);
            if let Some(m) = moves.iter().find(|m| m.cards == v.hand) {
                return *m;
            }
            if !v.seat.is_landlord() && !by.is_landlord() {
                return Combo::pass();
            }
            let cur = hand_value(v.hand, v.rules);
            let mut best: Option<(i32, Combo)> = None;
            for m in moves.iter().filter(|m| !m.kind.is_bomb()) {
                let val = hand_value(v.hand.sub(m.cards), v.rules);
                if best.is_none_or(|(b, _)| val > b) {
                    best = Some((val, *m));
                }
            }
            if let Some((val, m)) = best
                && val >= cur
            {
                return m;
            }
            for b in moves.iter().filter(|m| m.kind.is_bomb()) {
                if split(v.hand.sub(b.cards), v.rules).plays <= 1 {
                    return *b;
                }
            }
            Combo::pass()
        }
    }
}

// ------------------------------------------------------------------- game

struct Outcome {
    landlord_won: bool,
    bombs: u32,
}

struct Timing {
    ms: Vec<f64>,
    searched: usize,
    reasons: std::collections::BTreeMap<&'static str, usize>,
}

#[allow(clippy::too_many_arguments)]
fn play_game(
    hands0: [Hand; 3],
    bottom: Hand,
    bot_seats: [bool; 3],
    opp: Opp,
    rules: &Rules,
    budget: Duration,
    rng: &mut SplitMix64,
    timing: &mut Timing,
    game_seed: u64,
    base: PlayOptions,
    oracle: bool,
) -> Outcome {
    let mut hands = hands0;
    let mut history: Vec<Hand> = Vec::new();
    let mut last: Option<(Seat, Combo)> = None;
    let mut seat = Seat::Landlord;
    let mut bombs = 0;
    loop {
        let i = seat.index();
        let mv = if bot_seats[i] {
            let st = GameState::from_history(seat, hands[i], &history, Some(bottom), *rules)
                .expect("arena histories are valid");
            let stop = Stop::after(budget);
            let t = Instant::now();
            let opts = PlayOptions {
                oracle: oracle.then_some(hands),
                ..base
            };
            // No shared cache, as in /doudizhu/play: the arena measures what
            // the service plays.
            let d = choose_play_with(&st, &stop, game_seed ^ history.len() as u64, None, &opts);
            timing.ms.push(t.elapsed().as_secs_f64() * 1000.0);
            if d.deals > 0 {
                timing.searched += 1;
            }
            *timing.reasons.entry(d.reason).or_default() += 1;
            if std::env::var_os("ARENA_TRACE").is_some() {
                eprintln!(
                    "  {seat:<13} [{}] -> {} ({}, eval {:?}, {} deals)",
                    hands[i], d.play, d.reason, d.evaluation, d.deals_solved
                );
            }
            d.play
        } else {
            let v = View {
                seat,
                hand: hands[i],
                last,
                rules,
            };
            match opp {
                Opp::Random => random_move(&v, rng),
                Opp::Rule => rule_move(&v, rng),
                Opp::Baseline => baseline_move(&v),
            }
        };
        if !bot_seats[i] && std::env::var_os("ARENA_TRACE").is_some() {
            eprintln!("  {seat:<13} [{}] -> {mv}", hands[i]);
        }
        // Referee.
        if mv.is_pass() {
            assert!(last.is_some(), "{seat} passed on a lead");
        } else {
            assert!(hands[i].contains(mv.cards), "{seat} played cards it lacks");
            if let Some((_, s)) = last {
                assert!(beats(&mv, &s), "{seat}: {mv} does not beat {s}");
            }
            hands[i] = hands[i].sub(mv.cards);
            if mv.kind.is_bomb() {
                bombs += 1;
            }
            last = Some((seat, mv));
            if hands[i].is_empty() {
                if std::env::var_os("ARENA_TRACE").is_some() {
                    eprintln!("  == {seat} out; bombs {bombs}");
                }
                return Outcome {
                    landlord_won: seat.is_landlord(),
                    bombs,
                };
            }
        }
        history.push(mv.cards);
        seat = seat.next();
        if let Some((by, _)) = last
            && by == seat
        {
            last = None;
        }
    }
}

// ------------------------------------------------------------------ stats

#[derive(Default)]
struct RoleStats {
    n: usize,
    wins: usize,
    points: Vec<f64>,
}

impl RoleStats {
    fn add(&mut self, won: bool, pts: f64) {
        self.n += 1;
        self.wins += usize::from(won);
        self.points.push(pts);
    }

    fn wilson(&self) -> (f64, f64, f64) {
        let n = self.n as f64;
        let p = self.wins as f64 / n;
        let z = 1.96f64;
        let den = 1.0 + z * z / n;
        let centre = (p + z * z / (2.0 * n)) / den;
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / den;
        (p, centre - half, centre + half)
    }

    fn adp(&self) -> (f64, f64) {
        let n = self.points.len() as f64;
        let mean = self.points.iter().sum::<f64>() / n;
        let var = self.points.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        (mean, 1.96 * (var / n).sqrt())
    }
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let idx = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[idx]
}

fn main() {
    let args = Args::parse();
    let rules = Rules::default();
    let budget = Duration::from_millis(args.budget_ms);
    let mut deal_rng = SplitMix64::new(args.seed);
    let mut opp_rng = SplitMix64::new(args.seed ^ 0x5EED_0FF0);
    let mut timing = Timing {
        ms: Vec::new(),
        searched: 0,
        reasons: Default::default(),
    };
    let mut as_landlord = RoleStats::default();
    let mut as_peasants = RoleStats::default();
    // Bid strength (clamped to 2..=20) -> (landlord games, landlord wins).
    let mut by_strength: std::collections::BTreeMap<i32, (usize, usize)> = Default::default();
    let base = PlayOptions {
        no_pass_inference: args.no_infer,
        objective: match args.objective {
            ObjectiveArg::Win => Objective::Win,
            ObjectiveArg::Score => Objective::Score,
        },
        ..PlayOptions::default()
    };
    let started = Instant::now();
    for d in 0..args.deals {
        let (hands, bottom) = random_deal(&mut deal_rng);
        let game_seed = args.seed.wrapping_mul(1_000_003).wrapping_add(d as u64);
        let o = play_game(
            hands,
            bottom,
            [true, false, false],
            args.opponent,
            &rules,
            budget,
            &mut opp_rng,
            &mut timing,
            game_seed,
            base,
            args.oracle,
        );
        let mult = f64::from(1u32 << o.bombs.min(20));
        let pts = 2.0 * mult;
        as_landlord.add(o.landlord_won, if o.landlord_won { pts } else { -pts });
        let (strength, _) = gamebot::doudizhu::bid::strength(hands[0].sub(bottom), &rules);
        let band = by_strength.entry(strength.clamp(2, 20)).or_insert((0, 0));
        band.0 += 1;
        band.1 += usize::from(o.landlord_won);
        if args.landlord_only {
            continue;
        }
        let o = play_game(
            hands,
            bottom,
            [false, true, true],
            args.opponent,
            &rules,
            budget,
            &mut opp_rng,
            &mut timing,
            game_seed ^ 0xABCD,
            base,
            args.oracle,
        );
        let mult = f64::from(1u32 << o.bombs.min(20));
        let pts = 2.0 * mult;
        as_peasants.add(!o.landlord_won, if o.landlord_won { -pts } else { pts });
        if args.verbose && (d + 1) % 100 == 0 {
            eprintln!(
                "{} deals: landlord WP {:.3}, peasants WP {:.3}",
                d + 1,
                as_landlord.wilson().0,
                as_peasants.wilson().0
            );
        }
    }
    let mut ms = timing.ms.clone();
    ms.sort_by(f64::total_cmp);
    println!(
        "opponent={:?} deals={} seed={} budget_ms={} wall={:.1}s",
        args.opponent,
        args.deals,
        args.seed,
        args.budget_ms,
        started.elapsed().as_secs_f64()
    );
    println!("role      | games | WP    | WP 95% CI       | ADP    | ADP 95% CI");
    for (name, s) in [("landlord", &as_landlord), ("peasants", &as_peasants)] {
        if s.n == 0 {
            continue;
        }
        let (p, lo, hi) = s.wilson();
        let (m, h) = s.adp();
        println!(
            "{name:<9} | {:>5} | {p:.3} | [{lo:.3}, {hi:.3}] | {m:+.3} | [{:+.3}, {:+.3}]",
            s.n,
            m - h,
            m + h
        );
    }
    // The bot's search and rollouts stop at 3/4 of the budget at the latest;
    // a decision that took that long was cut by time, not by its caps, and so
    // depends on the machine.
    let net_ms = args.budget_ms as f64 * 0.75;
    println!(
        "decisions={} searched={} median_ms={:.3} p99_ms={:.3} p99.9_ms={:.3} max_ms={:.3} cut_by_time={}",
        ms.len(),
        timing.searched,
        percentile(&ms, 0.5),
        percentile(&ms, 0.99),
        percentile(&ms, 0.999),
        ms.last().copied().unwrap_or(0.0),
        ms.iter().filter(|&&t| t >= net_ms).count()
    );
    let reasons: Vec<String> = timing
        .reasons
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    println!("reasons: {}", reasons.join(" "));
    let bands: Vec<String> = by_strength
        .iter()
        .map(|(s, (n, w))| format!("{s}:{w}/{n}"))
        .collect();
    println!(
        "landlord wins by bid strength of the 17 dealt cards (strength:wins/games, clamped to 2..20): {}",
        bands.join(" ")
    );
}

#[allow(dead_code)]
fn kind_name(k: ComboType) -> &'static str {
    k.as_str()
}
