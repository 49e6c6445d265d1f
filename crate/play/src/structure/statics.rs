//! Static structures (lecture 004, "Statische Strukturen"): successor and
//! order relations checked on the evaluated static relations (semantics,
//! not names), and the domains of arguments from the dependency graph of
//! argument positions ("Abhängigkeitsgraph").

use crate::deps::DepGraph;
use crate::program::{Atom, Literal, Program, Term, VarId};
use crate::reasoner::{Interpreter, Limits, StateMachine};
use crate::terms::copy_term;
use crate::terms::{kw, Sym, TermId, TermStore};
use rustc_hash::{FxHashMap, FxHashSet};

/// Rows of a static relation beyond which it is not examined.
const MAX_ROWS: usize = 20_000;
/// Values per argument position beyond which a domain counts as unbounded.
pub const MAX_DOMAIN: usize = 2_000;

/// A successor relation: binary, functional, injective, acyclic, one path.
#[derive(Clone, Debug)]
pub struct Successor {
    pub relation: Sym,
    pub chain: Vec<TermId>,
}

/// An order relation (antisymmetric, transitive) whose pairs follow a chain.
#[derive(Clone, Debug)]
pub struct Order {
    pub relation: Sym,
    /// Index into the successors.
    pub successor: usize,
    /// `(less 1 2)`: smaller first; `false` for `(greater 2 1)`.
    pub ascending: bool,
    /// Holds for equal elements (`leq`).
    pub reflexive: bool,
}

/// The static binary relations that are successors or orders, in the order
/// of the relations in the rules. Terms are interned into `store`.
pub fn successors_and_orders(
    program: &Program,
    store: &mut TermStore,
) -> (Vec<Successor>, Vec<Order>) {
    let mut succs: Vec<Successor> = Vec::new();
    let mut orders = Vec::new();
    let limits = Limits {
        max_static_rows: 200_000,
        ..Limits::default()
    };
    let Ok(mut ri) = Interpreter::with_limits(program, limits) else {
        return (succs, orders);
    };
    let graph: DepGraph = ri.compiled().graph.clone();
    let mut binaries = Vec::new();
    for (r, key) in graph.rels.iter().enumerate() {
        if key.arity != 2 || kw::is_gdl_keyword(key.sym) || !graph.is_static(r) {
            continue;
        }
        let Ok(rows) = ri.static_rows(r) else {
            continue;
        };
        if rows.len() > MAX_ROWS || rows.is_empty() {
            continue;
        }
        let rows: Vec<(TermId, TermId)> = rows
            .iter()
            .map(|row| {
                (
                    copy_term(ri.terms(), row[0], store),
                    copy_term(ri.terms(), row[1], store),
                )
            })
            .collect();
        if let Some(chain) = successor_chain(&rows) {
            succs.push(Successor {
                relation: key.sym,
                chain,
            });
            continue;
        }
        binaries.push((key.sym, rows));
    }
    for (sym, rows) in binaries {
        if let Some(o) = order(sym, &rows, &succs) {
            orders.push(o);
        }
    }
    (succs, orders)
}

/// The elements of a successor chain in order, if the pairs form one path
/// of at least three elements: functional, injective, acyclic, connected.
pub fn successor_chain(rows: &[(TermId, TermId)]) -> Option<Vec<TermId>> {
    if rows.len() < 2 {
        return None;
    }
    let mut next: FxHashMap<TermId, TermId> = FxHashMap::default();
    let mut has_pred: FxHashSet<TermId> = FxHashSet::default();
    for &(a, b) in rows {
        if a == b || next.insert(a, b).is_some() || !has_pred.insert(b) {
            return None;
        }
    }
    let starts: Vec<TermId> = next
        .keys()
        .copied()
        .filter(|a| !has_pred.contains(a))
        .collect();
    let [start] = starts.as_slice() else {
        return None;
    };
    let mut out = vec![*start];
    let mut cur = *start;
    while let Some(&n) = next.get(&cur) {
        if out.len() > rows.len() {
            return None;
        }
        out.push(n);
        cur = n;
    }
    (out.len() == rows.len() + 1).then_some(out)
}

