//! Tests of the piskvork protocol front end.

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
