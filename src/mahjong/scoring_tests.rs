//! Hands with their Tenhou results, each worked out by hand from the rules in the module
//! docs (the comment of a case shows the sums), and properties over random complete hands.

use super::*;
use crate::mahjong::rules::{WinInput, riichi_yaku};
use crate::mahjong::tiles::{MeldKind, Tile, Wind, parse_tiles};

const SOUTH: u8 = 28;

fn tiles(s: &str) -> Vec<Tile> {
    parse_tiles(s).unwrap()
}

fn kinds(s: &str) -> Vec<u8> {
    tiles(s).iter().map(|t| t.index).collect()
}

fn meld(kind: MeldKind, s: &str) -> Meld {
    Meld {
        kind,
        tiles: tiles(s),
    }
}

fn chow(s: &str) -> Meld {
    meld(MeldKind::Chow, s)
}

fn pung(s: &str) -> Meld {
    meld(MeldKind::Pung, s)
}

fn kong(s: &str) -> Meld {
    meld(MeldKind::Kong, s)
}

fn ankan(s: &str) -> Meld {
    meld(MeldKind::ConcealedKong, s)
}

/// A ron by the South seat in the East round.
fn ron() -> Situation {
    Situation {
        seat_wind: SOUTH,
        ..Situation::default()
    }
}

fn tsumo() -> Situation {
    Situation {
        self_drawn: true,
        ..ron()
    }
}

/// Scores `hand` (concealed tiles incl. the winning tile, tenhou notation, `0` = red five).
fn score(hand: &str, melds: &[Meld], win: &str, sit: &Situation) -> Option<HandScore> {
    let t = tiles(hand);
    let reds = t
        .iter()
        .chain(melds.iter().flat_map(|m| m.tiles.iter()))
        .filter(|t| t.red)
        .count() as u32;
    score_hand(
        &TileCounts::from_tiles(&t),
        reds,
        melds,
        tiles(win)[0].index,
        sit,
    )
}

/// Asserts the yaku (any order), han, fu and the winner's total.
fn expect(s: &HandScore, yaku: &[(&str, u32)], han: u32, fu: u32, total: u32) {
    let mut got: Vec<(&str, u32)> = s.yaku.clone();
    got.sort_unstable();
    let mut want = yaku.to_vec();
    want.sort_unstable();
    assert_eq!(got, want, "{s:?}");
    assert_eq!((s.han, s.fu, s.total), (han, fu, total), "{s:?}");
}

fn scored(hand: &str, melds: &[Meld], win: &str, sit: &Situation) -> HandScore {
    score(hand, melds, win, sit).expect("a scoring hand")
}

#[test]
fn dora_indicators_wrap() {
    assert_eq!(dora_of(0), 1);
    assert_eq!(dora_of(8), 0, "9m points at 1m");
    assert_eq!(dora_of(17), 9, "9p points at 1p");
    assert_eq!(dora_of(26), 18, "9s points at 1s");
    assert_eq!(dora_of(27), 28, "E points at S");
    assert_eq!(dora_of(30), 27, "N points at E");
    assert_eq!(dora_of(31), 32, "haku points at hatsu");
    assert_eq!(dora_of(32), 33, "hatsu points at chun");
    assert_eq!(dora_of(33), 31, "chun points at haku");
}

#[test]
fn points_table_and_limits() {
    // 4 han 30 fu: 30 × 2^6 = 1920, ×4 = 7680 → 7700 (no kiriage mangan)
    assert_eq!(points(4, 30, false, false), 7700);
    // dealer 4 han 30 fu: 1920 × 6 = 11520 → 11600
    assert_eq!(points(4, 30, true, false), 11600);
    // 3 han 60 fu: 1920 as well
    assert_eq!(points(3, 60, false, false), 7700);
    // 3 han 70 fu: 2240 ≥ 2000, mangan
    assert_eq!(points(3, 70, false, false), 8000);
    assert_eq!(points(4, 40, false, false), 8000);
    // dealer 1 han 30 fu ron: 240 × 6 = 1440 → 1500
    assert_eq!(points(1, 30, true, false), 1500);
    // non-dealer 1 han 30 fu tsumo: 300 / 500
    assert_eq!(
        payments(base_points(1, 30), false, true, 0),
        Payments::Tsumo {
            dealer: 500,
            non_dealer: 300
        }
    );
    assert_eq!(points(1, 30, false, true), 1100);
    // dealer 2 han 40 fu tsumo: 640 × 2 = 1280 → 1300 all
    assert_eq!(
        payments(base_points(2, 40), true, true, 0),
        Payments::DealerTsumo { each: 1300 }
    );
    // 2 han 25 fu ron: 400 × 4
    assert_eq!(points(2, 25, false, false), 1600);
    for (han, non_dealer, dealer) in [
        (5, 8000, 12000),
        (6, 12000, 18000),
        (7, 12000, 18000),
        (8, 16000, 24000),
        (10, 16000, 24000),
        (11, 24000, 36000),
        (12, 24000, 36000),
        (13, 32000, 48000),
        (20, 32000, 48000),
    ] {
        assert_eq!(points(han, 30, false, false), non_dealer, "{han} han");
        assert_eq!(points(han, 30, true, false), dealer, "{han} han dealer");
        assert_eq!(points(han, 30, false, true), non_dealer, "{han} han tsumo");
        assert_eq!(
            points(han, 30, true, true),
            dealer,
            "{han} han dealer tsumo"
        );
    }
    assert_eq!(points(0, 30, false, false), 0);
}

