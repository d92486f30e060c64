//! Every option the engine announces, in both dialects, enforces the range it announces: the
//! values just outside are refused with one error and change nothing, the values at the ends (and
//! every combo value) are accepted silently. The declarations are read from the handshake, so the
//! test covers whatever the option table declares.

use crate::common;

use common::Engine;

/// One announced option: name, type and the words after the type.
struct Declared {
    name: String,
    kind: String,
    fields: Vec<String>,
}

impl Declared {
    fn field(&self, key: &str) -> Option<&str> {
        let i = self.fields.iter().position(|f| f == key)?;
        self.fields.get(i + 1).map(String::as_str)
    }

    fn vars(&self) -> Vec<&str> {
        self.fields
            .windows(2)
            .filter(|w| w[0] == "var")
            .map(|w| w[1].as_str())
            .collect()
    }
}

/// Parses `option name <words> type <t> ...` (UCI) or `option <name> type <t> ...` (UCCI).
fn declarations(lines: &[String], uci: bool) -> Vec<Declared> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("option "))
        .map(|rest| {
            let words: Vec<&str> = rest.split_whitespace().collect();
            let t = words.iter().position(|w| *w == "type").expect("a type");
            let name_words = if uci { &words[1..t] } else { &words[..t] };
            Declared {
                name: name_words.join(" "),
                kind: words[t + 1].to_string(),
                fields: words[t + 2..].iter().map(|w| w.to_string()).collect(),
            }
        })
        .collect()
}

fn setoption(uci: bool, name: &str, value: &str) -> String {
    if uci {
        format!("setoption name {name} value {value}")
    } else {
        format!("setoption {name} {value}")
    }
}

/// Values to accept and to refuse for one option.
fn cases(d: &Declared) -> (Vec<String>, Vec<String>) {
    match d.kind.as_str() {
        "spin" => {
            let min: i64 = d.field("min").expect("min").parse().expect("a number");
            let max: i64 = d.field("max").expect("max").parse().expect("a number");
            let mut good = vec![min.to_string()];
            // A table of the largest size would really be allocated: test the range ends
            // that cost nothing.
            if !d.name.eq_ignore_ascii_case("hash") && d.name != "hashsize" {
                good.push(max.to_string());
            }
            (good, vec![(min - 1).to_string(), (max + 1).to_string()])
        }
        "check" => (vec!["true".into(), "false".into()], vec!["maybe".into()]),
        "combo" => (
            d.vars().iter().map(|v| v.to_string()).collect(),
            vec!["no-such-value".into()],
        ),
        _ => (Vec::new(), Vec::new()),
    }
}

fn check_dialect(uci: bool) {
    let mut e = Engine::start();
    e.send(if uci { "uci" } else { "ucci" });
    let hello = e.expect_line(if uci { "uciok" } else { "ucciok" });
    let declared = declarations(&hello, uci);
    assert!(declared.len() >= 14, "{hello:?}");
    for d in &declared {
        let (good, bad) = cases(d);
        for v in &bad {
            e.send(&setoption(uci, &d.name, v));
            let answer = e.sync();
            assert_eq!(answer.len(), 1, "{} {v}: {answer:?}", d.name);
            assert!(
                answer[0].starts_with("info string error: "),
                "{} {v}: {answer:?}",
                d.name
            );
        }
        // Accepted values are silent but for an `info string` that is not an error (a change
        // of evaluation is announced).
        let accepted = |answer: &[String]| {
            answer
                .iter()
                .all(|l| l.starts_with("info string ") && !l.starts_with("info string error"))
        };
        for v in &good {
            e.send(&setoption(uci, &d.name, v));
            assert!(accepted(&e.sync()), "{} {v} refused", d.name);
        }
        if let Some(default) = d.field("default") {
            if d.kind != "button" {
                e.send(&setoption(uci, &d.name, default));
                assert!(accepted(&e.sync()), "{} default {default} refused", d.name);
            }
        }
    }
    // Still a working engine with every option back at its default.
    let lines = e.go("depth 2");
    assert!(lines.last().unwrap().starts_with("bestmove"));
    e.quit();
}

#[test]
fn every_announced_uci_range_is_enforced() {
    check_dialect(true);
}

#[test]
fn every_announced_ucci_range_is_enforced() {
    check_dialect(false);
}
