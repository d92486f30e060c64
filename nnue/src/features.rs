//! Input features: which input of the network a piece on a square switches on.
//!
//! The network is a *perspective* network: it keeps one accumulator per side, and each side sees
//! the board from its own side of the river. For a perspective `p`, a piece contributes the input
//!
//! ```text
//! index = (relation * 7 + kind) * 90 + oriented_square
//! ```
//!
//! where `relation` is 0 for `p`'s own pieces and 1 for the opponent's, `kind` is
//! [`PieceKind::index`] (general 0, advisor 1, elephant 2, horse 3, chariot 4, cannon 5,
//! soldier 6), and `oriented_square` is the square index (`rank * 9 + file`) for Red and the
//! rank-mirrored square (`rank -> 9 - rank`, same file) for Black. So the same arrangement of
//! pieces, seen by the side that owns it, lights the same inputs whichever colour that side is.
//!
//! All 90 squares are indexable for every kind: a composed position with, say, an advisor off
//! its five palace points still maps into range (such inputs simply never fired in training).
//!
//! The functions take the perspective's [`Anchor`] (own general square and attacking material)
//! although [`FeatureSet::PieceSquare`] ignores it: the bucketed sets depend on it, and then a
//! general move or a capture may require a refresh of that perspective
//! ([`FeatureSet::refresh_needed`]).
//!
//! # King buckets with horizontal mirroring ([`FeatureSet::KingBuckets`])
//!
//! After orienting to the perspective (the rank mirror for Black), let `(file, rank)` be the
//! perspective's own general's square. If the general stands right of the centre file
//! (`file > 4`: the f-file in the palace), every square is also file-mirrored (`file -> 8 -
//! file`) for that perspective, so the general is always on the d- or e-file. The bucket is
//!
//! ```text
//! bucket = min(rank, 2) * 2 + (mirrored file == 4 ? 1 : 0)     (0..6: d1 e1 d2 e2 d3 e3)
//! index  = bucket * 1260 + (relation * 7 + kind) * 90 + mirrored oriented square
//! ```
//!
//! A general off the palace (composed positions only) maps to the nearest bucket: ranks above 2
//! count as rank 2, files left of d as d. The perspective's *mapping* (bucket and mirror state,
//! [`FeatureSet::mapping`]) takes 9 values in the palace: d, e and f-file (mirrored d) on three
//! ranks. A move of the own general that changes the mapping needs a refresh.
//!
//! # Attack buckets ([`FeatureSet::AttackBuckets`], [`FeatureSet::KingAttackBuckets`])
//!
//! The perspective's own attacking material picks one of four blocks, as in Pikafish's
//! HalfKAv2_hm: whether it still has a chariot, and whether it still has a horse or a cannon.
//!
//! ```text
//! attack = (own chariots > 0 ? 2 : 0) + (own horses + cannons > 0 ? 1 : 0)   (0..4)
//! index  = (king bucket * 4 + attack) * 1260 + (relation * 7 + kind) * 90 + square
//! ```
//!
//! (the king bucket is 0 and nothing is mirrored for [`FeatureSet::AttackBuckets`]). Material
//! only leaves the board, so the bucket changes only when a capture takes a side's last chariot
//! or its last horse or cannon: that side's perspective is then rebuilt. What a perspective's
//! mapping depends on, its general's square and its attackers, is its [`Anchor`].

use engine_core::{Color, Piece, PieceKind, Position, Square};

/// Piece kinds per side.
const KINDS: usize = 7;
/// Board squares.
const SQUARES: usize = Square::COUNT;
/// The most pieces on a board (16 per side): the most active features per perspective.
pub const MAX_ACTIVE: usize = 32;

