//! The net file format: a small versioned header followed by little-endian weights.
//!
//! Everything is little-endian. Offsets in bytes:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `COTUONGN` |
//! | 8 | 4 | format version, `u32`: 1 or 2 ([`SUPPORTED_VERSIONS`]; writers emit [`FORMAT_VERSION`]) |
//! | 12 | 4 | architecture id, `u32` ([`Architecture`]) |
//! | 16 | 4 | feature set id, `u32` ([`FeatureSet`]; version 1 allows set 1 only) |
//! | 20 | 4 | inputs per perspective, `u32` (must equal the feature set's) |
//! | 24 | 4 | hidden size H per perspective, `u32` (a multiple of [`HIDDEN_MULTIPLE`]) |
//! | 28 | 4 | output bucket scheme id, `u32` ([`OutputBuckets`]): 0 single, 1 piece count, 2 piece configuration |
//! | 32 | 4 | output bucket count B, `u32`: 1 for scheme 0, 2 to 16 for scheme 1, 16 for scheme 2 |
//! | 36 | 4 | QA, `i32`: first-layer quantisation (float 1.0 = QA) |
//! | 40 | 4 | QB, `i32`: output-weight quantisation (float 1.0 = QB) |
//! | 44 | 4 | eval scale, `i32`: engine units per unit of the float output |
//! | 48 | 8 | weights hash, `u64`: FNV-1a 64 of every byte after the description |
//! | 56 | 4 | description length D, `u32` |
//! | 60 | 4 | version 2 only: king buckets K, `u32` ([`FeatureSet::king_buckets`]: 1 for sets 1 and 3, 6 for sets 2 and 4) |
//! | 64 | 4 | version 2 only: feature flags, `u32`: bit 0 = files mirrored while the own general is right of the centre ([`FeatureSet::mirrored`]); bit 1 = 4 attack buckets by the own chariots, horses and cannons ([`FeatureSet::attack_buckets`]; sets 3 and 4); other bits 0 |
//! | F | D | description, UTF-8 (for example the training command, data and seed); F = 60 in version 1, 68 in version 2 |
//! | F+D | | weights, in this order: |
//! | | 2·I·H | feature weights, `i16`, feature-major: the H values of input 0, then input 1, ... |
//! | | 2·H | feature biases, `i16` |
//! | | 2·B·2H | output weights, `i16`, bucket-major; in each bucket the first H multiply the side to move's activations, the next H the other side's |
//! | | 4·B | output biases, `i32` |
//!
//! Version 2 adds the feature set's parameters (K and the flags) so that a reader can tell the
//! shape of the inputs without knowing the set id; the loader requires them to match the set's
//! own. Version 1 files (no parameters, set 1 only) still load, unchanged in meaning.
//!
//! The file ends exactly after the output biases. The evaluation a net computes, in float terms,
//! with `a(x)` its activation ([`Architecture`]):
//!
//! ```text
//! acc_p  = feature_bias + Σ feature_weight[i]      over the active inputs i of perspective p
//! out    = Σ_j a(acc_stm[j]) · w[b][j] + Σ_j a(acc_other[j]) · w[b][H + j] + bias[b]
//! eval   = out · eval_scale      (engine units, side to move's point of view)
//! ```
//!
//! where `b` is the output bucket of the position. Quantised, feature weights and biases are
//! stored as `round(x · QA)`, output weights as `round(x · QB)` and output biases as
//! `round(x · QA · QB)`.

use crate::features::{FeatureSet, OutputBuckets, MAX_OUTPUT_BUCKETS, PIECE_CONFIGURATION_BUCKETS};
use std::fmt;

