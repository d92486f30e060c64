//! The board as `cotuong play` draws it: the side at the bottom chosen by the player (`flip`
//! turns it), each side's file numbers from its own view (Red's 九..一 in Chinese numerals,
//! Black's 1..9 in digits, as xiangqi books print them), ICCS ranks down the left and files
//! along the foot for those who type coordinates, and the last move marked: its destination
//! in brackets, its origin as a ring. Colours (ANSI) only when the caller says the terminal
//! takes them.

use engine_core::{Color, Move, Position, Square};

use super::super::analyze::board::glyph;

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
/// Points on a file, ranks on a board.
const FILES: u8 = 9;
const RANKS: u8 = 10;
/// The river lies between this rank and the next one up.
const RIVER_ABOVE_RANK: u8 = 4;

/// How the board is drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Style {
    /// FEN letters instead of Chinese characters (and digits for Red's files).
    pub ascii: bool,
    /// ANSI colours.
    pub colour: bool,
}

/// The number `side` gives board file `file` (0 = a), counted from its own right: Red sits at
/// rank 0 with file i on its right, Black at rank 9 with file a on its right.
fn file_number(side: Color, file: u8) -> u8 {
    match side {
        Color::Red => FILES - file,
        Color::Black => file + 1,
    }
}

/// A point's two columns of text: a piece, the ring of the last move's origin, or an empty
/// point.
fn point(pos: &Position, sq: Square, last: Option<Move>, style: Style) -> String {
    let Some(piece) = pos.piece_at(sq) else {
        let origin = last.is_some_and(|m| m.from() == sq);
        return match (origin, style.ascii) {
            (true, true) => "()",
            (true, false) => "〇",
            (false, true) => ". ",
            (false, false) => "＋",
        }
        .to_string();
    };
    let mut text = glyph(piece.color(), piece.kind(), style.ascii);
    if style.ascii {
        text.push(' ');
    }
    if !style.colour {
        return text;
    }
    let colour = match piece.color() {
        Color::Red => RED_COLOUR,
        Color::Black => BLACK_COLOUR,
    };
    let mark = if last.is_some_and(|m| m.to() == sq) {
        MARK_COLOUR
    } else {
        ""
    };
    format!("{colour}{mark}{text}{RESET}")
}

/// The line of `side`'s file numbers, in the order the files are drawn.
fn numbers_line(side: Color, files: &[u8], style: Style) -> String {
    let mut line = "  ".to_string();
    for &f in files {
        let n = file_number(side, f);
        line.push(' ');
        match (side, style.ascii) {
            (Color::Red, false) => line.push_str(CHINESE_NUMERALS[usize::from(n - 1)]),
            _ => {
                line.push_str(&n.to_string());
                line.push(' ');
            }
        }
    }
    line.trim_end().to_string()
}

/// The board's lines, `bottom` nearest the player, the last move `last` marked.
pub fn render(pos: &Position, last: Option<Move>, bottom: Color, style: Style) -> Vec<String> {
    let files: Vec<u8> = match bottom {
        Color::Red => (0..FILES).collect(),
        Color::Black => (0..FILES).rev().collect(),
    };
    let ranks: Vec<u8> = match bottom {
        Color::Red => (0..RANKS).rev().collect(),
        Color::Black => (0..RANKS).collect(),
    };
    let mut lines = vec![numbers_line(bottom.opponent(), &files, style)];
    let destination = last.map(|m| m.to());
    for (i, &rank) in ranks.iter().enumerate() {
        let mut line = format!("{rank} ");
        let mut after_mark = false;
        for &file in &files {
            let Some(sq) = Square::new(file, rank) else {
                continue;
            };
            let marked = destination == Some(sq);
            line.push(match (marked, after_mark) {
                (true, _) => '[',
                (false, true) => ']',
                (false, false) => ' ',
            });
            line.push_str(&point(pos, sq, last, style));
            after_mark = marked;
        }
        if after_mark {
            line.push(']');
        }
        lines.push(line.trim_end().to_string());
        let next = ranks.get(i + 1).copied();
        let crosses_river = |n: u8| (rank > RIVER_ABOVE_RANK) != (n > RIVER_ABOVE_RANK);
        if next.is_some_and(crosses_river) {
            lines.push(if style.ascii {
                "   ~~~~~~~~~~~~~~~~~~~~~~~~~~".to_string()
            } else {
                "      楚  河          漢  界".to_string()
            });
        }
    }
    lines.push(numbers_line(bottom, &files, style));
    let mut letters = "  ".to_string();
    for &f in &files {
        letters.push(' ');
        letters.push(char::from(b'a' + f));
        letters.push(' ');
    }
    lines.push(letters.trim_end().to_string());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::RankBase;

    const PLAIN: Style = Style {
        ascii: false,
        colour: false,
    };

    #[test]
    fn start_position_from_red_and_from_black() {
        let pos = Position::startpos();
        let lines = render(&pos, None, Color::Red, PLAIN);
        assert_eq!(lines[0], "   1  2  3  4  5  6  7  8  9");
        assert_eq!(lines[1], "9  車 馬 象 士 將 士 象 馬 車");
        assert_eq!(lines[6], "      楚  河          漢  界");
        assert_eq!(lines[11], "0  俥 傌 相 仕 帥 仕 相 傌 俥");
        assert_eq!(lines[12], "   九 八 七 六 五 四 三 二 一");
        assert_eq!(lines[13], "   a  b  c  d  e  f  g  h  i");
        let flipped = render(&pos, None, Color::Black, PLAIN);
        assert_eq!(flipped[0], "   一 二 三 四 五 六 七 八 九");
        assert_eq!(flipped[1], "0  俥 傌 相 仕 帥 仕 相 傌 俥");
        assert_eq!(flipped[6], "      楚  河          漢  界");
        assert_eq!(flipped[11], "9  車 馬 象 士 將 士 象 馬 車");
        assert_eq!(flipped[12], "   9  8  7  6  5  4  3  2  1");
        assert_eq!(flipped[13], "   i  h  g  f  e  d  c  b  a");
    }

    #[test]
    fn the_last_move_is_marked_and_colours_only_when_asked() {
        let mut pos = Position::startpos();
        let mv = pos.parse_move("h2e2", RankBase::Zero).expect("legal");
        pos.make_move(mv);
        let ascii = Style {
            ascii: true,
            colour: false,
        };
        let lines = render(&pos, Some(mv), Color::Red, ascii);
        assert_eq!(lines[9], "2  .  C  .  . [C ].  .  () .", "{lines:#?}");
        let lines = render(&pos, Some(mv), Color::Red, PLAIN);
        assert_eq!(lines[9], "2  ＋ 炮 ＋ ＋[炮]＋ ＋ 〇 ＋");
        assert!(!lines.concat().contains('\x1b'));
        let coloured = Style {
            ascii: false,
            colour: true,
        };
        let lines = render(&pos, Some(mv), Color::Red, coloured).concat();
        assert!(lines.contains("\x1b[1;31m\x1b[7m炮"), "{lines}");
        assert!(lines.contains("\x1b[1;34m車"), "{lines}");
    }
}
