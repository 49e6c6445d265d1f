//! The dependency graph of relations, its strongly connected components in
//! evaluation order, and what each relation depends on (state, moves).
//!
//! A relation is identified by name *and* arity: `(p a)` and `(p a b)` are
//! different relations (the validator warns about such reuse).

use crate::diagnostic::Span;
use crate::program::{Literal, Program};
use crate::terms::{kw, Sym};
use rustc_hash::FxHashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RelKey {
    pub sym: Sym,
    pub arity: u32,
}

pub type RelId = usize;

/// `head` depends on `body` through the literal at `span` of rule `rule`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    pub head: RelId,
    pub body: RelId,
    pub negative: bool,
    pub rule: usize,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct DepGraph {
    pub rels: Vec<RelKey>,
    index: FxHashMap<RelKey, RelId>,
    /// Outgoing edges of each relation (to the relations its rules use).
    pub edges: Vec<Vec<Edge>>,
    /// Strongly connected components, dependencies before dependents.
    pub sccs: Vec<Vec<RelId>>,
    pub scc_of: Vec<usize>,
    /// Rules (indices into `Program::rules`) defining each relation.
    pub rules_of: Vec<Vec<usize>>,
    /// Transitively depends on `true`.
    pub uses_true: Vec<bool>,
    /// Transitively depends on `does`.
    pub uses_does: Vec<bool>,
}

impl DepGraph {
    pub fn build(program: &Program) -> DepGraph {
        let mut g = DepGraph::default();
        for (ri, rule) in program.rules.iter().enumerate() {
            let head = g.intern(RelKey {
                sym: rule.head.rel,
                arity: rule.head.arity() as u32,
            });
            g.rules_of[head].push(ri);
            for lit in &rule.body {
                g.add_literal(head, ri, lit, false);
            }
        }
        g.compute_sccs();
        g.compute_uses();
        g
    }

    pub fn id(&self, key: RelKey) -> Option<RelId> {
        self.index.get(&key).copied()
    }

    pub fn id_of(&self, sym: Sym, arity: usize) -> Option<RelId> {
        self.id(RelKey {
            sym,
            arity: arity as u32,
        })
    }

    fn intern(&mut self, key: RelKey) -> RelId {
        if let Some(&id) = self.index.get(&key) {
            return id;
        }
        let id = self.rels.len();
        self.rels.push(key);
        self.index.insert(key, id);
        self.edges.push(Vec::new());
        self.rules_of.push(Vec::new());
        id
    }

    fn add_literal(&mut self, head: RelId, rule: usize, lit: &Literal, negative: bool) {
        match lit {
            Literal::Pos(a) => {
                let body = self.intern(RelKey {
                    sym: a.rel,
                    arity: a.arity() as u32,
                });
                self.edges[head].push(Edge {
                    head,
                    body,
                    negative,
                    rule,
                    span: a.span,
                });
            }
            Literal::Not(inner, _) => self.add_literal(head, rule, inner, true),
            Literal::Distinct(..) => {}
            Literal::Or(ds, _) => {
                for l in ds.iter().flatten() {
                    self.add_literal(head, rule, l, negative);
                }
            }
        }
    }

    fn compute_sccs(&mut self) {
        let succ: Vec<Vec<usize>> = self
            .edges
            .iter()
            .map(|es| es.iter().map(|e| e.body).collect())
            .collect();
        let (sccs, scc_of) = tarjan(&succ);
        self.sccs = sccs;
        self.scc_of = scc_of;
    }

    fn compute_uses(&mut self) {
        let n = self.rels.len();
        self.uses_true = vec![false; n];
        self.uses_does = vec![false; n];
        // Components come dependencies-first, so one pass per component with
        // a fixpoint inside handles recursion.
        for comp in self.sccs.clone() {
            let (mut t, mut d) = (false, false);
            for &r in &comp {
                let key = self.rels[r];
                t |= key.sym == kw::TRUE;
                d |= key.sym == kw::DOES;
                for e in &self.edges[r] {
                    t |= self.uses_true[e.body];
                    d |= self.uses_does[e.body];
                }
            }
            for &r in &comp {
                self.uses_true[r] = t;
                self.uses_does[r] = d;
            }
        }
    }

