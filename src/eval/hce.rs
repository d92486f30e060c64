//! The handcrafted evaluation: tapered material + piece-square tables, mobility, palace safety,
//! cannon screens, horse legs and crossed soldiers.
//!
//! Every term is computed for both colours from that colour's point of view and summed as
//! `Red - Black`; the result is tapered between middle game and endgame by the remaining
//! attacking material and returned from the side to move's point of view.

use super::pst;
use engine_core::{chariot_attacks, horse_moves, Bitboard, Color, PieceKind, Position, Square};

/// Material `(middle game, endgame)` per kind, in internal units.
pub const MATERIAL: [(i32, i32); 7] = [
    (0, 0),     // general
    (120, 140), // advisor
    (120, 140), // elephant
    (400, 440), // horse
    (900, 960), // chariot
    (440, 410), // cannon
    (60, 110),  // soldier (crossing the river adds its table bonus)
];

/// Phase weight per kind: the game is a "full middle game" at [`MAX_PHASE`].
const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];
/// Phase of the starting position: 2 chariots, 2 horses, 2 cannons per side.
const MAX_PHASE: i32 = 2 * (2 * 4 + 2 * 2 + 2 * 2);

/// Bonus per square a chariot attacks (mg, eg).
const CHARIOT_MOBILITY: (i32, i32) = (3, 4);
/// Bonus per square a horse can step to (legs respected) (mg, eg).
const HORSE_MOBILITY: (i32, i32) = (6, 6);
/// Bonus per quiet square a cannon can slide to (mg, eg).
const CANNON_MOBILITY: (i32, i32) = (2, 1);
/// Extra penalty for a horse hobbled down to this many moves or fewer.
const HOBBLED_HORSE_MOVES: u32 = 1;
/// Penalty for a hobbled horse (mg, eg).
const HOBBLED_HORSE_PENALTY: (i32, i32) = (18, 12);
/// Penalty per blocked horse leg (a piece on the orthogonal step), (mg, eg).
const BLOCKED_LEG_PENALTY: (i32, i32) = (4, 2);

/// Cannon on the enemy general's file with nothing between ("empty-head cannon") (mg, eg).
const EMPTY_HEAD_CANNON: (i32, i32) = (70, 20);
/// Cannon on the enemy general's file with exactly two pieces between (a loaded screen) (mg, eg).
const LOADED_CANNON: (i32, i32) = (18, 6);
/// Cannon behind one of its own pieces on the enemy general's file (a discovered threat).
const SCREENED_CANNON: (i32, i32) = (12, 4);

/// Penalty per missing advisor when the enemy still has attacking pieces (mg).
const MISSING_ADVISOR: i32 = 18;
/// Penalty per missing elephant when the enemy still has attacking pieces (mg).
const MISSING_ELEPHANT: i32 = 12;
/// Penalty by number of enemy attacking pieces in or next to our palace zone.
const PALACE_PRESSURE: [i32; 8] = [0, 4, 24, 60, 110, 160, 200, 240];
/// Penalty when our general's file is open towards an enemy chariot (mg).
const OPEN_GENERAL_FILE: i32 = 30;

/// Bonus for two crossed soldiers side by side (mg, eg).
const LINKED_SOLDIERS: (i32, i32) = (8, 16);
/// Endgame bonus per rank of closeness of a crossed soldier to the enemy general.
const SOLDIER_NEAR_GENERAL_EG: i32 = 6;

/// Bonus for the side to move.
const TEMPO: i32 = 10;

/// Middle-game/endgame pair accumulated per colour.
#[derive(Copy, Clone, Default, Debug)]
struct Score {
    mg: i32,
    eg: i32,
}

impl Score {
    #[inline(always)]
    fn add(&mut self, (mg, eg): (i32, i32)) {
        self.mg += mg;
        self.eg += eg;
    }

    #[inline(always)]
    fn add_scaled(&mut self, (mg, eg): (i32, i32), n: i32) {
        self.mg += mg * n;
        self.eg += eg * n;
    }

    #[inline(always)]
    fn sub(&mut self, (mg, eg): (i32, i32)) {
        self.mg -= mg;
        self.eg -= eg;
    }
}

/// Per-term totals for one colour: summed by `evaluate`, shown term by term by `explain`.
#[derive(Default, Debug)]
struct Terms {
    material_pst: Score,
    mobility: Score,
    horse_legs: Score,
    cannon_screens: Score,
    palace_safety: Score,
    soldiers: Score,
}

impl Terms {
    fn total(&self) -> Score {
        let parts = [
            self.material_pst,
            self.mobility,
            self.horse_legs,
            self.cannon_screens,
            self.palace_safety,
            self.soldiers,
        ];
        let mut t = Score::default();
        for p in parts {
            t.mg += p.mg;
            t.eg += p.eg;
        }
        t
    }
}

