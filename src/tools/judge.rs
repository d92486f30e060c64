//! `cotuong judge`: the rules referee on the command line, for match tools and for people
//! settling an argument. Reads a start position and moves (`--fen`/`--moves`) or a PGN game
//! record (`--pgn`), and prints one machine-readable line, `result <1-0|0-1|1/2-1/2|*> <rule-id>`,
//! followed by the explanation (`*` with rule id `none` while the game is undecided).
//!
//! Bad input never panics: it prints `error: ...` on stderr and exits with status 2.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use engine_core::rules::{
    counted_plies_of, try_adjudicate, ChaseRules, CheckCounting, CheckVersusChase, RuleOptions,
};
use engine_core::{Move, Position, RankBase, START_FEN};

/// Rank numbering of move text.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum RanksArg {
    /// Ranks 0-9 (ICCS, UCCI, Pikafish).
    #[value(name = "0")]
    Zero,
    /// Ranks 1-10 (cutechess, Fairy-Stockfish).
    #[value(name = "1")]
    One,
    /// Try 0-9 first, then 1-10 if the moves are not all legal with 0-9.
    Auto,
}

/// Perpetual check against perpetual chase (see `RuleOptions::check_vs_chase`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckVsChaseArg {
    /// The perpetual checker loses (Điều 7 g; the default).
    CheckerLoses,
    /// Both offend: draw.
    Draw,
}

/// Arguments of `cotuong judge`.
#[derive(Args, Debug)]
pub struct JudgeArgs {
    /// Start position (default: the initial position).
    #[arg(long, conflicts_with = "pgn")]
    pub fen: Option<String>,
    /// Moves from the start position in ICCS coordinates, separated by spaces (`h2e2 h9g7`,
    /// `h2-e2` also accepted).
    #[arg(long, conflicts_with = "pgn")]
    pub moves: Option<String>,
    /// A PGN game record (`-` for standard input): optional FEN tag, ICCS moves; move numbers,
    /// comments, variations, annotations and the result token are ignored.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Rank numbering of the moves: 0 (0-9), 1 (1-10) or auto.
    #[arg(long, value_enum, default_value = "auto")]
    pub ranks: RanksArg,
    /// Occurrence of a position at which a repetition is judged.
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub repetition: u32,
    /// Full moves without capture that draw (60 per Điều 7 e, 50 per Điều 12; 0 = off).
    #[arg(long, default_value_t = 60, value_name = "MOVES")]
    pub no_capture_moves: u32,
    /// How checks count toward the no-capture limit: `per-side:N`, `total:N` or `all`.
    #[arg(long, default_value = "per-side:5", value_parser = parse_check_counting)]
    pub check_cap: CheckCounting,
    /// Perpetual check against perpetual chase.
    #[arg(long, value_enum, default_value = "checker-loses")]
    pub check_vs_chase: CheckVsChaseArg,
    /// Do not treat an immobile but protected target as chased (Điều 23 point 7 off).
    #[arg(long)]
    pub no_immobile_rule: bool,
}

/// Parses `per-side:N`, `total:N` or `all`.
fn parse_check_counting(text: &str) -> Result<CheckCounting, String> {
    let bad = || format!("'{text}' is not one of per-side:N, total:N, all");
    if text == "all" {
        return Ok(CheckCounting::All);
    }
    let (mode, n) = text.split_once(':').ok_or_else(bad)?;
    let n: u16 = n.parse().map_err(|_| bad())?;
    match mode {
        "per-side" => Ok(CheckCounting::CapPerSide(n)),
        "total" => Ok(CheckCounting::CapTotal(n)),
        _ => Err(bad()),
    }
}

/// A game to judge, before its moves are interpreted.
#[derive(Debug, PartialEq, Eq)]
struct GameText {
    fen: String,
    moves: Vec<String>,
}