#[test]
fn pinfu_tsumo_is_20_fu() {
    // menzen tsumo + pinfu + tanyao = 3 han 20 fu: 640 → 700 / 1300
    let s = scored("234m456p88p234s678s", &[], "4s", &tsumo());
    expect(
        &s,
        &[("menzen tsumo", 1), ("pinfu", 1), ("tanyao", 1)],
        3,
        20,
        2700,
    );
    assert_eq!(
        s.payments,
        Payments::Tsumo {
            dealer: 1300,
            non_dealer: 700
        }
    );
}

#[test]
fn dealer_pinfu_ron_is_1500() {
    // pinfu alone, 20 + 10 closed ron = 30 fu; 240 × 6 = 1440 → 1500
    let sit = Situation {
        seat_wind: EAST,
        ..ron()
    };
    let s = scored("123m456p789s234s55p", &[], "4s", &sit);
    expect(&s, &[("pinfu", 1)], 1, 30, 1500);
    assert_eq!(s.payments, Payments::Ron { discarder: 1500 });
}

#[test]
fn open_yakuhai_tsumo_is_300_500() {
    // 20 + open haku pung 4 + tsumo 2 = 26 → 30 fu, 1 han
    let s = scored("123m11p456p789s", &[pung("555z")], "9s", &tsumo());
    expect(&s, &[("yakuhai haku", 1)], 1, 30, 1100);
    assert_eq!(
        s.payments,
        Payments::Tsumo {
            dealer: 500,
            non_dealer: 300
        }
    );
}

#[test]
fn dealer_kanchan_tsumo_is_1300_all() {
    // 20 + tsumo 2 + closed haku pung 8 + kanchan 2 = 32 → 40 fu; tsumo + haku = 2 han
    let sit = Situation {
        seat_wind: EAST,
        ..tsumo()
    };
    let s = scored("123m456p99p123s555z", &[], "2s", &sit);
    expect(&s, &[("menzen tsumo", 1), ("yakuhai haku", 1)], 2, 40, 3900);
    assert_eq!(s.payments, Payments::DealerTsumo { each: 1300 });
}

#[test]
fn four_han_thirty_fu_is_7700_with_honba_and_kyotaku() {
    // riichi + pinfu + tanyao + dora 1 (indicator 1m → 2m)
    let mut sit = Situation {
        riichi: true,
        dora_indicators: kinds("1m"),
        ..ron()
    };
    let s = scored("234m456p678s234s88p", &[], "2s", &sit);
    expect(
        &s,
        &[("riichi", 1), ("pinfu", 1), ("tanyao", 1)],
        4,
        30,
        7700,
    );
    assert_eq!(s.dora, 1);
    // 2 honba (+600 from the discarder) and one riichi stick (+1000)
    sit.honba = 2;
    sit.kyotaku = 1;
    let s = scored("234m456p678s234s88p", &[], "2s", &sit);
    assert_eq!(s.payments, Payments::Ron { discarder: 8300 });
    assert_eq!(s.total, 9300);
}

#[test]
fn honba_on_tsumo_is_100_per_payer() {
    let sit = Situation {
        honba: 1,
        kyotaku: 2,
        ..tsumo()
    };
    let s = scored("234m456p88p234s678s", &[], "4s", &sit);
    assert_eq!(
        s.payments,
        Payments::Tsumo {
            dealer: 1400,
            non_dealer: 800
        }
    );
    assert_eq!(s.total, 800 + 800 + 1400 + 2000);
}

#[test]
fn three_han_seventy_fu_is_mangan() {
    // 20 + closed ron 10 + closed 9p kong 32 + closed 1m pung 8 = 70 fu;
    // riichi + dora 2 (indicator 1s → 2s pair) = 3 han: 2240 → mangan
    let sit = Situation {
        riichi: true,
        dora_indicators: kinds("1s"),
        ..ron()
    };
    let s = scored("111m234p22s678s", &[ankan("9999p")], "6s", &sit);
    expect(&s, &[("riichi", 1)], 3, 70, 8000);
    assert_eq!((s.dora, s.base), (2, 2000));
}

