//! The pairing formats of a tournament of more than two engines.

/// How engines are paired.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
pub enum Format {
    /// Everyone meets everyone, `--rounds` times (Berger tables; colours reversed in even cycles).
    RoundRobin,
    /// Swiss system over `--rounds` rounds (Điều 27-28).
    Swiss,
}
