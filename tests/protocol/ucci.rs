//! Complete UCCI 3.0 sessions through the binary, including the spec's ponder hit and ponder
//! miss sequences, `banmoves` and `probe`.

use crate::common;

use common::{best_move, field, last_score_line, legal_in, Engine};
use engine_core::RankBase;
use std::time::Duration;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#[test]
fn handshake_uses_ucci_option_form() {
    let mut e = Engine::start();
    e.send("ucci");
    let lines = e.expect_line("ucciok");
    assert!(lines.iter().any(|l| l.starts_with("id name Cotuong")));
    assert!(lines
        .iter()
        .any(|l| l == "option usemillisec type check default false"));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option hashsize type spin")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option threads type spin")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option newgame type button")));
    assert!(lines
        .iter()
        .filter(|l| l.starts_with("option"))
        .all(|l| !l.contains(" name ")));
    let rest = e.quit();
    assert_eq!(rest, vec!["bye".to_string()]);
}

#[test]
fn spec_ponder_hit_sequence() {
    let mut e = Engine::ucci();
    e.send("setoption usemillisec true");
    e.send("setoption usebook false");
    e.sync();
    e.send(&format!("position fen {START}"));
    let lines = e.go("time 3000 increment 0");
    let best = best_move(&lines);
    let last = lines.last().unwrap().clone();
    let ponder = field(&last, "ponder").expect("a ponder move").to_string();
    let info = last_score_line(&lines);
    assert!(!info.contains(" cp "), "UCCI scores have no cp: {info}");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info time ") && field(l, "nodes").is_some()));

    e.send(&format!("position fen {START} moves {best} {ponder}"));
    e.send("go ponder time 2950 increment 0");
    e.expect_no_bestmove_for(Duration::from_millis(300));
    e.send("ponderhit");
    let lines = e.read_until(|l| l.starts_with("bestmove"), Duration::from_secs(10));
    let mv = best_move(&lines);
    assert!(legal_in(&[&best, &ponder], &mv, RankBase::Zero), "{mv}");
    e.quit();
}

#[test]
fn spec_ponder_miss_sequence() {
    let mut e = Engine::ucci();
    e.send("setoption usemillisec true");
    e.send(&format!("position fen {START} moves b0c2 b9c7"));
    e.send("go ponder time 3000 increment 0");
    std::thread::sleep(Duration::from_millis(150));
    e.send("stop");
    let lines = e.read_until(|l| l.starts_with("bestmove"), Duration::from_secs(5));
    assert!(!best_move(&lines).is_empty());
    // The opponent played something else: a new position and a normal search.
    e.send(&format!("position fen {START} moves b0c2 c6c5"));
    let lines = e.go("time 2950 increment 0");
    let mv = best_move(&lines);
    assert!(legal_in(&["b0c2", "c6c5"], &mv, RankBase::Zero), "{mv}");
    e.quit();
}

#[test]
fn banmoves_excludes_moves_until_the_next_position() {
    let fen = "1r2kab1r/2c1a4/n1c1b1n2/4p2N1/p1p6/1C4P2/P1P1P4/2N1B3C/4A4/1RBAK2R1 w - - 0 1";
    let mut e = Engine::ucci();
    e.send(&format!("position fen {fen} moves h6i4 i9h9 i4h6 h9i9"));
    e.send("banmoves h6i4");
    let lines = e.go("depth 5");
    assert_ne!(best_move(&lines), "h6i4");
    // Ban every move but one: that one must be played (e0f0 would face the black general).
    let bare = "position fen 5k3/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
    e.send(bare);
    e.send("banmoves e0e1");
    let lines = e.go("depth 3");
    assert_eq!(best_move(&lines), "e0d0");
    // Banning every legal move leaves nothing to play.
    e.send(bare);
    e.send("banmoves e0e1 e0d0");
    assert_eq!(e.go("depth 3").last().unwrap(), "nobestmove");
    // A new position clears the ban list.
    e.send(bare);
    assert!(e.go("depth 3").last().unwrap().starts_with("bestmove"));
    e.quit();
}

#[test]
fn probe_returns_the_hash_entry() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    e.send("probe startpos");
    assert_eq!(e.expect_prefix("pophash").last().unwrap(), "pophash");
    let lines = e.go("depth 6");
    let best = best_move(&lines);
    e.send("probe startpos");
    let line = e.expect_prefix("pophash").pop().unwrap();
    assert_eq!(field(&line, "bestmove"), Some(best.as_str()), "{line}");
    assert!(field(&line, "depth").is_some(), "{line}");
    e.send(&format!("probe fen {START} moves h2e2"));
    e.expect_prefix("pophash");
    e.quit();
}

#[test]
fn stop_when_idle_answers_nobestmove() {
    let mut e = Engine::ucci();
    e.send("stop");
    e.expect_line("nobestmove");
    e.quit();
}

#[test]
fn go_depth_zero_gives_an_evaluation_and_nobestmove() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    let lines = e.go("depth 0");
    assert_eq!(lines.last().unwrap(), "nobestmove");
    assert!(lines.iter().any(|l| l.starts_with("info depth 0 score ")));
    e.quit();
}

#[test]
fn draw_offer_is_accepted_in_a_dead_draw_and_lost_positions_are_resigned() {
    let mut e = Engine::ucci();
    // Bare generals plus defenders: nobody can win.
    e.send("position fen 3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1");
    let lines = e.go("draw depth 4");
    assert!(lines.last().unwrap().ends_with(" draw"), "{lines:?}");
    // Red to move is mated in one whatever it does: resign.
    e.send("position fen 3k5/9/9/9/9/9/9/r8/1r7/4K4 w - - 0 1");
    let lines = e.go("depth 10");
    assert!(lines.last().unwrap().ends_with(" resign"), "{lines:?}");
    e.quit();
}

#[test]
fn ucci_accepts_uci_style_setoption() {
    let mut e = Engine::ucci();
    e.send("setoption name hashsize value 4");
    e.send("setoption threads 2");
    assert!(e.sync().is_empty());
    e.send("setoption hashsize 99999999");
    let lines = e.sync();
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with("info string error:"), "{lines:?}");
    e.quit();
}

#[test]
fn moves_with_ranks_one_to_ten_get_a_hint_that_ucci_counts_from_zero() {
    let mut e = Engine::ucci();
    e.send("position startpos moves a4a5 a10a9");
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string error:")
            && lines[0].contains("hint:")
            && lines[0].contains("ranks 0-9"),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn ponderhit_draw_offers_a_draw_to_be_accepted() {
    let mut e = Engine::ucci();
    e.send("setoption usemillisec true");
    e.send("position fen 3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1");
    e.send("go ponder time 1000 increment 0");
    e.expect_no_bestmove_for(Duration::from_millis(200));
    e.send("ponderhit draw");
    let lines = e.read_until(|l| l.starts_with("bestmove"), Duration::from_secs(5));
    assert!(lines.last().unwrap().ends_with(" draw"), "{lines:?}");
    e.quit();
}
