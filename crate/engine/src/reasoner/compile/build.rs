//! Turns the program's rules into [`RuleBodies`]: patterns compiled, `or`
//! expanded into separate bodies, `(true ...)` read from per-functor state
//! tables, with the safety and keyword errors found on the way.

use super::plan::{first_var, order};
use super::{Class, Compiled, Lit, Pat, RuleBodies, Stratum, MAX_EXPANSION};
use crate::deps::RelId;
use crate::diagnostic::{Diagnostic, Span};
use crate::program::{Literal, Program, Rule, Term, VarId};
use crate::terms::{kw, TermId, TermStore};

pub(super) struct Builder<'a> {
    pub(super) store: &'a mut TermStore,
    pub(super) c: &'a mut Compiled,
    pub(super) errors: &'a mut Vec<Diagnostic>,
}

impl Builder<'_> {
    pub(super) fn build(&mut self, program: &Program) {
        for rule in program.rules.iter().filter(|r| r.body.is_empty()) {
            self.fact(rule);
        }
        for comp in self.c.rule_graph.sccs.clone() {
            let idx = self.c.strata.len();
            let recursive = self
                .c
                .rule_graph
                .is_recursive(self.c.rule_graph.scc_of[comp[0]]);
            let mut st = Stratum {
                rules: Vec::new(),
                heads: Vec::new(),
                class: Class::Static,
                recursive,
                demand: false,
            };
            for &node in &comp {
                self.c.stratum_of_node[node] = idx;
                let rule = &program.rules[self.c.rule_graph.rules[node]];
                let rel = self
                    .c
                    .graph
                    .id_of(rule.head.rel, rule.head.arity())
                    .expect("head relation in graph");
                st.class = st.class.max(self.c.class[rel]);
                if !st.heads.contains(&rel) {
                    st.heads.push(rel);
                }
                if let Some(r) = self.rule(rule, rel) {
                    st.rules.push(r);
                }
            }
            self.c.strata.push(st);
        }
        self.check_keywords(program);
    }

    fn fact(&mut self, rule: &Rule) {
        let rel = self
            .c
            .graph
            .id_of(rule.head.rel, rule.head.arity())
            .expect("head relation in graph");
        let head: Vec<Pat> = rule.head.args.iter().map(|t| self.pat(t)).collect();
        if let Some(v) = first_var(&head) {
            self.unsafe_var(rule, v, rule.head.span);
            return;
        }
        let row: Vec<TermId> = head.iter().map(|p| self.ground(p)).collect();
        self.c.facts.push((rel, row.into()));
    }

    /// Expands and safety-checks a rule with a body.
    fn rule(&mut self, rule: &Rule, head_rel: RelId) -> Option<RuleBodies> {
        let head: Vec<Pat> = rule.head.args.iter().map(|t| self.pat(t)).collect();
        let bodies = match self.expand(rule) {
            Ok(b) => b,
            Err(d) => {
                self.errors.push(d);
                return None;
            }
        };
        let num_vars = rule.vars.len();
        for body in &bodies {
            let mut scratch = Vec::new();
            if let Err((v, span)) = order(body, num_vars, &[], None, &|_| 1, self.c, &mut scratch) {
                self.unsafe_var(rule, v, span);
                return None;
            }
            let mut bound = vec![false; num_vars];
            for lit in body {
                if let Lit::Pos { pats, .. } = lit {
                    pats.iter()
                        .for_each(|p| p.for_each_var(&mut |v| bound[v as usize] = true));
                }
            }
            let unbound = first_var(&head).and_then(|_| {
                let mut u = None;
                head.iter().for_each(|p| {
                    p.for_each_var(&mut |v| {
                        if !bound[v as usize] {
                            u.get_or_insert(v);
                        }
                    })
                });
                u
            });
            if let Some(v) = unbound {
                self.unsafe_var(rule, v, rule.head.span);
                return None;
            }
        }
        Some(RuleBodies {
            head_rel,
            head: head.into(),
            bodies,
            num_vars,
        })
    }

    fn check_keywords(&mut self, program: &Program) {
        for rule in &program.rules {
            let head = rule.head.rel;
            if head == kw::TRUE || head == kw::DOES {
                self.errors.push(
                    Diagnostic::error(
                        "GDL040",
                        rule.head.name_span,
                        format!(
                            "`{}` cannot be defined by a fact or rule",
                            self.store.symbols.name(head)
                        ),
                    )
                    .with_hint("`true` and `does` are given by the game state and the moves"),
                );
            }
        }
        if let Some(init) = self.c.graph.id_of(kw::INIT, 1) {
            if !self.c.graph.is_static(init) {
                let span = self.c.graph.rules_of[init]
                    .first()
                    .map(|&r| program.rules[r].span)
                    .unwrap_or_default();
                self.errors.push(
                    Diagnostic::error("GDL041", span, "`init` depends on `true` or `does`")
                        .with_hint("the initial state must not depend on a state or on moves"),
                );
            }
        }
    }

    fn unsafe_var(&mut self, rule: &Rule, v: VarId, span: Span) {
        let name = rule.vars.get(v as usize).cloned().unwrap_or_default();
        let mut at = span;
        rule.head.for_each_var(&mut |w, s| {
            if w == v {
                at = s;
            }
        });
        for l in &rule.body {
            l.for_each_var(&mut |w, s| {
                if w == v && at == span {
                    at = s;
                }
            });
        }
        self.errors.push(
            Diagnostic::error(
                "GDL020",
                at,
                format!("unsafe rule: variable `?{name}` is not bound by a positive literal"),
            )
            .with_hint(format!(
                "add a positive literal to the body that mentions `?{name}`"
            )),
        );
    }

    fn ground(&mut self, p: &Pat) -> TermId {
        match p {
            Pat::Const(t) => *t,
            Pat::Var(_) => unreachable!("ground patterns have no variables"),
            Pat::App(f, args) => {
                let args: Vec<TermId> = args.iter().map(|a| self.ground(a)).collect();
                self.store.app(*f, &args)
            }
        }
    }

    fn pat(&mut self, t: &Term) -> Pat {
        match t {
            Term::Var(v, _) => Pat::Var(*v),
            Term::Const(s, _) => Pat::Const(self.store.constant(*s)),
            Term::App { functor, args, .. } => {
                let args: Vec<Pat> = args.iter().map(|a| self.pat(a)).collect();
                if args.iter().all(|a| matches!(a, Pat::Const(_))) {
                    let ids: Vec<TermId> = args
                        .iter()
                        .map(|a| {
                            if let Pat::Const(t) = a {
                                *t
                            } else {
                                unreachable!()
                            }
                        })
                        .collect();
                    Pat::Const(self.store.app(*functor, &ids))
                } else {
                    Pat::App(*functor, args.into())
                }
            }
        }
    }

    // Diagnostic (with its fixes) is the load-time error type; these run
    // once per rule while compiling, not on a hot path.
    #[allow(clippy::result_large_err)]
    fn expand(&mut self, rule: &Rule) -> Result<Vec<Vec<Lit>>, Diagnostic> {
        let mut bodies: Vec<Vec<Lit>> = vec![Vec::new()];
        for lit in &rule.body {
            let alts = self.alternatives(lit)?;
            if alts.len() == 1 {
                for b in &mut bodies {
                    b.extend(alts[0].iter().cloned());
                }
                continue;
            }
            if bodies.len() * alts.len() > MAX_EXPANSION {
                return Err(Diagnostic::error(
                    "GDL050",
                    rule.span,
                    "this rule's `or`s expand into too many alternatives",
                )
                .with_hint("split the rule into several rules or define helper relations"));
            }
            bodies = bodies
                .iter()
                .flat_map(|b| {
                    alts.iter()
                        .map(move |a| b.iter().chain(a.iter()).cloned().collect())
                })
                .collect();
        }
        Ok(bodies)
    }

    // Diagnostic (with its fixes) is the load-time error type; these run
    // once per rule while compiling, not on a hot path.
    #[allow(clippy::result_large_err)]
    fn alternatives(&mut self, lit: &Literal) -> Result<Vec<Vec<Lit>>, Diagnostic> {
        match lit {
            Literal::Pos(a) => Ok(vec![vec![self.atom_lit(a, false)]]),
            Literal::Not(inner, span) => match &**inner {
                Literal::Pos(a) => Ok(vec![vec![self.atom_lit(a, true)]]),
                _ => Err(Diagnostic::error("GDL031", *span, "`not` must wrap a single sentence")
                    .with_hint("negate an atom such as `(not (p ?x))`; for `(not (distinct ?x ?y))` write the equality by reusing one variable")),
            },
            Literal::Distinct(a, b, span) => Ok(vec![vec![Lit::Distinct(self.pat(a), self.pat(b), *span)]]),
            Literal::Or(ds, span) => {
                let mut out = Vec::new();
                for d in ds {
                    let mut conj: Vec<Vec<Lit>> = vec![Vec::new()];
                    for l in d {
                        let alts = self.alternatives(l)?;
                        conj = conj
                            .iter()
                            .flat_map(|c| alts.iter().map(move |a| c.iter().chain(a.iter()).cloned().collect()))
                            .collect();
                        if conj.len() > MAX_EXPANSION {
                            return Err(Diagnostic::error("GDL050", *span, "this `or` expands into too many alternatives"));
                        }
                    }
                    out.extend(conj);
                }
                Ok(out)
            }
        }
    }

    fn atom_lit(&mut self, a: &crate::program::Atom, negated: bool) -> Lit {
        let (rel, pats) = if a.rel == kw::TRUE && a.args.len() == 1 {
            self.true_access(&a.args[0])
        } else {
            let rel = self
                .c
                .graph
                .id_of(a.rel, a.args.len())
                .expect("every literal relation is in the graph");
            (rel, a.args.iter().map(|t| self.pat(t)).collect())
        };
        if negated {
            Lit::Neg {
                rel,
                pats,
                span: a.span,
            }
        } else {
            Lit::Pos {
                rel,
                pats,
                span: a.span,
            }
        }
    }

    fn true_access(&mut self, t: &Term) -> (RelId, Vec<Pat>) {
        let (key, pats) = match t {
            Term::Const(s, _) => ((*s, 0), Vec::new()),
            Term::App { functor, args, .. } => (
                (*functor, args.len() as u32),
                args.iter().map(|a| self.pat(a)).collect(),
            ),
            Term::Var(..) => {
                let rel = match self.c.true_all {
                    Some(r) => r,
                    None => {
                        let r = self.new_state_table(1);
                        self.c.true_all = Some(r);
                        r
                    }
                };
                return (rel, vec![self.pat(t)]);
            }
        };
        let rel = match self.c.true_tables.get(&key) {
            Some(&r) => r,
            None => {
                let r = self.new_state_table(key.1 as usize);
                self.c.true_tables.insert(key, r);
                r
            }
        };
        (rel, pats)
    }

    fn new_state_table(&mut self, arity: usize) -> RelId {
        self.c.class.push(Class::State);
        self.c.demand.push(false);
        self.c.arity.push(arity);
        self.c.class.len() - 1
    }
}
