//! A game's evaluation graph as SVG (plotters' SVG backend): the score of the start and of every
//! move from Red's view, in pawns, over the move numbers (Red's move N at N, Black's at N + ½);
//! judged moves marked by a dot in their judgement's colour, named in a legend. The vertical scale follows the game: ±2 pawns at
//! least, the largest score rounded up to a whole pawn, and ±[`SCORE_LIMIT`] (mates drawn at
//! the edge) only when the game goes there.

use plotters::prelude::*;

use super::game_review::{move_number, GameReview};
use super::judgement::Judgement;
use crate::tools::svg_chart::{self, Frame};

/// Scores beyond this many pawns either way are drawn at the edge.
pub const SCORE_LIMIT: f64 = 10.0;
/// The smallest vertical scale, in pawns either way.
const MIN_SCALE: f64 = 2.0;
/// Picture size in pixels.
pub const SIZE: (u32, u32) = (900, 360);
/// Width of the vertical axis' label area in pixels.
const Y_LABEL_AREA: u32 = 44;
/// Pixels left of the plotting area (the margin and the vertical axis' labels) and right of it
/// (the margin), for the HTML page's clicks.
pub const PLOT_LEFT: u32 = svg_chart::MARGIN + Y_LABEL_AREA;
/// See [`PLOT_LEFT`].
pub const PLOT_RIGHT: u32 = svg_chart::MARGIN;
/// Radius of a judged move's dot.
const DOT_RADIUS: i32 = 4;
/// Colours: Red's advantage above the axis, Black's below, and the judgements.
const RED_SIDE: RGBColor = RGBColor(200, 40, 40);
const INACCURACY: RGBColor = RGBColor(230, 190, 0);
const MISTAKE: RGBColor = RGBColor(240, 120, 0);
const BLUNDER: RGBColor = RGBColor(120, 0, 160);

/// The colour of a judgement's dot (also the HTML page's).
pub fn colour(j: Judgement) -> RGBColor {
    match j {
        Judgement::Inaccuracy => INACCURACY,
        Judgement::Mistake => MISTAKE,
        Judgement::Blunder => BLUNDER,
    }
}

/// The horizontal place of the `ply`-th move (from 1) of `review`'s game, in move numbers: Red's
/// move N at N, Black's at N + ½; ply 0, the start, half a move before the first.
pub fn x_of(review: &GameReview, ply: usize) -> f64 {
    let first = review.game.start.side_to_move();
    let start = f64::from(move_number(&review.game.start, 1));
    let black_first = usize::from(first == engine_core::Color::Black);
    start + ((ply + black_first) as f64 - 1.0) / 2.0
}

/// The horizontal axis' label.
pub const X_LABEL: &str = "move (Red's move N at N, Black's at N + 0.5)";

/// The vertical scale of `review`'s graph, in pawns either way.
pub fn scale(review: &GameReview) -> f64 {
    let largest = review
        .scores
        .iter()
        .map(|s| s.pawns_capped(SCORE_LIMIT).abs())
        .fold(0.0, f64::max);
    largest.ceil().clamp(MIN_SCALE, SCORE_LIMIT)
}

/// The SVG text of the graph of `review`, titled `title`.
pub fn svg(review: &GameReview, title: &str) -> Result<String, String> {
    let limit = scale(review);
    let points: Vec<(f64, f64)> = review
        .scores
        .iter()
        .enumerate()
        .map(|(ply, s)| (x_of(review, ply), s.pawns_capped(limit)))
        .collect();
    let first_x = x_of(review, 0);
    let last_x = x_of(review, review.scores.len().max(2) - 1);
    let kinds: Vec<Judgement> = [
        Judgement::Inaccuracy,
        Judgement::Mistake,
        Judgement::Blunder,
    ]
    .into_iter()
    .filter(|&k| review.moves.iter().any(|m| m.judgement == Some(k)))
    .collect();
    let frame = Frame {
        title,
        size: SIZE,
        y_label_area: Y_LABEL_AREA,
        x: (first_x..last_x, X_LABEL),
        y: (-limit..limit, "score (pawns, Red's view)"),
        legend: !kinds.is_empty(),
    };
    svg_chart::svg(frame, "graph", |chart| {
        chart.draw_series(AreaSeries::new(
            points.iter().copied(),
            0.0,
            RED_SIDE.mix(0.25),
        ))?;
        chart.draw_series(LineSeries::new(
            points.iter().copied(),
            RED_SIDE.stroke_width(2),
        ))?;
        chart.draw_series(LineSeries::new(
            [(first_x, 0.0), (last_x, 0.0)],
            BLACK.mix(0.6),
        ))?;
        for kind in kinds {
            let c = colour(kind);
            chart
                .draw_series(
                    review
                        .moves
                        .iter()
                        .filter(|m| m.judgement == Some(kind))
                        .map(|m| {
                            Circle::new(
                                (x_of(review, m.ply), m.score.pawns_capped(limit)),
                                DOT_RADIUS,
                                c.filled(),
                            )
                        }),
                )?
                .label(kind.name())
                .legend(move |(x, y)| Circle::new((x + 8, y), DOT_RADIUS, c.filled()));
        }
        Ok(())
    })
}
