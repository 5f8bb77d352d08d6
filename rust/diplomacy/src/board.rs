//! The map as the engine uses it: provinces, centres and homes, the army and fleet locations
//! with their adjacency, and the distances the evaluator reads.

use std::collections::VecDeque;

use stratagem_core::{Error, Result};

/// Distances are capped here: the evaluator only tells 0, 1, 2 and "3 or more" apart.
pub const FAR: u8 = 3;
/// At most this many home centres per power, so that listing a power's builds stays small.
pub const MAX_HOMES: usize = 16;
/// At most this many powers (the standard map has seven).
pub const MAX_POWERS: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Land,
    Coast,
    Sea,
}

/// Where a new unit may appear on a home centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub fleet: bool,
    pub location: u16,
}

pub struct Board {
    pub powers: usize,
    pub kind: Vec<Kind>,
    /// The province of each centre, and the power whose home it is.
    pub centre_province: Vec<usize>,
    pub home: Vec<Option<u8>>,
    /// The centre on each province, if any.
    pub centre_of: Vec<Option<usize>>,
    pub army_province: Vec<usize>,
    pub fleet_province: Vec<usize>,
    /// The home centres of each power, in centre order.
    pub homes: Vec<Vec<usize>>,
    /// What a power may build on each centre (empty for centres that are nobody's home).
    pub builds: Vec<Vec<Placement>>,
    /// The locations an army (a fleet) on each location may move to.
    pub army_moves: Vec<Vec<usize>>,
    pub fleet_moves: Vec<Vec<usize>>,
    /// `army_distance[a * provinces + p]`: moves of an army from location `a` to province `p`,
    /// capped at [`FAR`]; the same for fleets.
    army_distance: Vec<u8>,
    fleet_distance: Vec<u8>,
}

fn board_error(message: String) -> Error {
    Error::InvalidBoard(message)
}

/// Adjacency lists from CSR arrays, every target checked.
fn adjacency(
    name: &str,
    offsets: &[i64],
    targets: &[i64],
    nodes: usize,
) -> Result<Vec<Vec<usize>>> {
    if offsets.len() != nodes + 1 {
        return Err(board_error(format!(
            "{name} adjacency: {} offsets for {nodes} locations (expected {})",
            offsets.len(),
            nodes + 1
        )));
    }
    let mut lists = Vec::with_capacity(nodes);
    for (node, pair) in offsets.windows(2).enumerate() {
        let (start, end) = (pair[0], pair[1]);
        let range = usize::try_from(start)
            .ok()
            .zip(usize::try_from(end).ok())
            .filter(|(s, e)| s <= e && *e <= targets.len())
            .ok_or_else(|| {
                board_error(format!(
                    "{name} adjacency: bad offsets {start}..{end} at location {node}"
                ))
            })?;
        let mut list = Vec::with_capacity(range.1 - range.0);
        for &target in &targets[range.0..range.1] {
            match usize::try_from(target) {
                Ok(t) if t < nodes && t != node => list.push(t),
                _ => {
                    return Err(board_error(format!(
                        "{name} adjacency: location {node} has neighbour {target}, not a location \
                         other than itself"
                    )));
                }
            }
        }
        lists.push(list);
    }
    Ok(lists)
}

/// Breadth-first distances from every location to every province, capped at [`FAR`].
fn distances(neighbours: &[Vec<usize>], province_of: &[usize], provinces: usize) -> Vec<u8> {
    let nodes = neighbours.len();
    let mut table = vec![FAR; nodes * provinces];
    let mut steps = vec![u8::MAX; nodes];
    let mut queue = VecDeque::new();
    for start in 0..nodes {
        steps.fill(u8::MAX);
        steps[start] = 0;
        queue.clear();
        queue.push_back(start);
        while let Some(node) = queue.pop_front() {
            let d = steps[node];
            let slot = &mut table[start * provinces + province_of[node]];
            *slot = (*slot).min(d);
            if d + 1 >= FAR {
                continue;
            }
            for &next in &neighbours[node] {
                if steps[next] == u8::MAX {
                    steps[next] = d + 1;
                    queue.push_back(next);
                }
            }
        }
    }
    table
}