#[test]
fn chiitoitsu_is_25_fu() {
    // 2 han 25 fu: 400 × 4
    let s = scored("1133m5577p22s4466z", &[], "6z", &ron());
    expect(&s, &[("chiitoitsu", 2)], 2, 25, 1600);
    // riichi + tsumo + chiitoitsu: 4 han 25 fu, 1600 / 3200 (no tsumo fu)
    let sit = Situation {
        riichi: true,
        ..tsumo()
    };
    let s = scored("1133m5577p22s4466z", &[], "6z", &sit);
    expect(
        &s,
        &[("riichi", 1), ("menzen tsumo", 1), ("chiitoitsu", 2)],
        4,
        25,
        6400,
    );
}

#[test]
fn open_pinfu_shape_is_30_fu() {
    // kuitan: 20 fu with nothing else becomes 30; 240 × 4 = 960 → 1000
    let s = scored("456p88p234s678s", &[chow("234m")], "4s", &ron());
    expect(&s, &[("tanyao", 1)], 1, 30, 1000);
}

#[test]
fn red_fives_are_dora_but_no_yaku() {
    // tanyao + red 5m (meld) = 2 han 30 fu: 480 × 4 = 1920 → 2000
    let s = scored("456p88p234s678s", &[chow("340m")], "4s", &ron());
    expect(&s, &[("tanyao", 1)], 2, 30, 2000);
    assert_eq!(s.red, 1);
    // red 5p in hand and red 5m in the meld: 3 han 30 fu = 3900
    let s = scored("406p88p234s678s", &[chow("340m")], "4s", &ron());
    assert_eq!((s.red, s.han, s.total), (2, 3, 3900));
}

#[test]
fn dora_without_a_yaku_scores_nothing() {
    // indicators 3s and 3p: dora 4s and 4p
    let sit = Situation {
        dora_indicators: kinds("3s3p"),
        ..ron()
    };
    // open, 123m keeps tanyao away, no yakuhai: two dora do not make a win
    assert_eq!(score("456p11p789s234s", &[chow("123m")], "4s", &sit), None);
    // closed ron on a kanchan without riichi: no yaku either
    assert_eq!(score("123m456p789s123s11p", &[], "2s", &sit), None);
    // with riichi it wins: riichi 1 + dora 1 (4p), 20 + 10 + kanchan 2 = 32 → 40 fu:
    // 640 × 4 = 2560 → 2600
    let with_riichi = Situation {
        riichi: true,
        ..sit.clone()
    };
    let s = scored("123m456p789s123s11p", &[], "2s", &with_riichi);
    expect(&s, &[("riichi", 1)], 2, 40, 2600);
    assert_eq!(s.dora, 1);
    // not complete at all
    assert_eq!(score("123m456p789s124s11p", &[], "4s", &with_riichi), None);
    // the winning tile must be in the hand
    assert_eq!(score("123m456p789s123s11p", &[], "5z", &with_riichi), None);
}

#[test]
fn ura_dora_count_for_riichi_only() {
    // riichi + pinfu + tanyao + dora 1 + ura 2 (7p → 8p pair) = 6 han: haneman
    let sit = Situation {
        riichi: true,
        dora_indicators: kinds("1m"),
        ura_indicators: kinds("7p"),
        ..ron()
    };
    let s = scored("234m456p678s234s88p", &[], "2s", &sit);
    assert_eq!((s.han, s.ura, s.base, s.total), (6, 2, 3000, 12000));
    // without riichi the ura indicators are ignored: pinfu + tanyao + dora 1
    let sit = Situation {
        riichi: false,
        ..sit
    };
    let s = scored("234m456p678s234s88p", &[], "2s", &sit);
    assert_eq!((s.han, s.ura, s.total), (3, 0, 3900));
}

#[test]
fn baiman_sanbaiman_and_kazoe() {
    // riichi + tsumo + pinfu + tanyao = 4, dora 7p 7p 1m 3s → 2 + 2 + 1 + 1 = 6: 10 han
    let mut sit = Situation {
        riichi: true,
        dora_indicators: kinds("7p7p1m3s"),
        ..tsumo()
    };
    let s = scored("234m456p88p234s678s", &[], "4s", &sit);
    assert_eq!((s.han, s.base, s.total), (10, 4000, 16000));
    // ura 7p: 12 han sanbaiman, 6000 / 12000
    sit.ura_indicators = kinds("7p");
    let s = scored("234m456p88p234s678s", &[], "4s", &sit);
    assert_eq!((s.han, s.base, s.total), (12, 6000, 24000));
    // ura 7p 3s: 13 han, kazoe yakuman (not a yakuman)
    sit.ura_indicators = kinds("7p3s");
    let s = scored("234m456p88p234s678s", &[], "4s", &sit);
    assert_eq!((s.han, s.yakuman, s.base, s.total), (13, 0, 8000, 32000));
}