/// A feature set: the mapping from (perspective, piece, square) to an input index.
///
/// The numeric id is stored in the net file, so a net trained on one set is never run on another.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FeatureSet {
    /// 2 relations x 7 kinds x 90 squares = 1260 inputs per perspective; Black mirrored by rank.
    PieceSquare,
    /// 6 king buckets (own general's file d/e x palace rank) x 1260 piece-square inputs = 7560
    /// per perspective; Black mirrored by rank, and every file mirrored while the own general
    /// stands on the f-file (see the module docs).
    KingBuckets,
    /// 4 attack buckets (own chariots; own horses and cannons) x 1260 piece-square inputs = 5040
    /// per perspective; Black mirrored by rank.
    AttackBuckets,
    /// 6 king buckets x 4 attack buckets x 1260 = 30240 per perspective, f-file mirrored as
    /// [`FeatureSet::KingBuckets`] (Pikafish's HalfKAv2_hm shape on the xiangqi palace).
    KingAttackBuckets,
}

/// What a perspective's input mapping depends on besides each piece: its own general's square
/// and which attacking pieces it still has.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Anchor {
    /// The perspective's own general.
    pub general: Square,
    /// Its chariots on the board.
    pub chariots: u8,
    /// Its horses and cannons on the board.
    pub minors: u8,
}

impl Anchor {
    /// `side`'s anchor in `pos`.
    pub fn of(pos: &Position, side: Color) -> Anchor {
        let count = |kind| pos.pieces_of(side, kind).count() as u8;
        Anchor {
            general: pos.general_square(side),
            chariots: count(PieceKind::Chariot),
            minors: count(PieceKind::Horse) + count(PieceKind::Cannon),
        }
    }

    /// The anchor with the general on `general` and the full attacking material (two chariots,
    /// four horses and cannons), for callers that only move generals.
    pub const fn with_general(general: Square) -> Anchor {
        Anchor {
            general,
            chariots: 2,
            minors: 4,
        }
    }

    /// The anchor after the side lost `kind` to a capture.
    #[inline(always)]
    pub fn after_losing(self, kind: PieceKind) -> Anchor {
        let mut anchor = self;
        if let Some(count) = anchor.attackers_of(kind) {
            *count = count.saturating_sub(1);
        }
        anchor
    }

    /// The anchor with one more `kind` of the side counted (a decoder counting a board's pieces).
    #[inline(always)]
    pub fn after_gaining(self, kind: PieceKind) -> Anchor {
        let mut anchor = self;
        if let Some(count) = anchor.attackers_of(kind) {
            *count = count.saturating_add(1);
        }
        anchor
    }

    /// The attacker count `kind` belongs to: chariots, or horses and cannons; none for the other
    /// kinds, which no bucket looks at.
    #[inline(always)]
    fn attackers_of(&mut self, kind: PieceKind) -> Option<&mut u8> {
        match kind {
            PieceKind::Chariot => Some(&mut self.chariots),
            PieceKind::Horse | PieceKind::Cannon => Some(&mut self.minors),
            _ => None,
        }
    }

    /// The attack bucket (0..4): `2 · has a chariot + has a horse or cannon`.
    #[inline(always)]
    pub fn attack_bucket(self) -> usize {
        usize::from(self.chariots > 0) * 2 + usize::from(self.minors > 0)
    }
}

/// King buckets of [`FeatureSet::KingBuckets`].
pub const KING_BUCKETS: usize = 6;
/// Attack buckets of [`FeatureSet::AttackBuckets`] (see [`Anchor::attack_bucket`]).
pub const ATTACK_BUCKETS: usize = 4;
/// Inputs of one block (one king and attack bucket: the piece-square inputs).
const PIECE_SQUARE_INPUTS: usize = 2 * KINDS * SQUARES;
/// Distinct values of [`FeatureSet::mapping`] for any set (king bucket x mirror state x attack
/// bucket).
pub const MAX_MAPPINGS: usize = 2 * KING_BUCKETS * ATTACK_BUCKETS;

/// The king bucket (0..6) and mirror state of the perspective whose own general stands on
/// `oriented_general` (already oriented to the perspective).
#[inline(always)]
fn king_bucket(oriented_general: Square) -> (usize, bool) {
    let file = oriented_general.file();
    let mirror = file > 4;
    let file = if mirror { 8 - file } else { file };
    let rank = usize::from(oriented_general.rank().min(2));
    (rank * 2 + usize::from(file == 4), mirror)
}

