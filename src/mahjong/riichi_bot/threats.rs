//! The opponents as the danger model reads them.

use super::value::dora_kinds;
use crate::mahjong::danger;
use crate::mahjong::table::Table;
use crate::mahjong::tiles::KINDS;

/// A readiness chance from which an opponent counts as a threat.
pub(super) const THREAT_TENPAI: f64 = 0.45;

/// Below this chance, an opponent's danger only breaks ties between equal discards.
pub(super) const NOTICE_TENPAI: f64 = 0.15;

/// The threat each opponent poses, from the danger model.
pub(super) struct Threats {
    /// Per opponent seat: readiness chance, expected hand value, deal-in chance per kind.
    pub(super) seats: Vec<(u8, f64, f64, [f64; KINDS])>,
}

impl Threats {
    pub(super) fn read(table: &Table) -> Self {
        let river: Vec<danger::RiverTile> = table
            .river
            .iter()
            .map(|r| danger::RiverTile {
                seat: r.seat,
                tile: r.tile,
                tsumogiri: r.tsumogiri,
            })
            .collect();
        let melds = [
            table.seats[0].melds.as_slice(),
            table.seats[1].melds.as_slice(),
            table.seats[2].melds.as_slice(),
            table.seats[3].melds.as_slice(),
        ];
        let view = danger::TableView {
            me: table.me,
            river: &river,
            riichi: [0, 1, 2, 3].map(|s| table.seats[s].riichi),
            melds,
            seen: table.seen(),
            dora: dora_kinds(table),
            seat_winds: [0, 1, 2, 3].map(|s| table.seat_wind(s)),
            round_wind: table.round_wind,
            tiles_left: table.wall_left(),
            furiten: true,
        };
        let seats = (0..4u8)
            .filter(|&s| s != table.me)
            .map(|s| {
                let tp = danger::tenpai_probability(&view, s);
                let value = danger::expected_hand_value(&view, s);
                (s, tp, value, danger::danger_table(&view, s))
            })
            .collect();
        Self { seats }
    }

    pub(super) fn max_tenpai(&self) -> f64 {
        self.seats.iter().map(|s| s.1).fold(0.0, f64::max)
    }

    pub(super) fn count(&self) -> usize {
        self.seats.iter().filter(|s| s.1 >= THREAT_TENPAI).count()
    }

    /// Expected points lost by discarding `kind` now.
    pub(super) fn risk(&self, kind: u8) -> f64 {
        self.seats
            .iter()
            .map(|(_, tp, value, table)| tp * table[kind as usize] * value)
            .sum()
    }
}
