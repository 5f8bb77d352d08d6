//! Plays turns of the benchmark game on a board read from raw files, for profiling the engine
//! without Python (perf, callgrind): `cargo run --release -p stratagem-conquest --example
//! turn_profile -- PREFIX TURNS THREADS`, where `PREFIX.indptr`, `PREFIX.indices` and
//! `PREFIX.team` hold little-endian int64 arrays (`benches/bench_conquest.py --dump PREFIX`
//! writes them). Prints the time of each turn's minimum and median and a fingerprint of the
//! final state and history, which must not change when the engine is made faster.
//! A PREFIX `grid:RxC` plays `conquest play --board grid:RxC --teams 4 --seed 0` instead
//! (the engine's grid board and `regions` start, balanced and opportunist in turn), with no
//! files: the 10^8 game's phases.

use std::sync::Arc;
use std::time::Instant;

use stratagem_conquest::policy::{self, View};
use stratagem_conquest::share::Grid;
use stratagem_conquest::{Board, Game, Params, Policy};
use stratagem_conquest::{grid_start, plane, turn};

/// Times the phases of the benchmark game's turns one by one (with `PHASES=1`).
fn phases(board: &Board, team: &[i64], policies: &[Policy], turns: usize) {
    let mut team: Vec<u8> = team.iter().map(|&t| t as u8).collect();
    let mut troops = vec![10u64; team.len()];
    let (mut frontier, mut dist) = (Vec::new(), Vec::new());
    let (mut candidates, mut levels) = (Vec::new(), policy::Levels::default());
    let mut pressure = policy::Pressure::default();
    policy::frontier(board, &team, |_| true, &mut frontier);
    let mut placement = vec![0i64; board.n_edges()];
    let (mut next_team, mut next_troops) = (vec![0u8; board.n()], vec![0u64; board.n()]);
    let (mut spent, mut busy) = ([0.0f64; 5], [0.0f64; 5]);
    for t in 0..turns as u64 {
        let (mut clock, mut used) = (Instant::now(), processor_ms());
        let mut lap = |k: usize| {
            spent[k] += clock.elapsed().as_secs_f64() * 1e3;
            busy[k] += processor_ms() - used;
            (clock, used) = (Instant::now(), processor_ms());
        };
        match board.plane() {
            Some(shape) => {
                plane::frontier_distance(board, shape, &team, policies, &frontier, &mut dist);
            }
            None => {
                policy::frontier_distance(
                    board,
                    &team,
                    policies,
                    &frontier,
                    &mut levels,
                    &mut dist,
                );
            }
        }
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
        policy::place(&view, policies, &mut placement, |_| true);
        next_troops.copy_from_slice(&troops);
        policy::commit(board, &placement, &mut next_troops, |_| true);
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
            cap: turn::troop_limit(team.len() as u64),
            limit: turn::troop_limit(team.len() as u64),
        };
        turn::occupy_and_recruit(&before, 4, &mut next_team, &mut next_troops, |_| true);
        lap(4);
        policy::update_frontier(board, &team, &next_team, &mut frontier, &mut candidates);
        lap(0);
        std::mem::swap(&mut team, &mut next_team);
        std::mem::swap(&mut troops, &mut next_troops);
    }
    let names = ["frontier", "distance", "place", "battles", "occupy"];
    let per = |ms: f64| ms / turns as f64;
    let ns = |ms: f64| per(ms) * 1e6 / team.len() as f64;
    for ((name, ms), cpu) in names.iter().zip(spent).zip(busy) {
        println!(
            "{name:>9}: {:.2} ms per turn ({:.1} ns a territory), processor {:.2} ms ({:.1} ns)",
            per(ms),
            ns(ms),
            per(cpu),
            ns(cpu)
        );
    }
    println!("frontier territories at the end: {}", frontier.len());
}

/// Processor time of the process so far (user and system, all threads), in ms, from
/// `/proc/self/stat` (ticks of 10 ms; 0 where it cannot be read).
fn processor_ms() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command's closing parenthesis; utime and stime are the 12th and
    // 13th of them.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let ticks: u64 = after
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|v| v.parse::<u64>().ok())
        .sum();
    ticks as f64 * 10.0
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

/// The board and the start of `prefix`: raw files, or a `grid:RxC` made in the engine.
fn board_and_team(prefix: &str) -> stratagem_core::Result<(Board, Vec<i64>, Vec<Policy>)> {
    if let Some((rows, cols)) = prefix
        .strip_prefix("grid:")
        .and_then(|shape| shape.split_once('x'))
    {
        let parse = |v: &str| {
            v.parse::<i64>()
                .map_err(|e| stratagem_core::Error::InvalidParameter(format!("{prefix}: {e}")))
        };
        let grid = Grid {
            rows: parse(rows)?,
            cols: parse(cols)?,
            torus: false,
        };
        let board = Board::grid(&grid)?;
        let first = grid_start::first_in_order(0, grid_start::REGIONS, 0, board.n() as u64, 1)?;
        let first = first.first().map_or(0, |&(_, x)| x);
        let team = grid_start::grid_teams(&grid, first, 4, &stratagem_core::Cancel::new())?;
        let policies = [Policy::Balanced, Policy::Opportunist].repeat(2);
        return Ok((
            board,
            team.iter().map(|&t| i64::from(t)).collect(),
            policies,
        ));
    }
    let (indptr, indices) = (
        read_i64(&format!("{prefix}.indptr")),
        read_i64(&format!("{prefix}.indices")),
    );
    let policies = vec![
        Policy::Aggressive,
        Policy::Balanced,
        Policy::Opportunist,
        Policy::Random,
    ];
    let board = Board::from_csr(&indptr, &indices)?;
    Ok((board, read_i64(&format!("{prefix}.team")), policies))
}

fn main() -> stratagem_core::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let prefix = args.get(1).map_or("/tmp/board", String::as_str);
    let turns: usize = args.get(2).and_then(|t| t.parse().ok()).unwrap_or(30);
    let threads: usize = args.get(3).and_then(|t| t.parse().ok()).unwrap_or(2);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| stratagem_core::Error::InvalidParameter(e.to_string()))?;
    pool.install(|| {
        let start = Instant::now();
        let (board, team, policies) = board_and_team(prefix)?;
        let board = Arc::new(board);
        let built = start.elapsed();
        let troops = vec![10i64; team.len()];
        let params = Params {
            seed: 0,
            rate_ppm: 200_000,
            cap: stratagem_conquest::TROOP_LIMIT,
            max_turns: None,
        };
        if std::env::var_os("PHASES").is_some() {
            phases(&board, &team, &policies, turns);
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
            "board and start {:.0} ms, turn min {:.3} ms, median {:.3} ms, fingerprint {hash:016x}",
            built.as_secs_f64() * 1e3,
            times.first().copied().unwrap_or(0.0),
            times.get(times.len() / 2).copied().unwrap_or(0.0),
        );
        Ok(())
    })
}
