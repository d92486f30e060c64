//! Resumable training state: the float network, the optimiser's moments and step count, the
//! epochs done, K and the loss history, in one little-endian file with a trailing checksum.
//!
//! | field | type |
//! |---|---|
//! | magic `CTTRAINC` | 8 bytes |
//! | version | `u32` |
//! | inputs, hidden, buckets, bucket scheme id, activation (0 SCReLU, 1 CReLU) | 5 × `u32` |
//! | feature set id (as in net files; version 3 on, version 2 means piece-square) | `u32` |
//! | rows of the factorised shared block (version 4 on; 0: not factorised) | `u32` |
//! | epochs done, output quantisation QB | 2 × `u32` |
//! | optimiser steps | `u64` |
//! | K used, K fitted (NaN if given) | 2 × `f64` |
//! | data fingerprint (files, filters, split, seed, buckets) | `u64` |
//! | history length n, then n × (train loss, validation loss or NaN) | `u32`, 2n × `f64` |
//! | parameter count P, then parameters, first moments, second moments | `u64`, 3P × `f32` |
//! | FNV-1a 64 of every byte before it | `u64` |

use super::network::{Activation, Network};
use super::optimizer::AdamW;
use nnue::features::{FeatureSet, OutputBuckets};
use nnue::format::fnv1a64;

/// The first eight bytes of a checkpoint.
const MAGIC: [u8; 8] = *b"CTTRAINC";
/// The checkpoint version this build reads and writes.
const VERSION: u32 = 4;
/// Still read: no factorised block.
const VERSION_3: u32 = 3;
/// Still read: no feature set id (piece-square), no factorised block.
const VERSION_2: u32 = 2;

/// Everything needed to continue a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The network.
    pub net: Network,
    /// The optimiser state.
    pub adam: AdamW,
    /// Epochs completed.
    pub epochs_done: u32,
    /// The output quantisation the weights were clipped for.
    pub qb: i32,
    /// The K the run trains with.
    pub k: f64,
    /// The K fitted on the data, if it was fitted.
    pub k_fitted: Option<f64>,
    /// Identifies the data, filters, split and seed the run used.
    pub fingerprint: u64,
    /// Per epoch: training loss and validation loss.
    pub history: Vec<(f64, Option<f64>)>,
}

fn activation_id(a: Activation) -> u32 {
    match a {
        Activation::Screlu => 0,
        Activation::Crelu => 1,
    }
}

impl Checkpoint {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let p = self.net.params();
        let mut out = Vec::with_capacity(128 + 16 * self.history.len() + 12 * p.len());
        out.extend_from_slice(&MAGIC);
        let layout = self.net.layout();
        for v in [
            VERSION,
            layout.inputs as u32,
            layout.hidden as u32,
            layout.buckets as u32,
            self.net.buckets().id(),
            activation_id(self.net.activation()),
            self.net.features().id(),
            layout.factor_rows as u32,
            self.epochs_done,
            self.qb as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.adam.steps.to_le_bytes());
        out.extend_from_slice(&self.k.to_le_bytes());
        out.extend_from_slice(&self.k_fitted.unwrap_or(f64::NAN).to_le_bytes());
        out.extend_from_slice(&self.fingerprint.to_le_bytes());
        out.extend_from_slice(&(self.history.len() as u32).to_le_bytes());
        for &(train, validation) in &self.history {
            out.extend_from_slice(&train.to_le_bytes());
            out.extend_from_slice(&validation.unwrap_or(f64::NAN).to_le_bytes());
        }
        out.extend_from_slice(&(p.len() as u64).to_le_bytes());
        for v in p.iter().chain(&self.adam.m).chain(&self.adam.v) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let hash = fnv1a64(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }

