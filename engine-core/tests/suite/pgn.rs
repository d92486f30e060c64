//! Reading games from PGN text: games in every notation (hand-written and generated), detection
//! of the notation per game, the FEN tag, comments, variations, NAGs, several games per text,
//! and errors that name the game, the ply and the text.

use engine_core::pgn::{read_games, read_movetext, records, Game, PgnErrorKind};
use engine_core::{Move, MoveTextError, Notation, Position, RankBase};

/// The central cannon against the screen horses, 17 plies, in ICCS coordinates.
const ICCS_LINE: &str =
    "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5 h0h6 h7i7 h6g6 i7i8 b0c2 d9e8 c2d4 i8g8 g6f6";

/// The same game, written by hand in each notation as players write it.
const RECORDS: [(Notation, &str); 5] = [
    (
        Notation::Wxf,
        "1. C2=5 H8+7 2. H2+3 R9=8 3. R1=2 H2+3 4. P7+1 P7+1 5. R2+6 C8=9 \
         6. R2=3 C9-1 7. H8+7 A4+5 8. H7+6 C9=7 9. R3=4",
    ),
    (
        Notation::Chinese,
        "1. 炮二平五 马8进7 2. 马二进三 车9平8 3. 车一平二 马2进3 4. 兵七进一 卒7进1 \
         5. 车二进六 炮8平9 6. 车二平三 炮9退1 7. 马八进七 士4进5 8. 马七进六 炮9平7 9. 车三平四",
    ),
    (
        Notation::Vietnamese,
        "1. P2-5 M8.7 2. M2.3 X9-8 3. X1-2 M2.3 4. B7.1 B7.1 5. X2.6 P8-9 \
         6. X2-3 P9/1 7. M8.7 S4.5 8. M7.6 P9-7 9. X3-4",
    ),
    (
        Notation::VietnameseAsian,
        "1. P2=5 M8+7 2. M2+3 X9=8 3. X1=2 M2+3 4. B7+1 B7+1 5. X2+6 P8=9 \
         6. X2=3 P9.1 7. M8+7 S4+5 8. M7+6 P9=7 9. X3=4",
    ),
    (Notation::Iccs(RankBase::Zero), ICCS_LINE),
];

fn iccs_moves() -> Vec<Move> {
    let mut pos = Position::startpos();
    ICCS_LINE
        .split(' ')
        .map(|t| {
            let m = pos.parse_move(t, RankBase::Zero).expect("legal");
            pos.make_move(m);
            m
        })
        .collect()
}

fn one_game(text: &str, notations: &[Notation]) -> Game {
    let games: Vec<Game> = read_games(text, notations)
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(games.len(), 1, "{text}");
    games.into_iter().next().expect("one game")
}

#[test]
fn hand_written_records_in_every_notation_are_detected_and_read() {
    let expected = iccs_moves();
    for (notation, movetext) in RECORDS {
        let text = format!("[Event \"{notation}\"]\n[Result \"*\"]\n\n{movetext} *\n");
        let game = one_game(&text, &Notation::ALL);
        assert_eq!(game.notation, Some(notation), "{notation}");
        assert_eq!(game.move_list(), expected, "{notation}");
        // Forcing the notation reads the same moves; forcing another fails.
        let forced = one_game(&text, &[notation]);
        assert_eq!(forced.move_list(), expected);
    }
    let err = read_games(&format!("{} *", RECORDS[1].1), &[Notation::Wxf])
        .next()
        .expect("a game")
        .unwrap_err();
    assert!(
        matches!(err.kind, PgnErrorKind::BadMove { ply: 1, .. }),
        "{err}"
    );
}

/// Games written by the formatter, in every notation, from random playouts: read back to the
/// same moves (the notation's round trip through whole PGN texts).
#[test]
fn generated_games_in_every_notation_read_back() {
    for seed in 0..20u64 {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for _ in 0..120 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let m = legal[(x % legal.len() as u64) as usize];
            pos.make_move(m);
            moves.push(m);
        }
        for notation in Notation::ALL {
            let texts = notation.format_line(&Position::startpos(), &moves);
            let mut body = String::new();
            for (i, t) in texts.iter().enumerate() {
                if i % 2 == 0 {
                    body.push_str(&format!("{}. ", i / 2 + 1));
                }
                body.push_str(t);
                body.push(' ');
            }
            let text = format!("[Event \"seed {seed}\"]\n\n{body}*\n");
            let game = one_game(&text, &[notation]);
            assert_eq!(game.move_list(), moves, "{notation} seed {seed}");
        }
    }
}

