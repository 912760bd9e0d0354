//! A piskvork brain (Gomocup's protocol) in a child process, driven as a
//! manager drives it: one fresh process per game, so that no state (a stale
//! reply, a half-read BOARD block, a table from the last game) carries over;
//! the start-up is not on any move's clock.
//!
//! The manager side of a game: `START n`, `OK` awaited; `INFO timeout_turn`,
//! `INFO max_memory`, `INFO rule` (Gomocup numbering: 0 freestyle, 1 exactly
//! five, 4 renju); the brain's first move is asked with `BEGIN` on an empty
//! board, else with a `BOARD` block of every stone so far in the order played
//! (`x,y,1` the brain's own, `x,y,2` its opponent's) ended by `DONE`; each
//! later move with `TURN x,y` (the opponent's last move); `END` after the
//! game. A command goes out only after the reply to the one before has come
//! in, so nothing depends on how fast the brain reads (some brains lose a
//! command sent while they print their move).
//!
//! Replies are read on a thread of their own and waited for with a hard
//! timeout. `MESSAGE`, `DEBUG`, `UNKNOWN` and `ERROR` lines are information
//! while a move is awaited (an `ERROR` is kept to explain a forfeit); an
//! `ERROR` reply to `START` is fatal. A brain that does not answer in time or
//! whose process ends loses the game ([`Failure`]); what it plays is judged by
//! the arena's referee. The process is killed and reaped when the game is
//! over, and also when the driver is dropped without finishing (a panic).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use gamebot::gomoku::{Point, Rule};

use crate::referee::Colour;

/// Memory a brain may use (`INFO max_memory`, bytes): enough for a good
/// table, small enough that allocating it costs no brain a noticeable share
/// of its first move.
pub const MAX_MEMORY: u64 = 64 << 20;

/// Longest wait for `OK` after `START`: process start-up plus table
/// allocation, on a loaded machine.
const START_TIMEOUT: Duration = Duration::from_secs(15);

/// How long a brain has to exit after `END` before it is killed.
const END_GRACE: Duration = Duration::from_millis(500);

/// Longest reply line kept; the rest of a longer line is read as more lines.
const MAX_LINE_BYTES: u64 = 64 * 1024;

/// Pause between checks for the process's exit after `END`.
const EXIT_POLL: Duration = Duration::from_millis(5);

/// How to start a brain.
#[derive(Clone, Debug)]
pub struct BrainCommand {
    pub program: PathBuf,
    pub args: Vec<String>,
    /// Working directory (some brains read a config file from it).
    pub dir: Option<PathBuf>,
}

impl BrainCommand {
    /// The command line, for the report.
    pub fn describe(&self) -> String {
        let mut s = self.program.display().to_string();
        for a in &self.args {
            s.push(' ');
            s.push_str(a);
        }
        if let Some(dir) = &self.dir {
            s.push_str(&format!(" (in {})", dir.display()));
        }
        s
    }
}

/// What a brain is told before each game, and how long its replies may take.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub size: usize,
    pub rule: Rule,
    /// `INFO timeout_turn`, milliseconds.
    pub timeout_turn_ms: u64,
    /// Hard limit on the wait for a move ([`reply_timeout`]).
    pub reply_timeout: Duration,
}

/// The hard limit on a move's reply for a per-move time of `timeout_turn_ms`:
/// three times the allowance plus 2 s, so that only a brain that has stopped
/// answering (not one that is a little late under load) is caught.
pub fn reply_timeout(timeout_turn_ms: u64) -> Duration {
    Duration::from_millis(timeout_turn_ms.saturating_mul(3).saturating_add(2_000))
}

/// Gomocup's `INFO rule` number of a rule.
pub fn rule_number(rule: Rule) -> u32 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 4,
    }
}

/// Why a brain could not give a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// No move within the reply timeout.
    Timeout,
    /// The process ended or closed its pipes; why, as far as known.
    Crashed(String),
}

/// One line from a brain, as the driver reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Ok,
    /// `x,y`; coordinates too large for a `usize` read as `usize::MAX`
    /// (off any board, for the referee to reject).
    Move(Point),
    Error(String),
    /// `MESSAGE`, `DEBUG`, `UNKNOWN` or a blank line.
    Info,
    /// Anything else.
    Other(String),
}

/// Classifies one line of a brain's output.
pub fn parse_reply(line: &str) -> Reply {
    let line = line.trim();
    let word = line.split_whitespace().next().unwrap_or("");
    let upper = word.to_ascii_uppercase();
    if line.is_empty() || ["MESSAGE", "DEBUG", "UNKNOWN"].contains(&upper.as_str()) {
        return Reply::Info;
    }
    if upper == "OK" && line.len() == 2 {
        return Reply::Ok;
    }
    if upper == "ERROR" {
        return Reply::Error(line.to_string());
    }
    let coordinate = |s: &str| {
        let s = s.trim();
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().unwrap_or(usize::MAX))
    };
    if let Some((x, y)) = line.split_once(',')
        && let (Some(x), Some(y)) = (coordinate(x), coordinate(y))
    {
        return Reply::Move((x, y));
    }
    Reply::Other(line.to_string())
}

/// A line cut short and stripped of control characters, for messages.
fn shown(line: &str) -> String {
    let mut s: String = line
        .chars()
        .take(80)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if line.chars().count() > 80 {
        s.push_str("...");
    }
    s
}

