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
//! Beyond the base protocol:
//!
//! * `YXNBEST n` (Yixin's and Rapfi's): a move like BEGIN/TURN's, searched
//!   as a multi-PV search of `n` lines (at most [`MAX_CANDIDATES`]); before
//!   the move, one `MESSAGE nbest k: x,y eval e [win_in w] pv x,y x,y ...`
//!   line per ranked move, best first. The move is played on the brain's
//!   board, as BEGIN's is.
//! * `INFO max_node n` and `INFO max_depth n` cap every later search in
//!   nodes and plies; 0 (or a negative number) lifts the cap.
//! * `SWAP2BOARD`, then 0, 3 or 5 stone lines `x,y` in move order (black
//!   first; a third field, as some managers send, is ignored), then `DONE`:
//!   Gomocup's swap2 opening. With no stones the brain answers three,
//!   `x1,y1 x2,y2 x3,y3` (black, white, black); with three or five (white
//!   to move) it answers `SWAP` (it takes black) or a move `x,y` (it stays
//!   white and plays it). The choices are the engine's ([`swap2`]). The
//!   brain's board then holds the stones and any move it answered, so the
//!   game goes on with TURN (or a new BOARD) either way.
//!
//! Bounds on input: a line is at most [`MAX_LINE_BYTES`] long ([`read_input`]
//! skips a longer one without buffering it, and the brain answers `ERROR`); a
//! BOARD block holds at most one line per point of the board. Input echoed in
//! a reply is printable ASCII, cut short ([`shown`]).
//!
//! A BOARD (or SWAP2BOARD) block ends on `DONE`, or on any command keyword
//! the brain knows (a manager that gave up on the block, or lost its
//! `DONE`): the unfinished block is answered `ERROR` and dropped, the board
//! stays as it was before the block, and the command is then carried out as
//! usual (so END still ends).

use std::io::BufRead;
use std::time::{Duration, Instant};

use crate::gomoku::{self, Board, Engine, Limits, MAX_CANDIDATES, Point, Rule, SearchResult};
use crate::stop::Stop;

pub mod swap2;

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
    /// `YXNBEST n`: a move, with the `n` best ranked in MESSAGE lines.
    NBest(usize),
    /// Starts a block of 0, 3 or 5 `x,y` lines ended by `DONE`: the swap2
    /// opening.
    Swap2Board,
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
const KEYWORDS: [&str; 13] = [
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
    "YXNBEST",
    "SWAP2BOARD",
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
/// escaped (`\u{1b}`), cut to about `SHOWN_CHARS` characters, so that raw
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
        "SWAP2BOARD" => no_args(Command::Swap2Board, "SWAP2BOARD"),
        "YXNBEST" => rest
            .parse::<usize>()
            .map(Command::NBest)
            .map_err(|_| bad("YXNBEST", "a number of moves", rest)),
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

/// One stone line of a SWAP2BOARD block: `x,y`, or `x,y,field` (field 1
/// or 2) as a manager that reuses its BOARD lines sends it; the field is
/// ignored, the order of the lines gives the colours.
pub fn parse_swap2_line(s: &str) -> Option<Point> {
    let mut parts = s.trim().split(',');
    let x = parts.next()?.trim().parse().ok()?;
    let y = parts.next()?.trim().parse().ok()?;
    if let Some(field) = parts.next() {
        let field: u8 = field.trim().parse().ok()?;
        if !(1..=2).contains(&field) {
            return None;
        }
    }
    if parts.next().is_some() {
        return None;
    }
    Some((x, y))
}

/// The value of `INFO max_node` / `max_depth`: a cap, or none for 0 or a
/// negative number (Yixin-style managers send -1 for "no limit"); `Err`
/// for anything else.
fn parse_cap(value: &str) -> Result<Option<u64>, ()> {
    match value.trim().parse::<i64>() {
        Ok(n) if n > 0 => Ok(Some(n as u64)),
        Ok(_) => Ok(None),
        // beyond i64: as good as no cap
        Err(_) => value.trim().parse::<u64>().map(Some).map_err(|_| ()),
    }
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

/// Which command a block of stone lines belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    Board,
    Swap2,
}

impl BlockKind {
    fn name(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::Swap2 => "SWAP2BOARD",
        }
    }
}