#[test]
fn double_riichi_and_ippatsu() {
    // double riichi 2 + ippatsu 1 + pinfu 1 = 4 han 30 fu
    let sit = Situation {
        riichi: true,
        double_riichi: true,
        ippatsu: true,
        ..ron()
    };
    let s = scored("123m456p789s234s55p", &[], "4s", &sit);
    expect(
        &s,
        &[("double riichi", 2), ("ippatsu", 1), ("pinfu", 1)],
        4,
        30,
        7700,
    );
}

#[test]
fn iipeikou_and_ryanpeikou() {
    // riichi + iipeikou + pinfu = 3 han 30 fu: 960 × 4 = 3840 → 3900
    let sit = Situation {
        riichi: true,
        ..ron()
    };
    let s = scored("223344m567p789s99p", &[], "2m", &sit);
    expect(
        &s,
        &[("riichi", 1), ("iipeikou", 1), ("pinfu", 1)],
        3,
        30,
        3900,
    );
    // Seven-pairs shape read as ryanpeikou: 3 han, 20 + 10 + tanki 2 = 40 fu → 5200,
    // better than chiitoitsu's 2 han 25 fu (1600).
    let s = scored("223344m556677p99s", &[], "9s", &ron());
    expect(&s, &[("ryanpeikou", 3)], 3, 40, 5200);
    // open: neither
    assert_eq!(score("234m556677p99s", &[chow("234m")], "9s", &ron()), None);
}

#[test]
fn winds_and_the_wind_pair() {
    // South seat in the South round: the South pung is worth 2; 20 + 4 = 24 → 30 fu
    let sit = Situation {
        round_wind: SOUTH,
        ..ron()
    };
    let s = scored("123m456p99p678s", &[pung("222z")], "6s", &sit);
    expect(
        &s,
        &[("yakuhai seat wind", 1), ("yakuhai round wind", 1)],
        2,
        30,
        2000,
    );
    // double-wind pair +4: 20 + 10 + closed 1m pung 8 + 4 = 42 → 50 fu, riichi 1 han: 1600
    let riichi_ss = Situation {
        riichi: true,
        ..sit
    };
    let s = scored("111m456p789s234s22z", &[], "4s", &riichi_ss);
    expect(&s, &[("riichi", 1)], 1, 50, 1600);
    // seat-wind pair only (East round): 20 + 10 + 8 + 2 = 40 fu: 1300
    let riichi_se = Situation {
        riichi: true,
        ..ron()
    };
    let s = scored("111m456p789s234s22z", &[], "4s", &riichi_se);
    expect(&s, &[("riichi", 1)], 1, 40, 1300);
    // dragon pair 2 + kanchan 2: 20 + 10 + 8 + 2 + 2 = 42 → 50 fu
    let s = scored("111m456p789s123s55z", &[], "2s", &riichi_se);
    expect(&s, &[("riichi", 1)], 1, 50, 1600);
}

#[test]
fn chankan_rinshan_haitei_houtei() {
    // chankan on a closed kanchan: 20 + 10 + 2 = 32 → 40 fu, 1 han
    let sit = Situation {
        chankan: true,
        ..ron()
    };
    let s = scored("123m456p789s123s11p", &[], "2s", &sit);
    expect(&s, &[("chankan", 1)], 1, 40, 1300);
    // rinshan with an open 8p kong: 20 + 8 + kanchan 2 + tsumo 2 = 32 → 40 fu; 400 / 700
    let sit = Situation {
        rinshan: true,
        ..tsumo()
    };
    let s = scored("123m456m11p123s", &[kong("8888p")], "2s", &sit);
    expect(&s, &[("rinshan kaihou", 1)], 1, 40, 1500);
    assert_eq!(
        s.payments,
        Payments::Tsumo {
            dealer: 700,
            non_dealer: 400
        }
    );
    // haitei, open: 20 + kanchan 2 + tsumo 2 = 24 → 30 fu; 300 / 500
    let sit = Situation {
        haitei: true,
        ..tsumo()
    };
    let s = scored("456p789s11p123s", &[chow("123m")], "2s", &sit);
    expect(&s, &[("haitei raoyue", 1)], 1, 30, 1100);
    // houtei, the same hand on a discard: 20 + 2 = 22 → 30 fu; 1000
    let sit = Situation {
        houtei: true,
        ..ron()
    };
    let s = scored("456p789s11p123s", &[chow("123m")], "2s", &sit);
    expect(&s, &[("houtei raoyui", 1)], 1, 30, 1000);
    // flags that do not fit the way of winning are ignored
    let sit = Situation {
        chankan: true,
        haitei: true,
        ..tsumo()
    };
    let s = scored("123m456p789s123s11p", &[], "2s", &sit);
    assert_eq!(s.yaku, vec![("menzen tsumo", 1), ("haitei raoyue", 1)]);
}

