//! Ranks, hands (card multisets) and card notation parsing.

use std::fmt;

/// The fifteen card ranks of Dou Dizhu, in playing order.
///
/// Suits play no role in the game, so a card *is* its rank. The
/// discriminant (`0..15`) is the rank's index, used throughout the engine.
#[repr(u8)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rank {
    /// The 3 (lowest).
    Three = 0,
    /// The 4.
    Four,
    /// The 5.
    Five,
    /// The 6.
    Six,
    /// The 7.
    Seven,
    /// The 8.
    Eight,
    /// The 9.
    Nine,
    /// The 10.
    Ten,
    /// The Jack.
    Jack,
    /// The Queen.
    Queen,
    /// The King.
    King,
    /// The Ace.
    Ace,
    /// The 2, the highest plain rank.
    Two,
    /// The black (small) joker.
    BlackJoker,
    /// The red (big) joker, the highest rank.
    RedJoker,
}

/// Characters of the canonical notation, indexed by rank index.
pub(crate) const RANK_CHARS: &[u8; 15] = b"3456789TJQKA2BR";

impl Rank {
    /// All ranks in ascending order.
    pub const ALL: [Rank; 15] = [
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
        Rank::Two,
        Rank::BlackJoker,
        Rank::RedJoker,
    ];

    /// The rank with index `i` (`0` = Three … `14` = red joker).
    #[inline]
    pub const fn from_index(i: usize) -> Option<Rank> {
        if i < 15 { Some(Rank::ALL[i]) } else { None }
    }

    /// Index `0..15` of this rank.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Canonical notation character (`'3'`…`'9'`, `'T'`, `'J'`, `'Q'`, `'K'`, `'A'`, `'2'`, `'B'`, `'R'`).
    #[inline]
    pub const fn to_char(self) -> char {
        RANK_CHARS[self as usize] as char
    }

    /// Parses one notation character (case-insensitive; `10` is handled by [`Hand::parse_str`]).
    pub const fn from_char(c: char) -> Option<Rank> {
        let i = match c {
            '3'..='9' => c as usize - '3' as usize,
            'T' | 't' => 7,
            'J' | 'j' => 8,
            'Q' | 'q' => 9,
            'K' | 'k' => 10,
            'A' | 'a' => 11,
            '2' => 12,
            'B' | 'b' => 13,
            'R' | 'r' => 14,
            _ => return None,
        };
        Some(Rank::ALL[i])
    }

    /// DouZero's integer code: 3–14 for 3…A, 17 for 2, 20 black joker, 30 red joker.
    pub const fn douzero(self) -> i64 {
        match self {
            Rank::Two => 17,
            Rank::BlackJoker => 20,
            Rank::RedJoker => 30,
            r => r as i64 + 3,
        }
    }

    /// Inverse of [`Rank::douzero`].
    pub const fn from_douzero(v: i64) -> Option<Rank> {
        match v {
            3..=14 => Some(Rank::ALL[(v - 3) as usize]),
            17 => Some(Rank::Two),
            20 => Some(Rank::BlackJoker),
            30 => Some(Rank::RedJoker),
            _ => None,
        }
    }

    /// How many cards of this rank a deck holds (4, or 1 for a joker).
    #[inline]
    pub const fn deck_count(self) -> u32 {
        if (self as u8) >= 13 { 1 } else { 4 }
    }

