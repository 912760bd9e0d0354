use super::*;

fn grid(n: usize, black: &[(isize, isize)], white: &[(isize, isize)]) -> Grid {
    let mut g = Grid::new(n);
    for &(x, y) in black {
        g.set(x, y, 1);
    }
    for &(x, y) in white {
        g.set(x, y, 2);
    }
    g
}

#[test]
fn fives_and_overlines_by_rule() {
    let mut g = grid(15, &[(3, 7), (4, 7), (5, 7), (6, 7), (8, 7)], &[]);
    // (7, 7) joins five and one more: an overline of six.
    assert_eq!(
        g.try_move(7, 7, Colour::Black, Rule::Freestyle),
        Verdict::Win
    );
    assert_eq!(
        g.try_move(7, 7, Colour::Black, Rule::Standard),
        Verdict::Continue
    );
    assert_eq!(
        g.try_move(7, 7, Colour::Black, Rule::Renju),
        Verdict::Forbidden
    );
    let mut w = grid(15, &[], &[(3, 7), (4, 7), (5, 7), (6, 7), (8, 7)]);
    assert_eq!(w.try_move(7, 7, Colour::White, Rule::Renju), Verdict::Win);
    assert_eq!(
        w.try_move(7, 7, Colour::White, Rule::Standard),
        Verdict::Continue
    );
    // Exactly five wins everywhere.
    let mut g = grid(15, &[(3, 7), (4, 7), (5, 7), (6, 7)], &[]);
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        assert_eq!(g.try_move(7, 7, Colour::Black, rule), Verdict::Win);
    }
}

#[test]
fn renju_double_three_and_double_four() {
    // Two open twos crossing at (7, 7): a double three.
    let mut g = grid(15, &[(5, 7), (6, 7), (7, 5), (7, 6)], &[]);
    assert_eq!(
        g.try_move(7, 7, Colour::Black, Rule::Renju),
        Verdict::Forbidden
    );
    assert_eq!(
        g.try_move(7, 7, Colour::Black, Rule::Freestyle),
        Verdict::Continue
    );
    // One of the threes is blocked at an end: only a single three.
    let mut g = grid(15, &[(5, 7), (6, 7), (7, 5), (7, 6)], &[(4, 7), (8, 7)]);
    assert_eq!(
        g.try_move(7, 7, Colour::Black, Rule::Renju),
        Verdict::Continue
    );
    // Two fours crossing: forbidden; four-three: allowed.
    let mut g = grid(
        15,
        &[(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)],
        &[(3, 7), (7, 3)],
    );
    assert_eq!(
        g.try_move(7, 7, Colour::Black, Rule::Renju),
        Verdict::Forbidden
    );
    let mut g = grid(15, &[(4, 7), (5, 7), (6, 7), (7, 5), (7, 6)], &[(3, 7)]);
    assert_eq!(
        g.try_move(7, 7, Colour::Black, Rule::Renju),
        Verdict::Continue
    );
    // Double four in one line: X.XXX.X with the middle stone played.
    let mut g = grid(15, &[(3, 7), (5, 7), (7, 7), (9, 7)], &[]);
    assert_eq!(
        g.try_move(6, 7, Colour::Black, Rule::Renju),
        Verdict::Forbidden
    );
    // A straight four is a single four.
    let mut g = grid(15, &[(4, 7), (5, 7), (6, 7)], &[]);
    assert_eq!(
        g.try_move(7, 7, Colour::Black, Rule::Renju),
        Verdict::Continue
    );
}

#[test]
fn renju_three_that_cannot_become_a_straight_four() {
    // (7, 7) makes a vertical three and a horizontal "three" 5-6-7.
    let black = [(5, 7), (6, 7), (7, 5), (7, 6)];
    let mut g = grid(15, &black, &[]);
    assert_eq!(
        g.try_move(7, 7, Colour::Black, Rule::Renju),
        Verdict::Forbidden
    );
    // The horizontal one can become a straight four only at (4, 7) or
    // (8, 7); make both overline points (columns of three above and
    // below): forbidden to black, so it is no three, and (7, 7) is allowed.
    let mut columns = black.to_vec();
    for x in [4, 8] {
        for y in [4, 5, 6, 8, 9, 10] {
            columns.push((x, y));
        }
    }
    let mut g = grid(15, &columns, &[]);
    assert_eq!(
        g.try_move(4, 7, Colour::Black, Rule::Renju),
        Verdict::Forbidden
    );
    assert_eq!(
        g.try_move(7, 7, Colour::Black, Rule::Renju),
        Verdict::Continue
    );
    // Blocked on both sides: no three either.
    let mut g = grid(15, &black, &[(4, 7), (8, 7)]);
    assert_eq!(
        g.try_move(7, 7, Colour::Black, Rule::Renju),
        Verdict::Continue
    );
}