#[test]
fn sanshoku_doujun_closed_and_open() {
    // pinfu + tanyao + sanshoku 2 = 4 han 30 fu
    let s = scored("234m567m234p234s88p", &[], "2s", &ron());
    expect(
        &s,
        &[("pinfu", 1), ("tanyao", 1), ("sanshoku doujun", 2)],
        4,
        30,
        7700,
    );
    // open: sanshoku 1 + tanyao 1, 30 fu
    let s = scored("234m567m234s88p", &[chow("234p")], "2s", &ron());
    expect(&s, &[("tanyao", 1), ("sanshoku doujun", 1)], 2, 30, 2000);
}

#[test]
fn sanshoku_doukou() {
    // 20 + open 2p pung 2 + closed 2m, 2s pungs 4 + 4 = 30 fu; doukou 2 + tanyao 1
    let s = scored("222m222s456s88p", &[pung("222p")], "6s", &ron());
    expect(&s, &[("sanshoku doukou", 2), ("tanyao", 1)], 3, 30, 3900);
}

#[test]
fn ittsu_closed_and_open() {
    // ittsu 2 + pinfu 1 = 3 han 30 fu
    let s = scored("123m456m789m234p55s", &[], "4p", &ron());
    expect(&s, &[("ittsu", 2), ("pinfu", 1)], 3, 30, 3900);
    let s = scored("123m456m234p55s", &[chow("789m")], "4p", &ron());
    expect(&s, &[("ittsu", 1)], 1, 30, 1000);
}

#[test]
fn chanta_and_junchan() {
    // chanta 2, penchan: 20 + 10 + 2 = 32 → 40 fu: 640 × 4 = 2560 → 2600
    let s = scored("123m789p123s789s44z", &[], "3s", &ron());
    expect(&s, &[("chanta", 2)], 2, 40, 2600);
    // junchan 3, penchan 89p + 7p: 40 fu: 1280 × 4 = 5120 → 5200
    let s = scored("123m789m123p789p11s", &[], "7p", &ron());
    expect(&s, &[("junchan", 3)], 3, 40, 5200);
    // open junchan is 2
    let s = scored("123m789m123p11s", &[chow("789p")], "3p", &ron());
    expect(&s, &[("junchan", 2)], 2, 30, 2000);
}

#[test]
fn toitoi_and_a_pung_finished_by_ron_is_open() {
    // open 2m, 5p pungs 2 + 2, closed 8s pung 4, 9p pung by ron (open terminal) 4:
    // 20 + 12 = 32 → 40 fu; toitoi 2 = 2600
    let s = scored("888s999p33z", &[pung("222m"), pung("555p")], "9p", &ron());
    expect(&s, &[("toitoi", 2)], 2, 40, 2600);
}

#[test]
fn sanankou_needs_the_third_pung_concealed() {
    let riichi = Situation {
        riichi: true,
        ..ron()
    };
    // 6s by ron: 666s counts open, two concealed pungs only. 20 + 10 + 4 + 4 + 2 = 40 fu
    let s = scored("222m444p666s234s88p", &[], "6s", &riichi);
    expect(&s, &[("riichi", 1), ("tanyao", 1)], 2, 40, 2600);
    // the same wait by tsumo: sanankou, riichi + tsumo + tanyao + 2 = 5 han, mangan
    let riichi_tsumo = Situation {
        self_drawn: true,
        ..riichi
    };
    let s = scored("222m444p666s234s88p", &[], "6s", &riichi_tsumo);
    expect(
        &s,
        &[
            ("riichi", 1),
            ("menzen tsumo", 1),
            ("tanyao", 1),
            ("sanankou", 2),
        ],
        5,
        40,
        8000,
    );
    assert_eq!(
        s.payments,
        Payments::Tsumo {
            dealer: 4000,
            non_dealer: 2000
        }
    );
}

#[test]
fn sankantsu() {
    // open 2m and 5p kongs 8 + 8, closed 8s kong 16: 20 + 32 = 52 → 60 fu;
    // sankantsu 2 + tanyao 1 = 3 han: 1920 × 4 → 7700
    let melds = [kong("2222m"), kong("5555p"), ankan("8888s")];
    let s = scored("345s66p", &melds, "5s", &ron());
    expect(&s, &[("sankantsu", 2), ("tanyao", 1)], 3, 60, 7700);
}

#[test]
fn shousangen() {
    // haku 1 + hatsu 1 + shousangen 2 = 4 han; 20 + 4 + 4 + chun pair 2 + penchan 2 = 40 fu
    let s = scored("123m456p77z", &[pung("555z"), pung("666z")], "3m", &ron());
    expect(
        &s,
        &[("yakuhai haku", 1), ("yakuhai hatsu", 1), ("shousangen", 2)],
        4,
        40,
        8000,
    );
}

