//! The piskvork protocol (Gomocup's brain protocol) over text lines: a parser
//! for the manager's commands and [`Brain`], the state machine that answers
//! them with `gomoku::Engine`. `src/bin/pbrain-gamebot.rs` only moves lines
//! between stdin/stdout and this module, so everything here is testable
//! without a process.
//!
//! Replies: `OK`, `ERROR <message>`, `UNKNOWN <message>` or a move `x,y`
//! (column, row, 0-based: the engine's own coordinates). A search also prints
//! one `MESSAGE` line with depth, eval and nodes, which managers display.
//! Bad input never panics: it is answered with `ERROR`.
//!
//! Bounds on input: a line is at most [`MAX_LINE_BYTES`] long ([`read_input`]
//! skips a longer one without buffering it, and the brain answers `ERROR`); a
//! BOARD block holds at most one line per point of the board. Input echoed in
//! a reply is printable ASCII, cut short ([`shown`]).
//!
//! A BOARD block ends on `DONE`, or on any command keyword the brain knows
//! (a manager that gave up on the block, or lost its `DONE`): the unfinished
//! block is answered `ERROR` and dropped, the board stays as it was before
//! BOARD, and the command is then carried out as usual (so END still ends).

use std::io::BufRead;
use std::time::{Duration, Instant};

use crate::gomoku::{self, Board, Engine, Limits, Point, Rule};
use crate::stop::Stop;

/// What the brain answers to ABOUT.
pub const ABOUT: &str = concat!(
    "name=\"gamebot\", version=\"",
    env!("CARGO_PKG_VERSION"),
    "\", author=\"gamebot contributors\", country=\"unknown\""
);

/// A manager command, one line (BOARD's stone lines are read by [`Brain`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Start(usize),
    RectStart(usize, usize),
    Restart,
    Begin,
    Turn(Point),
    /// Starts a block of `x,y,field` lines ended by `DONE`.
    Board,
    Info {
        key: String,
        value: String,
    },
    Takeback(Point),
    /// Play this move as the brain's own and echo it.
    Play(Point),
    End,
    About,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("unknown command `{0}`")]
    Unknown(String),
    #[error("{command} expects {expected}, got `{got}`")]
    BadArguments {
        command: &'static str,
        expected: &'static str,
        got: String,
    },
}

fn bad(command: &'static str, expected: &'static str, got: &str) -> ParseError {
    ParseError::BadArguments {
        command,
        expected,
        got: shown(got),
    }
}

/// Every command keyword [`parse_command`] knows. One of them inside a BOARD
/// block ends the block (a stone line starts with a digit).
const KEYWORDS: [&str; 11] = [
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "INFO",
    "TAKEBACK",
    "PLAY",
    "END",
    "ABOUT",
];

/// The first word of a line, if it is one of [`KEYWORDS`] (in upper case).
fn known_keyword(line: &str) -> Option<&'static str> {
    let word = line.split(char::is_whitespace).next()?;
    KEYWORDS
        .iter()
        .copied()
        .find(|k| k.eq_ignore_ascii_case(word))
}

/// Most characters of input echoed in a reply.
const SHOWN_CHARS: usize = 40;

/// Input as it may be echoed in a reply: printable ASCII kept, anything else
/// escaped (`\u{1b}`), cut to about [`SHOWN_CHARS`] characters, so that raw
/// control bytes never reach the manager's log or terminal and a reply stays
/// one short line.
pub fn shown(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if out.len() >= SHOWN_CHARS {
            out.push_str("...");
            break;
        }
        if c == ' ' || c.is_ascii_graphic() {
            out.push(c);
        } else {
            out.extend(c.escape_default());
        }
    }
    out
}

/// Longest input line, line ending excluded. Manager lines are short (a
/// BOARD stone, an INFO folder path); a longer one is garbage.
pub const MAX_LINE_BYTES: usize = 4096;