impl FeatureSet {
    /// Every feature set this build knows.
    pub const ALL: [FeatureSet; 4] = [
        FeatureSet::PieceSquare,
        FeatureSet::KingBuckets,
        FeatureSet::AttackBuckets,
        FeatureSet::KingAttackBuckets,
    ];

    /// The id written in net files.
    pub const fn id(self) -> u32 {
        match self {
            FeatureSet::PieceSquare => 1,
            FeatureSet::KingBuckets => 2,
            FeatureSet::AttackBuckets => 3,
            FeatureSet::KingAttackBuckets => 4,
        }
    }

    /// King buckets: by how many general squares the set splits its inputs (stored in version-2
    /// net files).
    pub const fn king_buckets(self) -> usize {
        match self {
            FeatureSet::PieceSquare | FeatureSet::AttackBuckets => 1,
            FeatureSet::KingBuckets | FeatureSet::KingAttackBuckets => KING_BUCKETS,
        }
    }

    /// Attack buckets: by how many states of the own attacking material the set splits its
    /// inputs (1 or [`ATTACK_BUCKETS`]; a flag of version-2 net files).
    pub const fn attack_buckets(self) -> usize {
        match self {
            FeatureSet::PieceSquare | FeatureSet::KingBuckets => 1,
            FeatureSet::AttackBuckets | FeatureSet::KingAttackBuckets => ATTACK_BUCKETS,
        }
    }

    /// Copies of the 1260 piece-square inputs: king buckets x attack buckets.
    pub const fn blocks(self) -> usize {
        self.king_buckets() * self.attack_buckets()
    }

    /// Whether the set mirrors the files while the own general stands right of the centre
    /// (stored in version-2 net files).
    pub const fn mirrored(self) -> bool {
        self.king_buckets() > 1
    }

    /// The block (`king bucket * attack buckets + attack bucket`) and mirror state of
    /// `perspective` with `anchor`.
    #[inline(always)]
    fn block(self, perspective: Color, anchor: Anchor) -> (usize, bool) {
        let (king, mirror) = if self.king_buckets() > 1 {
            king_bucket(orient(perspective, anchor.general))
        } else {
            (0, false)
        };
        let attack = if self.attack_buckets() > 1 {
            anchor.attack_bucket()
        } else {
            0
        };
        (king * self.attack_buckets() + attack, mirror)
    }

    /// The input mapping `perspective` uses with `anchor`: a number in `0..MAX_MAPPINGS` that is
    /// equal for two anchors exactly when every piece maps to the same input under both
    /// (`block * 2 + mirrored`; always 0 for [`FeatureSet::PieceSquare`]). Accumulator caches
    /// are kept per mapping.
    #[inline(always)]
    pub fn mapping(self, perspective: Color, anchor: Anchor) -> usize {
        let (block, mirror) = self.block(perspective, anchor);
        block * 2 + usize::from(mirror)
    }

    /// The feature set with this file id, if this build knows it.
    pub fn from_id(id: u32) -> Option<FeatureSet> {
        FeatureSet::ALL.into_iter().find(|f| f.id() == id)
    }

