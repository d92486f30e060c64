//! `cotuong analyze`: what the engine thinks of positions and games, for people (a table, an
//! annotated PGN, an evaluation graph) and for tools (JSON).
//!
//! * Positions (`--fen`, or a file of FENs/EPDs with `--positions`): the best lines (MultiPV);
//!   positions whose EPD operations name a best move (`bm`) or a move to avoid (`am`) form a
//!   test suite, scored `solved N of M` with each failure listed.
//! * Games (`--pgn`, any notation, UTF-8 or GB18030/GBK): every move scored against the engine's
//!   best by the same search, and judged an inaccuracy, a mistake or a blunder by the winning
//!   chances it loses (thresholds in `judgement`, settable); each side gets an accuracy.
//!
//! The search runs in process ([`cotuong::search::Searcher`]). Bad input is reported with its
//! place (`error: ...`, exit status 2) before any search; the outputs are written whole, through
//! a temporary file and a rename, or not at all, a review of games after each game (see
//! `game_writer`: Ctrl-C keeps the games finished, `--resume` goes on).

mod accuracy;
pub(super) mod analyst;
pub(crate) mod annotated_pgn;
pub(crate) mod board;
pub(super) mod game_review;
mod game_writer;
mod graph;
mod html;
pub(super) mod input;
pub(super) mod json;
pub(super) mod judgement;
mod mate_note;
mod position_review;
pub(super) mod progress;
pub(super) mod score;
mod table;
mod test_suite;
mod winning_chances;

use clap::{ArgGroup, Args, ValueEnum};
use engine_core::{Notation, RankBase};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::str::FromStr;

use super::interrupt::{self, SecondPress, Stop};
use super::output_file::write_output;
use super::pgn_file::NotationChoice;
use analyst::{Analyst, Limits};
use game_review::GameReview;
use game_writer::GameWriter;
use input::Input;
use judgement::Thresholds;
use position_review::PositionReview;
use progress::Progress;

/// Depth per position when no limit is given.
pub const DEFAULT_DEPTH: u32 = 12;
/// Lines per position of `--fen`/`--positions` unless `--multipv` says otherwise.
pub const DEFAULT_POSITION_LINES: usize = 3;
/// Lines per position of a game: the best and the runner-up, so that a best move has an
/// alternative too.
pub const GAME_LINES: usize = 2;
/// Default table size (MB).
pub const DEFAULT_HASH_MB: usize = 64;

/// Output forms.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A table for people.
    Table,
    /// Annotated PGN.
    Pgn,
    /// JSON for tools.
    Json,
    /// One self-contained HTML page per game (games only): clickable moves, a board, the
    /// graph and the judgements.
    Html,
}

/// Arguments of `cotuong analyze`.
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("input").required(true).args(["fen", "positions", "pgn"])))]
pub struct AnalyzeArgs {
    /// A position: a FEN or `startpos`, optionally followed by `moves m1 m2 ...` (ICCS, ranks
    /// 0-9).
    #[arg(long)]
    pub fen: Option<String>,
    /// A file of positions (`-`: standard input), one per line: a FEN, or an EPD (board, side,
    /// `- -`, then operations: `bm` best moves, `am` moves to avoid, `id`, `c0` ...; with `bm`
    /// or `am` the file is a test suite, scored "solved N of M"), optionally followed by
    /// `moves ...`; `#` starts a comment line.
    #[arg(long, value_name = "FILE", alias = "epd")]
    pub positions: Option<PathBuf>,
    /// Games (`-`: standard input): PGN, UTF-8 or GB18030/GBK, moves in any notation; or one
    /// game of XQF, CBF or DhtmlXQ (by the extension, else by the content).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Analyze only this game of the PGN file (games are counted from 1).
    #[arg(long, value_name = "N", requires = "pgn", value_parser = super::pgn_file::parse_game_number)]
    pub game: Option<u64>,
    /// Notation the games, and the bm/am moves of a test suite, are written in: auto (detected
    /// per game, per move of a suite), iccs, wxf, chinese, vietnamese, vietnamese-asian or san.
    #[arg(long, default_value = "auto", value_parser = NotationChoice::from_str)]
    pub input_notation: NotationChoice,
    /// Notation of the output: iccs, wxf, chinese, vietnamese, vietnamese-asian or san
    /// (default: a game's own notation; WXF for positions).
    #[arg(long, value_parser = parse_notation)]
    pub notation: Option<Notation>,
    /// Output form.
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    /// Write the output to this file (`-` or none: standard output).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Draw each game's evaluation graph as SVG to this file (`NAME-N.svg` per game when there
    /// are several; `-`: standard output, for one game with --output FILE).
    #[arg(long, value_name = "FILE.svg", requires = "pgn")]
    pub graph: Option<PathBuf>,
    /// Depth per position (default: 12 when no limit is given).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Milliseconds per position.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Nodes per position.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Search threads (0: all cores).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(0..=256))]
    pub threads: u64,
    /// Hash table size (MB).
    #[arg(long, default_value_t = DEFAULT_HASH_MB as u64, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    pub hash: u64,
    /// Lines per position (default 3 for positions; games always search at least 2).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=128))]
    pub multipv: Option<u64>,
    /// Drop of the mover's winning chances (percentage points of expected score) from which a
    /// move is an inaccuracy.
    #[arg(long, value_name = "POINTS", default_value_t = judgement::DEFAULT_INACCURACY)]
    pub inaccuracy: u32,
    /// Drop from which a move is a mistake.
    #[arg(long, value_name = "POINTS", default_value_t = judgement::DEFAULT_MISTAKE)]
    pub mistake: u32,
    /// Drop from which a move is a blunder.
    #[arg(long, value_name = "POINTS", default_value_t = judgement::DEFAULT_BLUNDER)]
    pub blunder: u32,
    /// Board diagrams (before each blunder) in FEN letters, uppercase Red, instead of Chinese
    /// characters.
    #[arg(long)]
    pub ascii: bool,
    /// Print the search's `info` lines on standard error, moves in the output notation.
    #[arg(long)]
    pub show_info: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Continue an interrupted review of games: keep the finished games of --output FILE
    /// (written with the same input, limits and format) and review the rest.
    #[arg(long, requires_all = ["pgn", "output"])]
    pub resume: bool,
}

