//! Phases 2-4 of a turn: battles on contested borders, occupation, recruitment.
//!
//! The turn works in place on one array of one `i64` per directed edge: the placement, which
//! the battles overwrite with each side's survivors carrying the sign of what the side placed
//! (an attack's survivors stay positive, a defence's negative). Occupation then reads, for
//! every territory `x`, its own edges (`< 0`: troops coming home) and their reverses (`> 0`:
//! troops arriving), and the garrison the placement left at home.

use std::ops::Range;
use std::sync::atomic::{AtomicI64, Ordering};

use rayon::prelude::*;
use stratagem_core::rng::{Stream, purpose_tag};

use crate::board::{Board, Layout, Reverses};
use crate::{MAX_TEAMS, TROOP_LIMIT, purpose};

/// Territories per parallel task of the passes over rows: large enough that a task's
/// overhead vanishes, small enough that two threads share the work evenly.
pub const TERRITORIES_PER_TASK: usize = 4096;

/// The most troops a territory holds on a board of `territories` territories: [`TROOP_LIMIT`]
/// while the board has fewer than 2^23 territories, and less beyond, so that all troops of a
/// board together (and so every per-team total and every sum of troops in one territory)
/// fit in an `i64`.
pub fn troop_limit(territories: u64) -> u64 {
    TROOP_LIMIT.min(i64::MAX as u64 / territories.max(1))
}

/// Coins per soldier per round: attackers flip one, everyone else (defenders) two.
#[inline]
fn coins(placed: i64) -> u64 {
    if placed > 0 { 1 } else { 2 }
}

/// One border battle: rounds until a side is empty, X's heads drawn before Y's each round,
/// all from the stream `(seed, "conquest.battle", turn, border)`. Returns the survivors.
pub fn battle(seed: u64, turn: u64, border: u64, sides: [(u64, u64); 2]) -> (u64, u64) {
    let [(mut sx, coins_x), (mut sy, coins_y)] = sides;
    if sx == 0 || sy == 0 {
        return (sx, sy);
    }
    let mut cursor =
        Stream::with_ids(seed, purpose_tag(purpose::BATTLE), [turn, border, 0]).cursor();
    while sx > 0 && sy > 0 {
        let hx = cursor.binomial_half(sx * coins_x);
        let hy = cursor.binomial_half(sy * coins_y);
        sx = sx.saturating_sub(hy);
        sy = sy.saturating_sub(hx);
    }
    (sx, sy)
}

/// `survivors` with the sign of `placed`.
#[inline]
fn signed(placed: i64, survivors: u64) -> i64 {
    if placed < 0 {
        -(survivors as i64)
    } else {
        survivors as i64
    }
}

/// The same memory seen as atomics, so that a border's battle can write both its edges.
fn atomic_view(values: &mut [i64]) -> &[AtomicI64] {
    // SAFETY: AtomicI64 has the size and alignment of i64 on the targets we build for (the
    // crate does not compile where it has not: `AtomicI64::from_mut_slice` has the same
    // requirement), and the exclusive borrow guarantees no other access while the view lives.
    unsafe { &*(std::ptr::from_mut::<[i64]>(values) as *const [AtomicI64]) }
}

/// Fights the battle of every border between two teams where a side attacks, among the
/// borders whose upward edge `x -> y` (`x < y`) is in the row of a territory of `from` and
/// is accepted by `resolves`: both sides' placements become their signed survivors. Other
/// borders keep their placements (everyone placed survives). Borders between two teams have
/// two frontier territories, so `from` may list the frontier alone (in any order).
pub fn battles(
    board: &Board,
    team: &[u8],
    placement: &mut [i64],
    from: &[u32],
    seed: u64,
    turn: u64,
    resolves: impl Fn(usize) -> bool + Sync,
) {
    let cells = atomic_view(placement);
    from.par_chunks(TERRITORIES_PER_TASK / 4).for_each(|chunk| {
        for &x in chunk {
            let x = x as usize;
            let row = board.row(x);
            for (e, &y) in row.zip(board.neighbours(x).iter()) {
                let y = y as usize;
                if y < x || team[x] == team[y] || !resolves(e) {
                    continue;
                }
                let back = board.reverse_of(e, x, y);
                let (pxy, pyx) = (
                    cells[e].load(Ordering::Relaxed),
                    cells[back].load(Ordering::Relaxed),
                );
                if pxy <= 0 && pyx <= 0 {
                    continue;
                }
                let sides = [
                    (pxy.unsigned_abs(), coins(pxy)),
                    (pyx.unsigned_abs(), coins(pyx)),
                ];
                let (sx, sy) = battle(seed, turn, board.border_id(e), sides);
                cells[e].store(signed(pxy, sx), Ordering::Relaxed);
                cells[back].store(signed(pyx, sy), Ordering::Relaxed);
            }
        }
    });
}