    /// A short human-readable name.
    pub const fn name(self) -> &'static str {
        match self {
            FeatureSet::PieceSquare => "piece-square 2x7x90",
            FeatureSet::KingBuckets => "king-bucket 6x2x7x90, f-file mirrored",
            FeatureSet::AttackBuckets => "attack-bucket 4x2x7x90",
            FeatureSet::KingAttackBuckets => "king-attack-bucket 6x4x2x7x90, f-file mirrored",
        }
    }

    /// Number of inputs per perspective.
    pub const fn inputs(self) -> usize {
        self.blocks() * PIECE_SQUARE_INPUTS
    }

    /// The input that `piece` on `sq` switches on for `perspective`, whose own general and
    /// attacking material are `anchor`. Always `< self.inputs()`.
    #[inline(always)]
    pub fn index(self, perspective: Color, anchor: Anchor, piece: Piece, sq: Square) -> usize {
        self.input_map(perspective, anchor).index(piece, sq)
    }

    /// `perspective`'s mapping with `anchor`, resolved once for indexing many pieces.
    #[inline(always)]
    pub fn input_map(self, perspective: Color, anchor: Anchor) -> InputMap {
        let (block, mirror) = self.block(perspective, anchor);
        InputMap {
            perspective,
            base: block * PIECE_SQUARE_INPUTS,
            mirror,
        }
    }

    /// Whether `perspective`'s anchor changing from `before` to `after` (its general moved, or
    /// it lost a piece) changes its mapping, so that its accumulator must be rebuilt instead of
    /// updated.
    #[inline(always)]
    pub fn refresh_needed(self, perspective: Color, before: Anchor, after: Anchor) -> bool {
        self.mapping(perspective, before) != self.mapping(perspective, after)
    }

    /// Every input active in `pos` for `perspective`, in square order.
    pub fn active(self, pos: &Position, perspective: Color) -> arrayvec::ArrayVec<u16, MAX_ACTIVE> {
        let map = self.input_map(perspective, Anchor::of(pos, perspective));
        let mut out = arrayvec::ArrayVec::new();
        for sq in pos.occupied() {
            if let Some(piece) = pos.piece_at(sq) {
                // The index is below the set's input count (at most 30240), so it fits a u16.
                out.push(map.index(piece, sq) as u16);
            }
        }
        out
    }
}

/// One perspective's input mapping resolved from its anchor ([`FeatureSet::input_map`]): then
/// each piece's input is a few additions, with nothing left to decide per piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct InputMap {
    perspective: Color,
    /// The first input of the block the anchor selects.
    base: usize,
    /// Whether files are mirrored.
    mirror: bool,
}

impl InputMap {
    /// The input that `piece` on `sq` switches on.
    #[inline(always)]
    pub fn index(self, piece: Piece, sq: Square) -> usize {
        let relation = usize::from(piece.color() != self.perspective);
        let plane = (relation * KINDS + piece.kind().index()) * SQUARES;
        let sq = orient(self.perspective, sq);
        let sq = if self.mirror { sq.flip_file() } else { sq };
        self.base + plane + sq.index()
    }
}

/// The square as seen from `perspective`'s side of the board: unchanged for Red, rank-mirrored for
/// Black (same file), so each side sees its own pieces at the bottom.
#[inline(always)]
pub fn orient(perspective: Color, sq: Square) -> Square {
    match perspective {
        Color::Red => sq,
        Color::Black => sq.flip_rank(),
    }
}

/// How the output layer is chosen: one output per bucket, picked from the position.
///
/// Material buckets let the net weigh its hidden features differently in the middle game and the
/// endgame. The id is stored in the net file: 0 [`Single`](OutputBuckets::Single), 1
/// [`PieceCount`](OutputBuckets::PieceCount), 2
/// [`PieceConfiguration`](OutputBuckets::PieceConfiguration).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OutputBuckets {
    /// One output for every position.
    Single,
    /// `n` buckets by the number of pieces on the board other than the generals (0-30):
    /// `bucket = pieces * n / 31`.
    PieceCount(u8),
    /// 16 buckets by both sides' attacking material, as Pikafish picks its layer stacks: each
    /// side's [`Anchor::attack_bucket`] (has a chariot; has a horse or cannon), and
    /// `bucket = 4 * attack(side to move) + attack(opponent)`. Side to move first because the
    /// output layer is evaluated from its point of view.
    PieceConfiguration,
}

