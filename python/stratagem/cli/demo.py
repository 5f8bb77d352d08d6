"""``stratagem demo``: a short tour of what the package does, on the default settings.

Each part prints a few lines (unless asked for JSON) and returns the figures it measured.
Under ``mpiexec`` every rank takes part and rank 0 alone prints.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from stratagem import _core, mpi, rng
from stratagem.progress import Progress
from stratagem.rng import oracle

__all__ = ["run_demo"]

Say = Callable[[str], None]


def _streams(seed: int, threads: int, say: Say) -> dict[str, Any]:
    """Rust, the Python oracle and numpy compute the same Philox4x64-10 block."""
    rust = [int(w) for w in rng.blocks(seed, "demo", [1], 0, 1, threads=threads)[0]]
    python = list(oracle.Stream(seed, "demo", 1).block(0))
    # Block 0 of ids (1,) has counter [0, 1, 0, 0]; numpy adds one before drawing, so it
    # starts from the counter just below: [2**64 - 1, 0, 0, 0].
    generator = np.random.Philox(
        key=np.array([seed, rng.purpose_tag("demo")], dtype=np.uint64),
        counter=np.array([2**64 - 1, 0, 0, 0], dtype=np.uint64),
    )
    from_numpy = [int(w) for w in generator.random_raw(4)]
    agree = rust == python == from_numpy
    say(f"Philox4x64-10 stream (seed {seed}, purpose 'demo', id 1), block 0:")
    for name, words in (("rust", rust), ("python", python), ("numpy", from_numpy)):
        say(f"  {name:<7}" + " ".join(f"{w:016x}" for w in words))
    say(f"  all three agree: {agree}")
    return {"block0": [f"{w:016x}" for w in rust], "rust_python_numpy_agree": agree}


def _coins(seed: int, threads: int, say: Say) -> dict[str, Any]:
    """Exact coin flips by popcount, in parallel and interruptible, with a progress bar."""
    chunks, coins_per_chunk = 20, 10**9
    heads = 0
    started = time.perf_counter()
    with Progress(chunks, "  flipping coins") as bar:
        for chunk in range(chunks):
            heads += rng.coin_flip_heads(
                seed, "demo.coins", [chunk], coins_per_chunk, threads=threads
            )
            bar.advance()
    seconds = time.perf_counter() - started
    total = chunks * coins_per_chunk
    z = (heads - total / 2) / (total / 4) ** 0.5
    say(
        f"{total:.0e} fair coins on {threads} threads: {heads} heads (z = {z:+.2f}), "
        f"{total / seconds:.3g} coins/s"
    )
    return {"coins": total, "heads": heads, "z": z, "coins_per_second": total / seconds}


def _binomial(seed: int, threads: int, say: Say) -> dict[str, Any]:
    """Binomial(n, 1/2) for huge n, Rust against the oracle, and the same draws for any
    thread count."""
    n, draws = 10**12, 1_000_000
    ids = np.arange(draws, dtype=np.uint64).reshape(-1, 1)
    trials = np.full(draws, n, dtype=np.uint64)
    started = time.perf_counter()
    values = rng.binomial_half(seed, "demo.binomial", ids, trials, threads=threads)
    rust_rate = draws / (time.perf_counter() - started)
    oracle_draws = 5_000
    started = time.perf_counter()
    python = [
        oracle.Stream(seed, "demo.binomial", i).cursor().binomial_half(n)
        for i in range(oracle_draws)
    ]
    oracle_rate = oracle_draws / (time.perf_counter() - started)
    identical = python == values[:oracle_draws].tolist()
    one_thread = rng.binomial_half(seed, "demo.binomial", ids, trials, threads=1)
    same_for_threads = bool(np.array_equal(one_thread, values))
    centred = values.astype(np.float64) - n / 2
    say(
        f"{draws:,} draws of Binomial(10^12, 1/2): mean - n/2 = {centred.mean():+.1f}, "
        f"std {centred.std():.0f} (expected {(n / 4) ** 0.5:.0f})"
    )
    say(
        f"  rust {rust_rate:,.0f} draws/s, python oracle {oracle_rate:,.0f} draws/s: "
        f"{rust_rate / oracle_rate:,.0f}x; first {oracle_draws} identical: {identical}"
    )
    say(f"  1 thread and {threads} threads give identical draws: {same_for_threads}")
    return {
        "n": n,
        "draws": draws,
        "mean_minus_half_n": float(centred.mean()),
        "std": float(centred.std()),
        "rust_draws_per_second": rust_rate,
        "oracle_draws_per_second": oracle_rate,
        "rust_equals_oracle": identical,
        "independent_of_threads": same_for_threads,
    }


def _mpi(seed: int, threads: int, say: Say) -> dict[str, Any]:
    """Each rank draws its block of rows; the gathered result equals one process's."""
    world = mpi.world()
    rows = 200_000
    start, stop = mpi.block_range(rows, world.rank, world.size)
    ids = np.arange(start, stop, dtype=np.uint64).reshape(-1, 1)
    mine = rng.binomial_half(
        seed, "demo.mpi", ids, np.full(stop - start, 10**6, np.uint64), threads=threads
    )
    gathered = mpi.allgather_blocks(mine, comm=world)
    single = rng.binomial_half(
        seed,
        "demo.mpi",
        np.arange(rows, dtype=np.uint64).reshape(-1, 1),
        np.full(rows, 10**6, np.uint64),
        threads=threads,
    )
    identical = bool(np.array_equal(gathered, single))
    mode = (
        f"{world.size} MPI ranks"
        if world.is_distributed
        else "one process (run under mpiexec -n N to spread it)"
    )
    say(f"{rows:,} draws split over {mode}: gathered result equals one process's: {identical}")
    return {"world_size": world.size, "rows": rows, "identical_to_single_process": identical}


