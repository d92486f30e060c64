//! Formats search events and answers per dialect, and writes whole lines to stdout.
//!
//! Every line is written under the stdout lock and flushed at once, so lines from the controller
//! and the search thread never interleave and a GUI sees each as soon as it is complete.

use super::command::Dialect;
use crate::search::score::{is_mate, mate_moves, MATE};
use crate::search::{Info, ScoreBound};
use engine_core::{move_text, Move, RankBase};
use std::io::Write;

/// Internal units per UCCI score point ×100: UCCI wants 100 = one horse or cannon.
const UCCI_MINOR_PIECE: i32 = 400;
/// UCCI has no `mate` keyword: a mate in `n` plies prints as `UCCI_MATE - n` (as ElephantEye).
const UCCI_MATE: i32 = 10_000;
/// Logistic model for `wdl`: score (internal units) where a win becomes as likely as not ...
const WDL_WIN_OFFSET: f64 = 180.0;
/// ... and how quickly the probability rises around it.
const WDL_SCALE: f64 = 110.0;

/// How to print moves and scores for this session.
#[derive(Copy, Clone, Debug)]
pub struct Format {
    /// Protocol dialect.
    pub dialect: Dialect,
    /// Rank numbering of move text.
    pub rank_base: RankBase,
    /// UCI_ShowWDL.
    pub show_wdl: bool,
}

/// Writes one line and flushes. Output errors (GUI gone) are ignored: the next `quit` or EOF
/// ends the engine.
pub fn emit(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// `info string <text>` (UCI) or `info message <text>` is not used: both dialects accept
/// `info string`, which is what GUIs show in their log.
pub fn info_string(text: &str) -> String {
    format!("info string {text}")
}

/// An error line in the one format the issue asks for.
pub fn error(text: &str) -> String {
    info_string(&format!("error: {text}"))
}

/// A move in the session's notation.
pub fn mv(m: Move, f: &Format) -> String {
    move_text(m, f.rank_base)
}

/// Score text: `cp N` / `mate N` (UCI) or a bare number (UCCI).
pub fn score(s: i32, f: &Format) -> String {
    match f.dialect {
        Dialect::Uci => {
            if is_mate(s) {
                format!("mate {}", mate_moves(s))
            } else {
                format!("cp {s}")
            }
        }
        Dialect::Ucci => ucci_score(s).to_string(),
    }
}

/// A score in UCCI units.
pub fn ucci_score(s: i32) -> i32 {
    if is_mate(s) {
        let plies = MATE - s.abs();
        s.signum() * (UCCI_MATE - plies)
    } else {
        (s * 100 / UCCI_MINOR_PIECE).clamp(-(UCCI_MATE - 200), UCCI_MATE - 200)
    }
}

/// Win/draw/loss per mille from a score (side to move's view).
pub fn wdl(s: i32) -> (u32, u32, u32) {
    if is_mate(s) {
        return if s > 0 { (1000, 0, 0) } else { (0, 0, 1000) };
    }
    let f = |x: f64| 1.0 / (1.0 + (-(x - WDL_WIN_OFFSET) / WDL_SCALE).exp());
    let w = (f(s as f64) * 1000.0).round() as u32;
    let l = (f(-s as f64) * 1000.0).round() as u32;
    let d = 1000u32.saturating_sub(w + l);
    (w, d, l)
}

fn pv_text(pv: &[Move], f: &Format) -> String {
    pv.iter().map(|&m| mv(m, f)).collect::<Vec<_>>().join(" ")
}

/// Formats a search event as the lines to print.
pub fn info(event: &Info, f: &Format) -> Vec<String> {
    match event {
        Info::Iteration {
            depth,
            seldepth,
            multipv,
            score: s,
            bound,
            nodes,
            time_ms,
            hashfull,
            pv,
        } => {
            let nps = nodes * 1000 / (*time_ms).max(1);
            match f.dialect {
                Dialect::Uci => {
                    let mut line = format!(
                        "info depth {depth} seldepth {seldepth} multipv {multipv} score {}",
                        score(*s, f)
                    );
                    match bound {
                        ScoreBound::Lower => line.push_str(" lowerbound"),
                        ScoreBound::Upper => line.push_str(" upperbound"),
                        ScoreBound::Exact => {}
                    }
                    if f.show_wdl {
                        let (w, d, l) = wdl(*s);
                        line.push_str(&format!(" wdl {w} {d} {l}"));
                    }
                    line.push_str(&format!(
                        " nodes {nodes} nps {nps} hashfull {hashfull} time {time_ms} pv {}",
                        pv_text(pv, f)
                    ));
                    vec![line]
                }
                Dialect::Ucci => {
                    let mpv = if *multipv > 1 {
                        format!(" multipv {multipv}")
                    } else {
                        String::new()
                    };
                    vec![
                        format!(
                            "info depth {depth}{mpv} score {} pv {}",
                            score(*s, f),
                            pv_text(pv, f)
                        ),
                        format!("info time {time_ms} nodes {nodes}"),
                    ]
                }
            }
        }
        Info::CurrMove {
            depth,
            mv: m,
            number,
        } => match f.dialect {
            Dialect::Uci => vec![format!(
                "info depth {depth} currmove {} currmovenumber {number}",
                mv(*m, f)
            )],
            Dialect::Ucci => vec![format!("info currmove {}", mv(*m, f))],
        },
    }
}

/// `bestmove m [ponder p] [draw|resign]`.
pub fn bestmove(best: Move, ponder: Option<Move>, suffix: Option<&str>, f: &Format) -> String {
    let mut line = format!("bestmove {}", mv(best, f));
    if let Some(p) = ponder {
        line.push_str(&format!(" ponder {}", mv(p, f)));
    }
    if let Some(s) = suffix {
        line.push(' ');
        line.push_str(s);
    }
    line
}

/// The answer when there is no move to play: `bestmove (none)` / `nobestmove`.
pub fn no_move(f: &Format) -> String {
    match f.dialect {
        Dialect::Uci => "bestmove (none)".to_string(),
        Dialect::Ucci => "nobestmove".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{mate_in, mated_in};

    #[test]
    fn scores_per_dialect() {
        let uci = Format {
            dialect: Dialect::Uci,
            rank_base: RankBase::Zero,
            show_wdl: false,
        };
        let ucci = Format {
            dialect: Dialect::Ucci,
            ..uci
        };
        assert_eq!(score(mate_in(3), &uci), "mate 2");
        assert_eq!(score(mated_in(2), &uci), "mate -1");
        assert_eq!(score(37, &uci), "cp 37");
        assert_eq!(score(400, &ucci), "100");
        assert_eq!(score(mate_in(3), &ucci), "9997");
        assert_eq!(score(mated_in(0), &ucci), "-10000");
    }

    #[test]
    fn wdl_sums_to_one_thousand() {
        for s in [-3000, -200, 0, 50, 400, mate_in(5)] {
            let (w, d, l) = wdl(s);
            assert_eq!(w + d + l, 1000, "{s}");
        }
        assert!(wdl(500).0 > wdl(100).0);
    }
}
