//! Binding of one rank's part of a distributed conquest game
//! (`stratagem.conquest.distributed` drives it and moves its buffers between the ranks).

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use stratagem_conquest::grid_part as part_start;
use stratagem_conquest::part::{Part, Setup};
use stratagem_conquest::plan::Plan;
use stratagem_conquest::row_block::RowBlock;
use stratagem_conquest::row_share::row_share;
use stratagem_conquest::share::{self, Csr, Grid, Table, block_share, share};
use stratagem_conquest::{Board, Policy};

use crate::conquest::{ParamsArg, PyStanding, SavedRecord, Tables, policies_from, tables};
use crate::errors::{param, to_py};
use crate::runtime::{Threads, detached_in_pool, interruptible_in_pool};

/// A list of indices, offsets or counts, each of which must fit `T` (non-negative; indices
/// below 2^32); `name` names the list in errors.
fn checked_list<T: TryFrom<i64>>(
    name: &str,
    values: &PyReadonlyArray1<'_, i64>,
) -> PyResult<Vec<T>> {
    values
        .as_array()
        .iter()
        .map(|&v| T::try_from(v).map_err(|_| param(format!("{name} holds {v}"))))
        .collect()
}

/// The whole board's territories and troops per team, as a part starts from them.
fn checked_counts(
    territory_counts: &PyReadonlyArray1<'_, i64>,
    troop_counts: &PyReadonlyArray1<'_, i64>,
) -> PyResult<(Vec<u64>, Vec<u64>)> {
    Ok((
        checked_list("territory_counts", territory_counts)?,
        checked_list("troop_counts", troop_counts)?,
    ))
}

type Counts<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>);

fn counts_out<'py>(py: Python<'py>, counts: (Vec<u64>, Vec<u64>)) -> Counts<'py> {
    let signed = |v: Vec<u64>| v.into_iter().map(|c| c as i64).collect::<Vec<_>>();
    (
        signed(counts.0).into_pyarray(py),
        signed(counts.1).into_pyarray(py),
    )
}

/// One rank's share of the board, read by attribute from the `_PartArrays` that
/// `stratagem.conquest.distributed` computes: its CSR labelled with the whole board's
/// territory and edge ids, the territories it owns, and the exchange plan.
#[derive(FromPyObject)]
struct ShareArrays<'py> {
    indptr: PyReadonlyArray1<'py, i64>,
    indices: PyReadonlyArray1<'py, i64>,
    #[pyo3(attribute("local_ids"))]
    territory_ids: PyReadonlyArray1<'py, i64>,
    edge_ids: PyReadonlyArray1<'py, i64>,
    owned: PyReadonlyArray1<'py, bool>,
    halo_send: PyReadonlyArray1<'py, i64>,
    halo_send_offsets: PyReadonlyArray1<'py, i64>,
    halo_recv: PyReadonlyArray1<'py, i64>,
    halo_recv_offsets: PyReadonlyArray1<'py, i64>,
    cut: PyReadonlyArray1<'py, i64>,
    cut_offsets: PyReadonlyArray1<'py, i64>,
}

impl ShareArrays<'_> {
    fn plan(&self) -> PyResult<Plan> {
        Ok(Plan {
            halo_send: checked_list("halo_send", &self.halo_send)?,
            halo_send_offsets: checked_list("halo_send_offsets", &self.halo_send_offsets)?,
            halo_recv: checked_list("halo_recv", &self.halo_recv)?,
            halo_recv_offsets: checked_list("halo_recv_offsets", &self.halo_recv_offsets)?,
            cut: checked_list("cut", &self.cut)?,
            cut_offsets: checked_list("cut_offsets", &self.cut_offsets)?,
        })
    }

    /// The part's board, checked and labelled (with the GIL released: a share may be large),
    /// read from the arrays in place (as `part_share` reads the board's): no copy of the share
    /// adds to the peak memory of a rank.
    fn board(&self, py: Python<'_>) -> PyResult<Board> {
        let (indptr, indices) = (self.indptr.as_slice()?, self.indices.as_slice()?);
        let (ids, edge_ids) = (self.territory_ids.as_slice()?, self.edge_ids.as_slice()?);
        py.detach(|| Board::part_from_csr(indptr, indices)?.labelled(ids, edge_ids))
            .map_err(to_py)
    }
}

