//! Tunable constants: the numbers of the search and the time manager that a tuner (`cotuong
//! tune`, SPSA) may move, declared once in one table (`search::params`) with their ranges and
//! perturbation steps.
//!
//! The [`tunables!`] macro gives every entry a constant (`RFP_MARGIN`) and an accessor
//! (`rfp_margin()`) that the code reads. In ordinary builds the accessor returns the constant, so
//! the compiler folds it exactly as before and release builds pay nothing. In builds with the
//! `tune` cargo feature every entry also lives in an atomic cell and is a hidden engine option of
//! its own name (`setoption name RFP_MARGIN value 95`), so that the tuner can play games with other
//! values without rebuilding; the accessor then reads the cell.

/// One tunable constant, as the tuner sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tunable {
    /// Name of the constant, and of its hidden option in `tune` builds.
    pub name: &'static str,
    /// The value the code uses unless told otherwise.
    pub default: i32,
    /// Smallest value the option accepts and the tuner tries.
    pub min: i32,
    /// Largest value the option accepts and the tuner tries.
    pub max: i32,
    /// SPSA perturbation at the end of a run (Fishtest's `c_end`): how far apart the two
    /// engines of a game pair are, in the constant's own units. About a twentieth of the range
    /// a good value plausibly lies in.
    pub step: f64,
}

impl Tunable {
    /// Whether `name` names this constant: case, spaces, `_` and `-` are ignored, as for every
    /// option.
    pub fn is_named(&self, name: &str) -> bool {
        crate::options::normalize(self.name) == crate::options::normalize(name)
    }
}

/// Declares the tunable constants of a module. Each entry:
///
/// ```text
/// /// Doc comment.
/// NAME / accessor: default, min..=max, step;
/// ```
///
/// gives `pub const NAME: i32`, `pub fn accessor() -> i32` and an entry of `pub static
/// TUNABLES: &[Tunable]`; in `tune` builds also `set_tunable(index, value)`, the setter behind
/// the hidden options.
macro_rules! tunables {
    ($( $(#[$attr:meta])* $name:ident / $get:ident : $default:expr, $min:literal ..= $max:literal, $step:literal; )*) => {
        $( $(#[$attr])* pub const $name: i32 = $default; )*

        /// Every tunable constant of this module, in declaration order.
        pub static TUNABLES: &[$crate::tunable::Tunable] = &[
            $( $crate::tunable::Tunable {
                name: stringify!($name),
                default: $name,
                min: $min,
                max: $max,
                step: $step as f64,
            }, )*
        ];

        /// Indices into [`TUNABLES`] (and the cells of `tune` builds).
        #[allow(non_camel_case_types, clippy::upper_case_acronyms, dead_code)]
        #[derive(Clone, Copy)]
        #[repr(usize)]
        enum TunableIndex { $( $name, )* }

        /// The current values (`tune` builds only), defaults until an option changes them.
        #[cfg(feature = "tune")]
        static TUNED_VALUES: [std::sync::atomic::AtomicI32; [$(stringify!($name)),*].len()] =
            [ $( std::sync::atomic::AtomicI32::new($default), )* ];

        $(
            #[doc = concat!("The value of [`", stringify!($name), "`] in use.")]
            #[inline(always)]
            pub fn $get() -> i32 {
                #[cfg(feature = "tune")]
                {
                    TUNED_VALUES[TunableIndex::$name as usize]
                        .load(std::sync::atomic::Ordering::Relaxed)
                }
                #[cfg(not(feature = "tune"))]
                {
                    $name
                }
            }
        )*

        /// Sets the value of `TUNABLES[index]` (already checked against its range); the searches
        /// that start afterwards use it.
        #[cfg(feature = "tune")]
        pub fn set_tunable(index: usize, value: i32) {
            if let Some(cell) = TUNED_VALUES.get(index) {
                cell.store(value, std::sync::atomic::Ordering::Relaxed);
            }
            on_tunable_change();
        }
    };
}
pub(crate) use tunables;

/// The tunable constant called `name`, with its index in the table.
pub fn find(name: &str) -> Option<(usize, &'static Tunable)> {
    crate::search::params::TUNABLES
        .iter()
        .enumerate()
        .find(|(_, t)| t.is_named(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::params::TUNABLES;

    #[test]
    fn the_table_is_sound() {
        assert!(!TUNABLES.is_empty());
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(t.min < t.max, "{}: empty range", t.name);
            assert!(
                (t.min..=t.max).contains(&t.default),
                "{}: default {} outside {}..={}",
                t.name,
                t.default,
                t.min,
                t.max
            );
            assert!(
                t.step > 0.0 && t.step <= f64::from(t.max - t.min) / 2.0,
                "{}: step {} does not fit the range",
                t.name,
                t.step
            );
            assert_eq!(
                find(t.name).map(|(j, _)| j),
                Some(i),
                "{} found by name",
                t.name
            );
            assert_eq!(
                find(&t.name.to_lowercase().replace('_', " ")).map(|(j, _)| j),
                Some(i)
            );
        }
        assert!(find("NO_SUCH_CONSTANT").is_none());
    }

    #[cfg(not(feature = "tune"))]
    #[test]
    fn ordinary_builds_read_the_constants() {
        use crate::search::params as p;
        assert_eq!(p::rfp_margin(), p::RFP_MARGIN);
        assert_eq!(p::lmr_divisor_x100(), p::LMR_DIVISOR_X100);
        assert_eq!(p::stable_share_permille(), p::STABLE_SHARE_PERMILLE);
    }

    #[cfg(feature = "tune")]
    #[test]
    fn tune_builds_read_the_cells() {
        use crate::search::params as p;
        let (i, t) = find("QS_DELTA_MARGIN").expect("declared");
        p::set_tunable(i, t.default + 7);
        assert_eq!(p::qs_delta_margin(), t.default + 7);
        p::set_tunable(i, t.default);
        assert_eq!(p::qs_delta_margin(), t.default);
    }
}