/// Whether `sq` lies on `color`'s own half of the board.
#[inline(always)]
fn own_half(color: Color, sq: Square) -> bool {
    match color {
        Color::Red => sq.rank() <= 4,
        Color::Black => sq.rank() >= 5,
    }
}

/// Ranks 0..=3 from `color`'s back rank, files d..f widened by one: where attackers hurt.
fn palace_zone(color: Color) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    for rank in 0..=3u8 {
        for file in 2..=6u8 {
            let r = match color {
                Color::Red => rank,
                Color::Black => 9 - rank,
            };
            if let Some(sq) = Square::new(file, r) {
                bb.insert(sq);
            }
        }
    }
    bb
}

/// The orthogonal leg squares of a horse, per square (computed once).
fn horse_leg_mask(sq: Square) -> Bitboard {
    static LEGS: once_cell::sync::Lazy<[Bitboard; 90]> = once_cell::sync::Lazy::new(|| {
        let mut t = [Bitboard::EMPTY; 90];
        for sq in Square::all() {
            for (df, dr) in [(0i8, 1i8), (0, -1), (1, 0), (-1, 0)] {
                if let Some(l) = sq.offset(df, dr) {
                    t[sq.index()].insert(l);
                }
            }
        }
        t
    });
    LEGS[sq.index()]
}

/// Evaluates all terms for `us`.
fn terms_for(pos: &Position, us: Color, zones: &[Bitboard; 2]) -> Terms {
    let them = us.opponent();
    let occ = pos.occupied();
    let own = pos.pieces(us);
    let mut t = Terms::default();
    let enemy_general = pos.general_square(them);
    let enemy_general_file = enemy_general.file();

    for kind in PieceKind::ALL {
        for sq in pos.pieces_of(us, kind) {
            t.material_pst.add(MATERIAL[kind.index()]);
            t.material_pst.add(pst::value(us, kind, sq));
            match kind {
                PieceKind::Chariot => {
                    let att = chariot_attacks(sq, occ, pos.file_occupancy(sq.file()));
                    t.mobility
                        .add_scaled(CHARIOT_MOBILITY, att.without(own).count() as i32);
                }
                PieceKind::Horse => {
                    let moves = horse_moves(sq, occ).without(own).count();
                    t.mobility.add_scaled(HORSE_MOBILITY, moves as i32);
                    if moves <= HOBBLED_HORSE_MOVES {
                        t.horse_legs.sub(HOBBLED_HORSE_PENALTY);
                    }
                    let blocked = (horse_leg_mask(sq) & occ).count() as i32;
                    t.horse_legs.add_scaled(BLOCKED_LEG_PENALTY, -blocked);
                }
                PieceKind::Cannon => {
                    let quiet = chariot_attacks(sq, occ, pos.file_occupancy(sq.file()))
                        .without(occ)
                        .count();
                    t.mobility.add_scaled(CANNON_MOBILITY, quiet as i32);
                    if sq.file() == enemy_general_file {
                        let between = between_on_file(pos, sq, enemy_general);
                        match between.count_ones() {
                            0 => t.cannon_screens.add(EMPTY_HEAD_CANNON),
                            // A single screen means check (handled by the search), but an own
                            // screen is a discovered threat worth keeping.
                            1 if Square::new(sq.file(), between.trailing_zeros() as u8)
                                .is_some_and(|s| own.contains(s)) =>
                            {
                                t.cannon_screens.add(SCREENED_CANNON)
                            }
                            2 => t.cannon_screens.add(LOADED_CANNON),
                            _ => {}
                        }
                    }
                }
                PieceKind::Soldier if !own_half(us, sq) => {
                    let right = sq.offset(1, 0);
                    if let Some(r) = right {
                        if pos.pieces_of(us, PieceKind::Soldier).contains(r) {
                            t.soldiers.add(LINKED_SOLDIERS);
                        }
                    }
                    let dist = (sq.rank() as i32 - enemy_general.rank() as i32).abs()
                        + (sq.file() as i32 - enemy_general_file as i32).abs();
                    t.soldiers.eg += SOLDIER_NEAR_GENERAL_EG * (8 - dist).max(0);
                }
                _ => {}
            }
        }
    }

    // Palace safety: what the enemy can bring against our general.
    let enemy_attackers = pos.pieces_of(them, PieceKind::Chariot)
        | pos.pieces_of(them, PieceKind::Horse)
        | pos.pieces_of(them, PieceKind::Cannon);
    if enemy_attackers.any() {
        let advisors = pos.pieces_of(us, PieceKind::Advisor).count() as i32;
        let elephants = pos.pieces_of(us, PieceKind::Elephant).count() as i32;
        t.palace_safety.mg -= (2 - advisors).max(0) * MISSING_ADVISOR;
        t.palace_safety.mg -= (2 - elephants).max(0) * MISSING_ELEPHANT;
        let crossed_soldiers = pos.pieces_of(them, PieceKind::Soldier) & zones[us.index()];
        let near =
            ((enemy_attackers & zones[us.index()]).count() + crossed_soldiers.count()) as usize;
        let pressure = PALACE_PRESSURE[near.min(PALACE_PRESSURE.len() - 1)];
        t.palace_safety.mg -= pressure;
        t.palace_safety.eg -= pressure / 2;
        let gsq = pos.general_square(us);
        let file_chariots = pos.pieces_of(them, PieceKind::Chariot)
            & chariot_attacks(gsq, occ, pos.file_occupancy(gsq.file()));
        if file_chariots.any() {
            t.palace_safety.mg -= OPEN_GENERAL_FILE;
        }
    }
    t
}