/// Most stones of a SWAP2BOARD block: the swap2 opening ends after five.
const SWAP2_MAX_STONES: usize = 5;

/// A BOARD or SWAP2BOARD block being read.
struct BoardBlock {
    kind: BlockKind,
    /// Its stone lines so far.
    lines: Vec<String>,
    /// Most stone lines it may hold: one per point of the board (BOARD), or
    /// [`SWAP2_MAX_STONES`].
    cap: usize,
    /// Why the block can't be a position whatever follows; answered at DONE.
    /// Lines after it are dropped, not kept.
    error: Option<String>,
}

impl BoardBlock {
    /// A block for the game of `size` (none before START: the block is
    /// still read, so that its lines aren't taken for commands, but not
    /// kept).
    fn new(kind: BlockKind, size: Option<usize>) -> BoardBlock {
        let points = size.map_or(0, |n| n * n);
        BoardBlock {
            kind,
            lines: Vec::new(),
            cap: match kind {
                BlockKind::Board => points,
                BlockKind::Swap2 => SWAP2_MAX_STONES.min(points),
            },
            error: size
                .is_none()
                .then(|| format!("{} before START", kind.name())),
        }
    }

    fn push(&mut self, line: &str) {
        if self.error.is_some() {
            return;
        }
        if self.lines.len() >= self.cap {
            let why = match self.kind {
                BlockKind::Board => format!(
                    "more than {} stones in a BOARD block: the board has {} points",
                    self.cap, self.cap
                ),
                BlockKind::Swap2 => format!(
                    "more than {} stones in a SWAP2BOARD block: it holds 0, 3 or 5",
                    self.cap
                ),
            };
            self.fail(why);
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
                    Some(block) if block.kind == BlockKind::Swap2 => {
                        self.finish_swap2(&block.lines, received)
                    }
                    Some(block) => self.finish_board(&block.lines, received),
                    None => Vec::new(),
                };
            }
            if let Some(keyword) = known_keyword(line) {
                let kind = block.kind.name();
                self.board_block = None;
                let mut replies = vec![error(format!(
                    "{kind} block ended by {keyword} before DONE: the block is dropped and \
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
                Some(_) => self.think(received, None),
            },
            Command::Turn(p) => match self.opponent_plays(p) {
                Ok(()) => self.think(received, None),
                Err(e) => vec![error(e)],
            },
            Command::NBest(n) => self.think(received, Some(n.clamp(1, MAX_CANDIDATES))),
            Command::Board => {
                self.board_block = Some(BoardBlock::new(BlockKind::Board, self.size));
                Vec::new()
            }
            Command::Swap2Board => {
                self.board_block = Some(BoardBlock::new(BlockKind::Swap2, self.size));
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
        match (key, parse_cap(value)) {
            ("max_node", Ok(cap)) => self.limits.max_nodes = cap,
            ("max_depth", Ok(cap)) => {
                self.limits.max_depth = cap.map(|d| u32::try_from(d).unwrap_or(u32::MAX));
            }
            _ => {}
        }
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
            // game_type, evaluate, folder, unknown keys: nothing to do
            // (max_node and max_depth are taken above).
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
                self.think(received, None)
            }
            Err(e) => vec![error(e)],
        }
    }

    /// DONE of a SWAP2BOARD block: the stones in move order, then the
    /// brain's choice (see [`swap2`]).
    fn finish_swap2(&mut self, lines: &[String], received: Instant) -> Vec<String> {
        let Some(size) = self.size else {
            return vec![error("SWAP2BOARD before START")];
        };
        let mut stones = Vec::with_capacity(lines.len());
        for line in lines {
            match parse_swap2_line(line) {
                Some(p) => stones.push(p),
                None => {
                    return vec![error(format!(
                        "bad SWAP2BOARD line `{}` (expected x,y)",
                        shown(line)
                    ))];
                }
            }
        }
        if ![0, 3, SWAP2_MAX_STONES].contains(&stones.len()) {
            return vec![error(format!(
                "{} stones in a SWAP2BOARD block: it holds 0, 3 or 5",
                stones.len()
            ))];
        }
        let board = match replay(size, self.rule, &stones) {
            Ok(board) => board,
            Err(e) => return vec![error(e)],
        };
        self.ensure_engine();
        let stop = self.search_stop(received);
        let Some((engine, _)) = &mut self.engine else {
            return vec![error("no engine")];
        };
        if stones.is_empty() {
            let limits = swap2::opening_limits(&self.limits);
            let mut failed = false;
            let chosen = swap2::choose_opening(size, self.rule, &stop, |b| {
                let stop = stop.with_node_limit(limits.max_nodes.unwrap_or(u64::MAX));
                let found = guarded_search(engine, b, &limits, &stop);
                failed |= found.is_none();
                found
            });
            if failed {
                self.engine = None;
            }
            let Some((opening, eval)) = chosen else {
                return vec![error(format!(
                    "no swap2 opening fits a {size}x{size} board"
                ))];
            };
            match replay(size, self.rule, &opening) {
                Ok(board) => self.board = Some(board),
                Err(e) => return vec![error(e)],
            }
            let [a, b, c] = opening;
            return vec![
                format!(
                    "MESSAGE swap2 opening eval {eval} for white, time {} ms",
                    received.elapsed().as_millis()
                ),
                format!("{},{} {},{} {},{}", a.0, a.1, b.0, b.1, c.0, c.1),
            ];
        }
        let Some(found) = guarded_search(engine, &board, &self.limits, &stop) else {
            self.engine = None;
            return vec![error("the search failed")];
        };
        let message = format!(
            "MESSAGE swap2 depth {} eval {} for white, nodes {} time {} ms",
            found.depth,
            found.eval,
            found.nodes,
            received.elapsed().as_millis()
        );
        let mut board = board;
        let reply = match swap2::choose_side(&found) {
            swap2::Choice::Play(p) if board.is_legal(p) => {
                board.play(p);
                format!("{},{}", p.0, p.1)
            }
            swap2::Choice::Play(p) => {
                return vec![error(format!(
                    "engine proposed an illegal move {},{}",
                    p.0, p.1
                ))];
            }
            swap2::Choice::Swap => "SWAP".to_string(),
        };
        self.board = Some(board);
        vec![message, reply]
    }

    /// The Stop of a search for the command `received` at that time: the
    /// move's time budget and the node cap, handed to the search hook.
    fn search_stop(&mut self, received: Instant) -> Stop {
        let stop = Stop::at(received + self.clock.budget());
        let stop = match self.limits.max_nodes {
            Some(n) => stop.with_node_limit(n),
            None => stop,
        };
        if let Some(hook) = &mut self.on_search {
            hook(&stop);
        }
        stop
    }

    /// Searches the current position, plays the answer and returns it;
    /// with `nbest`, ranks that many moves and reports them first (YXNBEST).
    fn think(&mut self, received: Instant, nbest: Option<usize>) -> Vec<String> {
        self.ensure_engine();
        let stop = self.search_stop(received);
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
        let limits = Limits {
            candidates: nbest.unwrap_or(1),
            ..self.limits.clone()
        };
        let Some(result) = guarded_search(engine, board, &limits, &stop) else {
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
        let mut replies = Vec::new();
        if nbest.is_some() {
            replies.extend(nbest_messages(&result));
        }
        replies.extend([
            format!(
                "MESSAGE depth {} eval {} nodes {} time {} ms",
                result.depth,
                result.eval,
                result.nodes,
                received.elapsed().as_millis()
            ),
            format!("{},{}", p.0, p.1),
        ]);
        replies
    }
}

/// Runs one search; a panicking search is a bug, but the brain must keep
/// answering: `None` (the manager gets ERROR and the caller rebuilds the
/// engine for the next move).
fn guarded_search(
    engine: &mut Engine,
    board: &Board,
    limits: &Limits,
    stop: &Stop,
) -> Option<SearchResult> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        engine.search(board, limits, stop)
    }))
    .ok()
}

/// One `MESSAGE nbest k: x,y eval e [win_in w] pv x,y ...` line per ranked
/// move, best first.
pub fn nbest_messages(result: &SearchResult) -> Vec<String> {
    let at = |p: &Point| format!("{},{}", p.0, p.1);
    result
        .candidates
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let win_in = c.win_in.map(|w| format!(" win_in {w}")).unwrap_or_default();
            let pv: Vec<String> = c.pv.iter().map(at).collect();
            format!(
                "MESSAGE nbest {}: {} eval {}{win_in} pv {}",
                k + 1,
                at(&c.point),
                c.eval,
                pv.join(" ")
            )
        })
        .collect()
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
mod tests;
