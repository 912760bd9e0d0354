//! `pbrain-gamebot`: the gomoku engine as a Gomocup brain, speaking the
//! piskvork protocol on stdin/stdout (see `gamebot::piskvork`).
//!
//! Lines are read on their own thread, so that END can cancel a search in
//! progress instead of waiting for it.

use std::io::{BufRead, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use gamebot::piskvork::Brain;
use gamebot::pool::Stop;

fn main() {
    let current: Arc<Mutex<Option<Stop>>> = Arc::default();
    let (tx, rx) = mpsc::channel::<String>();
    let reader_stop = current.clone();
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match stdin.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            // Bytes that aren't UTF-8 still make a line (answered with UNKNOWN or ERROR).
            let line = String::from_utf8_lossy(&buf).into_owned();
            if line.trim().eq_ignore_ascii_case("END")
                && let Some(stop) = reader_stop
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .as_ref()
            {
                stop.cancel();
            }
            if tx.send(line).is_err() {
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
    while let Ok(line) = rx.recv() {
        let replies = brain.handle_line(&line);
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
