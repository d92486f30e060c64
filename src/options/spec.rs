//! How an option is declared and validated, whatever table it belongs to: its names per
//! protocol, its type with range and default, and the parsing of a `setoption` value. The
//! engine's table is [`super::OPTIONS`]; a protocol front end keeps the settings only it reads
//! in a table of its own, declared the same way.

/// The UCI way to write an empty string value.
const EMPTY_STRING: &str = "<empty>";

/// An option's type, with its default and, for spins and combos, its allowed values.
#[derive(Clone, Copy, Debug)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// `true` or `false` (also `on`/`off`).
    Check {
        /// Default value.
        default: bool,
    },
    /// One of a list of words (matched like names); an option stored as an enum takes them
    /// from its [`ComboValue::NAMES`].
    Combo {
        /// Index of the default in `values`.
        default: usize,
        /// The allowed values, in announcement order.
        values: &'static [&'static str],
    },
    /// An action without a value.
    Button,
    /// Free text (a file path, say); `<empty>` or no value is the empty string.
    String {
        /// Default value.
        default: &'static str,
    },
}

/// A validated option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A spin's value, within its range.
    Spin(i64),
    /// A check's value.
    Check(bool),
    /// Index of a combo's value.
    Combo(usize),
    /// A button press.
    Button,
    /// A string's value.
    String(String),
}

/// One option, declared once, of a table whose values are stored in `S` (the engine's
/// [`super::Options`], or a protocol's own settings); applying a value says what else must
/// happen (`E`).
#[derive(Debug)]
pub struct Spec<S: 'static, E: 'static> {
    /// Name in the UCI listing (`None`: not offered to UCI GUIs).
    pub uci: Option<&'static str>,
    /// Name in the UCCI listing (`None`: not offered to UCCI GUIs).
    pub ucci: Option<&'static str>,
    /// Type, default and range.
    pub kind: OptionKind,
    /// Left out of the `uci`/`ucci` listings but settable (tuning parameters).
    pub hidden: bool,
    /// Stores a validated value in the settings and says what else must happen.
    pub apply: fn(&mut S, &OptionValue) -> E,
}

impl<S, E> Spec<S, E> {
    /// The default value.
    pub fn default_value(&self) -> OptionValue {
        match self.kind {
            OptionKind::Spin { default, .. } => OptionValue::Spin(default),
            OptionKind::Check { default } => OptionValue::Check(default),
            OptionKind::Combo { default, .. } => OptionValue::Combo(default),
            OptionKind::Button => OptionValue::Button,
            OptionKind::String { default } => OptionValue::String(default.to_string()),
        }
    }

    /// Whether `name` names this option (in either protocol's spelling).
    pub fn is_named(&self, name: &str) -> bool {
        let wanted = normalize(name);
        [self.uci, self.ucci]
            .into_iter()
            .flatten()
            .any(|n| normalize(n) == wanted)
    }

    /// Validates `value` as sent for the option called `name` (for error messages).
    pub fn parse(&self, name: &str, value: Option<&str>) -> Result<OptionValue, OptionError> {
        let needs_value = || OptionError::BadValue(format!("option '{name}' needs a value"));
        match self.kind {
            OptionKind::Spin { min, max, .. } => {
                let v = value.ok_or_else(needs_value)?;
                let n: i64 = v.trim().parse().map_err(|_| {
                    OptionError::BadValue(format!("'{v}' is not a number for option '{name}'"))
                })?;
                if n < min || n > max {
                    return Err(OptionError::BadValue(format!(
                        "{n} is out of range for option '{name}' ({min}..{max})"
                    )));
                }
                Ok(OptionValue::Spin(n))
            }
            OptionKind::Check { .. } => {
                match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
                    Some("true") | Some("on") => Ok(OptionValue::Check(true)),
                    Some("false") | Some("off") => Ok(OptionValue::Check(false)),
                    Some(v) => Err(OptionError::BadValue(format!(
                        "'{v}' is not true/false for option '{name}'"
                    ))),
                    None => Err(OptionError::BadValue(format!(
                        "option '{name}' needs true or false"
                    ))),
                }
            }
            OptionKind::Combo { values, .. } => {
                let v = value.ok_or_else(needs_value)?;
                let wanted = normalize(v);
                values
                    .iter()
                    .position(|c| normalize(c) == wanted)
                    .map(OptionValue::Combo)
                    .ok_or_else(|| {
                        OptionError::BadValue(format!(
                            "'{}' is not one of {} for option '{name}'",
                            v.trim(),
                            values.join("/")
                        ))
                    })
            }
            OptionKind::Button => Ok(OptionValue::Button),
            OptionKind::String { .. } => {
                let v = value.map_or("", str::trim);
                Ok(OptionValue::String(if v == EMPTY_STRING {
                    String::new()
                } else {
                    v.to_string()
                }))
            }
        }
    }
}

/// Why `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// Not an option of this engine.
    Unknown(String),
    /// A value the option does not accept.
    BadValue(String),
}

/// The value of a spin as the type of the field it goes to (the range check made it fit).
pub(crate) fn spin<T: TryFrom<i64> + Default>(v: &OptionValue) -> T {
    match v {
        OptionValue::Spin(n) => T::try_from(*n).unwrap_or_default(),
        _ => T::default(),
    }
}

pub(crate) fn check(v: &OptionValue) -> bool {
    matches!(v, OptionValue::Check(true))
}

/// An enum a combo option is stored as: its values and their names on the wire, declared once
/// with `combo_values!` next to the enum.
pub trait ComboValue: Copy + 'static {
    /// Every value, in announcement order.
    const VALUES: &'static [Self];
    /// The wire name of each of [`Self::VALUES`] (matched like option names when parsed).
    const NAMES: &'static [&'static str];
}

/// Declares the combo values of a field-less enum in scope by name, each with its wire name, in
/// announcement order: `combo_values!(Grade { None => "none", Small => "small" })`. Every
/// variant must be listed (checked at compile time), so the enum and the combo cannot drift.
macro_rules! combo_values {
    ($ty:ident { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $crate::options::ComboValue for $ty {
            const VALUES: &'static [Self] = &[$($ty::$variant),+];
            const NAMES: &'static [&'static str] = &[$($name),+];
        }
        const _: fn($ty) = |value| match value {
            $($ty::$variant => {})+
        };
    };
}
pub(crate) use combo_values;

/// The value of a combo as the enum it is stored as (parsing checked the index; a value of
/// another type, which no table applies, reads as the first).
pub(crate) fn combo<T: ComboValue>(v: &OptionValue) -> T {
    let index = if let OptionValue::Combo(i) = v { *i } else { 0 };
    T::VALUES
        .get(index)
        .copied()
        .unwrap_or_else(|| T::VALUES[0])
}

/// Lower case without spaces, `_` and `-`: how names and combo values are compared.
pub(crate) fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}
