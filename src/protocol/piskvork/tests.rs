//! Tests of the piskvork protocol front end.

use std::time::Duration;

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
    assert_eq!(parse_command("YXNBEST 5"), Ok(Command::NBest(5)));
    assert_eq!(parse_command("yxnbest 0\r"), Ok(Command::NBest(0)));
    assert_eq!(parse_command("SWAP2BOARD"), Ok(Command::Swap2Board));
    assert_eq!(parse_command("swap2board\r"), Ok(Command::Swap2Board));
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
        parse_command("YXSHOWFORBID"),
        Err(ParseError::Unknown("YXSHOWFORBID".into()))
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
        "YXNBEST",
        "YXNBEST x",
        "YXNBEST -1",
        "YXNBEST 3,3",
        "SWAP2BOARD 3",
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
        ..Limits::default()
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

#[test]
fn swap2_lines_and_caps_parse() {
    assert_eq!(parse_swap2_line("7,7"), Some((7, 7)));
    assert_eq!(parse_swap2_line(" 8 , 9 \r"), Some((8, 9)));
    // a manager that sends its BOARD lines: the field is ignored
    assert_eq!(parse_swap2_line("8,9,2"), Some((8, 9)));
    for bad in ["7", "7,", "7,7,3", "7,7,0", "7,7,1,1", "x,7", "-1,7", ""] {
        assert_eq!(parse_swap2_line(bad), None, "{bad}");
    }
    assert_eq!(parse_cap("5000"), Ok(Some(5000)));
    assert_eq!(parse_cap(" 12 "), Ok(Some(12)));
    assert_eq!(parse_cap("0"), Ok(None));
    assert_eq!(parse_cap("-1"), Ok(None));
    assert_eq!(parse_cap("18446744073709551615"), Ok(Some(u64::MAX)));
    for bad in ["", "x", "1.5", "99999999999999999999999"] {
        assert_eq!(parse_cap(bad), Err(()), "{bad}");
    }
}

#[test]
fn info_max_node_and_max_depth_cap_the_searches() {
    let mut b = Brain::new();
    assert_eq!(b.limits.max_nodes, None);
    for line in ["INFO max_node 300", "INFO max_depth 2"] {
        assert!(b.handle_line(line).is_empty(), "{line}");
    }
    assert_eq!(
        (b.limits.max_nodes, b.limits.max_depth),
        (Some(300), Some(2))
    );
    assert_eq!(b.handle_line("START 15"), ["OK"]);
    b.handle_line("INFO timeout_turn 60000");
    b.handle_line("INFO timeout_match 0");
    b.handle_line("PLAY 7,7");
    let replies = b.handle_line("TURN 8,8");
    // MESSAGE depth D eval E nodes N ...: the caps, not the minute, ended it
    let words: Vec<&str> = replies[0].split(' ').collect();
    let depth: u32 = words[2].parse().unwrap();
    let nodes: u64 = words[6].parse().unwrap();
    assert!(depth <= 2 && nodes <= 302, "{replies:?}");
    // 0 and negative numbers lift the caps; junk leaves them
    b.handle_line("INFO max_node soon");
    assert_eq!(b.limits.max_nodes, Some(300));
    b.handle_line("INFO max_node 0");
    b.handle_line("INFO max_depth -1");
    assert_eq!((b.limits.max_nodes, b.limits.max_depth), (None, None));
}

#[test]
fn yxnbest_ranks_moves_then_plays_the_best() {
    let mut b = brain();
    assert_eq!(b.handle_line("START 15"), ["OK"]);
    for line in ["PLAY 7,7", "TURN 8,8"] {
        b.handle_line(line);
    }
    let before = b.board().unwrap().moves();
    let replies = b.handle_line("YXNBEST 3");
    let p = point_of(&replies);
    let nbest: Vec<&String> = replies
        .iter()
        .filter(|r| r.starts_with("MESSAGE nbest "))
        .collect();
    assert!((1..=3).contains(&nbest.len()), "{replies:?}");
    assert!(
        nbest[0].starts_with(&format!("MESSAGE nbest 1: {},{} eval ", p.0, p.1)),
        "{replies:?}"
    );
    for (k, line) in nbest.iter().enumerate() {
        assert!(line.starts_with(&format!("MESSAGE nbest {}: ", k + 1)));
        assert!(line.contains(" pv "), "{line}");
    }
    // the nbest lines come first, the move last
    assert!(
        replies[..nbest.len()]
            .iter()
            .all(|r| r.starts_with("MESSAGE nbest"))
    );
    let mut after = before.clone();
    after.push(p);
    assert_eq!(b.board().unwrap().moves(), after);
    // 0 counts as 1; more than the cap is capped
    let replies = b.handle_line("YXNBEST 0");
    let count = |r: &[String]| r.iter().filter(|l| l.starts_with("MESSAGE nbest")).count();
    assert_eq!(count(&replies), 1, "{replies:?}");
    let replies = b.handle_line("YXNBEST 500");
    assert!(
        (1..=MAX_CANDIDATES).contains(&count(&replies)),
        "{replies:?}"
    );
    assert!(Brain::new().handle_line("YXNBEST 2")[0].starts_with("ERROR"));
}