/// One line of input as [`read_input`] delivers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A line without its line ending (bytes that aren't UTF-8 replaced).
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`], skipped: its bytes were read
    /// and dropped, not kept.
    TooLong,
}

/// Reads the next line, keeping at most [`MAX_LINE_BYTES`] (plus the line
/// ending) in memory whatever the input; `None` at the end of input.
pub fn read_input<R: BufRead>(reader: &mut R) -> std::io::Result<Option<Input>> {
    let keep = MAX_LINE_BYTES + 2; // room for CR LF
    let mut line = Vec::new();
    let mut too_long = false;
    let mut read_any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            if !read_any {
                return Ok(None);
            }
            break;
        }
        read_any = true;
        let (chunk, ended) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..=i], true),
            None => (available, false),
        };
        let n = chunk.len();
        if !too_long {
            if line.len() + n > keep {
                too_long = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        reader.consume(n);
        if ended {
            break;
        }
    }
    if too_long {
        return Ok(Some(Input::TooLong));
    }
    while matches!(line.last(), Some(b'\n' | b'\r')) {
        line.pop();
    }
    if line.len() > MAX_LINE_BYTES {
        return Ok(Some(Input::TooLong));
    }
    Ok(Some(Input::Line(
        String::from_utf8_lossy(&line).into_owned(),
    )))
}

/// Parses one non-empty command line (case-insensitive keyword, CR/LF and
/// surrounding blanks ignored).
pub fn parse_command(line: &str) -> Result<Command, ParseError> {
    let line = line.trim();
    let (keyword, rest) = match line.split_once(char::is_whitespace) {
        Some((k, r)) => (k, r.trim()),
        None => (line, ""),
    };
    let no_args = |command: Command, name: &'static str| {
        if rest.is_empty() {
            Ok(command)
        } else {
            Err(bad(name, "no arguments", rest))
        }
    };
    match keyword.to_ascii_uppercase().as_str() {
        "START" => rest
            .parse::<usize>()
            .map(Command::Start)
            .map_err(|_| bad("START", "a board size", rest)),
        "RECTSTART" => parse_pair(rest)
            .map(|(w, h)| Command::RectStart(w, h))
            .ok_or_else(|| bad("RECTSTART", "width,height", rest)),
        "RESTART" => no_args(Command::Restart, "RESTART"),
        "BEGIN" => no_args(Command::Begin, "BEGIN"),
        "BOARD" => no_args(Command::Board, "BOARD"),
        "END" => no_args(Command::End, "END"),
        "ABOUT" => no_args(Command::About, "ABOUT"),
        "TURN" => parse_pair(rest)
            .map(Command::Turn)
            .ok_or_else(|| bad("TURN", "x,y", rest)),
        "TAKEBACK" => parse_pair(rest)
            .map(Command::Takeback)
            .ok_or_else(|| bad("TAKEBACK", "x,y", rest)),
        "PLAY" => parse_pair(rest)
            .map(Command::Play)
            .ok_or_else(|| bad("PLAY", "x,y", rest)),
        "INFO" => {
            let (key, value) = match rest.split_once(char::is_whitespace) {
                Some((k, v)) => (k, v.trim()),
                None => (rest, ""),
            };
            if key.is_empty() {
                return Err(bad("INFO", "a key and a value", rest));
            }
            Ok(Command::Info {
                key: key.to_ascii_lowercase(),
                value: value.to_string(),
            })
        }
        _ => Err(ParseError::Unknown(shown(keyword))),
    }
}

/// `a,b` of two non-negative integers (blanks around either allowed).
fn parse_pair(s: &str) -> Option<(usize, usize)> {
    let (a, b) = s.split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// One line of a BOARD block: `x,y,field`, field 1 = own stone, 2 =
/// opponent's, 3 = a stone of a continuous game's winning line.
pub fn parse_board_line(s: &str) -> Option<(Point, u8)> {
    let mut parts = s.trim().split(',');
    let x = parts.next()?.trim().parse().ok()?;
    let y = parts.next()?.trim().parse().ok()?;
    let field = parts.next()?.trim().parse().ok()?;
    if parts.next().is_some() || !(1..=3).contains(&field) {
        return None;
    }
    Some(((x, y), field))
}

/// The rule of an `INFO rule` bitmask: 1 = exactly five wins, 4 = renju
/// (2 = continuous game and 8 = caro have no engine counterpart and are
/// ignored: caro is played as its nearest rule, exactly five).
pub fn rule_from_bits(bits: u32) -> Rule {
    if bits & 4 != 0 {
        Rule::Renju
    } else if bits & (1 | 8) != 0 {
        Rule::Standard
    } else {
        Rule::Freestyle
    }
}

/// The manager's time controls, in milliseconds, as INFO sends them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// Per move; 0 = play as fast as possible.
    pub timeout_turn: u64,
    /// Per game; 0 = no limit.
    pub timeout_match: u64,
    /// What is left of `timeout_match`, when the manager has said.
    pub time_left: Option<u64>,
}

impl Default for Clock {
    /// Gomocup's usual freestyle controls until the manager says otherwise.
    fn default() -> Self {
        Clock {
            timeout_turn: 5_000,
            timeout_match: 180_000,
            time_left: None,
        }
    }
}

/// Thinking time when the manager asks for moves "as fast as possible".
const FAST_MOVE: Duration = Duration::from_millis(10);
/// Never plan on fewer own moves than this for the rest of a game.
const MOVES_TO_PLAN_FOR: u64 = 20;

impl Clock {
    /// How long to think on this move: the per-move limit and a share of the
    /// game's remaining time, each less a safety margin for process and pipe
    /// latency (30 ms + 5%), never below a few milliseconds.
    pub fn budget(&self) -> Duration {
        let margin = |ms: u64| ms.saturating_sub(30 + ms / 20);
        let mut ms = if self.timeout_turn == 0 {
            FAST_MOVE.as_millis() as u64
        } else {
            margin(self.timeout_turn)
        };
        if self.timeout_match > 0 {
            let left = self.time_left.unwrap_or(self.timeout_match);
            ms = ms.min(margin(left) / MOVES_TO_PLAN_FOR.max(1));
        }
        Duration::from_millis(ms.max(2))
    }
}

/// Transposition table size without a memory limit from the manager.
const DEFAULT_TT_MIB: usize = 128;

/// Transposition table for a `max_memory` in bytes (0 = no limit): at most
/// half of the allowance, leaving the rest for the process itself.
pub fn tt_mib_for(max_memory: u64) -> usize {
    if max_memory == 0 {
        return DEFAULT_TT_MIB;
    }
    let half_mib = (max_memory / 2 / (1 << 20)) as usize;
    half_mib.clamp(1, DEFAULT_TT_MIB)
}

/// A BOARD block being read.
struct BoardBlock {
    /// Its stone lines so far.
    lines: Vec<String>,
    /// Most stone lines it may hold: one per point of the board.
    cap: usize,
    /// Why the block can't be a position whatever follows; answered at DONE.
    /// Lines after it are dropped, not kept.
    error: Option<String>,
}

impl BoardBlock {
    fn push(&mut self, line: &str) {
        if self.error.is_some() {
            return;
        }
        if self.lines.len() >= self.cap {
            self.fail(format!(
                "more than {} stones in a BOARD block: the board has {} points",
                self.cap, self.cap
            ));
        } else {
            self.lines.push(line.to_string());
        }
    }

    fn fail(&mut self, why: String) {
        if self.error.is_none() {
            self.error = Some(why);
            self.lines = Vec::new();
        }
    }
}

/// Called with each search's Stop before the search starts.
pub type SearchHook = Box<dyn FnMut(&Stop) + Send>;

/// A brain: the game the manager is running and the engine that plays it.
pub struct Brain {
    size: Option<usize>,
    rule: Rule,
    board: Option<Board>,
    /// The engine and the table size it was built with.
    engine: Option<(Engine, usize)>,
    tt_mib: usize,
    clock: Clock,
    limits: Limits,
    /// The BOARD block being read.
    board_block: Option<BoardBlock>,
    finished: bool,
    /// Receives a clone of every search's Stop, so another thread (reading
    /// stdin while the brain thinks) can cancel it on END.
    on_search: Option<SearchHook>,
}

impl Default for Brain {
    fn default() -> Self {
        Brain::new()
    }
}

impl Brain {
    pub fn new() -> Brain {
        Brain {
            size: None,
            rule: Rule::Freestyle,
            board: None,
            engine: None,
            tt_mib: DEFAULT_TT_MIB,
            clock: Clock::default(),
            limits: Limits::default(),
            board_block: None,
            finished: false,
            on_search: None,
        }
    }

    /// Caps every search (tests use it for reproducible answers).
    pub fn with_limits(mut self, limits: Limits) -> Brain {
        self.limits = limits;
        self
    }

    /// Calls `hook` with each search's Stop before the search starts.
    pub fn on_search(&mut self, hook: impl FnMut(&Stop) + Send + 'static) {
        self.on_search = Some(Box::new(hook));
    }

    /// True after END: the caller should exit.
    pub fn finished(&self) -> bool {
        self.finished
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    pub fn clock(&self) -> Clock {
        self.clock
    }

    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    /// Handles one input from [`read_input`].
    pub fn handle_input(&mut self, input: &Input) -> Vec<String> {
        match input {
            Input::Line(line) => self.handle_line(line),
            Input::TooLong => self.too_long(),
        }
    }

    /// Handles one input line; returns the lines to send back (none for
    /// INFO, END, empty lines and the lines of a BOARD block before DONE).
    pub fn handle_line(&mut self, line: &str) -> Vec<String> {
        // The clock of a move starts when its command arrives.
        let received = Instant::now();
        let line = line.trim();
        if line.len() > MAX_LINE_BYTES {
            return self.too_long();
        }
        if let Some(block) = &mut self.board_block {
            if line.eq_ignore_ascii_case("DONE") {
                let block = self.board_block.take();
                return match block {
                    Some(BoardBlock { error: Some(e), .. }) => vec![error(e)],
                    Some(block) => self.finish_board(&block.lines, received),
                    None => Vec::new(),
                };
            }
            if let Some(keyword) = known_keyword(line) {
                self.board_block = None;
                let mut replies = vec![error(format!(
                    "BOARD block ended by {keyword} before DONE: the block is dropped and \
                     the board left as it was"
                ))];
                replies.extend(self.command(line, received));
                return replies;
            }
            if !line.is_empty() {
                block.push(line);
            }
            return Vec::new();
        }
        self.command(line, received)
    }

    /// A line over [`MAX_LINE_BYTES`]: `ERROR` now, or at DONE inside a
    /// BOARD block (whose lines get no reply of their own).
    fn too_long(&mut self) -> Vec<String> {
        let why = format!("a line longer than {MAX_LINE_BYTES} bytes was skipped");
        match &mut self.board_block {
            Some(block) => {
                block.fail(why);
                Vec::new()
            }
            None => vec![error(why)],
        }
    }

    /// One command line, outside a BOARD block.
    fn command(&mut self, line: &str, received: Instant) -> Vec<String> {
        if line.is_empty() {
            return Vec::new();
        }
        match parse_command(line) {
            Ok(command) => self.handle(command, received),
            Err(ParseError::Unknown(keyword)) => {
                vec![format!("UNKNOWN command {keyword} is not supported")]
            }
            Err(e) => vec![error(e)],
        }
    }

    fn handle(&mut self, command: Command, received: Instant) -> Vec<String> {
        match command {
            Command::Start(size) => vec![self.start(size)],
            Command::RectStart(w, h) if w == h => vec![self.start(w)],
            Command::RectStart(w, h) => vec![format!(
                "ERROR only square boards are supported, not {w}x{h}"
            )],
            Command::Restart => match self.size {
                Some(size) => vec![self.start(size)],
                None => vec![error("RESTART before START")],
            },
            Command::Begin => match &self.board {
                None => vec![error("BEGIN before START")],
                Some(b) if !b.moves().is_empty() => {
                    vec![error("BEGIN on a board that already has stones")]
                }
                Some(_) => self.think(received),
            },
            Command::Turn(p) => match self.opponent_plays(p) {
                Ok(()) => self.think(received),
                Err(e) => vec![error(e)],
            },
            Command::Board => {
                // Without a game the block is still read, so that its lines
                // aren't taken for commands, but not kept.
                let size = self.size.unwrap_or(0);
                self.board_block = Some(BoardBlock {
                    lines: Vec::new(),
                    cap: size * size,
                    error: self
                        .size
                        .is_none()
                        .then(|| "BOARD before START".to_string()),
                });
                Vec::new()
            }
            Command::Info { key, value } => {
                self.info(&key, &value);
                Vec::new()
            }
            Command::Takeback(p) => match &mut self.board {
                Some(b) if b.moves().last() == Some(&p) => {
                    b.undo();
                    vec!["OK".to_string()]
                }
                Some(_) => vec![error(format!(
                    "TAKEBACK {},{}: not the last move played",
                    p.0, p.1
                ))],
                None => vec![error("TAKEBACK before START")],
            },
            Command::Play(p) => match self.play_own(p) {
                Ok(()) => vec![format!("{},{}", p.0, p.1)],
                Err(e) => vec![error(e)],
            },
            Command::End => {
                self.finished = true;
                Vec::new()
            }
            Command::About => vec![ABOUT.to_string()],
        }
    }

    fn start(&mut self, size: usize) -> String {
        match Board::new(size, self.rule) {
            Ok(board) => {
                self.size = Some(size);
                self.board = Some(board);
                // Allocating the table takes a while: do it now, not on the clock of a move.
                self.ensure_engine();
                if let Some((engine, _)) = &mut self.engine {
                    engine.clear();
                }
                "OK".to_string()
            }
            Err(e) => error(format!(
                "unsupported size {size} ({e}); sizes {}..={} are supported",
                gomoku::MIN_SIZE,
                gomoku::MAX_SIZE
            )),
        }
    }

    /// The engine is built once and kept (with its table) between moves;
    /// rebuilt only when INFO max_memory changed the table size.
    fn ensure_engine(&mut self) {
        if self
            .engine
            .as_ref()
            .is_none_or(|(_, mib)| *mib != self.tt_mib)
        {
            self.engine = Some((Engine::new(self.tt_mib), self.tt_mib));
        }
    }

    fn info(&mut self, key: &str, value: &str) {
        // INFO has no reply: values that don't parse are ignored.
        let number = value.parse::<u64>().ok();
        match (key, number) {
            ("timeout_turn", Some(ms)) => self.clock.timeout_turn = ms,
            ("timeout_match", Some(ms)) => self.clock.timeout_match = ms,
            ("time_left", Some(ms)) => self.clock.time_left = Some(ms),
            ("max_memory", Some(bytes)) => self.tt_mib = tt_mib_for(bytes),
            ("rule", Some(bits)) => {
                let bits = u32::try_from(bits).unwrap_or(0);
                self.set_rule(rule_from_bits(bits));
            }
            // game_type, evaluate, folder, unknown keys: nothing to do.
            _ => {}
        }
    }

    /// Changes the rule; the stones already on the board are replayed under
    /// it (a history the new rule rejects leaves the board empty, and the
    /// manager's next BOARD sets it again).
    fn set_rule(&mut self, rule: Rule) {
        if rule == self.rule {
            return;
        }
        self.rule = rule;
        if let (Some(size), Some(old)) = (self.size, &self.board) {
            let moves = old.moves().to_vec();
            self.board = replay(size, rule, &moves)
                .ok()
                .or_else(|| Board::new(size, rule).ok());
        }
    }

    fn opponent_plays(&mut self, p: Point) -> Result<(), String> {
        let board = self.board.as_mut().ok_or("TURN before START")?;
        check_playable(board, p)?;
        board.play(p);
        Ok(())
    }

    fn play_own(&mut self, p: Point) -> Result<(), String> {
        let board = self.board.as_mut().ok_or("PLAY before START")?;
        check_playable(board, p)?;
        board.play(p);
        Ok(())
    }

    fn finish_board(&mut self, lines: &[String], received: Instant) -> Vec<String> {
        let Some(size) = self.size else {
            return vec![error("BOARD before START")];
        };
        match position_from_board(size, self.rule, lines) {
            Ok(board) => {
                self.board = Some(board);
                self.think(received)
            }
            Err(e) => vec![error(e)],
        }
    }

    /// Searches the current position, plays the answer and returns it.
    fn think(&mut self, received: Instant) -> Vec<String> {
        self.ensure_engine();
        let Some(board) = &self.board else {
            return vec![error("no game: START first")];
        };
        if board.winner().is_some() {
            return vec![error("the game is already won")];
        }
        if board.is_full() {
            return vec![error("the board is full")];
        }
        let Some((engine, _)) = &mut self.engine else {
            return vec![error("no engine")];
        };
        let stop = Stop::at(received + self.clock.budget());
        let stop = match self.limits.max_nodes {
            Some(n) => stop.with_node_limit(n),
            None => stop,
        };
        if let Some(hook) = &mut self.on_search {
            hook(&stop);
        }
        // A panicking search is a bug, but the brain must keep answering: the
        // manager gets ERROR and the engine is rebuilt for the next move.
        let limits = &self.limits;
        let searched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            engine.search(board, limits, &stop)
        }));
        let Ok(result) = searched else {
            self.engine = None;
            return vec![error("the search failed")];
        };
        let p = result.best;
        if !board.is_legal(p) {
            // The engine's contract says this can't happen; don't play it.
            return vec![error(format!(
                "engine proposed an illegal move {},{}",
                p.0, p.1
            ))];
        }
        if let Some(b) = &mut self.board {
            b.play(p);
        }
        vec![
            format!(
                "MESSAGE depth {} eval {} nodes {} time {} ms",
                result.depth,
                result.eval,
                result.nodes,
                received.elapsed().as_millis()
            ),
            format!("{},{}", p.0, p.1),
        ]
    }
}

fn error(message: impl std::fmt::Display) -> String {
    // A reply is one line, and says nothing a terminal would act on.
    let text: String = message
        .to_string()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    format!("ERROR {text}")
}

fn check_playable(board: &Board, p: Point) -> Result<(), String> {
    let size = board.size();
    if p.0 >= size || p.1 >= size {
        return Err(format!("{},{} is off the {size}x{size} board", p.0, p.1));
    }
    if board.stone(p).is_some() {
        return Err(format!("{},{} is occupied", p.0, p.1));
    }
    if board.winner().is_some() {
        return Err("the game is already won".to_string());
    }
    if !board.is_legal(p) {
        return Err(format!(
            "{},{} is forbidden for black under renju",
            p.0, p.1
        ));
    }
    Ok(())
}

/// Plays `moves` on an empty board, checking each; unlike
/// `Board::from_moves` it accepts a finished game.
fn replay(size: usize, rule: Rule, moves: &[Point]) -> Result<Board, String> {
    let mut board = Board::new(size, rule).map_err(|e| e.to_string())?;
    for &p in moves {
        check_playable(&board, p)?;
        board.play(p);
    }
    Ok(board)
}

/// The position of a BOARD block. Stones come in the order they were
/// played (piskvork sends them so, which matters under renju); own and
/// opponent's stones are interleaved, black first: the side with more stones,
/// or, with equal counts, the brain's own side, since it is to move.
pub fn position_from_board(size: usize, rule: Rule, lines: &[String]) -> Result<Board, String> {
    let mut own = Vec::new();
    let mut theirs = Vec::new();
    for line in lines {
        match parse_board_line(line) {
            Some((p, 1)) => own.push(p),
            Some((p, 2)) => theirs.push(p),
            Some((p, _)) => {
                return Err(format!(
                    "{},{},3: continuous games are not supported",
                    p.0, p.1
                ));
            }
            None => {
                return Err(format!(
                    "bad BOARD line `{}` (expected x,y,field)",
                    shown(line)
                ));
            }
        }
    }
    let (black, white) = if own.len() == theirs.len() {
        (own, theirs)
    } else if theirs.len() == own.len() + 1 {
        (theirs, own)
    } else {
        return Err(format!(
            "{} own and {} opponent stones: not a position with the brain to move",
            own.len(),
            theirs.len()
        ));
    };
    let mut moves = Vec::with_capacity(black.len() + white.len());
    for (i, &b) in black.iter().enumerate() {
        moves.push(b);
        if let Some(&w) = white.get(i) {
            moves.push(w);
        }
    }
    Board::from_moves(size, rule, &moves).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        assert_eq!(parse_command("START 20"), Ok(Command::Start(20)));
        assert_eq!(parse_command("start 15\r"), Ok(Command::Start(15)));
        assert_eq!(
            parse_command("RECTSTART 20,15"),
            Ok(Command::RectStart(20, 15))
        );
        assert_eq!(parse_command("TURN 10, 3"), Ok(Command::Turn((10, 3))));
        assert_eq!(parse_command("  BEGIN  "), Ok(Command::Begin));
        assert_eq!(parse_command("BOARD"), Ok(Command::Board));
        assert_eq!(parse_command("RESTART"), Ok(Command::Restart));
        assert_eq!(parse_command("TAKEBACK 7,7"), Ok(Command::Takeback((7, 7))));
        assert_eq!(parse_command("PLAY 0,14"), Ok(Command::Play((0, 14))));
        assert_eq!(parse_command("ABOUT"), Ok(Command::About));
        assert_eq!(parse_command("END"), Ok(Command::End));
        assert_eq!(
            parse_command("INFO timeout_turn 5000"),
            Ok(Command::Info {
                key: "timeout_turn".into(),
                value: "5000".into()
            })
        );
        assert_eq!(
            parse_command("INFO folder C:\\some dir\\x"),
            Ok(Command::Info {
                key: "folder".into(),
                value: "C:\\some dir\\x".into()
            })
        );
    }

    #[test]
    fn bad_commands_are_errors_not_panics() {
        assert_eq!(
            parse_command("SWAP2BOARD"),
            Err(ParseError::Unknown("SWAP2BOARD".into()))
        );
        for line in [
            "START",
            "START x",
            "START -1",
            "START 99999999999999999999999",
            "TURN 3",
            "TURN 3,",
            "TURN -1,2",
            "TURN a,b",
            "TURN 1,2,3",
            "RECTSTART 20",
            "BEGIN now",
            "INFO",
            "TAKEBACK",
        ] {
            assert!(
                matches!(parse_command(line), Err(ParseError::BadArguments { .. })),
                "{line}: {:?}",
                parse_command(line)
            );
        }
    }

    #[test]
    fn board_lines_parse() {
        assert_eq!(parse_board_line("7,7,1"), Some(((7, 7), 1)));
        assert_eq!(parse_board_line(" 3, 4, 2 \r"), Some(((3, 4), 2)));
        assert_eq!(parse_board_line("3,4,3"), Some(((3, 4), 3)));
        for bad in ["3,4", "3,4,0", "3,4,4", "3,4,1,1", "x,4,1", "-1,4,1", ""] {
            assert_eq!(parse_board_line(bad), None, "{bad}");
        }
    }

    #[test]
    fn rule_bits() {
        assert_eq!(rule_from_bits(0), Rule::Freestyle);
        assert_eq!(rule_from_bits(1), Rule::Standard);
        assert_eq!(rule_from_bits(2), Rule::Freestyle);
        assert_eq!(rule_from_bits(3), Rule::Standard);
        assert_eq!(rule_from_bits(4), Rule::Renju);
        assert_eq!(rule_from_bits(5), Rule::Renju);
        assert_eq!(rule_from_bits(8), Rule::Standard);
    }

    #[test]
    fn time_budget() {
        let ms = |c: Clock| c.budget().as_millis();
        // Per-move limit with a margin; the match clock unknown yet: its total.
        let c = Clock {
            timeout_turn: 5_000,
            timeout_match: 0,
            time_left: None,
        };
        assert_eq!(ms(c), 5_000 - 30 - 250);
        // The match clock binds: a share of what is left.
        let c = Clock {
            timeout_turn: 30_000,
            timeout_match: 180_000,
            time_left: Some(20_000),
        };
        assert_eq!(ms(c), (20_000 - 30 - 1_000) / 20);
        // Almost out of time: still a few milliseconds.
        let c = Clock {
            timeout_turn: 5_000,
            timeout_match: 180_000,
            time_left: Some(10),
        };
        assert_eq!(ms(c), 2);
        // timeout_turn 0: as fast as possible.
        let c = Clock {
            timeout_turn: 0,
            timeout_match: 0,
            time_left: None,
        };
        assert_eq!(ms(c), 10);
        assert!(Clock::default().budget() < Duration::from_secs(5));
    }

    #[test]
    fn table_size_follows_max_memory() {
        assert_eq!(tt_mib_for(0), DEFAULT_TT_MIB);
        assert_eq!(tt_mib_for(70 << 20), 35);
        assert_eq!(tt_mib_for(1 << 40), DEFAULT_TT_MIB);
        assert_eq!(tt_mib_for(1000), 1);
    }

    fn brain() -> Brain {
        let mut b = Brain::new().with_limits(Limits {
            max_depth: Some(2),
            max_nodes: Some(5_000),
        });
        b.handle_line("INFO max_memory 16777216");
        b
    }

    fn point_of(replies: &[String]) -> Point {
        let last = replies.last().expect("a reply");
        parse_pair(last).unwrap_or_else(|| panic!("not a move: {replies:?}"))
    }

    #[test]
    fn a_game_through_the_state_machine() {
        let mut b = brain();
        assert_eq!(b.handle_line("START 15"), ["OK"]);
        let first = point_of(&b.handle_line("BEGIN"));
        assert_eq!(b.board().unwrap().moves(), [first]);
        let reply = if first == (0, 0) { (1, 1) } else { (0, 0) };
        let second = point_of(&b.handle_line(&format!("TURN {},{}", reply.0, reply.1)));
        assert_eq!(b.board().unwrap().moves(), [first, reply, second]);
        assert_eq!(
            b.handle_line(&format!("TAKEBACK {},{}", second.0, second.1)),
            ["OK"]
        );
        assert_eq!(
            b.handle_line(&format!("TAKEBACK {},{}", reply.0, reply.1)),
            ["OK"]
        );
        assert_eq!(b.board().unwrap().moves(), [first]);
        // PLAY: the manager dictates the brain's own move.
        assert_eq!(b.handle_line("PLAY 3,3"), ["3,3"]);
        assert_eq!(b.board().unwrap().moves(), [first, (3, 3)]);
        assert!(b.handle_line("PLAY 3,3")[0].starts_with("ERROR"));
        assert!(b.handle_line("").is_empty());
        assert!(b.handle_line("INFO game_type 1").is_empty());
        assert!(!b.finished());
        assert!(b.handle_line("END").is_empty());
        assert!(b.finished());
    }

    #[test]
    fn board_blocks_set_colours_by_stone_counts() {
        let mut b = brain();
        assert_eq!(b.handle_line("START 15"), ["OK"]);
        // Equal counts: the brain is black, to move.
        for line in ["BOARD", "7,7,1", "8,8,2"] {
            assert!(b.handle_line(line).is_empty());
        }
        let p = point_of(&b.handle_line("DONE"));
        let board = b.board().unwrap();
        assert_eq!(board.moves(), [(7, 7), (8, 8), p]);
        assert_eq!(board.stone((7, 7)), Some(gomoku::Stone::Black));
        // One more opponent stone: the opponent is black.
        for line in ["BOARD", "7,7,2", "8,8,1", "6,6,2"] {
            assert!(b.handle_line(line).is_empty());
        }
        let p = point_of(&b.handle_line("done"));
        let board = b.board().unwrap();
        assert_eq!(board.moves(), [(7, 7), (8, 8), (6, 6), p]);
        assert_eq!(board.stone(p), Some(gomoku::Stone::White));
        // An empty block: the brain opens.
        assert!(b.handle_line("BOARD").is_empty());
        let p = point_of(&b.handle_line("DONE"));
        assert_eq!(b.board().unwrap().moves(), [p]);
    }

    #[test]
    fn info_sets_clock_rule_and_memory() {
        let mut b = brain();
        for line in [
            "INFO timeout_turn 1000",
            "INFO timeout_match 90000",
            "INFO time_left 45000",
            "INFO rule 4",
            "INFO evaluate 3,3",
            "INFO unheard_of 7",
            "INFO timeout_turn -5",
        ] {
            assert!(b.handle_line(line).is_empty(), "{line}");
        }
        assert_eq!(
            b.clock(),
            Clock {
                timeout_turn: 1000,
                timeout_match: 90000,
                time_left: Some(45000)
            }
        );
        assert_eq!(b.rule(), Rule::Renju);
        assert_eq!(b.handle_line("START 15"), ["OK"]);
        assert_eq!(b.board().unwrap().rule(), Rule::Renju);
        // A rule change mid-game replays the stones under the new rule.
        assert_eq!(b.handle_line("PLAY 7,7"), ["7,7"]);
        b.handle_line("INFO rule 1");
        assert_eq!(b.board().unwrap().rule(), Rule::Standard);
        assert_eq!(b.board().unwrap().moves(), [(7, 7)]);
    }

    #[test]
    fn impossible_requests_answer_error() {
        let mut b = brain();
        for line in ["BEGIN", "TURN 1,1", "RESTART", "TAKEBACK 1,1", "PLAY 1,1"] {
            assert!(b.handle_line(line)[0].starts_with("ERROR"), "{line}");
        }
        assert!(b.handle_line("BOARD").is_empty());
        assert!(
            b.handle_line("DONE")[0].starts_with("ERROR"),
            "BOARD before START"
        );
        assert!(b.handle_line("RECTSTART 15,20")[0].starts_with("ERROR"));
        assert!(b.handle_line("START 30")[0].starts_with("ERROR"));
        assert_eq!(b.handle_line("START 5"), ["OK"]);
        assert!(b.handle_line("TURN 5,0")[0].starts_with("ERROR"));
        assert!(b.handle_line("WHAT")[0].starts_with("UNKNOWN"));
        // A five already on the board: nothing to play.
        for line in [
            "BOARD", "0,0,2", "0,1,1", "1,0,2", "1,1,1", "2,0,2", "2,1,1",
        ] {
            b.handle_line(line);
        }
        for line in ["3,0,2", "3,1,1", "4,0,2"] {
            b.handle_line(line);
        }
        assert!(b.handle_line("DONE")[0].starts_with("ERROR"));
    }
    #[test]
    fn a_command_ends_an_unfinished_board_block() {
        let mut b = brain();
        assert_eq!(b.handle_line("START 15"), ["OK"]);
        assert_eq!(b.handle_line("PLAY 7,7"), ["7,7"]);
        // END inside the block: ERROR for the block, then END is carried out.
        for line in ["BOARD", "1,1,1", "2,2,2"] {
            assert!(b.handle_line(line).is_empty(), "{line}");
        }
        let replies = b.handle_line("END");
        assert_eq!(replies.len(), 1, "{replies:?}");
        assert!(replies[0].starts_with("ERROR BOARD block ended by END"));
        assert!(b.finished());
        // Another command: the board is left as it was, then the command runs.
        let mut b = brain();
        assert_eq!(b.handle_line("START 15"), ["OK"]);
        assert_eq!(b.handle_line("PLAY 7,7"), ["7,7"]);
        b.handle_line("BOARD");
        b.handle_line("1,1,1");
        let replies = b.handle_line("turn 3,3");
        assert!(replies[0].starts_with("ERROR BOARD block ended by TURN"));
        let p = point_of(&replies);
        assert_eq!(b.board().unwrap().moves(), [(7, 7), (3, 3), p]);
        // Every keyword ends a block, INFO and a new BOARD included.
        for keyword in KEYWORDS {
            let mut b = brain();
            b.handle_line("BOARD");
            let replies = b.handle_line(&format!("{keyword} 1"));
            assert!(
                replies[0].starts_with(&format!("ERROR BOARD block ended by {keyword}")),
                "{keyword}: {replies:?}"
            );
        }
        let mut b = brain();
        assert_eq!(b.handle_line("START 15"), ["OK"]);
        b.handle_line("BOARD");
        assert_eq!(b.handle_line("BOARD").len(), 1);
        b.handle_line("7,7,1");
        b.handle_line("8,8,2");
        let p = point_of(&b.handle_line("DONE"));
        assert_eq!(b.board().unwrap().moves(), [(7, 7), (8, 8), p]);
    }

    #[test]
    fn board_blocks_hold_at_most_one_stone_per_point() {
        let mut b = brain();
        assert_eq!(b.handle_line("START 5"), ["OK"]);
        b.handle_line("BOARD");
        for i in 0..26 {
            assert!(b.handle_line(&format!("{},{},1", i % 5, i / 5)).is_empty());
        }
        // Lines past the cap are dropped, not kept.
        for _ in 0..1000 {
            b.handle_line("0,0,1");
        }
        assert!(b.board_block.as_ref().unwrap().lines.is_empty());
        let replies = b.handle_line("DONE");
        assert_eq!(
            replies,
            ["ERROR more than 25 stones in a BOARD block: the board has 25 points"]
        );
        // BOARD before START keeps nothing either.
        let mut b = brain();
        b.handle_line("BOARD");
        b.handle_line("1,1,1");
        assert!(b.board_block.as_ref().unwrap().lines.is_empty());
        assert_eq!(b.handle_line("DONE"), ["ERROR BOARD before START"]);
    }

    #[test]
    fn overlong_lines_are_skipped_with_error() {
        use std::io::{BufReader, Cursor, Read};
        let long = "x".repeat(MAX_LINE_BYTES + 1);
        let fits = "y".repeat(MAX_LINE_BYTES);
        let text = format!("ABOUT\r\n{long}\r\n{fits}\nEND");
        // A small buffer: the long line arrives in many pieces.
        let mut r = BufReader::with_capacity(7, Cursor::new(text));
        let mut inputs = Vec::new();
        while let Some(input) = read_input(&mut r).unwrap() {
            inputs.push(input);
        }
        assert_eq!(
            inputs,
            [
                Input::Line("ABOUT".into()),
                Input::TooLong,
                Input::Line(fits.clone()),
                Input::Line("END".into()),
            ]
        );
        // A 64 MiB line with no end in sight is read through, not kept.
        let huge = std::io::repeat(b'z')
            .take(64 << 20)
            .chain(&b"\nABOUT\n"[..]);
        let mut r = BufReader::new(huge);
        assert_eq!(read_input(&mut r).unwrap(), Some(Input::TooLong));
        assert_eq!(
            read_input(&mut r).unwrap(),
            Some(Input::Line("ABOUT".into()))
        );
        assert_eq!(read_input(&mut r).unwrap(), None);

        let mut b = brain();
        let replies = b.handle_input(&Input::TooLong);
        assert_eq!(replies, ["ERROR a line longer than 4096 bytes was skipped"]);
        assert_eq!(b.handle_line(&long), replies);
        // Inside a BOARD block the error waits for DONE.
        assert_eq!(b.handle_line("START 15"), ["OK"]);
        b.handle_line("BOARD");
        assert!(b.handle_input(&Input::TooLong).is_empty());
        b.handle_line("7,7,1");
        assert_eq!(b.handle_line("DONE"), replies);
        assert!(b.board().unwrap().moves().is_empty());
    }

    #[test]
    fn echoed_input_is_printable_ascii_and_short() {
        let mut b = brain();
        let nasty = format!("\u{1b}[2J\u{7}\u{0}ÿ{}", "Q".repeat(5000));
        for line in [
            nasty.clone(),
            format!("START {nasty}"),
            format!("TURN {nasty}"),
        ] {
            let replies = b.handle_line(&line);
            assert_eq!(replies.len(), 1);
            let reply = &replies[0];
            assert!(
                reply.bytes().all(|c| c == b' ' || c.is_ascii_graphic()),
                "{reply:?}"
            );
            assert!(reply.len() < 150, "{reply}");
        }
        assert_eq!(
            b.handle_line("\u{1b}[31mRED"),
            ["UNKNOWN command \\u{1b}[31mRED is not supported"]
        );
        assert_eq!(shown(&"a".repeat(50)), format!("{}...", "a".repeat(40)));
        assert_eq!(shown("tab\there"), "tab\\there");
        assert_eq!(b.handle_line("BOARD"), Vec::<String>::new());
        assert_eq!(b.handle_line("\u{1b}x"), Vec::<String>::new());
        assert_eq!(b.handle_line("DONE"), ["ERROR BOARD before START"]);
        assert_eq!(b.handle_line("START 15"), ["OK"]);
        b.handle_line("BOARD");
        b.handle_line("\u{1b}x,\u{7}");
        let replies = b.handle_line("DONE");
        assert_eq!(
            replies,
            ["ERROR bad BOARD line `\\u{1b}x,\\u{7}` (expected x,y,field)"]
        );
    }
}
