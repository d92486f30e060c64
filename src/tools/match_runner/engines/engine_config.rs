//! One engine as the user describes it on the command line: `--engine cmd=... name=... proto=uci
//! ranks=1 letters=nb option.UCI_Variant=xiangqi tc=10+0.1`. Keys given with `--each` apply to
//! every engine unless the engine sets them itself.

use super::super::games::TimeControl;
use super::whole_number::at_least;
use super::wire::{Dialect, FenLetters, WireFormat};
use engine_core::RankBase;
use std::path::PathBuf;

/// Everything needed to start and drive one engine.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    /// Display name (PGN tags, crosstable); unique within a run.
    pub name: String,
    /// Program to run.
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory, if not the runner's.
    pub dir: Option<PathBuf>,
    /// Protocol, rank numbering and FEN letters.
    pub wire: WireFormat,
    /// `setoption`s sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// This engine's time control.
    pub time_control: TimeControl,
}

/// The keys an engine spec understands, for error messages.
const KEYS: &str = "cmd, arg, dir, name, proto (uci, ucci, xboard), ranks, letters, option.NAME, tc, st, nodes, depth";

/// Splits `key=value` tokens; a token without `=` is an error naming it.
fn split_tokens(tokens: &[String]) -> Result<Vec<(String, String)>, String> {
    tokens
        .iter()
        .map(|t| match t.split_once('=') {
            Some((k, v)) => Ok((k.to_string(), v.to_string())),
            None => Err(format!(
                "engine setting '{t}' is not of the form key=value (keys: {KEYS})"
            )),
        })
        .collect()
}

