//! The optimal strategy's whole tree for one space, timed, and written out if a file is
//! named: `cargo run --release -p stratagem-mastermind --example optimal_tree -- SPOTS COLOURS
//! [THREADS [FILE]]`. The file has one line per decision in preorder: the feedbacks that lead
//! to it (`-` at the root, else `black.white` pairs joined by `/`) and the guess, as digits
//! or letters (colour 10 is `a`).

use std::io::Write;
use std::time::Instant;

use stratagem_core::Cancel;
use stratagem_core::error::param;
use stratagem_mastermind::strategy::counted;
use stratagem_mastermind::{History, Space, optimal};

fn main() -> stratagem_core::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |at: usize, default: usize| {
        args.get(at).map_or(Ok(default), |a| {
            a.parse().map_err(|_| param(format!("not a number: {a}")))
        })
    };
    let (spots, colours, threads) = (number(0, 4)?, number(1, 6)?, number(2, 1)?);
    let space = Space::new(spots, colours)?;
    let start = Instant::now();
    let all = counted(&space.all_codes()?);
    let tree = optimal::strategy_tree(&History::empty(space), &all, threads, &Cancel::new())?;
    let seconds = start.elapsed().as_secs_f64();
    let guesses: Vec<(u64, u64)> = tree
        .iter()
        .filter(|d| d.wins)
        .map(|d| (space.index_of(&d.guess), d.path.len() as u64 + 1))
        .collect();
    let total: u64 = guesses.iter().map(|&(_, g)| g).sum();
    let worst = guesses.iter().map(|&(_, g)| g).max().unwrap_or(0);
    // Which code takes how many guesses, in one number (the tie-breaking rule fixes it).
    let fingerprint: u64 = guesses.iter().map(|&(rank, g)| (rank + 1) * g * g).sum();
    println!(
        "{spots}x{colours}: total {total} over {} codes, worst {worst}, {} decisions, \
         fingerprint {fingerprint}, {seconds:.3} s with {threads} threads",
        guesses.len(),
        tree.len(),
    );
    if let Some(file) = args.get(3) {
        let write = |file: &str| -> std::io::Result<()> {
            let mut out = std::io::BufWriter::new(std::fs::File::create(file)?);
            for decision in &tree {
                let path: Vec<String> = decision
                    .path
                    .iter()
                    .map(|f| format!("{}.{}", f.black, f.white))
                    .collect();
                let path = if path.is_empty() {
                    "-".to_string()
                } else {
                    path.join("/")
                };
                let guess: String = space
                    .spots_of(&decision.guess)
                    .iter()
                    .map(|&c| char::from_digit(u32::from(c), 36).unwrap_or('?'))
                    .collect();
                writeln!(out, "{path} {guess}")?;
            }
            out.flush()
        };
        write(file).map_err(|e| param(format!("cannot write {file}: {e}")))?;
    }
    Ok(())
}