/// The policies of a part: any but the search player, whose futures need the whole board.
fn checked_policies(names: &[String]) -> PyResult<Vec<Policy>> {
    let policies = policies_from(names)?;
    if policies.iter().any(|p| matches!(p, Policy::Search(_))) {
        return Err(param(
            "the search player plays in one process only, not in a game spread over MPI ranks \
             (its futures need the whole board)"
                .to_string(),
        ));
    }
    Ok(policies)
}

/// One rank's part: owned territories, ghosts and the turn in phases.
#[pyclass(module = "stratagem._core.conquest", name = "Part")]
pub struct PyPart {
    part: Part,
    #[pyo3(get, set)]
    threads: Threads,
}

impl PyPart {
    /// Runs a phase on the part's thread pool with the GIL released and Ctrl-C honoured.
    /// A small part's phase ends long before a Ctrl-C would be noticed, so it runs without
    /// the watching thread (whose start would cost more than the phase).
    fn run<T: Send>(
        &mut self,
        py: Python<'_>,
        phase: impl FnOnce(&mut Part) -> stratagem_core::Result<T> + Send,
    ) -> PyResult<T> {
        const SMALL_PART_EDGES: usize = 1 << 16;
        let (part, threads) = (&mut self.part, self.threads.0);
        if part.board().n_edges() < SMALL_PART_EDGES {
            return detached_in_pool(py, threads, || phase(part));
        }
        interruptible_in_pool(py, threads, |_| phase(part))
    }

    /// A phase that takes the neighbours' buffer and returns the one to send back.
    fn exchange<'py, T: numpy::Element>(
        &mut self,
        py: Python<'py>,
        received: PyReadonlyArray1<'py, i64>,
        phase: fn(&mut Part, &[i64]) -> stratagem_core::Result<Vec<T>>,
    ) -> PyResult<Bound<'py, PyArray1<T>>> {
        let received = received.as_array().to_vec();
        Ok(self
            .run(py, move |part| phase(part, &received))?
            .into_pyarray(py))
    }
}

