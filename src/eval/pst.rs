//! Piece-square tables (middle game and endgame), written as Red sees the board: the first row
//! of each table is rank 9 (Black's back rank), the last row rank 0 (Red's back rank). Black
//! uses the same tables with the rank mirrored.

use engine_core::{Color, PieceKind, Square};

/// A table laid out as printed: `[row][file]` with row 0 = rank 9.
type Table = [i16; 90];

const GENERAL_MG: Table = [
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, -30, -35, -30, 0, 0, 0, //
    0, 0, 0, -12, -10, -12, 0, 0, 0, //
    0, 0, 0, 2, 10, 2, 0, 0, 0, //
];

const GENERAL_EG: Table = [
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, -8, -4, -8, 0, 0, 0, //
    0, 0, 0, -2, 6, -2, 0, 0, 0, //
    0, 0, 0, -2, 4, -2, 0, 0, 0, //
];

const ADVISOR: Table = [
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, -4, 0, -4, 0, 0, 0, //
    0, 0, 0, 0, 8, 0, 0, 0, 0, //
    0, 0, 0, 2, 0, 2, 0, 0, 0, //
];

const ELEPHANT: Table = [
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, -4, 0, 0, 0, -4, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    -6, 0, 0, 0, 10, 0, 0, 0, -6, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 2, 0, 0, 0, 2, 0, 0, //
];

const HORSE_MG: Table = [
    2, 6, 12, 10, 2, 10, 12, 6, 2, //
    4, 12, 24, 14, 6, 14, 24, 12, 4, //
    10, 14, 18, 22, 16, 22, 18, 14, 10, //
    8, 22, 16, 24, 22, 24, 16, 22, 8, //
    6, 14, 16, 20, 18, 20, 16, 14, 6, //
    4, 10, 14, 12, 14, 12, 14, 10, 4, //
    2, 6, 10, 8, 12, 8, 10, 6, 2, //
    2, 2, 8, 6, 2, 6, 8, 2, 2, //
    -2, 0, 4, 4, -6, 4, 4, 0, -2, //
    -4, -8, 0, -2, -4, -2, 0, -8, -4, //
];

const HORSE_EG: Table = [
    0, 4, 8, 8, 6, 8, 8, 4, 0, //
    4, 8, 14, 16, 14, 16, 14, 8, 4, //
    6, 12, 16, 18, 18, 18, 16, 12, 6, //
    6, 12, 16, 18, 18, 18, 16, 12, 6, //
    4, 10, 14, 16, 16, 16, 14, 10, 4, //
    2, 8, 12, 14, 14, 14, 12, 8, 2, //
    0, 6, 8, 10, 10, 10, 8, 6, 0, //
    -2, 2, 4, 6, 6, 6, 4, 2, -2, //
    -6, -2, 0, 2, 0, 2, 0, -2, -6, //
    -10, -6, -4, -2, -4, -2, -4, -6, -10, //
];

const CHARIOT_MG: Table = [
    8, 10, 8, 14, 14, 14, 8, 10, 8, //
    8, 14, 10, 18, 30, 18, 10, 14, 8, //
    6, 10, 8, 16, 18, 16, 8, 10, 6, //
    8, 14, 12, 16, 18, 16, 12, 14, 8, //
    10, 12, 12, 16, 16, 16, 12, 12, 10, //
    8, 12, 10, 14, 16, 14, 10, 12, 8, //
    2, 8, 4, 12, 14, 12, 4, 8, 2, //
    -4, 6, 2, 10, 10, 10, 2, 6, -4, //
    2, 8, 4, 12, -4, 12, 4, 8, 2, //
    -8, 4, 0, 10, -4, 10, 0, 4, -8, //
];

const CHARIOT_EG: Table = [
    6, 8, 8, 10, 10, 10, 8, 8, 6, //
    8, 10, 10, 12, 14, 12, 10, 10, 8, //
    6, 8, 8, 10, 12, 10, 8, 8, 6, //
    6, 8, 8, 10, 10, 10, 8, 8, 6, //
    4, 6, 6, 8, 8, 8, 6, 6, 4, //
    4, 6, 6, 8, 8, 8, 6, 6, 4, //
    2, 4, 4, 6, 6, 6, 4, 4, 2, //
    0, 2, 2, 4, 4, 4, 2, 2, 0, //
    0, 2, 2, 4, 2, 4, 2, 2, 0, //
    -2, 0, 0, 2, 0, 2, 0, 0, -2, //
];

