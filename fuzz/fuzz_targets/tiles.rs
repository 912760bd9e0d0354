//! Mahjong tile notations: tenhou strings (`123m0p7z`), single tiles in
//! either notation, mjai name lists, flowers and winds. Round trips and
//! ranges of everything that parses.
#![no_main]

use gamebot::mahjong::tiles::{
    Tile, TileCounts, parse_flower, parse_mjai, parse_tile, parse_tiles, parse_wind, rank_of,
};
use libfuzzer_sys::fuzz_target;

fn check_tile(t: Tile) {
    assert!(t.index < 34, "tile index {}", t.index);
    if t.red {
        assert!(t.index < 27 && rank_of(t.index) == 5, "red non-five {t:?}");
    }
    assert_eq!(
        parse_tile(&t.to_string()),
        Ok(t),
        "tenhou round trip of {t:?}"
    );
    assert_eq!(
        parse_tile(&t.mjai_name()),
        Ok(t),
        "mjai round trip of {t:?}"
    );
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);

    if let Ok(tiles) = parse_tiles(&text) {
        let printed: String = tiles.iter().map(Tile::to_string).collect();
        assert_eq!(parse_tiles(&printed).as_ref(), Ok(&tiles), "{printed}");
        tiles.iter().copied().for_each(check_tile);
        // TileCounts holds u8 counts; requests are checked for at most four
        // copies of a kind before anything counts them.
        if tiles.len() < 256 {
            let counts = TileCounts::from_tiles(&tiles);
            let again = parse_tiles(&counts.to_tenhou()).expect("to_tenhou parses");
            assert_eq!(TileCounts::from_tiles(&again), counts);
        }
    }

    if let Ok(t) = parse_tile(&text) {
        check_tile(t);
    }

    let names: Vec<&str> = text.split([' ', ',']).collect();
    if let Ok(tiles) = parse_mjai(&names) {
        assert_eq!(tiles.len(), names.len());
        tiles.iter().copied().for_each(check_tile);
    }

    if let Some(f) = parse_flower(&text) {
        assert!((1..=4).contains(&f.number));
    }
    if let Some(w) = parse_wind(&text) {
        // A wind is the tile the same text names.
        let tile = parse_tile(&text).expect("a wind parses as a tile");
        assert_eq!(tile.index, w.kind());
    }
});
