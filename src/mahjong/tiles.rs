//! Tile model and parsers (tenhou strings, mjai names, flowers).

use std::fmt;

/// Number of distinct tile kinds (27 suited + 7 honors).
pub const KINDS: usize = 34;
/// Index of the red dragon (7z), the wildcard in the Red Dragon variant.
pub const RED_DRAGON: u8 = 33;
/// Index of the East wind (1z).
pub const EAST: u8 = 27;

/// Rule set the bot plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Hong Kong: 136 tiles plus 8 flowers and seasons; chow, pung and kong calls; fan.
    HongKong,
    /// Riichi under Tenhou's rules: red fives, yaku, han and fu.
    Riichi,
    /// Red Dragon: 108 suited tiles plus 4 red dragon wildcards; no chows; self-draw wins only.
    RedDragon,
}

impl Variant {
    /// Parses `hong_kong`, `riichi` or `red_dragon`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "hong_kong" => Some(Self::HongKong),
            "riichi" => Some(Self::Riichi),
            "red_dragon" => Some(Self::RedDragon),
            _ => None,
        }
    }

    /// Whether the tile kind exists in this variant's wall.
    pub fn has_kind(self, index: u8) -> bool {
        match self {
            Self::RedDragon => index < 27 || index == RED_DRAGON,
            _ => (index as usize) < KINDS,
        }
    }

    /// Whether red fives (`0m`, `0p`, `0s`, `5mr`) exist.
    pub fn has_red_fives(self) -> bool {
        self == Self::Riichi
    }

    /// Whether chows may be called.
    pub fn has_chow(self) -> bool {
        self != Self::RedDragon
    }

    /// Whether seven pairs is a winning form.
    pub fn has_seven_pairs(self) -> bool {
        true
    }

    /// Whether thirteen orphans is a winning form.
    pub fn has_thirteen_orphans(self) -> bool {
        self != Self::RedDragon
    }

    /// Whether flowers and seasons exist.
    pub fn has_flowers(self) -> bool {
        self == Self::HongKong
    }

    /// Kinds present in the wall, in index order.
    pub fn kinds(self) -> impl Iterator<Item = u8> {
        (0..KINDS as u8).filter(move |&k| self.has_kind(k))
    }

    /// The red dragon's kind when the variant plays it as a wildcard (Red Dragon), else `None`.
    pub fn wildcard(self) -> Option<u8> {
        (self == Self::RedDragon).then_some(RED_DRAGON)
    }
}

/// A tile: kind index 0..34 (`0..9` m, `9..18` p, `18..27` s, `27..34` ESWN PFC) and a red flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile {
    /// Kind index 0..34, in the order above.
    pub index: u8,
    /// A red five (Riichi only).
    pub red: bool,
}

impl Tile {
    /// The plain tile of kind `index`.
    pub const fn new(index: u8) -> Self {
        Self { index, red: false }
    }
    /// The red copy of kind `index`; meant for a suited five.
    pub const fn red(index: u8) -> Self {
        Self { index, red: true }
    }
    /// 0 = m, 1 = p, 2 = s, 3 = honors.
    pub fn suit(self) -> u8 {
        suit_of(self.index)
    }
    /// Tenhou name of the kind (`5m`, `7z`), ignoring the red flag.
    pub fn kind_name(self) -> String {
        kind_name(self.index)
    }
    /// mjai name (`5m`, `5mr`, `E`, `P`, `F`, `C`).
    pub fn mjai_name(self) -> String {
        if self.index >= 27 {
            ["E", "S", "W", "N", "P", "F", "C"][(self.index - 27) as usize].to_string()
        } else if self.red {
            format!("{}r", kind_name(self.index))
        } else {
            kind_name(self.index)
        }
    }
}

impl fmt::Display for Tile {
    /// Tenhou style; a red five prints as `0m`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.red {
            write!(f, "0{}", b"mps"[self.suit() as usize] as char)
        } else {
            f.write_str(&kind_name(self.index))
        }
    }
}

/// 0 = m, 1 = p, 2 = s, 3 = honors.
pub fn suit_of(index: u8) -> u8 {
    (index / 9).min(3)
}

