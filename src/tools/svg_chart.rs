//! The frame the tools' SVG charts share (plotters' SVG backend): a white picture with a title,
//! two numeric axes with their descriptions and no light grid lines. A chart names its frame in
//! a [`Frame`] and draws its series into it; [`svg`] does the rest and returns the SVG text.

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::error::Error;
use std::ops::Range;

/// Title font size in pixels.
const TITLE_FONT_SIZE: u32 = 18;
/// Space around the chart, in pixels.
pub const MARGIN: u32 = 12;
/// Height of the horizontal axis' label area, in pixels.
const X_LABEL_AREA: u32 = 32;

/// Opacity of the legend's background (white) and border (black).
const LEGEND_BACKGROUND_OPACITY: f64 = 0.85;
/// See [`LEGEND_BACKGROUND_OPACITY`].
const LEGEND_BORDER_OPACITY: f64 = 0.3;

/// The chart area a [`Frame`] gives its series to draw in.
pub type Chart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// What a chart's frame shows.
pub struct Frame<'t> {
    /// The caption above the chart.
    pub title: &'t str,
    /// Picture size in pixels.
    pub size: (u32, u32),
    /// Width of the vertical axis' label area in pixels (wide enough for its numbers).
    pub y_label_area: u32,
    /// The horizontal axis: its range and what it measures.
    pub x: (Range<f64>, &'t str),
    /// The vertical axis: its range and what it measures.
    pub y: (Range<f64>, &'t str),
    /// Whether a box at the upper left names the series that have labels.
    pub legend: bool,
}

/// The SVG text of `frame` with what `series` draws in it; `what` names the picture in the
/// error ("cannot draw the {what}: ...").
pub fn svg(
    frame: Frame<'_>,
    what: &str,
    series: impl FnOnce(&mut Chart<'_, '_>) -> Result<(), Box<dyn Error>>,
) -> Result<String, String> {
    let mut text = String::new();
    draw(frame, series, &mut text).map_err(|e| format!("cannot draw the {what}: {e}"))?;
    Ok(text)
}

fn draw(
    frame: Frame<'_>,
    series: impl FnOnce(&mut Chart<'_, '_>) -> Result<(), Box<dyn Error>>,
    text: &mut String,
) -> Result<(), Box<dyn Error>> {
    let root = SVGBackend::with_string(text, frame.size).into_drawing_area();
    root.fill(&WHITE)?;
    let (x_range, x_desc) = frame.x;
    let (y_range, y_desc) = frame.y;
    let mut chart = ChartBuilder::on(&root)
        .caption(frame.title, ("sans-serif", TITLE_FONT_SIZE))
        .margin(MARGIN)
        .x_label_area_size(X_LABEL_AREA)
        .y_label_area_size(frame.y_label_area)
        .build_cartesian_2d(x_range, y_range)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .light_line_style(WHITE.mix(0.0))
        .x_label_formatter(&|v| label(*v))
        .y_label_formatter(&|v| label(*v))
        .draw()?;
    series(&mut chart)?;
    if frame.legend {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(LEGEND_BACKGROUND_OPACITY))
            .border_style(BLACK.mix(LEGEND_BORDER_OPACITY))
            .position(SeriesLabelPosition::UpperLeft)
            .draw()?;
    }
    root.present()?;
    Ok(())
}

/// An axis label: whole numbers without decimals (`12`, not `12.0`), others with at most two.
fn label(v: f64) -> String {
    let text = format!("{v:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_drop_needless_decimals() {
        assert_eq!(label(12.0), "12");
        assert_eq!(label(-2.5), "-2.5");
        assert_eq!(label(0.30000000000000004), "0.3");
        assert_eq!(label(-0.0), "0");
    }

    #[test]
    fn frames_the_series_with_title_axis_descriptions_and_legend() {
        let frame = |legend| Frame {
            title: "a title",
            size: (400, 300),
            y_label_area: 40,
            x: (0.0..10.0, "the horizontal measure"),
            y: (-1.0..1.0, "the vertical measure"),
            legend,
        };
        let labelled_line = |chart: &mut Chart<'_, '_>| -> Result<(), Box<dyn Error>> {
            chart
                .draw_series(LineSeries::new([(0.0, 0.0), (10.0, 0.5)], RED))?
                .label("a series name")
                .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], RED));
            Ok(())
        };
        let text = svg(frame(true), "test chart", labelled_line).expect("drawn");
        assert!(text.starts_with("<svg"), "{}", &text[..40.min(text.len())]);
        for part in [
            "a title",
            "the horizontal measure",
            "the vertical measure",
            "a series name",
            "polyline",
        ] {
            assert!(text.contains(part), "{part} missing");
        }
        let text = svg(frame(false), "test chart", labelled_line).expect("drawn");
        assert!(!text.contains("a series name"), "no legend asked for");
    }
}