fn swap2(b: &mut Brain, stones: &[&str]) -> Vec<String> {
    assert!(b.handle_line("SWAP2BOARD").is_empty());
    for s in stones {
        assert!(b.handle_line(s).is_empty(), "{s}");
    }
    b.handle_line("DONE")
}

#[test]
fn swap2_with_no_stones_opens_with_three() {
    for size in [15, 20, 5] {
        let mut b = brain();
        assert_eq!(b.handle_line(&format!("START {size}")), ["OK"]);
        b.handle_line("PLAY 0,0");
        let replies = swap2(&mut b, &[]);
        let last = replies.last().unwrap();
        let stones: Vec<Point> = last
            .split(' ')
            .map(|s| parse_pair(s).unwrap_or_else(|| panic!("{replies:?}")))
            .collect();
        assert_eq!(stones.len(), 3, "{replies:?}");
        // the opening is on the board (the old game is gone); white to move
        let board = b.board().unwrap();
        assert_eq!(board.moves(), stones);
        assert_eq!(board.to_move(), gomoku::Stone::White);
        let shapes: Vec<[Point; 3]> = swap2::OPENINGS
            .iter()
            .filter_map(|&s| swap2::opening_stones(size, s))
            .collect();
        assert!(shapes.iter().any(|s| s[..] == stones[..]), "{stones:?}");
        // the opponent stays white: the brain plays black's next move
        let free = (0..size * size)
            .map(|c| (c % size, c / size))
            .find(|p| !stones.contains(p))
            .unwrap();
        let reply = b.handle_line(&format!("TURN {},{}", free.0, free.1));
        let p = point_of(&reply);
        assert_eq!(b.board().unwrap().stone(p), Some(gomoku::Stone::Black));
    }
}

#[test]
fn swap2_with_three_or_five_stones_swaps_or_plays_white() {
    for stones in [
        &["7,7", "8,7", "9,9"][..],
        &["7,7", "8,7", "9,9", "8,8", "8,6"][..],
        &["7,7", "0,14", "7,8"][..],
    ] {
        let mut b = brain();
        assert_eq!(b.handle_line("START 15"), ["OK"]);
        let replies = swap2(&mut b, stones);
        assert!(replies[0].starts_with("MESSAGE swap2 "), "{replies:?}");
        let board = b.board().unwrap().clone();
        let given: Vec<Point> = stones.iter().map(|s| parse_pair(s).unwrap()).collect();
        let answer = replies.last().unwrap();
        if answer == "SWAP" {
            // the brain is black: white moves next, then the brain answers as black
            assert_eq!(board.moves(), given);
            let reply = b.handle_line("TURN 0,0");
            let p = point_of(&reply);
            assert_eq!(b.board().unwrap().stone(p), Some(gomoku::Stone::Black));
        } else {
            // the brain stays white and has played white's move
            let p = parse_pair(answer).unwrap_or_else(|| panic!("{replies:?}"));
            assert_eq!(board.moves()[..given.len()], given[..]);
            assert_eq!(board.moves().last(), Some(&p));
            assert_eq!(board.stone(p), Some(gomoku::Stone::White));
            let reply = b.handle_line("TURN 0,1");
            let q = point_of(&reply);
            assert_eq!(b.board().unwrap().stone(q), Some(gomoku::Stone::White));
        }
    }
    // black far ahead: an open three of black's to face, the brain takes black
    let mut b = brain();
    assert_eq!(b.handle_line("START 15"), ["OK"]);
    let replies = swap2(&mut b, &["7,7", "0,0", "8,7", "14,14", "9,7"]);
    assert_eq!(
        replies.last().map(String::as_str),
        Some("SWAP"),
        "{replies:?}"
    );
}