/// `rows` as an order relation based on one of the successors: antisymmetric,
/// transitive, every pair in one direction of the chain, and containing the
/// chain's steps among its elements (so it is that chain's order, not an
/// unrelated relation on the same values).
fn order(sym: Sym, rows: &[(TermId, TermId)], succs: &[Successor]) -> Option<Order> {
    let set: FxHashSet<(TermId, TermId)> = rows.iter().copied().collect();
    let reflexive = rows.iter().any(|(a, b)| a == b);
    for &(a, b) in rows {
        if a != b && set.contains(&(b, a)) {
            return None; // not antisymmetric
        }
    }
    let mut after: FxHashMap<TermId, Vec<TermId>> = FxHashMap::default();
    for &(a, b) in rows {
        after.entry(a).or_default().push(b);
    }
    for &(a, b) in rows {
        for &c in after.get(&b).map_or(&[][..], |v| v) {
            if !set.contains(&(a, c)) {
                return None; // not transitive
            }
        }
    }
    for (i, s) in succs.iter().enumerate() {
        let pos: FxHashMap<TermId, usize> =
            s.chain.iter().enumerate().map(|(k, &t)| (t, k)).collect();
        let places: Option<Vec<(usize, usize)>> = rows
            .iter()
            .map(|(a, b)| Some((*pos.get(a)?, *pos.get(b)?)))
            .collect();
        let Some(places) = places else { continue };
        for ascending in [true, false] {
            let fits = places.iter().all(|&(p, q)| p == q || (p < q) == ascending);
            let steps = s.chain.windows(2).filter(|w| {
                let (a, b) = if ascending {
                    (w[0], w[1])
                } else {
                    (w[1], w[0])
                };
                set.contains(&(a, b))
            });
            if fits && steps.count() >= 2 {
                return Some(Order {
                    relation: sym,
                    successor: i,
                    ascending,
                    reflexive,
                });
            }
        }
    }
    None
}

/// An argument position: of a relation, of a fluent (inside `init`, `true`,
/// `next`), or of a move (inside `legal`, `does`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    pub space: Space,
    pub sym: Sym,
    pub arity: u32,
    pub arg: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Space {
    Relation,
    Fluent,
    Move,
}

/// The domains of argument positions: a superset of the values each can
/// take. A head argument can take the values of every body argument with
/// the same variable (intersected over the positive body literals), to a
/// fixpoint. `None` marks a domain larger than [`MAX_DOMAIN`].
pub struct Domains {
    pub of: FxHashMap<Position, Option<FxHashSet<TermId>>>,
}

impl Domains {
    pub fn get(&self, p: &Position) -> Option<&FxHashSet<TermId>> {
        self.of.get(p).and_then(Option::as_ref)
    }
}

/// The positions of an atom's arguments, with their terms.
fn positions<'a>(a: &'a Atom) -> Vec<(Position, &'a Term)> {
    let space = match a.rel {
        kw::INIT | kw::TRUE | kw::NEXT => Some((Space::Fluent, 0)),
        kw::LEGAL | kw::DOES => Some((Space::Move, 1)),
        _ => None,
    };
    let flat = |space: Space, sym: Sym, args: &'a [Term]| {
        args.iter()
            .enumerate()
            .map(move |(i, t)| {
                (
                    Position {
                        space,
                        sym,
                        arity: args.len() as u32,
                        arg: i as u32,
                    },
                    t,
                )
            })
            .collect::<Vec<_>>()
    };
    match space {
        Some((space, k)) => match a.args.get(k) {
            Some(Term::App { functor, args, .. }) => flat(space, *functor, args),
            _ => Vec::new(),
        },
        None => flat(Space::Relation, a.rel, &a.args),
    }
}

