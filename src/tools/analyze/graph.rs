//! A game's evaluation graph as SVG (plotters' SVG backend): the score of every position from
//! Red's view, in pawns cut at ±[`SCORE_LIMIT`] (mates at the limit), over the plies; judged
//! moves marked by a dot in their judgement's colour.

use plotters::prelude::*;

use super::game_review::GameReview;
use super::judgement::Judgement;
use crate::tools::svg_chart::{self, Frame};

/// Scores beyond this many pawns either way are drawn at the edge.
pub const SCORE_LIMIT: f64 = 10.0;
/// Picture size in pixels.
const SIZE: (u32, u32) = (900, 360);
/// Width of the vertical axis' label area in pixels.
const Y_LABEL_AREA: u32 = 44;
/// Radius of a judged move's dot.
const DOT_RADIUS: i32 = 4;
/// Colours: Red's advantage above the axis, Black's below, and the judgements.
const RED_SIDE: RGBColor = RGBColor(200, 40, 40);
const INACCURACY: RGBColor = RGBColor(230, 190, 0);
const MISTAKE: RGBColor = RGBColor(240, 120, 0);
const BLUNDER: RGBColor = RGBColor(200, 0, 0);

fn colour(j: Judgement) -> RGBColor {
    match j {
        Judgement::Inaccuracy => INACCURACY,
        Judgement::Mistake => MISTAKE,
        Judgement::Blunder => BLUNDER,
    }
}

/// The SVG text of the graph of `review`, titled `title`.
pub fn svg(review: &GameReview, title: &str) -> Result<String, String> {
    let points: Vec<(f64, f64)> = review
        .scores
        .iter()
        .enumerate()
        .map(|(ply, s)| (ply as f64, s.pawns_capped(SCORE_LIMIT)))
        .collect();
    let last_ply = (points.len().max(2) - 1) as f64;
    let frame = Frame {
        title,
        size: SIZE,
        y_label_area: Y_LABEL_AREA,
        x: (0.0..last_ply, "ply"),
        y: (-SCORE_LIMIT..SCORE_LIMIT, "score (pawns, Red's view)"),
        legend: false,
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
            [(0.0, 0.0), (last_ply, 0.0)],
            BLACK.mix(0.6),
        ))?;
        chart.draw_series(review.moves.iter().filter_map(|m| {
            let j = m.judgement?;
            let y = m.score.pawns_capped(SCORE_LIMIT);
            Some(Circle::new(
                (m.ply as f64, y),
                DOT_RADIUS,
                colour(j).filled(),
            ))
        }))?;
        Ok(())
    })
}
