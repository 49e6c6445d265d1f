//! Symbols and ground terms.
//!
//! Symbols are interned case-insensitively (KIF's rule): `Cell`, `CELL` and
//! `cell` are one symbol, printed canonically in lowercase. Ground terms are
//! hash-consed into [`TermId`]s, so equality is an integer compare.

use hashbrown::HashTable;
use rustc_hash::{FxHashMap, FxHasher};
use std::hash::{Hash, Hasher};

/// An interned symbol (relation, function or constant name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

/// Keywords, interned first so they have fixed ids.
pub mod kw {
    use super::Sym;
    pub const ROLE: Sym = Sym(0);
    pub const INIT: Sym = Sym(1);
    pub const TRUE: Sym = Sym(2);
    pub const DOES: Sym = Sym(3);
    pub const NEXT: Sym = Sym(4);
    pub const LEGAL: Sym = Sym(5);
    pub const GOAL: Sym = Sym(6);
    pub const TERMINAL: Sym = Sym(7);
    pub const BASE: Sym = Sym(8);
    pub const INPUT: Sym = Sym(9);
    pub const DISTINCT: Sym = Sym(10);
    pub const NOT: Sym = Sym(11);
    pub const OR: Sym = Sym(12);
    pub const AND: Sym = Sym(13);
    pub const ARROW: Sym = Sym(14);
    pub const NAMES: [&str; 15] = [
        "role", "init", "true", "does", "next", "legal", "goal", "terminal", "base", "input",
        "distinct", "not", "or", "and", "<=",
    ];
    /// The GDL relation keywords (not the logical connectives).
    pub fn is_gdl_keyword(s: Sym) -> bool {
        s.0 <= INPUT.0
    }
    /// GDL-II's percept relation `(sees ?role ?percept)`. The GDL-II names
    /// are not interned at fixed ids, so that GDL-I games keep their symbol
    /// numbering: look them up with [`super::SymbolTable::get`].
    pub const SEES_NAME: &str = "sees";
    /// GDL-II's chance role, whose moves the game master draws uniformly.
    pub const RANDOM_NAME: &str = "random";
}

/// Case-insensitive symbol interner.
#[derive(Clone, Debug)]
pub struct SymbolTable {
    /// Canonical (lowercase) names.
    names: Vec<Box<str>>,
    /// Spelling of the first occurrence, for display.
    spellings: Vec<Box<str>>,
    lookup: FxHashMap<Box<str>, Sym>,
}

impl Default for SymbolTable {
    fn default() -> Self {
        let mut t = SymbolTable {
            names: Vec::new(),
            spellings: Vec::new(),
            lookup: FxHashMap::default(),
        };
        for k in kw::NAMES {
            t.intern(k);
        }
        t
    }
}

impl SymbolTable {
    pub fn new() -> SymbolTable {
        SymbolTable::default()
    }

    pub fn intern(&mut self, text: &str) -> Sym {
        if let Some(&s) = self.lookup.get(text) {
            return s;
        }
        let canonical = text.to_lowercase();
        if let Some(&s) = self.lookup.get(canonical.as_str()) {
            return s;
        }
        let s = Sym(self.names.len() as u32);
        self.names.push(canonical.clone().into());
        self.spellings.push(text.into());
        self.lookup.insert(canonical.into(), s);
        s
    }

    /// Looks a symbol up without interning it.
    pub fn get(&self, text: &str) -> Option<Sym> {
        self.lookup
            .get(text)
            .or_else(|| self.lookup.get(text.to_lowercase().as_str()))
            .copied()
    }

    /// Canonical lowercase name.
    pub fn name(&self, s: Sym) -> &str {
        &self.names[s.0 as usize]
    }