/// Occupation and recruitment of the territories of the chunk `first..first +
/// team_out.len()` that `owned` accepts ([`occupy_rows`]), with one loop for each way the
/// board keeps its rows and reverses, so that the loop itself has no branch on it.
fn occupy_chunk(
    b: &Before<'_>,
    first: usize,
    (team_out, troops_out): (&mut [u8], &mut [u64]),
    owned: impl Fn(usize) -> bool,
    totals: &mut (Vec<u64>, Vec<u64>),
) {
    let (team, placement) = (b.team, b.placement);
    let last = first + team_out.len();
    let chunk = (first, team_out, troops_out);
    match b.board.layout() {
        Layout::Stored {
            offsets,
            targets,
            reverses: Reverses::Slot { slot, .. },
        } => occupy_stored(b, chunk, (offsets, targets), owned, totals, |e, y| {
            offsets[y] as usize + usize::from(slot[e])
        }),
        Layout::Stored {
            offsets,
            targets,
            reverses: Reverses::Position(position),
        } => occupy_stored(b, chunk, (offsets, targets), owned, totals, |e, _| {
            position[e] as usize
        }),
        Layout::Plane(plane) => occupy_rows(
            b,
            chunk,
            plane.rows(first..last),
            owned,
            totals,
            |x, row, garrison| {
                let (r, c) = plane.cell(x);
                let (edges, len) = plane.edges_at(x, r, c, row.start);
                let edges = edges[..len].iter().zip(row);
                let edges = edges.map(|(&(y, back), e)| (e, y as usize, back));
                own_troops(team, placement, x, garrison, edges)
            },
        ),
    }
}

/// [`occupy_rows`] on a board that stores its rows (`offsets`, `targets`), `reverse(e, y)`
/// being the position of the reverse of the edge `e` to `y`: one loop for each kind of
/// reverse, with no branch on it.
#[inline(always)]
fn occupy_stored(
    b: &Before<'_>,
    (first, team_out, troops_out): (usize, &mut [u8], &mut [u64]),
    (offsets, targets): (&[u32], &[u32]),
    owned: impl Fn(usize) -> bool,
    totals: &mut (Vec<u64>, Vec<u64>),
    reverse: impl Fn(usize, usize) -> usize,
) {
    let rows = stored_rows(offsets, first, first + team_out.len());
    let chunk = (first, team_out, troops_out);
    occupy_rows(b, chunk, rows, owned, totals, |x, row, garrison| {
        let edges = row.clone().zip(&targets[row]).map(|(e, &y)| {
            let y = y as usize;
            (e, y, reverse(e, y))
        });
        own_troops(b.team, b.placement, x, garrison, edges)
    })
}

/// Occupation and recruitment of the chunk's territories that `owned` accepts, `rows` being
/// their rows. `own(x, row, garrison)` is the troops of `x`'s own team present at `x` after
/// the battles (garrison, defenders home, transfers in), or `None` when troops of another
/// team arrived too. Every sum is of troops of distinct territories, so it fits in a `u64`
/// ([`troop_limit`]).
#[inline(always)]
fn occupy_rows(
    b: &Before<'_>,
    (first, team_out, troops_out): (usize, &mut [u8], &mut [u64]),
    rows: impl Iterator<Item = Range<usize>>,
    owned: impl Fn(usize) -> bool,
    totals: &mut (Vec<u64>, Vec<u64>),
    own: impl Fn(usize, Range<usize>, u64) -> Option<u64>,
) {
    let mut counts = Vec::with_capacity(8);
    let out = team_out.iter_mut().zip(troops_out).zip(rows);
    for (k, ((owner_out, troops_here), row)) in out.enumerate() {
        let x = first + k;
        if !owned(x) {
            continue;
        }
        let garrison = *troops_here;
        let (owner, held) = match own(x, row, garrison) {
            Some(present) => (b.team[x], present),
            None => occupation(b, x, garrison, &mut counts),
        };
        let held = held.min(b.limit);
        // held <= 2^40 and rate_ppm <= 10^7: the product fits in a u64.
        let recruited = held * b.rate_ppm / 1_000_000;
        let new_troops = (held + recruited).min(b.cap);
        (*owner_out, *troops_here) = (owner, new_troops);
        totals.0[usize::from(owner)] += 1;
        totals.1[usize::from(owner)] += new_troops;
    }
}

/// The rows of `first..last` off a stored board's offsets, each offset read once.
fn stored_rows(offsets: &[u32], first: usize, last: usize) -> impl Iterator<Item = Range<usize>> {
    let ends = offsets[first..=last].windows(2);
    ends.map(|ends| ends[0] as usize..ends[1] as usize)
}

