//! Scoring speed of `score_rows`: `cargo run --release -p stratagem-mastermind --example
//! score_bench -- SPOTS COLOURS ROWS [THREADS]` (the least of 20 calls).

use std::time::Instant;

use stratagem_core::Cancel;
use stratagem_mastermind::{Space, score};

fn main() -> stratagem_core::Result<()> {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (spots, colours, rows) = (args[0], args[1], args[2]);
    let threads = args.get(3).copied().unwrap_or(1);
    let space = Space::new(spots, colours)?;
    let mut state = 1u64;
    let flat: Vec<u8> = (0..2 * rows * spots)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % colours as u64) as u8
        })
        .collect();
    let (guesses, secrets) = flat.split_at(rows * spots);
    let mut seconds = f64::INFINITY;
    let mut scored = (Vec::new(), Vec::new());
    for _ in 0..20 {
        let start = Instant::now();
        scored = score::score_rows(space, guesses, secrets, threads, &Cancel::new())?;
        seconds = seconds.min(start.elapsed().as_secs_f64());
    }
    let (black, white) = scored;
    let sum: u64 = black.iter().chain(&white).map(|&x| u64::from(x)).sum();
    println!(
        "{rows} rows: {:.1} ns per pair (checksum {sum})",
        seconds * 1e9 / rows as f64
    );
    Ok(())
}
