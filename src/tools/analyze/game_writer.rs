//! A review of games written as each game finishes, so that an interruption (Ctrl-C) keeps the
//! finished games, and `--resume` continues where the last run stopped.
//!
//! To a file (`-o FILE`), the whole document so far is written through a temporary file and a
//! rename after every game: it is always whole, and says at its end when the run was
//! interrupted (a `%` escape line in PGN, which readers skip; a last line in the table;
//! `"interrupted": true` in JSON). To standard output, the table and the PGN are printed game by
//! game; JSON and a single HTML page at the end. With several games, `--format html` writes one
//! page per game (`FILE-N.html`) as each finishes and an index page (`FILE`) linking them.
//!
//! `--resume` reads the output file of an interrupted run with the same limits and format,
//! keeps its games and reviews only the games after them.

use engine_core::{pgn, Notation};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::super::output_file::{write_atomically, write_output};
use super::game_review::GameReview;
use super::{annotated_pgn, graph, html, json, table, Format, Run};

/// The start of the note that ends an interrupted document (a PGN escape line in PGN).
const INTERRUPTED: &str = "% interrupted:";

/// What is written where, and the games written so far.
pub struct GameWriter<'a> {
    run: &'a Run<'a>,
    /// The output file; `None`: standard output.
    file: Option<PathBuf>,
    /// Games in the selection, for the interruption note.
    total: usize,
    /// The table's or PGN's text of the finished games (the heading included).
    text: String,
    /// JSON: the finished games.
    json_games: Vec<Value>,
    /// HTML index: each finished game's entry (see `html::index_entry`).
    pages: Vec<String>,
    /// Games finished, those of a resumed run included.
    done: usize,
    /// The one notation of a JSON document.
    json_notation: Notation,
}