    /// A relation whose rules recurse (through a cycle or a self-edge).
    pub fn is_recursive(&self, r: RelId) -> bool {
        self.sccs[self.scc_of[r]].len() > 1 || self.edges[r].iter().any(|e| e.body == r)
    }

    /// Static: does not depend on the state or the moves.
    pub fn is_static(&self, r: RelId) -> bool {
        !self.uses_true[r] && !self.uses_does[r]
    }

    /// Edges inside one component that go through negation: each makes the
    /// program unstratifiable.
    pub fn negative_cycle_edges(&self) -> Vec<Edge> {
        let mut out = Vec::new();
        for r in 0..self.rels.len() {
            for e in &self.edges[r] {
                if e.negative && self.scc_of[e.body] == self.scc_of[r] {
                    out.push(*e);
                }
            }
        }
        out
    }

    /// A shortest path of edges from `from` to `to` (breadth-first), used to
    /// name a cycle such as `p -> not q -> p`.
    pub fn path(&self, from: RelId, to: RelId) -> Option<Vec<Edge>> {
        let mut prev: Vec<Option<Edge>> = vec![None; self.rels.len()];
        let mut seen = vec![false; self.rels.len()];
        let mut queue = std::collections::VecDeque::from([from]);
        seen[from] = true;
        while let Some(v) = queue.pop_front() {
            if v == to {
                let mut path = Vec::new();
                let mut cur = to;
                while cur != from {
                    let e = prev[cur].expect("path edge");
                    path.push(e);
                    cur = e.head;
                }
                path.reverse();
                return Some(path);
            }
            for e in &self.edges[v] {
                if !seen[e.body] {
                    seen[e.body] = true;
                    prev[e.body] = Some(*e);
                    queue.push_back(e.body);
                }
            }
        }
        None
    }

    /// Every relation `roots` depend on (including themselves).
    pub fn closure(&self, roots: &[RelId]) -> Vec<bool> {
        let mut seen = vec![false; self.rels.len()];
        let mut stack: Vec<RelId> = roots.to_vec();
        while let Some(r) = stack.pop() {
            if std::mem::replace(&mut seen[r], true) {
                continue;
            }
            stack.extend(self.edges[r].iter().map(|e| e.body));
        }
        seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::parse_program;

    fn graph(src: &str) -> (Program, DepGraph) {
        let p = parse_program(src);
        let g = DepGraph::build(&p);
        (p, g)
    }

    #[test]
    fn components_come_dependencies_first() {
        let (p, g) = graph(
            "(<= (a ?x) (b ?x)) (<= (b ?x) (c ?x)) (<= (b ?x) (a ?x)) (c 1) (<= d (not (a 1)))",
        );
        let id = |n: &str, k| g.id_of(p.symbols.get(n).unwrap(), k).unwrap();
        let (a, b, c, d) = (id("a", 1), id("b", 1), id("c", 1), id("d", 0));
        assert_eq!(g.scc_of[a], g.scc_of[b]);
        assert!(g.scc_of[c] < g.scc_of[a] && g.scc_of[a] < g.scc_of[d]);
        assert!(g.is_recursive(a) && !g.is_recursive(c));
        assert!(g.negative_cycle_edges().is_empty());
    }

    #[test]
    fn finds_negative_cycles_and_state_dependence() {
        let (p, g) = graph("(<= p (not q)) (<= q p) (<= (next x) (does r m)) (<= s (true x))");
        let edges = g.negative_cycle_edges();
        assert_eq!(edges.len(), 1);
        let q = g.id_of(p.symbols.get("q").unwrap(), 0).unwrap();
        let pp = g.id_of(p.symbols.get("p").unwrap(), 0).unwrap();
        assert_eq!(g.path(q, pp).unwrap().len(), 1);
        let next = g.id_of(kw::NEXT, 1).unwrap();
        let s = g.id_of(p.symbols.get("s").unwrap(), 0).unwrap();
        assert!(g.uses_does[next] && !g.uses_true[next]);
        assert!(g.uses_true[s] && !g.is_static(s));
        assert!(g.is_static(q));
    }
}

/// Rule `from` uses, through the literal at `span`, a relation rule `to`
/// defines, and the literal unifies with that rule's head.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleEdge {
    pub from: usize,
    pub to: usize,
    pub negative: bool,
    pub span: Span,
}

