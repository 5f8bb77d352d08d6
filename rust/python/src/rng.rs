//! Bindings of the Philox streams: raw blocks, sequential draws and parallel batches.

use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use rayon::prelude::*;
use stratagem_core::rng::{self, Cursor, Halves, Stream};
use stratagem_core::{Cancel, parallel};

use crate::convert::rows_array;
use crate::errors::{param, to_py};
use crate::runtime::{interruptible, thread_count};

/// Items handed to the pool between two cancellation checks.
const CHECK_EVERY: usize = 1 << 14;

fn stream(seed: u64, purpose: &str, ids: &[u64]) -> PyResult<Stream> {
    Stream::new(seed, purpose, ids).map_err(to_py)
}

/// `philox4x64_10(counters (N, 4), keys (N, 2))`: one block per row.
#[pyfunction]
fn philox4x64_10<'py>(
    py: Python<'py>,
    counters: PyReadonlyArray2<'py, u64>,
    keys: PyReadonlyArray2<'py, u64>,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let (counters, keys) = (counters.as_array(), keys.as_array());
    if counters.ncols() != 4 || keys.ncols() != 2 || counters.nrows() != keys.nrows() {
        return Err(param(format!(
            "counters must have shape (N, 4) and keys (N, 2) with the same N, got {:?} and {:?}",
            counters.shape(),
            keys.shape()
        )));
    }
    let mut out = Array2::<u64>::zeros((counters.nrows(), 4));
    for ((mut row, c), k) in out
        .rows_mut()
        .into_iter()
        .zip(counters.rows())
        .zip(keys.rows())
    {
        let block = rng::philox4x64_10([c[0], c[1], c[2], c[3]], [k[0], k[1]]);
        row.iter_mut()
            .zip(block)
            .for_each(|(slot, word)| *slot = word);
    }
    Ok(out.into_pyarray(py))
}

/// `purpose_tag(purpose)`: the 64-bit FNV-1a tag that keys a purpose.
#[pyfunction]
fn purpose_tag(purpose: &str) -> u64 {
    rng::purpose_tag(purpose)
}

/// `stream_blocks(seed, purpose, ids, start, count, threads=None)`: blocks
/// `start..start+count` of one stream as a `(count, 4)` array, computed in parallel.
#[pyfunction]
#[pyo3(signature = (seed, purpose, ids, start, count, threads=None))]
fn stream_blocks<'py>(
    py: Python<'py>,
    seed: u64,
    purpose: &str,
    ids: Vec<u64>,
    start: u64,
    count: usize,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let stream = stream(seed, purpose, &ids)?;
    // The last block is 2^64-1, so the range may end exactly at 2^64.
    if u128::from(start) + count as u128 > 1u128 << 64 {
        return Err(param(format!(
            "blocks {start}..{start}+{count} run past the last block index 2^64-1"
        )));
    }
    let threads = thread_count(threads)?;
    let mut words = Vec::new();
    count
        .checked_mul(4)
        .and_then(|len| words.try_reserve_exact(len).ok())
        .ok_or_else(|| param(format!("count={count} blocks do not fit in memory")))?;
    words.resize(count * 4, 0u64);
    let words = interruptible(py, move |cancel| {
        let pool = parallel::pool(threads)?;
        pool.install(|| {
            words
                .par_chunks_mut(4 * CHECK_EVERY)
                .enumerate()
                .try_for_each(|(chunk, slots)| {
                    cancel.check()?;
                    let first = start + (chunk * CHECK_EVERY) as u64;
                    for (i, block) in slots.chunks_mut(4).enumerate() {
                        block.copy_from_slice(&stream.block(first + i as u64));
                    }
                    Ok(())
                })
        })?;
        Ok(words)
    })?;
    rows_array(py, (count, 4), words)
}

/// The kinds of sequential draws `stream_draws` makes.
#[derive(Clone, Copy)]
enum DrawKind {
    Word,
    UniformBelow,
    Below,
    BelowHalf,
    CoinFlips,
    BinomialHalf,
}

impl DrawKind {
    fn parse(kind: &str) -> PyResult<Self> {
        match kind {
            "u64" => Ok(Self::Word),
            "uniform_below" => Ok(Self::UniformBelow),
            "below" => Ok(Self::Below),
            "below_half" => Ok(Self::BelowHalf),
            "coin_flips" => Ok(Self::CoinFlips),
            "binomial_half" => Ok(Self::BinomialHalf),
            other => Err(param(format!(
                "unknown draw kind {other:?}; expected 'u64', 'uniform_below', 'below', \
                 'below_half', 'coin_flips' or 'binomial_half'"
            ))),
        }
    }
}