/// The most output buckets a net may have.
pub const MAX_OUTPUT_BUCKETS: usize = 16;
/// Pieces other than the two generals in the initial position, plus one (the bucket divisor).
const PIECE_COUNT_SPAN: usize = 31;
/// Buckets of [`OutputBuckets::PieceConfiguration`]: an attack state per side.
pub const PIECE_CONFIGURATION_BUCKETS: usize = ATTACK_BUCKETS * ATTACK_BUCKETS;
const _: () = assert!(PIECE_CONFIGURATION_BUCKETS <= MAX_OUTPUT_BUCKETS);

impl OutputBuckets {
    /// The scheme id written in net files.
    pub const fn id(self) -> u32 {
        match self {
            OutputBuckets::Single => 0,
            OutputBuckets::PieceCount(_) => 1,
            OutputBuckets::PieceConfiguration => 2,
        }
    }

    /// The scheme with this file id and bucket count, if valid.
    pub fn from_id(id: u32, buckets: usize) -> Option<OutputBuckets> {
        match (id, buckets) {
            (0, 1) => Some(OutputBuckets::Single),
            (1, 2..=MAX_OUTPUT_BUCKETS) => Some(OutputBuckets::PieceCount(buckets as u8)),
            (2, PIECE_CONFIGURATION_BUCKETS) => Some(OutputBuckets::PieceConfiguration),
            _ => None,
        }
    }

    /// Number of output buckets.
    pub const fn count(self) -> usize {
        match self {
            OutputBuckets::Single => 1,
            OutputBuckets::PieceCount(n) => n as usize,
            OutputBuckets::PieceConfiguration => PIECE_CONFIGURATION_BUCKETS,
        }
    }

