//! Gomoku arena: the engine (`gamebot::gomoku::Engine`) against the baseline
//! "ways to win" AI or any piskvork brain, on seeded openings, with its own
//! referee and pentanomial statistics.
//!
//! ```text
//! cargo run --release --example gomoku_arena -- --pairs 50 --seed 1 --ms 100
//!     [--size 15] [--rule freestyle|standard|renju] [--opening-stones 3]
//!     [--max-nodes N] [--verbose]
//!     [--opponent-brain PATH [--opponent-arg ARG]... [--opponent-dir DIR]]
//!     [--engine-brain PATH [--engine-arg ARG]... [--engine-dir DIR]]
//!     [--openings random|balanced] [--balance-nodes N] [--balance-eval E]
//!     [--book FILE] [--write-book FILE]
//!     [--sprt ELO0,ELO1 [--alpha 0.05] [--beta 0.05]]
//! cargo run --release --example gomoku_arena -- --pairs 100 --ms 300 \
//!     --opponent-brain /path/to/pbrain-other --opponent-dir /path/to --sprt -50,0
//! cargo run --release --example gomoku_arena -- --pairs 200 --ms 100 \
//!     --engine-brain target/release/pbrain-gamebot --opponent-brain old/pbrain-gamebot --sprt 0,10
//! cargo run --release --example gomoku_arena -- --check-rules 3000 --rule renju --seed 7
//! cargo run --release --example gomoku_arena -- --help
//! ```
//!
//! Defaults: 50 pairs, seed 1, 100 ms a move, 15×15 freestyle, 3 opening
//! stones, the baseline as the opponent.
//!
//! Each opening is played twice: once with the engine as black, once as
//! white (a game pair). Openings are random (a few stones near the centre,
//! see `openings.rs`), or, by default against a brain, balanced: random ones
//! kept only when the engine's node-capped search finds them close to even.
//! Balanced openings depend on the arena's build; to compare two builds
//! against the same opponent from the same openings, play a book
//! (`--book FILE`): `examples/gomoku_arena/books/` holds balanced ones for
//! 15×15 freestyle and renju, and `--write-book FILE` writes the openings a
//! run would play as one (and plays no games).
//!
//! Our side is the engine in this process, thinking `--ms` per move
//! (`Stop::after`), or `--max-nodes` nodes per move for fully reproducible
//! games, keeping its transposition table within a game. Against a brain at
//! `--ms T` it thinks what `pbrain-gamebot` would under `INFO timeout_turn T`
//! (`piskvork::Clock::budget`: T less a margin for pipes), with the table
//! `pbrain-gamebot` would size for the brain's memory allowance, so both sides
//! have the same time control. With `--engine-brain` our side is a brain
//! process too (an older `pbrain-gamebot`, say), so two builds meet through
//! the same protocol handling.
//!
//! The opponent is the baseline (see `baseline.rs`), or with
//! `--opponent-brain` an external piskvork brain told `INFO timeout_turn` =
//! `--ms` (driver: `brain.rs`). A brain that times out, crashes or plays an
//! illegal move (occupied, off the board, forbidden to black under renju)
//! loses the game: a forfeit, counted apart.
//!
//! The referee (`referee.rs`, written apart from the engine's rule code)
//! decides wins, overlines and black's renju prohibitions; it also replays
//! every move on the engine's board and reports any disagreement about
//! legality or wins (a disputed game, left out of the pair statistics).
//!
//! Reported: the engine's score (win 1, draw ½) per colour with a Wilson 95%
//! interval over games; the pentanomial counts over pairs with the score,
//! the Elo difference and its 95% interval (`stats.rs`); with `--sprt` the
//! log-likelihood ratio and the running wins, draws and losses after each
//! pair, stopping at a decision; forfeits; per game (when printed) and
//! overall, the wall time per move of each side and our engine's nodes per
//! second and depth. `--verbose` prints every
//! game's moves, opening included, for replay.

mod baseline;
mod brain;
mod openings;
mod referee;
mod stats;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Parser, ValueEnum};

use gamebot::gomoku::{self, Board, Engine, Limits, Point, Rule};
use gamebot::protocol::piskvork::{Clock, tt_mib_for};
use gamebot::rng::SplitMix64;
use gamebot::stop::Stop;

