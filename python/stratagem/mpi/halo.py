"""Halo (neighbour) exchange of distributed graphs."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from stratagem.errors import InvalidParameter
from stratagem.mpi.collectives import _as_bytes, _check_offsets, _int_array, _plain_array, owner_of
from stratagem.mpi.communicator import (
    _TAG_HALO,
    _TAG_NEIGHBORS,
    Communicator,
    Request,
    _displacements,
)
from stratagem.mpi.launch import _resolve, checked_together

# --------------------------------------------------------------------------------------------
# Halo (neighbour) exchange


def exchange_with_neighbors(
    comm: Communicator,
    neighbors: Sequence[int],
    outgoing: NDArray[Any],
    send_counts: ArrayLike,
    recv_counts: ArrayLike,
    *,
    tag: int = _TAG_NEIGHBORS,
    pending: Sequence[Request] = (),
) -> NDArray[Any]:
    """Point-to-point exchange with a few neighbour ranks: ``outgoing`` holds the rows for
    each rank in rank order (``send_counts[q]`` rows for rank ``q``); the result holds the
    rows received, ``recv_counts[q]`` from rank ``q``, in rank order. Only ``neighbors``
    (which must include every rank with a nonzero count) are contacted, with ``Irecv`` and
    ``Isend`` on the numpy buffers. Every rank of a pair must agree on the counts. The
    ``pending`` requests (a collective started before) are completed in the same wait, so the
    ranks meet once for both.
    """
    send = np.asarray(send_counts, dtype=np.int64)
    recv = np.asarray(recv_counts, dtype=np.int64)
    rows = np.ascontiguousarray(outgoing)
    row_shape = rows.shape[1:]
    row_bytes = rows.dtype.itemsize * math.prod(row_shape)
    if rows.shape[0] != int(send.sum()):
        raise InvalidParameter(
            f"outgoing has {rows.shape[0]} rows but the send counts add up to {int(send.sum())}"
        )
    incoming = np.empty((int(recv.sum()), *row_shape), dtype=rows.dtype)
    out_bytes, in_bytes = _as_bytes(rows), _as_bytes(incoming)
    send_displs, recv_displs = _displacements(send), _displacements(recv)
    requests: list[Request] = []
    for q in neighbors:
        if recv[q]:
            first = int(recv_displs[q]) * row_bytes
            part = in_bytes[first : first + int(recv[q]) * row_bytes]
            requests.append(comm.irecv(part, q, tag))
    for q in neighbors:
        if send[q]:
            first = int(send_displs[q]) * row_bytes
            part = out_bytes[first : first + int(send[q]) * row_bytes]
            requests.append(comm.isend(part, q, tag))
    comm.waitall([*requests, *pending])
    return incoming


class HaloPlan:
    """Who sends which owned values to whom so that each rank sees its rows' neighbours.

    Each rank owns rows ``start:stop`` (block ``rank`` of ``offsets``) of a CSR graph whose
    column ids are global. A column outside the block is a *ghost*: a vertex owned by another
    rank whose value this rank needs. Build the plan once with :meth:`build` (collective),
    then :meth:`exchange` each step: every rank sends each neighbour rank exactly the values of its
    own vertices that the neighbour needs, O(cut edges) bytes in total.

    Slots: values of owned vertices sit at slots ``0..n_local-1`` and ghosts at
    ``n_local + i`` in the order of :attr:`ghost_ids`, so with
    ``extended = plan.with_ghosts(values)``, ``extended[plan.column_slots]`` holds the value of
    every neighbour in the order of ``local_indices``.
    """

    def __init__(
        self,
        *,
        comm: Communicator,
        offsets: NDArray[np.int64],
        ghost_ids: NDArray[np.int64],
        column_slots: NDArray[np.int64],
        send_local: NDArray[np.int64],
        send_counts: NDArray[np.int64],
        recv_counts: NDArray[np.int64],
    ) -> None:
        self.comm = comm
        self.offsets = offsets
        self.start = int(offsets[comm.rank])
        self.stop = int(offsets[comm.rank + 1])
        self.n_local = self.stop - self.start
        #: Global ids of the ghosts, sorted (hence grouped by owner rank).
        self.ghost_ids = ghost_ids
        #: Slot of every entry of ``local_indices`` in ``with_ghosts`` order.
        self.column_slots = column_slots
        #: Local rows whose values are sent, grouped by destination rank in rank order.
        self.send_local = send_local
        #: Values sent to / received from each rank per exchange.
        self.send_counts = send_counts
        self.recv_counts = recv_counts
        self.neighbors = tuple(
            int(q) for q in np.flatnonzero((send_counts > 0) | (recv_counts > 0))
        )
        self.bytes_sent_last = 0
        self.bytes_sent_total = 0

    @classmethod
    def build(
        cls,
        local_indptr: ArrayLike,
        local_indices: ArrayLike,
        offsets: ArrayLike,
        comm: Communicator | None = None,
    ) -> HaloPlan:
        """Collective: find the ghosts of this rank's rows and tell their owners.

        ``local_indptr``/``local_indices`` are this rank's rows in CSR form with global column
        ids (see :func:`csr_rows`); ``offsets`` is the row partition, identical on all ranks.
        Each rank counts the ghosts it needs per owner, one ``Alltoall`` swaps the counts and
        one ``Alltoallv`` sends the ghost ids to their owners. Invalid input on any rank
        raises :class:`InvalidParameter` on every rank.
        """
        comm = _resolve(comm)
        offs, indices = checked_together(
            comm, lambda: _check_plan_input(local_indptr, local_indices, offsets, comm)
        )
        start, stop = int(offs[comm.rank]), int(offs[comm.rank + 1])
        ghost_ids = np.unique(indices[(indices < start) | (indices >= stop)])
        recv_counts = np.bincount(owner_of(ghost_ids, offs), minlength=comm.size).astype(np.int64)
        send_counts = comm.alltoall_counts(recv_counts)
        wanted = np.empty(int(send_counts.sum()), dtype=np.int64)
        comm.alltoallv_bytes(
            _as_bytes(ghost_ids),
            recv_counts * ghost_ids.itemsize,
            _as_bytes(wanted),
            send_counts * wanted.itemsize,
        )
        checked_together(comm, lambda: _check_wanted(wanted, start, stop, comm.rank))
        return cls(
            comm=comm,
            offsets=offs,
            ghost_ids=ghost_ids,
            column_slots=_slots(indices, start, stop, ghost_ids, comm.rank),
            send_local=wanted - start,
            send_counts=send_counts,
            recv_counts=recv_counts,
        )

    @property
    def n_ghosts(self) -> int:
        """Number of distinct remote vertices adjacent to this rank's rows."""
        return len(self.ghost_ids)

    def slot_of(self, global_ids: ArrayLike) -> NDArray[np.int64]:
        """The slot (owned ``0..n_local-1`` or ghost ``n_local + i``) of each global id."""
        ids = _int_array("global_ids", global_ids, np.ndim(global_ids))
        return _slots(ids, self.start, self.stop, self.ghost_ids, self.comm.rank)

    def exchange(self, owned_values: ArrayLike) -> NDArray[Any]:
        """The values of the ghosts (in :attr:`ghost_ids` order) given each rank's own values.

        ``owned_values`` has one row per owned vertex (shape ``(n_local, ...)``) and any
        fixed-size dtype; all ranks must pass the same dtype and row shape. Only the cut-border
        rows travel, with ``Isend``/``Irecv`` between neighbour ranks.
        """
        values = _plain_array("owned_values", owned_values)
        if values.ndim == 0 or values.shape[0] != self.n_local:
            raise InvalidParameter(
                f"owned_values must have one row per owned vertex ({self.n_local}), "
                f"got shape {values.shape}"
            )
        ghosts = exchange_with_neighbors(
            self.comm,
            self.neighbors,
            values[self.send_local],  # grouped by destination rank
            self.send_counts,
            self.recv_counts,
            tag=_TAG_HALO,
        )
        sent = int(self.send_counts.sum()) * values.dtype.itemsize * math.prod(values.shape[1:])
        self.bytes_sent_last = sent
        self.bytes_sent_total += sent
        return ghosts

    def with_ghosts(self, owned_values: ArrayLike) -> NDArray[Any]:
        """Owned values followed by the exchanged ghost values (index it with slots)."""
        values = np.asarray(owned_values)
        return np.concatenate([values, self.exchange(values)])


