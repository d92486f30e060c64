//! The module structure of the engine library, read from its source: the imports between its
//! files form layers without loops (protocol above the engine, the engine above the search, the
//! search above the evaluation), and the library never names the trainer's crate.
//! The public faces stay small: the protocol folder declares no public module and re-exports
//! only the names listed here, and engine-core's root declares public only the listed namespace
//! modules, the rest of its items re-exported at the root.
//!
//! Every path that names a module of the crate counts as an import: `use` trees and paths in
//! code alike (`crate::eval::explain(..)`, `super::uci::parse(..)`). Test modules
//! (`#[cfg(test)]`) are left out: they may reach anywhere. Small synthetic libraries, written
//! here as strings, go through the same reader, resolver and checks: one that must pass and one
//! that must be flagged, so that a check that has gone blind shows.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// A module of the library, as its path from the crate root (`["search", "worker"]`).
type ModulePath = Vec<String>;

/// The library's layers, highest first, by the first segment of a module's path. A module may
/// import only modules of its own layer or lower ones.
const LAYERS: &[(&str, &[&str])] = &[
    ("protocol", &["protocol"]),
    (
        "engine",
        &["engine", "options", "strength", "bench", "perft"],
    ),
    ("search", &["search", "game"]),
    ("evaluation", &["eval"]),
];

/// One source file of the library.
struct SourceFile {
    module: ModulePath,
    /// Whether it is a folder's `mod.rs` (its children may import it and it them).
    is_folder_root: bool,
    syntax: syn::File,
    /// Names a folder root re-exports from its children (`pub use worker::THREAD_STACK_BYTES`),
    /// with the child they come from: importing the name through the folder imports the child.
    reexports: BTreeMap<String, String>,
}

/// The names `file` re-exports from a module of its own (`pub use child::{A, B}`), by child.
fn reexports(file: &syn::File) -> BTreeMap<String, String> {
    fn names(tree: &syn::UseTree, out: &mut Vec<String>) {
        match tree {
            syn::UseTree::Path(p) => names(&p.tree, out),
            syn::UseTree::Name(n) => out.push(n.ident.to_string()),
            syn::UseTree::Rename(r) => out.push(r.rename.to_string()),
            syn::UseTree::Glob(_) => {}
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| names(t, out)),
        }
    }
    let mut map = BTreeMap::new();
    for item in &file.items {
        if let syn::Item::Use(u) = item {
            if !matches!(u.vis, syn::Visibility::Public(_)) {
                continue;
            }
            if let syn::UseTree::Path(p) = &u.tree {
                let child = p.ident.to_string();
                if matches!(child.as_str(), "crate" | "super" | "self" | "std") {
                    continue;
                }
                let mut exported = Vec::new();
                names(&p.tree, &mut exported);
                for name in exported {
                    map.insert(name, child.clone());
                }
            }
        }
    }
    map
}

/// The library's source files, by module path (the binary's `main.rs` and `tools/` are not part
/// of the library).
fn library_files() -> BTreeMap<ModulePath, SourceFile> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = BTreeMap::new();
    let mut pending: Vec<PathBuf> = vec![src.clone()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable source folder") {
            let path = entry.expect("a folder entry").path();
            let rel = path.strip_prefix(&src).expect("inside src");
            if rel.starts_with("tools") || rel == Path::new("main.rs") {
                continue;
            }
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let mut module: ModulePath = rel
                .with_extension("")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let stem = module.last().cloned().unwrap_or_default();
            let is_folder_root = stem == "mod";
            if is_folder_root || stem == "lib" {
                module.pop();
            }
            let text = std::fs::read_to_string(&path).expect("readable source file");
            let syntax = syn::parse_file(&text)
                .unwrap_or_else(|e| panic!("{}: not valid Rust: {e}", path.display()));
            files.insert(
                module.clone(),
                SourceFile {
                    module,
                    is_folder_root,
                    reexports: reexports(&syntax),
                    syntax,
                },
            );
        }
    }
    files
}

/// Collects the paths a file names, outside its test modules.
#[derive(Default)]
struct PathCollector {
    /// Paths starting with `crate` or `super`, as segments (`use` groups flattened).
    paths: Vec<Vec<String>>,
    /// Whether the file names the trainer's crate.
    names_trainer: bool,
}

impl PathCollector {
    fn add(&mut self, segments: Vec<String>) {
        match segments.first().map(String::as_str) {
            Some("crate" | "super") => self.paths.push(segments),
            Some("nnue_train") => self.names_trainer = true,
            _ => {}
        }
    }

