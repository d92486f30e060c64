//! Bad net files: each gives a clear typed error, never a panic.

use nnue::format::{Architecture, NetError, NetFile};
use nnue::network::{LoadError, SUPPORTED_HIDDEN};
use nnue::random_net::{Rng, Spec};
use nnue::Network;

fn good() -> NetFile {
    Spec::screlu(256).build(1)
}

#[test]
fn random_bytes_and_empty_files_are_rejected() {
    assert_eq!(
        Network::from_bytes(&[]).unwrap_err(),
        LoadError::Format(NetError::Truncated {
            field: "magic",
            needed: 8,
            len: 0
        })
    );
    let mut rng = Rng::new(1);
    for len in [1, 7, 8, 60, 61, 1000, 700_000] {
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        assert!(Network::from_bytes(&bytes).is_err());
        // Random bytes after a valid magic reach the header checks.
        let mut with_magic = b"COTUONGN".to_vec();
        with_magic.extend_from_slice(&bytes);
        let err = Network::from_bytes(&with_magic).unwrap_err();
        assert!(!err.to_string().is_empty());
    }
}

#[test]
fn truncated_files_say_where() {
    let bytes = good().to_bytes();
    for cut in [bytes.len() / 2, bytes.len() - 1] {
        match Network::from_bytes(&bytes[..cut]) {
            Err(LoadError::Format(NetError::Truncated { len, .. })) => assert_eq!(len, cut),
            other => panic!("{other:?}"),
        }
        let msg = Network::from_bytes(&bytes[..cut]).unwrap_err().to_string();
        assert!(msg.contains(&format!("truncated at byte {cut}")), "{msg}");
    }
}

#[test]
fn a_hidden_size_this_binary_does_not_run_is_named() {
    let spec = Spec::screlu(2048);
    let err = Network::from_bytes(&spec.build(1).to_bytes()).unwrap_err();
    assert_eq!(err, LoadError::UnsupportedHidden(2048));
    assert_eq!(
        err.to_string(),
        "hidden size 2048 but this binary supports 256, 512, 1024"
    );
    assert!(!SUPPORTED_HIDDEN.contains(&2048));
    for h in SUPPORTED_HIDDEN {
        assert!(Network::from_bytes(&Spec::screlu(h).build(1).to_bytes()).is_ok());
    }
}

#[test]
fn unknown_architecture_and_feature_ids_are_rejected() {
    let bytes = good().to_bytes();
    let mut b = bytes.clone();
    b[12] = 77;
    assert_eq!(
        Network::from_bytes(&b).unwrap_err(),
        LoadError::Format(NetError::UnknownArchitecture(77))
    );
    let mut b = bytes.clone();
    b[16] = 9;
    assert_eq!(
        Network::from_bytes(&b).unwrap_err(),
        LoadError::Format(NetError::UnknownFeatureSet(9))
    );
    // A valid header of the other architecture with this file's weights: the hash still matches
    // (it covers the weights only), so it loads as a CReLU net. The id is what decides.
    let mut b = bytes;
    b[12] = Architecture::PerspectiveCrelu.id() as u8;
    let net = Network::from_bytes(&b).unwrap();
    assert_eq!(net.architecture(), Architecture::PerspectiveCrelu);
}

#[test]
fn corrupt_weights_fail_the_hash() {
    let mut bytes = good().to_bytes();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    let err = Network::from_bytes(&bytes).unwrap_err();
    assert!(matches!(
        err,
        LoadError::Format(NetError::HashMismatch { .. })
    ));
    assert!(err.to_string().starts_with("hash mismatch"), "{err}");
}

/// A net whose header and hash are valid but whose values this binary cannot run exactly.
fn rebuilt(mut edit: impl FnMut(&mut NetFile)) -> Result<Network, LoadError> {
    let mut file = good();
    edit(&mut file);
    // Through bytes, so the hash is recomputed and the file is well formed.
    Network::from_bytes(&file.to_bytes())
}

#[test]
fn weights_that_could_overflow_are_rejected() {
    let err = rebuilt(|f| f.output_weights[700] = 129).unwrap_err();
    assert_eq!(
        err,
        LoadError::OutputWeightTooLarge {
            bucket: 1,
            index: 700 - 512,
            weight: 129,
            limit: 128
        }
    );
    assert!(rebuilt(|f| f.output_weights[700] = -128).is_ok());

    let err = rebuilt(|f| {
        for i in 0..40 {
            f.feature_weights[i * 256 + 3] = 1100;
        }
    })
    .unwrap_err();
    assert_eq!(
        err,
        LoadError::AccumulatorOverflow {
            unit: 3,
            reach: 32 * 1100 + i64::from(good().feature_biases[3]).abs()
        }
    );
    // 29 · 1100 plus the other weights and the bias stays in range.
    assert!(rebuilt(|f| {
        for i in 0..29 {
            f.feature_weights[i * 256 + 3] = 1100;
        }
    })
    .is_ok());

    let err = rebuilt(|f| f.header.qa = 40_000).unwrap_err();
    assert_eq!(err, LoadError::QaTooLarge(40_000));

    // CReLU with QA so large the i32 lanes could overflow.
    let err = rebuilt(|f| {
        f.header.architecture = Architecture::PerspectiveCrelu;
        f.header.qa = 32_000;
        f.output_weights[0] = i16::MAX;
    })
    .unwrap_err();
    assert!(matches!(err, LoadError::OutputOverflow { .. }), "{err}");
}

#[test]
fn missing_files_and_directories_are_io_errors() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let err = Network::load_file(dir.path()).unwrap_err();
    assert!(matches!(err, LoadError::Io { .. }), "{err}");
    let missing = dir.path().join("cotuong-no-such-net.nnue");
    let err = Network::load_file(&missing).unwrap_err();
    assert!(err.to_string().starts_with("cannot read net file"), "{err}");
}

#[test]
fn a_good_file_loads_and_names_itself() {
    let file = good();
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("good.nnue");
    std::fs::write(&path, file.to_bytes()).unwrap();
    let net = Network::load_file(&path).unwrap();
    assert_eq!(net.hash(), file.weights_hash());
    assert_eq!(net.description(), file.header.description);
    assert_eq!(net.hidden(), 256);
    let summary = net.summary();
    assert!(
        summary.contains(&format!("{:016x}", file.weights_hash())),
        "{summary}"
    );
    assert!(summary.contains("synthetic"), "{summary}");

    // A description of several long lines still gives one short line (it goes into protocol
    // output).
    let mut long = good();
    long.header.description = format!("{}\nsecond line\r\nthird", "x".repeat(300));
    let net = Network::from_bytes(&long.to_bytes()).unwrap();
    let summary = net.summary();
    assert!(!summary.contains(['\n', '\r']), "{summary}");
    assert!(
        summary.len() < 250 && summary.ends_with(" ..."),
        "{summary}"
    );
    assert_eq!(net.description(), long.header.description);
}