def _conquest(seed: int, threads: int, say: Say) -> dict[str, Any]:
    """The default conquest game (:mod:`stratagem.conquest.defaults`: it ends with a result
    for 399 of seeds 0-399), and one border battle's exact odds against the engine's own coin
    flips."""
    from stratagem.conquest import defaults
    from stratagem.conquest.board import Board, assign_regions, troops_uniform
    from stratagem.conquest.distributed.game import DistributedGame
    from stratagem.conquest.game import Game
    from stratagem.conquest.odds import battle_odds, simulate_battle

    board = Board.from_spec(defaults.BOARD)
    policies = list(defaults.PLAYERS)
    start = (
        board,
        assign_regions(board, len(policies), seed),
        troops_uniform(board, defaults.TROOPS),
        policies,
    )
    settings: dict[str, Any] = {"seed": seed, "max_turns": defaults.TURNS, "threads": threads}
    world = mpi.world()
    # Under mpiexec the game itself is spread over the ranks, and checked against one process.
    # Its ranks share each host's cores (the default threads of a distributed game).
    game: Game | DistributedGame = (
        DistributedGame(*start, **(settings | {"threads": None}))
        if world.is_distributed
        else Game(*start, **settings)
    )
    started = time.perf_counter()
    result = game.run()
    turns_per_second = result.turns / (time.perf_counter() - started)
    outcome = (
        f"team {result.winner} ({policies[result.winner]}) won"
        if result.winner is not None
        else result.status
    )
    standings = ", ".join(
        f"{name} {int(count)}" for name, count in zip(policies, result.territories, strict=True)
    )
    where = f"{threads} threads"
    identical = None
    if isinstance(game, DistributedGame):
        single = Game(*start, **settings)
        single.run()
        identical = bool(np.array_equal(single.history.troops, game.history.troops))
        where = (
            f"{world.size} MPI ranks x {game.threads} threads, "
            f"identical to one process: {identical}"
        )
    say(
        f"conquest on {board.kind}, {len(policies)} teams: {outcome} after {result.turns} turns "
        f"({turns_per_second:,.0f} turns/s on {where})"
    )
    say(f"  territories held: {standings}")
    odds = battle_odds(1, 1)
    battles = 1_000_000
    won, lost, both = simulate_battle(1, 1, battles, seed, threads=threads)
    say(
        f"  1 attacker against 1 defender: exact {odds.attacker:.4f} / {odds.defender:.4f} / "
        f"{odds.both:.4f} (1/7, 3/7, 3/7), {battles:,} simulated battles "
        f"{won / battles:.4f} / {lost / battles:.4f} / {both / battles:.4f}"
    )
    return {
        "status": result.status,
        "winner": result.winner,
        "turns": result.turns,
        "territories": [int(v) for v in result.territories],
        "turns_per_second": turns_per_second,
        "distributed_identical_to_single_process": identical,
        "odds_exact": [odds.attacker, odds.defender, odds.both],
        "odds_simulated": [won / battles, lost / battles, both / battles],
    }


