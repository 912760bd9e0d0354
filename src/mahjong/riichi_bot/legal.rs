//! Every action the rules allow the seat now, from its own table: what a
//! referee offers a human seat, and what the bot's answer must be one of.
//!
//! Rules (Tenhou's, as mjai servers play them): on its turn after a draw a
//! seat may win by self-draw (a complete hand with a yaku), abort with nine
//! terminal and honour kinds on its first draw before any call, declare riichi
//! (closed, 1,000 points, four tiles left, some discard leaves it ready),
//! declare a concealed kan or add to a pung (after a draw, while the live wall
//! has tiles and fewer than four kans stand; in riichi only a concealed kan of
//! the drawn kind that leaves the waits as they were), or discard any tile but
//! the kinds kuikae forbids right after its own call; in riichi only the drawn
//! copy goes, and the riichi discard itself must leave the hand ready. On
//! another seat's discard it may win (not furiten), or, unless in riichi or on
//! the last discard, call pon or an open kan from any seat and chi from the
//! seat on its left, each choice of copies (a red five or not) its own action,
//! but no call after which kuikae would forbid every tile left. On an added
//! kan only the win (chankan) or the pass.

use super::TableAction;
use super::value::win_now;
use crate::mahjong::table::{Table, Turn, kuikae_kinds};
use crate::mahjong::tiles::{KINDS, MeldKind, Tile, TileCounts};

/// Kans a hand may hold in all (a fifth is never allowed).
const MAX_KANS: usize = 4;

/// The seat's legal actions now, `Pass` first where passing is one; just
/// `Pass` when the seat has no decision to make.
pub fn legal_actions(table: &Table) -> Vec<TableAction> {
    match table.turn {
        Turn::Act {
            seat,
            drawn,
            rinshan,
            ..
        } if seat == table.me => own_turn(table, drawn, rinshan),
        Turn::Discarded { seat } if seat != table.me => match table.river.last() {
            Some(r) => answers(table, seat, r.tile, false),
            None => vec![TableAction::Pass],
        },
        Turn::Added { seat, tile } if seat != table.me => answers(table, seat, tile, true),
        _ => vec![TableAction::Pass],
    }
}

fn kans_on_table(table: &Table) -> usize {
    table
        .seats
        .iter()
        .flat_map(|s| &s.melds)
        .filter(|m| m.tiles.len() == 4)
        .count()
}

/// Whether the concealed tiles `conc` (13 − 3n) wait on something.
fn ready(table: &Table, conc: &TileCounts) -> bool {
    !table.waits(conc).is_empty()
}