    /// Whether the rank may be part of a chain (3 … A).
    #[inline]
    pub const fn chains(self) -> bool {
        (self as u8) < 12
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// Why a card string or DouZero list could not be read as a hand.
///
/// `index` is the position of the offending card in the input: the character
/// index (counted in `char`s, including ignored spaces and commas; for `10`,
/// the index of its `1`) for strings, the element index for DouZero lists,
/// the rank index for [`Hand::from_counts`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardError {
    /// Not a card: `text` is the offending character(s) or number.
    UnknownCard {
        /// Where the offending card is.
        index: usize,
        /// The offending character(s) or number.
        text: String,
    },
    /// A fifth card of a plain rank.
    TooManyOfRank {
        /// Where the fifth card is.
        index: usize,
        /// Its rank.
        rank: Rank,
    },
    /// A second copy of a joker.
    DuplicateJoker {
        /// Where the second copy is.
        index: usize,
        /// Which joker.
        rank: Rank,
    },
    /// More cards than a hand may hold (see [`Hand::check_max_len`]).
    TooManyCards {
        /// Cards given.
        count: usize,
        /// Cards allowed.
        max: usize,
    },
}

impl fmt::Display for CardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CardError::UnknownCard { index, text } => {
                write!(f, "unknown card {text:?} at position {index}")
            }
            CardError::TooManyOfRank { index, rank } => {
                write!(f, "more than four cards of rank {rank} (position {index})")
            }
            CardError::DuplicateJoker { index, rank } => {
                let name = if *rank == Rank::BlackJoker {
                    "black"
                } else {
                    "red"
                };
                write!(f, "more than one {name} joker ({rank}) (position {index})")
            }
            CardError::TooManyCards { count, max } => {
                write!(f, "{count} cards where at most {max} are allowed")
            }
        }
    }
}

impl std::error::Error for CardError {}

/// Mask of the low bit of each of the 15 nibbles.
const LOW_BITS: u64 = 0x0111_1111_1111_1111;
/// Mask of all 15 nibbles.
const ALL_NIBBLES: u64 = 0x0FFF_FFFF_FFFF_FFFF;

/// A multiset of cards: per-rank counts packed four bits per rank into a `u64`
/// (rank `i` in bits `4i..4i+4`).
///
/// The packing makes hands `Copy`, hashable and comparable in one machine word,
/// and adding/removing whole combinations a single integer add/subtract. Counts
/// are at most 4 (1 for jokers) for hands built through the checked
/// constructors; the arithmetic helpers assume the caller keeps to that.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Hand(u64);

impl Hand {
    /// The empty hand (also the pass).
    pub const EMPTY: Hand = Hand(0);

    /// The full 54-card deck.
    pub const DECK: Hand = Hand(0x0114_4444_4444_4444);

    /// Builds a hand from its raw packed encoding (no validation).
    #[inline]
    pub const fn from_bits(bits: u64) -> Hand {
        Hand(bits & ALL_NIBBLES)
    }

    /// The raw packed encoding.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// `n` cards of one rank (`n` ≤ 15; not validated against the deck).
    #[inline]
    pub const fn of(rank: Rank, n: u32) -> Hand {
        Hand((n as u64) << (4 * rank as u32))
    }

    /// Builds a hand from per-rank counts (indexed by rank index), checking
    /// the deck limits; in an error, `index` is the offending rank's index.
    pub fn from_counts(counts: &[u8; 15]) -> Result<Hand, CardError> {
        let mut h = 0u64;
        for (i, &c) in counts.iter().enumerate() {
            let rank = Rank::ALL[i];
            if u32::from(c) > rank.deck_count() {
                return Err(if i >= 13 {
                    CardError::DuplicateJoker { index: i, rank }
                } else {
                    CardError::TooManyOfRank { index: i, rank }
                });
            }
            h |= (c as u64) << (4 * i);
        }
        Ok(Hand(h))
    }

