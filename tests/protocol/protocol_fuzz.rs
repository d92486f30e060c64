//! Protocol fuzzing in process: arbitrary bytes (not only UTF-8) and token soup, in both
//! dialects, never end a session or wedge it. After every batch of lines `isready` is answered,
//! and at the end the engine still searches and answers with a move.

use cotuong::protocol::run_with;
use cotuong::protocol::Output;
use proptest::collection::vec;
use proptest::prelude::*;
use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

/// A writer whose bytes the test reads afterwards.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .map_err(|_| std::io::Error::other("poisoned"))?
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs a session on `input` and returns its output lines.
fn session(input: Vec<u8>) -> Vec<String> {
    let captured = Captured::default();
    run_with(Cursor::new(input), Output::new(Box::new(captured.clone())));
    let bytes = captured.0.lock().expect("output").clone();
    String::from_utf8(bytes)
        .expect("the engine writes UTF-8")
        .lines()
        .map(String::from)
        .collect()
}

/// The long fuzz's words (`bench/fuzz/`), in the cotuong-bench crate, which depends on this one.
#[path = "../../bench/src/protocol_words.rs"]
mod protocol_words;

/// Words a test session must not be sent: commands that run for minutes.
const SLOW: &[&str] = &["bench", "perft"];

fn token() -> impl Strategy<Value = Vec<u8>> {
    let words: Vec<&str> = protocol_words::PROTOCOL_WORDS
        .iter()
        .filter(|w| !SLOW.contains(w))
        .copied()
        .collect();
    prop::sample::select(words).prop_map(|t| t.as_bytes().to_vec())
}

/// One input line: raw bytes, token soup, or token soup with raw bytes inside.
fn line() -> impl Strategy<Value = Vec<u8>> {
    let soup = || vec(token(), 0..8).prop_map(|words| words.join(&b' '));
    prop_oneof![
        vec(any::<u8>(), 0..40),
        soup(),
        (soup(), vec(any::<u8>(), 1..6), any::<prop::sample::Index>()).prop_map(
            |(mut text, junk, at)| {
                let i = at.index(text.len() + 1);
                text.splice(i..i, junk);
                text
            }
        ),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_end_or_wedge_a_session(
        ucci in any::<bool>(),
        batches in vec(vec(line(), 1..6), 1..5),
    ) {
        let mut input: Vec<u8> = if ucci { b"ucci\n".to_vec() } else { b"uci\n".to_vec() };
        for batch in &batches {
            for l in batch {
                input.extend_from_slice(l);
                input.push(b'\n');
            }
            input.extend_from_slice(b"isready\n");
        }
        // Whatever the batches left running or set: stop, then a search must still answer
        // (with the only move it may play).
        input.extend_from_slice(
            b"stop\nsetoption name RanksOneToTen value false\nposition startpos\n\
              go depth 1 searchmoves b0c2\nisready\n",
        );
        let out = session(input);
        let readyoks = out.iter().filter(|l| *l == "readyok").count();
        prop_assert_eq!(readyoks, batches.len() + 1, "{:?}", out);
        let last = out.iter().rev().find(|l| l.starts_with("bestmove") || *l == "nobestmove");
        prop_assert!(
            last.is_some_and(|l| l.starts_with("bestmove b0c2")),
            "the last search did not answer: {:?}",
            out
        );
    }
}

#[test]
fn a_session_in_process_answers_like_the_binary() {
    // `quit` stops the search early, but its move is still sent.
    let out = session(b"uci\nposition startpos\ngo depth 3\nisready\nquit\n".to_vec());
    assert!(out.iter().any(|l| l == "uciok"));
    assert!(out.iter().any(|l| l.starts_with("info depth 1 ")));
    assert!(out.iter().any(|l| l.starts_with("bestmove ")));
    assert!(out.iter().any(|l| l == "readyok"));
}
