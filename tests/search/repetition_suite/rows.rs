//! The rows of `tests/data/false-decisive.tsv` (its header describes the columns).

use engine_core::{Color, RuleOptions, RuleSet};

const DATA: &str = include_str!("../../data/false-decisive.tsv");

/// What the game bears out from a row's root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// No decisive score either way.
    NoDecision,
    /// No decisive score against this side.
    NotLost(Color),
    /// A forced win for this side within the depths.
    Win(Color),
}

impl Verdict {
    /// The sides that must have no forced win (the exact search's claim to check).
    pub fn sides_without_a_win(self) -> Vec<Color> {
        match self {
            Verdict::NoDecision => vec![Color::Red, Color::Black],
            Verdict::NotLost(c) | Verdict::Win(c) => vec![c.opponent()],
        }
    }
}

pub struct Row {
    pub id: String,
    pub fen: String,
    pub moves: Vec<String>,
    pub rules: RuleOptions,
    pub verdict: Verdict,
    pub depths: (i32, i32),
    /// Plies within which the exact search checked the verdict: for a win, the length of the
    /// shortest forced win; otherwise the horizon within which the denied sides have none.
    pub exact_plies: u32,
    pub source: String,
}

fn color(text: &str) -> Color {
    match text {
        "red" => Color::Red,
        "black" => Color::Black,
        other => panic!("unknown side {other}"),
    }
}

/// Number of tab-separated columns of a row.
const COLUMNS: usize = 9;

pub fn rows() -> Vec<Row> {
    DATA.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), COLUMNS, "{COLUMNS} tab-separated columns: {l}");
            let verdict = match f[4].split_once(':') {
                None if f[4] == "draw" || f[4] == "open" => Verdict::NoDecision,
                Some(("not-lost", c)) => Verdict::NotLost(color(c)),
                Some(("win", c)) => Verdict::Win(color(c)),
                _ => panic!("unknown verdict {}", f[4]),
            };
            let rule_set = match f[3] {
                "law" => RuleSet::Vietnamese,
                "asian" => RuleSet::Asian,
                other => panic!("unknown rules {other}"),
            };
            let (lo, hi) = f[5].split_once('-').expect("a depth range lo-hi");
            Row {
                id: f[0].to_string(),
                fen: f[1].to_string(),
                moves: if f[2] == "-" {
                    Vec::new()
                } else {
                    f[2].split_whitespace().map(str::to_string).collect()
                },
                rules: RuleOptions::for_rule_set(rule_set),
                verdict,
                depths: (lo.parse().expect("depth"), hi.parse().expect("depth")),
                exact_plies: f[6].parse().expect("exact plies"),
                source: f[7].to_string(),
            }
        })
        .collect()
}