    /// Reads a checkpoint; `weight_decay` is the run's (it is an option, not state).
    pub fn parse(bytes: &[u8], weight_decay: f32) -> Result<Checkpoint, String> {
        if bytes.len() < MAGIC.len() + 8 || bytes[..MAGIC.len()] != MAGIC {
            return Err("not a Cotuong training checkpoint".to_string());
        }
        let body = &bytes[..bytes.len() - 8];
        let mut stored = [0u8; 8];
        stored.copy_from_slice(&bytes[bytes.len() - 8..]);
        if fnv1a64(body) != u64::from_le_bytes(stored) {
            return Err("checksum mismatch (the file is damaged or truncated)".to_string());
        }
        let mut r = Cursor {
            bytes: body,
            pos: MAGIC.len(),
        };
        let version = r.u32()?;
        if ![VERSION_2, VERSION_3, VERSION].contains(&version) {
            return Err(format!(
                "version {version}, this build reads versions {VERSION_2} to {VERSION}"
            ));
        }
        let inputs = r.u32()? as usize;
        let hidden = r.u32()? as usize;
        let bucket_count = r.u32()? as usize;
        let scheme = r.u32()?;
        let activation = match r.u32()? {
            0 => Activation::Screlu,
            1 => Activation::Crelu,
            a => return Err(format!("unknown activation {a}")),
        };
        let features = if version == VERSION_2 {
            FeatureSet::PieceSquare
        } else {
            let id = r.u32()?;
            FeatureSet::from_id(id).ok_or_else(|| format!("unknown feature set id {id}"))?
        };
        let factor_rows = if version == VERSION {
            r.u32()? as usize
        } else {
            0
        };
        let buckets = OutputBuckets::from_id(scheme, bucket_count)
            .ok_or_else(|| format!("bad output buckets {scheme}/{bucket_count}"))?;
        if hidden == 0 || hidden > nnue::format::MAX_HIDDEN {
            return Err(format!("bad hidden size {hidden}"));
        }
        let mut net = if factor_rows == 0 {
            Network::zeroed_with_features(features, hidden, buckets, activation)
        } else {
            Network::zeroed_factorised(features, hidden, buckets, activation)
                .filter(|n| n.layout().factor_rows == factor_rows)
                .ok_or_else(|| {
                    format!("{factor_rows} shared rows do not fit {}", features.name())
                })?
        };
        if net.layout().inputs != inputs {
            return Err(format!(
                "{inputs} inputs, the feature set has {}",
                net.layout().inputs
            ));
        }
        let epochs_done = r.u32()?;
        let qb = r.u32()? as i32;
        let steps = r.u64()?;
        let k = r.f64()?;
        let k_fitted = Some(r.f64()?).filter(|k| !k.is_nan());
        let fingerprint = r.u64()?;
        let n = r.u32()? as usize;
        let mut history = Vec::with_capacity(n.min(1 << 16));
        for _ in 0..n {
            let train = r.f64()?;
            let validation = Some(r.f64()?).filter(|v| !v.is_nan());
            history.push((train, validation));
        }
        let count = r.u64()? as usize;
        if count != net.params().len() {
            return Err(format!(
                "{count} parameters, the architecture has {}",
                net.params().len()
            ));
        }
        r.f32s(net.params_mut())?;
        let mut adam = AdamW::new(count, weight_decay);
        r.f32s(&mut adam.m)?;
        r.f32s(&mut adam.v)?;
        adam.steps = steps;
        if r.pos != body.len() {
            return Err("trailing bytes".to_string());
        }
        Ok(Checkpoint {
            net,
            adam,
            epochs_done,
            qb,
            k,
            k_fitted,
            fingerprint,
            history,
        })
    }
}

