//! Time and memory as the manager grants them: how long to think on a move,
//! how large a transposition table to keep.

use std::time::Duration;

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
pub(super) const DEFAULT_TT_MIB: usize = 128;

/// Transposition table for a `max_memory` in bytes (0 = no limit): at most
/// half of the allowance, leaving the rest for the process itself.
pub fn tt_mib_for(max_memory: u64) -> usize {
    if max_memory == 0 {
        return DEFAULT_TT_MIB;
    }
    let half_mib = (max_memory / 2 / (1 << 20)) as usize;
    half_mib.clamp(1, DEFAULT_TT_MIB)
}
