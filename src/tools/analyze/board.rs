//! The board as analysis reports draw it above a blunder: engine-core's diagram, compact, Red at
//! the bottom, file letters (ICCS) along the top and the side to move below; pieces in Chinese
//! characters or, with `--ascii`, in FEN letters (upper case Red).

use engine_core::{Diagram, Edge, Position, Symbols};

/// The diagram's lines (no trailing newline).
pub fn diagram(pos: &Position, ascii: bool) -> Vec<String> {
    let symbols = if ascii {
        Symbols::Letters
    } else {
        Symbols::Chinese
    };
    Diagram::new(pos)
        .symbols(symbols)
        .file_letters(Edge::Top)
        .side_to_move()
        .lines()
}