#[test]
fn bad_swap2_blocks_answer_error_and_keep_the_board() {
    let mut b = brain();
    assert!(swap2(&mut b, &[])[0].starts_with("ERROR SWAP2BOARD before START"));
    assert_eq!(b.handle_line("START 15"), ["OK"]);
    assert_eq!(b.handle_line("PLAY 3,3"), ["3,3"]);
    for (stones, why) in [
        (&["7,7"][..], "1 stones"),
        (&["7,7", "8,8"][..], "2 stones"),
        (&["7,7", "8,8", "9,9", "6,6"][..], "4 stones"),
        (
            &["7,7", "8,8", "9,9", "6,6", "5,5", "4,4"][..],
            "more than 5",
        ),
        (&["7,7", "8,8", "7,7"][..], "occupied"),
        (&["7,7", "8,8", "15,0"][..], "off the"),
        (&["7,7", "8,8", "junk"][..], "bad SWAP2BOARD line"),
    ] {
        let replies = swap2(&mut b, stones);
        assert_eq!(replies.len(), 1, "{stones:?}: {replies:?}");
        assert!(
            replies[0].starts_with("ERROR") && replies[0].contains(why),
            "{stones:?}: {replies:?}"
        );
        assert_eq!(b.board().unwrap().moves(), [(3, 3)]);
    }
    // a command ends the block; the board stays
    b.handle_line("SWAP2BOARD");
    b.handle_line("7,7");
    let replies = b.handle_line("ABOUT");
    assert!(replies[0].starts_with("ERROR SWAP2BOARD block ended by ABOUT"));
    assert_eq!(replies[1], ABOUT);
    assert_eq!(b.board().unwrap().moves(), [(3, 3)]);
    // renju: a black stone on a forbidden point is refused like any bad history
    let mut b = brain();
    b.handle_line("INFO rule 4");
    assert_eq!(b.handle_line("START 15"), ["OK"]);
    assert!(swap2(&mut b, &["7,7", "8,8", "7,7"])[0].starts_with("ERROR"));
}

fn found(best: Point, eval: i32) -> gomoku::SearchResult {
    gomoku::SearchResult {
        best,
        eval,
        win_in: None,
        depth: 1,
        nodes: 1,
        pv: vec![best],
        candidates: Vec::new(),
    }
}

#[test]
fn swap2_takes_the_better_side_and_the_most_balanced_opening() {
    assert_eq!(
        swap2::choose_side(&found((3, 3), 12)),
        swap2::Choice::Play((3, 3))
    );
    assert_eq!(
        swap2::choose_side(&found((3, 3), 0)),
        swap2::Choice::Play((3, 3))
    );
    assert_eq!(swap2::choose_side(&found((3, 3), -1)), swap2::Choice::Swap);
    // the shape nearest 0 wins, whatever its sign
    let evals = [90, -40, 25, -7, 60, 8, -7, 100];
    let mut i = 0;
    let chosen = swap2::choose_opening(15, Rule::Freestyle, &Stop::never(), |_| {
        i += 1;
        Some(found((0, 0), evals[i - 1]))
    });
    assert_eq!(i, swap2::OPENINGS.len());
    let expected = swap2::opening_stones(15, swap2::OPENINGS[3]).unwrap();
    assert_eq!(chosen, Some((expected, -7)));
    // a 5 × 5 board takes the shapes that fit; a stopped clock, only the first
    let fits = swap2::OPENINGS
        .iter()
        .filter(|&&s| swap2::opening_stones(5, s).is_some())
        .count();
    assert!((1..swap2::OPENINGS.len()).contains(&fits));
    let mut searched = 0;
    swap2::choose_opening(5, Rule::Renju, &Stop::never(), |_| {
        searched += 1;
        Some(found((0, 0), 5))
    });
    assert_eq!(searched, fits);
    let stop = Stop::never();
    stop.cancel();
    let mut searched = 0;
    let chosen = swap2::choose_opening(15, Rule::Freestyle, &stop, |_| {
        searched += 1;
        Some(found((0, 0), 5))
    });
    assert_eq!(searched, 1);
    assert!(chosen.is_some());
    // the opening searches keep the brain's caps, within their own budget
    let capped = swap2::opening_limits(&Limits {
        max_nodes: Some(500),
        max_depth: Some(3),
        candidates: 4,
    });
    assert_eq!(
        (capped.max_nodes, capped.max_depth, capped.candidates),
        (Some(500), Some(3), 1)
    );
    let open = swap2::opening_limits(&Limits::default());
    assert_eq!(open.max_nodes, Some(swap2::OPENING_NODES));
}