/// The first eight bytes of every net file.
pub const MAGIC: [u8; 8] = *b"COTUONGN";
/// The format version this build writes.
pub const FORMAT_VERSION: u32 = 2;
/// Every format version this build reads.
pub const SUPPORTED_VERSIONS: [u32; 2] = [1, 2];
/// Bytes before the description in a version-1 file.
pub const FIXED_HEADER_BYTES_V1: usize = 60;
/// Bytes before the description in a version-2 file.
pub const FIXED_HEADER_BYTES: usize = 68;
/// Bit 0 of the version-2 feature flags: files mirrored while the own general is right of the
/// centre.
pub const FLAG_MIRRORED: u32 = 1;
/// Bit 1 of the version-2 feature flags: inputs split by 4 attack buckets.
pub const FLAG_ATTACK_BUCKETS: u32 = 2;
/// Hidden sizes must be a multiple of this (the widest SIMD register holds 32 `i16`).
pub const HIDDEN_MULTIPLE: usize = 32;
/// The largest hidden size the format accepts (a sanity bound against corrupt headers).
pub const MAX_HIDDEN: usize = 4096;
/// The longest description accepted (a sanity bound against corrupt headers).
pub const MAX_DESCRIPTION_BYTES: usize = 1 << 16;

/// The network's layer structure and activation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Architecture {
    /// Perspective network, one hidden layer, squared clipped ReLU `clamp(x, 0, 1)²`.
    PerspectiveScrelu,
    /// Perspective network, one hidden layer, clipped ReLU `clamp(x, 0, 1)`.
    PerspectiveCrelu,
}

impl Architecture {
    /// Every architecture this build knows.
    pub const ALL: [Architecture; 2] = [
        Architecture::PerspectiveScrelu,
        Architecture::PerspectiveCrelu,
    ];

    /// The id written in net files.
    pub const fn id(self) -> u32 {
        match self {
            Architecture::PerspectiveScrelu => 1,
            Architecture::PerspectiveCrelu => 2,
        }
    }

    /// The architecture with this file id, if this build knows it.
    pub fn from_id(id: u32) -> Option<Architecture> {
        Architecture::ALL.into_iter().find(|a| a.id() == id)
    }

    /// A short human-readable name.
    pub const fn name(self) -> &'static str {
        match self {
            Architecture::PerspectiveScrelu => "perspective SCReLU",
            Architecture::PerspectiveCrelu => "perspective CReLU",
        }
    }
}

/// Everything in a net file before the weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetHeader {
    /// Layer structure and activation.
    pub architecture: Architecture,
    /// Input features.
    pub features: FeatureSet,
    /// Hidden units per perspective.
    pub hidden: usize,
    /// Output bucket scheme (with its count).
    pub buckets: OutputBuckets,
    /// First-layer quantisation: float 1.0 is stored as `qa`.
    pub qa: i32,
    /// Output-weight quantisation: float 1.0 is stored as `qb`.
    pub qb: i32,
    /// Engine units per unit of the float output.
    pub eval_scale: i32,
    /// Free text: how the net was made.
    pub description: String,
}

/// A whole net file, header and quantised weights, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetFile {
    /// The header.
    pub header: NetHeader,
    /// `inputs × hidden`, feature-major.
    pub feature_weights: Vec<i16>,
    /// `hidden`.
    pub feature_biases: Vec<i16>,
    /// `buckets × 2·hidden`, bucket-major, side to move's half first.
    pub output_weights: Vec<i16>,
    /// `buckets`.
    pub output_biases: Vec<i32>,
}