    /// Parses the card notation: ranks from `3456789TJQKA2BR` in any order and
    /// case, `10` for `T`; spaces and commas are ignored. The empty string is
    /// the empty hand (the caller decides whether that is allowed).
    pub fn parse_str(s: &str) -> Result<Hand, CardError> {
        let mut h = Hand::EMPTY;
        let mut chars = s.chars().enumerate().peekable();
        while let Some((index, c)) = chars.next() {
            if c == ' ' || c == ',' || c.is_whitespace() {
                continue;
            }
            let rank = if c == '1' {
                match chars.peek() {
                    Some(&(_, '0')) => {
                        chars.next();
                        Rank::Ten
                    }
                    _ => {
                        return Err(CardError::UnknownCard {
                            index,
                            text: c.to_string(),
                        });
                    }
                }
            } else {
                match Rank::from_char(c) {
                    Some(r) => r,
                    None => {
                        return Err(CardError::UnknownCard {
                            index,
                            text: c.to_string(),
                        });
                    }
                }
            };
            h = h.push_checked(rank, index)?;
        }
        Ok(h)
    }

    /// Reads a list of DouZero card codes (3–14, 17, 20, 30).
    pub fn from_douzero(cards: &[i64]) -> Result<Hand, CardError> {
        let mut h = Hand::EMPTY;
        for (index, &v) in cards.iter().enumerate() {
            let rank = Rank::from_douzero(v).ok_or_else(|| CardError::UnknownCard {
                index,
                text: v.to_string(),
            })?;
            h = h.push_checked(rank, index)?;
        }
        Ok(h)
    }

    fn push_checked(self, rank: Rank, index: usize) -> Result<Hand, CardError> {
        if self.count(rank) >= rank.deck_count() {
            return Err(if rank.index() >= 13 {
                CardError::DuplicateJoker { index, rank }
            } else {
                CardError::TooManyOfRank { index, rank }
            });
        }
        Ok(Hand(self.0 + (1u64 << (4 * rank as u32))))
    }

    /// Returns the hand unchanged when it has at most `max` cards (20 for a
    /// player's hand), else [`CardError::TooManyCards`]. Kept separate from
    /// parsing because plays and histories are parsed with the same functions.
    pub fn check_max_len(self, max: usize) -> Result<Hand, CardError> {
        let count = self.len();
        if count > max {
            Err(CardError::TooManyCards { count, max })
        } else {
            Ok(self)
        }
    }

    /// Number of cards.
    #[inline]
    pub const fn len(self) -> usize {
        // Pairwise nibble sums into bytes, then a horizontal byte sum.
        let x = self.0;
        let bytes = (x & 0x0F0F_0F0F_0F0F_0F0F) + ((x >> 4) & 0x0F0F_0F0F_0F0F_0F0F);
        (bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
    }

    /// Whether the hand holds no card.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of cards of `rank`.
    #[inline]
    pub const fn count(self, rank: Rank) -> u32 {
        ((self.0 >> (4 * rank as u32)) & 0xF) as u32
    }

    /// Number of cards of the rank with index `i` (`i < 15`).
    #[inline]
    pub const fn count_at(self, i: usize) -> u32 {
        ((self.0 >> (4 * i)) & 0xF) as u32
    }

    /// Per-rank counts.
    pub fn counts(self) -> [u8; 15] {
        let mut out = [0u8; 15];
        for (i, c) in out.iter_mut().enumerate() {
            *c = self.count_at(i) as u8;
        }
        out
    }

    /// Whether every card of `other` is in `self` (multiset inclusion).
    /// Valid for counts up to 7, which every real hand satisfies.
    #[inline]
    pub const fn contains(self, other: Hand) -> bool {
        // With bit 3 set in every nibble of `self`, subtracting `other` borrows
        // from bit 3 of exactly the nibbles where `other` has more cards.
        const HIGH: u64 = LOW_BITS << 3;
        ((self.0 | HIGH) - other.0) & HIGH == HIGH
    }

    /// Multiset sum (one integer add). Counts must stay within 15, which
    /// holds whenever the result is a sub-multiset of the deck.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub const fn add(self, other: Hand) -> Hand {
        Hand(self.0 + other.0)
    }