use baseline::WaysToWin;
use brain::{Brain, BrainCommand, Failure, Settings};
use openings::Openings;
use referee::{Colour, Grid, Verdict, cross_check};
use stats::{Decision, Pentanomial, Sprt, percentile, shown_elo, wilson};

/// The in-process engine's table against the baseline (no memory allowance
/// to match there).
const ENGINE_TT_MIB: usize = 64;

/// Default `--balance-eval`: a third of what the engine's search makes of an
/// open three its opponent has to answer (about 250–300), so a kept opening
/// gives one side an edge at most, never a threat. Random three-stone
/// openings that are no proven win mostly lie within ±150.
const BALANCE_EVAL: i32 = 100;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Outcome {
    EngineWon,
    EngineLost,
    Draw,
    /// The referee and the engine's board disagreed; the game was stopped.
    Disputed,
}

/// How a player lost a game other than by the opponent's five.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Forfeit {
    /// No move within the reply timeout.
    Timeout,
    /// The brain's process ended.
    Crashed,
    /// A move on an occupied point or off the board.
    Illegal,
    /// Black played a point forbidden under renju.
    Forbidden,
    /// No legal point left to play (every empty point forbidden to black).
    NoMove,
}

impl Forfeit {
    const ALL: [Forfeit; 5] = [
        Forfeit::Timeout,
        Forfeit::Crashed,
        Forfeit::Illegal,
        Forfeit::Forbidden,
        Forfeit::NoMove,
    ];

    fn describe(self) -> &'static str {
        match self {
            Forfeit::Timeout => "timed out",
            Forfeit::Crashed => "crashed",
            Forfeit::Illegal => "illegal move",
            Forfeit::Forbidden => "forbidden move",
            Forfeit::NoMove => "no legal move",
        }
    }
}

/// One side's moves in a game or a run.
#[derive(Default, Clone)]
struct SideStats {
    /// Wall time of each move, milliseconds.
    ms: Vec<f64>,
    /// Nodes and the sum of depths (the in-process engine only).
    nodes: u64,
    depth_sum: u64,
    searched: bool,
    /// Forfeits by kind, in [`Forfeit::ALL`] order.
    forfeits: [usize; 5],
}

impl SideStats {
    fn add(&mut self, other: &SideStats) {
        self.ms.extend_from_slice(&other.ms);
        self.nodes += other.nodes;
        self.depth_sum += other.depth_sum;
        self.searched |= other.searched;
        for (a, b) in self.forfeits.iter_mut().zip(other.forfeits) {
            *a += b;
        }
    }

    fn forfeit(&mut self, f: Forfeit) {
        let k = Forfeit::ALL.iter().position(|&g| g == f).expect("listed");
        self.forfeits[k] += 1;
    }

    fn max_ms(&self) -> f64 {
        self.ms.iter().copied().fold(0.0, f64::max)
    }

    fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / (self.ms.iter().sum::<f64>() / 1000.0).max(1e-9)
    }

    fn mean_depth(&self) -> f64 {
        self.depth_sum as f64 / self.ms.len().max(1) as f64
    }

    /// One game's line: moves, mean and max time, search figures.
    fn game_summary(&self) -> String {
        let mean = self.ms.iter().sum::<f64>() / self.ms.len().max(1) as f64;
        let mut s = format!(
            "{} moves, {mean:.1} ms a move (max {:.1} ms)",
            self.ms.len(),
            self.max_ms()
        );
        if self.searched {
            s.push_str(&format!(
                ", {:.0} nodes/s, depth {:.1}",
                self.nodes_per_second(),
                self.mean_depth()
            ));
        }
        s
    }

    /// The run's forfeits, `none` or `1 timed out, 2 crashed`.
    fn forfeit_summary(&self) -> String {
        let parts: Vec<String> = Forfeit::ALL
            .iter()
            .zip(self.forfeits)
            .filter(|&(_, k)| k > 0)
            .map(|(f, k)| format!("{k} {}", f.describe()))
            .collect();
        if parts.is_empty() {
            "none".to_string()
        } else {
            parts.join(", ")
        }
    }
}

/// How the in-process engine's searches are bounded.
#[derive(Clone, Copy, Debug)]
enum Think {
    Nodes(u64),
    Time(Duration),
}

/// A player for the whole run.
enum Player {
    /// Our engine, in this process.
    Engine {
        engine: Engine,
        think: Think,
    },
    Baseline(WaysToWin),
    /// A brain process, started afresh for each game.
    Brain {
        command: BrainCommand,
        settings: Settings,
    },
}

