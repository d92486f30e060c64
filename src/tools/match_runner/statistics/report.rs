//! What the runner prints: the live status text of the progress line, and the final summary
//! (two engines: W/D/L, pentanomial counts, Elo ± 95% error, LOS, SPRT; more engines: standings
//! with tie-breaks and a crosstable). Below the sample an estimate needs (`sample_size`) the
//! error bar and LOS are replaced by what is missing, and the SPRT line says from when it decides.

use super::super::engines::EngineConfig;
use super::super::scheduling::Format;
use super::sample_size::{error_bar_shortfall, MIN_SAMPLES};
use super::sprt::{Sprt, SprtDecision};
use super::stats::{estimate, Trinomial};
use super::tally::Tally;
use super::tiebreak::{standings, TieBreakSystem};
use std::fmt::Write;

fn fmt_error(e: f64) -> String {
    if e.is_finite() {
        format!("{e:.1}")
    } else {
        "inf".into()
    }
}

/// The message of the live progress line.
pub fn status_line(engines: &[EngineConfig], tally: &Tally, sprt: Option<&Sprt>) -> String {
    if engines.len() == 2 {
        let t = &tally.trinomial;
        let e = tally.elo();
        let error = match tally.error_bar_shortfall() {
            Some(_) => "(too few games for an error bar)".to_string(),
            None => format!("± {}", fmt_error(e.error95)),
        };
        let mut s = format!(
            "{} vs {}: {}-{}-{} (W-D-L)  Elo {:+.1} {error}",
            engines[0].name, engines[1].name, t.wins, t.draws, t.losses, e.elo,
        );
        if let Some(sp) = sprt {
            let (llr, _) = tally.sprt(sp);
            let (lo, hi) = sp.bounds();
            let _ = write!(s, "  LLR {llr:.2} ({lo:.2}, {hi:.2})");
            if tally.samples() < MIN_SAMPLES {
                let _ = write!(s, ", decides from {MIN_SAMPLES} {}s", tally.sample_kind().0);
            }
        }
        s
    } else {
        let table = standings(
            engines.len(),
            &tally.outcomes,
            &tally.byes,
            TieBreakSystem::Swiss,
        );
        match table.first() {
            Some(top) => format!(
                "leader {} with {} points",
                engines[top.player].name, top.points
            ),
            None => String::new(),
        }
    }
}

/// The summary printed when the run ends (engines by name, index 0 first).
pub fn final_report(
    names: &[String],
    tally: &Tally,
    format: Format,
    sprt: Option<&Sprt>,
    stopped: Option<SprtDecision>,
) -> String {
    let mut out = String::new();
    if names.len() == 2 {
        let t = &tally.trinomial;
        let e = tally.elo();
        let _ = writeln!(
            out,
            "Results of {} vs {} ({} games)",
            names[0],
            names[1],
            t.games()
        );
        let _ = writeln!(
            out,
            "W-D-L: {}-{}-{}  Points: {:.1} ({:.2}%)",
            t.wins,
            t.draws,
            t.losses,
            t.points(),
            100.0 * t.points() / t.games().max(1) as f64
        );
        if tally.paired {
            let p = &tally.pentanomial.counts;
            let _ = writeln!(
                out,
                "Pentanomial (0, 0.5, 1, 1.5, 2): [{}, {}, {}, {}, {}]",
                p[0], p[1], p[2], p[3], p[4]
            );
        }
        let (unit, model) = tally.sample_kind();
        let _ = match tally.error_bar_shortfall() {
            Some(shortfall) => writeln!(
                out,
                "Elo: {:+.1} (too few games for an error bar or a LOS: {})",
                e.elo,
                shortfall.describe(unit, model)
            ),
            None => writeln!(
                out,
                "Elo: {:+.1} ± {} (95%, {model} model)  LOS: {:.1}%",
                e.elo,
                fmt_error(e.error95),
                100.0 * e.los
            ),
        };
        if let Some(sp) = sprt {
            let (llr, decision) = tally.sprt(sp);
            let (lo, hi) = sp.bounds();
            let _ = writeln!(
                out,
                "SPRT [{:.2}, {:.2}] alpha {} beta {}: LLR {llr:.2} ({lo:.2}, {hi:.2}) {}",
                sp.elo0,
                sp.elo1,
                sp.alpha,
                sp.beta,
                match stopped {
                    None if tally.samples() < MIN_SAMPLES => format!(
                        "no decision before {MIN_SAMPLES} {unit}s ({} played)",
                        tally.samples()
                    ),
                    Some(reached) if reached == decision => format!("{reached}, stopped early"),
                    // Games still running when the bound was crossed finish and count, and may
                    // move the LLR back inside the bounds: the decision stands.
                    Some(reached) => format!(
                        "{reached} when the LLR crossed a bound, stopped early (the games then \
                         in progress count here)"
                    ),
                    None => decision.to_string(),
                }
            );
        }
    } else {
        out.push_str(&crosstable(names, tally, format));
    }
    if !tally.terminations.is_empty() {
        let parts: Vec<String> = tally
            .terminations
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let _ = writeln!(out, "Terminations: {}", parts.join(", "));
    }
    if tally.replayed_games > 0 {
        let _ = writeln!(
            out,
            "Replayed games: {} of {} played the moves of an earlier game with the same engines, \
             colours and opening; the figures above count each of them as a new game",
            tally.replayed_games,
            tally.outcomes.len()
        );
    }
    out
}

