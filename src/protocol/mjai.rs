//! The mjai protocol front end: the Riichi AI ecosystem's event log in, one action out.
//!
//! An mjai bot sees the game as a stream of JSON events (`start_kyoku`, `tsumo`, `dahai`,
//! calls, `reach`, `dora`, `hora`, …) from its own seat, others' draws and starting hands
//! hidden as `"?"`, and answers each batch with exactly one action object (`dahai`,
//! `reach`, `chi`, `pon`, `daiminkan`, `ankan`, `kakan`, `hora`, `ryukyoku` or `none`).
//! This module turns that JSON into [`Event`]s for the engine's [`Table`] and the
//! engine's [`TableAction`] back into JSON; `gamebot mjai PLAYER_ID` runs it over
//! stdin/stdout (one JSON array of events per line, one action per line, state kept
//! across lines), `POST /mahjong/mjai` statelessly over HTTP.

use std::io::{BufRead, Write};

use serde::Deserialize;
use serde_json::{Value, json};

use crate::mahjong::Strategy;
use crate::mahjong::riichi_bot::{self, TableAction, TableDecision};
use crate::mahjong::table::{Event, Table};
use crate::mahjong::tiles::{Tile, parse_tile};

/// Events one request or line may carry; a whole hanchan streams well under it.
pub const MAX_EVENTS: usize = 4096;

/// What is wrong with an event log: the JSON pointer of the event and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{pointer}: {message}")]
pub struct LogError {
    pub pointer: String,
    pub message: String,
}

