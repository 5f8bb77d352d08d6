//! The part against the single-process game, and its refusals.

use std::sync::Arc;

use super::*;
use crate::Game;
use crate::share::Grid;

/// A 4x4 grid as CSR.
fn grid() -> (Vec<i64>, Vec<i64>) {
    let (mut indptr, mut indices) = (vec![0i64], Vec::new());
    for x in 0..16i64 {
        let (r, c) = (x / 4, x % 4);
        for (dr, dc) in [(-1, 0), (0, -1), (0, 1), (1, 0)] {
            let (nr, nc) = (r + dr, c + dc);
            if (0..4).contains(&nr) && (0..4).contains(&nc) {
                indices.push(nr * 4 + nc);
            }
        }
        indptr.push(indices.len() as i64);
    }
    (indptr, indices)
}

fn params() -> Params {
    Params {
        seed: 7,
        rate_ppm: 200_000,
        cap: TROOP_LIMIT,
        max_turns: Some(40),
    }
}

/// The whole board as one part: no ghosts, no cut borders.
fn whole(team: &[i64], troops: &[i64], policies: &[Policy]) -> Result<Part> {
    Part::new(whole_setup(team, troops, policies)?)
}

/// The setup of [`whole`], for tests that spoil one part of it.
fn whole_setup(team: &[i64], troops: &[i64], policies: &[Policy]) -> Result<Setup> {
    let (indptr, indices) = grid();
    let board = Board::from_csr(&indptr, &indices)?;
    let ids: Vec<i64> = (0..16).collect();
    let edges: Vec<i64> = (0..indices.len() as i64).collect();
    let board = board.labelled(&ids, &edges)?;
    let counts = crate::game::counts(
        policies.len(),
        &team.iter().map(|&t| t as u8).collect::<Vec<_>>(),
        &troops.iter().map(|&t| t as u64).collect::<Vec<_>>(),
    );
    Ok(Setup {
        board,
        owned: vec![true; 16],
        team: team.iter().map(|&t| t as u8).collect(),
        troops: troops.iter().map(|&t| t as u64).collect(),
        policies: policies.to_vec(),
        params: params(),
        plan: Plan {
            halo_send_offsets: vec![0],
            halo_recv_offsets: vec![0],
            cut_offsets: vec![0],
            ..Plan::default()
        },
        territories: 16,
        counts,
    })
}

#[test]
fn one_part_plays_the_game() -> Result<()> {
    let team: Vec<i64> = (0..16)
        .map(|x| i64::from(x % 4 >= 2) + 2 * i64::from(x >= 8))
        .collect();
    let troops = vec![6i64; 16];
    let policies = [
        Policy::Aggressive,
        Policy::Balanced,
        Policy::Opportunist,
        Policy::Random,
    ];
    let (indptr, indices) = grid();
    let board = Arc::new(Board::from_csr(&indptr, &indices)?);
    // The search's rounds, and the passes over the rows of the one block of the whole grid.
    for by_rows in [false, true] {
        let mut game = Game::new(board.clone(), &team, &troops, policies.to_vec(), params())?;
        let mut part = whole(&team, &troops, &policies)?;
        if by_rows {
            let grid = Grid::plane(4, 4);
            let block = RowBlock::of(&grid, &[0, 16], 0);
            part.use_rows(block.ok_or_else(|| inconsistent("no row block".into()))?)?;
            assert!(part.distance_halo().is_err());
        } else {
            assert!(part.row_edges().is_err());
        }
        play_beside(&mut part, &mut game, by_rows)?;
    }
    Ok(())
}

/// Plays the part (one rank, no neighbours) beside the game, turn by turn.
fn play_beside(part: &mut Part, game: &mut Game, by_rows: bool) -> Result<()> {
    while part.begin_turn()? {
        if by_rows {
            part.join_rows(&part.row_edges()?)?;
        } else {
            while part.distance_update(&part.distance_halo()?)? {}
        }
        part.pressure_in(&part.pressure_out()?)?;
        let out = part.place(None)?;
        let reports = part.fight(&out)?;
        let (ghosts, (territories, troops)) = part.occupy(&reports)?;
        part.end_turn(&ghosts)?;
        part.commit(&territories, &troops)?;
        assert!(game.step(None)?);
        assert_eq!(part.team(), game.team());
        assert_eq!(part.troops(), game.troops());
    }
    assert!(!game.step(None)?);
    assert_eq!(part.record().status(), game.status());
    assert_eq!(part.record().history(), game.history());
    Ok(())
}

#[test]
fn refuses_phases_out_of_order_and_bad_buffers() -> Result<()> {
    let policies = [Policy::Aggressive, Policy::Random];
    let team: Vec<i64> = (0..16).map(|x| i64::from(x >= 8)).collect();
    let mut part = whole(&team, &[3; 16], &policies)?;
    assert!(
        matches!(part.fight(&[]), Err(Error::InvalidParameter(m)) if m.contains("out of order"))
    );
    assert!(part.begin_turn()?);
    assert!(matches!(
        part.distance_update(&[1]),
        Err(Error::InconsistentInput(_))
    ));
    part.place(None)?;
    assert!(matches!(part.fight(&[5]), Err(Error::InconsistentInput(_))));
    Ok(())
}

#[test]
fn refuses_a_plan_that_misses_a_cut_border() -> Result<()> {
    let mut setup = whole_setup(&[0; 16], &[1; 16], &[Policy::Random, Policy::Random])?;
    assert_eq!(setup.counts, (vec![16, 0], vec![16, 0]));
    setup.owned[15] = false; // a ghost, but the plan lists neither it nor its borders
    let result = Part::new(setup);
    assert!(matches!(result, Err(Error::InvalidParameter(m)) if m.contains("exchange plan")));
    Ok(())
}