/// Reads a notation name for output.
fn parse_notation(text: &str) -> Result<Notation, String> {
    text.parse::<Notation>().map_err(|e| e.to_string())
}

/// Runs `cotuong analyze`: exit status 0, or 2 with `error: ...` on standard error.
pub fn main(args: &AnalyzeArgs) -> ExitCode {
    super::stdout::exit(run(args), 2)
}

/// The output notation of positions when none is chosen.
const DEFAULT_POSITION_NOTATION: Notation = Notation::Wxf;

/// Everything the outputs need to say about the run.
struct Run<'a> {
    args: &'a AnalyzeArgs,
    limits: Limits,
    thresholds: Thresholds,
    annotator: String,
}

impl Run<'_> {
    /// The output notation of a game written in `written_in`.
    fn game_notation(&self, written_in: Option<Notation>) -> Notation {
        self.args
            .notation
            .or(written_in)
            .unwrap_or(Notation::Iccs(RankBase::Zero))
    }

    fn position_notation(&self) -> Notation {
        self.args.notation.unwrap_or(DEFAULT_POSITION_NOTATION)
    }
}

/// Checks the arguments, reads the input, analyzes it and writes the outputs.
pub fn run(args: &AnalyzeArgs) -> Result<(), String> {
    let thresholds = Thresholds::new(args.inaccuracy, args.mistake, args.blunder)?;
    let mut limits = Limits {
        depth: args.depth,
        movetime_ms: args.movetime,
        nodes: args.nodes,
    };
    if limits == Limits::default() {
        limits.depth = Some(DEFAULT_DEPTH);
    }
    let graph_to_stdout = args.graph.as_deref() == Some(Path::new("-"));
    if graph_to_stdout && args.output.as_deref().unwrap_or(Path::new("-")) == Path::new("-") {
        return Err("--graph - and the analysis cannot share standard output: \
                    give --output FILE"
            .into());
    }
    if let Some(graph) = args.graph.as_ref().filter(|_| !graph_to_stdout) {
        if graph.extension().and_then(|e| e.to_str()) != Some("svg") {
            return Err(format!(
                "--graph {}: the file name must end in .svg",
                graph.display()
            ));
        }
    }
    let input = if let Some(fen) = &args.fen {
        input::from_fen(fen, args.input_notation)?
    } else if let Some(path) = &args.positions {
        input::from_position_file(path, args.input_notation)?
    } else if let Some(path) = &args.pgn {
        input::from_pgn(path, args.input_notation, args.game)?
    } else {
        return Err("nothing to analyze: give --fen, --positions or --pgn".into());
    };
    if let Input::Games(g) = &input {
        if graph_to_stdout && g.len() > 1 {
            return Err(format!(
                "--graph - draws one game: {} games need --graph FILE.svg (then FILE-N.svg), \
                 or choose one with --game",
                g.len()
            ));
        }
    }
    if args.format == Format::Html {
        match &input {
            Input::Positions(_) => {
                return Err("--format html is for games (--pgn)".into());
            }
            Input::Games(g) if g.len() > 1 && args.output.is_none() => {
                return Err(format!(
                    "--format html writes one page per game: {} games need --output FILE.html \
                     (then FILE-N.html), or choose one with --game",
                    g.len()
                ));
            }
            Input::Games(_) => {}
        }
    }
    let run = Run {
        args,
        annotator: format!("{} ({})", cotuong::engine::ENGINE_NAME, limits.describe()),
        limits,
        thresholds,
    };
    let hash = usize::try_from(args.hash).unwrap_or(DEFAULT_HASH_MB);
    let threads =
        cotuong::options::threads_or_all_cores(usize::try_from(args.threads).unwrap_or(1));
    let mut analyst = Analyst::new(&run.limits, hash, threads)?;
    let info_notation = args.show_info.then(|| match &input {
        Input::Positions(_) => run.position_notation(),
        Input::Games(g) => run.game_notation(g.first().and_then(|g| g.notation)),
    });
    let progress = Progress::new(input.searches(), args.quiet, info_notation);
    let requested = args.multipv.map(|n| usize::try_from(n).unwrap_or(1));
    match &input {
        Input::Positions(positions) => {
            let lines = requested.unwrap_or(DEFAULT_POSITION_LINES);
            let reviews =
                position_review::review_positions(&mut analyst, positions, lines, &progress);
            progress.finish();
            let text = positions_text(&run, positions, &reviews)?;
            write_output(
                args.output.as_deref().unwrap_or(Path::new("-")),
                text.as_bytes(),
            )
        }
        Input::Games(games) => {
            let lines = requested.unwrap_or(GAME_LINES).max(GAME_LINES);
            review_games(&run, &mut analyst, games, lines, &progress)
        }
    }
}

