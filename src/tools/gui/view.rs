//! What the page is told: each message of `docs/gui.md`'s "From the engine" table, as JSON text.
//! Scores go out from Red's view, as the page shows them.

use cotuong::options::{ComboValue, OptionKind, Options, OPTIONS};
use cotuong::protocol::wdl;
use cotuong::search::Info;
use engine_core::{move_text, Color, Notation, Position, RankBase};
use serde_json::{json, Value};

use super::super::analyze::score::{JsonScore, RedScore};

/// The engine options the page offers: the rules the referee and the search apply.
pub const RULE_OPTIONS: [&str; 8] = [
    "RuleSet",
    "NoCaptureMoves",
    "CheckCounting",
    "CheckCap",
    "CheckVsChase",
    "ImmobileTargetRule",
    "RepetitionThreshold",
    "BareMaterialDraw",
];

/// The notations the page offers.
pub const NOTATIONS: [&str; 4] = ["iccs", "wxf", "chinese", "vietnamese"];

pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

pub fn iccs(mv: engine_core::Move) -> String {
    move_text(mv, RankBase::Zero)
}

/// An `error` message.
pub fn error(message: &str) -> String {
    json!({"type": "error", "message": message}).to_string()
}

/// A `notice` message.
pub fn notice(message: &str) -> String {
    json!({"type": "notice", "message": message}).to_string()
}

/// The name of a combo option's current value.
fn combo_name<T: ComboValue + PartialEq>(value: T) -> Value {
    T::VALUES
        .iter()
        .position(|v| *v == value)
        .map_or(Value::Null, |i| json!(T::NAMES[i]))
}

/// The current value of the rule option `name`.
fn rule_option_value(name: &str, o: &Options) -> Value {
    match name {
        "RuleSet" => combo_name(o.rules.rule_set),
        "NoCaptureMoves" => json!(o.rules.no_capture_moves),
        "CheckCounting" => combo_name(o.check_counting_mode),
        "CheckCap" => json!(o.check_cap),
        "CheckVsChase" => combo_name(o.rules.check_vs_chase),
        "ImmobileTargetRule" => json!(o.rules.chase.immobile_target_counts),
        "RepetitionThreshold" => json!(o.rules.repetition_threshold),
        "BareMaterialDraw" => json!(o.rules.insufficient_material_draw),
        _ => Value::Null,
    }
}

/// The rule options with their types, ranges and current values.
pub fn rule_options(o: &Options) -> Value {
    let entries: Vec<Value> = RULE_OPTIONS
        .iter()
        .filter_map(|&name| {
            let spec = OPTIONS.iter().find(|s| s.uci == Some(name))?;
            let value = rule_option_value(name, o);
            Some(match spec.kind {
                OptionKind::Spin { default, min, max } => json!({
                    "name": name, "kind": "spin", "value": value,
                    "default": default, "min": min, "max": max,
                }),
                OptionKind::Check { default } => json!({
                    "name": name, "kind": "check", "value": value, "default": default,
                }),
                OptionKind::Combo { default, values } => json!({
                    "name": name, "kind": "combo", "value": value,
                    "default": values.get(default), "values": values,
                }),
                OptionKind::Button | OptionKind::String { .. } => return None,
            })
        })
        .collect();
    Value::Array(entries)
}

/// The `hello` message.
pub fn hello(o: &Options) -> String {
    json!({
        "type": "hello",
        "engine": cotuong::engine::ENGINE_NAME,
        "notations": NOTATIONS,
        "rule_options": rule_options(o),
    })
    .to_string()
}

/// A score of the side to move of `pos` as Red's: its text, centipawns (null for a mate), mate
/// in moves (signed, null otherwise) and win/draw/loss per mille for Red.
fn red_score(pos: &Position, score: i32) -> (String, Value, Value, [u32; 3]) {
    let red = RedScore::from_side(pos.side_to_move(), score);
    let (w, d, l) = wdl(red.for_side(Color::Red));
    let (cp, mate) = match red.json() {
        JsonScore::Centipawns { cp } => (json!(cp), Value::Null),
        JsonScore::Mate { mate, .. } => (Value::Null, json!(mate)),
    };
    (red.to_string(), cp, mate, [w, d, l])
}

/// One line of live analysis from a search iteration of `pos`, or `None` for other reports.
pub fn analysis_line(pos: &Position, info: &Info, notation: Notation) -> Option<(usize, Value)> {
    let Info::Iteration {
        depth,
        seldepth,
        multipv,
        score,
        nodes,
        time_ms,
        pv,
        ..
    } = info
    else {
        return None;
    };
    let (text, cp, mate, wdl) = red_score(pos, *score);
    let nps = nodes.saturating_mul(1000) / (*time_ms).max(1);
    Some((
        *multipv,
        json!({
            "multipv": multipv,
            "depth": depth,
            "seldepth": seldepth,
            "score": text,
            "cp": cp,
            "mate": mate,
            "wdl": wdl,
            "nodes": nodes,
            "nps": nps,
            "pv": pv.iter().map(|&m| iccs(m)).collect::<Vec<_>>(),
            "pv_text": notation.format_line(pos, pv).join(" "),
        }),
    ))
}

/// The `analysis` message for the cursor `ply`.
pub fn analysis(ply: usize, lines: &[Value]) -> String {
    json!({"type": "analysis", "ply": ply, "lines": lines}).to_string()
}

/// The `review_progress` message.
pub fn review_progress(done: u64, total: u64) -> String {
    json!({"type": "review_progress", "done": done, "total": total}).to_string()
}

/// The `pgn` message.
pub fn pgn(text: &str, filename: &str) -> String {
    json!({"type": "pgn", "text": text, "filename": filename}).to_string()
}
