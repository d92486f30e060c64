//! The board drawn as text for people: one renderer, its look chosen by the caller. Every row is
//! a label (a rank number, or blanks) and a space, then the nine points, each two columns wide
//! (a Chinese character, or a letter and a space); the compact layout sets them side by side,
//! the spaced one puts a column before each, which brackets the last move's destination. The
//! river lies between ranks 5 and 4; file letters (ICCS), each side's file numbers, the side to
//! move, ANSI colours and the last move's marks are options.

use crate::{Color, Move, PieceKind, Position, RankBase, Square};
use std::fmt;

/// How pieces are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Symbols {
    /// FEN letters, upper case Red.
    Letters,
    /// Chinese characters in the traditional forms that tell the sides apart without colour
    /// (Red 帥仕相傌俥炮兵, Black 將士象馬車砲卒).
    Chinese,
}

/// How the points of a row are set.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Side by side.
    Compact,
    /// A column before each point (the last move's destination in brackets there).
    Spaced,
}

/// Where the row of file letters stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Edge {
    /// Above the board.
    Top,
    /// Below the board.
    Bottom,
}

/// Red pieces: bold red.
const RED_COLOUR: &str = "\x1b[1;31m";
/// Black pieces: bold blue, the second colour.
const BLACK_COLOUR: &str = "\x1b[1;34m";
/// The last move's destination: reverse video, on top of the piece's colour.
const MARK_COLOUR: &str = "\x1b[7m";
/// Back to the terminal's defaults.
const RESET: &str = "\x1b[0m";
/// Red's file numbers from Red's right (file i) to its left (file a).
const CHINESE_NUMERALS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
/// Points on a rank, ranks on a board.
const FILES: u8 = 9;
const RANKS: u8 = 10;
/// The river lies between this rank and the next one up.
const RIVER_ABOVE_RANK: u8 = 4;

/// A board diagram of a position: [`Diagram::lines`], or `Display` (each line and a newline).
/// The default: letters, compact, Red at the bottom, ranks from 0, file letters at the foot.
#[derive(Clone, Debug)]
pub struct Diagram<'a> {
    pos: &'a Position,
    symbols: Symbols,
    layout: Layout,
    colour: bool,
    last_move: Option<Move>,
    bottom: Color,
    rank_base: RankBase,
    file_letters: Edge,
    file_numbers: bool,
    side_to_move: bool,
}

