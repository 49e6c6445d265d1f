//! The workspace's layers hold: each crate depends only on the crates below
//! it (`docs/ARCHITECTURE.md`), and inside each crate data flows one way,
//! so no module uses, directly or through others, a module that uses it;
//! nor does any top-level module, counted with everything under it.
//!
//! How edges are counted: every file of a crate's `src` is a module
//! (`a/mod.rs` and `a.rs` are `a`, `a/b.rs` is `a::b`; `lib.rs` is the
//! root and `main.rs`, the binary, and the `tests.rs` unit-test files are
//! left out). Each path that starts with `crate::`, `super::` or `self::`
//! in the file's code (in `use` items, with their `{…}` groups expanded,
//! and in qualified paths; comments and `#[cfg(test)] mod … { … }` blocks
//! do not count) is an edge to the deepest module the path names; a path
//! through one of the root's `pub use` re-exports is an edge to the module
//! re-exported. Between modules, an edge between a module and one of its
//! ancestors or descendants is not counted: a parent declares and
//! re-exports its children, so the two are one unit. Between top-level
//! modules every edge counts, from a module or any module under it to
//! another top-level module or any module under that.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;
type Graph = BTreeMap<Module, BTreeSet<Module>>;

/// The library crates from the bottom up: each may depend on those before it.
const LAYERS: [&[&str]; 6] = [
    &["gdlkit-lang"],
    &["gdlkit-engine"],
    &["gdlkit-play"],
    &["gdlkit-ggp"],
    &["gdlkit", "gdlkit-cli"],
    &["gdlkit-wasm"],
];

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Each crate's `[dependencies]` (and target-specific ones) on crates of
/// the workspace are on a lower layer.
#[test]
fn crates_depend_only_on_lower_layers() {
    let layer = |name: &str| LAYERS.iter().position(|l| l.contains(&name));
    let mut checked = 0;
    for entry in std::fs::read_dir(crates_dir()).expect("read crate/") {
        let manifest = entry.expect("dir entry").path().join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        let name = package_name(&text);
        let own = layer(&name).unwrap_or_else(|| panic!("{name} is on no layer of LAYERS"));
        for dep in workspace_dependencies(&text) {
            let theirs = layer(&dep).unwrap_or_else(|| panic!("{dep} is on no layer"));
            assert!(
                theirs < own,
                "{name} depends on {dep}, which is not below it"
            );
        }
        checked += 1;
    }
    assert!(checked >= 7, "only {checked} crates read");
}

fn package_name(manifest: &str) -> String {
    let line = manifest
        .lines()
        .find(|l| l.starts_with("name = "))
        .expect("a package name");
    line["name = ".len()..].trim_matches('"').to_string()
}

/// The workspace crates named in the dependency tables that are not for
/// development (tests may use the crates above, as the CLI's outputs).
fn workspace_dependencies(manifest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_deps = false;
    for line in manifest.lines() {
        if line.starts_with('[') {
            in_deps = line.ends_with("dependencies]") && !line.contains("dev-dependencies");
            continue;
        }
        let name = line.split(['=', ' ', '.']).next().unwrap_or("");
        if in_deps && name.starts_with("gdlkit") {
            out.push(name.to_string());
        }
    }
    out
}

#[test]
fn no_crate_has_a_module_cycle() {
    let mut modules_read = 0;
    let mut edges_read = 0;
    let mut found = Vec::new();
    for entry in std::fs::read_dir(crates_dir()).expect("read crate/") {
        let src = entry.expect("dir entry").path().join("src");
        if !src.join("lib.rs").exists() {
            continue;
        }
        let modules = read_modules(&src, &src);
        modules_read += modules.len();
        let (graph, edges) = module_graph(&modules);
        edges_read += edges;
        let krate = src.parent().unwrap().file_name().unwrap();
        let krate = krate.to_string_lossy();
        for (what, g) in [
            ("module", graph.clone()),
            ("top-level module", top_level(&graph)),
        ] {
            for cycle in cycles(&g) {
                found.push(format!("{krate}: {what} cycle {}", show_cycle(&cycle)));
            }
        }
    }
    assert!(modules_read >= 140, "only {modules_read} modules read");
    assert!(
        edges_read >= 200,
        "only {edges_read} edges found: the reader is broken"
    );
    assert!(
        found.is_empty(),
        "{} cycle(s):\n{}",
        found.len(),
        found.join("\n")
    );
}

/// The edges between a crate's modules, and how many there are.
fn module_graph(modules: &BTreeMap<Module, String>) -> (Graph, usize) {
    let names: BTreeSet<Module> = modules.keys().cloned().collect();
    let aliases = (modules.get(&Vec::new()))
        .map(|root| reexports(root, &names))
        .unwrap_or_default();
    let mut graph = Graph::new();
    let mut edges = 0;
    for (module, code) in modules {
        let targets = graph.entry(module.clone()).or_default();
        for path in paths_in(&strip(code), module) {
            let target = deepest_module(&through_reexport(path, &aliases), &names);
            if !is_prefix(&target, module) && !is_prefix(module, &target) {
                edges += usize::from(targets.insert(target));
            }
        }
    }
    (graph, edges)
}

