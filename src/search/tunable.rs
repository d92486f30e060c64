//! Tunable constants: the mechanism that lets a tuner (`cotuong tune`, SPSA) move numbers of the
//! search and the time manager. A module declares its table once with [`tunables!`] (the
//! search's is in `params`), with ranges and perturbation steps; this file knows no table.
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
        pub static TUNABLES: &[$crate::search::tunable::Tunable] = &[
            $( $crate::search::tunable::Tunable {
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
            // Ordinary builds may read a derived table's constants directly (`lmr`).
            #[allow(dead_code)]
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