impl LogError {
    fn at(index: usize, message: impl Into<String>) -> Self {
        Self {
            pointer: format!("/events/{index}"),
            message: message.into(),
        }
    }
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Raw {
    StartGame {},
    StartKyoku {
        bakaze: String,
        dora_marker: String,
        kyoku: u8,
        honba: u32,
        kyotaku: u32,
        oya: u8,
        scores: [i32; 4],
        tehais: Vec<Vec<String>>,
    },
    Tsumo {
        actor: u8,
        pai: String,
    },
    Dahai {
        actor: u8,
        pai: String,
        tsumogiri: bool,
    },
    Chi {
        actor: u8,
        target: u8,
        pai: String,
        consumed: [String; 2],
    },
    Pon {
        actor: u8,
        target: u8,
        pai: String,
        consumed: [String; 2],
    },
    Daiminkan {
        actor: u8,
        target: u8,
        pai: String,
        consumed: [String; 3],
    },
    Kakan {
        actor: u8,
        pai: String,
    },
    Ankan {
        actor: u8,
        consumed: [String; 4],
    },
    Dora {
        dora_marker: String,
    },
    Reach {
        actor: u8,
    },
    ReachAccepted {
        actor: u8,
    },
    Hora {
        #[serde(default)]
        scores: Option<[i32; 4]>,
    },
    Ryukyoku {
        #[serde(default)]
        scores: Option<[i32; 4]>,
    },
    /// Written with the scores after the hand by the referee (`event_value`).
    EndKyoku {
        #[serde(default)]
        scores: Option<[i32; 4]>,
    },
    EndGame {},
    /// A bot's own `none` echoed back by some servers.
    None {},
}

fn tile(name: &str) -> Result<Tile, String> {
    parse_tile(name).map_err(|_| format!("`{name}` is not a tile"))
}

fn tiles<const N: usize>(names: &[String; N]) -> Result<[Tile; N], String> {
    let mut out = [Tile::new(0); N];
    for (slot, n) in out.iter_mut().zip(names) {
        *slot = tile(n)?;
    }
    Ok(out)
}

fn wind(name: &str) -> Result<u8, String> {
    match name {
        "E" => Ok(27),
        "S" => Ok(28),
        "W" => Ok(29),
        "N" => Ok(30),
        _ => Err(format!("`{name}` is not a wind (E, S, W, N)")),
    }
}

/// One event for seat `me`; `None` for events that change nothing (`none`).
fn convert(raw: Raw, me: u8) -> Result<Option<Event>, String> {
    Ok(Some(match raw {
        Raw::StartGame {} => Event::StartGame,
        Raw::StartKyoku {
            bakaze,
            dora_marker,
            kyoku,
            honba,
            kyotaku,
            oya,
            scores,
            tehais,
        } => {
            let own = tehais
                .get(me as usize)
                .ok_or_else(|| format!("tehais has no hand for seat {me}"))?;
            let hand = own.iter().map(|n| tile(n)).collect::<Result<Vec<_>, _>>()?;
            Event::StartKyoku {
                round_wind: wind(&bakaze)?,
                kyoku,
                honba,
                kyotaku,
                dealer: oya,
                dora_indicator: tile(&dora_marker)?,
                scores,
                hand,
            }
        }
        Raw::Tsumo { actor, pai } => Event::Tsumo {
            actor,
            tile: if pai == "?" { None } else { Some(tile(&pai)?) },
        },
        Raw::Dahai {
            actor,
            pai,
            tsumogiri,
        } => Event::Dahai {
            actor,
            tile: tile(&pai)?,
            tsumogiri,
        },
        Raw::Chi {
            actor,
            target,
            pai,
            consumed,
        } => Event::Chi {
            actor,
            target,
            tile: tile(&pai)?,
            consumed: tiles(&consumed)?,
        },
        Raw::Pon {
            actor,
            target,
            pai,
            consumed,
        } => Event::Pon {
            actor,
            target,
            tile: tile(&pai)?,
            consumed: tiles(&consumed)?,
        },
        Raw::Daiminkan {
            actor,
            target,
            pai,
            consumed,
        } => Event::Daiminkan {
            actor,
            target,
            tile: tile(&pai)?,
            consumed: tiles(&consumed)?,
        },
        Raw::Kakan { actor, pai } => Event::Kakan {
            actor,
            tile: tile(&pai)?,
        },
        Raw::Ankan { actor, consumed } => Event::Ankan {
            actor,
            consumed: tiles(&consumed)?,
        },
        Raw::Dora { dora_marker } => Event::Dora {
            indicator: tile(&dora_marker)?,
        },
        Raw::Reach { actor } => Event::Reach { actor },
        Raw::ReachAccepted { actor } => Event::ReachAccepted { actor },
        Raw::Hora { scores } | Raw::Ryukyoku { scores } => Event::HandOver { scores },
        Raw::EndKyoku { scores } => Event::HandOver { scores },
        Raw::EndGame {} => Event::EndGame,
        Raw::None {} => return Ok(None),
    }))
}

/// Applies a JSON array of events to `table`; `offset` numbers them for error pointers.
pub fn replay(table: &mut Table, events: &[Value], offset: usize) -> Result<(), LogError> {
    if events.len() > MAX_EVENTS {
        return Err(LogError {
            pointer: "/events".into(),
            message: format!("at most {MAX_EVENTS} events"),
        });
    }
    for (i, value) in events.iter().enumerate() {
        let index = offset + i;
        let raw = Raw::deserialize(value).map_err(|e| LogError::at(index, e.to_string()))?;
        if let Some(event) = convert(raw, table.me).map_err(|m| LogError::at(index, m))? {
            table
                .apply(&event)
                .map_err(|e| LogError::at(index, e.message))?;
        }
    }
    Ok(())
}

/// The mjai action object for a decision, with the explanation under `meta`.
pub fn action_json(table: &Table, decision: &TableDecision, with_meta: bool) -> Value {
    let mut action = action_value(table.me, &decision.action);
    if with_meta {
        action["meta"] = json!({
            "reason": decision.reason,
            "shanten": decision.shanten,
            "strategy": decision.strategy,
        });
    }
    action
}

/// The mjai action object of seat `me` taking `action`.
pub fn action_value(me: u8, action: &TableAction) -> Value {
    let name = |t: &Tile| t.mjai_name();
    match action {
        TableAction::Pass => json!({"type": "none"}),
        TableAction::Discard { tile, tsumogiri } => {
            json!({"type": "dahai", "actor": me, "pai": name(tile), "tsumogiri": tsumogiri})
        }
        TableAction::Riichi => json!({"type": "reach", "actor": me}),
        TableAction::Chi {
            target,
            tile,
            consumed,
        } => json!({"type": "chi", "actor": me, "target": target, "pai": name(tile),
                    "consumed": consumed.iter().map(name).collect::<Vec<_>>()}),
        TableAction::Pon {
            target,
            tile,
            consumed,
        } => json!({"type": "pon", "actor": me, "target": target, "pai": name(tile),
                    "consumed": consumed.iter().map(name).collect::<Vec<_>>()}),
        TableAction::Ankan { consumed } => json!({"type": "ankan", "actor": me,
                    "consumed": consumed.iter().map(name).collect::<Vec<_>>()}),
        TableAction::Kakan { tile, consumed } => json!({"type": "kakan", "actor": me,
                    "pai": name(tile), "consumed": consumed.iter().map(name).collect::<Vec<_>>()}),
        TableAction::Hora { target, tile } => {
            json!({"type": "hora", "actor": me, "target": target, "pai": name(tile)})
        }
        TableAction::Daiminkan {
            target,
            tile,
            consumed,
        } => json!({"type": "daiminkan", "actor": me, "target": target, "pai": name(tile),
                    "consumed": consumed.iter().map(name).collect::<Vec<_>>()}),
        TableAction::NineTerminals => json!({"type": "ryukyoku", "actor": me}),
    }
}

/// The mjai object of `event` as seat `me` sees it (others' start hands as
/// `"?"`; the end of a hand as `end_kyoku`, with the scores after it).
pub fn event_value(me: u8, event: &Event) -> Value {
    let name = |t: &Tile| t.mjai_name();
    let names = |ts: &[Tile]| ts.iter().map(name).collect::<Vec<_>>();
    match event {
        Event::StartGame => json!({"type": "start_game", "id": me}),
        Event::StartKyoku {
            round_wind,
            kyoku,
            honba,
            kyotaku,
            dealer,
            dora_indicator,
            scores,
            hand,
        } => {
            let tehais: Vec<Vec<String>> = (0..4u8)
                .map(|s| {
                    if s == me {
                        names(hand)
                    } else {
                        vec!["?".to_string(); hand.len()]
                    }
                })
                .collect();
            json!({"type": "start_kyoku", "bakaze": Tile::new(*round_wind).mjai_name(),
                   "dora_marker": name(dora_indicator), "kyoku": kyoku, "honba": honba,
                   "kyotaku": kyotaku, "oya": dealer, "scores": scores, "tehais": tehais})
        }
        Event::Tsumo { actor, tile } => json!({"type": "tsumo", "actor": actor,
            "pai": tile.map_or_else(|| "?".to_string(), |t| name(&t))}),
        Event::Dahai {
            actor,
            tile,
            tsumogiri,
        } => json!({"type": "dahai", "actor": actor, "pai": name(tile), "tsumogiri": tsumogiri}),
        Event::Chi {
            actor,
            target,
            tile,
            consumed,
        } => json!({"type": "chi", "actor": actor, "target": target, "pai": name(tile),
                    "consumed": names(consumed)}),
        Event::Pon {
            actor,
            target,
            tile,
            consumed,
        } => json!({"type": "pon", "actor": actor, "target": target, "pai": name(tile),
                    "consumed": names(consumed)}),
        Event::Daiminkan {
            actor,
            target,
            tile,
            consumed,
        } => json!({"type": "daiminkan", "actor": actor, "target": target, "pai": name(tile),
                    "consumed": names(consumed)}),
        Event::Kakan { actor, tile } => json!({"type": "kakan", "actor": actor, "pai": name(tile)}),
        Event::Ankan { actor, consumed } => {
            json!({"type": "ankan", "actor": actor, "consumed": names(consumed)})
        }
        Event::Dora { indicator } => json!({"type": "dora", "dora_marker": name(indicator)}),
        Event::Reach { actor } => json!({"type": "reach", "actor": actor}),
        Event::ReachAccepted { actor } => json!({"type": "reach_accepted", "actor": actor}),
        Event::HandOver { scores: None } => json!({"type": "end_kyoku"}),
        Event::HandOver {
            scores: Some(scores),
        } => json!({"type": "end_kyoku", "scores": scores}),
        Event::EndGame => json!({"type": "end_game"}),
    }
}

/// The action an mjai action object names (`actor` and `meta` are not read:
/// the referee knows the seat and checks that the action is legal).
pub fn parse_action(value: &Value) -> Result<TableAction, String> {
    #[derive(Deserialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    enum RawAction {
        None {},
        Dahai {
            pai: String,
            tsumogiri: bool,
        },
        Reach {},
        Chi {
            target: u8,
            pai: String,
            consumed: [String; 2],
        },
        Pon {
            target: u8,
            pai: String,
            consumed: [String; 2],
        },
        Daiminkan {
            target: u8,
            pai: String,
            consumed: [String; 3],
        },
        Ankan {
            consumed: [String; 4],
        },
        Kakan {
            pai: String,
            consumed: [String; 3],
        },
        Hora {
            target: u8,
            pai: String,
        },
        Ryukyoku {},
    }
    let raw = RawAction::deserialize(value).map_err(|e| e.to_string())?;
    Ok(match raw {
        RawAction::None {} => TableAction::Pass,
        RawAction::Dahai { pai, tsumogiri } => TableAction::Discard {
            tile: tile(&pai)?,
            tsumogiri,
        },
        RawAction::Reach {} => TableAction::Riichi,
        RawAction::Chi {
            target,
            pai,
            consumed,
        } => TableAction::Chi {
            target,
            tile: tile(&pai)?,
            consumed: tiles(&consumed)?,
        },
        RawAction::Pon {
            target,
            pai,
            consumed,
        } => TableAction::Pon {
            target,
            tile: tile(&pai)?,
            consumed: tiles(&consumed)?,
        },
        RawAction::Daiminkan {
            target,
            pai,
            consumed,
        } => TableAction::Daiminkan {
            target,
            tile: tile(&pai)?,
            consumed: tiles(&consumed)?,
        },
        RawAction::Ankan { consumed } => TableAction::Ankan {
            consumed: tiles(&consumed)?,
        },
        RawAction::Kakan { pai, consumed } => TableAction::Kakan {
            tile: tile(&pai)?,
            consumed: tiles(&consumed)?,
        },
        RawAction::Hora { target, pai } => TableAction::Hora {
            target,
            tile: tile(&pai)?,
        },
        RawAction::Ryukyoku {} => TableAction::NineTerminals,
    })
}