impl EngineConfig {
    /// Builds an engine from its own tokens plus the `--each` tokens (own tokens win), with the
    /// run-wide time control used when neither sets one.
    pub fn from_tokens(
        own: &[String],
        each: &[String],
        default_tc: Option<&TimeControl>,
    ) -> Result<EngineConfig, String> {
        let own = split_tokens(own)?;
        let each = split_tokens(each)?;
        let own_keys: Vec<&str> = own.iter().map(|(k, _)| k.as_str()).collect();
        // `--each` settings first so that the engine's own come later and override them; options
        // are merged by name.
        let mut pairs: Vec<(String, String)> = each
            .into_iter()
            .filter(|(k, _)| k.starts_with("option.") || !own_keys.contains(&k.as_str()))
            .collect();
        pairs.extend(own);

        let mut command = None;
        let mut args = Vec::new();
        let mut dir = None;
        let mut name = None;
        let mut dialect = Dialect::Uci;
        let mut ranks = RankBase::Zero;
        let mut letters = None;
        let mut options: Vec<(String, String)> = Vec::new();
        let mut tc = None;
        for (key, value) in pairs {
            match key.as_str() {
                "cmd" => {
                    let mut words = value.split_whitespace().map(str::to_string);
                    command = words.next();
                    args.extend(words);
                }
                "arg" => args.push(value),
                "dir" => dir = Some(PathBuf::from(value)),
                "name" => name = Some(value),
                "proto" => dialect = Dialect::parse(&value)?,
                "ranks" => {
                    ranks = match value.as_str() {
                        "0" | "0-9" => RankBase::Zero,
                        "1" | "1-10" => RankBase::One,
                        other => {
                            return Err(format!(
                                "ranks '{other}' must be 0 (ranks 0-9) or 1 (ranks 1-10)"
                            ))
                        }
                    }
                }
                "letters" => letters = Some(FenLetters::parse(&value)?),
                "tc" => tc = Some(TimeControl::parse_clock(&value)?),
                "st" => {
                    let secs: f64 = value
                        .parse()
                        .map_err(|_| format!("st '{value}' is not a number of seconds"))?;
                    if !(secs > 0.0 && secs < 1e6) {
                        return Err(format!("st '{value}' must be a positive number of seconds"));
                    }
                    tc = Some(TimeControl::MoveTime(std::time::Duration::from_secs_f64(
                        secs,
                    )));
                }
                "nodes" => {
                    let n = at_least(1)(&value).map_err(|e| format!("nodes {e}"))?;
                    tc = Some(TimeControl::Nodes(n));
                }
                "depth" => {
                    let d = at_least(1)(&value).map_err(|e| format!("depth {e}"))?;
                    tc = Some(TimeControl::Depth(d));
                }
                k => match k.strip_prefix("option.") {
                    Some(opt) if !opt.is_empty() => {
                        options.retain(|(n, _)| n != opt);
                        options.push((opt.to_string(), value));
                    }
                    _ => return Err(format!("unknown engine setting '{k}' (keys: {KEYS})")),
                },
            }
        }
        let command = command.ok_or_else(|| "an engine needs cmd=PROGRAM".to_string())?;
        // XBoard numbers ranks 0-9 on the wire for every 10-rank board, and its FEN letters are
        // H/E (engines such as Sjaak II read no other).
        if dialect == Dialect::Xboard && ranks == RankBase::One {
            return Err("proto=xboard moves always use ranks 0-9: leave out ranks=1".into());
        }
        let letters = letters.unwrap_or(match dialect {
            Dialect::Xboard => FenLetters::HE,
            Dialect::Uci | Dialect::Ucci => FenLetters::NB,
        });
        let name = name.unwrap_or_else(|| {
            std::path::Path::new(&command)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| command.clone())
        });
        let time_control = tc.or_else(|| default_tc.cloned()).ok_or_else(|| {
            format!("engine '{name}' has no time control (give --tc, --st, --nodes or --depth, or tc=/st=/nodes=/depth= in its settings)")
        })?;
        Ok(EngineConfig {
            name,
            command,
            args,
            dir,
            wire: WireFormat {
                dialect,
                ranks,
                letters,
            },
            options,
            time_control,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn own_settings_override_each() {
        let e = EngineConfig::from_tokens(
            &toks("cmd=fairy-stockfish name=a nodes=500 option.Hash=32"),
            &toks("proto=uci ranks=1 option.UCI_Variant=xiangqi option.Hash=16 nodes=100"),
            None,
        )
        .unwrap();
        assert_eq!(e.name, "a");
        assert_eq!(e.wire.ranks, RankBase::One);
        assert_eq!(e.time_control, TimeControl::Nodes(500));
        assert_eq!(
            e.options,
            vec![
                ("UCI_Variant".to_string(), "xiangqi".to_string()),
                ("Hash".to_string(), "32".to_string())
            ]
        );
    }

    #[test]
    fn bad_specs_are_errors() {
        assert!(EngineConfig::from_tokens(&toks("name=x nodes=1"), &[], None).is_err());
        assert!(EngineConfig::from_tokens(&toks("cmd=x proto=cecp1 nodes=1"), &[], None).is_err());
        assert!(
            EngineConfig::from_tokens(&toks("cmd=x proto=xboard ranks=1 nodes=1"), &[], None)
                .is_err()
        );
        let x = EngineConfig::from_tokens(&toks("cmd=x proto=xboard nodes=1"), &[], None).unwrap();
        assert_eq!(x.wire.letters, FenLetters::HE);
        assert!(EngineConfig::from_tokens(&toks("cmd=x ranks=2 nodes=1"), &[], None).is_err());
        assert!(EngineConfig::from_tokens(&toks("cmd=x"), &[], None).is_err());
        assert!(EngineConfig::from_tokens(&toks("cmd=x bogus"), &[], None).is_err());
        assert!(EngineConfig::from_tokens(&toks("cmd=x foo=1 depth=2"), &[], None).is_err());
        let e = EngineConfig::from_tokens(
            &toks("cmd=/usr/games/sjaakii arg=-ucci proto=ucci letters=he"),
            &[],
            Some(&TimeControl::Depth(3)),
        )
        .unwrap();
        assert_eq!(e.name, "sjaakii");
        assert_eq!(e.args, vec!["-ucci".to_string()]);
        assert_eq!(e.wire.letters, FenLetters::HE);
    }
}