#[pymethods]
impl PyPart {
    /// With `keep_csr=False` the share's `indptr`, `indices` and `edge_ids` are replaced by
    /// empty arrays once the engine holds the part's board, before the part's own buffers
    /// are made: when nothing else holds them, they are freed first, which lowers the
    /// rank's peak memory by some 70 bytes a territory.
    #[new]
    #[pyo3(signature = (
        share, team, troops, policies, params, territories, territory_counts, troop_counts,
        threads=None, keep_csr=true
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        share: &Bound<'_, PyAny>,
        team: PyReadonlyArray1<'_, i64>,
        troops: PyReadonlyArray1<'_, i64>,
        policies: Vec<String>,
        params: ParamsArg,
        territories: u64,
        territory_counts: PyReadonlyArray1<'_, i64>,
        troop_counts: PyReadonlyArray1<'_, i64>,
        threads: Option<usize>,
        keep_csr: bool,
    ) -> PyResult<Self> {
        let policies = checked_policies(&policies)?;
        let counts = checked_counts(&territory_counts, &troop_counts)?;
        let (board, plan, owned) = {
            let arrays: ShareArrays<'_> = share.extract()?;
            (
                arrays.board(py)?,
                arrays.plan()?,
                arrays.owned.as_array().to_vec(),
            )
        };
        if !keep_csr {
            for name in ["indptr", "indices", "edge_ids"] {
                share.setattr(name, PyArray1::<i64>::zeros(py, 0, false))?;
            }
        }
        let state = |x: usize| board.territory_id(x);
        let team = team
            .as_array()
            .iter()
            .enumerate()
            .map(|(x, &t)| {
                u8::try_from(t).map_err(|_| param(format!("territory {} has team {t}", state(x))))
            })
            .collect::<PyResult<Vec<u8>>>()?;
        let troops = troops
            .as_array()
            .iter()
            .enumerate()
            .map(|(x, &t)| {
                u64::try_from(t)
                    .map_err(|_| param(format!("territory {} has {t} troops", state(x))))
            })
            .collect::<PyResult<Vec<u64>>>()?;
        let setup = Setup {
            board,
            owned,
            team,
            troops,
            policies,
            params: params.into(),
            plan,
            territories,
            counts,
        };
        Ok(Self {
            part: Part::new(setup).map_err(to_py)?,
            threads: Threads::new(threads)?,
        })
    }

    /// The part of a share the engine built (`grid_part`), its arrays moved into the part
    /// (the share is left empty; a refused start leaves it as it was): `team` of every
    /// territory of the share (local order), and `troops` on every one.
    #[staticmethod]
    #[pyo3(signature = (
        share, team, troops, policies, params, territories, territory_counts, troop_counts,
        threads=None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn of_share(
        py: Python<'_>,
        mut share: PyRefMut<'_, PyShare>,
        team: PyReadonlyArray1<'_, u8>,
        troops: u64,
        policies: Vec<String>,
        params: ParamsArg,
        territories: u64,
        territory_counts: PyReadonlyArray1<'_, i64>,
        troop_counts: PyReadonlyArray1<'_, i64>,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        let policies = checked_policies(&policies)?;
        let counts = checked_counts(&territory_counts, &troop_counts)?;
        let team = team.as_array().to_vec();
        let held = share.held_mut()?;
        let threads = Threads::new(threads)?;
        let params = params.into();
        let mut part = py
            .detach(|| Part::of_share(held, team, troops, policies, params, territories, counts))
            .map_err(to_py)?;
        if let Some(block) = share.rows.take() {
            part.use_rows(block).map_err(to_py)?;
        }
        share.held = None;
        Ok(Self { part, threads })
    }

    /// Starts a turn; False when the game is over.
    fn begin_turn(&mut self, py: Python<'_>) -> PyResult<bool> {
        self.run(py, Part::begin_turn)
    }

    fn distance_halo<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u32>>> {
        Ok(self.part.distance_halo().map_err(to_py)?.into_pyarray(py))
    }

    fn distance_update(
        &mut self,
        py: Python<'_>,
        ghosts: PyReadonlyArray1<'_, u32>,
    ) -> PyResult<bool> {
        let ghosts = ghosts.as_array().to_vec();
        self.run(py, move |part| part.distance_update(&ghosts))
    }

    /// Whether the part finds its frontier distances by passes over rows (`row_edges` and
    /// `join_rows`) rather than by the search's rounds (`distance_halo`, `distance_update`).
    #[getter]
    fn by_rows(&self) -> bool {
        self.part.by_rows()
    }

    /// The top and bottom rows of the block's frontier distances, for every other rank.
    fn row_edges<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u32>>> {
        Ok(self.part.row_edges().map_err(to_py)?.into_pyarray(py))
    }

    /// Takes every rank's `row_edges` (rank order) and completes the distances.
    fn join_rows(&mut self, py: Python<'_>, edges: PyReadonlyArray1<'_, u32>) -> PyResult<()> {
        let edges = edges.as_array().to_vec();
        self.run(py, move |part| part.join_rows(&edges))
    }

    fn pressure_out<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u64>>> {
        Ok(self.part.pressure_out().map_err(to_py)?.into_pyarray(py))
    }

    fn pressure_in(&mut self, values: PyReadonlyArray1<'_, u64>) -> PyResult<()> {
        self.part.pressure_in(values.as_slice()?).map_err(to_py)
    }

    /// Cut borders this rank resolves this turn, per neighbour.
    fn resolved_per_neighbour<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.part
            .resolved_per_neighbour()
            .into_iter()
            .map(|c| c as i64)
            .collect::<Vec<_>>()
            .into_pyarray(py)
    }

    /// Places the owned territories (custom teams' rows from `custom`, one entry per local
    /// directed edge); returns the placements the neighbours need.
    #[pyo3(signature = (custom=None))]
    fn place<'py>(
        &mut self,
        py: Python<'py>,
        custom: Option<PyReadonlyArray1<'py, i64>>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let custom = custom.map(|c| c.as_array().to_vec());
        Ok(self
            .run(py, move |part| part.place(custom.as_deref()))?
            .into_pyarray(py))
    }

    /// Team and troops of every territory of the part (owned and ghosts, local order).
    fn local_state<'py>(&self, py: Python<'py>) -> Counts<'py> {
        let team: Vec<i64> = self.part.team().iter().map(|&t| i64::from(t)).collect();
        let troops: Vec<i64> = self.part.troops().iter().map(|&t| t as i64).collect();
        (team.into_pyarray(py), troops.into_pyarray(py))
    }

    #[getter]
    fn has_custom(&self) -> bool {
        self.part.has_custom()
    }

    fn fight<'py>(
        &mut self,
        py: Python<'py>,
        theirs: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        self.exchange(py, theirs, Part::fight)
    }

    /// The ghosts' new state to send (halo order), and the owned territories' new counts.
    fn occupy<'py>(
        &mut self,
        py: Python<'py>,
        reports: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<(Bound<'py, PyArray1<u64>>, Counts<'py>)> {
        let reports = reports.as_array().to_vec();
        let (halo, counts) = self.run(py, move |part| part.occupy(&reports))?;
        Ok((halo.into_pyarray(py), counts_out(py, counts)))
    }

    fn end_turn(&mut self, ghosts: PyReadonlyArray1<'_, u64>) -> PyResult<()> {
        self.part.end_turn(ghosts.as_slice()?).map_err(to_py)
    }

    fn commit(
        &mut self,
        territories: PyReadonlyArray1<'_, i64>,
        troops: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<()> {
        let territories = checked_list("territories", &territories)?;
        let troops = checked_list("troops", &troops)?;
        self.part.commit(&territories, &troops).map_err(to_py)
    }

    /// Territories and troops per team over the owned territories.
    fn counts<'py>(&self, py: Python<'py>) -> Counts<'py> {
        counts_out(py, self.part.counts())
    }

    /// Puts a loaded game back at its saved turn, status and history; `territories_now` and
    /// `troops_now` are the whole board's current counts.
    fn resume(
        &mut self,
        saved: SavedRecord<'_>,
        territories_now: PyReadonlyArray1<'_, i64>,
        troops_now: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<()> {
        let (turn, status, history) = saved.checked(self.part.policies().len())?;
        let now = (
            checked_list("territories_now", &territories_now)?,
            checked_list("troops_now", &troops_now)?,
        );
        self.part
            .resume(turn, status, history, (&now.0, &now.1))
            .map_err(to_py)
    }

    fn history<'py>(&self, py: Python<'py>) -> PyResult<Tables<'py>> {
        tables(py, self.part.record().history(), self.part.policies().len())
    }

    /// The whole board's ids of the owned territories, increasing.
    fn owned_ids<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let board = self.part.board();
        (0..board.n())
            .filter(|&x| self.part.owned()[x])
            .map(|x| board.territory_id(x) as i64)
            .collect::<Vec<_>>()
            .into_pyarray(py)
    }

    /// Team and troops of the owned territories (in `owned_ids` order).
    fn owned_state<'py>(&self, py: Python<'py>) -> Counts<'py> {
        let owned = self.part.owned();
        let pick = |values: Vec<i64>| {
            values
                .into_iter()
                .zip(owned)
                .filter(|&(_, &o)| o)
                .map(|(v, _)| v)
                .collect::<Vec<_>>()
        };
        let team = pick(self.part.team().iter().map(|&t| i64::from(t)).collect());
        let troops = pick(self.part.troops().iter().map(|&t| t as i64).collect());
        (team.into_pyarray(py), troops.into_pyarray(py))
    }

    #[getter]
    fn needs_distance(&self) -> bool {
        stratagem_conquest::policy::needs_distance(self.part.policies())
    }

    #[getter]
    fn needs_pressure(&self) -> bool {
        stratagem_conquest::policy::needs_pressure(self.part.policies())
    }

    #[getter]
    fn standing(&self) -> PyStanding {
        self.part.record().into()
    }
}

