//! The settings only the protocol front end reads: how times, scores and moves are written on
//! the wire. They are options like the engine's (announced by `uci`/`ucci`, set by `setoption`)
//! and declared the same way, in [`WIRE_OPTIONS`], but the engine never sees them.

use crate::options::{check, OptionError, OptionKind, Spec};
use engine_core::RankBase;

/// `UCI_Variant`: the only variant.
const VARIANT_VALUES: &[&str] = &["xiangqi"];

/// The wire settings of one session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireSettings {
    /// UCCI: times are in milliseconds (`usemillisec`) instead of seconds.
    pub use_millisec: bool,
    /// Append `wdl` to UCI scores (`UCI_ShowWDL`).
    pub show_wdl: bool,
    /// Move text with ranks 1-10 (`RanksOneToTen`: cutechess, Fairy-Stockfish).
    pub ranks_from_one: bool,
}

/// An option of the wire's table: applying it only stores the value.
pub type WireOptionSpec = Spec<WireSettings, ()>;

/// Every wire option, in listing order (announced after the engine's options).
pub static WIRE_OPTIONS: &[WireOptionSpec] = &[
    Spec {
        uci: None,
        ucci: Some("usemillisec"),
        kind: OptionKind::Check { default: false },
        hidden: false,
        apply: |w, v| w.use_millisec = check(v),
    },
    Spec {
        uci: Some("UCI_ShowWDL"),
        ucci: None,
        kind: OptionKind::Check { default: false },
        hidden: false,
        apply: |w, v| w.show_wdl = check(v),
    },
    // Announced so that GUIs such as cutechess offer xiangqi games; only `xiangqi` is accepted.
    Spec {
        uci: Some("UCI_Variant"),
        ucci: None,
        kind: OptionKind::Combo {
            default: 0,
            values: VARIANT_VALUES,
        },
        hidden: false,
        apply: |_, _| {},
    },
    Spec {
        uci: Some("RanksOneToTen"),
        ucci: None,
        kind: OptionKind::Check { default: false },
        hidden: false,
        apply: |w, v| w.ranks_from_one = check(v),
    },
];

impl Default for WireSettings {
    /// Every wire option at its declared default.
    fn default() -> Self {
        let mut w = WireSettings {
            use_millisec: false,
            show_wdl: false,
            ranks_from_one: false,
        };
        for spec in WIRE_OPTIONS {
            (spec.apply)(&mut w, &spec.default_value());
        }
        w
    }
}

impl WireSettings {
    /// The rank convention for move text.
    pub fn rank_base(&self) -> RankBase {
        if self.ranks_from_one {
            RankBase::One
        } else {
            RankBase::Zero
        }
    }

    /// Applies `setoption` when `name` is a wire option (`None` when it is not one: the engine's
    /// then); on error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Option<Result<(), OptionError>> {
        let spec = WIRE_OPTIONS.iter().find(|s| s.is_named(name))?;
        Some(spec.parse(name, value).map(|v| (spec.apply)(self, &v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_options_are_checked_and_stored() {
        let mut w = WireSettings::default();
        assert_eq!(w.rank_base(), RankBase::Zero);
        assert!(matches!(
            w.set("UCI_Variant", Some("chess")),
            Some(Err(OptionError::BadValue(_)))
        ));
        assert_eq!(w.set("uci_variant", Some("Xiangqi")), Some(Ok(())));
        assert_eq!(w.set("RanksOneToTen", Some("true")), Some(Ok(())));
        assert_eq!(w.rank_base(), RankBase::One);
        assert!(matches!(
            w.set("UCI_ShowWDL", Some("maybe")),
            Some(Err(OptionError::BadValue(_)))
        ));
        assert!(!w.show_wdl, "a refused value changes nothing");
        assert_eq!(w.set("usemillisec", Some("on")), Some(Ok(())));
        assert!(w.use_millisec);
        assert_eq!(w.set("Hash", Some("8")), None, "an engine option");
    }
}
