//! The `key=value` words of `--sprt`, `--resign` and `--draw`, read into the typed settings they
//! describe.

use super::super::games::{DrawRule, ResignRule};
use super::super::statistics::Sprt;

/// `--sprt elo0=E0 elo1=E1 [alpha=A] [beta=B]`.
pub fn parse_sprt(words: &[String]) -> Result<Sprt, String> {
    let kv = key_values("sprt", words, &["elo0", "elo1", "alpha", "beta"])?;
    let elo0 = get(&kv, "elo0").ok_or("--sprt needs elo0=")?;
    let elo1 = get(&kv, "elo1").ok_or("--sprt needs elo1=")?;
    Sprt::new(
        elo0,
        elo1,
        get(&kv, "alpha").unwrap_or(0.05),
        get(&kv, "beta").unwrap_or(0.05),
    )
}

/// `--resign movecount=N score=CP`.
pub fn parse_resign(words: &[String]) -> Result<ResignRule, String> {
    let kv = key_values("resign", words, &["movecount", "score"])?;
    Ok(ResignRule {
        move_count: count("resign", &kv, "movecount")?,
        score: count("resign", &kv, "score")? as i32,
    })
}

/// `--draw movenumber=N movecount=N score=CP`.
pub fn parse_draw(words: &[String]) -> Result<DrawRule, String> {
    let kv = key_values("draw", words, &["movenumber", "movecount", "score"])?;
    Ok(DrawRule {
        move_number: count("draw", &kv, "movenumber")?,
        move_count: count("draw", &kv, "movecount")?,
        score: get(&kv, "score")
            .filter(|s| *s >= 0.0 && s.fract() == 0.0)
            .ok_or("--draw needs score= (a whole number of centipawns)")? as i32,
    })
}

/// Parses `key=value` words into a lookup with the allowed keys only.
fn key_values(
    what: &str,
    words: &[String],
    allowed: &[&str],
) -> Result<Vec<(String, f64)>, String> {
    words
        .iter()
        .map(|w| {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| format!("--{what}: '{w}' is not key=value"))?;
            if !allowed.contains(&k) {
                return Err(format!(
                    "--{what}: unknown key '{k}' (keys: {})",
                    allowed.join(", ")
                ));
            }
            let v: f64 = v
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| format!("--{what}: {k}='{v}' is not a number"))?;
            Ok((k.to_string(), v))
        })
        .collect()
}

/// The last value given for `key`.
fn get(kv: &[(String, f64)], key: &str) -> Option<f64> {
    kv.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v)
}

/// The value of `key`, a whole number from 1 (to 10,000), which must be given.
fn count(what: &str, kv: &[(String, f64)], key: &str) -> Result<u32, String> {
    let v = get(kv, key).ok_or_else(|| format!("--{what} needs {key}="))?;
    if v < 1.0 || v.fract() != 0.0 || v > 10_000.0 {
        return Err(format!("--{what}: {key} must be a whole number from 1"));
    }
    Ok(v as u32)
}