/// Rank 1..=9 for suited tiles, 1..=7 for honors.
pub fn rank_of(index: u8) -> u8 {
    if index >= 27 {
        index - 26
    } else {
        index % 9 + 1
    }
}

/// Whether the kind is an honor: a wind or a dragon (`1z`..`7z`).
pub fn is_honor(index: u8) -> bool {
    index >= 27
}

/// Whether the kind is a 1, a 9 or an honor.
pub fn is_terminal_or_honor(index: u8) -> bool {
    index >= 27 || matches!(index % 9, 0 | 8)
}

/// Whether the kind is a dragon: white `5z`, green `6z` or red `7z`.
pub fn is_dragon(index: u8) -> bool {
    index >= 31
}

/// Tenhou name of kind `index` (`5m`, `7z`).
pub fn kind_name(index: u8) -> String {
    let suit = b"mpsz"[suit_of(index) as usize] as char;
    format!("{}{}", rank_of(index), suit)
}

/// Per-kind tile counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileCounts(pub [u8; KINDS]);

impl Default for TileCounts {
    fn default() -> Self {
        Self([0; KINDS])
    }
}

impl TileCounts {
    /// Counts of `tiles`, each capped at 255 (see [`TileCounts::add`]).
    pub fn from_tiles(tiles: &[Tile]) -> Self {
        let mut c = Self::default();
        for t in tiles {
            c.add(t.index);
        }
        c
    }
    /// Counts of `tiles`, or `None` if a kind appears more than 255 times.
    pub fn checked_from_tiles(tiles: &[Tile]) -> Option<Self> {
        let mut c = Self::default();
        for t in tiles {
            let n = &mut c.0[t.index as usize];
            *n = n.checked_add(1)?;
        }
        Some(c)
    }
    /// Number of tiles counted.
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&c| c as u32).sum()
    }
    /// One more of `index`. A game has at most four of a kind; a count of
    /// an unchecked list stops at 255 rather than wrapping to a small count
    /// (or panicking), so a check of "more than four" still sees it.
    pub fn add(&mut self, index: u8) {
        let n = &mut self.0[index as usize];
        *n = n.saturating_add(1);
    }
    /// One fewer of `index`, which must be present.
    pub fn remove(&mut self, index: u8) {
        self.0[index as usize] -= 1;
    }
    /// Count of kind `index`.
    pub fn get(&self, index: u8) -> u8 {
        self.0[index as usize]
    }
    /// Kinds present with their counts.
    pub fn kinds(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        self.0
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(i, c)| (i as u8, *c))
    }
    /// Tenhou string of the counts (no red fives).
    pub fn to_tenhou(&self) -> String {
        let mut out = String::new();
        for suit in 0..4u8 {
            let mut digits = String::new();
            for i in 0..KINDS as u8 {
                if suit_of(i) == suit {
                    for _ in 0..self.get(i) {
                        digits.push((b'0' + rank_of(i)) as char);
                    }
                }
            }
            if !digits.is_empty() {
                out.push_str(&digits);
                out.push(b"mpsz"[suit as usize] as char);
            }
        }
        out
    }
}

/// Why a tile token could not be parsed; `index` is the position of the tile in its list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TileError {
    /// A token that is not a tile.
    #[error("tile {index}: unknown tile `{token}`")]
    Unknown {
        /// Position of the tile in its list, from 0.
        index: usize,
        /// The text that is not a tile.
        token: String,
    },
    /// Digits without a suit letter after them; holds the whole input.
    #[error("digits without a suit letter at the end of `{0}`")]
    MissingSuit(String),
}

impl TileError {
    /// Position of the bad tile in its list (0 for a missing suit).
    pub fn index(&self) -> usize {
        match self {
            Self::Unknown { index, .. } => *index,
            Self::MissingSuit(_) => 0,
        }
    }
}

