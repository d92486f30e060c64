//! The settings only the XBoard dialect reads, declared like the engine's options and offered
//! with them as `feature option=` lines: which of the referee's verdicts the engine announces as
//! a result claim.
//!
//! A claim is `1-0 {...}` on the engine's own line. XBoard and cutechess check claims against
//! their own referee, and cutechess (its xiangqi branch) knows neither perpetual check and chase
//! nor the 60-move rule: a claim it does not agree with forfeits the game of the claimant, unless
//! the claimant is the loser. So by default (`Safe`) the engine claims what every referee
//! agrees on, mate and stalemate, and any verdict by which it loses itself; `All` claims every
//! verdict of its own referee (for XBoard, WinBoard, or cutechess with `trust`).

use crate::options::{combo, combo_values, ComboValue, OptionError, OptionKind, Spec};

/// Which verdicts are claimed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Claims {
    /// Mate, stalemate, and the engine's own losses.
    Safe,
    /// Every verdict of the referee.
    All,
}

combo_values!(Claims {
    Safe => "Safe",
    All => "All",
});

/// The XBoard wire settings of one session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XboardSettings {
    /// Which verdicts are claimed.
    pub claims: Claims,
}

/// The table of XBoard-only options (their `uci` name is the name XBoard shows).
pub static XBOARD_OPTIONS: &[Spec<XboardSettings, ()>] = &[Spec {
    uci: Some("Result claims"),
    ucci: None,
    kind: OptionKind::Combo {
        default: Claims::Safe as usize,
        values: Claims::NAMES,
    },
    hidden: false,
    apply: |w, v| w.claims = combo(v),
}];

impl Default for XboardSettings {
    fn default() -> Self {
        let mut w = XboardSettings {
            claims: Claims::Safe,
        };
        for spec in XBOARD_OPTIONS {
            (spec.apply)(&mut w, &spec.default_value());
        }
        w
    }
}

impl XboardSettings {
    /// Applies `option NAME=VALUE` when `name` is one of these settings (`None` otherwise).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Option<Result<(), OptionError>> {
        let spec = XBOARD_OPTIONS.iter().find(|s| s.is_named(name))?;
        Some(spec.parse(name, value).map(|v| (spec.apply)(self, &v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_setting() {
        let mut s = XboardSettings::default();
        assert_eq!(s.claims, Claims::Safe);
        assert_eq!(s.set("Result claims", Some("all")), Some(Ok(())));
        assert_eq!(s.claims, Claims::All);
        assert!(matches!(
            s.set("Result claims", Some("some")),
            Some(Err(OptionError::BadValue(_)))
        ));
        assert_eq!(s.set("Hash", Some("1")), None);
    }
}
