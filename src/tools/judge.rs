//! `cotuong judge`: the rules referee on the command line, for match tools and for people
//! settling an argument. Reads a start position and moves (`--fen`/`--moves`) or game records
//! (`--pgn`: PGN in any notation, UTF-8 or GB18030, or XQF, CBF, DhtmlXQ), and prints for each game one
//! machine-readable line, `result <1-0|0-1|1/2-1/2|*> <rule-id>`, followed by the explanation
//! (`*` with rule id `none` while the game is undecided). With several games, each verdict is
//! preceded by a `game <N>` line.
//!
//! Bad input never panics: it prints `error: ...` on stderr and exits with status 2, having
//! printed nothing on stdout. A composed start position (a piece where no game could bring it, e.g. a
//! soldier behind its starting rank) is judged all the same, after one `warning: ...` line on
//! stderr, so that stdout stays the machine-readable verdicts. For the same reason a game whose
//! `[Result]` tag claims another decided result than the referee's gets its `note: ...` line on
//! stderr.

use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;

use clap::{Args, ValueEnum};
use engine_core::pgn::{read_movetext, Game, PgnErrorKind};
use engine_core::{
    counted_plies_of, try_adjudicate, CheckCounting, CheckVersusChase, RuleOptions, RuleSet,
};
use engine_core::{Move, Position, RankBase};

use super::pgn_file::{self, NotationChoice};

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
    /// Start position: a FEN or `startpos` (default: the initial position).
    #[arg(long, conflicts_with = "pgn")]
    pub fen: Option<String>,
    /// Moves from the start position, separated by spaces, in any notation (see --notation):
    /// `h2e2 h9g7`, `C2=5 H8+7`, `炮二平五 马8进7`, `P2-5 M8.7`.
    #[arg(long, conflicts_with = "pgn")]
    pub moves: Option<String>,
    /// Game records (`-` for standard input): PGN, UTF-8 or GB18030/GBK (several games, FEN and
    /// SetUp tags, moves in any notation, see --notation; move numbers, comments, variations
    /// and annotations are read past), or one game of XQF, CBF or DhtmlXQ (by the extension
    /// .xqf, .cbf, .dhtmlxq, else by the content).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Judge only this game of the PGN file (games are counted from 1).
    #[arg(long, value_name = "N", requires = "pgn", value_parser = pgn_file::parse_game_number)]
    pub game: Option<u64>,
    /// Notation of the moves: auto (detected per game), iccs, wxf, chinese, vietnamese,
    /// vietnamese-asian or san.
    #[arg(long, default_value = "auto", value_parser = NotationChoice::from_str)]
    pub notation: NotationChoice,
    /// Rank numbering of ICCS coordinates: 0 (0-9), 1 (1-10) or auto.
    #[arg(long, value_enum, default_value = "auto")]
    pub ranks: RanksArg,
    /// Rule book: the Vietnamese Law, or the Asian (AXF/WXF) rules. It sets the defaults of the
    /// options below and how checks and mate threats mixed with attacks are classified.
    #[arg(long, default_value = "vietnamese", value_name = "vietnamese|asian")]
    pub rule_set: RuleSet,
    /// Occurrence of a position at which a repetition is judged.
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub repetition: u32,
    /// Full moves without capture that draw (60 per Điều 7 e, 50 per Điều 12; 0 = off).
    #[arg(long, default_value_t = 60, value_name = "MOVES")]
    pub no_capture_moves: u32,
    /// How checks count toward the no-capture limit: `per-side:N`, `total:N` or `all` (default:
    /// per-side:5 under the Law, per-side:10 under the Asian rules).
    #[arg(long, value_parser = parse_check_counting)]
    pub check_cap: Option<CheckCounting>,
    /// Perpetual check against perpetual chase.
    #[arg(long, value_enum, default_value = "checker-loses")]
    pub check_vs_chase: CheckVsChaseArg,
    /// Do not treat an immobile but protected target as chased (Điều 23 point 7 off; the default
    /// under the Asian rules).
    #[arg(long, conflicts_with = "immobile_rule")]
    pub no_immobile_rule: bool,
    /// Treat an immobile but protected target as chased (Điều 23 point 7 on; the default under
    /// the Law).
    #[arg(long)]
    pub immobile_rule: bool,
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