/// Runs `cotuong judge`, printing the verdict to stdout and errors to stderr.
pub fn main(args: &JudgeArgs) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match run(args, &mut stdout) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Judges the game described by `args` and writes the verdict to `out`.
pub fn run(args: &JudgeArgs, out: &mut dyn Write) -> Result<(), String> {
    let game = match &args.pgn {
        Some(path) => {
            let bytes = if path.as_os_str() == "-" {
                let mut buf = Vec::new();
                std::io::stdin()
                    .read_to_end(&mut buf)
                    .map_err(|e| format!("cannot read standard input: {e}"))?;
                buf
            } else {
                std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?
            };
            let text = String::from_utf8(bytes)
                .map_err(|_| format!("{} is not UTF-8 text", path.display()))?;
            parse_pgn(&text)?
        }
        None => GameText {
            fen: args.fen.clone().unwrap_or_else(|| START_FEN.to_string()),
            moves: args
                .moves
                .as_deref()
                .unwrap_or("")
                .split_whitespace()
                .map(str::to_string)
                .collect(),
        },
    };
    let start = Position::from_fen(&game.fen).map_err(|e| format!("bad FEN: {e}"))?;
    let moves = interpret_moves(&start, &game.moves, args.ranks)?;
    let options = RuleOptions {
        repetition_threshold: args.repetition,
        no_capture_moves: args.no_capture_moves,
        no_capture_checks: args.check_cap,
        check_vs_chase: match args.check_vs_chase {
            CheckVsChaseArg::CheckerLoses => CheckVersusChase::CheckerLoses,
            CheckVsChaseArg::Draw => CheckVersusChase::Draw,
        },
        chase: ChaseRules {
            immobile_target_counts: !args.no_immobile_rule,
        },
        insufficient_material_draw: true,
    };
    let verdict = try_adjudicate(&start, &moves, &options).map_err(|e| e.to_string())?;
    let write_err = |e: std::io::Error| format!("cannot write the verdict: {e}");
    match verdict {
        Some(v) => {
            writeln!(out, "result {} {}", v.result.pgn(), v.rule.id()).map_err(write_err)?;
            writeln!(out, "{}", v.explanation).map_err(write_err)?;
        }
        None => {
            let mut pos = start.clone();
            for &mv in &moves {
                pos.make_move(mv);
            }
            writeln!(out, "result * none").map_err(write_err)?;
            writeln!(
                out,
                "Not decided after {} plies: {} to move; {} plies without a capture ({} counted \
                 toward the {}-move limit); no position has occurred {} times",
                moves.len(),
                pos.side_to_move().name(),
                pos.no_capture_plies(),
                counted_plies_of(&pos, options.no_capture_checks),
                options.no_capture_moves,
                options.repetition_threshold.max(2),
            )
            .map_err(write_err)?;
        }
    }
    Ok(())
}

/// Turns move text into legal moves from `start`, with the requested rank numbering (or the
/// first of 0-9 and 1-10 under which every move is legal).
fn interpret_moves(
    start: &Position,
    texts: &[String],
    ranks: RanksArg,
) -> Result<Vec<Move>, String> {
    match ranks {
        RanksArg::Zero => replay(start, texts, RankBase::Zero).map_err(|(_, e)| e),
        RanksArg::One => replay(start, texts, RankBase::One).map_err(|(_, e)| e),
        RanksArg::Auto => match replay(start, texts, RankBase::Zero) {
            Ok(moves) => Ok(moves),
            Err((zero_ok, zero_err)) => match replay(start, texts, RankBase::One) {
                Ok(moves) => Ok(moves),
                // Report the numbering that got further: its error is the informative one.
                Err((one_ok, one_err)) => Err(if one_ok > zero_ok {
                    format!("{one_err} (reading ranks as 1-10)")
                } else {
                    zero_err
                }),
            },
        },
    }
}

/// Replays `texts` from `start`; on failure returns how many moves were legal and the error.
fn replay(
    start: &Position,
    texts: &[String],
    base: RankBase,
) -> Result<Vec<Move>, (usize, String)> {
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        let mv = pos
            .parse_move(text, base)
            .map_err(|e| (i, format!("move {} (ply {}): {e}", text, i + 1)))?;
        pos.make_move(mv);
        moves.push(mv);
    }
    Ok(moves)
}