/// Parses tenhou notation (`123m456p0s77z`, whitespace ignored). `0m/0p/0s` are red fives.
pub fn parse_tiles(s: &str) -> Result<Vec<Tile>, TileError> {
    let mut out = Vec::new();
    let mut pending: Vec<u8> = Vec::new();
    for ch in s.chars() {
        if ch.is_whitespace() {
            continue;
        }
        if let Some(d) = ch.to_digit(10) {
            pending.push(d as u8);
            continue;
        }
        let suit = match ch {
            'm' => 0u8,
            'p' => 1,
            's' => 2,
            'z' => 3,
            _ => {
                return Err(TileError::Unknown {
                    index: out.len() + pending.len(),
                    token: ch.to_string(),
                });
            }
        };
        if pending.is_empty() {
            return Err(TileError::Unknown {
                index: out.len(),
                token: ch.to_string(),
            });
        }
        for d in pending.drain(..) {
            let bad = || TileError::Unknown {
                index: out.len(),
                token: format!("{d}{ch}"),
            };
            let tile = match (suit, d) {
                (3, 1..=7) => Tile::new(26 + d),
                (3, _) => return Err(bad()),
                (_, 0) => Tile::red(suit * 9 + 4),
                (_, 1..=9) => Tile::new(suit * 9 + d - 1),
                _ => return Err(bad()),
            };
            out.push(tile);
        }
    }
    if !pending.is_empty() {
        return Err(TileError::MissingSuit(s.to_string()));
    }
    Ok(out)
}

/// Parses one tile in either tenhou (`5m`, `0p`, `7z`) or mjai (`5mr`, `E`, `C`) form.
pub fn parse_tile(s: &str) -> Result<Tile, TileError> {
    let unknown = || TileError::Unknown {
        index: 0,
        token: s.to_string(),
    };
    // One `r` suffix at most, handled without recursion: a request with a
    // long run of `r`s once overflowed the stack and aborted the process.
    if let Some(base) = s.strip_suffix('r') {
        return match parse_plain_tile(base) {
            Some(t) if t.index < 27 && rank_of(t.index) == 5 && !t.red => Ok(Tile::red(t.index)),
            _ => Err(unknown()),
        };
    }
    parse_plain_tile(s).ok_or_else(unknown)
}

/// One tile without the mjai red suffix: an honor letter or a tenhou tile.
fn parse_plain_tile(s: &str) -> Option<Tile> {
    let honors = ["E", "S", "W", "N", "P", "F", "C"];
    if let Some(i) = honors.iter().position(|h| *h == s) {
        return Some(Tile::new(27 + i as u8));
    }
    match parse_tiles(s) {
        Ok(v) if v.len() == 1 => Some(v[0]),
        _ => None,
    }
}

/// Parses a JSON array of mjai names (tenhou single tiles are accepted too).
pub fn parse_mjai<S: AsRef<str>>(names: &[S]) -> Result<Vec<Tile>, TileError> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            parse_tile(n.as_ref()).map_err(|_| TileError::Unknown {
                index: i,
                token: n.as_ref().to_string(),
            })
        })
        .collect()
}

/// A Hong Kong bonus tile: flower (`1f`..`4f`) or season (`1g`..`4g`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Flower {
    /// A season (`1g`..`4g`) rather than a flower (`1f`..`4f`).
    pub season: bool,
    /// 1..=4; matches seat East = 1, South = 2, West = 3, North = 4.
    pub number: u8,
}

/// Parses a Hong Kong bonus tile: flower `1f`..`4f` or season `1g`..`4g`.
pub fn parse_flower(s: &str) -> Option<Flower> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'1'..=b'4').contains(&b[0]) {
        return None;
    }
    let season = match b[1] {
        b'f' => false,
        b'g' => true,
        _ => return None,
    };
    Some(Flower {
        season,
        number: b[0] - b'0',
    })
}

/// A seat or round wind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Wind {
    /// East, `1z`: the dealer's seat wind.
    East,
    /// South, `2z`.
    South,
    /// West, `3z`.
    West,
    /// North, `4z`.
    North,
}

impl Wind {
    /// The four winds in turn order, East first.
    pub const ALL: [Wind; 4] = [Wind::East, Wind::South, Wind::West, Wind::North];

    /// The wind's tile kind, 27 (East) to 30 (North).
    pub fn kind(self) -> u8 {
        27 + self as u8
    }

    /// The wind of tile kind `kind`, if it is one.
    pub fn of_kind(kind: u8) -> Option<Wind> {
        Wind::ALL.get(usize::from(kind.checked_sub(27)?)).copied()
    }