/// A player's seat in one game.
enum Seat<'a> {
    Engine {
        engine: &'a mut Engine,
        think: Think,
    },
    Baseline(&'a WaysToWin),
    Brain(Brain),
}

/// A player's answer when asked for a move.
enum Choice {
    Move(Point),
    Forfeit(Forfeit),
}

impl Player {
    /// Sits down for a new game (a brain is started here, off the clock).
    fn seat(&mut self) -> Result<Seat<'_>, String> {
        Ok(match self {
            Player::Engine { engine, think } => {
                engine.clear();
                Seat::Engine {
                    engine,
                    think: *think,
                }
            }
            Player::Baseline(ai) => Seat::Baseline(ai),
            Player::Brain { command, settings } => Seat::Brain(Brain::start(command, settings)?),
        })
    }

    fn describe(&self, ms: u64) -> String {
        match self {
            Player::Engine {
                think: Think::Nodes(n),
                ..
            } => format!("{n} nodes a move"),
            Player::Engine {
                think: Think::Time(budget),
                ..
            } if budget.as_millis() != u128::from(ms) => format!(
                "{ms} ms a move (searching {} ms, as pbrain-gamebot under timeout_turn {ms})",
                budget.as_millis()
            ),
            Player::Engine { .. } => format!("{ms} ms a move"),
            Player::Baseline(_) => "the baseline ways-to-win AI".to_string(),
            Player::Brain { command, settings } => format!(
                "brain {}, timeout_turn {} ms, rule {}",
                command.describe(),
                settings.timeout_turn_ms,
                brain::rule_number(settings.rule)
            ),
        }
    }
}

/// The board as the game goes: the referee's grid, the engine's board (for
/// the engine's search and the cross-check) and the moves.
struct Game {
    rule: Rule,
    grid: Grid,
    board: Board,
    moves: Vec<Point>,
}

impl Seat<'_> {
    fn choose(&mut self, game: &mut Game, me: Colour, stats: &mut SideStats) -> Choice {
        match self {
            Seat::Engine { engine, think } => {
                let (stop, limits) = match *think {
                    Think::Nodes(nodes) => (
                        Stop::never().with_node_limit(nodes),
                        Limits {
                            max_nodes: Some(nodes),
                            ..Limits::default()
                        },
                    ),
                    Think::Time(budget) => (Stop::after(budget), Limits::default()),
                };
                let t = Instant::now();
                let r = engine.search(&game.board, &limits, &stop);
                stats.ms.push(t.elapsed().as_secs_f64() * 1000.0);
                stats.nodes += r.nodes;
                stats.depth_sum += u64::from(r.depth);
                stats.searched = true;
                Choice::Move(r.best)
            }
            Seat::Baseline(ai) => {
                let t = Instant::now();
                let choice = ai.choose(&mut game.grid, me, game.rule);
                stats.ms.push(t.elapsed().as_secs_f64() * 1000.0);
                match choice {
                    Some(p) => Choice::Move(p),
                    None => Choice::Forfeit(Forfeit::NoMove),
                }
            }
            Seat::Brain(brain) => match brain.play(&game.moves, me) {
                Ok((p, took)) => {
                    stats.ms.push(took.as_secs_f64() * 1000.0);
                    Choice::Move(p)
                }
                Err(failure) => {
                    eprintln!(
                        "brain playing {me:?} after {} moves: {}",
                        game.moves.len(),
                        brain.explain(&failure)
                    );
                    Choice::Forfeit(match failure {
                        Failure::Timeout => Forfeit::Timeout,
                        Failure::Crashed(_) => Forfeit::Crashed,
                    })
                }
            },
        }
    }

    fn finish(self) {
        if let Seat::Brain(brain) = self {
            brain.finish();
        }
    }
}

/// One game's result.
struct GameRecord {
    outcome: Outcome,
    /// The loser's forfeit, if the game ended by one.
    forfeit: Option<Forfeit>,
    moves: Vec<Point>,
    engine: SideStats,
    opponent: SideStats,
}