impl<'a> Diagram<'a> {
    /// The default diagram of `pos`.
    pub fn new(pos: &'a Position) -> Diagram<'a> {
        Diagram {
            pos,
            symbols: Symbols::Letters,
            layout: Layout::Compact,
            colour: false,
            last_move: None,
            bottom: Color::Red,
            rank_base: RankBase::Zero,
            file_letters: Edge::Bottom,
            file_numbers: false,
            side_to_move: false,
        }
    }

    /// Pieces written as `symbols`.
    pub fn symbols(mut self, symbols: Symbols) -> Self {
        self.symbols = symbols;
        self
    }

    /// Points set as `layout`.
    pub fn layout(mut self, layout: Layout) -> Self {
        self.layout = layout;
        self
    }

    /// Pieces in ANSI colours when `colour` (Red red, Black blue).
    pub fn colour(mut self, colour: bool) -> Self {
        self.colour = colour;
        self
    }

    /// `last` marked: its origin as a ring, its destination in brackets (spaced layout) and,
    /// with colours, in reverse video.
    pub fn last_move(mut self, last: Option<Move>) -> Self {
        self.last_move = last;
        self
    }

    /// `side` at the bottom (Black turns the board round).
    pub fn bottom(mut self, side: Color) -> Self {
        self.bottom = side;
        self
    }

    /// Ranks numbered from `base`.
    pub fn rank_base(mut self, base: RankBase) -> Self {
        self.rank_base = base;
        self
    }

    /// The file letters on `edge`.
    pub fn file_letters(mut self, edge: Edge) -> Self {
        self.file_letters = edge;
        self
    }

    /// Each side's file numbers on its own edge, counted from its own right (Red's 九..一 in
    /// Chinese numerals unless in letters, Black's 1..9 in digits, as xiangqi books print them).
    pub fn file_numbers(mut self) -> Self {
        self.file_numbers = true;
        self
    }

    /// A last line naming the side to move.
    pub fn side_to_move(mut self) -> Self {
        self.side_to_move = true;
        self
    }

    /// The diagram's lines, without newlines or trailing blanks.
    pub fn lines(&self) -> Vec<String> {
        let files: Vec<u8> = match self.bottom {
            Color::Red => (0..FILES).collect(),
            Color::Black => (0..FILES).rev().collect(),
        };
        let ranks: Vec<u8> = match self.bottom {
            Color::Red => (0..RANKS).rev().collect(),
            Color::Black => (0..RANKS).collect(),
        };
        let letters = || {
            let cells = files
                .iter()
                .map(|&f| (false, format!("{} ", char::from(b'a' + f))));
            self.row("", cells)
        };
        let numbers = |side: Color| {
            let cells = files.iter().map(|&f| (false, self.file_number(side, f)));
            self.row("", cells)
        };
        let mut lines = Vec::new();
        if self.file_numbers {
            lines.push(numbers(self.bottom.opponent()));
        }
        if self.file_letters == Edge::Top {
            lines.push(letters());
        }
        let destination = self.last_move.map(|m| m.to());
        for (i, &rank) in ranks.iter().enumerate() {
            let cells = files.iter().filter_map(|&file| {
                let sq = Square::new(file, rank)?;
                Some((destination == Some(sq), self.point(sq)))
            });
            let label = (u32::from(rank) + u32::from(self.rank_base.offset())).to_string();
            lines.push(self.row(&label, cells));
            let crosses_river = |n: u8| (rank > RIVER_ABOVE_RANK) != (n > RIVER_ABOVE_RANK);
            if ranks.get(i + 1).copied().is_some_and(crosses_river) {
                lines.push(format!("{}{}", self.indent(), self.river()));
            }
        }
        if self.file_numbers {
            lines.push(numbers(self.bottom));
        }
        if self.file_letters == Edge::Bottom {
            lines.push(letters());
        }
        if self.side_to_move {
            lines.push(format!("{} to move", self.pos.side_to_move().name()));
        }
        lines
    }

    /// Columns of the rank numbers: two when they run to 10.
    fn label_width(&self) -> usize {
        (u32::from(RANKS - 1) + u32::from(self.rank_base.offset()))
            .to_string()
            .len()
    }

    /// The blanks before a row's first point.
    fn indent(&self) -> String {
        " ".repeat(self.label_width() + 2)
    }

    /// The river's text after the indent.
    fn river(&self) -> &'static str {
        match (self.layout, self.symbols) {
            (Layout::Compact, Symbols::Letters) => "~~~~~~~~~~~~~~~~~",
            (Layout::Compact, Symbols::Chinese) => "～～ 楚河  漢界 ～～",
            (Layout::Spaced, Symbols::Letters) => "~~~~~~~~~~~~~~~~~~~~~~~~~~",
            (Layout::Spaced, Symbols::Chinese) => "   楚  河          漢  界",
        }
    }

    /// A row: `label` right-aligned, a space, then the cells (each marked when it is the last
    /// move's destination), trailing blanks cut.
    fn row(&self, label: &str, cells: impl Iterator<Item = (bool, String)>) -> String {
        let mut line = format!("{label:>width$} ", width = self.label_width());
        let mut after_mark = false;
        for (i, (marked, text)) in cells.enumerate() {
            match self.layout {
                Layout::Spaced => line.push(match (marked, after_mark) {
                    (true, _) => '[',
                    (false, true) => ']',
                    (false, false) => ' ',
                }),
                Layout::Compact if i == 0 => line.push(' '),
                Layout::Compact => {}
            }
            line.push_str(&text);
            after_mark = marked;
        }
        if after_mark && self.layout == Layout::Spaced {
            line.push(']');
        }
        line.trim_end().to_string()
    }