/// A bot seat kept across lines: the stdin/stdout form of the protocol.
pub struct Session {
    table: Table,
    strategy: Strategy,
}

impl Session {
    pub fn new(player_id: u8, strategy: Strategy) -> Self {
        Self {
            table: Table::new(player_id),
            strategy,
        }
    }

    /// The table as replayed so far.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// One input line (a JSON array of events, or one event object) to one action line.
    pub fn react(&mut self, line: &str) -> Result<Value, LogError> {
        let value: Value = serde_json::from_str(line).map_err(|e| LogError {
            pointer: String::new(),
            message: format!("not JSON: {e}"),
        })?;
        let events = match value {
            Value::Array(v) => v,
            other @ Value::Object(_) => vec![other],
            _ => {
                return Err(LogError {
                    pointer: String::new(),
                    message: "expected a JSON array of events".into(),
                });
            }
        };
        replay(&mut self.table, &events, 0)?;
        let decision = riichi_bot::decide(&self.table, self.strategy);
        Ok(action_json(&self.table, &decision, false))
    }
}

/// Runs the bot for `player_id` over `input` / `output` until the input ends. A line
/// that cannot be used answers `{"type":"none","error":…}` so the game server sees why,
/// and the seat goes on.
pub fn run(
    player_id: u8,
    strategy: Strategy,
    input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<()> {
    /// Longest input line read; a whole hand's log is far shorter.
    const MAX_LINE: usize = 1 << 20;
    let mut session = Session::new(player_id, strategy);
    for line in input.lines() {
        let line = line?;
        let answer = if line.len() > MAX_LINE {
            json!({"type": "none", "error": format!("line longer than {MAX_LINE} bytes")})
        } else if line.trim().is_empty() {
            continue;
        } else {
            match session.react(&line) {
                Ok(action) => action,
                Err(e) => json!({"type": "none", "error": e.to_string()}),
            }
        };
        writeln!(output, "{answer}")?;
        output.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