/// Plays one game from `opening` with the engine as `engine_colour`. An
/// error is a player that could not be set up: it ends the run.
fn play_game(
    size: usize,
    rule: Rule,
    opening: &[Point],
    engine_colour: Colour,
    engine: &mut Player,
    opponent: &mut Player,
) -> Result<GameRecord, String> {
    let mut seats = [engine.seat()?, opponent.seat()?];
    let mut game = Game {
        rule,
        grid: Grid::new(size),
        board: Board::new(size, rule).expect("size checked"),
        moves: Vec::new(),
    };
    let mut sides = [SideStats::default(), SideStats::default()];
    let (outcome, forfeit) = run_game(&mut game, opening, engine_colour, &mut seats, &mut sides);
    for seat in seats {
        seat.finish();
    }
    if let Some(f) = forfeit {
        let loser = usize::from(outcome != Outcome::EngineLost);
        sides[loser].forfeit(f);
    }
    let [engine, opponent] = sides;
    Ok(GameRecord {
        outcome,
        forfeit,
        moves: game.moves,
        engine,
        opponent,
    })
}

/// The game loop from an empty `game`; `seats` and `sides` are [engine,
/// opponent]. Returns the outcome and the loser's forfeit, if any.
fn run_game(
    game: &mut Game,
    opening: &[Point],
    engine_colour: Colour,
    seats: &mut [Seat<'_>; 2],
    sides: &mut [SideStats; 2],
) -> (Outcome, Option<Forfeit>) {
    let n = game.grid.n;
    let rule = game.rule;
    let mut to_move = Colour::Black;
    let mut ply = 0usize;
    let loses = |c: Colour| {
        if c == engine_colour {
            Outcome::EngineLost
        } else {
            Outcome::EngineWon
        }
    };
    loop {
        if game.moves.len() == n * n {
            return (Outcome::Draw, None);
        }
        let p = if ply < opening.len() {
            opening[ply]
        } else {
            let k = usize::from(to_move != engine_colour);
            match seats[k].choose(game, to_move, &mut sides[k]) {
                Choice::Move(p) => p,
                Choice::Forfeit(f) => return (loses(to_move), Some(f)),
            }
        };
        ply += 1;
        let (x, y) = (p.0 as isize, p.1 as isize);
        if !game.grid.is_empty(x, y) {
            eprintln!("illegal move {p:?} by {to_move:?} (occupied or off the board)");
            return (loses(to_move), Some(Forfeit::Illegal));
        }
        // The engine's own view of the move, checked against the referee's.
        let engine_says_legal = game.board.is_legal(p);
        game.grid.set(x, y, to_move as u8);
        game.moves.push(p);
        let verdict = game.grid.judge(x, y, to_move, rule);
        if engine_says_legal != (verdict != Verdict::Forbidden) {
            eprintln!(
                "referee and engine disagree on the legality of {p:?} after {:?}",
                &game.moves[..game.moves.len() - 1]
            );
            return (Outcome::Disputed, None);
        }
        match verdict {
            Verdict::Forbidden => return (loses(to_move), Some(Forfeit::Forbidden)),
            Verdict::Win => {
                game.board.play(p);
                if game.board.winner().is_none() {
                    eprintln!(
                        "the engine's board does not see the win {p:?} in {:?}",
                        game.moves
                    );
                    return (Outcome::Disputed, None);
                }
                return (loses(to_move.other()), None);
            }
            Verdict::Continue => {
                game.board.play(p);
                if game.board.winner().is_some() {
                    eprintln!(
                        "the engine's board sees a win the referee does not: {:?}",
                        game.moves
                    );
                    return (Outcome::Disputed, None);
                }
            }
        }
        to_move = to_move.other();
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
enum OpeningMode {
    /// Random stones near the centre.
    Random,
    /// Random, kept only when the engine finds them close to even.
    Balanced,
}

/// Gomoku arena: the engine against the baseline ways-to-win AI or a
/// piskvork brain on seeded openings, each played once with the engine as
/// black and once as white, judged by a referee written apart from the
/// engine; pentanomial Elo and an optional SPRT.
#[derive(Parser, Debug)]
struct Args {
    /// Number of game pairs (one opening, each colour once); with --sprt, the most.
    #[arg(long, default_value_t = 50, value_name = "N")]
    pairs: usize,
    /// RNG seed for the openings.
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
    /// Time per move, in milliseconds: the in-process engine's (ignored with
    /// --max-nodes) and every brain's INFO timeout_turn.
    #[arg(long, default_value_t = 100, value_name = "N")]
    ms: u64,
    /// Board size.
    #[arg(long, default_value_t = 15, value_name = "N", value_parser = parse_size)]
    size: usize,
    /// Rule set.
    #[arg(long, default_value = "freestyle", value_name = "RULE", value_parser = rule_parser())]
    rule: Rule,
    /// Stones placed at random near the centre before play starts.
    #[arg(long, default_value_t = 3, value_name = "N")]
    opening_stones: usize,
    /// A node limit per move for the in-process engine instead of a time
    /// budget (fully reproducible games against the baseline).
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// Instead of the arena: GAMES random games checking that referee and engine agree.
    #[arg(long, value_name = "GAMES")]
    check_rules: Option<usize>,
    /// Print every game, not only the lost, disputed and forfeited ones.
    #[arg(long)]
    verbose: bool,
    /// The opponent: this piskvork brain, started for each game, instead of the baseline.
    #[arg(long, value_name = "PATH")]
    opponent_brain: Option<PathBuf>,
    /// An argument for the opponent brain (repeatable).
    #[arg(
        long = "opponent-arg",
        value_name = "ARG",
        allow_hyphen_values = true,
        requires = "opponent_brain"
    )]
    opponent_args: Vec<String>,
    /// The opponent brain's working directory.
    #[arg(long, value_name = "DIR", requires = "opponent_brain")]
    opponent_dir: Option<PathBuf>,
    /// Our side: this piskvork brain (an older pbrain-gamebot, say) instead
    /// of the engine in this process.
    #[arg(long, value_name = "PATH", conflicts_with = "max_nodes")]
    engine_brain: Option<PathBuf>,
    /// An argument for our brain (repeatable).
    #[arg(
        long = "engine-arg",
        value_name = "ARG",
        allow_hyphen_values = true,
        requires = "engine_brain"
    )]
    engine_args: Vec<String>,
    /// Our brain's working directory.
    #[arg(long, value_name = "DIR", requires = "engine_brain")]
    engine_dir: Option<PathBuf>,
    /// How openings are chosen [default: balanced against a brain, else random].
    #[arg(long, value_enum, value_name = "MODE")]
    openings: Option<OpeningMode>,
    /// Play the openings of this book (one a line, `x,y` points, black
    /// first), pair by pair, instead of drawing them: the same openings
    /// whatever the builds.
    #[arg(long, value_name = "FILE", conflicts_with = "openings")]
    book: Option<String>,
    /// Write the openings of `--pairs` pairs (as `--openings` and `--seed`
    /// choose them) to this file, as a book, and play no games.
    #[arg(long, value_name = "FILE")]
    write_book: Option<String>,
    /// Balanced openings: the engine's node budget for judging one.
    #[arg(long, default_value_t = 200_000, value_name = "N")]
    balance_nodes: u64,
    /// Balanced openings: the largest |eval| kept (an open three to answer is worth about 250-300).
    #[arg(long, default_value_t = BALANCE_EVAL, value_name = "E")]
    balance_eval: i32,
    /// Sequential test between two logistic Elo differences of the engine
    /// over the opponent, e.g. `0,10`: stops at a decision.
    #[arg(long, value_name = "ELO0,ELO1", value_parser = parse_sprt, allow_hyphen_values = true)]
    sprt: Option<(f64, f64)>,
    /// SPRT: the chance of accepting ELO1 when ELO0 holds.
    #[arg(long, default_value_t = 0.05, value_name = "P", value_parser = parse_probability)]
    alpha: f64,
    /// SPRT: the chance of accepting ELO0 when ELO1 holds.
    #[arg(long, default_value_t = 0.05, value_name = "P", value_parser = parse_probability)]
    beta: f64,
}