#[test]
fn honroutou() {
    // toitoi 2 + honroutou 2 + round wind East 1 = 5 han;
    // 20 + open 1m 4 + closed 9p, 1s 8 + 8 + East by ron 4 = 44 → 50 fu
    let s = scored("999p111s99s111z", &[pung("111m")], "1z", &ron());
    expect(
        &s,
        &[("toitoi", 2), ("honroutou", 2), ("yakuhai round wind", 1)],
        5,
        50,
        8000,
    );
    // seven pairs of terminals and honors: chiitoitsu 2 + honroutou 2, 25 fu: 6400
    let s = scored("1199m99p1199s1177z", &[], "7z", &ron());
    expect(&s, &[("chiitoitsu", 2), ("honroutou", 2)], 4, 25, 6400);
}

#[test]
fn honitsu_and_chinitsu() {
    // open: haku 1 + honitsu 2, 30 fu
    let s = scored("123m345m789m22m", &[pung("555z")], "9m", &ron());
    expect(&s, &[("yakuhai haku", 1), ("honitsu", 2)], 3, 30, 3900);
    // closed chinitsu 6: 20 + 10 + closed 9s pung 8 + kanchan 2 = 40 fu, haneman
    let s = scored("123s345s678s999s55s", &[], "4s", &ron());
    expect(&s, &[("chinitsu", 6)], 6, 40, 12000);
    // open chinitsu 5: 20 + 2 + 8s pung by ron 2 = 24 → 30 fu, mangan
    let s = scored("456s888s99s", &[chow("123s"), pung("777s")], "8s", &ron());
    expect(&s, &[("chinitsu", 5)], 5, 30, 8000);
}

#[test]
fn yakuman_hands() {
    let dealer = Situation {
        seat_wind: EAST,
        ..ron()
    };
    let one = |s: &HandScore, name: &str, total: u32| {
        assert_eq!(s.yaku, vec![(name, 13)], "{s:?}");
        assert_eq!((s.yakuman, s.han, s.base, s.total), (1, 13, 8000, total));
    };
    one(
        &scored("119m19p19s1234567z", &[], "1m", &ron()),
        "kokushi musou",
        32000,
    );
    one(
        &scored("119m19p19s1234567z", &[], "1m", &dealer),
        "kokushi musou",
        48000,
    );
    // four concealed pungs by tsumo: 8000 / 16000
    let s = scored("111m333p555s777s22z", &[], "7s", &tsumo());
    one(&s, "suuankou", 32000);
    assert_eq!(
        s.payments,
        Payments::Tsumo {
            dealer: 16000,
            non_dealer: 8000
        }
    );
    // the same hand by ron on the shanpon: toitoi + sanankou, 20 + 10 + 8 + 4 + 4 + 2 +
    // seat-wind pair 2 = 50 fu, 4 han: mangan
    let s = scored("111m333p555s777s22z", &[], "7s", &ron());
    expect(&s, &[("toitoi", 2), ("sanankou", 2)], 4, 50, 8000);
    // by ron on the pair (tanki) all four pungs stay concealed
    one(
        &scored("111m333p555s777s22z", &[], "2z", &ron()),
        "suuankou",
        32000,
    );
    one(
        &scored("123m777z99p", &[pung("555z"), pung("666z")], "7z", &ron()),
        "daisangen",
        32000,
    );
    one(
        &scored("111z222z333z44z123m", &[], "3m", &ron()),
        "shousuushii",
        32000,
    );
    one(
        &scored("222z333z444z55m", &[pung("111z")], "4z", &ron()),
        "daisuushii",
        32000,
    );
    one(
        &scored("11223344556677z", &[], "7z", &tsumo()),
        "tsuuiisou",
        32000,
    );
    one(
        &scored("999m111p999p11s", &[pung("111m")], "1s", &ron()),
        "chinroutou",
        32000,
    );
    one(
        &scored("223344s666s888s66z", &[], "8s", &ron()),
        "ryuuiisou",
        32000,
    );
    one(
        &scored("11123455678999p", &[], "5p", &ron()),
        "chuuren poutou",
        32000,
    );
    let kongs = [kong("2222m"), kong("3333p"), kong("4444s"), ankan("7777z")];
    one(&scored("55p", &kongs, "5p", &ron()), "suukantsu", 32000);
}

#[test]
fn different_yakuman_add_up() {
    // daisangen + tsuuiisou; the East pung is finished by ron, so no suuankou
    let s = scored("111z555z666z777z22z", &[], "1z", &ron());
    let mut names: Vec<&str> = s.yaku.iter().map(|y| y.0).collect();
    names.sort_unstable();
    assert_eq!(names, ["daisangen", "tsuuiisou"]);
    assert_eq!((s.yakuman, s.han, s.base, s.total), (2, 26, 16000, 64000));
}

