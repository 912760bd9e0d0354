//! `pbrain-gamebot`: the gomoku engine as a Gomocup brain, speaking the
//! piskvork protocol on stdin/stdout (see `gamebot::protocol::piskvork`).
//!
//! Lines are read on their own thread, so that END can cancel a search in
//! progress instead of waiting for it.

use std::io::Write;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use gamebot::protocol::piskvork::{self, Brain, Input};
use gamebot::stop::Stop;

fn main() {
    let current: Arc<Mutex<Option<Stop>>> = Arc::default();
    let (tx, rx) = mpsc::channel::<Input>();
    let reader_stop = current.clone();
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        // Lines are bounded (an overlong one arrives as `Input::TooLong`);
        // bytes that aren't UTF-8 still make a line (answered with UNKNOWN or ERROR).
        while let Ok(Some(input)) = piskvork::read_input(&mut stdin) {
            if let Input::Line(line) = &input
                && line.trim().eq_ignore_ascii_case("END")
                && let Some(stop) = reader_stop
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .as_ref()
            {
                stop.cancel();
            }
            if tx.send(input).is_err() {
                break;
            }
        }
    });

    let mut brain = Brain::new();
    let hook = current.clone();
    brain.on_search(move |stop| {
        *hook.lock().unwrap_or_else(|e| e.into_inner()) = Some(stop.clone());
    });
    let stdout = std::io::stdout();
    // Ends on END, or when stdin closes (the manager went away).
    while let Ok(input) = rx.recv() {
        let replies = brain.handle_input(&input);
        let mut out = stdout.lock();
        for reply in replies {
            if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
                return;
            }
        }
        if brain.finished() {
            return;
        }
    }
}