/// The dependency graph between rules (facts excluded: they depend on
/// nothing). Finer than the relation graph: `(<= (goal ?r 0) (not (goal ?r
/// 100)))` does not depend on itself because `(goal ?r 100)` does not unify
/// with `(goal ?r 0)`. Stratification at this level is what tabled Prolog
/// and the GGP reference reasoners accept.
#[derive(Clone, Debug, Default)]
pub struct RuleGraph {
    /// Indices of the non-fact rules (nodes).
    pub rules: Vec<usize>,
    /// Outgoing edges per node (indexed like `rules`); `to` is a node index.
    pub edges: Vec<Vec<RuleEdge>>,
    /// Components of nodes, dependencies first.
    pub sccs: Vec<Vec<usize>>,
    pub scc_of: Vec<usize>,
}

impl RuleGraph {
    pub fn build(program: &Program, graph: &DepGraph) -> RuleGraph {
        let rules: Vec<usize> = (0..program.rules.len())
            .filter(|&r| !program.rules[r].body.is_empty())
            .collect();
        let mut node_of = vec![usize::MAX; program.rules.len()];
        for (i, &r) in rules.iter().enumerate() {
            node_of[r] = i;
        }
        let mut edges = vec![Vec::new(); rules.len()];
        for (i, &r) in rules.iter().enumerate() {
            let mut lits = Vec::new();
            for l in &program.rules[r].body {
                collect_atoms(l, false, &mut lits);
            }
            for (atom, negative) in lits {
                let Some(rel) = graph.id_of(atom.rel, atom.arity()) else {
                    continue;
                };
                for &d in &graph.rules_of[rel] {
                    let head = &program.rules[d].head;
                    if node_of[d] != usize::MAX && unifiable(&atom.args, &head.args) {
                        edges[i].push(RuleEdge {
                            from: i,
                            to: node_of[d],
                            negative,
                            span: atom.span,
                        });
                    }
                }
            }
        }
        let succ: Vec<Vec<usize>> = edges
            .iter()
            .map(|es| es.iter().map(|e| e.to).collect())
            .collect();
        let (sccs, scc_of) = tarjan(&succ);
        RuleGraph {
            rules,
            edges,
            sccs,
            scc_of,
        }
    }

    /// Edges through negation inside one component: each breaks stratification.
    pub fn negative_cycle_edges(&self) -> Vec<RuleEdge> {
        self.edges
            .iter()
            .flatten()
            .filter(|e| e.negative && self.scc_of[e.from] == self.scc_of[e.to])
            .copied()
            .collect()
    }

    pub fn is_recursive(&self, scc: usize) -> bool {
        let comp = &self.sccs[scc];
        comp.len() > 1 || self.edges[comp[0]].iter().any(|e| e.to == comp[0])
    }
}

fn collect_atoms<'a>(
    l: &'a Literal,
    negative: bool,
    out: &mut Vec<(&'a crate::program::Atom, bool)>,
) {
    match l {
        Literal::Pos(a) => out.push((a, negative)),
        Literal::Not(inner, _) => collect_atoms(inner, true, out),
        Literal::Distinct(..) => {}
        Literal::Or(ds, _) => ds
            .iter()
            .flatten()
            .for_each(|x| collect_atoms(x, negative, out)),
    }
}

/// Whether two argument lists unify, with the variables of each side kept
/// apart (no occurs check: a spurious edge is only more conservative).
pub fn unifiable(a: &[crate::program::Term], b: &[crate::program::Term]) -> bool {
    let mut subst: FxHashMap<(u8, u16), (u8, &crate::program::Term)> = FxHashMap::default();
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| unify((0, x), (1, y), &mut subst, 0))
}

type Side<'a> = (u8, &'a crate::program::Term);