    /// The number `side` gives file `file` (0 = a), counted from its own right (Red sits at
    /// rank 0 with file i on its right, Black at rank 9 with file a on its right), two columns.
    fn file_number(&self, side: Color, file: u8) -> String {
        let n = match side {
            Color::Red => FILES - file,
            Color::Black => file + 1,
        };
        match (side, self.symbols) {
            (Color::Red, Symbols::Chinese) => CHINESE_NUMERALS[usize::from(n - 1)].to_string(),
            _ => format!("{n} "),
        }
    }

    /// A point's two columns: a piece, the ring of the last move's origin, or an empty point.
    fn point(&self, sq: Square) -> String {
        let letters = self.symbols == Symbols::Letters;
        let Some(piece) = self.pos.piece_at(sq) else {
            let origin = self.last_move.is_some_and(|m| m.from() == sq);
            return match (origin, letters) {
                (true, true) => "()",
                (true, false) => "〇",
                (false, true) => ". ",
                (false, false) => "＋",
            }
            .to_string();
        };
        let text = if letters {
            format!("{} ", piece.fen_char())
        } else {
            chinese(piece.color(), piece.kind()).to_string()
        };
        if !self.colour {
            return text;
        }
        let colour = match piece.color() {
            Color::Red => RED_COLOUR,
            Color::Black => BLACK_COLOUR,
        };
        let mark = if self.last_move.is_some_and(|m| m.to() == sq) {
            MARK_COLOUR
        } else {
            ""
        };
        format!("{colour}{mark}{text}{RESET}")
    }
}