def _annexation(seed: int, threads: int, say: Say) -> dict[str, Any]:
    """A Filler-style game on a 217-cell hexagon, MCTS against greedy, then random playouts
    on the engine against the pure-Python oracle (the same playouts, bit for bit)."""
    from stratagem.annexation import AI, Board, Game, oracle, playouts

    board = Board.hexagon(8, seed=seed)
    game = Game(board, seed)
    agents = [AI.parse("mcts:iterations=500", seed=seed, threads=threads), AI("greedy")]
    started = time.perf_counter()
    while not game.is_over:
        game.play(agents[game.to_move].choose(game))
    game_seconds = time.perf_counter() - started
    names = ["mcts", "greedy"]
    outcome = "drawn" if game.winner is None else f"{names[game.winner]} won"
    scores = game.scores.tolist()
    say(
        f"annexation on hex:8 (217 cells, 8 colours): MCTS (500 iterations) against greedy, "
        f"{outcome} {scores[0]} : {scores[1]} after {game.moves} moves ({game_seconds:.2f} s)"
    )
    start = Game(board, seed)
    count = 200_000
    started = time.perf_counter()
    result = playouts(start, count, threads=threads)
    rust_rate = count / (time.perf_counter() - started)
    oracle_count = 200
    oracle_start = oracle.Game(board, seed)
    started = time.perf_counter()
    tally = oracle.playouts(oracle_start, oracle_count)
    oracle_rate = oracle_count / (time.perf_counter() - started)
    first = playouts(start, oracle_count, threads=threads)
    identical = (
        list(tally.wins) == first.wins.tolist()
        and tally.draws == first.draws
        and tally.margin_sum == first.margin_sum
    )
    say(
        f"  {count:,} random playouts from the start: player 0 wins "
        f"{result.win_rate(0):.3f}, mean margin {result.mean_margin:+.2f} cells, "
        f"{rust_rate:,.0f} playouts/s on {threads} threads"
    )
    say(
        f"  python oracle {oracle_rate:,.0f} playouts/s: {rust_rate / oracle_rate:,.0f}x; "
        f"first {oracle_count} identical: {identical}"
    )
    return {
        "board": board.kind,
        "outcome": game.outcome,
        "winner": game.winner,
        "scores": scores,
        "moves": game.moves,
        "playouts": count,
        "wins": result.wins.tolist(),
        "draws": result.draws,
        "mean_margin": result.mean_margin,
        "rust_playouts_per_second": rust_rate,
        "oracle_playouts_per_second": oracle_rate,
        "ratio": rust_rate / oracle_rate,
        "rust_equals_oracle": identical,
    }


def _mastermind(seed: int, threads: int, say: Say) -> dict[str, Any]:
    """The seed's 10 x 10 instance broken by the consistent-code search (over the MPI ranks
    under mpiexec), and Knuth's strategy played against every 4 x 6 secret."""
    from stratagem.mastermind import evaluate, format_code, solve

    secret = "7735427368"
    world = mpi.world()
    where = f"{threads} threads"
    identical = None
    if world.is_distributed:
        from stratagem.mastermind.distributed import solve as distributed_solve

        solution = distributed_solve(secret, 10, comm=world, seed=seed)
        single = solve(secret, 10, "first", seed, threads=threads)
        identical = bool(np.array_equal(single.guesses, solution.guesses))
        where = f"{world.size} MPI ranks, identical to one process: {identical}"
    else:
        solution = solve(secret, 10, "first", seed, threads=threads)
    say(
        f"mastermind, 10 spots x 10 colours (10^10 codes): secret {secret} broken with the "
        f"first consistent code in {solution.turns} guesses, "
        f"{solution.seconds * 1e3:.2f} ms on {where}"
    )
    guesses = [format_code(g) for g in solution.guesses]
    for start in range(0, len(guesses), 8):
        say("  " + " ".join(guesses[start : start + 8]))
    knuth = evaluate(4, 6, "knuth", seed=seed, threads=threads, progress=False)
    histogram = ", ".join(f"{k}: {n}" for k, n in enumerate(knuth.histogram.tolist()) if n)
    say(
        f"  Knuth's minimax against all 1,296 codes of 4 x 6: {knuth.total} guesses, average "
        f"{float(knuth.average):.3f}, worst case {knuth.worst} ({knuth.seconds:.3f} s)"
    )
    say(f"    secrets per number of guesses: {histogram}")
    return {
        "secret": secret,
        "turns": solution.turns,
        "guesses": guesses,
        "seconds": solution.seconds,
        "distributed_identical_to_single_process": identical,
        "knuth_total": knuth.total,
        "knuth_average": float(knuth.average),
        "knuth_worst": knuth.worst,
        "knuth_histogram": {str(k): int(n) for k, n in enumerate(knuth.histogram) if n},
        "knuth_seconds": knuth.seconds,
    }