#[test]
fn ways_to_win_takes_a_win_and_blocks_a_four() {
    let ai = WaysToWin::new(15);
    let mut g = grid(
        15,
        &[(3, 3), (4, 3), (5, 3), (6, 3)],
        &[(2, 3), (9, 9), (10, 10)],
    );
    assert_eq!(
        ai.choose(&mut g, Colour::Black, Rule::Freestyle),
        Some((7, 3))
    );
    let mut g = grid(
        15,
        &[(3, 3), (4, 3), (5, 3), (6, 3), (7, 8)],
        &[(2, 3), (9, 9), (10, 10)],
    );
    assert_eq!(
        ai.choose(&mut g, Colour::White, Rule::Freestyle),
        Some((7, 3))
    );
}

#[test]
fn referee_and_engine_agree_on_random_games() {
    for (seed, rule) in [(1, Rule::Renju), (2, Rule::Standard), (3, Rule::Freestyle)] {
        let (disagreements, compared, forbidden) = cross_check(seed, 6, 15, rule);
        assert!(compared > 1000);
        assert_eq!(forbidden > 0, rule == Rule::Renju, "{rule:?}");
        assert!(disagreements.is_empty(), "{rule:?}: {disagreements:#?}");
    }
}

#[test]
fn wilson_bounds() {
    let (lo, hi) = wilson(100.0, 100.0);
    assert!((lo - 0.963).abs() < 0.001 && hi == 1.0, "{lo} {hi}");
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-3
}

#[test]
fn pentanomial_score_elo_and_interval_by_hand() {
    // Pairs at 0, ½, 1, 1½, 2 points: 0, 1, 2, 3, 4 of them. Pair scores
    // (as fractions) 0.25, 0.5 ×2, 0.75 ×3, 1 ×4: mean 0.75, variance
    // (0.25 + 0.125 + 0 + 0.25) / 10 = 0.0625, standard error sqrt(0.00625).
    let p = Pentanomial {
        counts: [0, 1, 2, 3, 4],
    };
    assert_eq!(p.pairs(), 10);
    let e = p.estimate().expect("pairs");
    assert!(close(e.score, 0.75), "{e:?}");
    // −400·log10(1/0.75 − 1) = 400·log10(3).
    assert!(close(e.elo, 190.8485), "{e:?}");
    // 0.75 ± 1.96·0.0790569 = [0.595051, 0.904949].
    assert!(
        close(e.score_low, 0.595051) && close(e.score_high, 0.904949),
        "{e:?}"
    );
    assert!(
        close(e.elo_low, 66.8617) && close(e.elo_high, 391.4665),
        "{e:?}"
    );
    // N·(s1 − s0)·(2m − s0 − s1) / (2v) with s0 = 0.5, s1 = 0.514387 (10 Elo).
    assert!(close(p.llr(0.0, 10.0), 0.558928), "{}", p.llr(0.0, 10.0));
    assert_eq!(Pentanomial::default().estimate(), None);
}

#[test]
fn elo_at_a_sweep_is_infinite() {
    let won = Pentanomial {
        counts: [0, 0, 0, 0, 5],
    }
    .estimate()
    .expect("pairs");
    assert_eq!(
        (won.score, won.elo, won.elo_low),
        (1.0, f64::INFINITY, f64::INFINITY)
    );
    assert_eq!(shown_elo(won.elo), "+inf");
    let lost = Pentanomial {
        counts: [1, 1, 0, 0, 0],
    }
    .estimate()
    .expect("pairs");
    // Mean 0.125, half-width 1.96·sqrt(0.015625 / 2) = 0.173: clamped at 0.
    assert_eq!((lost.score_low, lost.elo_low), (0.0, f64::NEG_INFINITY));
    assert_eq!(shown_elo(lost.elo_low), "-inf");
    assert!(close(lost.elo, -338.04), "{lost:?}");
    assert_eq!(shown_elo(0.04), "+0.0");
    assert_eq!(shown_elo(stats::elo_from_score(0.5)), "+0.0");
}

/// Feeds pairs (half-points, cycling through `stream`) to an SPRT until it
/// decides; returns the decision and the pairs it took.
fn run_sprt(sprt: &Sprt, stream: &[usize], most: usize) -> (Option<Decision>, usize) {
    let mut p = Pentanomial::default();
    for (k, &half_points) in stream.iter().cycle().take(most).enumerate() {
        p.add(half_points);
        if let Some(d) = sprt.decide(p.llr(sprt.elo0, sprt.elo1)) {
            return (Some(d), k + 1);
        }
    }
    (None, most)
}