    fn add_use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.add_use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut segments = prefix.clone();
                if n.ident != "self" {
                    segments.push(n.ident.to_string());
                }
                self.add(segments);
            }
            syn::UseTree::Rename(r) => {
                let mut segments = prefix.clone();
                segments.push(r.ident.to_string());
                self.add(segments);
            }
            syn::UseTree::Glob(_) => self.add(prefix.clone()),
            syn::UseTree::Group(g) => {
                for item in &g.items {
                    self.add_use_tree(prefix, item);
                }
            }
        }
    }
}

/// Whether the attributes include `#[cfg(test)]` (or a `cfg(all(test, ...))`).
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && {
            let tokens = a.meta.require_list().map(|l| l.tokens.to_string());
            tokens.is_ok_and(|t| t == "test" || t.starts_with("all (test"))
        }
    })
}

impl<'ast> Visit<'ast> for PathCollector {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_test_only(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_test_only(&f.attrs) {
            syn::visit::visit_item_fn(self, f);
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        if !is_test_only(&u.attrs) {
            self.add_use_tree(&mut Vec::new(), &u.tree);
        }
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        self.add(p.segments.iter().map(|s| s.ident.to_string()).collect());
        syn::visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        // Macro bodies are tokens: read the `crate::a::b` and `$crate::a::b` paths in them.
        let tokens: Vec<String> = m
            .tokens
            .clone()
            .into_iter()
            .map(|t| t.to_string())
            .collect();
        for (i, t) in tokens.iter().enumerate() {
            if t == "crate" || t == "super" {
                let mut segments = vec![t.clone()];
                let mut j = i + 1;
                while tokens.get(j).is_some_and(|c| c == ":")
                    && tokens.get(j + 1).is_some_and(|c| c == ":")
                {
                    match tokens.get(j + 2) {
                        Some(name) => segments.push(name.clone()),
                        None => break,
                    }
                    j += 3;
                }
                self.add(segments);
            }
        }
        syn::visit::visit_macro(self, m);
    }
}

/// The module a path names: its longest prefix that is a file of the library, resolved from the
/// file `from` (`crate::` from the root, `super::` from the parent module).
fn resolve(
    from: &SourceFile,
    path: &[String],
    files: &BTreeMap<ModulePath, SourceFile>,
) -> Option<ModulePath> {
    let mut base: ModulePath = Vec::new();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => rest = &path[1..],
        Some("super") => {
            base = from.module.clone();
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    let mut full = base;
    full.extend(rest.iter().cloned());
    let mut found = (0..=full.len())
        .rev()
        .map(|n| full[..n].to_vec())
        .find(|candidate| files.contains_key(candidate))?;
    // A name a folder re-exports from a child is the child's.
    while let Some(child) = full
        .get(found.len())
        .and_then(|name| files[&found].reexports.get(name))
    {
        let mut next = found.clone();
        next.push(child.clone());
        if !files.contains_key(&next) {
            break;
        }
        found = next;
    }
    Some(found)
}

/// The imports between the library's files (file → files it names), without self-imports.
fn imports(files: &BTreeMap<ModulePath, SourceFile>) -> BTreeMap<ModulePath, BTreeSet<ModulePath>> {
    let mut edges = BTreeMap::new();
    for file in files.values() {
        let mut collector = PathCollector::default();
        collector.visit_file(&file.syntax);
        let targets: BTreeSet<ModulePath> = collector
            .paths
            .iter()
            .filter_map(|p| resolve(file, p, files))
            .filter(|t| *t != file.module)
            .collect();
        edges.insert(file.module.clone(), targets);
    }
    edges
}

/// Whether the import `from → to` is one between a folder's `mod.rs` and one of its own
/// children, which may import each other.
fn within_folder(
    from: &ModulePath,
    to: &ModulePath,
    files: &BTreeMap<ModulePath, SourceFile>,
) -> bool {
    let parent_of = |child: &ModulePath, parent: &ModulePath| {
        child.len() == parent.len() + 1
            && child.starts_with(parent)
            && files.get(parent).is_some_and(|f| f.is_folder_root)
    };
    parent_of(from, to) || parent_of(to, from)
}

/// Strongly connected components of more than one file (Tarjan).
fn loops(edges: &BTreeMap<ModulePath, BTreeSet<ModulePath>>) -> Vec<Vec<ModulePath>> {
    struct State<'a> {
        edges: &'a BTreeMap<ModulePath, BTreeSet<ModulePath>>,
        index: BTreeMap<ModulePath, usize>,
        low: BTreeMap<ModulePath, usize>,
        stack: Vec<ModulePath>,
        on_stack: BTreeSet<ModulePath>,
        next: usize,
        components: Vec<Vec<ModulePath>>,
    }
    fn connect(s: &mut State, v: &ModulePath) {
        s.index.insert(v.clone(), s.next);
        s.low.insert(v.clone(), s.next);
        s.next += 1;
        s.stack.push(v.clone());
        s.on_stack.insert(v.clone());
        let successors: Vec<ModulePath> = s
            .edges
            .get(v)
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default();
        for w in successors {
            if !s.index.contains_key(&w) {
                connect(s, &w);
                let low = s.low[v].min(s.low[&w]);
                s.low.insert(v.clone(), low);
            } else if s.on_stack.contains(&w) {
                let low = s.low[v].min(s.index[&w]);
                s.low.insert(v.clone(), low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(&w);
                let done = w == *v;
                component.push(w);
                if done {
                    break;
                }
            }
            if component.len() > 1 {
                s.components.push(component);
            }
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        components: Vec::new(),
    };
    for v in edges.keys() {
        if !state.index.contains_key(v) {
            connect(&mut state, v);
        }
    }
    state.components
}

/// The layer of a module (0 = highest), `None` for the crate root.
fn layer(module: &ModulePath) -> Option<usize> {
    let first = module.first()?;
    let found = LAYERS
        .iter()
        .position(|(_, members)| members.contains(&first.as_str()));
    Some(found.unwrap_or_else(|| panic!("module {first} belongs to no layer of LAYERS")))
}

fn show(module: &ModulePath) -> String {
    if module.is_empty() {
        "lib".into()
    } else {
        module.join("::")
    }
}

/// The imports of `edges` that go up the layers, described.
fn upward_imports(edges: &BTreeMap<ModulePath, BTreeSet<ModulePath>>) -> Vec<String> {
    let mut upward = Vec::new();
    for (from, targets) in edges {
        for to in targets {
            if let (Some(a), Some(b)) = (layer(from), layer(to)) {
                if b < a {
                    upward.push(format!(
                        "{} ({}) imports {} ({})",
                        show(from),
                        LAYERS[a].0,
                        show(to),
                        LAYERS[b].0
                    ));
                }
            }
        }
    }
    upward
}

/// The import loops of `edges`, leaving out those within a folder (its `mod.rs` and children).
fn loops_across_folders(
    edges: &BTreeMap<ModulePath, BTreeSet<ModulePath>>,
    files: &BTreeMap<ModulePath, SourceFile>,
) -> Vec<Vec<ModulePath>> {
    let across: BTreeMap<ModulePath, BTreeSet<ModulePath>> = edges
        .iter()
        .map(|(from, targets)| {
            let kept = targets
                .iter()
                .filter(|to| !within_folder(from, to, files))
                .cloned()
                .collect();
            (from.clone(), kept)
        })
        .collect();
    loops(&across)
}

#[test]
fn the_library_imports_form_layers_without_loops() {
    let files = library_files();
    assert!(files.len() > 40, "found only {} source files", files.len());
    let edges = imports(&files);
    assert!(
        edges[&vec!["engine".to_string()]].contains(&vec!["search".to_string()]),
        "the engine's imports of the search are seen"
    );
    let upward = upward_imports(&edges);
    assert!(
        upward.is_empty(),
        "imports up the layers:\n{}",
        upward.join("\n")
    );
    let found = loops_across_folders(&edges, &files);
    assert!(
        found.is_empty(),
        "import loops:\n{}",
        found
            .iter()
            .map(|c| c.iter().map(show).collect::<Vec<_>>().join(" <-> "))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_library_never_names_the_trainer() {
    let files = library_files();
    let naming: Vec<String> = files
        .values()
        .filter(|f| {
            let mut collector = PathCollector::default();
            collector.visit_file(&f.syntax);
            collector.names_trainer
        })
        .map(|f| show(&f.module))
        .collect();
    assert!(
        naming.is_empty(),
        "library files naming nnue_train: {naming:?}"
    );
}

#[test]
fn the_checks_see_loops_and_upward_imports() {
    // A loop between two root files and an upward import, as the checks above would meet them.
    let a: ModulePath = vec!["options".into()];
    let b: ModulePath = vec!["strength".into()];
    let edges = BTreeMap::from([
        (a.clone(), BTreeSet::from([b.clone()])),
        (b.clone(), BTreeSet::from([a.clone()])),
    ]);
    assert_eq!(loops(&edges).len(), 1);
    assert!(layer(&vec!["search".into()]) > layer(&vec!["engine".into()]));
}

/// A library made of `(module path, is a folder's mod.rs, source)`, as `library_files` reads one
/// from disk.
fn synthetic_library(sources: &[(&str, bool, &str)]) -> BTreeMap<ModulePath, SourceFile> {
    sources
        .iter()
        .map(|&(path, is_folder_root, text)| {
            let module: ModulePath = path
                .split("::")
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            let syntax = syn::parse_file(text).unwrap_or_else(|e| panic!("{path}: {e}"));
            let file = SourceFile {
                module: module.clone(),
                is_folder_root,
                reexports: reexports(&syntax),
                syntax,
            };
            (module, file)
        })
        .collect()
}

fn module(path: &str) -> ModulePath {
    path.split("::").map(String::from).collect()
}

/// The search folder of the synthetic libraries: a `mod.rs` re-exporting its worker's type.
const SEARCH_ROOT: (&str, bool, &str) = ("search", true, "mod worker; pub use worker::Searcher;");
const EVAL: (&str, bool, &str) = ("eval", false, "pub fn explain() {}");

#[test]
fn a_synthetic_library_down_the_layers_passes_with_its_imports_resolved() {
    let files = synthetic_library(&[
        ("", false, "pub mod engine; pub mod eval; pub mod search;"),
        (
            "engine",
            false,
            "use crate::search::Searcher;\n\
             pub fn explain() { crate::eval::explain(); }",
        ),
        SEARCH_ROOT,
        (
            "search::worker",
            false,
            "use super::super::eval;\n\
             pub struct Searcher;\n\
             #[cfg(test)]\n\
             mod tests { use crate::engine::explain; }",
        ),
        EVAL,
    ]);
    let edges = imports(&files);
    // A re-exported name is its child's; `super::super` climbs from the file's module; a test
    // module's imports do not count.
    assert_eq!(
        edges[&module("engine")],
        BTreeSet::from([module("search::worker"), module("eval")])
    );
    assert_eq!(
        edges[&module("search::worker")],
        BTreeSet::from([module("eval")])
    );
    assert_eq!(upward_imports(&edges), Vec::<String>::new());
    assert!(loops_across_folders(&edges, &files).is_empty());
}

#[test]
fn a_synthetic_upward_import_and_loop_are_flagged() {
    let files = synthetic_library(&[
        ("", false, "pub mod engine; pub mod eval; pub mod search;"),
        ("engine", false, "use crate::search::Searcher;"),
        SEARCH_ROOT,
        (
            "search::worker",
            false,
            "pub struct Searcher;\n\
             pub fn f() { crate::engine::run(); }",
        ),
        EVAL,
    ]);
    let edges = imports(&files);
    assert_eq!(
        upward_imports(&edges),
        vec!["search::worker (search) imports engine (engine)".to_string()]
    );
    let found = loops_across_folders(&edges, &files);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        found[0].iter().collect::<BTreeSet<_>>(),
        BTreeSet::from([&module("engine"), &module("search::worker")])
    );
}

/// The modules `file` declares with `pub` visibility (`pub mod x;`), by name.
fn public_modules(file: &syn::File) -> Vec<String> {
    file.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Mod(m) if matches!(m.vis, syn::Visibility::Public(_)) => {
                Some(m.ident.to_string())
            }
            _ => None,
        })
        .collect()
}

/// The names a file re-exports with `pub use`, sorted.
fn public_names(file: &syn::File) -> Vec<String> {
    let mut names: Vec<String> = reexports(file).into_keys().collect();
    names.sort();
    names
}

/// A source file of the workspace, parsed.
fn parse_source(relative: &str) -> syn::File {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: cannot read: {e}", path.display()));
    syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: not valid Rust: {e}", path.display()))
}

/// The modules engine-core's root may declare `pub`: namespaces whose names are too generic or
/// clash with others to be re-exported at the root (`archive::read`, `pgn::Game`).
const ENGINE_CORE_PUBLIC_MODULES: &[&str] = &["archive", "pgn"];

/// What the protocol folder shows the rest of the world besides `run` and `run_with`.
const PROTOCOL_FACE: &[&str] = &["Dialect", "Output", "wdl"];

#[test]
fn the_protocol_folder_keeps_its_modules_private() {
    let files = library_files();
    let public: Vec<String> = files
        .values()
        .filter(|f| f.module.first().is_some_and(|m| m == "protocol"))
        .flat_map(|f| {
            public_modules(&f.syntax)
                .into_iter()
                .map(|m| format!("{}: pub mod {m}", show(&f.module)))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        public.is_empty(),
        "public modules in protocol/ (re-export what is used outside instead):\n{}",
        public.join("\n")
    );
    let root = &files[&vec!["protocol".to_string()]];
    assert_eq!(
        public_names(&root.syntax),
        PROTOCOL_FACE,
        "the names protocol/mod.rs re-exports (change PROTOCOL_FACE on purpose only)"
    );
}

#[test]
fn engine_core_shows_its_modules_only_as_listed_namespaces() {
    let lib = parse_source("engine-core/src/lib.rs");
    let extra: Vec<String> = public_modules(&lib)
        .into_iter()
        .filter(|m| !ENGINE_CORE_PUBLIC_MODULES.contains(&m.as_str()))
        .collect();
    assert!(
        extra.is_empty(),
        "engine-core's lib.rs declares public modules beyond {ENGINE_CORE_PUBLIC_MODULES:?} \
         (re-export their items at the root instead): {extra:?}"
    );
    assert!(
        public_names(&lib).len() > 20,
        "the root's re-exports are read"
    );
}

/// What engine-core's `pgn` namespace shows: the reader's and the writer's items.
const PGN_FACE: &[&str] = &[
    "Game",
    "GameMove",
    "MoveToken",
    "PgnRecord",
    "PgnWriter",
    "Records",
    "read_games",
    "read_movetext",
    "records",
];

#[test]
fn engine_core_pgn_shows_its_items_not_its_modules() {
    let pgn = parse_source("engine-core/src/pgn/mod.rs");
    assert_eq!(
        public_modules(&pgn),
        Vec::<String>::new(),
        "engine-core's pgn/mod.rs declares public modules (re-export their items instead)"
    );
    assert_eq!(
        public_names(&pgn),
        PGN_FACE,
        "the names pgn/mod.rs re-exports (change PGN_FACE on purpose only)"
    );
}

#[test]
fn the_face_checks_see_public_modules() {
    let file: syn::File =
        syn::parse_str("pub mod a; mod b; pub(crate) mod c; pub use b::{X, Y};").expect("Rust");
    assert_eq!(public_modules(&file), ["a"]);
    assert_eq!(public_names(&file), ["X", "Y"]);
}

/// The modules `file` declares with any visibility beyond private (`pub`, `pub(crate)`, ...).
fn visible_modules(file: &syn::File) -> Vec<String> {
    file.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Mod(m) if !matches!(m.vis, syn::Visibility::Inherited) => {
                Some(m.ident.to_string())
            }
            _ => None,
        })
        .collect()
}

/// What `cotuong match`'s folder shows `main.rs` (the tools reach the rest with `pub(crate) use`).
const MATCH_RUNNER_FACE: &[&str] = &["MatchArgs", "run"];

#[test]
fn the_match_runner_groups_its_files_behind_private_modules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tools/match_runner");
    let mut folders = vec![root.clone()];
    for entry in std::fs::read_dir(&root).expect("match_runner folder") {
        let path = entry.expect("folder entry").path();
        if path.is_dir() {
            folders.push(path);
        } else {
            assert_eq!(
                path.file_name().and_then(|n| n.to_str()),
                Some("mod.rs"),
                "match_runner/ holds its files in folders by concern, only mod.rs beside them"
            );
        }
    }
    assert!(folders.len() > 4, "the folders are read: {folders:?}");
    for folder in &folders {
        let relative = folder
            .join("mod.rs")
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .expect("inside the workspace")
            .display()
            .to_string();
        let visible = visible_modules(&parse_source(&relative));
        assert!(
            visible.is_empty(),
            "{relative} declares visible modules {visible:?} (re-export what is used instead)"
        );
    }
    let face = parse_source("src/tools/match_runner/mod.rs");
    assert_eq!(public_names(&face), MATCH_RUNNER_FACE);
}

#[test]
fn the_visibility_check_sees_every_visible_module() {
    let file: syn::File =
        syn::parse_str("pub mod a; mod b; pub(crate) mod c; pub(super) mod d;").expect("Rust");
    assert_eq!(visible_modules(&file), ["a", "c", "d"]);
}