def _outpost(seed: int, threads: int, say: Say) -> dict[str, Any]:
    """Four empires on the default 100x100 map, the four built-in players, 400 turns in Rust;
    then the first turns again by the pure-Python oracle (the same control map and history)."""
    from stratagem.outpost import Game
    from stratagem.outpost.oracle import OracleGame

    turns, oracle_turns = 400, 20
    game = Game(T=turns, seed=seed)
    started = time.perf_counter()
    result = game.run(progress=False)
    turns_per_second = turns / (time.perf_counter() - started)
    standings = ", ".join(
        f"{name} {score}" for name, score in zip(game.players, result.scores.tolist(), strict=True)
    )
    winners = " and ".join(game.players[e] for e in result.winners)
    say(
        f"outpost on the {game.map.name!r} map (100x100, r={game.r} L={game.L} W={game.W}), "
        f"{turns} turns: {winners} won, {turns_per_second:,.0f} turns/s"
    )
    say(f"  cells held: {standings}; outposts {result.outposts.tolist()}")
    engine = Game(T=oracle_turns, seed=seed)
    started = time.perf_counter()
    engine.run(progress=False)
    engine_rate = oracle_turns / (time.perf_counter() - started)
    oracle = OracleGame(engine.map.water, T=oracle_turns, seed=seed)
    started = time.perf_counter()
    for _ in range(oracle_turns):
        oracle.step()
    oracle_rate = oracle_turns / (time.perf_counter() - started)
    identical = bool(
        np.array_equal(oracle.control, engine.control)
        and np.array_equal(oracle.history["land"], engine.history.land)
        and np.array_equal(oracle.history["outposts"], engine.history.outposts)
    )
    say(
        f"  first {oracle_turns} turns: rust {engine_rate:,.0f} turns/s, python oracle "
        f"{oracle_rate:,.1f} turns/s: {engine_rate / oracle_rate:,.0f}x; identical: {identical}"
    )
    return {
        "map": game.map.name,
        "turns": turns,
        "players": list(game.players),
        "scores": result.scores.tolist(),
        "outposts": result.outposts.tolist(),
        "winners": list(result.winners),
        "turns_per_second": turns_per_second,
        "rust_turns_per_second_first_turns": engine_rate,
        "oracle_turns_per_second": oracle_rate,
        "rust_equals_oracle": identical,
    }


