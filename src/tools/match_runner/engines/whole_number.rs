//! Whole numbers the user gives the match runner, with bounds: the command line's options (as
//! clap value parsers) and the engines' `nodes=` and `depth=` keys read alike.

/// Whole numbers from `min` on.
pub(crate) fn at_least<T: TryFrom<u64>>(min: u64) -> impl Fn(&str) -> Result<T, String> + Clone {
    whole_number(min, u64::MAX)
}

/// Whole numbers from `min` to `max`. Written out because clap's own range parser words its
/// error with the type's maximum ("0 is not in 1..18446744073709551615").
pub(crate) fn whole_number<T: TryFrom<u64>>(
    min: u64,
    max: u64,
) -> impl Fn(&str) -> Result<T, String> + Clone {
    move |text| {
        let n: u64 = text
            .parse()
            .map_err(|_| format!("'{text}' is not a whole number"))?;
        if n < min {
            return Err(format!("must be at least {min}"));
        }
        if n > max {
            return Err(format!("must be at most {max}"));
        }
        T::try_from(n).map_err(|_| format!("{n} is too large"))
    }
}
