//! A board diagram for people, as text: Red at the bottom, ranks 9 to 0 down the left, files
//! a to i along the top (ICCS coordinates), the river between ranks 5 and 4. Pieces in Chinese
//! characters (Red 帥仕相傌俥炮兵, Black 將士象馬車砲卒, the traditional forms that tell the
//! sides apart without colour) or, with `--ascii`, in FEN letters (uppercase Red).

use engine_core::{Color, PieceKind, Position, Square};

/// The character of a piece.
pub fn glyph(color: Color, kind: PieceKind, ascii: bool) -> String {
    if ascii {
        let c = kind.letter();
        return match color {
            Color::Red => c.to_string(),
            Color::Black => c.to_ascii_lowercase().to_string(),
        };
    }
    let c = match (color, kind) {
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
    };
    c.to_string()
}

/// The diagram's lines (no trailing newline): each point two columns wide (a Chinese character,
/// or a letter and a space), so that the columns stay under the file letters.
pub fn diagram(pos: &Position, ascii: bool) -> Vec<String> {
    let empty = if ascii { ". " } else { "＋" };
    let mut lines = vec!["   a b c d e f g h i".to_string()];
    for rank in (0..10u8).rev() {
        let mut line = format!("{rank}  ");
        for file in 0..9u8 {
            match Square::new(file, rank).and_then(|sq| pos.piece_at(sq)) {
                Some(p) => {
                    line.push_str(&glyph(p.color(), p.kind(), ascii));
                    if ascii {
                        line.push(' ');
                    }
                }
                None => line.push_str(empty),
            }
        }
        lines.push(line.trim_end().to_string());
        if rank == 5 {
            lines.push(if ascii {
                "   ~~~~~~~~~~~~~~~~~".to_string()
            } else {
                "   ～～ 楚河  漢界 ～～".to_string()
            });
        }
    }
    lines.push(format!("{} to move", pos.side_to_move().name()));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_width::UnicodeWidthStr;

    #[test]
    fn the_start_in_letters_and_characters() {
        let start = Position::startpos();
        let ascii = diagram(&start, true);
        assert_eq!(ascii[1], "9  r n b a k a b n r");
        assert_eq!(ascii[11], "0  R N B A K A B N R");
        assert_eq!(ascii[3], "7  . c . . . . . c .");
        assert_eq!(ascii.last().map(String::as_str), Some("Red to move"));
        let chinese = diagram(&start, false);
        assert_eq!(chinese[1], "9  車馬象士將士象馬車");
        assert_eq!(chinese[11], "0  俥傌相仕帥仕相傌俥");
        // Every row of points is as wide as the file letters above it.
        for row in chinese[1..12].iter().filter(|l| !l.starts_with(' ')) {
            assert_eq!(row.width(), ascii[0].width() + 1, "{row}");
        }
    }
}