    /// Spelling of the first occurrence.
    pub fn spelling(&self, s: Sym) -> &str {
        &self.spellings[s.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// A hash-consed ground term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TermId(pub u32);

impl TermId {
    /// Marks an unbound variable slot; never a real term.
    pub const NONE: TermId = TermId(u32::MAX);
}

#[derive(Clone, Copy, Debug)]
struct Node {
    functor: Sym,
    /// Arguments are `args[start..start + arity]` of the store's arena.
    start: u32,
    arity: u32,
    depth: u32,
}

/// Interns ground terms: each distinct term gets one [`TermId`].
#[derive(Clone, Debug, Default)]
pub struct TermStore {
    pub symbols: SymbolTable,
    nodes: Vec<Node>,
    args: Vec<TermId>,
    table: HashTable<TermId>,
    /// `constants[sym]` = the id of the constant term `sym`, if interned.
    constants: Vec<TermId>,
}

fn hash_node(functor: Sym, args: &[TermId]) -> u64 {
    let mut h = FxHasher::default();
    functor.hash(&mut h);
    args.hash(&mut h);
    h.finish()
}

impl TermStore {
    pub fn new(symbols: SymbolTable) -> TermStore {
        TermStore {
            symbols,
            ..TermStore::default()
        }
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The constant term for a symbol.
    pub fn constant(&mut self, s: Sym) -> TermId {
        if let Some(&t) = self.constants.get(s.0 as usize) {
            if t != TermId::NONE {
                return t;
            }
        }
        let t = self.app(s, &[]);
        let i = s.0 as usize;
        if self.constants.len() <= i {
            self.constants.resize(i + 1, TermId::NONE);
        }
        self.constants[i] = t;
        t
    }

    /// Interns `functor(args...)`; with no arguments this is the constant.
    pub fn app(&mut self, functor: Sym, args: &[TermId]) -> TermId {
        let hash = hash_node(functor, args);
        let (nodes, store_args) = (&self.nodes, &self.args);
        let eq = |t: &TermId| {
            let n = nodes[t.0 as usize];
            n.functor == functor
                && &store_args[n.start as usize..(n.start + n.arity) as usize] == args
        };
        if let Some(&t) = self.table.find(hash, eq) {
            return t;
        }
        let depth = args
            .iter()
            .map(|a| self.nodes[a.0 as usize].depth + 1)
            .max()
            .unwrap_or(0);
        let id = TermId(self.nodes.len() as u32);
        self.nodes.push(Node {
            functor,
            start: self.args.len() as u32,
            arity: args.len() as u32,
            depth,
        });
        self.args.extend_from_slice(args);
        let (nodes, store_args) = (&self.nodes, &self.args);
        self.table.insert_unique(hash, id, |t| {
            let n = nodes[t.0 as usize];
            hash_node(
                n.functor,
                &store_args[n.start as usize..(n.start + n.arity) as usize],
            )
        });
        id
    }

    /// Finds `functor(args...)` without interning it.
    pub fn find(&self, functor: Sym, args: &[TermId]) -> Option<TermId> {
        let hash = hash_node(functor, args);
        self.table
            .find(hash, |t| {
                let n = self.nodes[t.0 as usize];
                n.functor == functor && self.args_of(*t) == args
            })
            .copied()
    }

    pub fn functor(&self, t: TermId) -> Sym {
        self.nodes[t.0 as usize].functor
    }

    pub fn arity(&self, t: TermId) -> usize {
        self.nodes[t.0 as usize].arity as usize
    }

    pub fn args_of(&self, t: TermId) -> &[TermId] {
        let n = self.nodes[t.0 as usize];
        &self.args[n.start as usize..(n.start + n.arity) as usize]
    }

    /// Nesting depth: 0 for constants.
    pub fn depth(&self, t: TermId) -> usize {
        self.nodes[t.0 as usize].depth as usize
    }

    /// Canonical text: lowercase, `(f a b)`, constants bare.
    pub fn display(&self, t: TermId) -> String {
        let mut out = String::new();
        self.write(t, &mut out);
        out
    }

    pub fn write(&self, t: TermId, out: &mut String) {
        // Explicit stack: terms built during evaluation may be deep.
        enum Item {
            Term(TermId),
            Text(&'static str),
        }
        let mut stack = vec![Item::Term(t)];
        while let Some(item) = stack.pop() {
            match item {
                Item::Text(s) => out.push_str(s),
                Item::Term(t) => {
                    let name = self.symbols.name(self.functor(t));
                    let args = self.args_of(t);
                    if args.is_empty() {
                        out.push_str(name);
                        continue;
                    }
                    out.push('(');
                    out.push_str(name);
                    stack.push(Item::Text(")"));
                    for &a in args.iter().rev() {
                        stack.push(Item::Term(a));
                        stack.push(Item::Text(" "));
                    }
                }
            }
        }
    }

    /// The integer value of a numeric constant (e.g. goal values).
    pub fn as_int(&self, t: TermId) -> Option<i64> {
        if self.arity(t) != 0 {
            return None;
        }
        self.symbols.name(self.functor(t)).parse().ok()
    }
}

/// Copies a ground term between stores (symbols matched by name).
pub fn copy_term(from: &TermStore, t: TermId, to: &mut TermStore) -> TermId {
    let mut out: Vec<TermId> = Vec::new();
    let mut stack: Vec<(TermId, bool)> = vec![(t, false)];
    while let Some((t, done)) = stack.pop() {
        let args = from.args_of(t);
        if done || args.is_empty() {
            let sym = to.symbols.intern(from.symbols.name(from.functor(t)));
            let kids = out.split_off(out.len() - args.len());
            out.push(to.app(sym, &kids));
        } else {
            stack.push((t, true));
            for &a in args.iter().rev() {
                stack.push((a, false));
            }
        }
    }
    out.pop().expect("one term")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_are_case_insensitive_and_keep_first_spelling() {
        let mut t = SymbolTable::new();
        let a = t.intern("Cell");
        assert_eq!(t.intern("CELL"), a);
        assert_eq!(t.intern("cell"), a);
        assert_eq!(t.name(a), "cell");
        assert_eq!(t.spelling(a), "Cell");
        assert_eq!(t.intern("TRUE"), kw::TRUE);
    }

    #[test]
    fn terms_are_hash_consed_and_print_canonically() {
        let mut s = TermStore::new(SymbolTable::new());
        let (cell, one, b) = (
            s.symbols.intern("Cell"),
            s.symbols.intern("1"),
            s.symbols.intern("B"),
        );
        let (one, b) = (s.constant(one), s.constant(b));
        let t1 = s.app(cell, &[one, one, b]);
        let t2 = s.app(cell, &[one, one, b]);
        assert_eq!(t1, t2);
        assert_eq!(s.display(t1), "(cell 1 1 b)");
        assert_eq!(s.depth(t1), 1);
        assert_eq!(s.find(cell, &[one, b]), None);
        // A compound with no arguments is the constant itself.
        let c = s.app(cell, &[]);
        assert_eq!(s.constant(cell), c);
        assert_eq!(s.display(c), "cell");
    }
}
