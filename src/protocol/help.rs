//! What the protocol prompt says to a person: the greeting on a terminal and the answer to
//! `help`, written so that no GUI mistakes them for protocol lines.

use super::dialect::Dialect;

/// Whether to greet: only a person at a terminal (stdin and stderr both a terminal). A GUI
/// talks through pipes, and a log of stderr must not start with a stray line.
pub fn greets(stdin_is_terminal: bool, stderr_is_terminal: bool) -> bool {
    stdin_is_terminal && stderr_is_terminal
}

/// The one greeting line: name, version and commit (when the build knew it), and what to type.
pub fn greeting() -> String {
    let version = env!("CARGO_PKG_VERSION");
    let build = match option_env!("COTUONG_COMMIT") {
        Some(commit) => format!("{version} (commit {commit})"),
        None => version.to_string(),
    };
    format!("cotuong {build}: type uci, ucci or xboard (help lists the commands), or run cotuong --help")
}

/// The help text, one line a string, without any prefix.
const TEXT: &[&str] = &[
    "The first command chooses the protocol:",
    "  uci     UCI (Pikafish conventions): isready, setoption name N value V, ucinewgame,",
    "          position startpos|fen F [moves ...], go, stop, ponderhit, quit",
    "  ucci    UCCI 3.0: isready, setoption N V, position, banmoves, probe, go, stop,",
    "          ponderhit [draw], quit",
    "  xboard  XBoard/WinBoard (CECP v2): protover 2, new, setboard, usermove, go, force,",
    "          level, st, sd, undo, remove, analyze, ping, quit",
    "Extra commands in UCI and UCCI:",
    "  d              the board, its FEN and key, the evaluation in use",
    "  eval           the static evaluation, term by term",
    "  bench [DEPTH]  search the bench positions: node count and speed",
    "  go perft N     count the leaf nodes of the move tree to depth N, by root move",
    "  help           this list",
    "The tools (play, analyze, judge, match, perft, bench, ...): cotuong --help",
];

/// `help` in `dialect` (`None`: before one is chosen): UCI and UCCI as `info string` lines,
/// XBoard as `#` comments, which their GUIs log and ignore; plain lines before a dialect.
pub fn lines(dialect: Option<Dialect>) -> Vec<String> {
    let prefix = match dialect {
        None => "",
        Some(Dialect::Uci | Dialect::Ucci) => "info string ",
        Some(Dialect::Xboard) => "# ",
    };
    TEXT.iter().map(|line| format!("{prefix}{line}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_terminal_on_both_ends_is_greeted() {
        assert!(greets(true, true));
        assert!(!greets(false, true), "a GUI's pipe");
        assert!(!greets(true, false), "stderr to a file or a pipe");
        assert!(!greets(false, false));
    }

    #[test]
    fn the_greeting_names_the_build_and_the_way_in() {
        let g = greeting();
        assert!(g.contains(env!("CARGO_PKG_VERSION")), "{g}");
        if let Some(commit) = option_env!("COTUONG_COMMIT") {
            assert!(g.contains(commit), "{g}");
        }
        assert!(g.contains("type uci, ucci or xboard"), "{g}");
        assert!(g.contains("cotuong --help"), "{g}");
        assert!(!g.contains('\n'));
    }

    #[test]
    fn each_dialect_gets_lines_its_gui_ignores() {
        assert!(lines(Some(Dialect::Uci))
            .iter()
            .all(|l| l.starts_with("info string ")));
        assert!(lines(Some(Dialect::Ucci))
            .iter()
            .all(|l| l.starts_with("info string ")));
        assert!(lines(Some(Dialect::Xboard))
            .iter()
            .all(|l| l.starts_with("# ")));
        assert_eq!(lines(None).len(), TEXT.len());
    }
}
