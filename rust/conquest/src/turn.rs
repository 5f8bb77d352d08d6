//! Phases 2-4 of a turn: battles on contested borders, occupation, recruitment.

use rayon::prelude::*;
use stratagem_core::rng::{Stream, purpose_tag};

use crate::TROOP_LIMIT;
use crate::board::Board;
use crate::purpose;

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

/// Survivors of both sides on every border that `resolves` accepts (`(x side, y side)`, in
/// `board.borders()` order), written into `survivors`; on friendly borders and borders without
/// a battle everyone placed survives. Other borders keep what `survivors` held.
pub fn battles(
    board: &Board,
    team: &[u8],
    placement: &[i64],
    seed: u64,
    turn: u64,
    survivors: &mut Vec<(u64, u64)>,
    resolves: impl Fn(usize) -> bool + Sync,
) {
    survivors.resize(board.borders().len(), (0, 0));
    survivors
        .par_iter_mut()
        .zip(board.borders().par_iter())
        .enumerate()
        .filter(|(index, _)| resolves(*index))
        .for_each(|(_, (out, b))| {
            let (pxy, pyx) = (placement[b.xy], placement[b.yx]);
            let placed = (pxy.unsigned_abs(), pyx.unsigned_abs());
            let contested = team[b.x as usize] != team[b.y as usize] && (pxy > 0 || pyx > 0);
            *out = if contested {
                battle(
                    seed,
                    turn,
                    board.border_id(b),
                    [(placed.0, coins(pxy)), (placed.1, coins(pyx))],
                )
            } else {
                placed
            };
        });
}

/// The troops present at `x` after the battles, per team, as `(team, count)` pairs.
fn presence(
    board: &Board,
    team: &[u8],
    troops: &[u64],
    placement: &[i64],
    survivors: &[(u64, u64)],
    x: usize,
    counts: &mut Vec<(u8, u128)>,
) {
    counts.clear();
    let own = team[x];
    let mut add = |who: u8, amount: u64| {
        if let Some(slot) = counts.iter_mut().find(|(t, _)| *t == who) {
            slot.1 += u128::from(amount);
        } else {
            counts.push((who, u128::from(amount)));
        }
    };
    let committed: u64 = board.row(x).map(|e| placement[e].unsigned_abs()).sum();
    add(own, troops[x] - committed);
    for e in board.row(x) {
        let y = board.target(e);
        let (mine, theirs) = (placement[e], placement[board.reverse(e)]);
        if team[y] == own {
            if mine < 0 {
                add(own, mine.unsigned_abs());
            }
            if theirs > 0 {
                add(team[y], theirs.unsigned_abs());
            }
        } else {
            let (sx, sy) = survivors[board.border_of(e)];
            let (my_survivors, their_survivors) = if x < y { (sx, sy) } else { (sy, sx) };
            if mine <= 0 {
                add(own, my_survivors);
            }
            if theirs > 0 {
                add(team[y], their_survivors);
            }
        }
    }
}

/// The state a turn starts from and the rules' parameters.
pub struct Before<'a> {
    pub board: &'a Board,
    pub team: &'a [u8],
    pub troops: &'a [u64],
    pub placement: &'a [i64],
    pub survivors: &'a [(u64, u64)],
    pub seed: u64,
    pub turn: u64,
    pub rate_ppm: u64,
    pub cap: u64,
}

/// Occupation (largest team takes the territory; ties as the rules say) then recruitment,
/// written into `team` and `troops` for the territories `owned` accepts; the others keep their
/// state from `before`.
pub fn occupy_and_recruit(
    before: &Before<'_>,
    team: &mut Vec<u8>,
    troops: &mut Vec<u64>,
    owned: impl Fn(usize) -> bool + Sync,
) {
    let n = before.board.n();
    let tie_tag = purpose_tag(purpose::TIE);
    team.resize(n, 0);
    troops.resize(n, 0);
    team.par_iter_mut()
        .zip(troops.par_iter_mut())
        .enumerate()
        .for_each_init(Vec::new, |counts, (x, (owner_out, troops_out))| {
            let b = before;
            if !owned(x) {
                (*owner_out, *troops_out) = (b.team[x], b.troops[x]);
                return;
            }
            presence(
                b.board,
                b.team,
                b.troops,
                b.placement,
                b.survivors,
                x,
                counts,
            );
            let best = counts.iter().map(|&(_, c)| c).max().unwrap_or(0);
            let (owner, held) = if best == 0 {
                (b.team[x], 0)
            } else if counts.iter().any(|&(t, c)| t == b.team[x] && c == best) {
                (b.team[x], best)
            } else {
                let mut tied: Vec<u8> = counts
                    .iter()
                    .filter(|&&(_, c)| c == best)
                    .map(|&(t, _)| t)
                    .collect();
                tied.sort_unstable();
                let pick = if tied.len() == 1 {
                    0
                } else {
                    Stream::with_ids(b.seed, tie_tag, [b.turn, b.board.territory_id(x), 0])
                        .cursor()
                        .uniform_below(tied.len() as u64) as usize
                };
                (tied[pick], best)
            };
            let held = held.min(u128::from(TROOP_LIMIT)) as u64;
            let recruited = u128::from(held) * u128::from(b.rate_ppm) / 1_000_000;
            *owner_out = owner;
            *troops_out = (u128::from(held) + recruited).min(u128::from(b.cap)) as u64;
        });
}