fn rule_parser() -> impl TypedValueParser<Value = Rule> {
    PossibleValuesParser::new(["freestyle", "standard", "renju"]).map(|r| match r.as_str() {
        "standard" => Rule::Standard,
        "renju" => Rule::Renju,
        _ => Rule::Freestyle,
    })
}

fn parse_size(s: &str) -> Result<usize, String> {
    let n: usize = s.parse().map_err(|e| format!("{e}"))?;
    if (gomoku::MIN_SIZE..=gomoku::MAX_SIZE).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "must be {}..={}",
            gomoku::MIN_SIZE,
            gomoku::MAX_SIZE
        ))
    }
}

fn parse_sprt(s: &str) -> Result<(f64, f64), String> {
    let (a, b) = s.split_once(',').ok_or("expected ELO0,ELO1")?;
    let elo = |t: &str| t.trim().parse::<f64>().map_err(|e| format!("`{t}`: {e}"));
    let (elo0, elo1) = (elo(a)?, elo(b)?);
    if elo0.is_finite() && elo1.is_finite() && elo0 < elo1 {
        Ok((elo0, elo1))
    } else {
        Err("ELO0 must be below ELO1".to_string())
    }
}

fn parse_probability(s: &str) -> Result<f64, String> {
    let p: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if p > 0.0 && p < 0.5 {
        Ok(p)
    } else {
        Err("must be between 0 and 0.5".to_string())
    }
}