/// Computes the argument domains of the program (terms interned into
/// `store`), bounded by [`MAX_DOMAIN`] per position and 200 passes.
pub fn domains(program: &Program, store: &mut TermStore) -> Domains {
    let mut of: FxHashMap<Position, Option<FxHashSet<TermId>>> = FxHashMap::default();
    for _pass in 0..200 {
        let mut changed = false;
        for rule in &program.rules {
            let mut body: FxHashMap<VarId, Vec<Position>> = FxHashMap::default();
            for lit in &rule.body {
                if let Literal::Pos(a) = lit {
                    for (p, t) in positions(a) {
                        if let Term::Var(v, _) = t {
                            body.entry(*v).or_default().push(p);
                        }
                    }
                }
            }
            for (p, t) in positions(&rule.head) {
                let values: Option<Vec<TermId>> = match t {
                    // A variable bound only where positions are not
                    // tracked (inside `or`, nested terms): unbounded.
                    Term::Var(v, _) => body.get(v).and_then(|ps| intersect(&of, ps)),
                    t if t.is_ground() => Some(vec![ground(program, t, store)]),
                    _ => continue,
                };
                changed |= add(&mut of, p, values);
            }
        }
        if !changed {
            break;
        }
    }
    Domains { of }
}

fn add(
    of: &mut FxHashMap<Position, Option<FxHashSet<TermId>>>,
    p: Position,
    values: Option<Vec<TermId>>,
) -> bool {
    let entry = of.entry(p).or_insert_with(|| Some(FxHashSet::default()));
    let Some(set) = entry else { return false };
    let Some(values) = values else {
        *entry = None;
        return true;
    };
    let before = set.len();
    set.extend(values);
    if set.len() > MAX_DOMAIN {
        *entry = None;
        return true;
    }
    set.len() != before
}

/// Values common to the domains of all positions (`None` = unbounded).
fn intersect(
    of: &FxHashMap<Position, Option<FxHashSet<TermId>>>,
    ps: &[Position],
) -> Option<Vec<TermId>> {
    let bounded: Vec<&FxHashSet<TermId>> = ps
        .iter()
        .filter_map(|p| match of.get(p) {
            Some(Some(s)) => Some(s),
            Some(None) => None,
            None => None,
        })
        .collect();
    // A position never given a value yet is empty: nothing flows.
    if ps.iter().any(|p| !of.contains_key(p)) {
        return Some(Vec::new());
    }
    let (first, rest) = bounded.split_first()?;
    Some(
        first
            .iter()
            .copied()
            .filter(|v| rest.iter().all(|s| s.contains(v)))
            .collect(),
    )
}

/// Interns a ground program term (nesting beyond 64 levels is cut off:
/// such a term is no coordinate anyway).
pub fn ground(program: &Program, t: &Term, store: &mut TermStore) -> TermId {
    ground_at(program, t, store, 0)
}

fn ground_at(program: &Program, t: &Term, store: &mut TermStore, depth: usize) -> TermId {
    match t {
        Term::Var(..) => store.constant(kw::ROLE),
        _ if depth > 64 => store.constant(kw::ROLE),
        Term::Const(s, _) => {
            let sym = store.symbols.intern(program.symbols.name(*s));
            store.constant(sym)
        }
        Term::App { functor, args, .. } => {
            let kids: Vec<TermId> = args
                .iter()
                .map(|a| ground_at(program, a, store, depth + 1))
                .collect();
            let sym = store.symbols.intern(program.symbols.name(*functor));
            store.app(sym, &kids)
        }
    }
}

/// The rows (as text) of every static relation with `N` arguments that
/// has at most `max_rows` rows: the relations the shapes and the hex
/// neighbourhoods are looked for in (evaluated by the interpreter).
pub fn static_relations<const N: usize>(
    program: &Program,
    max_rows: usize,
) -> Vec<Vec<[String; N]>> {
    let limits = Limits {
        max_static_rows: 200_000,
        ..Limits::default()
    };
    let Ok(mut ri) = Interpreter::with_limits(program, limits) else {
        return Vec::new();
    };
    let graph = ri.compiled().graph.clone();
    let mut out = Vec::new();
    for (r, key) in graph.rels.iter().enumerate() {
        if key.arity as usize != N || kw::is_gdl_keyword(key.sym) || !graph.is_static(r) {
            continue;
        }
        let Ok(rows) = ri.static_rows(r) else {
            continue;
        };
        if rows.is_empty() || rows.len() > max_rows {
            continue;
        }
        let text = |t| ri.terms().display(t);
        out.push(
            rows.iter()
                .map(|row| std::array::from_fn(|i| text(row[i])))
                .collect(),
        );
    }
    out
}