/// A running brain process, for one game.
pub struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    reply_timeout: Duration,
    /// Moves of the game the brain knows (told or played); 0 until its first
    /// move is asked.
    known: usize,
    /// The last `ERROR` line it printed.
    last_error: Option<String>,
    /// The process has been waited for.
    reaped: bool,
}

impl Brain {
    /// Starts the brain and sets it up for a game: `START`, then the `INFO`
    /// lines. Any failure here is an error for the whole run (a brain that
    /// can't start can't be measured).
    pub fn start(command: &BrainCommand, settings: &Settings) -> Result<Brain, String> {
        let mut cmd = Command::new(&command.program);
        cmd.args(&command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if let Some(dir) = &command.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", command.describe()))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut out = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match (&mut out).take(MAX_LINE_BYTES).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut brain = Brain {
            child,
            stdin,
            lines,
            reply_timeout: settings.reply_timeout,
            known: 0,
            last_error: None,
            reaped: false,
        };
        let start = format!("START {}", settings.size);
        let failed = |why: String| format!("{} on {start}: {why}", command.describe());
        brain.send(&start).map_err(|f| failed(brain.explain(&f)))?;
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            match brain.next_line(deadline) {
                Ok(line) => match parse_reply(&line) {
                    Reply::Ok => break,
                    Reply::Error(e) => return Err(failed(shown(&e))),
                    Reply::Move(_) => return Err(failed(format!("answered `{}`", shown(&line)))),
                    Reply::Info | Reply::Other(_) => {}
                },
                Err(f) => return Err(failed(brain.explain(&f))),
            }
        }
        let info = format!(
            "INFO timeout_turn {}\nINFO max_memory {MAX_MEMORY}\nINFO rule {}",
            settings.timeout_turn_ms,
            rule_number(settings.rule)
        );
        brain.send(&info).map_err(|f| failed(brain.explain(&f)))?;
        Ok(brain)
    }

    /// Asks for the move of `colour` after `history` (every stone so far,
    /// black first). Returns the move and the wall time from sending the
    /// command to reading the move.
    pub fn play(
        &mut self,
        history: &[Point],
        colour: Colour,
    ) -> Result<(Point, Duration), Failure> {
        let command = if self.known == 0 {
            if history.is_empty() {
                "BEGIN".to_string()
            } else {
                let mut block = String::from("BOARD\n");
                for (ply, p) in history.iter().enumerate() {
                    let field = if Colour::of_ply(ply) == colour { 1 } else { 2 };
                    block.push_str(&format!("{},{},{field}\n", p.0, p.1));
                }
                block.push_str("DONE");
                block
            }
        } else {
            debug_assert_eq!(
                history.len(),
                self.known + 1,
                "one opponent move between turns"
            );
            let p = history.last().expect("the opponent has moved");
            format!("TURN {},{}", p.0, p.1)
        };
        let sent = Instant::now();
        self.send(&command)?;
        let deadline = sent + self.reply_timeout;
        loop {
            let line = self.next_line(deadline)?;
            match parse_reply(&line) {
                Reply::Move(p) => {
                    self.known = history.len() + 1;
                    return Ok((p, sent.elapsed()));
                }
                Reply::Error(e) => self.last_error = Some(shown(&e)),
                Reply::Other(other) => {
                    eprintln!("brain: ignored line `{}`", shown(&other));
                }
                Reply::Ok | Reply::Info => {}
            }
        }
    }

    /// A failure with what is known about it: the exit status of a process
    /// that ended, the last `ERROR` it printed.
    pub fn explain(&mut self, failure: &Failure) -> String {
        let mut why = brain_failure(failure);
        if let Ok(Some(status)) = self.child.try_wait() {
            self.reaped = true;
            why.push_str(&format!(" ({status})"));
        }
        if let Some(e) = &self.last_error {
            why.push_str(&format!("; its last error: {e}"));
        }
        why
    }

    /// Ends the game: `END`, a short grace to exit, then kill; always reaped.
    pub fn finish(mut self) {
        if self.send("END").is_ok() {
            self.stdin = None;
            let deadline = Instant::now() + END_GRACE;
            while Instant::now() < deadline {
                match self.child.try_wait() {
                    Ok(Some(_)) => {
                        self.reaped = true;
                        return;
                    }
                    Ok(None) => std::thread::sleep(EXIT_POLL),
                    Err(_) => break,
                }
            }
        }
        self.kill();
    }

    /// The process id (tests check that it is gone).
    #[cfg(test)]
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    fn send(&mut self, lines: &str) -> Result<(), Failure> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| Failure::Crashed("its input is closed".to_string()))?;
        stdin
            .write_all(format!("{lines}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| Failure::Crashed(format!("its input is closed ({e})")))
    }

    fn next_line(&mut self, deadline: Instant) -> Result<String, Failure> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Failure::Timeout),
            Err(RecvTimeoutError::Disconnected) => {
                Err(Failure::Crashed("its output closed".to_string()))
            }
        }
    }

    fn kill(&mut self) {
        if !self.reaped {
            // Fails only when the process has exited already; wait reaps it either way.
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.reaped = true;
        }
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        self.kill();
    }
}

fn brain_failure(failure: &Failure) -> String {
    match failure {
        Failure::Timeout => "no reply in time".to_string(),
        Failure::Crashed(why) => format!("crashed: {why}"),
    }
}
