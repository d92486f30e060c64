//! The UCCI 3.0 dialect: `go [ponder|draw] depth|nodes|infinite|time ..`, `ponderhit [draw]`.

use super::command::{number, time_value, Command, GoParams};

/// Parses UCCI-only commands (`word` is the first token).
pub fn parse(word: &str, rest: &[&str]) -> Result<Command, String> {
    match word {
        "ucci" => Ok(Command::Ucci),
        "uci" => Ok(Command::Uci),
        "ucinewgame" => Ok(Command::NewGame),
        "ponderhit" => match rest.first() {
            None => Ok(Command::PonderHit { draw: false }),
            Some(&"draw") => Ok(Command::PonderHit { draw: true }),
            Some(other) => Err(format!(
                "unexpected '{}' after 'ponderhit'",
                super::command::excerpt(other)
            )),
        },
        "go" => parse_go(rest).map(Command::Go),
        _ => Err(format!(
            "unknown command '{}'",
            super::command::excerpt(word)
        )),
    }
}

/// `go` tokens in UCCI form. UCI clock keywords are accepted too (some UCCI GUIs send them).
pub fn parse_go(tokens: &[&str]) -> Result<GoParams, String> {
    let mut g = GoParams::default();
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        let next = tokens.get(i + 1).copied();
        let mut used = 2;
        match t {
            "ponder" => {
                g.ponder = true;
                used = 1;
            }
            "draw" => {
                g.draw = true;
                used = 1;
            }
            "infinite" => {
                g.infinite = true;
                used = 1;
            }
            "depth" => g.depth = Some(number(t, next)?),
            "nodes" => g.nodes = Some(number(t, next)?),
            "time" => g.time = Some(time_value(t, next)?),
            "increment" => g.increment = Some(time_value(t, next)?),
            "movestogo" => g.movestogo = Some(number(t, next)?),
            "opptime" => g.opptime = Some(time_value(t, next)?),
            "oppincrement" => g.oppincrement = Some(time_value(t, next)?),
            "oppmovestogo" => g.oppmovestogo = Some(number(t, next)?),
            "perft" => g.perft = Some(number(t, next)?),
            "wtime" | "btime" | "winc" | "binc" | "movetime" | "mate" | "searchmoves" => {
                let uci = super::uci::parse_go(&tokens[i..])?;
                return Ok(merge(g, uci));
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
    if g.ponder && g.draw {
        return Err("'go ponder' and 'go draw' cannot be combined (use 'ponderhit draw')".into());
    }
    Ok(g)
}

/// Keeps UCCI fields already parsed and adds the UCI ones.
fn merge(ucci: GoParams, uci: GoParams) -> GoParams {
    GoParams {
        ponder: ucci.ponder || uci.ponder,
        draw: ucci.draw,
        infinite: ucci.infinite || uci.infinite,
        depth: ucci.depth.or(uci.depth),
        nodes: ucci.nodes.or(uci.nodes),
        movestogo: ucci.movestogo.or(uci.movestogo),
        time: ucci.time,
        increment: ucci.increment,
        opptime: ucci.opptime,
        oppmovestogo: ucci.oppmovestogo,
        oppincrement: ucci.oppincrement,
        perft: ucci.perft.or(uci.perft),
        ..uci
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_time_forms() {
        let g = parse_go(
            &"ponder time 295000 increment 0 opptime 300000 oppincrement 0"
                .split(' ')
                .collect::<Vec<_>>(),
        )
        .unwrap();
        assert!(g.ponder);
        assert_eq!(g.time, Some(295_000));
        assert_eq!(g.increment, Some(0));
        assert_eq!(g.opptime, Some(300_000));
        let g = parse_go(&["draw", "depth", "5"]).unwrap();
        assert!(g.draw);
        assert_eq!(g.depth, Some(5));
        assert!(parse_go(&["ponder", "draw", "time", "5"]).is_err());
        assert!(parse_go(&["time"]).is_err());
        assert_eq!(
            parse("ponderhit", &["draw"]).unwrap(),
            Command::PonderHit { draw: true }
        );
    }
}
