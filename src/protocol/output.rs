//! Everything the engine writes, as wire text per dialect: search events, answers, the option
//! listings (generated from the option table) and the board, and the [`Output`] that writes whole
//! lines.
//!
//! Every line is written under the output's lock and flushed at once, so lines from the
//! controller and the search thread never interleave and a GUI sees each as soon as it is
//! complete. The search thread's last lines need that lock, so nothing holds it while it waits
//! for the search: a report written piece by piece takes it line by line ([`LineWriter`]).

use super::dialect::Dialect;
use crate::engine::{Event, HashEntry, Offer};
use crate::options::{OptionKind, Spec};
use crate::search::{is_mate, mate_moves, Bound, Info, ScoreBound, MATE};
use engine_core::{move_text, Move, Position, RankBase};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// Internal units per UCCI score point ×100: UCCI wants 100 = one horse or cannon.
const UCCI_MINOR_PIECE: i32 = 400;
/// UCCI has no `mate` keyword: a mate in `n` plies prints as `UCCI_MATE - n` (as ElephantEye).
const UCCI_MATE: i32 = 10_000;
/// Logistic model for `wdl`: score (internal units) where a win becomes as likely as not ...
/// Fitted to net 14's self-play at 2,000 nodes a move: bench/wdl/README.md.
const WDL_WIN_OFFSET: f64 = 250.0;
/// ... and how quickly the probability rises around it (fitted with the offset).
const WDL_SCALE: f64 = 255.0;

/// How this session writes moves and scores.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WireStyle {
    /// Protocol dialect.
    pub dialect: Dialect,
    /// Rank numbering of move text.
    pub rank_base: RankBase,
    /// UCI_ShowWDL.
    pub show_wdl: bool,
}

impl Default for WireStyle {
    fn default() -> Self {
        WireStyle {
            dialect: Dialect::Uci,
            rank_base: RankBase::Zero,
            show_wdl: false,
        }
    }
}

/// Where the engine's lines go: stdout, or any writer (tests capture them in memory).
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
    /// The first write that failed: the main loop ends the engine on it.
    failed: Arc<Mutex<Option<std::io::Error>>>,
}

impl Output {
    /// Lines to `sink`.
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Arc::new(Mutex::new(sink)),
            failed: Arc::new(Mutex::new(None)),
        }
    }

    /// Lines to standard output.
    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    /// Writes one line and flushes. A failure is kept for [`Output::take_error`]: the main loop
    /// ends the engine after the command.
    pub fn line(&self, line: &str) {
        self.with(|out| writeln!(out, "{line}"));
    }

    /// Writes several lines at once (no other line between them).
    pub fn lines(&self, lines: &[String]) {
        self.with(|out| lines.iter().try_for_each(|line| writeln!(out, "{line}")));
    }

    /// The first write error met, if any (taken: later calls see the next one).
    pub fn take_error(&self) -> Option<std::io::Error> {
        self.failed.lock().unwrap_or_else(|p| p.into_inner()).take()
    }

    /// Runs `f` with the writer locked, then flushes. Private: the search thread writes its last
    /// lines under this lock, so whoever holds it must never wait for the search.
    fn with(&self, f: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) {
        let mut out = self.sink.lock().unwrap_or_else(|p| p.into_inner());
        if let Err(e) = f(&mut **out).and_then(|()| out.flush()) {
            let mut failed = self.failed.lock().unwrap_or_else(|p| p.into_inner());
            failed.get_or_insert(e);
        }
    }

    /// A writer for reports written piece by piece (`bench`, `perft`): it takes the lock for
    /// each complete line only, so the caller may wait for the search while it holds the writer.
    pub fn line_writer(&self) -> LineWriter {
        LineWriter {
            out: self.clone(),
            pending: Vec::new(),
        }
    }
}

/// Buffers bytes and writes each complete line through the [`Output`]'s lock; the rest at
/// `flush` or when dropped.
pub struct LineWriter {
    out: Output,
    pending: Vec<u8>,
}

impl LineWriter {
    fn write_out(&mut self, upto: usize) {
        let chunk: Vec<u8> = self.pending.drain(..upto).collect();
        self.out.with(|w| w.write_all(&chunk));
    }
}

impl Write for LineWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if let Some(last) = self.pending.iter().rposition(|&b| b == b'\n') {
            self.write_out(last + 1);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.pending.is_empty() {
            self.write_out(self.pending.len());
        }
        Ok(())
    }
}