/// A brain's command; a program path with a directory part is made absolute,
/// so that it still names the same file from the brain's working directory.
fn brain_command(
    program: &Path,
    args: &[String],
    dir: Option<&PathBuf>,
) -> Result<BrainCommand, String> {
    let program = if program.components().count() > 1 {
        std::fs::canonicalize(program).map_err(|e| format!("brain {}: {e}", program.display()))?
    } else {
        program.to_path_buf()
    };
    Ok(BrainCommand {
        program,
        args: args.to_vec(),
        dir: dir.cloned(),
    })
}

fn main() {
    let args = Args::parse();
    if let Some(games) = args.check_rules {
        let started = Instant::now();
        let (disagreements, compared, forbidden) =
            cross_check(args.seed, games, args.size, args.rule);
        for d in disagreements.iter().take(20) {
            println!("{d}");
        }
        println!(
            "rules check: {games} random {:?} games on {}x{}, {compared} points compared \
             ({forbidden} forbidden), {} disagreements, {:.1} s",
            args.rule,
            args.size,
            args.size,
            disagreements.len(),
            started.elapsed().as_secs_f64()
        );
        std::process::exit(i32::from(!disagreements.is_empty()));
    }
    // Errors return through `run`, so every brain process is dropped (killed) before exiting.
    if let Err(e) = run(&args) {
        eprintln!("gomoku arena: {e}");
        std::process::exit(2);
    }
}

