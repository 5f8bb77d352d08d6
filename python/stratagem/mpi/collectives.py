"""Block partitions and collectives on numpy arrays."""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem import _validate
from stratagem.errors import InvalidParameter
from stratagem.mpi.communicator import _REDUCIBLE, Communicator, ReduceOp
from stratagem.mpi.launch import _combined_error, _resolve

# --------------------------------------------------------------------------------------------
# Validation helpers


def _check_rank(name: str, value: object, comm: Communicator) -> int:
    return _validate.integer(name, value, 0, comm.size - 1)


def _plain_array(name: str, value: ArrayLike) -> NDArray[Any]:
    """``value`` as a numpy array whose bytes can travel as they are (no Python objects)."""
    array = np.asarray(value)
    if array.dtype.hasobject:
        raise InvalidParameter(
            f"{name} must have a fixed-size dtype to be sent as bytes, got dtype {array.dtype}"
        )
    return array


def _as_bytes(array: NDArray[Any]) -> NDArray[np.uint8]:
    """A ``uint8`` view of a C-contiguous array (a copy first if it is not contiguous)."""
    return np.ascontiguousarray(array).reshape(-1).view(np.uint8)


def _int_array(name: str, value: ArrayLike, ndim: int) -> NDArray[np.int64]:
    array = np.asarray(value)
    if array.size == 0 and not np.issubdtype(array.dtype, np.integer):
        array = array.astype(np.int64)  # an empty list arrives as float64
    if not np.issubdtype(array.dtype, np.integer):
        raise InvalidParameter(f"{name} must hold integers, got dtype {array.dtype}")
    if array.ndim != ndim:
        raise InvalidParameter(f"{name} must have {ndim} dimension(s), got shape {array.shape}")
    if array.dtype == np.uint64 and array.size and int(array.max()) > np.iinfo(np.int64).max:
        raise InvalidParameter(f"{name} holds {int(array.max())}, beyond the int64 range")
    return array.astype(np.int64, copy=False)


def _check_offsets(offsets: ArrayLike, size: int | None = None) -> NDArray[np.int64]:
    offs = _int_array("offsets", offsets, 1)
    if len(offs) < 2:
        raise InvalidParameter(f"offsets must hold at least 2 entries, got {len(offs)}")
    if size is not None and len(offs) != size + 1:
        raise InvalidParameter(
            f"offsets must hold size + 1 = {size + 1} entries (one block per rank), got {len(offs)}"
        )
    if offs[0] != 0:
        raise InvalidParameter(f"offsets[0] must be 0, got {int(offs[0])}")
    drops = np.flatnonzero(np.diff(offs) < 0)
    if len(drops):
        i = int(drops[0])
        raise InvalidParameter(
            f"offsets must not decrease: offsets[{i}] = {int(offs[i])} > "
            f"offsets[{i + 1}] = {int(offs[i + 1])}"
        )
    return offs


# --------------------------------------------------------------------------------------------
# Block partitions


def block_partition(n: int, size: int) -> NDArray[np.int64]:
    """Offsets (``size + 1`` of them) of ``n`` items cut into ``size`` contiguous blocks.

    Block r is ``offsets[r]:offsets[r + 1]``; the first ``n % size`` blocks get one extra item.
    """
    n = _validate.integer("n", n, 0)
    size = _validate.integer("size", size, 1)
    base, extra = divmod(n, size)
    counts = np.full(size, base, dtype=np.int64)
    counts[:extra] += 1
    offsets = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return offsets


def block_range(n: int, rank: int, size: int) -> tuple[int, int]:
    """``(start, stop)`` of block ``rank`` of :func:`block_partition` ``(n, size)``."""
    n = _validate.integer("n", n, 0)
    size = _validate.integer("size", size, 1)
    rank = _validate.integer("rank", rank, 0, size - 1)
    base, extra = divmod(n, size)
    start = rank * base + min(rank, extra)
    return start, start + base + (1 if rank < extra else 0)