/// Runs `cotuong judge`, printing the verdicts to stdout and errors to stderr.
pub fn main(args: &JudgeArgs) -> ExitCode {
    super::stdout::exit(run(args, &mut super::stdout::writer()), 2)
}

/// Judges the games described by `args` and writes the verdicts to `out`, all at once after
/// every game has been read and judged.
pub fn run(args: &JudgeArgs, out: &mut dyn Write) -> Result<(), String> {
    let ranks = match args.ranks {
        RanksArg::Zero => Some(RankBase::Zero),
        RanksArg::One => Some(RankBase::One),
        RanksArg::Auto => None,
    };
    let notations = args.notation.candidates(ranks);
    let games = match &args.pgn {
        Some(path) => {
            let mut games = pgn_file::read_games_file(path, &notations)?;
            if games.is_empty() {
                return Err(format!("no game in {}", path.display()));
            }
            if let Some(n) = args.game {
                let count = games.len();
                let index = usize::try_from(n - 1).unwrap_or(usize::MAX);
                if index >= count {
                    return Err(format!(
                        "--game {n}: {} holds {count} game{}",
                        path.display(),
                        if count == 1 { "" } else { "s" }
                    ));
                }
                games = vec![games.swap_remove(index)];
            }
            games
        }
        None => {
            let start = match &args.fen {
                Some(fen) => {
                    let (start, warnings) =
                        Position::from_fen_with_warnings(engine_core::expand_startpos(fen))
                            .map_err(|e| format!("bad FEN: {e}"))?;
                    if !warnings.is_empty() {
                        eprintln!("warning: {warnings}");
                    }
                    start
                }
                None => Position::startpos(),
            };
            let moves = args.moves.as_deref().unwrap_or("");
            let game = read_movetext(start, moves, &notations).map_err(|e| match e.kind {
                PgnErrorKind::BadMove { ply, .. } => format!("--moves, ply {ply}: {}", e.kind),
                kind => format!("--moves: {kind}"),
            })?;
            vec![game]
        }
    };
    let options = rule_options(args);
    let mut text = String::new();
    let mut notes = Vec::new();
    for game in &games {
        if games.len() > 1 {
            let _ = writeln!(text, "game {}", game.number);
        }
        let moves = game.move_list();
        let decided = verdict(&game.start, &moves, &options, &mut text)
            .map_err(|e| format!("game {}: {e}", game.number))?;
        if let Some(note) = result_tag_note(game, decided.as_ref()) {
            let which = if games.len() > 1 {
                format!("game {}: ", game.number)
            } else {
                String::new()
            };
            notes.push(format!("note: {which}{note}"));
        }
    }
    for note in &notes {
        eprintln!("{note}");
    }
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write the verdict: {e}"))
}

/// The referee's options from the command line: the rule set's defaults, then the explicit flags.
fn rule_options(args: &JudgeArgs) -> RuleOptions {
    let mut options = RuleOptions::for_rule_set(args.rule_set);
    options.repetition_threshold = args.repetition;
    options.no_capture_moves = args.no_capture_moves;
    if let Some(counting) = args.check_cap {
        options.no_capture_checks = counting;
    }
    options.check_vs_chase = match args.check_vs_chase {
        CheckVsChaseArg::CheckerLoses => CheckVersusChase::CheckerLoses,
        CheckVsChaseArg::Draw => CheckVersusChase::Draw,
    };
    if args.no_immobile_rule {
        options.chase.immobile_target_counts = false;
    }
    if args.immobile_rule {
        options.chase.immobile_target_counts = true;
    }
    options
}

/// What the referee decided: the result (`1-0`, `0-1`, `1/2-1/2`) and the rule's id.
struct Decided {
    result: &'static str,
    rule: &'static str,
}

/// The result a game's record claims: its `[Result]` tag, else its termination marker.
fn recorded_result(game: &Game) -> Option<&str> {
    game.tag("Result").or(game.result.as_deref()).map(str::trim)
}