/// The distinct copies in `hand` (a red five and a plain five differ).
fn distinct(hand: &[Tile]) -> Vec<Tile> {
    let mut out: Vec<Tile> = Vec::new();
    for &t in hand {
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out.sort_by_key(|t| (t.index, t.red));
    out
}

fn discards(table: &Table, drawn: Option<Tile>, only_ready: bool) -> Vec<TableAction> {
    let mut out = Vec::new();
    for t in distinct(&table.hand) {
        if table.kuikae.contains(&t.index) {
            continue;
        }
        if only_ready {
            let mut after = table.concealed();
            after.remove(t.index);
            if !ready(table, &after) {
                continue;
            }
        }
        let held = table.hand.iter().filter(|&&h| h == t).count();
        if drawn == Some(t) {
            out.push(TableAction::Discard {
                tile: t,
                tsumogiri: true,
            });
        }
        if held > usize::from(drawn == Some(t)) {
            out.push(TableAction::Discard {
                tile: t,
                tsumogiri: false,
            });
        }
    }
    out
}

fn own_turn(table: &Table, drawn: Option<Tile>, rinshan: bool) -> Vec<TableAction> {
    if table.riichi_declared_now() {
        return discards(table, drawn, true);
    }
    let mut out = Vec::new();
    let conc = table.concealed();
    if let Some(d) = drawn {
        if win_now(table, d, true, rinshan, false).is_some() {
            out.push(TableAction::Hora {
                target: table.me,
                tile: d,
            });
        }
        if table.may_abort_nine_terminals() {
            out.push(TableAction::NineTerminals);
        }
        let some_discard_ready = (0..KINDS as u8).any(|k| {
            conc.get(k) > 0 && {
                let mut after = conc;
                after.remove(k);
                ready(table, &after)
            }
        });
        if table.may_riichi() && some_discard_ready {
            out.push(TableAction::Riichi);
        }
        if table.wall_left() > 0 && kans_on_table(table) < MAX_KANS {
            out.extend(kans(table, d));
        }
    }
    if table.in_riichi() {
        if let Some(d) = drawn {
            out.push(TableAction::Discard {
                tile: d,
                tsumogiri: true,
            });
        }
    } else {
        out.extend(discards(table, drawn, false));
    }
    out
}

/// Concealed and added kans after drawing `drawn`.
fn kans(table: &Table, drawn: Tile) -> Vec<TableAction> {
    let conc = table.concealed();
    let melds = &table.my_seat().melds;
    let mut out = Vec::new();
    for k in 0..KINDS as u8 {
        if conc.get(k) == 4 {
            if table.in_riichi() {
                // The drawn tile only, and the waits must stay as they were.
                let mut before = conc;
                before.remove(drawn.index);
                let mut after = conc;
                for _ in 0..4 {
                    after.remove(k);
                }
                let same = {
                    let mut with_meld = table.clone();
                    with_meld.seats[usize::from(table.me)].melds.push(
                        crate::mahjong::tiles::Meld {
                            kind: MeldKind::ConcealedKong,
                            tiles: vec![Tile::new(k); 4],
                        },
                    );
                    table.waits(&before) == with_meld.waits(&after)
                };
                if drawn.index != k || !same {
                    continue;
                }
            }
            let copies: Vec<Tile> = table
                .hand
                .iter()
                .filter(|t| t.index == k)
                .copied()
                .collect();
            out.push(TableAction::Ankan {
                consumed: [copies[0], copies[1], copies[2], copies[3]],
            });
        }
        if table.in_riichi() {
            continue;
        }
        if let Some(m) = melds
            .iter()
            .find(|m| m.kind == MeldKind::Pung && m.tiles[0].index == k)
        {
            for tile in distinct(&table.hand).into_iter().filter(|t| t.index == k) {
                out.push(TableAction::Kakan {
                    tile,
                    consumed: [m.tiles[0], m.tiles[1], m.tiles[2]],
                });
            }
        }
    }
    out
}

/// The distinct ways to give `n` copies of `kind` from the hand (red or not).
fn copy_choices(hand: &[Tile], kind: u8, n: usize) -> Vec<Vec<Tile>> {
    let plain = hand.iter().filter(|t| t.index == kind && !t.red).count();
    let red = hand.iter().filter(|t| t.index == kind && t.red).count();
    let mut out = Vec::new();
    for reds in 0..=red.min(n) {
        if n - reds <= plain {
            let mut v = vec![Tile::red(kind); reds];
            v.extend(std::iter::repeat_n(Tile::new(kind), n - reds));
            out.push(v);
        }
    }
    out
}

/// Whether some tile is left to discard after giving `consumed` with
/// `forbidden` kinds barred.
fn leaves_a_discard(hand: &[Tile], consumed: &[Tile], forbidden: &[u8]) -> bool {
    let mut rest = hand.to_vec();
    for c in consumed {
        if let Some(i) = rest.iter().position(|t| t == c) {
            rest.swap_remove(i);
        }
    }
    rest.iter().any(|t| !forbidden.contains(&t.index))
}

fn answers(table: &Table, from: u8, tile: Tile, chankan: bool) -> Vec<TableAction> {
    let mut out = vec![TableAction::Pass];
    if win_now(table, tile, false, false, chankan).is_some() {
        out.push(TableAction::Hora { target: from, tile });
    }
    if chankan || table.in_riichi() || table.wall_left() == 0 {
        return out;
    }
    let k = tile.index;
    let hand = &table.hand;
    for c in copy_choices(hand, k, 2) {
        if leaves_a_discard(hand, &c, &[k]) {
            out.push(TableAction::Pon {
                target: from,
                tile,
                consumed: [c[0], c[1]],
            });
        }
    }
    if kans_on_table(table) < MAX_KANS {
        for c in copy_choices(hand, k, 3) {
            out.push(TableAction::Daiminkan {
                target: from,
                tile,
                consumed: [c[0], c[1], c[2]],
            });
        }
    }
    if (from + 1) % 4 == table.me && k < 27 {
        let rank = k % 9;
        for start in rank.saturating_sub(2)..=rank.min(6) {
            let base = k - rank + start;
            let others: Vec<u8> = (base..base + 3).filter(|&x| x != k).collect();
            for a in copy_choices(hand, others[0], 1) {
                for b in copy_choices(hand, others[1], 1) {
                    let consumed = [a[0], b[0]];
                    let forbidden = kuikae_kinds(k, [others[0], others[1]]);
                    if leaves_a_discard(hand, &consumed, &forbidden) {
                        out.push(TableAction::Chi {
                            target: from,
                            tile,
                            consumed,
                        });
                    }
                }
            }
        }
    }
    out
}