/// `stream_draws(seed, purpose, ids, kind, params)`: one draw per parameter, read in order
/// from a single cursor at block 0 (the same sequence the oracle's `Cursor` gives).
#[pyfunction]
fn stream_draws<'py>(
    py: Python<'py>,
    seed: u64,
    purpose: &str,
    ids: Vec<u64>,
    kind: &str,
    params: PyReadonlyArray1<'py, u64>,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let stream = stream(seed, purpose, &ids)?;
    let kind_name = kind;
    let kind = DrawKind::parse(kind)?;
    let params = params.as_array().to_vec();
    if let DrawKind::UniformBelow | DrawKind::Below | DrawKind::BelowHalf = kind
        && let Some(i) = params.iter().position(|&n| n == 0)
    {
        return Err(param(format!("{kind_name} needs n >= 1; params[{i}] is 0")));
    }
    if let DrawKind::BelowHalf = kind
        && let Some(i) = params.iter().position(|&n| n > u64::from(u32::MAX))
    {
        return Err(param(format!(
            "below_half needs n < 2^32; params[{i}] is {}",
            params[i]
        )));
    }
    let values = interruptible(py, |cancel| {
        let mut cursor = stream.cursor();
        let mut halves = Halves::new(stream.cursor());
        let mut out = Vec::with_capacity(params.len());
        for (i, &p) in params.iter().enumerate() {
            if i % CHECK_EVERY == 0 {
                cancel.check()?;
            }
            out.push(match kind {
                DrawKind::Word => cursor.next_u64(),
                DrawKind::UniformBelow => cursor.uniform_below(p),
                DrawKind::Below => cursor.below(p),
                // Checked above: p < 2^32.
                DrawKind::BelowHalf => u64::from(halves.below(p as u32)),
                DrawKind::CoinFlips => cursor.coin_flips(p),
                DrawKind::BinomialHalf => cursor.binomial_half(p),
            });
        }
        Ok(out)
    })?;
    Ok(Array1::from_vec(values).into_pyarray(py))
}

/// `binomial_half_streams(seed, purpose, ids (N, j), n (N,), threads=None)`: row `i` draws
/// Binomial(n[i], 1/2) from its own stream `(seed, purpose, *ids[i])`, rows in parallel.
#[pyfunction]
#[pyo3(signature = (seed, purpose, ids, n, threads=None))]
fn binomial_half_streams<'py>(
    py: Python<'py>,
    seed: u64,
    purpose: &str,
    ids: PyReadonlyArray2<'py, u64>,
    n: PyReadonlyArray1<'py, u64>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let (ids, n) = (ids.as_array(), n.as_array());
    if ids.nrows() != n.len() || ids.ncols() > rng::MAX_IDS {
        return Err(param(format!(
            "ids must have shape (N, j) with j <= {} and N = len(n) = {}, got {:?}",
            rng::MAX_IDS,
            n.len(),
            ids.shape()
        )));
    }
    let tag = rng::purpose_tag(purpose);
    let rows: Vec<([u64; rng::MAX_IDS], u64)> = ids
        .rows()
        .into_iter()
        .zip(n.iter())
        .map(|(row, &trials)| {
            let mut padded = [0u64; rng::MAX_IDS];
            padded
                .iter_mut()
                .zip(row.iter())
                .for_each(|(slot, &id)| *slot = id);
            (padded, trials)
        })
        .collect();
    let threads = thread_count(threads)?;
    let values = interruptible(py, |cancel| {
        let pool = parallel::pool(threads)?;
        pool.install(|| {
            rows.par_chunks(CHECK_EVERY)
                .map(|chunk| {
                    cancel.check()?;
                    Ok(chunk
                        .iter()
                        .map(|&(ids, trials)| {
                            Stream::with_ids(seed, tag, ids)
                                .cursor()
                                .binomial_half(trials)
                        })
                        .collect::<Vec<u64>>())
                })
                .collect::<stratagem_core::Result<Vec<Vec<u64>>>>()
        })
        .map(|chunks| chunks.concat())
    })?;
    Ok(Array1::from_vec(values).into_pyarray(py))
}

/// `coin_flip_heads(seed, purpose, ids, k, threads=None)`: heads among `k` coins read from
/// the start of the stream, counted in parallel (equal to `stream_draws(..., 'coin_flips',
/// [k])[0]`). Interruptible, so it also serves as the long call of the Ctrl-C test.
#[pyfunction]
#[pyo3(signature = (seed, purpose, ids, k, threads=None))]
fn coin_flip_heads(
    py: Python<'_>,
    seed: u64,
    purpose: &str,
    ids: Vec<u64>,
    k: u64,
    threads: Option<usize>,
) -> PyResult<u64> {
    let stream = stream(seed, purpose, &ids)?;
    let threads = thread_count(threads)?;
    interruptible(py, |cancel: &Cancel| {
        rng::heads_in_coin_flips(&stream, k, threads, cancel)
    })
}

/// `Cursor(seed, purpose, ids, start)`: reads one stream word by word from block `start` on,
/// with the engine's draws (the product side of `stratagem.rng.Cursor`; its arguments are
/// checked there).
#[pyclass(name = "Cursor", module = "stratagem._core.rng")]
struct PyCursor {
    inner: Cursor,
}

#[pymethods]
impl PyCursor {
    #[new]
    fn new(seed: u64, purpose: &str, ids: Vec<u64>, start: u64) -> PyResult<Self> {
        let inner = stream(seed, purpose, &ids)?.cursor_at(start);
        Ok(Self { inner })
    }

    fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    fn next_float(&mut self) -> f64 {
        self.inner.next_f64()
    }

    fn uniform_below(&mut self, n: u64) -> u64 {
        self.inner.uniform_below(n)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.inner.below(n)
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add!(m; classes PyCursor; functions philox4x64_10, purpose_tag, stream_blocks, stream_draws,
        binomial_half_streams, coin_flip_heads);
    m.add("MAX_IDS", rng::MAX_IDS)?;
    m.add("BINOMIAL_POPCOUNT_LIMIT", rng::BINOMIAL_POPCOUNT_LIMIT)?;
    m.add("BTRS_CHUNK", rng::BTRS_CHUNK)?;
    Ok(())
}