#[test]
fn tenhou_and_chiihou() {
    let first = Situation {
        tenhou: true,
        chiihou: true,
        ..tsumo()
    };
    let dealer = Situation {
        seat_wind: EAST,
        ..first.clone()
    };
    let s = scored("123m456p789s234s55p", &[], "4s", &dealer);
    assert_eq!(s.yaku, vec![("tenhou", 13)]);
    assert_eq!(s.payments, Payments::DealerTsumo { each: 16000 });
    assert_eq!(s.total, 48000);
    let s = scored("123m456p789s234s55p", &[], "4s", &first);
    assert_eq!(s.yaku, vec![("chiihou", 13)]);
    assert_eq!(s.total, 32000);
    // a first-turn flag on a ron is no tenhou / chiihou: pinfu only
    let s = scored(
        "123m456p789s234s55p",
        &[],
        "4s",
        &Situation {
            self_drawn: false,
            ..first
        },
    );
    assert_eq!(s.yaku, vec![("pinfu", 1)]);
}

#[test]
fn the_reading_worth_most_is_taken() {
    // 111222333m by tsumo: three concealed pungs or three identical chows.
    // Pungs: tsumo + sanankou = 3 han; 20 + tsumo 2 + 1m 8 + 2m 4 + 3m 4 = 38 → 40 fu:
    // 1280 → 1300 / 2600 = 5200. Chows: tsumo + pinfu + iipeikou = 3 han 20 fu: 2700.
    let s = scored("111222333m456p99s", &[], "6p", &tsumo());
    expect(&s, &[("menzen tsumo", 1), ("sanankou", 2)], 3, 40, 5200);
    // 4m completes 23m (ryanmen) or the 44m pair (tanki): the ryanmen reading has pinfu,
    // riichi + pinfu 2 han 30 fu (2000) beats riichi alone at 40 fu (1300).
    let riichi = Situation {
        riichi: true,
        ..ron()
    };
    let s = scored("234m44m567p789s678s", &[], "4m", &riichi);
    expect(&s, &[("riichi", 1), ("pinfu", 1)], 2, 30, 2000);
}

#[test]
fn riichi_yaku_agrees_with_the_scorer() {
    let input = WinInput {
        variant: Variant::Riichi,
        conc: TileCounts::from_tiles(&tiles("123m456p789s234s55p")),
        melds: &[],
        win_tile: tiles("4s")[0].index,
        self_drawn: false,
        seat_wind: Wind::South,
        round_wind: Wind::East,
        flowers: &[],
        riichi: false,
    };
    let v = riichi_yaku(&input).unwrap();
    assert_eq!(v.items, vec![("pinfu", 1)]);
    assert_eq!(v.value, 1);
    // yakuman count 13 each in the bot's han
    let input = WinInput {
        conc: TileCounts::from_tiles(&tiles("111z555z666z777z22z")),
        win_tile: 27,
        ..input
    };
    assert_eq!(riichi_yaku(&input).unwrap().value, 26);
}

#[test]
fn expected_ura_is_the_average_hit() {
    // the hand holds two 8p and no 1m; unseen: two 7p (each pointing at 8p) and two 9m
    // (at 1m): an indicator hits 2 tiles half the time
    let hand = TileCounts::from_tiles(&tiles("234m456p88p234s678s"));
    let mut unseen = [0u8; KINDS];
    unseen[15] = 2;
    unseen[8] = 2;
    let e = expected_ura(&hand, &unseen, 1);
    assert!((e - 1.0).abs() < 1e-12, "{e}");
    let e = expected_ura(&hand, &unseen, 2);
    assert!((e - 2.0).abs() < 1e-12, "{e}");
    assert_eq!(expected_ura(&hand, &[0; KINDS], 1), 0.0);
}

/// A tiny deterministic generator for the property test's hands.
fn lcg(seed: &mut u64) -> u64 {
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *seed >> 33
}