/// `part_share(indptr, indices, owner, rank)`: rank `rank`'s share of the board (the fields of
/// `stratagem.conquest.distributed._PartArrays`, as a dict of arrays) when territory `x`
/// belongs to rank `owner[x]`.
#[pyfunction]
fn part_share<'py>(
    py: Python<'py>,
    indptr: PyReadonlyArray1<'py, i64>,
    indices: PyReadonlyArray1<'py, i64>,
    owner: PyReadonlyArray1<'py, i64>,
    rank: i64,
) -> PyResult<Bound<'py, PyDict>> {
    let (indptr, indices, owner) = (indptr.as_slice()?, indices.as_slice()?, owner.as_slice()?);
    built_share(py, || share(indptr, indices, owner, rank))
}

/// `grid_share(rows, cols, torus, offsets, rank)`: rank `rank`'s share of the grid
/// `grid:{rows}x{cols}` (`:torus`) when block `q` of the natural order, `offsets[q]` to
/// `offsets[q + 1]`, belongs to rank `q`, built from the block's rows alone: the dict of
/// [`part_share`] for the whole grid.
#[pyfunction]
fn grid_share<'py>(
    py: Python<'py>,
    rows: i64,
    cols: i64,
    torus: bool,
    offsets: PyReadonlyArray1<'py, i64>,
    rank: usize,
) -> PyResult<Bound<'py, PyDict>> {
    if rows < 1 || cols < 1 {
        return Err(param(format!(
            "a grid needs rows and columns, got {rows}x{cols}"
        )));
    }
    let offsets = offsets.as_slice()?;
    let grid = Grid { rows, cols, torus };
    built_share(py, || block_share(&grid, offsets, rank))
}

