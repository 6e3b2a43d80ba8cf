//! Wings: serate's XY-Wing (4.2) and XYZ-Wing (4.4).

use super::grid::{bits, Grid, PEERS};
use super::{Hint, Technique};

/// First XY-Wing (`xyz` false) or XYZ-Wing, pivot cells in row-major order,
/// then wing cells among the pivot's peers in row-major order.
pub(crate) fn xy_wing(g: &Grid, xyz: bool) -> Option<Hint> {
    let target = if xyz { 3 } else { 2 };
    for pivot in bits(g.empty) {
        let xy = g.cells[pivot];
        if xy.count_ones() != target {
            continue;
        }
        for xz_cell in bits(PEERS[pivot]) {
            let xz = g.cells[xz_cell];
            if xz.count_ones() != 2 || (xy & !xz).count_ones() != 1 {
                continue;
            }
            for yz_cell in bits(PEERS[pivot]) {
                let yz = g.cells[yz_cell];
                if yz.count_ones() != 2 || (xy | xz | yz).count_ones() != 3 {
                    continue;
                }
                let common = (xy & xz & yz).count_ones();
                if common != if xyz { 1 } else { 0 } {
                    continue;
                }
                let z = (xz & yz).trailing_zeros() as usize + 1;
                let mut victims = PEERS[xz_cell] & PEERS[yz_cell];
                if xyz {
                    victims &= PEERS[pivot];
                }
                victims &= !(1u128 << pivot | 1u128 << xz_cell | 1u128 << yz_cell);
                let e = g.pos(z, victims);
                if e != 0 {
                    let tech = if xyz {
                        Technique::XYZWing
                    } else {
                        Technique::XYWing
                    };
                    let mut h = Hint::new(tech, if xyz { 44 } else { 42 });
                    h.elim[z - 1] = e;
                    return Some(h);
                }
            }
        }
    }
    None
}