const CANNON_MG: Table = [
    6, 4, 0, -6, -8, -6, 0, 4, 6, //
    2, 2, 0, -4, -8, -4, 0, 2, 2, //
    2, 2, 0, -6, -2, -6, 0, 2, 2, //
    0, 2, 4, 2, 6, 2, 4, 2, 0, //
    0, 0, 0, 2, 6, 2, 0, 0, 0, //
    -2, 0, 4, 0, 6, 0, 4, 0, -2, //
    0, 0, 0, 2, 4, 2, 0, 0, 0, //
    2, 0, 6, 4, 8, 4, 6, 0, 2, //
    0, 2, 2, 2, 4, 2, 2, 2, 0, //
    0, 0, 2, 4, 4, 4, 2, 0, 0, //
];

const CANNON_EG: Table = [
    0, 0, 0, 2, 4, 2, 0, 0, 0, //
    0, 0, 0, 2, 4, 2, 0, 0, 0, //
    0, 0, 0, 2, 4, 2, 0, 0, 0, //
    0, 0, 0, 2, 4, 2, 0, 0, 0, //
    0, 0, 0, 2, 4, 2, 0, 0, 0, //
    0, 0, 0, 2, 4, 2, 0, 0, 0, //
    0, 0, 0, 2, 4, 2, 0, 0, 0, //
    0, 0, 0, 2, 4, 2, 0, 0, 0, //
    0, 0, 0, 4, 6, 4, 0, 0, 0, //
    0, 0, 0, 6, 8, 6, 0, 0, 0, //
];

const SOLDIER_MG: Table = [
    0, 2, 4, 8, 10, 8, 4, 2, 0, //
    14, 30, 46, 64, 90, 64, 46, 30, 14, //
    12, 24, 38, 54, 66, 54, 38, 24, 12, //
    10, 18, 26, 32, 38, 32, 26, 18, 10, //
    6, 12, 16, 18, 22, 18, 16, 12, 6, //
    0, 0, 6, 0, 10, 0, 6, 0, 0, //
    0, 0, -2, 0, 4, 0, -2, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
];

const SOLDIER_EG: Table = [
    10, 14, 20, 24, 26, 24, 20, 14, 10, //
    40, 50, 60, 70, 80, 70, 60, 50, 40, //
    40, 50, 58, 66, 72, 66, 58, 50, 40, //
    36, 44, 52, 58, 62, 58, 52, 44, 36, //
    30, 36, 42, 46, 50, 46, 42, 36, 30, //
    0, 0, 4, 0, 8, 0, 4, 0, 0, //
    0, 0, 0, 0, 4, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, //
];

/// Middle-game and endgame tables for one kind.
const fn tables(kind: PieceKind) -> (&'static Table, &'static Table) {
    match kind {
        PieceKind::General => (&GENERAL_MG, &GENERAL_EG),
        PieceKind::Advisor => (&ADVISOR, &ADVISOR),
        PieceKind::Elephant => (&ELEPHANT, &ELEPHANT),
        PieceKind::Horse => (&HORSE_MG, &HORSE_EG),
        PieceKind::Chariot => (&CHARIOT_MG, &CHARIOT_EG),
        PieceKind::Cannon => (&CANNON_MG, &CANNON_EG),
        PieceKind::Soldier => (&SOLDIER_MG, &SOLDIER_EG),
    }
}

/// Row of the printed table for a square as seen by `color` (row 0 = the enemy's back rank).
#[inline(always)]
fn table_index(color: Color, sq: Square) -> usize {
    let rel_rank = match color {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    } as usize;
    (9 - rel_rank) * 9 + sq.file() as usize
}

/// `(middle game, endgame)` bonus for a `color` piece of `kind` on `sq`.
#[inline(always)]
pub fn value(color: Color, kind: PieceKind, sq: Square) -> (i32, i32) {
    let (mg, eg) = tables(kind);
    let i = table_index(color, sq);
    (mg[i] as i32, eg[i] as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_mirror_images_for_the_two_colours() {
        for kind in PieceKind::ALL {
            for sq in Square::all() {
                assert_eq!(
                    value(Color::Red, kind, sq),
                    value(Color::Black, kind, sq.flip_rank())
                );
            }
        }
    }

    #[test]
    fn tables_are_left_right_symmetric() {
        for kind in PieceKind::ALL {
            for sq in Square::all() {
                let mirror = Square::new(8 - sq.file(), sq.rank()).unwrap();
                assert_eq!(value(Color::Red, kind, sq), value(Color::Red, kind, mirror));
            }
        }
    }
}