impl fmt::Display for Diagram<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for line in self.lines() {
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// The Chinese character of a piece.
fn chinese(color: Color, kind: PieceKind) -> char {
    match (color, kind) {
        (Color::Red, PieceKind::General) => '帥',
        (Color::Red, PieceKind::Advisor) => '仕',
        (Color::Red, PieceKind::Elephant) => '相',
        (Color::Red, PieceKind::Horse) => '傌',
        (Color::Red, PieceKind::Chariot) => '俥',
        (Color::Red, PieceKind::Cannon) => '炮',
        (Color::Red, PieceKind::Soldier) => '兵',
        (Color::Black, PieceKind::General) => '將',
        (Color::Black, PieceKind::Advisor) => '士',
        (Color::Black, PieceKind::Elephant) => '象',
        (Color::Black, PieceKind::Horse) => '馬',
        (Color::Black, PieceKind::Chariot) => '車',
        (Color::Black, PieceKind::Cannon) => '砲',
        (Color::Black, PieceKind::Soldier) => '卒',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Display columns, for the characters a diagram holds: Chinese ones take two.
    fn columns(line: &str) -> usize {
        line.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
    }

    #[test]
    fn compact_letters_number_ranks_in_either_base() {
        let pos = Position::startpos();
        let zero = Diagram::new(&pos).to_string();
        let one = Diagram::new(&pos).rank_base(RankBase::One).to_string();
        assert_eq!(zero.lines().count(), 12);
        assert_eq!(zero.lines().next(), Some("9  r n b a k a b n r"));
        assert_eq!(zero.lines().nth(5), Some("   ~~~~~~~~~~~~~~~~~"));
        assert_eq!(zero.lines().nth(11), Some("   a b c d e f g h i"));
        assert_eq!(one.lines().next(), Some("10  r n b a k a b n r"));
        assert_eq!(one.lines().nth(1), Some(" 9  . . . . . . . . ."));
        assert_eq!(one.lines().nth(5), Some("    ~~~~~~~~~~~~~~~~~"));
        assert_eq!(one.lines().nth(11), Some("    a b c d e f g h i"));
        assert!(zero.ends_with("i\n"));
    }

    #[test]
    fn compact_with_letters_above_and_the_side_to_move() {
        let start = Position::startpos();
        let look = |symbols| {
            Diagram::new(&start)
                .symbols(symbols)
                .file_letters(Edge::Top)
                .side_to_move()
                .lines()
        };
        let letters = look(Symbols::Letters);
        assert_eq!(letters[0], "   a b c d e f g h i");
        assert_eq!(letters[1], "9  r n b a k a b n r");
        assert_eq!(letters[11], "0  R N B A K A B N R");
        assert_eq!(letters[3], "7  . c . . . . . c .");
        assert_eq!(letters.last().map(String::as_str), Some("Red to move"));
        let chinese = look(Symbols::Chinese);
        assert_eq!(chinese[1], "9  車馬象士將士象馬車");
        assert_eq!(chinese[6], "   ～～ 楚河  漢界 ～～");
        assert_eq!(chinese[11], "0  俥傌相仕帥仕相傌俥");
        // Every row of points is as wide as the file letters above it.
        for row in chinese[1..12].iter().filter(|l| !l.starts_with(' ')) {
            assert_eq!(columns(row), columns(&letters[0]) + 1, "{row}");
        }
    }

    /// The spaced look with each side's file numbers, in Chinese and plain.
    fn book(pos: &Position, last: Option<Move>, bottom: Color, symbols: Symbols) -> Diagram<'_> {
        Diagram::new(pos)
            .symbols(symbols)
            .layout(Layout::Spaced)
            .file_numbers()
            .last_move(last)
            .bottom(bottom)
    }

    #[test]
    fn spaced_from_red_and_from_black() {
        let pos = Position::startpos();
        let lines = book(&pos, None, Color::Red, Symbols::Chinese).lines();
        assert_eq!(lines[0], "   1  2  3  4  5  6  7  8  9");
        assert_eq!(lines[1], "9  車 馬 象 士 將 士 象 馬 車");
        assert_eq!(lines[6], "      楚  河          漢  界");
        assert_eq!(lines[11], "0  俥 傌 相 仕 帥 仕 相 傌 俥");
        assert_eq!(lines[12], "   九 八 七 六 五 四 三 二 一");
        assert_eq!(lines[13], "   a  b  c  d  e  f  g  h  i");
        let flipped = book(&pos, None, Color::Black, Symbols::Chinese).lines();
        assert_eq!(flipped[0], "   一 二 三 四 五 六 七 八 九");
        assert_eq!(flipped[1], "0  俥 傌 相 仕 帥 仕 相 傌 俥");
        assert_eq!(flipped[6], "      楚  河          漢  界");
        assert_eq!(flipped[11], "9  車 馬 象 士 將 士 象 馬 車");
        assert_eq!(flipped[12], "   9  8  7  6  5  4  3  2  1");
        assert_eq!(flipped[13], "   i  h  g  f  e  d  c  b  a");
        let letters = book(&pos, None, Color::Red, Symbols::Letters).lines();
        assert_eq!(letters[6], "   ~~~~~~~~~~~~~~~~~~~~~~~~~~");
        assert_eq!(letters[12], "   9  8  7  6  5  4  3  2  1");
    }

    #[test]
    fn the_last_move_is_marked_and_colours_only_when_asked() {
        let mut pos = Position::startpos();
        let mv = pos.parse_move("h2e2", RankBase::Zero).expect("legal");
        pos.make_move(mv);
        let lines = book(&pos, Some(mv), Color::Red, Symbols::Letters).lines();
        assert_eq!(lines[9], "2  .  C  .  . [C ].  .  () .", "{lines:#?}");
        let lines = book(&pos, Some(mv), Color::Red, Symbols::Chinese).lines();
        assert_eq!(lines[9], "2  ＋ 炮 ＋ ＋[炮]＋ ＋ 〇 ＋");
        assert!(!lines.concat().contains('\x1b'));
        let coloured = book(&pos, Some(mv), Color::Red, Symbols::Chinese)
            .colour(true)
            .lines()
            .concat();
        assert!(coloured.contains("\x1b[1;31m\x1b[7m炮"), "{coloured}");
        assert!(coloured.contains("\x1b[1;34m車"), "{coloured}");
    }
}
