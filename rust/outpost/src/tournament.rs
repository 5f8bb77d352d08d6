//! Many games at once: each game runs on one thread, games spread over a rayon pool, results
//! in fixture order (so they never depend on the thread count).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use stratagem_core::{Cancel, Result, parallel};

use crate::game::{Game, Tally};
use crate::params::{EMPIRES, Params};
use crate::players::Builtin;
use crate::terrain::Terrain;

/// One game of a tournament: its map, parameters, seats and seed.
#[derive(Clone)]
pub struct Fixture {
    pub terrain: Arc<Terrain>,
    pub params: Params,
    pub players: [Builtin; EMPIRES],
    pub seed: u64,
}

/// Games whose turns add up to fewer than this run on the calling thread, whatever the thread
/// count: about 1.5 ms of play, below which a pool's start-up and hand-offs cost as much as
/// they save (the thread sweep of `benches/bench_outpost.py`, in `docs/outpost.md`).
pub const SEQUENTIAL_TURNS: u64 = 64;

/// Plays every fixture to the end; the final tally of each, in fixture order. `done` counts
/// finished games.
pub fn play(
    fixtures: &[Fixture],
    threads: usize,
    cancel: &Cancel,
    done: &AtomicU64,
) -> Result<Vec<Tally>> {
    let one = |fixture: &Fixture| -> Result<Tally> {
        let mut game = Game::new(
            Arc::clone(&fixture.terrain),
            fixture.params,
            fixture.players.map(Some),
            fixture.seed,
        );
        let turns_done = AtomicU64::new(0);
        game.run(u32::MAX, cancel, &turns_done)?;
        done.fetch_add(1, Ordering::Relaxed);
        Ok(*game.history().last().unwrap_or(&[[0; 3]; EMPIRES]))
    };
    let turns: u64 = fixtures
        .iter()
        .map(|f| u64::from(f.params.last_turn()))
        .sum();
    if threads == 1 || fixtures.len() < 2 || turns < SEQUENTIAL_TURNS {
        return fixtures.iter().map(one).collect();
    }
    let pool = parallel::pool(threads)?;
    pool.install(|| fixtures.par_iter().map(one).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::CELLS;
    use crate::params::Flags;

    #[test]
    fn results_do_not_depend_on_threads() {
        let terrain = Arc::new(Terrain::new(&vec![false; CELLS]).unwrap_or_else(|e| panic!("{e}")));
        let params = Params::new(4, 12, 3, 60, Flags::default()).unwrap_or_else(|e| panic!("{e}"));
        let fixtures: Vec<Fixture> = (0..6)
            .map(|i| Fixture {
                terrain: Arc::clone(&terrain),
                params,
                players: [
                    Builtin::ALL[i % 4],
                    Builtin::ALL[(i + 1) % 4],
                    Builtin::ALL[(i + 2) % 4],
                    Builtin::ALL[(i + 3) % 4],
                ],
                seed: i as u64,
            })
            .collect();
        let cancel = Cancel::new();
        let done = AtomicU64::new(0);
        let one = play(&fixtures, 1, &cancel, &done).unwrap_or_else(|e| panic!("{e}"));
        let two = play(&fixtures, 2, &cancel, &done).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(one, two);
        assert_eq!(done.load(Ordering::Relaxed), 12);
    }
}