#[test]
fn sprt_decides_on_synthetic_streams() {
    let sprt = Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
    };
    let (lower, upper) = sprt.bounds();
    assert!(close(lower, -2.944439) && close(upper, 2.944439));
    // Mean pair score 0.8125: far above 10 Elo.
    let (d, pairs) = run_sprt(&sprt, &[4, 3, 2, 4], 1000);
    assert_eq!(d, Some(Decision::H1));
    assert!(pairs < 100, "{pairs}");
    // Mean 0.5 with some spread: equal strength, so not 10 Elo better.
    let (d, pairs) = run_sprt(&sprt, &[2, 1, 3, 2], 5000);
    assert_eq!(d, Some(Decision::H0));
    assert!(pairs > 100, "{pairs}");
    // Losing every other pair outright: H0 soon.
    assert_eq!(run_sprt(&sprt, &[0, 2], 1000).0, Some(Decision::H0));
    // Every pair split: no variance, no evidence either way.
    assert_eq!(run_sprt(&sprt, &[2], 1000), (None, 1000));
}

/// A scripted brain for `sh -c`: START is answered OK; INFO values are kept;
/// BEGIN is answered `rule,timeout_turn`; a BOARD block `own,theirs` (its
/// stone counts); TURN x,y with `y,x`; END exits.
const SCRIPTED_BRAIN: &str = r#"
rule=none; turn=none
while read -r cmd a b; do
  case "$cmd" in
    START) echo "MESSAGE scripted brain"; echo OK ;;
    INFO) case "$a" in rule) rule=$b ;; timeout_turn) turn=$b ;; esac ;;
    BEGIN) echo "$rule,$turn" ;;
    BOARD)
      own=0; theirs=0
      while read -r line; do
        case "$line" in
          DONE) break ;;
          *,1) own=$((own + 1)) ;;
          *,2) theirs=$((theirs + 1)) ;;
        esac
      done
      echo "MESSAGE thinking"; echo "ERROR only information"; echo "$own,$theirs" ;;
    TURN) echo "DEBUG turn"; echo "${a#*,},${a%,*}" ;;
    END) exit 0 ;;
  esac
done
"#;

fn scripted(script: &str) -> BrainCommand {
    BrainCommand {
        program: PathBuf::from("sh"),
        args: vec!["-c".to_string(), script.to_string()],
        dir: None,
    }
}

fn settings(rule: Rule, reply_timeout: Duration) -> Settings {
    Settings {
        size: 15,
        rule,
        timeout_turn_ms: 7,
        reply_timeout,
    }
}

fn process_gone(pid: u32) -> bool {
    // Without /proc there is nothing to look at.
    !Path::new("/proc/self").exists() || !Path::new(&format!("/proc/{pid}")).exists()
}

#[test]
fn brain_driver_speaks_piskvork() {
    let long = Duration::from_secs(30);
    let mut b = Brain::start(&scripted(SCRIPTED_BRAIN), &settings(Rule::Renju, long)).unwrap();
    // BEGIN on an empty board: the INFO lines arrived (renju is rule 4).
    assert_eq!(b.play(&[], Colour::Black).unwrap().0, (4, 7));
    b.finish();

    let mut b = Brain::start(&scripted(SCRIPTED_BRAIN), &settings(Rule::Freestyle, long)).unwrap();
    let pid = b.id();
    // BOARD with three stones, the brain white: one own stone, two of the opponent's.
    let mut history = vec![(7, 7), (8, 8), (6, 6)];
    let (p, _) = b.play(&history, Colour::White).unwrap();
    assert_eq!(p, (1, 2));
    history.extend([p, (9, 3)]);
    // Then TURN with the opponent's move only.
    assert_eq!(b.play(&history, Colour::White).unwrap().0, (3, 9));
    b.finish();
    assert!(process_gone(pid));
}

#[test]
fn brain_that_stops_answering_or_exits_forfeits_and_is_reaped() {
    // Answers START, then nothing.
    let silent = r#"while read -r cmd rest; do [ "$cmd" = START ] && echo OK; done"#;
    let short = Duration::from_millis(200);
    let mut b = Brain::start(&scripted(silent), &settings(Rule::Freestyle, short)).unwrap();
    let pid = b.id();
    assert_eq!(b.play(&[], Colour::Black), Err(Failure::Timeout));
    // Dropped without END, as on a panic: killed and reaped all the same.
    drop(b);
    assert!(process_gone(pid));

    // Answers START, and exits on BEGIN.
    let exits = r#"
        while read -r cmd rest; do
          [ "$cmd" = START ] && echo OK
          [ "$cmd" = BEGIN ] && exit 3
        done
    "#;
    let long = Duration::from_secs(30);
    let mut b = Brain::start(&scripted(exits), &settings(Rule::Freestyle, long)).unwrap();
    assert!(matches!(
        b.play(&[], Colour::Black),
        Err(Failure::Crashed(_))
    ));
    b.finish();
}

