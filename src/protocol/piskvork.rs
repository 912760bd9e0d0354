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

use std::time::Instant;

use crate::gomoku::{self, Board, Engine, Limits, MAX_CANDIDATES, Point, Rule, SearchResult};
use crate::stop::Stop;

mod clock;
mod command;
pub mod swap2;

use clock::DEFAULT_TT_MIB;
pub use clock::{Clock, tt_mib_for};
pub use command::{
    Command, Input, MAX_LINE_BYTES, ParseError, parse_board_line, parse_command, parse_swap2_line,
    read_input, rule_from_bits, shown,
};
#[cfg(test)]
use command::{KEYWORDS, parse_pair};
use command::{known_keyword, parse_cap};

/// What the brain answers to ABOUT.
pub const ABOUT: &str = concat!(
    "name=\"gamebot\", version=\"",
    env!("CARGO_PKG_VERSION"),
    "\", author=\"gamebot contributors\", country=\"unknown\""
);

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