    /// East 1 … North 4: the seat's own flower and season number.
    pub fn number(self) -> u8 {
        self as u8 + 1
    }

    /// The wind `steps` seats on in turn order (East → South → West → North).
    pub fn after(self, steps: u8) -> Wind {
        Wind::ALL[usize::from((self as u8 + steps) % 4)]
    }
}

/// Parses a wind name: `E`/`S`/`W`/`N` or `1z`..`4z`.
pub fn parse_wind(s: &str) -> Option<Wind> {
    Wind::of_kind(parse_tile(s).ok()?.index)
}

/// Kind of a declared meld.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MeldKind {
    /// Three in sequence in one suit (Riichi chi).
    Chow,
    /// Three of a kind (Riichi pon).
    Pung,
    /// An exposed kong: called on a discard or added to a pung (Riichi daiminkan, kakan).
    Kong,
    /// Four of a kind from the own hand, shown but not opening the hand (Riichi ankan).
    ConcealedKong,
}

impl MeldKind {
    /// Parses `chow`, `pung`, `kong` or `concealed_kong`.
    pub fn from_name(s: &str) -> Option<Self> {
        match s {
            "chow" => Some(Self::Chow),
            "pung" => Some(Self::Pung),
            "kong" => Some(Self::Kong),
            "concealed_kong" => Some(Self::ConcealedKong),
            _ => None,
        }
    }
    /// Whether the meld opens the hand (all but a concealed kong).
    pub fn is_open(self) -> bool {
        self != Self::ConcealedKong
    }
}

/// A declared meld.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Meld {
    /// Chow, pung or kong.
    pub kind: MeldKind,
    /// The meld's tiles (3 or 4), a called one included; in Red Dragon wildcards may stand
    /// in a pung or kong.
    pub tiles: Vec<Tile>,
}

impl Meld {
    /// Lowest kind index of the meld.
    pub fn base(&self) -> u8 {
        self.tiles.iter().map(|t| t.index).min().unwrap_or(0)
    }
    /// Checks the tiles form this kind of meld; wildcards (Red Dragon) may stand in a pung/kong.
    pub fn is_valid(&self, wildcard: Option<u8>) -> bool {
        let mut idx: Vec<u8> = self.tiles.iter().map(|t| t.index).collect();
        idx.sort_unstable();
        match self.kind {
            MeldKind::Chow => {
                idx.len() == 3
                    && idx[0] < 27
                    && suit_of(idx[0]) == suit_of(idx[2])
                    && idx[1] == idx[0] + 1
                    && idx[2] == idx[0] + 2
            }
            MeldKind::Pung | MeldKind::Kong | MeldKind::ConcealedKong => {
                let want = if self.kind == MeldKind::Pung { 3 } else { 4 };
                let real: Vec<u8> = idx
                    .iter()
                    .copied()
                    .filter(|&i| Some(i) != wildcard)
                    .collect();
                idx.len() == want && real.windows(2).all(|w| w[0] == w[1])
            }
        }
    }
    /// The kind the pung/kong stands for (wildcards take the kind of the real tiles).
    pub fn pung_kind(&self, wildcard: Option<u8>) -> u8 {
        self.tiles
            .iter()
            .map(|t| t.index)
            .find(|&i| Some(i) != wildcard)
            .unwrap_or_else(|| self.base())
    }
}