impl Drop for LineWriter {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

/// `info string <text>`: both dialects accept it, and GUIs show it in their log.
pub fn info_string(text: &str) -> String {
    format!("info string {text}")
}

/// An error line: `info string error: <text>`.
pub fn error(text: &str) -> String {
    info_string(&format!("error: {text}"))
}

/// A warning line, for input accepted all the same: `info string warning: <text>`.
pub fn warning(text: &str) -> String {
    info_string(&format!("warning: {text}"))
}

/// A move in the session's notation.
pub fn mv(m: Move, f: &WireStyle) -> String {
    move_text(m, f.rank_base)
}

/// Score text: `cp N` / `mate N` (UCI) or a bare number (UCCI).
pub fn score(s: i32, f: &WireStyle) -> String {
    match f.dialect {
        Dialect::Uci | Dialect::Xboard => {
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

fn pv_text(pv: &[Move], f: &WireStyle) -> String {
    pv.iter().map(|&m| mv(m, f)).collect::<Vec<_>>().join(" ")
}

/// Formats a search progress event as the lines to print.
pub fn info(event: &Info, f: &WireStyle) -> Vec<String> {
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
                Dialect::Uci | Dialect::Xboard => {
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
            Dialect::Uci | Dialect::Xboard => vec![format!(
                "info depth {depth} currmove {} currmovenumber {number}",
                mv(*m, f)
            )],
            Dialect::Ucci => vec![format!("info currmove {}", mv(*m, f))],
        },
    }
}

/// `bestmove m [ponder p]`, and in UCCI the `draw`/`resign` suffix.
pub fn bestmove(best: Move, ponder: Option<Move>, offer: Option<Offer>, f: &WireStyle) -> String {
    let mut line = format!("bestmove {}", mv(best, f));
    if let Some(p) = ponder {
        line.push_str(&format!(" ponder {}", mv(p, f)));
    }
    if f.dialect == Dialect::Ucci {
        match offer {
            Some(Offer::Draw) => line.push_str(" draw"),
            Some(Offer::Resign) => line.push_str(" resign"),
            None => {}
        }
    }
    line
}

/// The answer when there is no move to play: `bestmove (none)` / `nobestmove`.
pub fn no_move(f: &WireStyle) -> String {
    match f.dialect {
        Dialect::Uci | Dialect::Xboard => "bestmove (none)".to_string(),
        Dialect::Ucci => "nobestmove".to_string(),
    }
}

/// The answer to `go` when the session has no position to search (the last one was refused):
/// the null move `bestmove 0000` / `nobestmove`.
pub fn no_position(f: &WireStyle) -> String {
    match f.dialect {
        Dialect::Uci | Dialect::Xboard => "bestmove 0000".to_string(),
        Dialect::Ucci => "nobestmove".to_string(),
    }
}

/// The lines of an engine event.
pub fn event(e: &Event, f: &WireStyle) -> Vec<String> {
    match e {
        Event::RuleVerdict(v) => vec![info_string(&format!(
            "rule: {} {}: {}",
            v.rule.id(),
            v.result.pgn(),
            v.explanation
        ))],
        Event::Error(text) => vec![error(text)],
        Event::Info(i) => info(i, f),
        Event::BestMove {
            best,
            ponder,
            offer,
        } => vec![bestmove(*best, *ponder, *offer, f)],
        Event::NoMove { score: s } | Event::StaticEval { score: s } => {
            vec![format!("info depth 0 score {}", score(*s, f)), no_move(f)]
        }
    }
}

/// `pophash [bestmove m] [lowerbound s depth d] [upperbound s depth d]` for UCCI `probe`.
pub fn pophash(entry: Option<&HashEntry>, f: &WireStyle) -> String {
    let mut line = String::from("pophash");
    let Some(e) = entry else {
        return line;
    };
    if let Some(m) = e.mv {
        line.push_str(&format!(" bestmove {}", mv(m, f)));
    }
    let s = ucci_score(e.score);
    // A move-only entry (`Bound::None`) has no score to report.
    if matches!(e.bound, Bound::Lower | Bound::Exact) {
        line.push_str(&format!(" lowerbound {s} depth {}", e.depth));
    }
    if matches!(e.bound, Bound::Upper | Bound::Exact) {
        line.push_str(&format!(" upperbound {s} depth {}", e.depth));
    }
    line
}

/// The name of an option in a dialect (`None`: not offered there).
pub fn option_name<S, E>(spec: &Spec<S, E>, dialect: Dialect) -> Option<&'static str> {
    match dialect {
        Dialect::Uci | Dialect::Xboard => spec.uci,
        Dialect::Ucci => spec.ucci,
    }
}

/// The `option ...` line announcing `spec` in `dialect`; `None` for options hidden or not
/// offered there. UCI: `option name N type T default D [min m max M] [var v ...]`; UCCI: one
/// lower-case word for the name, no `name` keyword, `min`/`max`/`var` before `default`.
pub fn option_declaration<S, E>(spec: &Spec<S, E>, dialect: Dialect) -> Option<String> {
    if spec.hidden {
        return None;
    }
    let name = option_name(spec, dialect)?;
    let string_default = |d: &str| {
        if d.is_empty() {
            "<empty>".to_string()
        } else {
            d.to_string()
        }
    };
    Some(match dialect {
        Dialect::Uci | Dialect::Xboard => {
            let kind = match spec.kind {
                OptionKind::Spin { default, min, max } => {
                    format!("spin default {default} min {min} max {max}")
                }
                OptionKind::Check { default } => format!("check default {default}"),
                OptionKind::Combo { default, values } => {
                    let vars: String = values.iter().map(|v| format!(" var {v}")).collect();
                    format!("combo default {}{vars}", values[default])
                }
                OptionKind::Button => "button".to_string(),
                OptionKind::String { default } => {
                    format!("string default {}", string_default(default))
                }
            };
            format!("option name {name} type {kind}")
        }
        Dialect::Ucci => {
            let kind = match spec.kind {
                OptionKind::Spin { default, min, max } => {
                    format!("spin min {min} max {max} default {default}")
                }
                OptionKind::Check { default } => format!("check default {default}"),
                OptionKind::Combo { default, values } => {
                    let vars: String = values
                        .iter()
                        .map(|v| format!(" var {}", v.to_lowercase()))
                        .collect();
                    format!("combo{vars} default {}", values[default].to_lowercase())
                }
                OptionKind::Button => "button".to_string(),
                OptionKind::String { default } => {
                    format!("string default {}", string_default(default))
                }
            };
            format!("option {name} type {kind}")
        }
    })
}

/// The `option ...` lines of a table in `dialect`.
pub fn option_declarations<S, E>(table: &[Spec<S, E>], dialect: Dialect) -> Vec<String> {
    table
        .iter()
        .filter_map(|spec| option_declaration(spec, dialect))
        .collect()
}

/// The `d` command: the board (ranks in the session's numbering), FEN, key and checkers.
pub fn board(pos: &Position, f: &WireStyle) -> Vec<String> {
    let mut lines: Vec<String> = pos.diagram(f.rank_base).lines().map(String::from).collect();
    lines.push(format!("Fen: {}", pos.to_fen()));
    lines.push(format!("Key: {:016X}", pos.key()));
    let checkers: Vec<String> = pos.checkers().map(|sq| sq.to_string()).collect();
    lines.push(format!("Checkers: {}", checkers.join(" ")));
    lines
}

/// The `eval` command's totals: the handcrafted and (when a net is loaded) the network
/// evaluation of the position, side to move's point of view, in the session's score units.
pub fn static_evals(hce: i32, net: Option<i32>, f: &WireStyle) -> Vec<String> {
    let mut lines = vec![format!("Handcrafted evaluation: {}", score(hce, f))];
    match net {
        Some(n) => lines.push(format!("NNUE evaluation: {}", score(n, f))),
        None => lines.push("NNUE evaluation: no net loaded".to_string()),
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{Effect, OptionSpec, OPTIONS};
    use crate::protocol::wire_options::WIRE_OPTIONS;
    use crate::search::{mate_in, mated_in};

    #[test]
    fn scores_per_dialect() {
        let uci = WireStyle::default();
        let ucci = WireStyle {
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

    /// A sink the test reads back.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_line_writer_takes_the_lock_for_whole_lines_only() {
        let sink = Sink::default();
        let out = Output::new(Box::new(sink.clone()));
        let mut w = out.line_writer();
        write!(w, "Nodes searched: ").unwrap();
        // Between its lines the writer holds no lock: another line (the search's best move,
        // say) gets through, and no line is cut in two.
        out.line("bestmove h2e2");
        writeln!(w, "42").unwrap();
        write!(w, "no newline").unwrap();
        drop(w);
        let text = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        assert_eq!(text, "bestmove h2e2\nNodes searched: 42\nno newline");
    }

    #[test]
    fn wdl_sums_to_one_thousand() {
        for s in [-3000, -200, 0, 50, 400, mate_in(5)] {
            let (w, d, l) = wdl(s);
            assert_eq!(w + d + l, 1000, "{s}");
        }
        assert!(wdl(500).0 > wdl(100).0);
    }

    /// Empirical win/draw/loss rates of the side to move per score bin, from the self-play the
    /// model was fitted to (bench/wdl/README.md): `lo hi mean weight win draw loss`.
    const WDL_BINS: &str = include_str!("../../tests/data/wdl-bins.tsv");
    /// Bins with less weight (games' worth of positions) than this are too noisy to check.
    const WDL_MIN_BIN_WEIGHT: f64 = 250.0;
    /// The most the model's win, draw or loss rate may differ from a bin's.
    const WDL_RATE_TOLERANCE: f64 = 0.08;
    /// The most the model's expected score (win + draw / 2) may differ from a bin's.
    const WDL_EXPECTED_TOLERANCE: f64 = 0.05;

    #[test]
    fn wdl_matches_the_self_play_outcomes() {
        let mut checked = 0;
        for line in WDL_BINS.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<f64> = line.split('\t').map(|x| x.parse().unwrap()).collect();
            let (mean, weight, rates) = (f[2], f[3], [f[4], f[5], f[6]]);
            if weight < WDL_MIN_BIN_WEIGHT {
                continue;
            }
            let (w, d, l) = wdl(mean as i32);
            let model = [w, d, l].map(|x| f64::from(x) / 1000.0);
            for (m, r) in model.iter().zip(rates) {
                assert!((m - r).abs() <= WDL_RATE_TOLERANCE, "{line}: {model:?}");
            }
            let expected = |r: [f64; 3]| r[0] + r[1] / 2.0;
            assert!(
                (expected(model) - expected(rates)).abs() <= WDL_EXPECTED_TOLERANCE,
                "{line}: {model:?}"
            );
            checked += 1;
        }
        assert!(checked >= 20, "{checked} bins checked");
    }

    #[test]
    fn declarations_follow_each_dialects_form() {
        let uci = option_declarations(OPTIONS, Dialect::Uci);
        assert!(uci.contains(&"option name Hash type spin default 16 min 0 max 65536".into()));
        assert!(uci.contains(&"option name Clear Hash type button".into()));
        assert!(uci.contains(
            &"option name CheckCounting type combo default PerSide var PerSide var Total var All"
                .into()
        ));
        assert!(uci.iter().all(|l| !l.contains("usemillisec")));
        let wire_uci = option_declarations(WIRE_OPTIONS, Dialect::Uci);
        assert!(wire_uci.iter().all(|l| !l.contains("usemillisec")));
        assert!(wire_uci.contains(&"option name RanksOneToTen type check default false".into()));
        let ucci = option_declarations(OPTIONS, Dialect::Ucci);
        assert!(ucci.contains(&"option hashsize type spin min 0 max 65536 default 16".into()));
        let wire_ucci = option_declarations(WIRE_OPTIONS, Dialect::Ucci);
        assert!(wire_ucci.contains(&"option usemillisec type check default false".into()));
        assert!(ucci.contains(
            &"option checkcounting type combo var perside var total var all default perside".into()
        ));
        assert!(ucci
            .iter()
            .chain(&wire_ucci)
            .all(|l| !l.contains(" name ") && !l.contains("RanksOneToTen")));
    }

    #[test]
    fn hidden_and_string_options() {
        let table = [
            OptionSpec {
                uci: Some("EvalFile"),
                ucci: Some("evalfile"),
                kind: OptionKind::String { default: "" },
                hidden: false,
                apply: |_, _| Effect::None,
            },
            OptionSpec {
                uci: Some("Tuned"),
                ucci: None,
                kind: OptionKind::Spin {
                    default: 1,
                    min: 0,
                    max: 9,
                },
                hidden: true,
                apply: |_, _| Effect::None,
            },
        ];
        assert_eq!(
            option_declarations(&table, Dialect::Uci),
            vec!["option name EvalFile type string default <empty>".to_string()]
        );
        assert_eq!(
            option_declarations(&table, Dialect::Ucci),
            vec!["option evalfile type string default <empty>".to_string()]
        );
    }

    #[test]
    fn offers_only_in_ucci() {
        let m = Position::startpos().legal_moves()[0];
        let uci = WireStyle::default();
        let ucci = WireStyle {
            dialect: Dialect::Ucci,
            ..uci
        };
        assert!(!bestmove(m, None, Some(Offer::Resign), &uci).contains("resign"));
        assert!(bestmove(m, None, Some(Offer::Resign), &ucci).ends_with(" resign"));
        assert!(bestmove(m, None, Some(Offer::Draw), &ucci).ends_with(" draw"));
    }
}