/// `csr_share(indptr, indices, offsets, rank)`: the share of [`grid_share`] for the board
/// of the CSR `indptr`, `indices` (memory-mapped from a board file: only the rows of the
/// block and of its ghosts are read, and each is checked).
#[pyfunction]
fn csr_share<'py>(
    py: Python<'py>,
    indptr: PyReadonlyArray1<'py, i64>,
    indices: PyReadonlyArray1<'py, i64>,
    offsets: PyReadonlyArray1<'py, i64>,
    rank: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let (indptr, indices) = (indptr.as_slice()?, indices.as_slice()?);
    let offsets = offsets.as_slice()?;
    built_share(py, || block_share(&Csr { indptr, indices }, offsets, rank))
}

/// `rows_share(n, ids, starts, indptr, indices, offsets, rank)`: the share of
/// [`grid_share`] for a board of `n` territories of which the rows of `ids` (ascending: the
/// block and its ghosts) are held, each starting at `starts[i]` in the whole board's CSR and
/// holding `indices[indptr[i]:indptr[i + 1]]` (whole-board ids, ascending).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn rows_share<'py>(
    py: Python<'py>,
    n: i64,
    ids: PyReadonlyArray1<'py, i64>,
    starts: PyReadonlyArray1<'py, i64>,
    indptr: PyReadonlyArray1<'py, i64>,
    indices: PyReadonlyArray1<'py, i64>,
    offsets: PyReadonlyArray1<'py, i64>,
    rank: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let table = Table {
        n,
        ids: ids.as_slice()?,
        starts: starts.as_slice()?,
        indptr: indptr.as_slice()?,
        indices: indices.as_slice()?,
    };
    if table.ids.windows(2).any(|w| w[1] <= w[0]) {
        return Err(param("rows_share: ids must be strictly ascending"));
    }
    let offsets = offsets.as_slice()?;
    built_share(py, || block_share(&table, offsets, rank))
}

/// Widened to `i64`, as numpy arrays.
fn wide<'py, T: Copy + TryInto<i64>>(py: Python<'py>, values: &[T]) -> Bound<'py, PyArray1<i64>> {
    values
        .iter()
        .map(|&v| v.try_into().unwrap_or(i64::MAX))
        .collect::<Vec<i64>>()
        .into_pyarray(py)
}

