//! Seat names in requests and responses.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::doudizhu::endgame::Seat;

/// Seats, named from the landlord: `landlord_down` plays right after the
/// landlord, `landlord_up` right before.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum SeatName {
    Landlord,
    LandlordDown,
    LandlordUp,
}

impl From<SeatName> for Seat {
    fn from(s: SeatName) -> Seat {
        match s {
            SeatName::Landlord => Seat::Landlord,
            SeatName::LandlordDown => Seat::LandlordDown,
            SeatName::LandlordUp => Seat::LandlordUp,
        }
    }
}

impl From<Seat> for SeatName {
    fn from(s: Seat) -> SeatName {
        match s {
            Seat::Landlord => SeatName::Landlord,
            Seat::LandlordDown => SeatName::LandlordDown,
            Seat::LandlordUp => SeatName::LandlordUp,
        }
    }
}
