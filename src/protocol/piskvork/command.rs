//! The manager's side of the protocol: reading its lines with bounded memory
//! and parsing them into [`Command`]s.

use std::io::BufRead;

use crate::gomoku::{Point, Rule};

/// A manager command, one line (BOARD's stone lines are read by [`Brain`](super::Brain)).
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
pub(super) const KEYWORDS: [&str; 13] = [
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
pub(super) fn known_keyword(line: &str) -> Option<&'static str> {
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
pub(super) fn parse_pair(s: &str) -> Option<(usize, usize)> {
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
pub(super) fn parse_cap(value: &str) -> Result<Option<u64>, ()> {
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