def _diplomacy(seed: int, threads: int, say: Say) -> dict[str, Any]:
    """Diplomacy winter adjustments: the counts of the 1901 start and of the open problem's
    answers, the combined search on a small position, and the engine against the pure-Python
    oracle (the same counts, the same equilibrium, and the speed of the preliminary search)."""
    from stratagem.diplomacy import oracle
    from stratagem.diplomacy.adjustments import counts, total
    from stratagem.diplomacy.engine import CONVENTIONS
    from stratagem.diplomacy.open_problem import solve as solve_open_problem
    from stratagem.diplomacy.position import Position
    from stratagem.diplomacy.positions import OPENING
    from stratagem.diplomacy.search.finder import solve

    opening = Position.parse(OPENING)
    say(f"diplomacy, the 1901 start: {total(opening):,} adjustment profile (nobody adjusts)")
    answers = {c: solve_open_problem(c) for c in CONVENTIONS}
    for convention, answer in answers.items():
        shares = ", ".join(f"{s.power} {s.units}->{s.centres}" for s in answer.shares)
        say(
            f"  the open problem, {convention}: {answer.total:,} profiles "
            f"({answer.seconds * 1e3:.1f} ms; units->centres {shares})"
        )
    small = Position.parse(
        "AUS: A VIE, A BUD, F TRI, A GAL, A BOH, A TYR / BUD TRI VIE; ITA: A PIE / NAP ROM VEN "
        "TUN; RUS: A UKR / MOS SEV WAR STP; TUR: A BUL / ANK CON SMY BUL GRE"
    )
    started = time.perf_counter()
    found = solve(small, "combined", seed=seed, threads=threads)
    seconds = time.perf_counter() - started
    mirror = oracle.combined(small, "exact")
    identical = mirror.profile == found.profile and list(mirror.values) == found.values.tolist()
    outcome = "a pure Nash equilibrium" if found.cycle is None else "a cycle"
    say(
        f"  combined search on a {total(small):,}-profile position: {outcome} after "
        f"{found.evaluations} evaluations ({seconds * 1e3:.1f} ms); oracle identical: {identical}"
    )
    for power, orders in found.orders.items():
        if orders:
            say(f"    {power}: {', '.join(orders)}")
    checked = [opening, small, *(answer.position for answer in answers.values())]
    counts_agree = all(
        counts(position, c) == {p: oracle.count(position, p, c) for p in position.map.powers}
        for position in checked
        for c in CONVENTIONS
    )
    say(f"  counts of {len(checked)} positions x 3 conventions equal the oracle's: {counts_agree}")
    largest = answers["exact"].position
    started = time.perf_counter()
    rust = solve(largest, "preliminary", threads=threads)
    rust_rate = rust.evaluations / (time.perf_counter() - started)
    started = time.perf_counter()
    slow = oracle.preliminary(largest, "exact", max_evaluations=200)
    oracle_rate = slow.evaluations / (time.perf_counter() - started)
    say(
        f"  preliminary search on the open problem's answer: rust {rust_rate:,.0f} "
        f"evaluations/s, python oracle {oracle_rate:,.0f}/s: {rust_rate / oracle_rate:,.0f}x"
    )
    return {
        "opening_total": total(opening),
        "open_problem": {c: a.total for c, a in answers.items()},
        "small_position": str(small),
        "combined_profile": list(found.profile),
        "combined_finished": found.finished,
        "combined_cycle": found.cycle is not None,
        "combined_evaluations": found.evaluations,
        "combined_seconds": seconds,
        "rust_equals_oracle": identical,
        "counts_equal_oracle": counts_agree,
        "rust_evaluations_per_second": rust_rate,
        "oracle_evaluations_per_second": oracle_rate,
    }


def _one_loop(seed: int, threads: int, say: Say) -> dict[str, Any]:
    """One random-agent loop drives every registered game through the protocol."""
    from stratagem import games
    from stratagem.testing import random_action

    say("one loop, every game (stratagem.games + stratagem.protocol, random legal actions):")
    played: dict[str, Any] = {}
    for spec in games.available():
        game = spec.make(seed=seed, **spec.quick)
        started = time.perf_counter()
        while not game.is_over:
            game.step({seat: random_action(seed, game, seat) for seat in game.to_move()})
        seconds = time.perf_counter() - started
        returns = [round(float(r), 3) for r in game.returns()]
        say(
            f"  {spec.name:<11} {spec.dynamics:<13} {game.seats} seat(s), {game.turn:>4} steps: "
            f"{game.outcome}, winners {list(game.winners)}, returns {returns}"
        )
        played[spec.name] = {
            "steps": game.turn,
            "outcome": game.outcome,
            "winners": list(game.winners),
            "returns": returns,
            "seconds": seconds,
        }
    return played


_PARTS: tuple[tuple[str, Callable[[int, int, Say], dict[str, Any]]], ...] = (
    ("streams", _streams),
    ("coins", _coins),
    ("binomial", _binomial),
    ("mpi", _mpi),
    ("conquest", _conquest),
    ("annexation", _annexation),
    ("mastermind", _mastermind),
    ("outpost", _outpost),
    ("diplomacy", _diplomacy),
    ("one_loop", _one_loop),
)


def run_demo(seed: int = 0, threads: int | None = None, *, echo: bool = True) -> dict[str, Any]:
    """Runs every part of the tour; prints its lines when ``echo`` (rank 0 only)."""
    world = mpi.world()
    resolved = _core.resolve_threads(threads)

    def say(line: str) -> None:
        if echo and world.rank == 0:
            print(line, flush=True)

    say(f"stratagem {_core.__version__}: seed {seed}, {resolved} threads, {world.size} rank(s)")
    report: dict[str, Any] = {"seed": seed, "threads": resolved}
    for name, part in _PARTS:
        say("")
        report[name] = part(seed, resolved, say)
    return report