/// Why a net file could not be read or built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file ended inside `field`, which needs bytes up to `needed`; the file has `len`.
    Truncated {
        /// What was being read.
        field: &'static str,
        /// Bytes the field needs from the start of the file.
        needed: usize,
        /// Bytes in the file.
        len: usize,
    },
    /// The first eight bytes are not [`MAGIC`].
    BadMagic,
    /// A format version this build does not read.
    UnsupportedVersion(u32),
    /// An architecture id this build does not know.
    UnknownArchitecture(u32),
    /// A feature set id this build does not know.
    UnknownFeatureSet(u32),
    /// A feature set a version-1 file cannot hold (version 1 knows set 1 only).
    FeatureSetNeedsVersion2(FeatureSet),
    /// Version-2 feature parameters that differ from the named feature set's.
    FeatureParameterMismatch {
        /// The feature set named in the header.
        features: FeatureSet,
        /// King buckets in the header.
        king_buckets: u32,
        /// Feature flags in the header.
        flags: u32,
    },
    /// The input count does not match the feature set's.
    InputCountMismatch {
        /// The feature set named in the header.
        features: FeatureSet,
        /// Its input count.
        expected: usize,
        /// The count in the header.
        found: usize,
    },
    /// A hidden size that is zero, too big or not a multiple of [`HIDDEN_MULTIPLE`].
    BadHiddenSize(usize),
    /// An unknown output bucket scheme or a count it does not allow.
    BadOutputBuckets {
        /// Scheme id.
        scheme: u32,
        /// Bucket count.
        count: usize,
    },
    /// QA, QB or the eval scale is not positive.
    BadQuantisation {
        /// Which constant.
        field: &'static str,
        /// Its value.
        value: i32,
    },
    /// The description is longer than [`MAX_DESCRIPTION_BYTES`] or not UTF-8.
    BadDescription,
    /// The weights' hash differs from the header's: the file is corrupt.
    HashMismatch {
        /// Hash in the header.
        stored: u64,
        /// Hash of the weights read.
        computed: u64,
    },
    /// Bytes after the output biases.
    TrailingBytes {
        /// Where the net ends.
        end: usize,
        /// The file's length.
        len: usize,
    },
    /// A weight vector's length does not match the header (when building a file).
    WrongWeightCount {
        /// Which vector.
        field: &'static str,
        /// Length the header implies.
        expected: usize,
        /// Length given.
        found: usize,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Truncated { field, needed, len } => write!(
                f,
                "truncated at byte {len}: the {field} needs {needed} bytes"
            ),
            NetError::BadMagic => write!(f, "not a Cotuong net file (bad magic)"),
            NetError::UnsupportedVersion(v) => {
                let supported: Vec<String> =
                    SUPPORTED_VERSIONS.iter().map(|v| v.to_string()).collect();
                write!(
                    f,
                    "net format version {v} but this binary reads versions {}",
                    supported.join(", ")
                )
            }
            NetError::UnknownArchitecture(id) => write!(f, "unknown architecture id {id}"),
            NetError::UnknownFeatureSet(id) => write!(f, "unknown feature set id {id}"),
            NetError::FeatureSetNeedsVersion2(features) => write!(
                f,
                "feature set {} (id {}) in a version-1 file, which holds set 1 only",
                features.name(),
                features.id()
            ),
            NetError::FeatureParameterMismatch {
                features,
                king_buckets,
                flags,
            } => write!(
                f,
                "feature parameters {king_buckets} king buckets, flags {flags:#x} but feature set {} has {} king buckets, flags {:#x}",
                features.name(),
                features.king_buckets(),
                feature_flags(*features)
            ),
            NetError::InputCountMismatch {
                features,
                expected,
                found,
            } => write!(
                f,
                "{found} inputs but feature set {} has {expected}",
                features.name()
            ),
            NetError::BadHiddenSize(h) => write!(
                f,
                "hidden size {h} is not a positive multiple of {HIDDEN_MULTIPLE} up to {MAX_HIDDEN}"
            ),
            NetError::BadOutputBuckets { scheme, count } => {
                write!(
                    f,
                    "output bucket scheme {scheme} with {count} buckets is not valid \
                     (scheme 0: 1 bucket; 1: 2 to {MAX_OUTPUT_BUCKETS}; 2: {PIECE_CONFIGURATION_BUCKETS})"
                )
            }
            NetError::BadQuantisation { field, value } => {
                write!(f, "{field} is {value}, must be positive")
            }
            NetError::BadDescription => write!(f, "description is too long or not UTF-8"),
            NetError::HashMismatch { stored, computed } => write!(
                f,
                "hash mismatch: header says {stored:016x}, weights hash to {computed:016x}"
            ),
            NetError::TrailingBytes { end, len } => {
                write!(
                    f,
                    "{} trailing bytes after the net (it ends at byte {end})",
                    len - end
                )
            }
            NetError::WrongWeightCount {
                field,
                expected,
                found,
            } => write!(f, "{field}: {found} values, the header implies {expected}"),
        }
    }
}

impl std::error::Error for NetError {}

/// FNV-1a, 64 bits: a simple, well-known checksum that catches corrupt or edited weights.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}

/// The version-2 feature flags of `features`.
pub const fn feature_flags(features: FeatureSet) -> u32 {
    let mirrored = if features.mirrored() {
        FLAG_MIRRORED
    } else {
        0
    };
    let attack = if features.attack_buckets() > 1 {
        FLAG_ATTACK_BUCKETS
    } else {
        0
    };
    mirrored | attack
}