def owner_of(indices: ArrayLike, offsets: ArrayLike) -> NDArray[np.int64]:
    """The block (rank) that holds each index, for blocks given by ``offsets`` (vectorised)."""
    offs = _check_offsets(offsets)
    idx = _int_array("indices", indices, np.ndim(indices))
    bad = np.flatnonzero((idx.ravel() < 0) | (idx.ravel() >= offs[-1]))
    if len(bad):
        raise InvalidParameter(
            f"index {int(idx.ravel()[bad[0]])} is outside the partitioned range "
            f"[0, {int(offs[-1])})"
        )
    # side="right" skips empty blocks: an index equal to an offset belongs to the next
    # non-empty block.
    return np.searchsorted(offs, idx, side="right").astype(np.int64) - 1


def csr_rows(
    indptr: ArrayLike, indices: ArrayLike, start: int, stop: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Rows ``start:stop`` of a CSR graph as ``(local_indptr, local_indices)`` with global
    column ids, the input :meth:`HaloPlan.build` expects from the owner of those rows."""
    ptr = _int_array("indptr", indptr, 1)
    cols = _int_array("indices", indices, 1)
    n = len(ptr) - 1
    if n < 0 or ptr[0] != 0 or ptr[-1] != len(cols) or np.any(np.diff(ptr) < 0):
        raise InvalidParameter(
            f"indptr must start at 0, not decrease and end at len(indices) = {len(cols)}"
        )
    start = _validate.integer("start", start, 0, n)
    stop = _validate.integer("stop", stop, start, n)
    local_indptr = ptr[start : stop + 1] - ptr[start]
    return local_indptr, cols[ptr[start] : ptr[stop]].copy()


# --------------------------------------------------------------------------------------------
# Collectives on numpy arrays


def allreduce(
    values: ArrayLike,
    op: ReduceOp = "sum",
    *,
    comm: Communicator | None = None,
    inplace: bool = False,
) -> NDArray[Any]:
    """Element-wise ``op`` of ``values`` over all ranks, returned on every rank.

    With ``inplace=True`` ``values`` must be a writeable C-contiguous array and receives the
    result; otherwise a new array is returned and ``values`` is left alone. Integer sums are
    exact; float sums depend on the reduction order, so they can differ in the last bits from
    a single-process sum.
    """
    comm = _resolve(comm)
    if op not in ("sum", "max", "min"):
        raise InvalidParameter(f"op must be 'sum', 'max' or 'min', got {op!r}")
    if inplace:
        if not isinstance(values, np.ndarray):
            raise InvalidParameter(f"inplace=True needs a numpy array, got {type(values).__name__}")
        if not (values.flags.c_contiguous and values.flags.writeable):
            raise InvalidParameter("inplace=True needs a writeable C-contiguous array")
        result = values
    else:
        result = np.array(values, order="C")
    if result.dtype == np.bool_:
        if op == "sum":
            raise InvalidParameter("op='sum' of a bool array: convert it to an integer dtype")
        buffer = result.reshape(-1).view(np.uint8)  # 0/1 bytes: max is 'any', min is 'all'
    elif result.dtype in _REDUCIBLE:
        if result.dtype.kind == "c" and op != "sum":
            raise InvalidParameter(f"op={op!r} is undefined for complex dtype {result.dtype}")
        buffer = result.reshape(-1)
    else:
        raise InvalidParameter(
            f"allreduce supports bool, (unsigned) integer, float32/64 and complex64/128 "
            f"arrays, got dtype {result.dtype}"
        )
    comm.allreduce_inplace(buffer, op)
    return result


def bcast_array(
    array: ArrayLike | None, root: int = 0, *, comm: Communicator | None = None
) -> NDArray[Any]:
    """``root``'s array on every rank; other ranks may pass ``None`` (their argument is ignored).

    Shape and dtype travel in a small control message, the data in one typed ``Bcast``.
    """
    comm = _resolve(comm)
    root = _check_rank("root", root, comm)
    source: NDArray[Any] | None = None
    # The root broadcasts (dtype, shape) or its validation error, so every rank raises together.
    header: str | tuple[np.dtype[Any], tuple[int, ...]] | None = None
    if comm.rank == root:
        try:
            if array is None:
                raise InvalidParameter(f"bcast_array: the root rank {root} passed None")
            source = np.array(_plain_array("array", array), order="C")
            header = (source.dtype, source.shape)
        except InvalidParameter as exc:
            header = str(exc)
    header = comm.bcast_object(header, root)
    if header is None or isinstance(header, str):
        raise InvalidParameter(header)
    dtype, shape = header
    result = source if source is not None else np.empty(shape, dtype=dtype)
    comm.bcast_bytes(_as_bytes(result), root)
    return result


class _BlockLayout(NamedTuple):
    block: NDArray[Any]
    rows: NDArray[np.int64]  # rows held by each rank
    row_shape: tuple[int, ...]


def _block_layout(name: str, block: ArrayLike, comm: Communicator) -> _BlockLayout:
    """Validate a per-rank block and check that all ranks agree on dtype and row shape."""
    try:
        local = _plain_array(name, block)
        if local.ndim == 0:
            raise InvalidParameter(f"{name} must have at least one dimension (rows), got a scalar")
        local = np.ascontiguousarray(local)
    except InvalidParameter as exc:
        failed = comm.allgather_object((str(exc), None))
        if len(failed) == 1:
            raise
        raise _combined_error([text for text, _ in failed]) from exc
    metas = comm.allgather_object((None, (local.dtype, local.shape[1:], local.shape[0])))
    if any(text is not None for text, _ in metas):
        raise _combined_error([text for text, _ in metas])
    checked = [meta for _, meta in metas if meta is not None]
    dtype, row_shape, _ = checked[0]
    for rank, (other_dtype, other_shape, _) in enumerate(checked):
        if other_dtype != dtype or other_shape != row_shape:
            raise InvalidParameter(
                f"{name} differs between ranks: rank 0 has dtype {dtype} and rows of shape "
                f"{row_shape}, rank {rank} has dtype {other_dtype} and rows of shape {other_shape}"
            )
    return _BlockLayout(local, np.array([m[2] for m in checked], dtype=np.int64), row_shape)


def allgather_blocks(block: ArrayLike, *, comm: Communicator | None = None) -> NDArray[Any]:
    """Concatenate every rank's block (rows along axis 0) in rank order, on every rank.

    All ranks must pass the same dtype and row shape; block lengths may differ (``Allgatherv``).
    """
    comm = _resolve(comm)
    layout = _block_layout("block", block, comm)
    full = np.empty((int(layout.rows.sum()), *layout.row_shape), dtype=layout.block.dtype)
    row_bytes = layout.block.dtype.itemsize * math.prod(layout.row_shape)
    comm.allgatherv_bytes(_as_bytes(layout.block), _as_bytes(full), layout.rows * row_bytes)
    return full


def gather_blocks(
    block: ArrayLike, root: int = 0, *, comm: Communicator | None = None
) -> NDArray[Any] | None:
    """Like :func:`allgather_blocks`, but only ``root`` gets the full array; others get ``None``."""
    comm = _resolve(comm)
    root = _check_rank("root", root, comm)
    layout = _block_layout("block", block, comm)
    row_bytes = layout.block.dtype.itemsize * math.prod(layout.row_shape)
    full: NDArray[Any] | None = None
    if comm.rank == root:
        full = np.empty((int(layout.rows.sum()), *layout.row_shape), dtype=layout.block.dtype)
    comm.gatherv_bytes(
        _as_bytes(layout.block),
        None if full is None else _as_bytes(full),
        layout.rows * row_bytes,
        root,
    )
    return full
