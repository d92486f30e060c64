//! The board as `cotuong play` draws it, through engine-core's diagram: the side at the bottom
//! chosen by the player (`flip` turns it), the points spaced, each side's file numbers from its
//! own view, ICCS ranks down the left and file letters along the foot for those who type
//! coordinates, and the last move marked. Colours (ANSI) only when the caller says the terminal
//! takes them.

use engine_core::{Color, Diagram, Layout, Move, Position, Symbols};

/// How the board is drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Style {
    /// FEN letters instead of Chinese characters (and digits for Red's files).
    pub ascii: bool,
    /// ANSI colours.
    pub colour: bool,
}

/// The board's lines, `bottom` nearest the player, the last move `last` marked.
pub fn render(pos: &Position, last: Option<Move>, bottom: Color, style: Style) -> Vec<String> {
    let symbols = if style.ascii {
        Symbols::Letters
    } else {
        Symbols::Chinese
    };
    Diagram::new(pos)
        .symbols(symbols)
        .layout(Layout::Spaced)
        .file_numbers()
        .colour(style.colour)
        .last_move(last)
        .bottom(bottom)
        .lines()
}