def _check_plan_input(
    local_indptr: ArrayLike, local_indices: ArrayLike, offsets: ArrayLike, comm: Communicator
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    offs = _check_offsets(offsets, comm.size)
    n_local = int(offs[comm.rank + 1] - offs[comm.rank])
    indptr = _int_array("local_indptr", local_indptr, 1)
    indices = _int_array("local_indices", local_indices, 1)
    if len(indptr) != n_local + 1:
        raise InvalidParameter(
            f"local_indptr must hold n_local + 1 = {n_local + 1} entries for rank {comm.rank}'s "
            f"rows {int(offs[comm.rank])}..{int(offs[comm.rank + 1]) - 1}, got {len(indptr)}"
        )
    if indptr[0] != 0 or indptr[-1] != len(indices) or np.any(np.diff(indptr) < 0):
        raise InvalidParameter(
            f"local_indptr must start at 0, not decrease and end at len(local_indices) = "
            f"{len(indices)}; got {indptr[0]}..{indptr[-1]}"
        )
    n_total = int(offs[-1])
    bad = np.flatnonzero((indices < 0) | (indices >= n_total))
    if len(bad):
        i = int(bad[0])
        raise InvalidParameter(
            f"local_indices[{i}] = {int(indices[i])} is not a vertex id in [0, {n_total})"
        )
    return offs, indices


def _check_wanted(wanted: NDArray[np.int64], start: int, stop: int, rank: int) -> None:
    # Ranks that disagree on the offsets ask for vertices their "owner" does not hold.
    bad = np.flatnonzero((wanted < start) | (wanted >= stop))
    if len(bad):
        raise InvalidParameter(
            f"rank {rank} (rows {start}..{stop - 1}) was asked for vertex {int(wanted[bad[0]])}: "
            "do all ranks pass the same offsets?"
        )


def _slots(
    ids: NDArray[np.int64], start: int, stop: int, ghost_ids: NDArray[np.int64], rank: int
) -> NDArray[np.int64]:
    slots = np.empty(ids.shape, dtype=np.int64)
    owned = (ids >= start) & (ids < stop)
    slots[owned] = ids[owned] - start
    others = ids[~owned]
    position = np.searchsorted(ghost_ids, others)
    found = position < len(ghost_ids)
    found[found] = ghost_ids[position[found]] == others[found]
    if not found.all():
        raise InvalidParameter(
            f"global id {int(others[~found][0])} is neither owned by rank {rank} "
            f"(rows {start}..{stop - 1}) nor one of its ghosts"
        )
    slots[~owned] = (stop - start) + position
    return slots