/// Reviews `games` (those after the ones a resumed output holds), writing each as it finishes;
/// the first Ctrl-C stops the review between two searches and ends the output as interrupted.
fn review_games(
    run: &Run,
    analyst: &mut Analyst,
    games: &[engine_core::pgn::Game],
    lines: usize,
    progress: &Progress,
) -> Result<(), String> {
    let mut writer = GameWriter::new(run, games, run.args.resume)?;
    let (done, rest) = games.split_at(writer.finished().min(games.len()));
    progress.skip(input::game_searches(done));
    interrupt::install("the search in progress", SecondPress::Exit)?;
    let stop = || interrupt::requested() != Stop::No;
    game_review::review_games(
        analyst,
        rest,
        lines,
        &run.thresholds,
        progress,
        &stop,
        &mut |review| writer.add(&review),
    )?;
    progress.finish();
    let interrupted = writer.finished() < games.len();
    writer.finish(interrupted)?;
    if interrupted {
        let kept = match &run.args.output {
            Some(p) if p.as_path() != Path::new("-") => format!(
                "{} holds the finished games; run again with --resume to continue",
                p.display()
            ),
            _ => "the finished games were written; give --output FILE to be able to resume"
                .to_string(),
        };
        return Err(format!(
            "interrupted after {} of {} games: {kept}",
            writer.finished(),
            games.len()
        ));
    }
    Ok(())
}

fn positions_text(
    run: &Run,
    positions: &[input::PositionInput],
    reviews: &[PositionReview],
) -> Result<String, String> {
    let notation = run.position_notation();
    let expectations: Vec<_> = positions.iter().map(|p| p.expectation.clone()).collect();
    let suite = test_suite::score(reviews, &expectations, notation);
    let mut text = String::new();
    match run.args.format {
        Format::Table => {
            for (i, r) in reviews.iter().enumerate() {
                table::write_position(&mut text, r, i + 1, notation);
            }
            if let Some(suite) = &suite {
                suite.write(&mut text);
            }
        }
        Format::Pgn => {
            for (i, r) in reviews.iter().enumerate() {
                annotated_pgn::write_position(&mut text, r, i + 1, notation, &run.annotator);
            }
            // A PGN reader would take the score for a game's text: it goes to standard error.
            if let Some(suite) = &suite {
                let mut summary = String::new();
                suite.write(&mut summary);
                let _ = std::io::Write::write_all(&mut std::io::stderr(), summary.as_bytes());
            }
        }
        Format::Html => return Err("--format html is for games (--pgn)".into()),
        Format::Json => {
            let doc = json::Document {
                header: json::Header::new(run.limits.describe(), notation, run.thresholds),
                positions: reviews
                    .iter()
                    .map(|r| json::position(r, notation))
                    .collect(),
                suite,
            };
            text = to_json(&doc)?;
        }
    }
    Ok(text)
}

fn to_json<T: serde::Serialize>(doc: &T) -> Result<String, String> {
    serde_json::to_string_pretty(doc)
        .map(|mut s| {
            s.push('\n');
            s
        })
        .map_err(|e| format!("cannot encode the analysis as JSON: {e}"))
}

/// The graph file of `review`, if graphs are asked for: `--graph`'s path for one game of
/// `games`, `NAME-N.svg` (N the game's number) for several.
fn graph_file(run: &Run, review: &GameReview, games: usize) -> Result<Option<PathBuf>, String> {
    Ok(run.args.graph.as_ref().map(|path| {
        if games == 1 {
            path.clone()
        } else {
            numbered(path, review.game.number, "svg")
        }
    }))
}

/// A game's title: `Red - Black 1-0`.
fn title(r: &GameReview) -> String {
    let g = &r.game;
    format!(
        "{} - {} {}",
        r.red_name(),
        r.black_name(),
        g.result.as_deref().unwrap_or("*")
    )
}

/// A game's HTML page.
fn html_page(run: &Run, r: &GameReview) -> Result<String, String> {
    html::page(
        r,
        run.game_notation(r.game.notation),
        &title(r),
        run.args.ascii,
    )
}

/// `dir/name.svg` → `dir/name-N.svg` (`ext` the extension).
fn numbered(path: &Path, n: usize, ext: &str) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or_else(|| "graph".into(), |s| s.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}-{n}.{ext}"))
}