impl NetHeader {
    /// Weights in the feature layer (`inputs × hidden`).
    pub fn feature_weight_count(&self) -> usize {
        self.features.inputs() * self.hidden
    }

    /// Weights in the output layer (`buckets × 2 × hidden`).
    pub fn output_weight_count(&self) -> usize {
        self.buckets.count() * 2 * self.hidden
    }

    /// Checks the fields a file could get wrong.
    fn validate(&self) -> Result<(), NetError> {
        if self.hidden == 0
            || self.hidden > MAX_HIDDEN
            || !self.hidden.is_multiple_of(HIDDEN_MULTIPLE)
        {
            return Err(NetError::BadHiddenSize(self.hidden));
        }
        for (field, value) in [
            ("QA", self.qa),
            ("QB", self.qb),
            ("eval scale", self.eval_scale),
        ] {
            if value <= 0 {
                return Err(NetError::BadQuantisation { field, value });
            }
        }
        if self.description.len() > MAX_DESCRIPTION_BYTES {
            return Err(NetError::BadDescription);
        }
        Ok(())
    }
}

/// A little-endian reader that reports where the file ended.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, field: &'static str) -> Result<&'a [u8], NetError> {
        let needed = self.pos.saturating_add(n);
        if needed > self.bytes.len() {
            return Err(NetError::Truncated {
                field,
                needed,
                len: self.bytes.len(),
            });
        }
        let out = &self.bytes[self.pos..needed];
        self.pos = needed;
        Ok(out)
    }

    fn u32(&mut self, field: &'static str) -> Result<u32, NetError> {
        let b = self.take(4, field)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn i32(&mut self, field: &'static str) -> Result<i32, NetError> {
        self.u32(field).map(|v| v as i32)
    }

    fn u64(&mut self, field: &'static str) -> Result<u64, NetError> {
        let b = self.take(8, field)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    fn i16s(&mut self, n: usize, field: &'static str) -> Result<Vec<i16>, NetError> {
        let b = self.take(n.saturating_mul(2), field)?;
        Ok(b.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }

    fn i32s(&mut self, n: usize, field: &'static str) -> Result<Vec<i32>, NetError> {
        let b = self.take(n.saturating_mul(4), field)?;
        Ok(b.chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
}

impl NetFile {
    /// Builds a file from a header and weights, checking that every length matches the header.
    pub fn new(
        header: NetHeader,
        feature_weights: Vec<i16>,
        feature_biases: Vec<i16>,
        output_weights: Vec<i16>,
        output_biases: Vec<i32>,
    ) -> Result<NetFile, NetError> {
        header.validate()?;
        for (field, expected, found) in [
            (
                "feature weights",
                header.feature_weight_count(),
                feature_weights.len(),
            ),
            ("feature biases", header.hidden, feature_biases.len()),
            (
                "output weights",
                header.output_weight_count(),
                output_weights.len(),
            ),
            ("output biases", header.buckets.count(), output_biases.len()),
        ] {
            if expected != found {
                return Err(NetError::WrongWeightCount {
                    field,
                    expected,
                    found,
                });
            }
        }
        Ok(NetFile {
            header,
            feature_weights,
            feature_biases,
            output_weights,
            output_biases,
        })
    }

    /// Reads and validates a whole net file.
    pub fn parse(bytes: &[u8]) -> Result<NetFile, NetError> {
        let mut r = Reader { bytes, pos: 0 };
        if r.take(MAGIC.len(), "magic")? != MAGIC {
            return Err(NetError::BadMagic);
        }
        let version = r.u32("format version")?;
        if !SUPPORTED_VERSIONS.contains(&version) {
            return Err(NetError::UnsupportedVersion(version));
        }
        let arch_id = r.u32("architecture id")?;
        let architecture =
            Architecture::from_id(arch_id).ok_or(NetError::UnknownArchitecture(arch_id))?;
        let feature_id = r.u32("feature set id")?;
        let features =
            FeatureSet::from_id(feature_id).ok_or(NetError::UnknownFeatureSet(feature_id))?;
        if version == 1 && features != FeatureSet::PieceSquare {
            return Err(NetError::FeatureSetNeedsVersion2(features));
        }
        let inputs = r.u32("input count")? as usize;
        if inputs != features.inputs() {
            return Err(NetError::InputCountMismatch {
                features,
                expected: features.inputs(),
                found: inputs,
            });
        }
        let hidden = r.u32("hidden size")? as usize;
        let scheme = r.u32("output bucket scheme")?;
        let count = r.u32("output bucket count")? as usize;
        let buckets = OutputBuckets::from_id(scheme, count)
            .ok_or(NetError::BadOutputBuckets { scheme, count })?;
        let qa = r.i32("QA")?;
        let qb = r.i32("QB")?;
        let eval_scale = r.i32("eval scale")?;
        let stored_hash = r.u64("weights hash")?;
        let description_len = r.u32("description length")? as usize;
        if description_len > MAX_DESCRIPTION_BYTES {
            return Err(NetError::BadDescription);
        }
        if version >= 2 {
            let king_buckets = r.u32("king bucket count")?;
            let flags = r.u32("feature flags")?;
            if king_buckets as usize != features.king_buckets() || flags != feature_flags(features)
            {
                return Err(NetError::FeatureParameterMismatch {
                    features,
                    king_buckets,
                    flags,
                });
            }
        }
        let description = std::str::from_utf8(r.take(description_len, "description")?)
            .map_err(|_| NetError::BadDescription)?
            .to_string();
        let header = NetHeader {
            architecture,
            features,
            hidden,
            buckets,
            qa,
            qb,
            eval_scale,
            description,
        };
        header.validate()?;

        let weights_start = r.pos;
        let feature_weights = r.i16s(header.feature_weight_count(), "feature weights")?;
        let feature_biases = r.i16s(hidden, "feature biases")?;
        let output_weights = r.i16s(header.output_weight_count(), "output weights")?;
        let output_biases = r.i32s(buckets.count(), "output biases")?;
        if r.pos != bytes.len() {
            return Err(NetError::TrailingBytes {
                end: r.pos,
                len: bytes.len(),
            });
        }
        let computed = fnv1a64(&bytes[weights_start..]);
        if computed != stored_hash {
            return Err(NetError::HashMismatch {
                stored: stored_hash,
                computed,
            });
        }
        Ok(NetFile {
            header,
            feature_weights,
            feature_biases,
            output_weights,
            output_biases,
        })
    }

    /// The weights section as stored (what the hash covers).
    fn weight_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(
            2 * (self.feature_weights.len()
                + self.feature_biases.len()
                + self.output_weights.len())
                + 4 * self.output_biases.len(),
        );
        for w in self
            .feature_weights
            .iter()
            .chain(&self.feature_biases)
            .chain(&self.output_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_biases {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// The hash of the weights (as stored in the header).
    pub fn weights_hash(&self) -> u64 {
        fnv1a64(&self.weight_bytes())
    }

    /// The file's bytes, in the current format version ([`FORMAT_VERSION`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.write(FORMAT_VERSION)
    }

    /// The file's bytes in format version 1, which holds [`FeatureSet::PieceSquare`] nets only
    /// (for readers that predate version 2).
    pub fn to_bytes_v1(&self) -> Result<Vec<u8>, NetError> {
        if self.header.features != FeatureSet::PieceSquare {
            return Err(NetError::FeatureSetNeedsVersion2(self.header.features));
        }
        Ok(self.write(1))
    }

    /// The file's bytes in format `version` (1 or 2; version 1 for piece-square nets only).
    fn write(&self, version: u32) -> Vec<u8> {
        let h = &self.header;
        let weights = self.weight_bytes();
        let mut out = Vec::with_capacity(FIXED_HEADER_BYTES + h.description.len() + weights.len());
        out.extend_from_slice(&MAGIC);
        for v in [
            version,
            h.architecture.id(),
            h.features.id(),
            h.features.inputs() as u32,
            h.hidden as u32,
            h.buckets.id(),
            h.buckets.count() as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in [h.qa, h.qb, h.eval_scale] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&fnv1a64(&weights).to_le_bytes());
        out.extend_from_slice(&(h.description.len() as u32).to_le_bytes());
        if version >= 2 {
            out.extend_from_slice(&(h.features.king_buckets() as u32).to_le_bytes());
            out.extend_from_slice(&feature_flags(h.features).to_le_bytes());
        }
        out.extend_from_slice(h.description.as_bytes());
        out.extend_from_slice(&weights);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_net() -> NetFile {
        let header = NetHeader {
            architecture: Architecture::PerspectiveScrelu,
            features: FeatureSet::PieceSquare,
            hidden: 32,
            buckets: OutputBuckets::PieceCount(2),
            qa: 255,
            qb: 64,
            eval_scale: 400,
            description: "test net".to_string(),
        };
        let fw = (0..header.feature_weight_count())
            .map(|i| (i % 251) as i16 - 125)
            .collect();
        let fb = (0..32).map(|i| i as i16).collect();
        let ow = (0..header.output_weight_count())
            .map(|i| (i % 17) as i16 - 8)
            .collect();
        NetFile::new(header, fw, fb, ow, vec![1000, -1000]).unwrap()
    }

    #[test]
    fn round_trips() {
        let net = small_net();
        let bytes = net.to_bytes();
        assert_eq!(
            bytes.len(),
            FIXED_HEADER_BYTES + 8 + 2 * (1260 * 32 + 32 + 2 * 64) + 8
        );
        assert_eq!(NetFile::parse(&bytes).unwrap(), net);
    }

    #[test]
    fn piece_configuration_nets_round_trip_and_other_counts_are_refused() {
        let file = crate::random_net::Spec {
            buckets: OutputBuckets::PieceConfiguration,
            ..crate::random_net::Spec::screlu(32)
        }
        .build(7);
        let bytes = file.to_bytes();
        assert_eq!(&bytes[28..36], &[2, 0, 0, 0, 16, 0, 0, 0]);
        let back = NetFile::parse(&bytes).unwrap();
        assert_eq!(back.header.buckets, OutputBuckets::PieceConfiguration);
        assert_eq!(back, file);
        // The header check comes before the weights are read, so the rest may stay as it is.
        for count in [1u32, 8, 15, 17] {
            let mut b = bytes.clone();
            b[32..36].copy_from_slice(&count.to_le_bytes());
            let err = NetFile::parse(&b).unwrap_err();
            assert_eq!(
                err,
                NetError::BadOutputBuckets {
                    scheme: 2,
                    count: count as usize
                }
            );
            assert!(err.to_string().contains("2: 16"), "{err}");
        }
        let mut b = bytes.clone();
        b[28] = 3;
        assert_eq!(
            NetFile::parse(&b),
            Err(NetError::BadOutputBuckets {
                scheme: 3,
                count: 16
            })
        );
    }

    #[test]
    fn every_truncation_is_reported_with_its_offset() {
        let bytes = small_net().to_bytes();
        for cut in [0, 7, 8, 30, 59, 60, 67, 68, 1000, bytes.len() - 1] {
            match NetFile::parse(&bytes[..cut]) {
                Err(NetError::Truncated { len, .. }) => assert_eq!(len, cut),
                other => panic!("cut at {cut}: {other:?}"),
            }
        }
    }

    #[test]
    fn corrupt_files_get_precise_errors() {
        let good = small_net().to_bytes();
        let mut b = good.clone();
        b[0] = b'X';
        assert_eq!(NetFile::parse(&b), Err(NetError::BadMagic));
        let mut b = good.clone();
        b[8] = 9;
        assert_eq!(NetFile::parse(&b), Err(NetError::UnsupportedVersion(9)));
        let mut b = good.clone();
        b[24] = 33;
        assert_eq!(NetFile::parse(&b), Err(NetError::BadHiddenSize(33)));
        let mut b = good.clone();
        b[20] = 0;
        assert!(matches!(
            NetFile::parse(&b),
            Err(NetError::InputCountMismatch { .. })
        ));
        let mut b = good.clone();
        let last = b.len() - 5;
        b[last] ^= 1;
        assert!(matches!(
            NetFile::parse(&b),
            Err(NetError::HashMismatch { .. })
        ));
        let mut b = good.clone();
        b.push(0);
        assert!(matches!(
            NetFile::parse(&b),
            Err(NetError::TrailingBytes { .. })
        ));
        let msg = NetError::BadHiddenSize(33).to_string();
        assert!(msg.contains("33"), "{msg}");
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut state = 0x1234_5678_u64;
        for len in 0..2000 {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                    (state >> 56) as u8
                })
                .collect();
            assert!(NetFile::parse(&bytes).is_err());
        }
    }

    #[test]
    fn version_1_files_round_trip_and_mean_the_same() {
        let net = small_net();
        let v1 = net.to_bytes_v1().unwrap();
        assert_eq!(v1.len() + 8, net.to_bytes().len());
        assert_eq!(u32::from_le_bytes([v1[8], v1[9], v1[10], v1[11]]), 1);
        assert_eq!(NetFile::parse(&v1).unwrap(), net);
        // The weights are hashed alike in both versions.
        assert_eq!(v1[48..56], net.to_bytes()[48..56]);
    }

    /// A net of `small_net`'s shape on `features`, with small varied feature weights.
    fn small_net_of(features: FeatureSet) -> NetFile {
        let mut header = small_net().header;
        header.features = features;
        let fw = (0..header.feature_weight_count())
            .map(|i| (i % 7) as i16 - 3)
            .collect();
        let ow = vec![1; header.output_weight_count()];
        NetFile::new(header, fw, vec![0; 32], ow, vec![0, 0]).unwrap()
    }

    #[test]
    fn king_bucket_nets_round_trip_in_version_2_only() {
        let net = small_net_of(FeatureSet::KingBuckets);
        let bytes = net.to_bytes();
        assert_eq!(&bytes[60..68], &[6, 0, 0, 0, 1, 0, 0, 0]);
        assert_eq!(NetFile::parse(&bytes).unwrap(), net);
        assert_eq!(
            net.to_bytes_v1(),
            Err(NetError::FeatureSetNeedsVersion2(FeatureSet::KingBuckets))
        );
        // A version-1 header naming set 2.
        let mut b = bytes.clone();
        b[8] = 1;
        assert_eq!(
            NetFile::parse(&b),
            Err(NetError::FeatureSetNeedsVersion2(FeatureSet::KingBuckets))
        );
        // Parameters that disagree with the set.
        for (at, value) in [(60, 5u8), (64, 0), (64, 3)] {
            let mut b = bytes.clone();
            b[at] = value;
            assert!(
                matches!(
                    NetFile::parse(&b),
                    Err(NetError::FeatureParameterMismatch { .. })
                ),
                "byte {at} = {value}"
            );
        }
    }

    #[test]
    fn every_feature_set_writes_its_parameters_and_round_trips() {
        for (features, king_buckets, flags) in [
            (FeatureSet::PieceSquare, 1, 0),
            (FeatureSet::KingBuckets, 6, 1),
            (FeatureSet::AttackBuckets, 1, 2),
            (FeatureSet::KingAttackBuckets, 6, 3),
        ] {
            let net = small_net_of(features);
            let bytes = net.to_bytes();
            assert_eq!(&bytes[60..68], &[king_buckets, 0, 0, 0, flags, 0, 0, 0]);
            assert_eq!(NetFile::parse(&bytes).unwrap(), net);
            // The attack-bucket flag flipped: the parameters no longer match the set.
            let mut b = bytes.clone();
            b[64] ^= FLAG_ATTACK_BUCKETS as u8;
            assert!(matches!(
                NetFile::parse(&b),
                Err(NetError::FeatureParameterMismatch { .. })
            ));
        }
    }

    #[test]
    fn unknown_versions_name_the_supported_ones() {
        let mut b = small_net().to_bytes();
        for v in [0u32, 3, 77] {
            b[8..12].copy_from_slice(&v.to_le_bytes());
            let err = NetFile::parse(&b).unwrap_err();
            assert_eq!(err, NetError::UnsupportedVersion(v));
            assert_eq!(
                err.to_string(),
                format!("net format version {v} but this binary reads versions 1, 2")
            );
        }
    }

    #[test]
    fn building_with_wrong_lengths_fails() {
        let net = small_net();
        let err = NetFile::new(
            net.header.clone(),
            vec![0; 3],
            net.feature_biases.clone(),
            net.output_weights.clone(),
            net.output_biases.clone(),
        );
        assert!(matches!(err, Err(NetError::WrongWeightCount { .. })));
    }
}