#[test]
fn fen_tag_comments_variations_nags_and_several_games() {
    let text = "\
[Event \"first\"]
[SetUp \"1\"]
[FEN \"3k5/9/c8/9/9/9/9/1R7/9/4K4 w - - 0 1\"]

{Red starts the chase} 1. b2a2 {chariot to the a-file} a7b7 $2 2. a2b2!? (2. a2a1 b7b8) b7a7 1-0

[Event \"second\"]
[Format \"WXF\"]
1. C2=5 H8+7 ; the usual reply
2. H2+3 *

[Event \"third\"]
1. 炮二平五 马８进７ 1/2-1/2
";
    let games: Vec<Game> = read_games(text, &Notation::ALL)
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(games.len(), 3);
    let g = &games[0];
    assert_eq!(g.start.to_fen(), "3k5/9/c8/9/9/9/9/1R7/9/4K4 w - - 0 1");
    assert_eq!(g.tag("event"), Some("first"));
    assert_eq!(g.comments_before, ["Red starts the chase"]);
    assert_eq!(g.moves.len(), 4);
    assert_eq!(g.moves[0].comments, ["chariot to the a-file"]);
    assert_eq!(g.moves[1].nags, [2]);
    assert_eq!(g.moves[2].nags, [5]);
    assert_eq!(g.moves[2].variations, ["2. a2a1 b7b8"]);
    assert_eq!(g.result.as_deref(), Some("1-0"));
    assert_eq!(g.notation, Some(Notation::Iccs(RankBase::Zero)));
    assert_eq!(
        g.end_position().to_fen(),
        "3k5/9/c8/9/9/9/9/1R7/9/4K4 w - - 4 3"
    );
    assert_eq!(games[1].notation, Some(Notation::Wxf));
    assert_eq!(games[1].moves[1].comments, ["the usual reply"]);
    assert_eq!(games[1].moves[2].line, 10);
    assert_eq!(games[2].notation, Some(Notation::Chinese));
    assert_eq!((games[2].number, games[2].line), (3, 12));
}

/// Records in the Law's style, with " - " between the half-moves, sometimes glued to them.
#[test]
fn vietnamese_records_with_separators() {
    let text = "1. P2-5 - M8.7 2.M2.3- X9-8 3. X1-2 -M2.3 4. B7.1-B7.1 *";
    let game = one_game(text, &Notation::ALL);
    assert_eq!(game.notation, Some(Notation::Vietnamese));
    assert_eq!(game.move_list(), iccs_moves()[..8]);
    let texts: Vec<&str> = game.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(
        texts,
        ["P2-5", "M8.7", "M2.3", "X9-8", "X1-2", "M2.3", "B7.1", "B7.1"]
    );
}

#[test]
fn ranks_from_one_are_detected() {
    let game = one_game("1. h3e3 h10g8 2. h1g3 *", &Notation::ALL);
    assert_eq!(game.notation, Some(Notation::Iccs(RankBase::One)));
    assert_eq!(game.move_list(), iccs_moves()[..3]);
}

#[test]
fn a_move_that_cannot_be_read_names_game_ply_line_and_text() {
    let text = "[Event \"ok\"]\n1. h2e2 h9g7 *\n\n[Event \"bad\"]\n1. 炮二平五 马8进7\n2. 马二进三 车9平9 *\n";
    let mut games = read_games(text, &Notation::ALL);
    assert!(games.next().expect("game 1").is_ok());
    let err = games.next().expect("game 2").unwrap_err();
    assert!(games.next().is_none(), "reading stops at the error");
    assert_eq!((err.game, err.line), (2, 6));
    let PgnErrorKind::BadMove {
        ply,
        error,
        notations_tried,
    } = &err.kind
    else {
        panic!("{err:?}");
    };
    assert_eq!((*ply, *notations_tried), (4, Notation::ALL.len()));
    assert_eq!(error.text(), "车9平9");
    assert_eq!(error.notation(), Notation::Chinese);
    assert!(matches!(error, MoveTextError::Illegal { .. }));
    let message = err.to_string();
    assert!(
        message.starts_with("game 2, ply 4 (line 6): '车9平9' is not a legal move here"),
        "{message}"
    );
    assert!(
        message.contains("Chinese notation reads the most"),
        "{message}"
    );
    // With one notation forced there is nothing to compare.
    let err = read_games("1. h2e2 h2e2", &[Notation::Iccs(RankBase::Zero)])
        .next()
        .expect("a game")
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "game 1, ply 2 (line 1): 'h2e2' is not a legal move here (ICCS coordinates)"
    );
}

#[test]
fn ambiguous_and_bad_fen_errors() {
    let text = "[FEN \"3k5/9/9/9/9/6R2/9/9/6R2/4K4 w - - 0 1\"]\n1. R3=4 *";
    let err = read_games(text, &[Notation::Wxf])
        .next()
        .expect("a game")
        .unwrap_err();
    assert!(
        matches!(
            err.kind,
            PgnErrorKind::BadMove {
                error: MoveTextError::Ambiguous { .. },
                ..
            }
        ),
        "{err}"
    );
    let err = read_games("[FEN \"9/9 w\"]\n1. h2e2 *", &Notation::ALL)
        .next()
        .expect("a game")
        .unwrap_err();
    assert!(matches!(err.kind, PgnErrorKind::BadFen { .. }), "{err}");
    assert!(
        err.to_string()
            .starts_with("game 1, line 1: bad FEN tag '9/9 w'"),
        "{err}"
    );
}

#[test]
fn movetext_alone_from_a_given_start() {
    let start = Position::from_fen("3k5/9/c8/9/9/9/9/1R7/9/4K4 w - - 0 1").expect("fen");
    let game = read_movetext(start.clone(), "R8=9 C1=2", &Notation::ALL).expect("reads");
    assert_eq!(game.notation, Some(Notation::Wxf));
    assert_eq!(game.moves.len(), 2);
    let empty = read_movetext(start.clone(), "  ", &Notation::ALL).expect("reads");
    assert!(empty.moves.is_empty());
    assert_eq!(empty.notation, None);
    assert!(read_movetext(start.clone(), "[Event \"x\"] R8=9", &Notation::ALL).is_err());
    assert!(read_movetext(start, "R8=9 * C1=2", &Notation::ALL).is_err());
}

#[test]
fn records_keep_what_was_written() {
    let recs: Vec<_> = records("[White \"许银川\"]\n1. 炮二平五 {好} 马8进7!\n")
        .collect::<Result<_, _>>()
        .expect("parses");
    assert_eq!(recs[0].tag("White"), Some("许银川"));
    assert_eq!(recs[0].moves[0].comments, ["好"]);
    assert_eq!(recs[0].moves[1].nags, [1]);
    assert_eq!(recs[0].result, None);
}

#[test]
fn xboard_and_cutechess_pgn_with_white_black_tags_and_san() {
    let iccs = [
        "h2h9", "i9h9", "g0e2", "b9c7", "b0c2", "c6c5", "a0a1", "h9h8",
    ];
    let xboard = "[Event \"Computer Chess Game\"]\n[White \"MaxQi 4.8G\"]\n[Black \"Sjaak II\"]\n\
                  [Variant \"xiangqi\"]\n\n1. Cxh9 {+0.17/6} Rxh9 2. Ege2 Hc7 3. Hc2 c5 4. Ra1 Rh8 *\n";
    let cutechess = "[White \"sjaak\"]\n[Black \"maxqi\"]\n[Variant \"xiangqi\"]\n\n\
                     1. Cxh10 Rxh10 2. Bge3 Nc8 3. Nc3 c6 4. Ra2 Rh9 *\n";
    for (text, notation) in [
        (xboard, Notation::San(RankBase::Zero)),
        (cutechess, Notation::San(RankBase::One)),
    ] {
        let game = one_game(text, &Notation::ALL);
        assert_eq!(game.notation, Some(notation), "{text}");
        let start = Position::startpos();
        let texts = Notation::Iccs(RankBase::Zero).format_line(&start, &game.move_list());
        assert_eq!(texts, iccs, "{text}");
        assert_eq!(
            game.black_player().map(str::len),
            Some(game.tag("Black").unwrap_or("").len())
        );
        assert!(game
            .red_player()
            .is_some_and(|p| p == "MaxQi 4.8G" || p == "sjaak"));
    }
    let red_tag = one_game(
        "[Red \"许银川\"]\n[White \"ignored\"]\n\n1. h2e2 *\n",
        &Notation::ALL,
    );
    assert_eq!(red_tag.red_player(), Some("许银川"), "[Red] comes first");
}