/// Discard-order tie-break: honors, then terminals, then 2/8, then the middle.
pub fn edge_rank(k: u8) -> u8 {
    if is_honor(k) {
        0
    } else {
        match rank_of(k) {
            1 | 9 => 1,
            2 | 8 => 2,
            _ => 3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tenhou_round_trip() {
        let t = parse_tiles("123m405p789s1234567z").unwrap();
        assert_eq!(t.len(), 16);
        assert!(t[4].red);
        assert_eq!(t[4].index, 13);
        assert_eq!(t[15].index, 33);
        assert_eq!(t[4].to_string(), "0p");
        assert_eq!(
            TileCounts::from_tiles(&t).to_tenhou(),
            "123m455p789s1234567z"
        );
    }

    #[test]
    fn tenhou_errors_carry_index() {
        assert_eq!(parse_tiles("12m8z").unwrap_err().index(), 2);
        assert!(parse_tiles("12").is_err());
        assert!(parse_tiles("1x").is_err());
    }

    #[test]
    fn mjai_names() {
        let t = parse_mjai(&["5mr", "E", "C", "9s", "P"]).unwrap();
        assert_eq!(t[0], Tile::red(4));
        assert_eq!(t[1].index, 27);
        assert_eq!(t[2].index, 33);
        assert_eq!(t[3].index, 26);
        assert_eq!(t[4].mjai_name(), "P");
        assert_eq!(parse_mjai(&["1m", "X"]).unwrap_err().index(), 1);
        assert!(parse_tile("4mr").is_err());
    }

    #[test]
    fn flowers_and_winds() {
        assert_eq!(
            parse_flower("3g"),
            Some(Flower {
                season: true,
                number: 3
            })
        );
        assert_eq!(parse_flower("5f"), None);
        assert_eq!(parse_wind("S"), Some(Wind::South));
        assert_eq!(parse_wind("4z").map(Wind::kind), Some(30));
        assert_eq!(Wind::of_kind(31), None);
        assert_eq!(Wind::West.number(), 3);
        assert_eq!(Wind::North.after(2), Wind::South);
        assert_eq!(parse_wind("5z"), None);
    }

    /// Regression: `parse_tile` recursed once per trailing `r`, so a request
    /// whose tile was `5m` plus 60,000 `r`s overflowed a server thread's stack
    /// and aborted the process. Run on a thread with a small stack, where the
    /// old code fails already at this length.
    #[test]
    fn a_long_run_of_red_suffixes_is_an_error_not_a_stack_overflow() {
        let text = format!("5m{}", "r".repeat(100_000));
        let result = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || parse_tile(&text).is_err() && parse_mjai(&[text]).is_err())
            .unwrap()
            .join()
            .unwrap();
        assert!(result);
        assert_eq!(parse_tile("5mr"), Ok(Tile::red(4)));
        assert!(parse_tile("5mrr").is_err());
        assert!(parse_tile("0mr").is_err());
        assert!(parse_tile("Er").is_err());
    }

    #[test]
    fn counts_never_wrap() {
        let many = vec![Tile::new(0); 256];
        let c = TileCounts::from_tiles(&many);
        assert_eq!(c.get(0), 255, "256 copies must not count as 0");
        assert_eq!(TileCounts::checked_from_tiles(&many), None);
        let mut c = TileCounts::checked_from_tiles(&many[..255]).unwrap();
        assert_eq!(c.get(0), 255);
        c.add(0);
        assert_eq!(c.get(0), 255);
    }

    fn any_tile() -> impl proptest::strategy::Strategy<Value = Tile> {
        use proptest::prelude::*;
        (0u8..34, any::<bool>()).prop_map(|(index, red)| {
            if red && index < 27 && rank_of(index) == 5 {
                Tile::red(index)
            } else {
                Tile::new(index)
            }
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 500,
            failure_persistence: None,
            ..Default::default()
        })]

        /// parse(format(x)) == x in both notations, for lists and single tiles.
        #[test]
        fn notations_round_trip(tiles in proptest::collection::vec(any_tile(), 0..40)) {
            let tenhou: String = tiles.iter().map(Tile::to_string).collect();
            proptest::prop_assert_eq!(parse_tiles(&tenhou), Ok(tiles.clone()));
            let spaced: Vec<String> = tiles.iter().map(Tile::to_string).collect();
            proptest::prop_assert_eq!(parse_tiles(&spaced.join(" ")), Ok(tiles.clone()));
            let mjai: Vec<String> = tiles.iter().map(|t| t.mjai_name()).collect();
            proptest::prop_assert_eq!(parse_mjai(&mjai), Ok(tiles.clone()));
            for t in &tiles {
                proptest::prop_assert_eq!(parse_tile(&t.to_string()), Ok(*t));
                proptest::prop_assert_eq!(parse_tile(&t.mjai_name()), Ok(*t));
            }
            let counts = TileCounts::from_tiles(&tiles);
            let again = parse_tiles(&counts.to_tenhou()).unwrap();
            proptest::prop_assert_eq!(TileCounts::from_tiles(&again), counts);
        }
    }
}