#[test]
fn error_reply_to_start_is_fatal() {
    let refuses = "read -r cmd rest; echo \"MESSAGE hello\"; echo \"ERROR unsupported size\"";
    let long = Duration::from_secs(30);
    let e = Brain::start(&scripted(refuses), &settings(Rule::Freestyle, long))
        .err()
        .expect("START refused");
    assert!(e.contains("ERROR unsupported size"), "{e}");
    let missing = BrainCommand {
        program: PathBuf::from("/nonexistent/pbrain"),
        args: Vec::new(),
        dir: None,
    };
    assert!(Brain::start(&missing, &settings(Rule::Freestyle, long)).is_err());
}

#[test]
fn brain_replies_are_classified() {
    assert_eq!(brain::parse_reply("7,8"), brain::Reply::Move((7, 8)));
    assert_eq!(brain::parse_reply(" 7 , 8 \r"), brain::Reply::Move((7, 8)));
    assert_eq!(
        brain::parse_reply("99999999999999999999999,1"),
        brain::Reply::Move((usize::MAX, 1))
    );
    assert_eq!(brain::parse_reply("OK"), brain::Reply::Ok);
    for info in ["MESSAGE depth 5", "DEBUG x", "UNKNOWN command", ""] {
        assert_eq!(brain::parse_reply(info), brain::Reply::Info, "{info}");
    }
    assert_eq!(
        brain::parse_reply("ERROR bad"),
        brain::Reply::Error("ERROR bad".to_string())
    );
    for other in ["7,8,1", "-1,3", "SUGGEST 7,7", "OKAY"] {
        assert!(
            matches!(brain::parse_reply(other), brain::Reply::Other(_)),
            "{other}"
        );
    }
}

#[test]
fn brain_playing_an_occupied_point_forfeits_the_game() {
    // Every move request is answered 7,7: the opening's first stone.
    let stubborn = r#"
        while read -r cmd rest; do
          case "$cmd" in
            START) echo OK ;;
            BEGIN|TURN|DONE) echo 7,7 ;;
            END) exit 0 ;;
          esac
        done
    "#;
    let opening = [(7, 7), (8, 8), (6, 6)];
    for colour in [Colour::Black, Colour::White] {
        let mut engine = Player::Engine {
            engine: Engine::new(1),
            think: Think::Nodes(2_000),
        };
        let mut opponent = Player::Brain {
            command: scripted(stubborn),
            settings: settings(Rule::Freestyle, Duration::from_secs(30)),
        };
        let r = play_game(
            15,
            Rule::Freestyle,
            &opening,
            colour,
            &mut engine,
            &mut opponent,
        )
        .unwrap();
        assert_eq!(
            (r.outcome, r.forfeit),
            (Outcome::EngineWon, Some(Forfeit::Illegal))
        );
        assert_eq!(r.opponent.forfeit_summary(), "1 illegal move");
        assert_eq!(r.engine.forfeit_summary(), "none");
        // With the engine white it moves first, then the brain gets the board.
        assert_eq!(r.moves.len(), if colour == Colour::White { 4 } else { 3 });
    }
}

#[test]
fn the_books_hold_distinct_legal_undecided_openings() {
    for (file, rule) in [
        ("freestyle-15.txt", Rule::Freestyle),
        ("renju-15.txt", Rule::Renju),
    ] {
        let path = format!(
            "{}/examples/gomoku_arena/books/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        let book = openings::read_book(&path, 15, rule).expect("a valid book");
        assert!(book.len() >= 100, "{file}: {} openings", book.len());
        let distinct: std::collections::HashSet<_> = book.iter().collect();
        assert_eq!(distinct.len(), book.len(), "{file} repeats an opening");
    }
}

#[test]
fn a_bad_book_line_is_named() {
    let dir = std::env::temp_dir().join(format!("arena-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("book.txt");
    let path = path.to_str().unwrap();
    let cases = [
        ("7,7 8,8 7,7\n", "is off the board or taken"),
        (
            "# comment\n7,7 8,8\n7,7 x\n",
            "book.txt:3: `x` is not a point",
        ),
        ("7,7 8,8 15,3\n", "off the board"),
        ("\n# nothing\n", "no openings"),
    ];
    for (text, expected) in cases {
        std::fs::write(path, text).unwrap();
        let err = openings::read_book(path, 15, Rule::Freestyle).expect_err(text);
        assert!(err.contains(expected), "{text:?}: {err}");
    }
    std::fs::write(path, "7,7 8,8 6,6  # eval +3\n").unwrap();
    let book = openings::read_book(path, 15, Rule::Freestyle).unwrap();
    assert_eq!(book, vec![vec![(7, 7), (8, 8), (6, 6)]]);
    std::fs::remove_dir_all(&dir).unwrap();
}
