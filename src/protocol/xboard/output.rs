//! What the XBoard dialect writes: the `feature` lines (options generated from the option
//! tables), thinking lines (`depth score time nodes pv`: centipawns, centiseconds), moves, game
//! results with the referee's reason, and errors.

use super::options::XBOARD_OPTIONS;
use crate::engine::ENGINE_NAME;
use crate::options::{OptionKind, Spec, OPTIONS};
use crate::search::{is_mate, mate_moves, Info, ScoreBound};
use engine_core::{move_text, Color, GameResult, Move, RankBase, RuleId, Verdict};

/// XBoard's mate scores: mate in N moves is `100000 + N`, being mated `-100000 - N`.
const XBOARD_MATE: i32 = 100_000;

/// Engine options XBoard sets with commands of their own (`memory`, `cores`), so they are not
/// offered again as `feature option`.
const OWN_COMMAND_OPTIONS: &[&str] = &["Hash", "Threads"];

/// A move on this wire: files a-i, ranks 0-9.
pub fn mv(m: Move) -> String {
    move_text(m, RankBase::Zero)
}

/// `move m`.
pub fn move_line(m: Move) -> String {
    format!("move {}", mv(m))
}

/// `Error (reason): command`.
pub fn error(reason: &str, command: &str) -> String {
    format!("Error ({reason}): {command}")
}

/// `Illegal move (reason): m`.
pub fn illegal_move(reason: &str, text: &str) -> String {
    format!("Illegal move ({reason}): {text}")
}

/// A comment line (`# ...`), which XBoard shows in its debug log and GUIs ignore.
pub fn comment(text: &str) -> String {
    format!("# {text}")
}

/// The answer to `protover 2`: every feature on lines of their own, `done=1` last.
pub fn features() -> Vec<String> {
    let mut lines = vec![
        "feature done=0".to_string(),
        format!(
            "feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=1 sigint=0 \
             sigterm=0 reuse=1 analyze=1 colors=0 ics=0 name=0 pause=0 nps=1 debug=1 memory=1 \
             smp=1 exclude=0 setscore=0 highlight=0 variants=\"xiangqi\" myname=\"{ENGINE_NAME}\""
        ),
    ];
    lines.extend(
        OPTIONS
            .iter()
            .filter(|s| !s.uci.is_some_and(|n| OWN_COMMAND_OPTIONS.contains(&n)))
            .filter_map(option_feature),
    );
    lines.extend(XBOARD_OPTIONS.iter().filter_map(option_feature));
    lines.push("feature done=1".to_string());
    lines
}

/// `feature option="NAME -spin 16 1 1024"` and the like; `None` for hidden options and those
/// without a UCI name (the name XBoard shows).
pub fn option_feature<S, E>(spec: &Spec<S, E>) -> Option<String> {
    if spec.hidden {
        return None;
    }
    let name = spec.uci?;
    let kind = match spec.kind {
        OptionKind::Spin { default, min, max } => format!("-spin {default} {min} {max}"),
        OptionKind::Check { default } => format!("-check {}", u8::from(default)),
        OptionKind::Combo { default, values } => {
            let vals: Vec<String> = values
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    if i == default {
                        format!("*{v}")
                    } else {
                        v.to_string()
                    }
                })
                .collect();
            format!("-combo {}", vals.join(" /// "))
        }
        OptionKind::Button => "-button".to_string(),
        OptionKind::String { default } => format!("-string {default}"),
    };
    Some(format!("feature option=\"{name} {kind}\""))
}

/// A score in XBoard's units (centipawns, mates as `±100000 + N`).
pub fn score(s: i32) -> i32 {
    if is_mate(s) {
        let n = mate_moves(s);
        if n > 0 {
            XBOARD_MATE + n
        } else {
            -XBOARD_MATE + n
        }
    } else {
        s
    }
}

/// A thinking line, `depth score time nodes pv` (time in centiseconds); `None` for what XBoard
/// does not show (bound scores, lines after the first, the current move).
pub fn thinking(info: &Info) -> Option<String> {
    match info {
        Info::Iteration {
            depth,
            multipv,
            score: s,
            bound: ScoreBound::Exact,
            nodes,
            time_ms,
            pv,
            ..
        } if *multipv == 1 => {
            let pv: Vec<String> = pv.iter().map(|&m| mv(m)).collect();
            Some(format!(
                "{depth} {} {} {nodes} {}",
                score(*s),
                time_ms / 10,
                pv.join(" ")
            ))
        }
        _ => None,
    }
}

/// The short reason of a verdict, as XBoard and cutechess write them (`Red mates`, `Perpetual
/// check by Black`); the referee's full explanation goes on a comment line.
pub fn verdict_title(v: &Verdict) -> String {
    let winner = match v.result {
        GameResult::RedWins => Some(Color::Red),
        GameResult::BlackWins => Some(Color::Black),
        GameResult::Draw => None,
    };
    let name = |c: Color| match c {
        Color::Red => "Red",
        Color::Black => "Black",
    };
    let loser = winner.map(|w| name(w.opponent())).unwrap_or("nobody");
    let winner = winner.map(name).unwrap_or("nobody");
    match v.rule {
        RuleId::Checkmate => format!("{winner} mates"),
        RuleId::Stalemate => format!("{loser} is stalemated and loses"),
        RuleId::PerpetualCheck => format!("Perpetual check by {loser}"),
        RuleId::PerpetualChase => format!("Perpetual chase by {loser}"),
        RuleId::RepetitionDraw => "Draw by repetition".to_string(),
        RuleId::NoCapture => "Draw by the no-capture rule".to_string(),
        RuleId::InsufficientMaterial => "Draw: no attacking material".to_string(),
    }
}

/// The result line, `1-0 {Red mates}`.
pub fn result_line(v: &Verdict) -> String {
    format!("{} {{{}}}", v.result.pgn(), verdict_title(v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{mate_in, mated_in};

    #[test]
    fn features_offer_options_from_the_tables() {
        let f = features();
        assert_eq!(f.last().map(String::as_str), Some("feature done=1"));
        assert!(f.iter().any(|l| l.contains("variants=\"xiangqi\"")));
        assert!(f
            .iter()
            .any(|l| l.starts_with("feature option=\"Skill Level -spin")));
        assert!(!f.iter().any(|l| l.contains("option=\"Hash ")));
        assert!(!f.iter().any(|l| l.contains("UCI_Variant")));
        assert!(f.iter().any(|l| l.contains("-combo ")));
    }

    #[test]
    fn scores_in_xboard_units() {
        assert_eq!(score(37), 37);
        assert_eq!(score(mate_in(3)), 100_002);
        assert_eq!(score(mated_in(2)), -100_001);
    }
}
