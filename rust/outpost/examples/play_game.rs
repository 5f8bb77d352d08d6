//! Plays one game of the four default built-in players on a map file and prints its seconds,
//! scores and a fingerprint of the history: a driver for profilers (perf, callgrind) that
//! needs no Python. `cargo run --release -p stratagem-outpost --example play_game --
//! python/stratagem/outpost/maps/lakes.txt [turns]`.

use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Instant;

use stratagem_core::Cancel;
use stratagem_outpost::grid::{CELLS, SIZE};
use stratagem_outpost::{Builtin, Flags, Game, Params, Terrain};

/// The 100x100 water mask of a map file: `x y` water cells of the 50x50 region, replicated
/// by the four quarter turns about the centre.
fn water(text: &str) -> Vec<bool> {
    let mut water = vec![false; CELLS];
    let last = SIZE - 1;
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        let mut numbers = line
            .split_whitespace()
            .filter_map(|n| n.parse::<usize>().ok());
        let (Some(x), Some(y)) = (numbers.next(), numbers.next()) else {
            continue;
        };
        for (cx, cy) in [(x, y), (last - y, x), (last - x, last - y), (y, last - x)] {
            water[cy * SIZE + cx] = true;
        }
    }
    water
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: play_game MAP_FILE [TURNS]")?;
    let turns: u32 = args.next().map_or(Ok(4444), |t| t.parse())?;
    let terrain = Arc::new(Terrain::new(&water(&std::fs::read_to_string(path)?))?);
    let params = Params::new(7, 12, 3, turns, Flags::default())?;
    let players = [
        Builtin::Spread,
        Builtin::Frontier,
        Builtin::Random,
        Builtin::Lookahead,
    ]
    .map(Some);
    let mut game = Game::new(terrain, params, players, 0);
    let start = Instant::now();
    game.run(u32::MAX, &Cancel::new(), &AtomicU64::new(0))?;
    let seconds = start.elapsed().as_secs_f64();
    // FNV-1a over every history row: equal fingerprints, equal games.
    let mut fingerprint: u64 = 0xcbf2_9ce4_8422_2325;
    for value in game.history().iter().flatten().flatten() {
        fingerprint = (fingerprint ^ u64::from(*value)).wrapping_mul(0x100_0000_01b3);
    }
    println!(
        "seconds {seconds:.4} scores {:?} history {fingerprint:016x}",
        game.scores()
    );
    Ok(())
}