/// The own presence of `x` ([`occupy_chunk`]) over its edges, each as its position, its target and its reverse's
/// position.
#[inline(always)]
fn own_troops(
    team: &[u8],
    placement: &[i64],
    x: usize,
    garrison: u64,
    edges: impl Iterator<Item = (usize, usize, usize)>,
) -> Option<u64> {
    let own = team[x];
    let mut present = garrison;
    for (e, y, back) in edges {
        let (mine, theirs) = (placement[e], placement[back]);
        if mine < 0 {
            present += mine.unsigned_abs();
        }
        if theirs > 0 {
            if team[y] != own {
                return None;
            }
            present += theirs as u64;
        }
    }
    Some(present)
}

/// The troops present at `x` after the battles, as `(team, count)` pairs in `counts`, own
/// team first.
fn presence(
    board: &Board,
    team: &[u8],
    placement: &[i64],
    x: usize,
    garrison: u64,
    counts: &mut Vec<(u8, u64)>,
) {
    let own = team[x];
    counts.clear();
    counts.push((own, garrison));
    for (e, &y) in board.row(x).zip(board.neighbours(x).iter()) {
        let y = y as usize;
        let (mine, theirs) = (placement[e], placement[board.reverse_of(e, x, y)]);
        if mine < 0 {
            counts[0].1 += mine.unsigned_abs();
        }
        if theirs > 0 {
            let who = team[y];
            match counts.iter_mut().find(|(t, _)| *t == who) {
                Some(slot) => slot.1 += theirs as u64,
                None => counts.push((who, theirs as u64)),
            }
        }
    }
}

/// The new owner and troops of `x` (before recruitment) from the troops present when troops
/// of another team arrived: the largest team; on a tie the owner if tied, else a tied team
/// drawn with the tie stream.
fn occupation(
    before: &Before<'_>,
    x: usize,
    garrison: u64,
    counts: &mut Vec<(u8, u64)>,
) -> (u8, u64) {
    let b = before;
    let owner = b.team[x];
    presence(b.board, b.team, b.placement, x, garrison, counts);
    let best = counts.iter().map(|&(_, c)| c).max().unwrap_or(0);
    // The own team comes first: on a tie it keeps the territory.
    if best == 0 || counts[0].1 == best {
        return (owner, best);
    }
    let mut tied = [0u8; MAX_TEAMS];
    let mut ties = 0;
    for &(t, c) in counts.iter() {
        if c == best {
            tied[ties] = t;
            ties += 1;
        }
    }
    let tied = &mut tied[..ties];
    tied.sort_unstable();
    let pick = if ties == 1 {
        0
    } else {
        let tag = purpose_tag(purpose::TIE);
        Stream::with_ids(b.seed, tag, [b.turn, b.board.territory_id(x), 0])
            .cursor()
            .uniform_below(ties as u64) as usize
    };
    (tied[pick], best)
}

/// The state a turn starts from, after the battles, and the rules' parameters.
pub struct Before<'a> {
    pub board: &'a Board,
    pub team: &'a [u8],
    /// Signed survivors per directed edge ([`battles`]).
    pub placement: &'a [i64],
    pub seed: u64,
    pub turn: u64,
    pub rate_ppm: u64,
    /// The cap of the game, at most the board's [`troop_limit`].
    pub cap: u64,
    /// The board's [`troop_limit`].
    pub limit: u64,
}

/// Occupation (largest team takes the territory; ties as the rules say) then recruitment for
/// the territories `owned` accepts: `troops` holds each one's garrison on entry and its new
/// troops on return, `team` receives its new owner. Returns the new territories and troops
/// per team (of `teams`) over those territories.
pub fn occupy_and_recruit(
    before: &Before<'_>,
    teams: usize,
    team: &mut [u8],
    troops: &mut [u64],
    owned: impl Fn(usize) -> bool + Sync,
) -> (Vec<u64>, Vec<u64>) {
    let b = before;
    let zeros = || (vec![0u64; teams], vec![0u64; teams]);
    team.par_chunks_mut(TERRITORIES_PER_TASK)
        .zip(troops.par_chunks_mut(TERRITORIES_PER_TASK))
        .enumerate()
        .fold(zeros, |mut totals, (chunk, outs)| {
            let first = chunk * TERRITORIES_PER_TASK;
            occupy_chunk(b, first, outs, &owned, &mut totals);
            totals
        })
        .reduce(zeros, |mut a, b| {
            for (sum, add) in a.0.iter_mut().zip(&b.0) {
                *sum += add;
            }
            for (sum, add) in a.1.iter_mut().zip(&b.1) {
                *sum += add;
            }
            a
        })
}
