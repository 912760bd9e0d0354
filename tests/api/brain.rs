//! The Gomocup brain binary, driven through its stdin/stdout pipes as a
//! piskvork manager drives it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use gamebot::gomoku::{self, Board, Point, Rule};

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-gamebot");
/// Longest wait for one reply; the brains here think ≤ 300 ms a move.
const REPLY_TIMEOUT: Duration = Duration::from_secs(20);

struct Brain {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Brain {
    /// Starts the brain with fast time controls.
    fn spawn() -> Brain {
        let mut child = Command::new(BIN)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("pbrain-gamebot starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut brain = Brain {
            child,
            stdin,
            lines,
        };
        brain.send("INFO timeout_match 0");
        brain.send("INFO timeout_turn 300");
        brain.send("INFO max_memory 83886080");
        brain
    }

    fn send(&mut self, line: &str) {
        // The manager ends lines with CR LF.
        write!(self.stdin, "{line}\r\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next reply, skipping MESSAGE and DEBUG lines.
    fn reply(&mut self) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(REPLY_TIMEOUT)
                .expect("the brain replies in time");
            if !line.starts_with("MESSAGE") && !line.starts_with("DEBUG") {
                return line;
            }
        }
    }

    /// The MESSAGE lines before the next reply, and the reply.
    fn messages_and_reply(&mut self, line: &str) -> (Vec<String>, String) {
        self.send(line);
        let mut messages = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(REPLY_TIMEOUT)
                .expect("the brain replies in time");
            if line.starts_with("MESSAGE") {
                messages.push(line);
            } else if !line.starts_with("DEBUG") {
                return (messages, line);
            }
        }
    }

    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.reply()
    }

    fn ask_move(&mut self, line: &str) -> Point {
        let reply = self.ask(line);
        parse_point(&reply).unwrap_or_else(|| panic!("{line}: expected x,y, got {reply:?}"))
    }

    /// Waits for the process to exit; its status.
    fn wait_exit(&mut self, limit: Duration) -> std::process::ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(start.elapsed() < limit, "the brain did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn parse_point(s: &str) -> Option<Point> {
    let (x, y) = s.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

#[test]
fn plays_a_game_against_itself_answers_only_legal_moves_and_ends() {
    let mut brain = Brain::spawn();
    let about = brain.ask("ABOUT");
    assert!(about.starts_with("name=\"gamebot\""), "{about}");
    assert!(about.contains("version=\""), "{about}");
    assert_eq!(brain.ask("START 15"), "OK");
    // We keep the same game on our board and play the opponent: the first
    // free point of a fixed list near the centre.
    let mut board = Board::new(15, Rule::Freestyle).unwrap();
    let mut p = brain.ask_move("BEGIN");
    for _ in 0..12 {
        assert!(board.is_legal(p), "{p:?} after {:?}", board.moves());
        board.play(p);
        if board.winner().is_some() {
            break;
        }
        let reply = (0..15)
            .flat_map(|r| [(7 + r / 2, 7 + r % 3), (7 - r / 3, 6 + r % 4)])
            .find(|&q| board.is_legal(q))
            .expect("a free point");
        board.play(reply);
        if board.winner().is_some() {
            break;
        }
        p = brain.ask_move(&format!("TURN {},{}", reply.0, reply.1));
    }
    // Take back the brain's last move, then our last one.
    let last = *board.moves().last().unwrap();
    assert_eq!(brain.ask(&format!("TAKEBACK {},{}", last.0, last.1)), "OK");
    brain.send("END");
    assert!(brain.wait_exit(Duration::from_secs(5)).success());
}

#[test]
fn bad_input_gets_error_and_the_brain_keeps_going() {
    let mut brain = Brain::spawn();
    assert!(
        brain.ask("TURN 7,7").starts_with("ERROR"),
        "TURN before START"
    );
    assert!(brain.ask("START 4").starts_with("ERROR"));
    assert!(brain.ask("START 23").starts_with("ERROR"));
    assert!(brain.ask("START x").starts_with("ERROR"));
    assert!(brain.ask("RECTSTART 20,15").starts_with("ERROR"));
    assert_eq!(brain.ask("RECTSTART 20,20"), "OK");
    assert_eq!(brain.ask("START 20"), "OK");
    assert!(brain.ask("FROBNICATE 1").starts_with("UNKNOWN"));
    assert!(brain.ask("TURN 20,0").starts_with("ERROR"), "off the board");
    assert!(brain.ask("TURN 1").starts_with("ERROR"));
    assert!(
        brain
            .ask("TURN 99999999999999999999999,1")
            .starts_with("ERROR")
    );
    assert!(
        brain.ask("TAKEBACK 3,3").starts_with("ERROR"),
        "no such move"
    );
    // Unknown and malformed INFO lines get no reply at all.
    brain.send("INFO frobnicate 12");
    brain.send("INFO timeout_turn soon");
    let p = brain.ask_move("TURN 10,10");
    assert!(p != (10, 10) && p.0 < 20 && p.1 < 20, "{p:?}");
    assert!(
        brain
            .ask(&format!("TURN {},{}", p.0, p.1))
            .starts_with("ERROR"),
        "occupied"
    );
    // A BOARD block with a bad line, and one that isn't a position.
    brain.send("BOARD");
    brain.send("1,1,1");
    brain.send("garbage");
    assert!(brain.ask("DONE").starts_with("ERROR"));
    brain.send("BOARD");
    for line in ["1,1,1", "2,2,1", "3,3,1", "4,4,2"] {
        brain.send(line);
    }
    assert!(brain.ask("DONE").starts_with("ERROR"), "3 own, 1 opponent");
    brain.send("BOARD");
    brain.send("1,1,3");
    assert!(brain.ask("DONE").starts_with("ERROR"), "continuous game");
    brain.send("BEGIN");
    assert!(
        brain.reply().starts_with("ERROR"),
        "BEGIN on a non-empty board"
    );
    // Still alive and well.
    assert_eq!(brain.ask("RESTART"), "OK");
    let p = brain.ask_move("BEGIN");
    assert!(p.0 < 20 && p.1 < 20);
    brain.send("END");
    assert!(brain.wait_exit(Duration::from_secs(5)).success());
}

fn board_block(own: &[Point], opponent: &[Point]) -> Vec<String> {
    let mut lines = vec!["BOARD".to_string()];
    // Piskvork sends stones in the order played; interleave black first.
    let (first, second, first_field, second_field) = if own.len() == opponent.len() {
        (own, opponent, 1, 2)
    } else {
        (opponent, own, 2, 1)
    };
    for (i, p) in first.iter().enumerate() {
        lines.push(format!("{},{},{first_field}", p.0, p.1));
        if let Some(q) = second.get(i) {
            lines.push(format!("{},{},{second_field}", q.0, q.1));
        }
    }
    lines.push("DONE".to_string());
    lines
}

fn answer_to_board(brain: &mut Brain, own: &[Point], opponent: &[Point]) -> Point {
    let lines = board_block(own, opponent);
    let (last, block) = lines.split_last().unwrap();
    for line in block {
        brain.send(line);
    }
    brain.ask_move(last)
}

#[test]
fn board_positions_must_win_and_must_block() {
    let mut brain = Brain::spawn();
    assert_eq!(brain.ask("START 15"), "OK");
    // Own four in a row, open at both ends: complete the five.
    let p = answer_to_board(
        &mut brain,
        &[(3, 7), (4, 7), (5, 7), (6, 7)],
        &[(3, 8), (4, 8), (5, 8), (10, 10)],
    );
    assert!(p == (2, 7) || p == (7, 7), "{p:?}");
    // The opponent's four, blocked at one end; no own four: block the other end.
    assert_eq!(brain.ask("RESTART"), "OK");
    let p = answer_to_board(
        &mut brain,
        &[(4, 5), (14, 14), (0, 14)],
        &[(5, 5), (6, 5), (7, 5), (8, 5)],
    );
    assert_eq!(p, (9, 5));
    brain.send("END");
    assert!(brain.wait_exit(Duration::from_secs(5)).success());
}

#[test]
fn renju_from_info_rule_is_respected() {
    let mut brain = Brain::spawn();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("INFO rule 4");
    // Black (the brain, equal counts) has two open twos crossing at (7, 7):
    // a double three there, forbidden under renju.
    let own = [(5, 7), (6, 7), (7, 5), (7, 6)];
    let opponent = [(0, 0), (14, 0), (0, 14), (14, 14)];
    let p = answer_to_board(&mut brain, &own, &opponent);
    let moves: Vec<Point> = own
        .iter()
        .zip(&opponent)
        .flat_map(|(&b, &w)| [b, w])
        .collect();
    let board = Board::from_moves(15, Rule::Renju, &moves).unwrap();
    assert!(board.is_forbidden((7, 7)), "the test's premise");
    assert!(
        board.is_legal(p),
        "{p:?} is not legal for black under renju"
    );
    brain.send("END");
    assert!(brain.wait_exit(Duration::from_secs(5)).success());
}

#[test]
fn end_during_a_long_search_exits_promptly() {
    let mut brain = Brain::spawn();
    assert_eq!(brain.ask("START 15"), "OK");
    let p = brain.ask_move("TURN 7,7");
    assert!(p != (7, 7) && p != (3, 3));
    // A one-minute search, interrupted by END.
    brain.send("INFO timeout_turn 60000");
    let started = Instant::now();
    brain.send("TURN 3,3");
    std::thread::sleep(Duration::from_millis(100));
    brain.send("END");
    assert!(brain.wait_exit(Duration::from_secs(10)).success());
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn end_inside_a_board_block_ends_the_block_and_the_brain() {
    let mut brain = Brain::spawn();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("BOARD");
    brain.send("1,1,1");
    brain.send("2,2,2");
    let reply = brain.ask("END");
    assert!(
        reply.starts_with("ERROR BOARD block ended by END"),
        "{reply}"
    );
    // Stdin stays open: END itself must end the process.
    assert!(brain.wait_exit(Duration::from_secs(5)).success());
}

#[test]
fn a_command_inside_a_board_block_is_carried_out() {
    let mut brain = Brain::spawn();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("BOARD");
    brain.send("1,1,1");
    assert!(
        brain
            .ask("TURN 7,7")
            .starts_with("ERROR BOARD block ended by TURN")
    );
    // TURN then plays on the board as it was before BOARD (empty).
    let p = brain.reply();
    let p = parse_point(&p).unwrap_or_else(|| panic!("expected x,y, got {p:?}"));
    assert!(p != (7, 7) && p.0 < 15 && p.1 < 15, "{p:?}");
    brain.send("END");
    assert!(brain.wait_exit(Duration::from_secs(5)).success());
}

#[test]
fn overlong_lines_big_blocks_and_control_bytes_are_answered_safely() {
    let mut brain = Brain::spawn();
    // A megabyte without a line break: skipped with ERROR, the brain goes on.
    let reply = brain.ask(&"7".repeat(1 << 20));
    assert_eq!(reply, "ERROR a line longer than 4096 bytes was skipped");
    assert!(brain.ask("ABOUT").starts_with("name=\"gamebot\""));
    // Control bytes are not echoed raw.
    let reply = brain.ask("\u{1b}[2J\u{7}\u{0}HELLO");
    assert_eq!(
        reply,
        "UNKNOWN command \\u{1b}[2J\\u{7}\\u{0}HELLO is not supported"
    );
    let reply = brain.ask(&format!("\u{1b}{}", "A".repeat(3000)));
    assert!(reply.starts_with("UNKNOWN") && reply.len() < 100, "{reply}");
    // More stones than points in a BOARD block.
    assert_eq!(brain.ask("START 5"), "OK");
    brain.send("BOARD");
    for _ in 0..30 {
        brain.send("0,0,1");
    }
    let reply = brain.ask("DONE");
    assert!(reply.starts_with("ERROR more than 25 stones"), "{reply}");
    brain.send("END");
    assert!(brain.wait_exit(Duration::from_secs(5)).success());
}

/// `MESSAGE depth D eval E nodes N ...`: D and N.
fn depth_and_nodes(messages: &[String]) -> (u32, u64) {
    let line = messages
        .iter()
        .find(|m| m.starts_with("MESSAGE depth "))
        .unwrap_or_else(|| panic!("no depth line in {messages:?}"));
    let words: Vec<&str> = line.split(' ').collect();
    (words[2].parse().unwrap(), words[6].parse().unwrap())
}

/// A legal point for the opponent, off to the side of the game.
fn free_point(board: &Board) -> Point {
    [(0, 7), (14, 7), (7, 0), (7, 14), (0, 0), (14, 14)]
        .into_iter()
        .find(|&p| board.is_legal(p))
        .expect("a free point")
}

/// The points of a reply made of `x,y` words.
fn points(reply: &str) -> Vec<Point> {
    reply
        .split(' ')
        .map(|w| parse_point(w).unwrap_or_else(|| panic!("not x,y words: {reply:?}")))
        .collect()
}

#[test]
fn yxnbest_reports_ranked_moves_then_plays_the_best() {
    let mut brain = Brain::spawn();
    assert_eq!(brain.ask("START 15"), "OK");
    let (own, opponent) = ([(7, 7), (8, 9)], [(8, 8), (6, 6)]);
    let lines = board_block(&own, &opponent);
    let (last, block) = lines.split_last().unwrap();
    for line in block {
        brain.send(line);
    }
    // Take the brain's answer back: it is to move again, and asked for hints.
    let first = brain.ask_move(last);
    assert_eq!(
        brain.ask(&format!("TAKEBACK {},{}", first.0, first.1)),
        "OK"
    );
    let (messages, reply) = brain.messages_and_reply("YXNBEST 4");
    let best = parse_point(&reply).unwrap_or_else(|| panic!("{reply:?}"));
    let nbest: Vec<&String> = messages
        .iter()
        .filter(|m| m.starts_with("MESSAGE nbest "))
        .collect();
    assert!((2..=4).contains(&nbest.len()), "{messages:?}");
    let mut board = Board::new(15, Rule::Freestyle).unwrap();
    for (&b, &w) in own.iter().zip(&opponent) {
        board.play(b);
        board.play(w);
    }
    let mut ranked = Vec::new();
    for (k, line) in nbest.iter().enumerate() {
        // MESSAGE nbest k: x,y eval e [win_in w] pv x,y ...
        let rest = line
            .strip_prefix(&format!("MESSAGE nbest {}: ", k + 1))
            .unwrap_or_else(|| panic!("{line}"));
        let (head, pv) = rest.split_once(" pv ").unwrap_or_else(|| panic!("{line}"));
        let p = parse_point(head.split(' ').next().unwrap()).unwrap();
        assert!(head.contains(" eval "), "{line}");
        assert!(board.is_legal(p) && !ranked.contains(&p), "{line}");
        assert_eq!(points(pv)[0], p, "{line}");
        ranked.push(p);
    }
    assert_eq!(ranked[0], best, "{messages:?}");
    // The move was played: the opponent's next move goes on from it.
    board.play(best);
    let reply = free_point(&board);
    let next = brain.ask_move(&format!("TURN {},{}", reply.0, reply.1));
    board.play(reply);
    assert!(board.is_legal(next), "{next:?}");
    brain.send("END");
    assert!(brain.wait_exit(Duration::from_secs(5)).success());
}

#[test]
fn info_max_node_and_max_depth_bound_the_search() {
    let mut brain = Brain::spawn();
    assert_eq!(brain.ask("START 15"), "OK");
    // A minute a move: only the caps can end these searches early.
    brain.send("INFO timeout_turn 60000");
    brain.send("INFO max_node 500");
    brain.send("INFO max_depth 3");
    let started = Instant::now();
    let (messages, reply) = brain.messages_and_reply("TURN 7,7");
    assert!(parse_point(&reply).is_some(), "{reply:?}");
    let (depth, nodes) = depth_and_nodes(&messages);
    assert!(depth <= 3 && nodes <= 502, "{messages:?}");
    brain.send("INFO max_node 0");
    let (messages, _) = brain.messages_and_reply("TURN 9,9");
    let (depth, _) = depth_and_nodes(&messages);
    assert!(depth <= 3, "{messages:?}");
    assert!(started.elapsed() < Duration::from_secs(30));
    // Both lifted: back to the clock (a short one).
    brain.send("INFO max_depth 0");
    brain.send("INFO timeout_turn 300");
    let (messages, _) = brain.messages_and_reply("TURN 5,9");
    let (depth, nodes) = depth_and_nodes(&messages);
    assert!(depth > 3 || nodes > 502, "{messages:?}");
    brain.send("END");
    assert!(brain.wait_exit(Duration::from_secs(5)).success());
}

#[test]
fn swap2board_opens_and_the_game_goes_on_with_turn() {
    let mut brain = Brain::spawn();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("SWAP2BOARD");
    let (messages, reply) = brain.messages_and_reply("DONE");
    assert!(
        messages.iter().any(|m| m.starts_with("MESSAGE swap2")),
        "{messages:?}"
    );
    let opening = points(&reply);
    assert_eq!(opening.len(), 3, "{reply:?}");
    let mut board = Board::from_moves(15, Rule::Freestyle, &opening).unwrap();
    // The opponent stays white and plays; the brain answers as black.
    for _ in 0..2 {
        let reply = free_point(&board);
        board.play(reply);
        let p = brain.ask_move(&format!("TURN {},{}", reply.0, reply.1));
        assert!(board.is_legal(p), "{p:?} after {:?}", board.moves());
        board.play(p);
        assert_eq!(board.stone(p), Some(gomoku::Stone::Black));
    }
    brain.send("END");
    assert!(brain.wait_exit(Duration::from_secs(5)).success());
}

#[test]
fn swap2board_after_three_and_five_stones_swaps_or_plays_white() {
    for stones in [
        vec![(7, 7), (8, 7), (9, 9)],
        vec![(7, 7), (8, 7), (9, 9), (8, 8), (8, 6)],
        // black well ahead: an open three, white to move
        vec![(7, 7), (0, 0), (8, 7), (14, 14), (9, 7)],
    ] {
        let mut brain = Brain::spawn();
        assert_eq!(brain.ask("START 15"), "OK");
        brain.send("SWAP2BOARD");
        for p in &stones {
            brain.send(&format!("{},{}", p.0, p.1));
        }
        let answer = brain.ask("DONE");
        let mut board = Board::from_moves(15, Rule::Freestyle, &stones).unwrap();
        let brain_colour = if answer == "SWAP" {
            gomoku::Stone::Black
        } else {
            let p = parse_point(&answer).unwrap_or_else(|| panic!("{answer:?}"));
            assert!(board.is_legal(p), "{p:?}");
            board.play(p);
            gomoku::Stone::White
        };
        if stones.len() == 5 && stones[1] == (0, 0) {
            assert_eq!(answer, "SWAP", "black's open three");
        }
        // The game goes on with TURN, the brain keeping its colour.
        for _ in 0..2 {
            if board.winner().is_some() {
                break;
            }
            let reply = free_point(&board);
            board.play(reply);
            let p = brain.ask_move(&format!("TURN {},{}", reply.0, reply.1));
            assert!(board.is_legal(p), "{p:?} after {:?}", board.moves());
            board.play(p);
            assert_eq!(board.stone(p), Some(brain_colour), "{stones:?}");
        }
        brain.send("END");
        assert!(brain.wait_exit(Duration::from_secs(5)).success());
    }
}

#[test]
fn a_small_time_left_is_answered_quickly() {
    let mut brain = Brain::spawn();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("INFO timeout_turn 5000");
    brain.send("INFO timeout_match 180000");
    brain.send("INFO time_left 200");
    // An open position the brain would think about for all of timeout_turn.
    let own = [(7, 7), (8, 9)];
    let opponent = [(8, 8), (6, 6)];
    let lines = board_block(&own, &opponent);
    let (last, block) = lines.split_last().unwrap();
    for line in block {
        brain.send(line);
    }
    // A few milliseconds of the 200 left, not the 5 s of timeout_turn.
    let started = Instant::now();
    let p = brain.ask_move(last);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(p.0 < 15 && p.1 < 15);
    brain.send("END");
    assert!(brain.wait_exit(Duration::from_secs(5)).success());
}
