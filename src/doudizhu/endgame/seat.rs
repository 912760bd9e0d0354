//! The seats of an endgame and their turn order.

use std::fmt;

use super::PositionError;

/// A seat at the table. Turn order: landlord → landlord_down → landlord_up → landlord.
#[repr(u8)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    /// The landlord, who plays alone against the two peasants.
    Landlord = 0,
    /// The peasant who plays right after the landlord.
    LandlordDown = 1,
    /// The peasant who plays right before the landlord.
    LandlordUp = 2,
}

impl Seat {
    /// The three seats in turn order, indexed by [`Seat::index`].
    pub const ALL: [Seat; 3] = [Seat::Landlord, Seat::LandlordDown, Seat::LandlordUp];

    /// The seat's index, `0..3` in turn order.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The seat with index `i`, `None` unless `i < 3`.
    pub const fn from_index(i: usize) -> Option<Seat> {
        if i < 3 { Some(Seat::ALL[i]) } else { None }
    }

    /// The next seat in the full three-seat order (absent seats are not skipped
    /// here; see [`Position::next_seat`](super::Position::next_seat)).
    pub const fn next(self) -> Seat {
        Seat::ALL[(self as usize + 1) % 3]
    }

    /// Whether this is the landlord's seat.
    pub const fn is_landlord(self) -> bool {
        matches!(self, Seat::Landlord)
    }

    /// Whether both seats play for the same side.
    pub const fn same_team(self, other: Seat) -> bool {
        self.is_landlord() == other.is_landlord()
    }

    /// `"landlord"`, `"landlord_down"` or `"landlord_up"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Seat::Landlord => "landlord",
            Seat::LandlordDown => "landlord_down",
            Seat::LandlordUp => "landlord_up",
        }
    }

    /// Inverse of [`Seat::as_str`].
    pub fn from_name(name: &str) -> Option<Seat> {
        Seat::ALL.into_iter().find(|s| s.as_str() == name)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Seat {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<Seat, PositionError> {
        Seat::from_name(s).ok_or_else(|| PositionError::UnknownSeat(s.to_string()))
    }
}