/// Standings with tie-breaks, each engine's Elo against the field, and the crosstable.
pub fn crosstable(names: &[String], tally: &Tally, format: Format) -> String {
    let system = match format {
        Format::RoundRobin => TieBreakSystem::RoundRobin,
        Format::Swiss => TieBreakSystem::Swiss,
    };
    let table = standings(names.len(), &tally.outcomes, &tally.byes, system);
    let width = names.iter().map(|n| n.len()).max().unwrap_or(4).max(4);
    let mut out = String::new();
    let mut without_error_bar = false;
    let _ = write!(
        out,
        "{:>4} {:<width$} {:>6} {:>5} {:>14} {:>6} {:>6} {:>3} {:>3} ",
        "Rank", "Name", "Points", "Games", "Elo", "Buchh", "SB", "W", "BW"
    );
    for i in 0..table.len() {
        let _ = write!(out, " {:>5}", i + 1);
    }
    out.push('\n');
    for (rank, row) in table.iter().enumerate() {
        let mut t = Trinomial::default();
        for g in &tally.outcomes {
            let w = g.white_half_points.min(2);
            if g.white == row.player {
                t.add(w);
            } else if g.black == row.player {
                t.add(2 - w);
            }
        }
        let e = estimate(&t.distribution());
        let elo = if t.games() == 0 {
            "-".to_string()
        } else if error_bar_shortfall(&t.distribution()).is_some() {
            without_error_bar = true;
            format!("{:+.0} (few)", e.elo)
        } else {
            format!("{:+.0} ± {}", e.elo, fmt_error(e.error95))
        };
        let _ = write!(
            out,
            "{:>4} {:<width$} {:>6.1} {:>5} {:>14} {:>6.2} {:>6.2} {:>3} {:>3} ",
            rank + 1,
            names[row.player],
            row.points,
            row.games,
            elo,
            row.buchholz,
            row.sonneborn_berger,
            row.wins,
            row.black_wins
        );
        for other in &table {
            let cell: String = if other.player == row.player {
                "*".into()
            } else {
                tally
                    .outcomes
                    .iter()
                    .filter_map(|g| {
                        let w = g.white_half_points.min(2);
                        if g.white == row.player && g.black == other.player {
                            Some(w)
                        } else if g.black == row.player && g.white == other.player {
                            Some(2 - w)
                        } else {
                            None
                        }
                    })
                    .map(|h| match h {
                        2 => '1',
                        1 => '=',
                        _ => '0',
                    })
                    .collect()
            };
            let _ = write!(out, " {cell:>5}");
        }
        out.push('\n');
    }
    if without_error_bar {
        let _ = writeln!(
            out,
            "(few): too few games for an error bar: fewer than {MIN_SAMPLES}, or all with the \
             same result"
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::tiebreak::Outcome;
    use super::*;

    /// A paired tally of engine 0's pairs, each given as its two games' half points.
    fn paired(pairs: &[(u8, u8)]) -> Tally {
        let mut tally = Tally::new(true);
        for (id, &(first, second)) in pairs.iter().enumerate() {
            for (white, black, mine) in [(0, 1, first), (1, 0, second)] {
                let white_half_points = if white == 0 { mine } else { 2 - mine };
                let outcome = Outcome {
                    white,
                    black,
                    white_half_points,
                };
                tally.add(outcome, Some(id), "checkmate");
            }
        }
        tally
    }

    fn names() -> [String; 2] {
        ["a".to_string(), "b".to_string()]
    }

    #[test]
    fn one_pair_gets_no_error_bar_and_no_los() {
        let tally = paired(&[(2, 1)]);
        let text = final_report(&names(), &tally, Format::RoundRobin, None, None);
        assert!(
            text.contains(
                "Elo: +190.8 (too few games for an error bar or a LOS: 1 pair of the 10 the \
                 pentanomial model needs)"
            ),
            "{text}"
        );
        assert!(
            !text.contains("±") && !text.contains("LOS: 100.0%"),
            "{text}"
        );
        let engine = |name: &str| {
            let tokens = [format!("name={name}"), "cmd=x".into(), "nodes=100".into()];
            EngineConfig::from_tokens(&tokens, &[], None).expect("an engine")
        };
        let engines = [engine("a"), engine("b")];
        let status = status_line(&engines, &tally, None);
        assert!(
            status.contains("Elo +190.8 (too few games for an error bar)"),
            "{status}"
        );
    }

    #[test]
    fn identical_pairs_get_no_error_bar() {
        let tally = paired(&[(1, 1); 12]);
        let text = final_report(&names(), &tally, Format::RoundRobin, None, None);
        assert!(
            text.contains("all 12 pairs alike, and the pentanomial model needs pairs with"),
            "{text}"
        );
    }

    #[test]
    fn enough_varied_pairs_get_an_error_bar() {
        let mut pairs = vec![(2, 1); 4];
        pairs.extend([(1, 1); 4]);
        pairs.extend([(0, 1); 2]);
        let text = final_report(&names(), &paired(&pairs), Format::RoundRobin, None, None);
        assert!(text.contains("(95%, pentanomial model)  LOS: "), "{text}");
    }

    #[test]
    fn an_sprt_on_two_pairs_shows_its_minimum_and_a_modest_llr() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).expect("valid SPRT");
        for pairs in [[(2, 2), (2, 2)], [(2, 1), (2, 2)]] {
            let tally = paired(&pairs);
            let (llr, decision) = tally.sprt(&sprt);
            assert!(llr.abs() < 0.5, "{pairs:?}: {llr}");
            assert_eq!(decision, SprtDecision::Continue);
            let text = final_report(&names(), &tally, Format::RoundRobin, Some(&sprt), None);
            assert!(
                text.contains("no decision before 10 pairs (2 played)"),
                "{text}"
            );
        }
    }

    #[test]
    fn a_crosstable_marks_elo_without_an_error_bar() {
        let tally = paired(&[(2, 1)]);
        let text = crosstable(&names(), &tally, Format::RoundRobin);
        assert!(text.contains("+191 (few)"), "{text}");
        assert!(!text.contains("±"), "{text}");
        assert!(
            text.contains("(few): too few games for an error bar"),
            "{text}"
        );
    }

    #[test]
    fn a_decision_reached_before_the_last_games_finished_is_still_reported() {
        let engines = ["a".to_string(), "b".to_string()];
        let mut tally = Tally::new(true);
        // Even pairs won twice by engine 0, odd pairs by engine 1: a score of 50%.
        for pair in 0..12 {
            for (white, black) in [(0, 1), (1, 0)] {
                let winner_is_white = (white == 0) == (pair % 2 == 0);
                let outcome = Outcome {
                    white,
                    black,
                    white_half_points: if winner_is_white { 2 } else { 0 },
                };
                tally.add(outcome, Some(pair), "checkmate");
            }
        }
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).expect("valid SPRT");
        assert_eq!(tally.sprt(&sprt).1, SprtDecision::Continue);
        let text = final_report(
            &engines,
            &tally,
            Format::RoundRobin,
            Some(&sprt),
            Some(SprtDecision::AcceptH1),
        );
        assert!(
            text.contains("H1 accepted when the LLR crossed a bound"),
            "{text}"
        );
        let text = final_report(&engines, &tally, Format::RoundRobin, Some(&sprt), None);
        assert!(text.contains("no decision yet"), "{text}");
        assert!(!text.contains("accepted"), "{text}");
    }
}