/// The exchange plan of a share, as the dict of `i64` arrays `PartArrays` holds.
fn plan_dict<'py>(py: Python<'py>, cut: &share::Share) -> PyResult<Bound<'py, PyDict>> {
    let arrays = PyDict::new(py);
    let plan = &cut.plan;
    arrays.set_item("neighbours", wide(py, &cut.neighbours))?;
    arrays.set_item("halo_send", wide(py, &plan.halo_send))?;
    arrays.set_item("halo_send_offsets", wide(py, &plan.halo_send_offsets))?;
    arrays.set_item("halo_recv", wide(py, &plan.halo_recv))?;
    arrays.set_item("halo_recv_offsets", wide(py, &plan.halo_recv_offsets))?;
    arrays.set_item("cut", wide(py, &plan.cut))?;
    arrays.set_item("cut_offsets", wide(py, &plan.cut_offsets))?;
    Ok(arrays)
}

/// [`share_dict`] of the share `build` makes with the GIL released.
fn built_share<'py>(
    py: Python<'py>,
    build: impl FnOnce() -> stratagem_core::Result<share::Share> + Send,
) -> PyResult<Bound<'py, PyDict>> {
    let cut = py.detach(build).map_err(to_py)?;
    share_dict(py, cut)
}

/// A share as the dict of arrays `_PartArrays` is made from.
fn share_dict(py: Python<'_>, cut: share::Share) -> PyResult<Bound<'_, PyDict>> {
    let arrays = plan_dict(py, &cut)?;
    arrays.set_item("local_ids", wide(py, &cut.local_ids))?;
    arrays.set_item("indptr", wide(py, &cut.indptr))?;
    arrays.set_item("indices", wide(py, &cut.indices))?;
    arrays.set_item("edge_ids", wide(py, &cut.edge_ids))?;
    arrays.set_item("owned", cut.owned.into_pyarray(py))?;
    Ok(arrays)
}

/// One rank's share of a grid, held by the engine (`grid_part`) until a part is made of it
/// (`Part.of_share`), with the steps of the grid's `regions` start
/// (`stratagem_conquest::grid_part`) between the collectives.
#[pyclass(module = "stratagem._core.conquest", name = "Share")]
pub struct PyShare {
    held: Option<share::Share>,
    grid: Grid,
    /// The block of whole rows of a plane grid that the share is, if it is one.
    rows: Option<RowBlock>,
}

impl PyShare {
    fn held(&self) -> PyResult<&share::Share> {
        self.held
            .as_ref()
            .ok_or_else(|| param("this share was made into a part already".to_string()))
    }

    fn held_mut(&mut self) -> PyResult<&mut share::Share> {
        self.held
            .as_mut()
            .ok_or_else(|| param("this share was made into a part already".to_string()))
    }
}

#[pymethods]
impl PyShare {
    /// Territories of the share (owned and ghosts).
    #[getter]
    fn n(&self) -> PyResult<usize> {
        Ok(self.held()?.local_ids.len())
    }

    /// Whole-board ids of the share's territories, increasing.
    fn ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        Ok(wide(py, &self.held()?.local_ids))
    }

    /// The exchange plan (the dict of `i64` arrays of its `PartArrays` fields).
    fn plan<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        plan_dict(py, self.held()?)
    }

    /// Every array of the share, as `grid_share` gives them.
    fn arrays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        share_dict(py, self.held()?.clone())
    }

    /// `(distance, id)` of the farthest owned territory from `source` (lowest id among the
    /// farthest), or None when the rank owns none.
    fn farthest(&self, py: Python<'_>, source: i64) -> PyResult<Option<(i64, u32)>> {
        let (held, grid) = (self.held()?, &self.grid);
        py.detach(|| part_start::farthest_owned(held, grid, source))
            .map_err(to_py)
    }

    /// Owned territories at each distance from `source`, 0 to the grid's diameter.
    fn distance_counts<'py>(
        &self,
        py: Python<'py>,
        source: i64,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let (held, grid) = (self.held()?, &self.grid);
        let counts = py
            .detach(|| part_start::owned_distance_counts(held, grid, source))
            .map_err(to_py)?;
        Ok(wide(py, &counts))
    }

    /// The owned territories at each of `levels` (distances from `source`), ascending.
    fn owned_at<'py>(
        &self,
        py: Python<'py>,
        source: i64,
        levels: Vec<i64>,
    ) -> PyResult<Vec<Bound<'py, PyArray1<i64>>>> {
        let (held, grid) = (self.held()?, &self.grid);
        let found = py
            .detach(|| part_start::owned_at_distances(held, grid, source, &levels))
            .map_err(to_py)?;
        Ok(found.iter().map(|ids| wide(py, ids)).collect())
    }

    /// Owned territories per team (of `teams`), `team` being every territory's (local order).
    fn team_counts<'py>(
        &self,
        py: Python<'py>,
        team: PyReadonlyArray1<'py, u8>,
        teams: usize,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let held = self.held()?;
        let team = team.as_slice()?;
        if team.len() != held.owned.len() {
            return Err(param(format!(
                "team needs one entry per territory of the share ({}), got {}",
                held.owned.len(),
                team.len()
            )));
        }
        let mut counts = vec![0_i64; teams];
        for (&t, _) in team.iter().zip(&held.owned).filter(|(_, o)| **o) {
            let count = counts
                .get_mut(usize::from(t))
                .ok_or_else(|| param(format!("team {t} of {teams}")))?;
            *count += 1;
        }
        Ok(counts.into_pyarray(py))
    }

    /// The team of every territory of the share (local order) in the regions dealt from
    /// `source` (the far end), team `t + 1` starting at `starts[t]` (`(distance, id)`).
    fn regions<'py>(
        &self,
        py: Python<'py>,
        source: i64,
        starts: Vec<(i64, u32)>,
    ) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let (held, grid) = (self.held()?, &self.grid);
        let team = py
            .detach(|| part_start::regions_team(held, grid, source, &starts))
            .map_err(to_py)?;
        Ok(team.into_pyarray(py))
    }
}