/// The root's `pub use module::…::Name` items: `Name` → the module's path.
fn reexports(root: &str, names: &BTreeSet<Module>) -> BTreeMap<String, Module> {
    let mut out = BTreeMap::new();
    for item in strip(root).split("pub use ").skip(1) {
        let mut paths = Vec::new();
        use_tree(item, &mut Vec::new(), &mut paths);
        for path in paths {
            let target = deepest_module(&path, names);
            if !target.is_empty() {
                out.insert(path.last().unwrap().clone(), target);
            }
        }
    }
    out
}

/// A path to an item the root re-exports (`[Name, …]` after `crate::`),
/// as a path into the module that defines it.
fn through_reexport(path: Module, aliases: &BTreeMap<String, Module>) -> Module {
    match path.first().and_then(|name| aliases.get(name)) {
        Some(target) => target.clone(),
        None => path,
    }
}

/// The graph between top-level modules: every edge from a module or one
/// under it to another top-level module or one under that.
fn top_level(graph: &Graph) -> Graph {
    let mut out = Graph::new();
    for (from, targets) in graph {
        let Some(a) = from.first() else { continue };
        for b in targets.iter().filter_map(|to| to.first()) {
            if b != a {
                out.entry(vec![a.clone()])
                    .or_default()
                    .insert(vec![b.clone()]);
            }
        }
    }
    out
}

/// The checker itself: it finds a two-module cycle and a three-module one
/// through `super::` and grouped `use` items.
#[test]
fn the_checker_finds_cycles() {
    let names: BTreeSet<Module> = ["a", "a::b", "a::c", "d"]
        .iter()
        .map(|m| module(m))
        .collect();
    let code: [(&str, &str); 4] = [
        ("a", "pub mod b; pub mod c; use crate::d::X;"),
        ("a::b", "use super::{c::Y, Z}; // crate::d::W"),
        ("a::c", "fn f() { crate::d::g() }"),
        ("d", "use crate::a::b::{self as bb};"),
    ];
    let mut graph = Graph::new();
    for (name, text) in code {
        let m = module(name);
        let targets = graph.entry(m.clone()).or_default();
        for path in paths_in(&strip(text), &m) {
            let target = deepest_module(&path, &names);
            if !is_prefix(&target, &m) && !is_prefix(&m, &target) {
                targets.insert(target);
            }
        }
    }
    let found: Vec<String> = cycles(&graph).iter().map(show_cycle).collect();
    assert_eq!(found, ["a::b → a::c → d → a::b"]);
}

fn module(name: &str) -> Module {
    name.split("::").map(str::to_string).collect()
}

/// Every module file under `dir`, by module path, with its text.
fn read_modules(root: &Path, dir: &Path) -> BTreeMap<Module, String> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("read a crate's src") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            out.extend(read_modules(root, &path));
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let rel = path.strip_prefix(root).unwrap().with_extension("");
        let mut parts: Module = rel
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        match parts.last().map(String::as_str) {
            Some("main") if parts.len() == 1 => continue,
            Some("tests") => continue,
            Some("lib") if parts.len() == 1 => parts.clear(),
            Some("mod") => {
                parts.pop();
            }
            _ => {}
        }
        out.insert(parts, std::fs::read_to_string(&path).expect("read module"));
    }
    out
}

/// The code without comments, string contents and `#[cfg(test)] mod` blocks.
fn strip(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &code[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |e| e + 2);
        } else if rest.starts_with('"') {
            i += string_end(rest);
            out.push_str("\"\"");
        } else if rest.starts_with("#[cfg(test)]") && is_test_mod(&rest[12..]) {
            i += 12 + block_end(&rest[12..]);
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

fn string_end(s: &str) -> usize {
    let mut escaped = false;
    for (i, c) in s.char_indices().skip(1) {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return i + 1,
            _ => escaped = false,
        }
    }
    s.len()
}

fn is_test_mod(s: &str) -> bool {
    let s = s.trim_start();
    s.starts_with("mod ") && s.find('{').is_some_and(|b| !s[..b].contains(';'))
}

/// The end of the first `{ … }` block in `s` (braces in strings are rare
/// enough in test modules to ignore).
fn block_end(s: &str) -> usize {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    s.len()
}