fn run(args: &Args) -> Result<(), String> {
    let settings = Settings {
        size: args.size,
        rule: args.rule,
        timeout_turn_ms: args.ms,
        reply_timeout: brain::reply_timeout(args.ms),
    };
    let mut opponent = match &args.opponent_brain {
        Some(path) => Player::Brain {
            command: brain_command(path, &args.opponent_args, args.opponent_dir.as_ref())?,
            settings,
        },
        None => Player::Baseline(WaysToWin::new(args.size)),
    };
    let against_brain = args.opponent_brain.is_some();
    let mut engine = match &args.engine_brain {
        Some(path) => Player::Brain {
            command: brain_command(path, &args.engine_args, args.engine_dir.as_ref())?,
            settings,
        },
        None => {
            let think = match args.max_nodes {
                Some(nodes) => Think::Nodes(nodes),
                // The same clock the brain gets: what pbrain-gamebot thinks
                // when told only `INFO timeout_turn`.
                None if against_brain => Think::Time(
                    Clock {
                        timeout_turn: args.ms,
                        ..Clock::default()
                    }
                    .budget(),
                ),
                None => Think::Time(Duration::from_millis(args.ms)),
            };
            let tt_mib = if against_brain {
                tt_mib_for(brain::MAX_MEMORY)
            } else {
                ENGINE_TT_MIB
            };
            Player::Engine {
                engine: Engine::new(tt_mib),
                think,
            }
        }
    };
    let mode = args.openings.unwrap_or(if against_brain {
        OpeningMode::Balanced
    } else {
        OpeningMode::Random
    });
    let openings = match (&args.book, mode) {
        (Some(path), _) => Openings::Book(openings::read_book(path, args.size, args.rule)?),
        (None, OpeningMode::Random) => Openings::Random,
        (None, OpeningMode::Balanced) => Openings::Balanced {
            nodes: args.balance_nodes,
            max_eval: args.balance_eval,
        },
    };
    if let Some(path) = &args.write_book {
        return write_book(path, &openings, args);
    }
    if let Openings::Book(book) = &openings
        && book.len() < args.pairs
    {
        return Err(format!(
            "the book has {} openings, fewer than --pairs {}",
            book.len(),
            args.pairs
        ));
    }
    let sprt = args.sprt.map(|(elo0, elo1)| Sprt {
        elo0,
        elo1,
        alpha: args.alpha,
        beta: args.beta,
    });

    let mut rng = SplitMix64::new(args.seed);
    // [as black, as white]: (won, drawn, lost, disputed)
    let mut tally = [[0usize; 4]; 2];
    let mut penta = Pentanomial::default();
    let mut disputed_pairs = 0usize;
    let mut engine_stats = SideStats::default();
    let mut opponent_stats = SideStats::default();
    let mut rejected_openings = 0usize;
    let mut decision = None;
    let mut game_moves = 0usize;
    let mut pairs_played = 0usize;
    let started = Instant::now();
    for pair in 0..args.pairs {
        let open = openings.next(pair, &mut rng, args.size, args.opening_stones, args.rule)?;
        rejected_openings += open.rejected;
        if args.verbose
            && let Some(eval) = open.eval
        {
            println!(
                "pair {pair} opening {}: eval {eval:+} ({} rejected before it)",
                moves_line(&open.moves),
                open.rejected
            );
        }
        let mut half_points = 0usize;
        let mut disputed = false;
        for (side, colour) in [Colour::Black, Colour::White].into_iter().enumerate() {
            let record = play_game(
                args.size,
                args.rule,
                &open.moves,
                colour,
                &mut engine,
                &mut opponent,
            )?;
            game_moves += record.moves.len();
            let slot = match record.outcome {
                Outcome::EngineWon => 0,
                Outcome::Draw => 1,
                Outcome::EngineLost => 2,
                Outcome::Disputed => 3,
            };
            tally[side][slot] += 1;
            half_points += [2, 1, 0, 0][slot];
            disputed |= record.outcome == Outcome::Disputed;
            engine_stats.add(&record.engine);
            opponent_stats.add(&record.opponent);
            if args.verbose
                || record.forfeit.is_some()
                || matches!(record.outcome, Outcome::EngineLost | Outcome::Disputed)
            {
                print_game(pair, colour, &record);
            }
        }
        pairs_played += 1;
        if disputed {
            disputed_pairs += 1;
        } else {
            penta.add(half_points);
        }
        if let Some(sprt) = &sprt {
            let llr = penta.llr(sprt.elo0, sprt.elo1);
            // Every pair, so that a run stopped from outside still shows where it stood.
            let [won, drawn, lost] = [0, 1, 2].map(|slot| tally[0][slot] + tally[1][slot]);
            println!("pair {pair}: LLR {llr:.3}, engine +{won} ={drawn} -{lost}");
            decision = sprt.decide(llr);
            if decision.is_some() {
                break;
            }
        }
    }
    let wall = started.elapsed();

    println!(
        "gomoku arena: {} pairs, seed {}, {}x{} {:?}, {} opening stones, engine {}",
        pairs_played,
        args.seed,
        args.size,
        args.size,
        args.rule,
        args.opening_stones,
        engine.describe(args.ms)
    );
    if against_brain || args.engine_brain.is_some() {
        println!("opponent: {}", opponent.describe(args.ms));
    }
    match &openings {
        Openings::Balanced { nodes, max_eval } => println!(
            "openings: balanced, |eval| <= {max_eval} and no proven win at {nodes} nodes \
             ({rejected_openings} random openings rejected)"
        ),
        Openings::Book(book) => println!(
            "openings: the book {} ({} openings)",
            args.book.as_deref().unwrap_or_default(),
            book.len()
        ),
        Openings::Random => {}
    }
    println!("| engine as | games | won | drawn | lost | disputed | score [95% CI] |");
    println!("|---|---|---|---|---|---|---|");
    let mut total = [0usize; 4];
    for (side, name) in ["black", "white"].iter().enumerate() {
        let t = tally[side];
        for (k, v) in t.iter().enumerate() {
            total[k] += v;
        }
        print_row(name, t);
    }
    print_row("both", total);

    let c = penta.counts;
    println!(
        "pairs by the engine's points (0, 1/2, 1, 3/2, 2): {} {} {} {} {}{}",
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        if disputed_pairs > 0 {
            format!(" ({disputed_pairs} pairs with a disputed game left out)")
        } else {
            String::new()
        }
    );
    if let Some(e) = penta.estimate() {
        println!(
            "pentanomial: score {:.1}% [{:.1}%, {:.1}%], Elo {} [95% CI {}, {}]{}",
            100.0 * e.score,
            100.0 * e.score_low,
            100.0 * e.score_high,
            shown_elo(e.elo),
            shown_elo(e.elo_low),
            shown_elo(e.elo_high),
            if e.variance == 0.0 {
                " (every pair scored the same: no spread to measure yet)"
            } else {
                ""
            }
        );
    }
    if let Some(sprt) = &sprt {
        let (lower, upper) = sprt.bounds();
        let verdict = match decision {
            Some(Decision::H1) => format!("H1 accepted: Elo >= {}", sprt.elo1),
            Some(Decision::H0) => format!("H0 accepted: Elo <= {}", sprt.elo0),
            None => "no decision: pairs exhausted".to_string(),
        };
        println!(
            "SPRT Elo {} vs {} (alpha {}, beta {}): LLR {:.3} in [{lower:.3}, {upper:.3}]: \
             {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            penta.llr(sprt.elo0, sprt.elo1)
        );
    }
    println!(
        "forfeits: engine {}; opponent {}",
        engine_stats.forfeit_summary(),
        opponent_stats.forfeit_summary()
    );
    print_side("engine", &engine_stats);
    print_side("opponent", &opponent_stats);
    println!(
        "{} games, {:.1} moves a game, wall {:.1} s",
        2 * pairs_played,
        game_moves as f64 / (2 * pairs_played).max(1) as f64,
        wall.as_secs_f64()
    );
    Ok(())
}