    /// The bucket for `pos` (always `< self.count()`).
    #[inline(always)]
    pub fn bucket(self, pos: &Position) -> usize {
        match self {
            OutputBuckets::Single => 0,
            OutputBuckets::PieceCount(n) => {
                let pieces = (pos.occupied().count() as usize).saturating_sub(2);
                (pieces.min(PIECE_COUNT_SPAN - 1) * n as usize) / PIECE_COUNT_SPAN
            }
            OutputBuckets::PieceConfiguration => {
                // Anchor::of is a few bitboard popcounts: no loop over squares.
                let stm = pos.side_to_move();
                let attack = |side| Anchor::of(pos, side).attack_bucket();
                ATTACK_BUCKETS * attack(stm) + attack(stm.opponent())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::{PieceKind, START_FEN};

    #[test]
    fn indices_are_in_range_and_distinct_per_perspective() {
        let pos = Position::from_fen(START_FEN).unwrap();
        for p in Color::BOTH {
            let mut active = FeatureSet::PieceSquare.active(&pos, p).to_vec();
            assert_eq!(active.len(), 32);
            assert!(active.iter().all(|&i| (i as usize) < 1260));
            active.sort_unstable();
            active.dedup();
            assert_eq!(active.len(), 32);
        }
    }

    #[test]
    fn the_start_position_looks_the_same_from_both_sides() {
        let pos = Position::from_fen(START_FEN).unwrap();
        let mut red = FeatureSet::PieceSquare.active(&pos, Color::Red).to_vec();
        let mut black = FeatureSet::PieceSquare.active(&pos, Color::Black).to_vec();
        red.sort_unstable();
        black.sort_unstable();
        assert_eq!(red, black);
    }

    #[test]
    fn colour_flip_maps_each_input_to_its_mirror() {
        let set = FeatureSet::PieceSquare;
        let g = Square::new(4, 0).unwrap();
        for sq in Square::all() {
            for kind in PieceKind::ALL {
                for color in Color::BOTH {
                    let piece = Piece::new(color, kind);
                    let mirrored = Piece::new(color.opponent(), kind);
                    assert_eq!(
                        set.index(Color::Red, Anchor::with_general(g), piece, sq),
                        set.index(
                            Color::Black,
                            Anchor::with_general(g.flip_rank()),
                            mirrored,
                            sq.flip_rank()
                        )
                    );
                }
            }
        }
    }

    #[test]
    fn own_and_enemy_pieces_use_separate_halves() {
        let set = FeatureSet::PieceSquare;
        let g = Square::new(4, 0).unwrap();
        let sq = Square::new(0, 0).unwrap();
        let own = set.index(
            Color::Red,
            Anchor::with_general(g),
            Piece::new(Color::Red, PieceKind::Chariot),
            sq,
        );
        let theirs = set.index(
            Color::Red,
            Anchor::with_general(g),
            Piece::new(Color::Black, PieceKind::Chariot),
            sq,
        );
        assert!(own < 630 && theirs >= 630);
        assert_eq!(own, 4 * 90);
    }

    #[test]
    fn piece_count_buckets_cover_the_range() {
        let b = OutputBuckets::PieceCount(8);
        let start = Position::from_fen(START_FEN).unwrap();
        assert_eq!(b.bucket(&start), 7);
        let bare = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
        assert_eq!(b.bucket(&bare), 0);
        assert_eq!(OutputBuckets::from_id(1, 8), Some(b));
        assert_eq!(OutputBuckets::from_id(0, 1), Some(OutputBuckets::Single));
        assert_eq!(OutputBuckets::from_id(0, 2), None);
    }

    #[test]
    fn piece_configuration_buckets_follow_both_sides_attackers() {
        let b = OutputBuckets::PieceConfiguration;
        assert_eq!(b.count(), 16);
        assert_eq!(b.id(), 2);
        assert_eq!(OutputBuckets::from_id(2, 16), Some(b));
        for bad in [0, 1, 8, 15, 17] {
            assert_eq!(OutputBuckets::from_id(2, bad), None, "{bad} buckets");
        }
        // Both sides have everything.
        let start = Position::from_fen(START_FEN).unwrap();
        assert_eq!(b.bucket(&start), 15);
        // Bare generals.
        let bare = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
        assert_eq!(b.bucket(&bare), 0);
        // Red to move with only a chariot (plus an advisor, which no bucket counts), Black with
        // only a horse: 4 * 2 + 1.
        let red_chariot = "3k5/9/9/9/9/4n4/9/9/4A4/R3K4";
        let red = Position::from_fen(&format!("{red_chariot} w - - 0 1")).unwrap();
        assert_eq!(b.bucket(&red), 9);
        // The same board with Black to move swaps the halves: 4 * 1 + 2.
        let black = Position::from_fen(&format!("{red_chariot} b - - 0 1")).unwrap();
        assert_eq!(b.bucket(&black), 6);
        // A cannon counts as a horse does.
        let cannon = Position::from_fen("3k5/9/9/9/9/4c4/9/9/9/R3K4 b - - 0 1").unwrap();
        assert_eq!(b.bucket(&cannon), 6);
    }

    fn sq(file: u8, rank: u8) -> Square {
        Square::new(file, rank).unwrap()
    }

    #[test]
    fn king_buckets_follow_the_own_general_with_the_f_file_mirrored() {
        let set = FeatureSet::KingBuckets;
        assert_eq!(set.inputs(), 7560);
        let chariot = Piece::new(Color::Red, PieceKind::Chariot);
        // Red: d1 bucket 0, e1 bucket 1, f1 mirrored to d1; ranks 2 and 3 above.
        for (general, bucket, mirrored) in [
            (sq(3, 0), 0, false),
            (sq(4, 0), 1, false),
            (sq(5, 0), 0, true),
            (sq(3, 1), 2, false),
            (sq(4, 1), 3, false),
            (sq(5, 2), 4, true),
            (sq(4, 2), 5, false),
        ] {
            let a1 = set.index(Color::Red, Anchor::with_general(general), chariot, sq(0, 0));
            let file = if mirrored { 8 } else { 0 };
            assert_eq!(a1, bucket * 1260 + 4 * 90 + file, "{general}");
            assert_eq!(
                set.mapping(Color::Red, Anchor::with_general(general)),
                bucket * 2 + usize::from(mirrored)
            );
        }
        // Black sees its palace at the bottom: its general on f10 is rank 0, mirrored to d.
        let black_chariot = Piece::new(Color::Black, PieceKind::Chariot);
        assert_eq!(
            set.index(
                Color::Black,
                Anchor::with_general(sq(5, 9)),
                black_chariot,
                sq(0, 9)
            ),
            4 * 90 + 8
        );
        // Off the palace (composed positions): the nearest bucket, always in range.
        for general in Square::all() {
            for p in Color::BOTH {
                for target in Square::all() {
                    assert!(
                        set.index(p, Anchor::with_general(general), chariot, target) < set.inputs()
                    );
                }
                assert!(set.mapping(p, Anchor::with_general(general)) < MAX_MAPPINGS);
            }
        }
    }

    #[test]
    fn king_bucket_refreshes_exactly_when_the_mapping_changes() {
        let set = FeatureSet::KingBuckets;
        let palace: Vec<Square> = (3..6).flat_map(|f| (0..3).map(move |r| sq(f, r))).collect();
        let mut mappings: Vec<usize> = palace
            .iter()
            .map(|&g| set.mapping(Color::Red, Anchor::with_general(g)))
            .collect();
        mappings.sort_unstable();
        mappings.dedup();
        assert_eq!(mappings.len(), 9, "nine palace points, nine mappings");
        for &from in &palace {
            for &to in &palace {
                let (af, at) = (Anchor::with_general(from), Anchor::with_general(to));
                assert_eq!(set.refresh_needed(Color::Red, af, at), from != to);
                let (bf, bt) = (
                    Anchor::with_general(from.flip_rank()),
                    Anchor::with_general(to.flip_rank()),
                );
                assert_eq!(set.refresh_needed(Color::Black, bf, bt), from != to);
                assert!(!FeatureSet::PieceSquare.refresh_needed(Color::Red, af, at));
            }
        }
    }

    #[test]
    fn king_buckets_colour_flip_and_file_mirror() {
        let set = FeatureSet::KingBuckets;
        for g in [sq(3, 0), sq(4, 1), sq(5, 2)] {
            for target in Square::all() {
                for kind in PieceKind::ALL {
                    for color in Color::BOTH {
                        let piece = Piece::new(color, kind);
                        let flipped = Piece::new(color.opponent(), kind);
                        let i = set.index(Color::Red, Anchor::with_general(g), piece, target);
                        assert_eq!(
                            i,
                            set.index(
                                Color::Black,
                                Anchor::with_general(g.flip_rank()),
                                flipped,
                                target.flip_rank()
                            )
                        );
                        let mirrored = set.index(
                            Color::Red,
                            Anchor::with_general(g.flip_file()),
                            piece,
                            target.flip_file(),
                        );
                        if g.file() == 4 {
                            // On the e-file nothing is mirrored: the mirror image lights the
                            // file-mirrored input of the same bucket.
                            assert_eq!(
                                mirrored,
                                set.index(
                                    Color::Red,
                                    Anchor::with_general(g),
                                    piece,
                                    target.flip_file()
                                )
                            );
                        } else {
                            // d and f: one of the two is mirrored, so both light the same input.
                            assert_eq!(mirrored, i);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn attack_buckets_follow_the_own_chariots_horses_and_cannons() {
        let g = sq(4, 0);
        let chariot = Piece::new(Color::Red, PieceKind::Chariot);
        let anchor = |chariots, minors| Anchor {
            general: g,
            chariots,
            minors,
        };
        for (chariots, minors, attack) in [(2, 4, 3), (1, 0, 2), (0, 3, 1), (0, 0, 0)] {
            let a = anchor(chariots, minors);
            assert_eq!(a.attack_bucket(), attack);
            let set = FeatureSet::AttackBuckets;
            assert_eq!(set.inputs(), 5040);
            assert_eq!(
                set.index(Color::Red, a, chariot, sq(0, 0)),
                attack * 1260 + 4 * 90
            );
            assert_eq!(set.mapping(Color::Red, a), attack * 2);
            // Combined with king buckets: e1 is king bucket 1; the f-file general mirrors.
            let set = FeatureSet::KingAttackBuckets;
            assert_eq!(set.inputs(), 30240);
            let block = 4 + attack;
            assert_eq!(
                set.index(Color::Red, a, chariot, sq(0, 0)),
                block * 1260 + 4 * 90
            );
            let f1 = Anchor {
                general: sq(5, 0),
                ..a
            };
            assert_eq!(
                set.index(Color::Red, f1, chariot, sq(0, 0)),
                attack * 1260 + 4 * 90 + 8
            );
            assert_eq!(set.mapping(Color::Red, f1), attack * 2 + 1);
        }
        // Losing pieces: only the last chariot, or the last horse or cannon, changes the bucket.
        let full = anchor(2, 4);
        let set = FeatureSet::AttackBuckets;
        let one_chariot = full.after_losing(PieceKind::Chariot);
        assert!(!set.refresh_needed(Color::Red, full, one_chariot));
        assert!(set.refresh_needed(
            Color::Red,
            one_chariot,
            one_chariot.after_losing(PieceKind::Chariot)
        ));
        let last_minor = anchor(2, 1);
        for kind in [PieceKind::Horse, PieceKind::Cannon] {
            assert!(set.refresh_needed(Color::Red, last_minor, last_minor.after_losing(kind)));
        }
        for kind in [PieceKind::Advisor, PieceKind::Elephant, PieceKind::Soldier] {
            assert_eq!(anchor(0, 0).after_losing(kind), anchor(0, 0));
            assert_eq!(anchor(0, 0).after_gaining(kind), anchor(0, 0));
        }
        // Counting a board's pieces from an empty anchor gives the position's anchor.
        let pos = Position::from_fen(engine_core::START_FEN).unwrap();
        for side in Color::BOTH {
            let counted = pos
                .occupied()
                .filter_map(|sq| pos.piece_at(sq))
                .filter(|piece| piece.color() == side)
                .fold(
                    Anchor {
                        general: pos.general_square(side),
                        chariots: 0,
                        minors: 0,
                    },
                    |a, piece| a.after_gaining(piece.kind()),
                );
            assert_eq!(counted, Anchor::of(&pos, side));
        }
        assert!(!FeatureSet::KingBuckets.refresh_needed(
            Color::Red,
            one_chariot,
            one_chariot.after_losing(PieceKind::Chariot)
        ));
    }

    #[test]
    fn anchors_light_the_same_inputs_exactly_when_their_mappings_are_equal() {
        let piece = Piece::new(Color::Black, PieceKind::Horse);
        for set in FeatureSet::ALL {
            for p in Color::BOTH {
                let mut inputs_of = std::collections::HashMap::new();
                for general in Square::all() {
                    for chariots in 0..3 {
                        for minors in 0..5 {
                            let a = Anchor {
                                general,
                                chariots,
                                minors,
                            };
                            let m = set.mapping(p, a);
                            assert!(m < MAX_MAPPINGS, "{set:?}");
                            let inputs: Vec<usize> = Square::all()
                                .map(|target| set.index(p, a, piece, target))
                                .collect();
                            assert!(inputs.iter().all(|&i| i < set.inputs()));
                            let first = inputs_of.entry(m).or_insert_with(|| inputs.clone());
                            assert_eq!(*first, inputs, "{set:?} {a:?}");
                        }
                    }
                }
                let distinct: std::collections::HashSet<_> = inputs_of.values().collect();
                assert_eq!(distinct.len(), inputs_of.len(), "{set:?}");
                // d, e and the mirrored f-file on three ranks; times the attack buckets.
                let king_mappings = if set.king_buckets() > 1 { 9 } else { 1 };
                assert_eq!(
                    inputs_of.len(),
                    king_mappings * set.attack_buckets(),
                    "{set:?}"
                );
            }
        }
    }
}