fn walk<'a>(mut t: Side<'a>, subst: &FxHashMap<(u8, u16), Side<'a>>) -> Side<'a> {
    use crate::program::Term;
    while let (side, Term::Var(v, _)) = t {
        match subst.get(&(side, *v)) {
            Some(&next) => t = next,
            None => break,
        }
    }
    t
}

fn unify<'a>(
    x: Side<'a>,
    y: Side<'a>,
    subst: &mut FxHashMap<(u8, u16), Side<'a>>,
    depth: usize,
) -> bool {
    use crate::program::Term;
    if depth > 256 {
        return true;
    }
    let (x, y) = (walk(x, subst), walk(y, subst));
    match (x.1, y.1) {
        (Term::Var(a, _), Term::Var(b, _)) if x.0 == y.0 && a == b => true,
        (Term::Var(a, _), _) => {
            subst.insert((x.0, *a), y);
            true
        }
        (_, Term::Var(b, _)) => {
            subst.insert((y.0, *b), x);
            true
        }
        (Term::Const(a, _), Term::Const(b, _)) => a == b,
        (Term::Const(a, _), Term::App { functor, args, .. })
        | (Term::App { functor, args, .. }, Term::Const(a, _)) => args.is_empty() && functor == a,
        (
            Term::App {
                functor: f,
                args: xs,
                ..
            },
            Term::App {
                functor: g,
                args: ys,
                ..
            },
        ) => {
            f == g
                && xs.len() == ys.len()
                && xs
                    .iter()
                    .zip(ys)
                    .all(|(a, b)| unify((x.0, a), (y.0, b), subst, depth + 1))
        }
    }
}

/// Strongly connected components of a graph given as successor lists,
/// dependencies (successors) first. Iterative Tarjan.
pub fn tarjan(succ: &[Vec<usize>]) -> (Vec<Vec<usize>>, Vec<usize>) {
    let n = succ.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut sccs = Vec::new();
    let mut scc_of = vec![usize::MAX; n];
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut call = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut ei)) = call.last_mut() {
            if let Some(&w) = succ[v].get(*ei) {
                *ei += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            call.pop();
            if let Some(&(parent, _)) = call.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                loop {
                    let w = stack.pop().expect("tarjan stack");
                    on_stack[w] = false;
                    scc_of[w] = sccs.len();
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                comp.sort_unstable();
                sccs.push(comp);
            }
        }
    }
    (sccs, scc_of)
}

#[cfg(test)]
mod rule_graph_tests {
    use super::*;
    use crate::program::parse_program;

    #[test]
    fn goal_defined_by_negated_other_goal_is_stratified() {
        let p = parse_program(
            "(role r) (<= (goal r 100) (true win)) (<= (goal ?r 0) (role ?r) (not (goal ?r 100)))",
        );
        let g = DepGraph::build(&p);
        assert_eq!(
            g.negative_cycle_edges().len(),
            1,
            "relation level sees a cycle"
        );
        let rg = RuleGraph::build(&p, &g);
        assert!(rg.negative_cycle_edges().is_empty(), "rule level does not");
        // The rule for 0 comes after the rule for 100.
        assert!(rg.scc_of[0] < rg.scc_of[1]);
    }

    #[test]
    fn real_negative_cycle_stays() {
        let p = parse_program("(<= (p ?x) (q ?x) (not (p ?x))) (q 1)");
        let g = DepGraph::build(&p);
        let rg = RuleGraph::build(&p, &g);
        assert_eq!(rg.negative_cycle_edges().len(), 1);
    }

    #[test]
    fn unification_respects_structure() {
        let p =
            parse_program("(<= (a (f ?x ?x)) (b ?x)) (<= (c) (a (f 1 2))) (<= (d) (a (f ?y 2)))");
        let g = DepGraph::build(&p);
        let rg = RuleGraph::build(&p, &g);
        // (a (f 1 2)) does not unify with (a (f ?x ?x)); (a (f ?y 2)) does.
        assert!(rg.edges[1].is_empty());
        assert_eq!(rg.edges[2].len(), 1);
    }
}