impl<'a> GameWriter<'a> {
    /// A writer for `total` games; with `resume`, the finished games of the output file are
    /// read back (an error if there is no such file, or it was written with other settings).
    pub fn new(
        run: &'a Run<'a>,
        games: &[pgn::Game],
        resume: bool,
    ) -> Result<GameWriter<'a>, String> {
        let file = run
            .args
            .output
            .clone()
            .filter(|p| p.as_path() != Path::new("-"));
        let mut w = GameWriter {
            run,
            file,
            total: games.len(),
            text: String::new(),
            json_games: Vec::new(),
            pages: Vec::new(),
            done: 0,
            // The chosen one, or the first game's.
            json_notation: run.game_notation(games.first().and_then(|g| g.notation)),
        };
        if resume {
            w.read_back()?;
        } else if w.run.args.format == Format::Table {
            w.text = table_heading(run);
            if w.file.is_none() {
                super::super::stdout::print(&w.text)?;
            }
        }
        Ok(w)
    }

    /// How many games of the selection are finished already (read back by `--resume`).
    pub fn finished(&self) -> usize {
        self.done
    }

    /// Writes a finished game: its part of the document, its page, its graph.
    pub fn add(&mut self, review: &GameReview) -> Result<(), String> {
        let run = self.run;
        let notation = run.game_notation(review.game.notation);
        let mut part = String::new();
        match run.args.format {
            Format::Table => table::write_game(&mut part, review, notation, run.args.ascii),
            Format::Pgn => annotated_pgn::write_game(
                &mut part,
                review,
                notation,
                &run.annotator,
                run.args.ascii,
            ),
            Format::Json => {
                let value = serde_json::to_value(json::game(review, self.json_notation))
                    .map_err(|e| format!("cannot encode the analysis as JSON: {e}"))?;
                self.json_games.push(value);
            }
            Format::Html => part = super::html_page(run, review)?,
        }
        self.done += 1;
        if let Some(path) = super::graph_file(run, review, self.total)? {
            write_output(&path, graph::svg(review, &super::title(review))?.as_bytes())?;
        }
        match (run.args.format, &self.file) {
            (Format::Html, Some(path)) if self.total > 1 => {
                let page = super::numbered(path, review.game.number, "html");
                write_atomically(&page, part.as_bytes())?;
                let name = page
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                self.pages
                    .push(html::index_entry(&name, &index_entry(review)));
                write_atomically(
                    path,
                    html::index(&self.pages, &run.annotator, None).as_bytes(),
                )
            }
            (Format::Html | Format::Json, _) => {
                self.text = part;
                match &self.file {
                    Some(_) => self.write_file(false),
                    None => Ok(()),
                }
            }
            (Format::Table | Format::Pgn, None) => {
                self.text.push_str(&part);
                super::super::stdout::print(&part)
            }
            (Format::Table | Format::Pgn, Some(_)) => {
                self.text.push_str(&part);
                self.write_file(false)
            }
        }
    }

    /// Ends the document: complete, or `interrupted` with the games finished so far.
    pub fn finish(&mut self, interrupted: bool) -> Result<(), String> {
        let note = interrupted.then(|| self.interruption_note());
        match (&self.file, self.run.args.format) {
            (Some(path), Format::Html) if self.total > 1 => write_atomically(
                path,
                html::index(
                    &self.pages,
                    &self.run.annotator,
                    note.as_deref().map(|n| n.trim_start_matches("% ")),
                )
                .as_bytes(),
            ),
            // A single game's page interrupted: there is no page to write.
            (_, Format::Html) if self.done == 0 => Ok(()),
            (Some(_), _) => self.write_file(interrupted),
            (None, Format::Json) => super::super::stdout::print(&self.json_document(interrupted)?),
            (None, Format::Html) => super::super::stdout::print(&self.text),
            (None, Format::Table | Format::Pgn) => match note {
                Some(n) => super::super::stdout::print(&format!("{n}\n")),
                None => Ok(()),
            },
        }
    }

    /// `% interrupted: 3 of 10 games reviewed; run again with --resume to continue`.
    fn interruption_note(&self) -> String {
        format!(
            "{INTERRUPTED} {} of {} games reviewed; run again with --resume to continue",
            self.done, self.total
        )
    }

    /// The JSON document of the games finished.
    fn json_document(&self, interrupted: bool) -> Result<String, String> {
        let doc = json::GamesDocument {
            header: json::Header::new(
                self.run.limits.describe(),
                self.json_notation,
                self.run.thresholds,
            ),
            games: &self.json_games,
            interrupted,
            games_selected: self.total,
        };
        super::to_json(&doc)
    }

    /// Writes the document so far to the output file.
    fn write_file(&self, interrupted: bool) -> Result<(), String> {
        let Some(path) = &self.file else {
            return Ok(());
        };
        let text = match self.run.args.format {
            Format::Json => self.json_document(interrupted)?,
            Format::Table | Format::Pgn if interrupted => {
                format!("{}{}\n", self.text, self.interruption_note())
            }
            _ => self.text.clone(),
        };
        write_atomically(path, text.as_bytes())
    }

    /// Reads back the finished games of the output file of an interrupted run.
    fn read_back(&mut self) -> Result<(), String> {
        let Some(path) = self.file.clone() else {
            return Err("--resume continues a review written to a file: give --output FILE".into());
        };
        let shown = path.display();
        let target = match self.run.args.format {
            Format::Html if self.total > 1 => return self.read_back_pages(&path),
            _ => path.clone(),
        };
        let text = std::fs::read_to_string(&target)
            .map_err(|e| format!("--resume: cannot read {shown}: {e}"))?;
        // The interruption note goes: the document grows from where it stopped.
        let kept: String = text
            .lines()
            .filter(|l| !l.starts_with(INTERRUPTED))
            .flat_map(|l| [l, "\n"])
            .collect();
        let mismatch = |what: &str| {
            format!(
                "--resume: {shown} was not written by this review ({what}); \
                 give the same input, limits and --format as the run it continues"
            )
        };
        match self.run.args.format {
            Format::Table => {
                if !kept.starts_with(&table_heading(self.run)) {
                    return Err(mismatch("another heading: other limits or another format"));
                }
                self.done = kept.lines().filter(|l| is_game_heading(l)).count();
                self.text = kept;
            }
            Format::Pgn => {
                // Every game written carries the run's Annotator tag (engine and limits).
                let annotator = format!("[Annotator \"{}\"]", self.run.annotator);
                let games = kept.lines().filter(|l| *l == annotator).count();
                let tags = kept
                    .lines()
                    .filter(|l| l.starts_with("[Annotator "))
                    .count();
                if games != tags {
                    return Err(mismatch("another annotator: other limits"));
                }
                self.done = games;
                self.text = kept;
            }
            Format::Json => {
                let doc: Value =
                    serde_json::from_str(&text).map_err(|e| mismatch(&format!("not JSON: {e}")))?;
                if doc["limits"] != self.run.limits.describe()
                    || doc["notation"] != self.json_notation.name()
                {
                    return Err(mismatch("other limits or another notation"));
                }
                let games = doc["games"]
                    .as_array()
                    .ok_or_else(|| mismatch("no games"))?;
                self.json_games = games.clone();
                self.done = games.len();
            }
            Format::Html => {
                return Err(
                    "--resume continues a review of several games (one page per game); \
                     a single game's page is reviewed again whole"
                        .into(),
                )
            }
        }
        if self.done > self.total {
            return Err(mismatch(&format!(
                "it holds {} games, the input {}",
                self.done, self.total
            )));
        }
        Ok(())
    }

    /// `--resume` of one page per game: the pages written before, in order, are kept.
    fn read_back_pages(&mut self, index: &Path) -> Result<(), String> {
        let text = std::fs::read_to_string(index)
            .map_err(|e| format!("--resume: cannot read {}: {e}", index.display()))?;
        self.pages = html::read_index_entries(&text);
        self.done = self.pages.len();
        if self.done > self.total {
            return Err(format!(
                "--resume: {} lists {} games, the input has {}",
                index.display(),
                self.done,
                self.total
            ));
        }
        Ok(())
    }
}

/// The table's first lines: who analyzed, under which limits, and the score convention.
fn table_heading(run: &Run) -> String {
    format!("Analysis by {}. {}\n\n", run.annotator, table::CONVENTION)
}

/// Whether a table line is a game's heading (`Game 3: ...`).
fn is_game_heading(line: &str) -> bool {
    line.strip_prefix("Game ")
        .and_then(|rest| rest.split_once(':'))
        .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A game's entry in the HTML index: its title and each side's accuracy.
fn index_entry(review: &GameReview) -> String {
    let mut text = super::title(review);
    for side in [engine_core::Color::Red, engine_core::Color::Black] {
        if let Some(a) = review.summary(side).accuracy {
            let _ = write!(
                text,
                ", {} accuracy {}",
                side.name(),
                super::accuracy::text(a)
            );
        }
    }
    text
}
