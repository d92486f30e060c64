//! Net files across format versions: the committed version-1 net (net 6) loads and evaluates
//! the same after rewriting it as version 2; version-2 files round trip; other versions are
//! refused with an error that names the supported ones.

use crate::common;

use common::random_positions;
use nnue::format::{NetError, NetFile, FORMAT_VERSION};
use nnue::network::LoadError;
use nnue::random_net::Spec;
use nnue::Network;

const NET_6: &[u8] = include_bytes!("../../nets/cotuong-6.nnue");

fn version(bytes: &[u8]) -> u32 {
    u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]])
}

#[test]
fn the_version_1_net_loads_and_evaluates_the_same_as_version_2() {
    assert_eq!(version(NET_6), 1);
    let file = NetFile::parse(NET_6).unwrap();
    // Written back as version 1: the very same bytes.
    assert_eq!(file.to_bytes_v1().unwrap(), NET_6);
    let v2 = file.to_bytes();
    assert_eq!(version(&v2), FORMAT_VERSION);
    assert_eq!(v2.len(), NET_6.len() + 8);
    let old = Network::from_bytes(NET_6).unwrap();
    let new = Network::from_bytes(&v2).unwrap();
    assert_eq!(old.hash(), new.hash());
    assert_eq!(old.summary(), new.summary());
    for pos in random_positions(3, 2000) {
        assert_eq!(old.evaluate(&pos), new.evaluate(&pos), "{pos}");
    }
}

#[test]
fn version_2_files_round_trip_for_every_set_and_size() {
    for spec in [
        Spec::screlu(256),
        Spec::screlu(1024),
        Spec::king_buckets(256),
        Spec::king_buckets(512),
        Spec::king_buckets(1024),
    ] {
        let file = spec.build(7);
        let bytes = file.to_bytes();
        assert_eq!(version(&bytes), 2);
        assert_eq!(NetFile::parse(&bytes).unwrap(), file);
        let net = Network::from_bytes(&bytes).unwrap();
        assert_eq!(net.features(), spec.features);
        assert_eq!(net.hidden(), spec.hidden);
        assert!(
            net.summary().contains(spec.features.name()),
            "{}",
            net.summary()
        );
    }
}

#[test]
fn an_unknown_version_names_the_versions_supported() {
    for bytes in [NET_6.to_vec(), Spec::king_buckets(256).build(1).to_bytes()] {
        for v in [0u32, 3, 1000] {
            let mut b = bytes.clone();
            b[8..12].copy_from_slice(&v.to_le_bytes());
            let err = Network::from_bytes(&b).unwrap_err();
            assert_eq!(err, LoadError::Format(NetError::UnsupportedVersion(v)));
            assert_eq!(
                err.to_string(),
                format!("net format version {v} but this binary reads versions 1, 2")
            );
        }
    }
}

#[test]
fn a_king_bucket_net_cannot_be_written_or_read_as_version_1() {
    let file = Spec::king_buckets(256).build(2);
    let err = file.to_bytes_v1().unwrap_err();
    assert!(err.to_string().contains("version-1"), "{err}");
    let mut b = file.to_bytes();
    b[8] = 1;
    assert!(matches!(
        Network::from_bytes(&b),
        Err(LoadError::Format(NetError::FeatureSetNeedsVersion2(_)))
    ));
}
