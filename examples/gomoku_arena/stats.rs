//! The arena's statistics.
//!
//! * Per game: the score (win 1, draw ½) with a Wilson 95% interval.
//! * Per pair (one opening played with each colour): the pentanomial
//!   distribution of the engine's points over the two games (0, ½, 1, 1½, 2).
//!   Pairs, not games, are the independent samples: the two games of an
//!   opening share its bias, which the pair score cancels. The mean pair
//!   score `m` (as a fraction, points / 2) estimates the expected score; its
//!   standard error is `sqrt(v / N)` with `v` the variance of the pair score
//!   over the `N` pairs. The 95% interval `m ± 1.96·sqrt(v / N)` is mapped to
//!   Elo by the logistic curve, `Elo = −400·log10(1/s − 1)`; a bound at score
//!   0 or 1 is −∞ or +∞.
//! * SPRT: the generalized sequential probability ratio test with the usual
//!   normal approximation for pentanomial data. With `s0`, `s1` the expected
//!   scores at the two logistic Elo hypotheses,
//!   `LLR = N·(s1 − s0)·(2m − s0 − s1) / (2v)`; the test accepts H1 once
//!   `LLR ≥ ln((1 − β)/α)` and H0 once `LLR ≤ ln(β/(1 − α))`. With no
//!   variance yet (every pair in one class) the LLR is 0: nothing is known
//!   about the spread, and a near-zero variance would decide after a pair or
//!   two.

/// Two-sided 95% normal quantile.
const Z95: f64 = 1.959_963_984_540_054;

/// Wilson score interval at 95% for `k` successes out of `n`.
pub fn wilson(k: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let z = Z95;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n) + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The `q` quantile of sorted samples (nearest rank).
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i]
}

/// Logistic Elo difference of an expected score: ±∞ at 1 and 0.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Expected score at a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference as the report prints it: signed, `±inf` at the ends.
pub fn shown_elo(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // Rounded first, and + 0.0 turns −0 into 0: an even score prints +0.0.
        format!("{:+.1}", (elo * 10.0).round() / 10.0 + 0.0)
    }
}

/// Game pairs counted by the engine's points over the pair: index 0 = 0
/// points, 1 = ½, 2 = 1, 3 = 1½, 4 = 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

/// The score and Elo difference of a set of pairs, with 95% bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Mean score per game, 0..=1.
    pub score: f64,
    pub score_low: f64,
    pub score_high: f64,
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    /// Variance of the pair score; 0 while every pair scored the same, when
    /// the interval is a point.
    pub variance: f64,
}

impl Pentanomial {
    /// Counts one pair in which the engine made `half_points` half-points (0..=4).
    pub fn add(&mut self, half_points: usize) {
        self.counts[half_points.min(4)] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Mean and variance of the pair score as a fraction (points / 2).
    fn mean_and_variance(&self) -> Option<(f64, f64)> {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return None;
        }
        let fraction = |k: usize| k as f64 / 4.0;
        let mean = (0..5)
            .map(|k| self.counts[k] as f64 * fraction(k))
            .sum::<f64>()
            / n;
        let variance = (0..5)
            .map(|k| self.counts[k] as f64 * (fraction(k) - mean).powi(2))
            .sum::<f64>()
            / n;
        Some((mean, variance))
    }

    /// The score with its 95% interval and their Elo differences; `None`
    /// without pairs.
    pub fn estimate(&self) -> Option<Estimate> {
        let (mean, variance) = self.mean_and_variance()?;
        let half = Z95 * (variance / self.pairs() as f64).sqrt();
        let (low, high) = ((mean - half).max(0.0), (mean + half).min(1.0));
        Some(Estimate {
            score: mean,
            score_low: low,
            score_high: high,
            elo: elo_from_score(mean),
            elo_low: elo_from_score(low),
            elo_high: elo_from_score(high),
            variance,
        })
    }

    /// The log-likelihood ratio of H1 (logistic Elo `elo1`) against H0
    /// (`elo0`) in the normal approximation; 0 without pairs or variance.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let Some((mean, variance)) = self.mean_and_variance() else {
            return 0.0;
        };
        if variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
        self.pairs() as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }
}

/// Which hypothesis an SPRT accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The difference is `elo0` or less.
    H0,
    /// The difference is `elo1` or more.
    H1,
}

/// A sequential probability ratio test between two logistic Elo differences.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// Chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Chance of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Sprt {
    /// The LLR bounds: (accept H0 at or below, accept H1 at or above).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The decision an LLR reaches, if any.
    pub fn decide(&self, llr: f64) -> Option<Decision> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Decision::H1)
        } else if llr <= lower {
            Some(Decision::H0)
        } else {
            None
        }
    }
}