/// Extracts the FEN tag and the move tokens of a PGN game record (the first game).
fn parse_pgn(text: &str) -> Result<GameText, String> {
    let mut fen = None;
    let mut moves = Vec::new();
    let mut chars = text.chars().peekable();
    let mut token = String::new();
    let mut variation_depth = 0u32;
    let mut seen_moves = false;
    let flush = |token: &mut String, moves: &mut Vec<String>, depth: u32| {
        if depth == 0 {
            if let Some(m) = move_token(token) {
                moves.push(m);
            }
        }
        token.clear();
    };
    while let Some(c) = chars.next() {
        match c {
            '[' if variation_depth == 0 => {
                flush(&mut token, &mut moves, variation_depth);
                let mut tag = String::new();
                let mut in_quotes = false;
                let mut closed = false;
                for t in chars.by_ref() {
                    match t {
                        '"' => in_quotes = !in_quotes,
                        ']' if !in_quotes => {
                            closed = true;
                            break;
                        }
                        _ => {}
                    }
                    tag.push(t);
                }
                if !closed {
                    return Err("unterminated PGN tag (missing ']')".to_string());
                }
                if seen_moves {
                    // The next game's tags: judge only the first game.
                    break;
                }
                if let Some((name, value)) = parse_tag(&tag) {
                    if name.eq_ignore_ascii_case("FEN") {
                        fen = Some(value);
                    }
                }
            }
            '{' => {
                flush(&mut token, &mut moves, variation_depth);
                if !chars.by_ref().any(|t| t == '}') {
                    return Err("unterminated PGN comment (missing '}')".to_string());
                }
            }
            ';' => {
                flush(&mut token, &mut moves, variation_depth);
                for t in chars.by_ref() {
                    if t == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                flush(&mut token, &mut moves, variation_depth);
                variation_depth += 1;
            }
            ')' => {
                flush(&mut token, &mut moves, variation_depth);
                variation_depth = variation_depth
                    .checked_sub(1)
                    .ok_or_else(|| "unbalanced ')' in PGN".to_string())?;
            }
            c if c.is_whitespace() => {
                let before = moves.len();
                flush(&mut token, &mut moves, variation_depth);
                seen_moves |= moves.len() > before;
            }
            c => token.push(c),
        }
    }
    flush(&mut token, &mut moves, variation_depth);
    Ok(GameText {
        fen: fen.unwrap_or_else(|| START_FEN.to_string()),
        moves,
    })
}

/// `Name "value"` of a tag's inside.
fn parse_tag(tag: &str) -> Option<(String, String)> {
    let tag = tag.trim();
    let (name, rest) = tag.split_once(char::is_whitespace)?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((name.to_string(), value.replace("\\\"", "\"")))
}

/// The move in a PGN token, without its move number and annotations; `None` for results,
/// NAGs and bare move numbers.
fn move_token(token: &str) -> Option<String> {
    if token.starts_with('$') || matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
        return None;
    }
    // "12." / "12..." / "12.h2e2": drop the number and its dots.
    let rest = token.trim_start_matches(|c: char| c.is_ascii_digit());
    let t = if rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else {
        token
    };
    let t = t.trim_end_matches(['!', '?', '+', '#']);
    (!t.is_empty()).then(|| t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_tokens() {
        let pgn = "[Event \"x\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n\n1. h2e2 {centre cannon} h9g7 \
                   2.h0g2 ; rest of line\n (2. b0c2) 2... i9h9!? $1 3. H2-E2 1-0\n";
        let g = parse_pgn(pgn).expect("parses");
        assert_eq!(g.fen, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
        assert_eq!(g.moves, ["h2e2", "h9g7", "h0g2", "i9h9", "H2-E2"]);
        assert!(parse_pgn("1. h2e2 {open").is_err());
        assert!(parse_pgn("[FEN \"x\"").is_err());
        assert!(parse_pgn("1. h2e2 )").is_err());
    }

    #[test]
    fn check_cap_values() {
        assert_eq!(parse_check_counting("all"), Ok(CheckCounting::All));
        assert_eq!(
            parse_check_counting("per-side:5"),
            Ok(CheckCounting::CapPerSide(5))
        );
        assert_eq!(
            parse_check_counting("total:10"),
            Ok(CheckCounting::CapTotal(10))
        );
        assert!(parse_check_counting("total").is_err());
        assert!(parse_check_counting("side:3").is_err());
    }

    #[test]
    fn rank_auto_detection() {
        let start = Position::startpos();
        let texts: Vec<String> = ["h3e3", "h10g8"].iter().map(|s| s.to_string()).collect();
        let moves = interpret_moves(&start, &texts, RanksArg::Auto).expect("1-10 detected");
        assert_eq!(moves.len(), 2);
        assert!(interpret_moves(&start, &texts, RanksArg::Zero).is_err());
    }
}