/// Writes the openings of `args.pairs` pairs to `path`, one a line, with the
/// engine's eval of each as a comment (balanced openings).
fn write_book(path: &str, openings: &Openings, args: &Args) -> Result<(), String> {
    let mut rng = SplitMix64::new(args.seed);
    let mut text = format!(
        "# {} openings, {}x{} {:?}, {} stones, seed {}\n",
        args.pairs, args.size, args.size, args.rule, args.opening_stones, args.seed
    );
    for pair in 0..args.pairs {
        let open = openings.next(pair, &mut rng, args.size, args.opening_stones, args.rule)?;
        text.push_str(&moves_line(&open.moves));
        if let Some(eval) = open.eval {
            text.push_str(&format!("  # eval {eval:+}"));
        }
        text.push('\n');
    }
    std::fs::write(path, text).map_err(|e| format!("{path}: {e}"))?;
    println!("{} openings written to {path}", args.pairs);
    Ok(())
}

fn moves_line(moves: &[Point]) -> String {
    let line: Vec<String> = moves.iter().map(|(x, y)| format!("{x},{y}")).collect();
    line.join(" ")
}

fn print_game(pair: usize, colour: Colour, record: &GameRecord) {
    let forfeit = match record.forfeit {
        Some(f) => format!(
            " ({} forfeits: {})",
            if record.outcome == Outcome::EngineLost {
                "engine"
            } else {
                "opponent"
            },
            f.describe()
        ),
        None => String::new(),
    };
    println!(
        "pair {pair} engine {colour:?}: {:?}{forfeit} in {} moves: {}",
        record.outcome,
        record.moves.len(),
        moves_line(&record.moves)
    );
    println!(
        "    engine {}; opponent {}",
        record.engine.game_summary(),
        record.opponent.game_summary()
    );
}

/// One side's time per move over the run.
fn print_side(name: &str, stats: &SideStats) {
    let mut ms = stats.ms.clone();
    ms.sort_by(f64::total_cmp);
    let mut line = format!(
        "{name}: {} moves, time per move median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        ms.len(),
        percentile(&ms, 0.5),
        percentile(&ms, 0.99),
        stats.max_ms(),
    );
    if stats.searched {
        line.push_str(&format!(
            "; {:.0} nodes/s; mean depth {:.1}",
            stats.nodes_per_second(),
            stats.mean_depth()
        ));
    }
    println!("{line}");
}

fn print_row(name: &str, t: [usize; 4]) {
    let games = t.iter().sum::<usize>() as f64;
    let score = t[0] as f64 + 0.5 * t[1] as f64;
    let (lo, hi) = wilson(score, games);
    println!(
        "| {name} | {} | {} | {} | {} | {} | {:.1}% [{:.1}%, {:.1}%] |",
        games,
        t[0],
        t[1],
        t[2],
        t[3],
        100.0 * score / games.max(1.0),
        100.0 * lo,
        100.0 * hi
    );
}