/// A note for people when the record claims a decided result other than the referee's. A
/// record that claims a result the referee cannot see (a resignation, a loss on time: the
/// referee says `*`) or claims none is not contradicted.
fn result_tag_note(game: &Game, decided: Option<&Decided>) -> Option<String> {
    let claimed = recorded_result(game)?;
    let decided = decided?;
    let is_result = matches!(claimed, "1-0" | "0-1" | "1/2-1/2");
    (is_result && claimed != decided.result).then(|| {
        format!(
            "the [Result] tag says {claimed}, the referee says {} ({})",
            decided.result, decided.rule
        )
    })
}

/// Appends the verdict on the game `start` + `moves` (legal) to `text`; returns it when the
/// game is decided.
fn verdict(
    start: &Position,
    moves: &[Move],
    options: &RuleOptions,
    text: &mut String,
) -> Result<Option<Decided>, String> {
    match try_adjudicate(start, moves, options).map_err(|e| e.to_string())? {
        Some(v) => {
            let _ = writeln!(text, "result {} {}", v.result.pgn(), v.rule.id());
            let _ = writeln!(text, "{}", v.explanation);
            Ok(Some(Decided {
                result: v.result.pgn(),
                rule: v.rule.id(),
            }))
        }
        None => {
            let mut pos = start.clone();
            for &mv in moves {
                pos.make_move(mv);
            }
            let _ = writeln!(text, "result * none");
            let counted = counted_plies_of(&pos, options.no_capture_checks);
            // The Law counts moves (a move is two plies); the counters are in plies.
            let limit = match options.no_capture_moves {
                0 => "the no-capture rule is off".to_string(),
                moves => format!(
                    "{} counted toward the limit of {moves} move{} ({})",
                    plies(u64::from(counted)),
                    if moves == 1 { "" } else { "s" },
                    plies(2 * u64::from(moves))
                ),
            };
            let _ = writeln!(
                text,
                "Not decided after {}: {} to move; {} without a capture ({limit}); no position \
                 has occurred {} times",
                plies(moves.len() as u64),
                pos.side_to_move().name(),
                plies(u64::from(pos.no_capture_plies())),
                options.repetition_threshold.max(2),
            );
            Ok(None)
        }
    }
}

/// `n` plies, singular for one.
fn plies(n: u64) -> String {
    format!("{n} {}", if n == 1 { "ply" } else { "plies" })
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// `cotuong judge` arguments as clap parses them.
    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        judge: JudgeArgs,
    }

    fn options(args: &[&str]) -> RuleOptions {
        use clap::Parser;
        let cli = Cli::try_parse_from(std::iter::once("judge").chain(args.iter().copied()))
            .expect("valid arguments");
        rule_options(&cli.judge)
    }

    #[test]
    fn rule_set_sets_the_defaults_and_flags_override_them() {
        assert_eq!(options(&[]), RuleOptions::default());
        let asian = options(&["--rule-set", "asian"]);
        assert_eq!(asian, RuleOptions::for_rule_set(RuleSet::Asian));
        assert_eq!(asian.no_capture_checks, CheckCounting::CapPerSide(10));
        let custom = options(&[
            "--rule-set",
            "asian",
            "--check-cap",
            "all",
            "--repetition",
            "4",
        ]);
        assert_eq!(custom.rule_set, RuleSet::Asian);
        assert_eq!(custom.no_capture_checks, CheckCounting::All);
        assert_eq!(custom.repetition_threshold, 4);
        assert!(
            !options(&["--no-immobile-rule"])
                .chase
                .immobile_target_counts
        );
        // Off by default under the Asian rules; on again by the flag.
        assert!(
            !options(&["--rule-set", "asian"])
                .chase
                .immobile_target_counts
        );
        assert!(
            options(&["--rule-set", "asian", "--immobile-rule"])
                .chase
                .immobile_target_counts
        );
    }

    #[test]
    fn rank_auto_detection() {
        let start = Position::startpos();
        let auto = NotationChoice::Auto.candidates(None);
        let game = read_movetext(start.clone(), "h3e3 h10g8", &auto).expect("1-10 detected");
        assert_eq!(game.moves.len(), 2);
        let zero = NotationChoice::Auto.candidates(Some(RankBase::Zero));
        assert!(read_movetext(start, "h3e3 h10g8", &zero).is_err());
    }
}
