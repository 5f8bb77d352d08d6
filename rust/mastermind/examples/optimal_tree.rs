//! The optimal strategy's whole tree for one space, timed: `cargo run --release -p
//! stratagem-mastermind --example optimal_tree -- SPOTS COLOURS [THREADS]`.

use std::time::Instant;

use stratagem_core::Cancel;
use stratagem_mastermind::strategy::counted;
use stratagem_mastermind::{History, Space, optimal};

fn main() -> stratagem_core::Result<()> {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let spots = args.first().copied().unwrap_or(4);
    let colours = args.get(1).copied().unwrap_or(6);
    let threads = args.get(2).copied().unwrap_or(1);
    let space = Space::new(spots, colours)?;
    let start = Instant::now();
    let all_root = counted(&space.all_codes()?);
    let root = optimal::optimum(&History::empty(space), &all_root, threads, &Cancel::new())?;
    println!(
        "root: total {} in {:.3} s",
        root.total,
        start.elapsed().as_secs_f64()
    );
    let start = Instant::now();
    let all = counted(&space.all_codes()?);
    let tree = optimal::tree_guesses(&History::empty(space), &all, threads, &Cancel::new())?;
    let total: u64 = tree.iter().map(|&(_, g)| u64::from(g)).sum();
    // Which code takes how many guesses, in one number (the tie-breaking rule fixes it).
    let fingerprint: u64 = tree
        .iter()
        .map(|(code, g)| (space.index_of(code) + 1) * u64::from(*g) * u64::from(*g))
        .sum();
    let worst = tree.iter().map(|&(_, g)| g).max().unwrap_or(0);
    println!(
        "{spots}x{colours}: total {total} over {} codes, worst {worst}, fingerprint {fingerprint}, {:.3} s",
        tree.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