/// A little-endian reader with errors instead of panics.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let end = self.pos.checked_add(N).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("truncated at byte {}", self.pos))?;
        let mut a = [0u8; N];
        a.copy_from_slice(&self.bytes[self.pos..end]);
        self.pos = end;
        Ok(a)
    }
    fn u32(&mut self) -> Result<u32, String> {
        self.take::<4>().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Result<u64, String> {
        self.take::<8>().map(u64::from_le_bytes)
    }
    fn f64(&mut self) -> Result<f64, String> {
        self.take::<8>().map(f64::from_le_bytes)
    }
    fn f32s(&mut self, out: &mut [f32]) -> Result<(), String> {
        for v in out {
            *v = f32::from_le_bytes(self.take::<4>()?);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain and a factorised network round trip; damage is refused.
    #[test]
    fn round_trips_and_rejects_damage() {
        let factorised = Network::factorised(
            FeatureSet::KingBuckets,
            32,
            OutputBuckets::Single,
            Activation::Screlu,
            4,
        )
        .unwrap();
        let plain = Network::new(32, OutputBuckets::PieceCount(2), Activation::Crelu, 5);
        for net in [plain, factorised] {
            let mut adam = AdamW::new(net.params().len(), 0.01);
            adam.m[3] = 0.5;
            adam.v[7] = 0.25;
            adam.steps = 42;
            let c = Checkpoint {
                net,
                adam,
                epochs_done: 3,
                qb: 64,
                k: 400.0,
                k_fitted: Some(401.5),
                fingerprint: 99,
                history: vec![(0.1, Some(0.2)), (0.05, None)],
            };
            let bytes = c.to_bytes();
            let read = Checkpoint::parse(&bytes, 0.01).unwrap();
            assert_eq!(read.net.is_factorised(), c.net.is_factorised());
            assert_eq!(read, c);
            let mut bad = bytes.clone();
            bad[100] ^= 1;
            assert!(Checkpoint::parse(&bad, 0.01).is_err());
            assert!(Checkpoint::parse(&bytes[..bytes.len() - 3], 0.01).is_err());
        }
        assert!(Checkpoint::parse(b"nonsense", 0.01).is_err());
    }

    #[test]
    fn version_2_reads_as_piece_square_and_unknown_feature_sets_are_refused() {
        let net = Network::new(32, OutputBuckets::Single, Activation::Screlu, 3);
        let adam = AdamW::new(net.params().len(), 0.01);
        let c = Checkpoint {
            net,
            adam,
            epochs_done: 1,
            qb: 64,
            k: 400.0,
            k_fitted: None,
            fingerprint: 7,
            history: vec![(0.1, None)],
        };
        let v4 = c.to_bytes();
        let rehash = |mut body: Vec<u8>| {
            let hash = fnv1a64(&body);
            body.extend_from_slice(&hash.to_le_bytes());
            body
        };
        // Version 3: no shared-row count after the feature set id (bytes 36..40 in version 4).
        let mut v3 = v4[..v4.len() - 8].to_vec();
        v3[8..12].copy_from_slice(&VERSION_3.to_le_bytes());
        assert_eq!(v3.drain(36..40).collect::<Vec<u8>>(), 0u32.to_le_bytes());
        assert_eq!(Checkpoint::parse(&rehash(v3.clone()), 0.01), Ok(c.clone()));
        // Version 2: nor a feature set id after the activation (bytes 32..36).
        let mut v2 = v3;
        v2[8..12].copy_from_slice(&VERSION_2.to_le_bytes());
        assert_eq!(v2.drain(32..36).collect::<Vec<u8>>(), 1u32.to_le_bytes());
        let read = Checkpoint::parse(&rehash(v2), 0.01).unwrap();
        assert_eq!(read, c);
        assert_eq!(read.net.features(), FeatureSet::PieceSquare);
        let mut unknown = v4[..v4.len() - 8].to_vec();
        unknown[32..36].copy_from_slice(&99u32.to_le_bytes());
        let err = Checkpoint::parse(&rehash(unknown), 0.01).unwrap_err();
        assert!(err.contains("feature set id 99"), "{err}");
        // A shared block on a set with one block is refused.
        let mut shared = v4[..v4.len() - 8].to_vec();
        shared[36..40].copy_from_slice(&1260u32.to_le_bytes());
        let err = Checkpoint::parse(&rehash(shared), 0.01).unwrap_err();
        assert!(err.contains("1260 shared rows"), "{err}");
    }
}