    /// Multiset difference; `other` must be contained in `self`.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub const fn sub(self, other: Hand) -> Hand {
        debug_assert!(self.contains(other));
        Hand(self.0 - other.0)
    }

    /// Multiset difference, or `None` unless `self` contains `other`.
    #[inline]
    pub const fn checked_sub(self, other: Hand) -> Option<Hand> {
        if self.contains(other) {
            Some(Hand(self.0 - other.0))
        } else {
            None
        }
    }

    /// Bit mask of present ranks (bit `i` set when rank `i` has a card).
    #[inline]
    pub const fn rank_mask(self) -> u16 {
        self.ranks_with_at_least(1)
    }

    /// Bit mask of ranks holding at least `n` cards (`1 ≤ n ≤ 4`).
    #[inline]
    pub const fn ranks_with_at_least(self, n: u32) -> u16 {
        // For each nibble c (≤ 7), (c + 8 - n) has bit 3 set iff c ≥ n.
        let add = (8 - n as u64) * LOW_BITS;
        let t = (self.0 + add) & (LOW_BITS << 3);
        compress_nibble_high_bits(t)
    }

    /// Lowest rank present.
    #[inline]
    pub const fn lowest(self) -> Option<Rank> {
        if self.0 == 0 {
            None
        } else {
            Rank::from_index((self.0.trailing_zeros() / 4) as usize)
        }
    }

    /// Highest rank present.
    #[inline]
    pub const fn highest(self) -> Option<Rank> {
        if self.0 == 0 {
            None
        } else {
            Rank::from_index(((63 - self.0.leading_zeros()) / 4) as usize)
        }
    }

    /// The cards in ascending order, one item per card.
    pub fn cards(self) -> Cards {
        Cards { rest: self.0 }
    }

    /// The cards as DouZero codes, ascending.
    pub fn to_douzero(self) -> Vec<i64> {
        self.cards().map(Rank::douzero).collect()
    }
}

/// Gathers bit 3 of each nibble into a 15-bit mask.
#[inline]
const fn compress_nibble_high_bits(t: u64) -> u16 {
    // Fold the 15 flags (bit 4i) together in halving steps.
    let mut x = t >> 3;
    x = (x | (x >> 3)) & 0x0303_0303_0303_0303;
    x = (x | (x >> 6)) & 0x000F_000F_000F_000F;
    x = (x | (x >> 12)) & 0x0000_00FF_0000_00FF;
    x = (x | (x >> 24)) & 0xFFFF;
    x as u16
}

/// Iterator over a hand's cards, ascending. See [`Hand::cards`].
#[derive(Clone, Debug)]
pub struct Cards {
    rest: u64,
}

impl Iterator for Cards {
    type Item = Rank;

    #[inline]
    fn next(&mut self) -> Option<Rank> {
        if self.rest == 0 {
            return None;
        }
        let i = self.rest.trailing_zeros() / 4;
        self.rest -= 1u64 << (4 * i);
        Rank::from_index(i as usize)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = Hand(self.rest).len();
        (n, Some(n))
    }
}

impl ExactSizeIterator for Cards {}

impl fmt::Display for Hand {
    /// Canonical notation: ascending rank order, e.g. `33455TJ2BR`; the empty
    /// hand (pass) prints as the empty string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 64];
        let mut n = 0;
        for r in self.cards() {
            if n == buf.len() {
                break;
            }
            buf[n] = RANK_CHARS[r.index()];
            n += 1;
        }
        // All bytes are ASCII.
        f.write_str(std::str::from_utf8(&buf[..n]).unwrap_or(""))
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hand({self})")
    }
}

impl std::ops::Add for Hand {
    type Output = Hand;

    #[inline]
    fn add(self, other: Hand) -> Hand {
        Hand::add(self, other)
    }
}

impl std::ops::Sub for Hand {
    type Output = Hand;

    #[inline]
    fn sub(self, other: Hand) -> Hand {
        Hand::sub(self, other)
    }
}

impl std::str::FromStr for Hand {
    type Err = CardError;

    fn from_str(s: &str) -> Result<Hand, CardError> {
        Hand::parse_str(s)
    }
}
