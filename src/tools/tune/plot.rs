//! The trajectory of a tuning run as SVG (plotters' SVG backend): every parameter's estimate
//! over the iterations, measured from its default in units of its perturbation step, so that
//! parameters of very different scales share one picture. A line that keeps drifting away from
//! zero is a parameter the games want changed; one that wanders around zero is well set.

use plotters::prelude::*;

use super::spsa::Parameter;
use super::trajectory::Row;
use crate::tools::svg_chart::{self, Frame};

/// Picture size in pixels.
const SIZE: (u32, u32) = (1000, 560);
/// Width of the vertical axis' label area in pixels.
const Y_LABEL_AREA: u32 = 48;
/// The vertical axis covers at least this many steps either way.
const MIN_HALF_RANGE: f64 = 1.0;
/// Room left above and below the farthest estimate, as a share of the range.
const RANGE_HEADROOM: f64 = 1.05;

/// The SVG text of the trajectory `rows` of `parameters`.
pub fn svg(parameters: &[Parameter], rows: &[Row], title: &str) -> Result<String, String> {
    let last = rows.last().map_or(1, |r| r.iteration).max(1) as f64;
    let half_range = rows
        .iter()
        .flat_map(|r| {
            r.values
                .iter()
                .zip(parameters)
                .map(|(v, p)| in_steps(p, *v).abs())
        })
        .fold(MIN_HALF_RANGE, f64::max)
        * RANGE_HEADROOM;
    let frame = Frame {
        title,
        size: SIZE,
        y_label_area: Y_LABEL_AREA,
        x: (0.0..last, "iteration (game pair)"),
        y: (-half_range..half_range, "estimate − default, in steps"),
        legend: true,
    };
    svg_chart::svg(frame, "plot", |chart| {
        for (i, p) in parameters.iter().enumerate() {
            let points =
                std::iter::once((0.0, 0.0))
                    .chain(rows.iter().filter_map(|r| {
                        Some((r.iteration as f64, in_steps(p, *r.values.get(i)?)))
                    }));
            chart
                .draw_series(LineSeries::new(points, Palette99::pick(i).stroke_width(2)))?
                .label(p.tunable.name)
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 16, y)], Palette99::pick(i).stroke_width(2))
                });
        }
        Ok(())
    })
}

/// Parameter `p`'s estimate `v` in steps from its default.
fn in_steps(p: &Parameter, v: f64) -> f64 {
    (v - f64::from(p.tunable.default)) / p.tunable.step
}

#[cfg(test)]
mod tests {
    use super::*;
    use cotuong::search::Tunable;

    #[test]
    fn draws_every_parameter_with_its_name() {
        let p = |name, default| {
            Parameter::new(Tunable {
                name,
                default,
                min: 0,
                max: 1000,
                step: 10.0,
            })
        };
        let params = [p("RFP_MARGIN", 80), p("FUTILITY_BASE", 120)];
        let rows: Vec<Row> = (1..=20)
            .map(|i| Row {
                iteration: i,
                result: 0.0,
                values: vec![80.0 + i as f64, 120.0 - i as f64],
            })
            .collect();
        let svg = svg(&params, &rows, "trajectory").expect("drawn");
        assert!(svg.starts_with("<svg"), "{}", &svg[..40.min(svg.len())]);
        for name in ["RFP_MARGIN", "FUTILITY_BASE", "trajectory"] {
            assert!(svg.contains(name), "{name} missing");
        }
    }
}
