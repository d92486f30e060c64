//! The UCI dialect (Pikafish conventions): `go` parsing and the option list.

use super::command::{number, time_value, Command, GoParams};

/// Parses UCI-only commands (`word` is the first token).
pub fn parse(word: &str, rest: &[&str]) -> Result<Command, String> {
    match word {
        "uci" => Ok(Command::Uci),
        "ucci" => Ok(Command::Ucci),
        "ucinewgame" => Ok(Command::NewGame),
        "ponderhit" => Ok(Command::PonderHit { draw: false }),
        "go" => parse_go(rest).map(Command::Go),
        _ => Err(format!(
            "unknown command '{}'",
            super::command::excerpt(word)
        )),
    }
}

/// `go` tokens: `wtime btime winc binc movestogo depth nodes movetime mate infinite ponder
/// searchmoves perft`.
pub fn parse_go(tokens: &[&str]) -> Result<GoParams, String> {
    let mut g = GoParams::default();
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        let next = tokens.get(i + 1).copied();
        let mut used = 2;
        match t {
            "wtime" => g.wtime = Some(time_value(t, next)?),
            "btime" => g.btime = Some(time_value(t, next)?),
            "winc" => g.winc = Some(time_value(t, next)?),
            "binc" => g.binc = Some(time_value(t, next)?),
            "movestogo" => g.movestogo = Some(number(t, next)?),
            "depth" => g.depth = Some(number(t, next)?),
            "nodes" => g.nodes = Some(number(t, next)?),
            "movetime" => g.movetime = Some(time_value(t, next)?),
            "mate" => g.mate = Some(number(t, next)?),
            "perft" => g.perft = Some(number(t, next)?),
            "infinite" => {
                g.infinite = true;
                used = 1;
            }
            "ponder" => {
                g.ponder = true;
                used = 1;
            }
            "searchmoves" => {
                let moves: Vec<String> = tokens[i + 1..]
                    .iter()
                    .take_while(|m| !is_go_keyword(m))
                    .map(|m| m.to_string())
                    .collect();
                used = 1 + moves.len();
                g.searchmoves = moves;
            }
            other => {
                return Err(format!(
                    "unknown 'go' parameter '{}'",
                    super::command::excerpt(other)
                ))
            }
        }
        i += used;
    }
    Ok(g)
}

fn is_go_keyword(t: &str) -> bool {
    matches!(
        t,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "movetime"
            | "mate"
            | "infinite"
            | "ponder"
            | "perft"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_with_clock_and_searchmoves() {
        let g = parse_go(
            &"wtime 1000 btime -5 winc 10 binc 10 searchmoves h2e2 b0c2 depth 3"
                .split(' ')
                .collect::<Vec<_>>(),
        )
        .unwrap();
        assert_eq!(g.wtime, Some(1000));
        assert_eq!(g.btime, Some(0));
        assert_eq!(g.searchmoves, vec!["h2e2".to_string(), "b0c2".to_string()]);
        assert_eq!(g.depth, Some(3));
        assert!(parse_go(&["depth", "x"]).is_err());
        assert!(parse_go(&["depth"]).is_err());
        assert!(parse_go(&["sideways"]).is_err());
    }
}