/// Every module path named in `code`, absolute (from the crate root).
fn paths_in(code: &str, module: &Module) -> Vec<Module> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    for (i, _) in code.char_indices() {
        let before = if i == 0 { b' ' } else { bytes[i - 1] };
        if before.is_ascii_alphanumeric() || before == b'_' || before == b'$' || before == b':' {
            continue;
        }
        let rest = &code[i..];
        let base: Module = if rest.starts_with("crate::") {
            Vec::new()
        } else if rest.starts_with("super::") || rest.starts_with("self::") {
            module.clone()
        } else {
            continue;
        };
        let mut tails = Vec::new();
        use_tree(rest, &mut Vec::new(), &mut tails);
        for tail in tails {
            out.push(resolve(&base, &tail));
        }
    }
    out
}

/// Reads a path or `use` tree at the start of `s` into `out`, each path a
/// list of segments (`crate`, `super` and `self` kept for `resolve`).
fn use_tree(s: &str, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let mut i = 0;
    let start_len = prefix.len();
    loop {
        let rest = s[i..].trim_start();
        i = s.len() - rest.len();
        if rest.starts_with('{') {
            i += 1;
            loop {
                let rest = s[i..].trim_start();
                i = s.len() - rest.len();
                if rest.starts_with('}') || rest.is_empty() {
                    i += 1;
                    break;
                }
                if rest.starts_with(',') {
                    i += 1;
                    continue;
                }
                let used = use_tree(&s[i..], prefix, out);
                if used == 0 {
                    i += 1;
                }
                i += used;
            }
            prefix.truncate(start_len);
            return i;
        }
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if len == 0 {
            break;
        }
        prefix.push(rest[..len].to_string());
        i += len;
        if s[i..].starts_with("::") {
            i += 2;
        } else {
            break;
        }
    }
    if prefix.len() > start_len {
        out.push(prefix.clone());
    }
    prefix.truncate(start_len);
    i
}

fn resolve(base: &Module, tail: &[String]) -> Module {
    let mut path = base.clone();
    for segment in tail {
        match segment.as_str() {
            "crate" => path.clear(),
            "self" => {}
            "super" => {
                path.pop();
            }
            s => path.push(s.to_string()),
        }
    }
    path
}

fn deepest_module(path: &Module, names: &BTreeSet<Module>) -> Module {
    (0..=path.len())
        .rev()
        .map(|k| path[..k].to_vec())
        .find(|m| names.contains(m))
        .unwrap_or_default()
}

fn is_prefix(a: &Module, b: &Module) -> bool {
    b.len() >= a.len() && b[..a.len()] == a[..]
}

/// For each strongly connected component of more than one module, the
/// shortest cycle through its first module and then the component's other
/// modules, if any (each on some cycle through the first).
fn cycles(graph: &Graph) -> Vec<(Vec<Module>, Vec<Module>)> {
    let mut found = Vec::new();
    let mut seen = BTreeSet::new();
    for start in graph.keys() {
        if seen.contains(start) {
            continue;
        }
        let forward = reachable(graph, start);
        let component: BTreeSet<Module> = forward
            .iter()
            .filter(|m| reachable(graph, m).contains(start))
            .cloned()
            .collect();
        seen.extend(component.iter().cloned());
        if component.len() > 1 {
            let cycle = shortest_cycle(graph, start, &component);
            let rest = component
                .into_iter()
                .filter(|m| !cycle.contains(m))
                .collect();
            found.push((cycle, rest));
        }
    }
    found
}

fn reachable(graph: &Graph, start: &Module) -> BTreeSet<Module> {
    let mut out = BTreeSet::from([start.clone()]);
    let mut stack = vec![start.clone()];
    while let Some(m) = stack.pop() {
        for next in graph.get(&m).into_iter().flatten() {
            if out.insert(next.clone()) {
                stack.push(next.clone());
            }
        }
    }
    out
}

fn shortest_cycle(graph: &Graph, start: &Module, component: &BTreeSet<Module>) -> Vec<Module> {
    let mut parent: BTreeMap<Module, Module> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start.clone()]);
    while let Some(m) = queue.pop_front() {
        for next in graph.get(&m).into_iter().flatten() {
            if next == start {
                let mut cycle = vec![m.clone()];
                while let Some(p) = parent.get(cycle.last().unwrap()) {
                    cycle.push(p.clone());
                }
                cycle.reverse();
                return cycle;
            }
            if component.contains(next) && !parent.contains_key(next) {
                parent.insert(next.clone(), m.clone());
                queue.push_back(next.clone());
            }
        }
    }
    vec![start.clone()]
}

fn show_cycle((cycle, rest): &(Vec<Module>, Vec<Module>)) -> String {
    let mut names: Vec<String> = cycle.iter().map(|m| m.join("::")).collect();
    names.push(names[0].clone());
    let others: Vec<String> = rest.iter().map(|m| m.join("::")).collect();
    match others.is_empty() {
        true => names.join(" → "),
        false => format!(
            "{} (and through it: {})",
            names.join(" → "),
            others.join(", ")
        ),
    }
}