impl Board {
    /// A board from the arrays of `stratagem.diplomacy.Map`: province kinds (0 land, 1 coast,
    /// 2 sea), the province and home power (-1 for none) of each centre, the province of each
    /// army and fleet location, and the two adjacencies as CSR arrays.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        powers: usize,
        kind: &[i64],
        centre_province: &[i64],
        centre_home: &[i64],
        army_province: &[i64],
        fleet_province: &[i64],
        army_csr: (&[i64], &[i64]),
        fleet_csr: (&[i64], &[i64]),
    ) -> Result<Self> {
        if !(1..=MAX_POWERS).contains(&powers) {
            return Err(board_error(format!(
                "a map has 1 to {MAX_POWERS} powers, got {powers}"
            )));
        }
        let provinces = kind.len();
        let kind: Vec<Kind> = kind
            .iter()
            .enumerate()
            .map(|(p, &k)| match k {
                0 => Ok(Kind::Land),
                1 => Ok(Kind::Coast),
                2 => Ok(Kind::Sea),
                _ => Err(board_error(format!(
                    "province {p} has kind {k}; kinds are 0, 1, 2"
                ))),
            })
            .collect::<Result<_>>()?;
        let index = |what: &str, i: usize, v: i64, limit: usize| -> Result<usize> {
            usize::try_from(v)
                .ok()
                .filter(|&v| v < limit)
                .ok_or_else(|| board_error(format!("{what} {i} is {v}, not below {limit}")))
        };
        if centre_home.len() != centre_province.len() {
            return Err(board_error(
                "centre provinces and homes differ in length".into(),
            ));
        }
        let mut centre_of = vec![None; provinces];
        let mut centres = Vec::with_capacity(centre_province.len());
        let mut home = Vec::with_capacity(centre_province.len());
        for (i, (&p, &h)) in centre_province.iter().zip(centre_home).enumerate() {
            let p = index("the province of centre", i, p, provinces)?;
            if kind[p] == Kind::Sea || centre_of[p].is_some() {
                return Err(board_error(format!(
                    "centre {i} is on a sea or a second centre on province {p}"
                )));
            }
            centre_of[p] = Some(i);
            centres.push(p);
            home.push(if h < 0 {
                None
            } else {
                Some(index("the home power of centre", i, h, powers)? as u8)
            });
        }
        let army_province: Vec<usize> = army_province
            .iter()
            .enumerate()
            .map(|(i, &p)| index("the province of army location", i, p, provinces))
            .collect::<Result<_>>()?;
        let fleet_province: Vec<usize> = fleet_province
            .iter()
            .enumerate()
            .map(|(i, &p)| index("the province of fleet location", i, p, provinces))
            .collect::<Result<_>>()?;
        if army_province.iter().any(|&p| kind[p] == Kind::Sea)
            || fleet_province.iter().any(|&p| kind[p] == Kind::Land)
        {
            return Err(board_error(
                "an army location at sea or a fleet location inland".into(),
            ));
        }
        let army = adjacency("army", army_csr.0, army_csr.1, army_province.len())?;
        let fleet = adjacency("fleet", fleet_csr.0, fleet_csr.1, fleet_province.len())?;
        let mut homes = vec![Vec::new(); powers];
        let mut builds = vec![Vec::new(); centres.len()];
        for (centre, (&p, h)) in centres.iter().zip(&home).enumerate() {
            let Some(power) = h else { continue };
            homes[usize::from(*power)].push(centre);
            if let Some(a) = army_province.iter().position(|&q| q == p) {
                builds[centre].push(Placement {
                    fleet: false,
                    location: a as u16,
                });
            }
            for (f, &q) in fleet_province.iter().enumerate() {
                if q == p {
                    builds[centre].push(Placement {
                        fleet: true,
                        location: f as u16,
                    });
                }
            }
        }
        if let Some(power) = homes.iter().position(|h| h.len() > MAX_HOMES) {
            return Err(board_error(format!(
                "power {power} has more than {MAX_HOMES} home centres"
            )));
        }
        Ok(Self {
            powers,
            army_distance: distances(&army, &army_province, provinces),
            fleet_distance: distances(&fleet, &fleet_province, provinces),
            kind,
            centre_province: centres,
            home,
            centre_of,
            army_province,
            fleet_province,
            homes,
            builds,
            army_moves: army,
            fleet_moves: fleet,
        })
    }

    pub fn provinces(&self) -> usize {
        self.kind.len()
    }

    pub fn centres(&self) -> usize {
        self.centre_province.len()
    }

    /// The province a unit stands on.
    #[inline]
    pub fn province(&self, fleet: bool, location: u16) -> usize {
        let table = if fleet {
            &self.fleet_province
        } else {
            &self.army_province
        };
        table.get(usize::from(location)).copied().unwrap_or(0)
    }

    /// Moves a unit needs to stand on `province`, capped at [`FAR`].
    #[inline]
    pub fn distance(&self, fleet: bool, location: u16, province: usize) -> u8 {
        let table = if fleet {
            &self.fleet_distance
        } else {
            &self.army_distance
        };
        table
            .get(usize::from(location) * self.provinces() + province)
            .copied()
            .unwrap_or(FAR)
    }
}