/// Occupancy bits (bit = rank) strictly between `a` and `b`, which share a file.
#[inline(always)]
fn between_on_file(pos: &Position, a: Square, b: Square) -> u16 {
    let (lo, hi) = if a.rank() < b.rank() {
        (a.rank(), b.rank())
    } else {
        (b.rank(), a.rank())
    };
    let mask = ((1u16 << hi) - 1) & !((1u16 << (lo + 1)) - 1);
    pos.file_occupancy(a.file()) & mask
}

/// Game phase in `0..=MAX_PHASE` from the attacking material left.
fn phase(pos: &Position) -> i32 {
    let mut p = 0;
    for kind in [PieceKind::Horse, PieceKind::Chariot, PieceKind::Cannon] {
        p += pos.pieces_of_kind(kind).count() as i32 * PHASE_WEIGHT[kind.index()];
    }
    p.min(MAX_PHASE)
}

/// Tapers a middle-game/endgame pair by `phase`.
#[inline(always)]
fn taper(s: Score, phase: i32) -> i32 {
    (s.mg * phase + s.eg * (MAX_PHASE - phase)) / MAX_PHASE
}

/// Both palace zones, indexed by colour (computed once).
fn zones() -> &'static [Bitboard; 2] {
    static ZONES: once_cell::sync::Lazy<[Bitboard; 2]> =
        once_cell::sync::Lazy::new(|| [palace_zone(Color::Red), palace_zone(Color::Black)]);
    &ZONES
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let z = zones();
    let red = terms_for(pos, Color::Red, z).total();
    let black = terms_for(pos, Color::Black, z).total();
    let diff = Score {
        mg: red.mg - black.mg,
        eg: red.eg - black.eg,
    };
    let red_pov = taper(diff, phase(pos));
    let stm = match pos.side_to_move() {
        Color::Red => red_pov,
        Color::Black => -red_pov,
    };
    stm + TEMPO
}

/// Human-readable breakdown for the `eval` command.
pub fn explain(pos: &Position) -> String {
    let z = zones();
    let ph = phase(pos);
    let red = terms_for(pos, Color::Red, z);
    let black = terms_for(pos, Color::Black, z);
    let rows: [(&str, Score, Score); 6] = [
        ("material+pst", red.material_pst, black.material_pst),
        ("mobility", red.mobility, black.mobility),
        ("horse legs", red.horse_legs, black.horse_legs),
        ("cannon screens", red.cannon_screens, black.cannon_screens),
        ("palace safety", red.palace_safety, black.palace_safety),
        ("soldiers", red.soldiers, black.soldiers),
    ];
    let mut s = format!("phase {ph}/{MAX_PHASE} (mg weight)\n");
    s.push_str("term            red(mg/eg)   black(mg/eg)   red-black tapered\n");
    for (name, r, b) in rows {
        let d = Score {
            mg: r.mg - b.mg,
            eg: r.eg - b.eg,
        };
        s.push_str(&format!(
            "{name:<15} {:>5}/{:<5}  {:>5}/{:<5}   {:>6}\n",
            r.mg,
            r.eg,
            b.mg,
            b.eg,
            taper(d, ph)
        ));
    }
    s.push_str(&format!(
        "total (side to move, with tempo {TEMPO}): {}",
        evaluate(pos)
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_up_to_tempo() {
        let pos = Position::startpos();
        assert_eq!(evaluate(&pos), TEMPO);
    }

    #[test]
    fn colour_flipped_positions_evaluate_the_same() {
        let fens = [
            (
                "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1",
                "rnbakab1r/9/1c2c1n2/p3p1p1p/2p6/9/P1P1P1P1P/1CN3NC1/9/R1BAKABR1 w - - 0 1",
            ),
            (
                "4k4/9/9/9/2P6/9/9/9/9/3K5 w - - 0 1",
                "3k5/9/9/9/9/2p6/9/9/9/4K4 b - - 0 1",
            ),
        ];
        for (a, b) in fens {
            let pa = Position::from_fen(a).unwrap();
            let pb = Position::from_fen(b).unwrap();
            assert_eq!(evaluate(&pa), evaluate(&pb), "{a} vs {b}");
        }
    }

    #[test]
    fn extra_chariot_is_a_big_advantage() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
        assert!(evaluate(&pos) > 800);
    }
}
