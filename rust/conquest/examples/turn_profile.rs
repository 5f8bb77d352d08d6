//! Plays turns of the benchmark game on a board read from raw files, for profiling the engine
//! without Python (perf, callgrind): `cargo run --release -p stratagem-conquest --example
//! turn_profile -- PREFIX TURNS THREADS`, where `PREFIX.indptr`, `PREFIX.indices` and
//! `PREFIX.team` hold little-endian int64 arrays (`benches/bench_conquest.py --dump PREFIX`
//! writes them). Prints the time of each turn's minimum and median and a fingerprint of the
//! final state and history, which must not change when the engine is made faster.

use std::sync::Arc;
use std::time::Instant;

use stratagem_conquest::policy::{self, View};
use stratagem_conquest::turn;
use stratagem_conquest::{Board, Game, Params, Policy};

/// Times the phases of the benchmark game's turns one by one (with `PHASES=1`).
fn phases(board: &Board, team: &[i64], turns: usize) {
    let policies = [
        Policy::Aggressive,
        Policy::Balanced,
        Policy::Opportunist,
        Policy::Random,
    ];
    let mut team: Vec<u8> = team.iter().map(|&t| t as u8).collect();
    let mut troops = vec![10u64; team.len()];
    let (mut frontier, mut dist) = (Vec::new(), Vec::new());
    let (mut candidates, mut levels) = (Vec::new(), policy::Levels::default());
    let mut pressure = policy::Pressure::default();
    policy::frontier(board, &team, |_| true, &mut frontier);
    let mut placement = vec![0i64; board.n_edges()];
    let (mut next_team, mut next_troops) = (vec![0u8; board.n()], vec![0u64; board.n()]);
    let mut spent = [0.0f64; 5];
    for t in 0..turns as u64 {
        let mut clock = Instant::now();
        let mut lap = |k: usize| {
            spent[k] += clock.elapsed().as_secs_f64() * 1e3;
            clock = Instant::now();
        };
        policy::frontier_distance(board, &team, &policies, &frontier, &mut levels, &mut dist);
        pressure.build(board, &team, &troops, &frontier);
        lap(1);
        let view = View {
            board,
            team: &team,
            troops: &troops,
            dist: &dist,
            given_pressure: (&[], &[]),
            pressure: &pressure,
            seed: 0,
            turn: t,
        };
        policy::place(&view, &policies, &mut placement, &mut next_troops, |_| true);
        lap(2);
        turn::battles(board, &team, &mut placement, &frontier, 0, t, |_| true);
        lap(3);
        let before = turn::Before {
            board,
            team: &team,
            placement: &placement,
            seed: 0,
            turn: t,
            rate_ppm: 200_000,
            cap: 1 << 40,
            limit: 1 << 40,
        };
        turn::occupy_and_recruit(&before, 4, &mut next_team, &mut next_troops, |_| true);
        lap(4);
        policy::update_frontier(board, &team, &next_team, &mut frontier, &mut candidates);
        lap(0);
        std::mem::swap(&mut team, &mut next_team);
        std::mem::swap(&mut troops, &mut next_troops);
    }
    let names = ["frontier", "distance", "place", "battles", "occupy"];
    for (name, ms) in names.iter().zip(spent) {
        println!("{name:>9}: {:.2} ms per turn", ms / turns as f64);
    }
    println!("frontier territories at the end: {}", frontier.len());
}

fn read_i64(path: &str) -> Vec<i64> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    bytes
        .chunks_exact(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
        .collect()
}

/// FNV-1a over the values: enough to tell two runs apart.
fn fingerprint(values: impl Iterator<Item = u64>, mut hash: u64) -> u64 {
    for v in values {
        for byte in v.to_le_bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

fn main() -> stratagem_core::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let prefix = args.get(1).map_or("/tmp/board", String::as_str);
    let turns: usize = args.get(2).and_then(|t| t.parse().ok()).unwrap_or(30);
    let threads: usize = args.get(3).and_then(|t| t.parse().ok()).unwrap_or(2);
    let (indptr, indices) = (
        read_i64(&format!("{prefix}.indptr")),
        read_i64(&format!("{prefix}.indices")),
    );
    let team = read_i64(&format!("{prefix}.team"));
    let troops = vec![10i64; team.len()];
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| stratagem_core::Error::InvalidParameter(e.to_string()))?;
    pool.install(|| {
        let start = Instant::now();
        let board = Arc::new(Board::from_csr(&indptr, &indices)?);
        let built = start.elapsed();
        let policies = vec![
            Policy::Aggressive,
            Policy::Balanced,
            Policy::Opportunist,
            Policy::Random,
        ];
        let params = Params {
            seed: 0,
            rate_ppm: 200_000,
            cap: stratagem_conquest::TROOP_LIMIT,
            max_turns: None,
        };
        if std::env::var_os("PHASES").is_some() {
            phases(&board, &team, turns);
        }
        let mut game = Game::new(board, &team, &troops, policies, params)?;
        let mut times = Vec::with_capacity(turns);
        for _ in 0..turns {
            let turn = Instant::now();
            game.step(None)?;
            times.push(turn.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(f64::total_cmp);
        let state = game.team().iter().map(|&t| u64::from(t));
        let hash = fingerprint(state, 0xcbf2_9ce4_8422_2325);
        let hash = fingerprint(game.troops().iter().copied(), hash);
        let hash = fingerprint(game.history().troops.iter().copied(), hash);
        println!(
            "board {:.0} ms, turn min {:.3} ms, median {:.3} ms, fingerprint {hash:016x}",
            built.as_secs_f64() * 1e3,
            times.first().copied().unwrap_or(0.0),
            times.get(times.len() / 2).copied().unwrap_or(0.0),
        );
        Ok(())
    })
}