/// `first_in_order(seed, purpose, lo, hi, count)`: `(word, id)` of the first `count`
/// territories of `lo..hi` in the random order of the stream `(seed, purpose)`, the list of
/// `stratagem.conquest.boards.layouts.first_in_order`, drawn by the engine in parallel
/// without holding the words.
#[pyfunction]
fn first_in_order(
    py: Python<'_>,
    seed: u64,
    purpose: &str,
    lo: u64,
    hi: u64,
    count: usize,
) -> PyResult<Vec<(u64, u64)>> {
    py.detach(|| stratagem_conquest::grid_start::first_in_order(seed, purpose, lo, hi, count))
        .map_err(to_py)
}

/// `regions_cuts(counts, teams)`: where each team but the first starts in the order of the
/// regions start, from the territories at each distance from the far end (`counts`, all
/// ranks'): `(distance, place among the territories at that distance)`.
#[pyfunction]
fn regions_cuts(counts: Vec<u64>, teams: usize) -> PyResult<Vec<(i64, u64)>> {
    part_start::level_cuts(&counts, teams).map_err(to_py)
}

/// `grid_part(rows, cols, torus, offsets, rank)`: the share of [`grid_share`], held by the
/// engine in its own types (no `i64` arrays) until `Part.of_share` takes it.
#[pyfunction]
fn grid_part(
    py: Python<'_>,
    rows: i64,
    cols: i64,
    torus: bool,
    offsets: PyReadonlyArray1<'_, i64>,
    rank: usize,
) -> PyResult<PyShare> {
    let grid = Grid { rows, cols, torus };
    grid.checked_n().map_err(to_py)?;
    let offsets = offsets.as_slice()?;
    // A block of whole rows of a plane grid is written in closed form.
    let (held, rows) = py
        .detach(|| match row_share(&grid, offsets, rank)? {
            Some((held, rows)) => Ok((held, Some(rows))),
            None => Ok((block_share(&grid, offsets, rank)?, None)),
        })
        .map_err(to_py)?;
    Ok(PyShare {
        held: Some(held),
        grid,
        rows,
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPart>()?;
    m.add_class::<PyShare>()?;
    m.add_function(wrap_pyfunction!(grid_part, m)?)?;
    m.add_function(wrap_pyfunction!(regions_cuts, m)?)?;
    m.add_function(wrap_pyfunction!(first_in_order, m)?)?;
    m.add_function(wrap_pyfunction!(part_share, m)?)?;
    m.add_function(wrap_pyfunction!(grid_share, m)?)?;
    m.add_function(wrap_pyfunction!(csr_share, m)?)?;
    m.add_function(wrap_pyfunction!(rows_share, m)?)
}