/// A random complete hand: four sets (some of them called) and a pair, the winning tile
/// one of the concealed tiles; `None` when a kind would need a fifth copy.
fn random_hand(seed: &mut u64) -> Option<(TileCounts, Vec<Meld>, u8)> {
    let mut used = [0u8; KINDS];
    let mut conc = TileCounts::default();
    let mut melds = Vec::new();
    let calls = lcg(seed) % 3;
    for i in 0..4 {
        // two sets in three are chows, one pung in six is a kong
        let chow = !lcg(seed).is_multiple_of(3);
        let tiles: Vec<u8> = if chow {
            let suit = (lcg(seed) % 3) as u8;
            let start = suit * 9 + (lcg(seed) % 7) as u8;
            vec![start, start + 1, start + 2]
        } else {
            let k = (lcg(seed) % KINDS as u64) as u8;
            let n = if lcg(seed).is_multiple_of(6) { 4 } else { 3 };
            vec![k; n]
        };
        for &k in &tiles {
            used[k as usize] += 1;
        }
        if i < calls || tiles.len() == 4 {
            let kind = match (chow, tiles.len(), lcg(seed) % 2) {
                (true, _, _) => MeldKind::Chow,
                (false, 3, _) => MeldKind::Pung,
                (false, _, 0) => MeldKind::Kong,
                _ => MeldKind::ConcealedKong,
            };
            melds.push(Meld {
                kind,
                tiles: tiles.iter().map(|&k| Tile::new(k)).collect(),
            });
        } else {
            for &k in &tiles {
                conc.add(k);
            }
        }
    }
    let pair = (lcg(seed) % KINDS as u64) as u8;
    used[pair as usize] += 2;
    conc.add(pair);
    conc.add(pair);
    if used.iter().any(|&n| n > 4) {
        return None;
    }
    let present: Vec<u8> = conc.kinds().map(|(k, _)| k).collect();
    let win = present[(lcg(seed) % present.len() as u64) as usize];
    Some((conc, melds, win))
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..Default::default()
    })]

    /// Every scored hand has a yaku worth at least 1 han, its han is yaku + dora, and its
    /// points are those of the han / fu table; the bot's legality check agrees.
    #[test]
    fn scores_are_consistent(seed in proptest::prelude::any::<u64>()) {
        let mut seed = seed;
        let Some((conc, melds, win)) = random_hand(&mut seed) else {
            return Ok(());
        };
        let flags = lcg(&mut seed);
        let bit = |i: u32| flags >> i & 1 == 1;
        let closed = melds.iter().all(|m| !m.kind.is_open());
        let sit = Situation {
            self_drawn: bit(0),
            riichi: closed && bit(1),
            ippatsu: closed && bit(1) && bit(2),
            seat_wind: 27 + (flags >> 3 & 3) as u8,
            round_wind: 27 + (flags >> 5 & 1) as u8,
            dora_indicators: vec![(flags >> 8) as u8 % 34],
            ura_indicators: vec![(flags >> 16) as u8 % 34],
            honba: (flags >> 24 & 3) as u32,
            kyotaku: (flags >> 26 & 1) as u32,
            ..Situation::default()
        };
        let red = (flags >> 28 & 1) as u32;
        let scored = score_hand(&conc, red, &melds, win, &sit);
        // ippatsu aside, the bot's check sees the same yaku
        let legal = riichi_yaku(&WinInput {
            variant: Variant::Riichi,
            conc,
            melds: &melds,
            win_tile: win,
            self_drawn: sit.self_drawn,
            seat_wind: Wind::of_kind(sit.seat_wind).unwrap(),
            round_wind: Wind::of_kind(sit.round_wind).unwrap(),
            flowers: &[],
            riichi: sit.riichi,
        });
        proptest::prop_assert_eq!(scored.is_some(), legal.is_some_and(|v| v.value >= 1));
        let Some(s) = scored else {
            return Ok(());
        };
        let yaku_han: u32 = s.yaku.iter().map(|y| y.1).sum();
        proptest::prop_assert!(yaku_han >= 1, "{:?}", s);
        proptest::prop_assert!(s.fu == 25 || (s.fu % 10 == 0 && s.fu >= 20), "{:?}", s);
        let dealer = sit.seat_wind == EAST;
        // honba: 300 from the discarder, or 100 from each of the three payers
        let extra = 300 * sit.honba + 1000 * sit.kyotaku;
        if s.yakuman == 0 {
            proptest::prop_assert_eq!(s.han, yaku_han + s.dora + s.red + s.ura);
            proptest::prop_assert_eq!(s.base, base_points(s.han, s.fu));
            proptest::prop_assert_eq!(s.total, points(s.han, s.fu, dealer, sit.self_drawn) + extra);
        } else {
            proptest::prop_assert_eq!(s.yaku.len() as u32, s.yakuman);
            proptest::prop_assert_eq!(s.base, 8000 * s.yakuman);
            let one = points(13, 0, dealer, sit.self_drawn);
            proptest::prop_assert_eq!(s.total, one * s.yakuman + extra);
        }
        if s.yaku.iter().any(|y| y.0 == "pinfu") {
            proptest::prop_assert_eq!(s.fu, if sit.self_drawn { 20 } else { 30 });
        }
        if !closed && s.yakuman == 0 {
            proptest::prop_assert!(s.fu >= 30, "{:?}", s);
        }
    }
}

/// The property test's generator is worth running: its hands reach most ordinary yaku
/// (yakuman shapes are too rare to be asked for here).
#[test]
fn random_hands_reach_most_yaku() {
    let mut seed = 7u64;
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..20000u64 {
        let Some((conc, melds, win)) = random_hand(&mut seed) else {
            continue;
        };
        let closed = melds.iter().all(|m| !m.kind.is_open());
        let sit = Situation {
            self_drawn: i % 2 == 0,
            riichi: closed && i % 3 == 0,
            seat_wind: 27 + (i % 4) as u8,
            ..Situation::default()
        };
        if let Some(s) = score_hand(&conc, 0, &melds, win, &sit) {
            seen.extend(s.yaku.iter().map(|y| y.0));
        }
    }
    assert!(seen.len() >= 20, "{seen:?}");
}
