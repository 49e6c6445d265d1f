//! Exclusions: rules like chess's "a threat from any attacker but the piece
//! being captured", `H(X, C) :- P(X, U), S(C, U)`, where the static `S`
//! holds exactly when the tuple `C` differs from the tuple `U`
//! (`different_cells`). Joined as written, every `U` is an instance for
//! every `C`: chess made 4.5M bishop and 5.2M rook instances of it.
//!
//! Rewritten, `P'(X, U) :- P(X, U)` is a rule of its own and
//! `H(X, C) :- P'(X, U), S(C, U)` is evaluated here: in the relaxed
//! fixpoint `H(X, c)` holds once `X` has some `U` other than `c`; as
//! instances, each `X` gets the ORs of its `P'` atoms over every prefix and
//! every suffix of its `U`s, and `H(X, c)` reads the prefix before `c`'s
//! position and the suffix after it (the whole OR when `c` is no `U`).
//! Instances grow with `U`s plus `C`s instead of their product.

use super::instantiate::{AtomId, Grounder};
use super::rules::{pat_vars, GLit, GRule, RuleSet};
use crate::deps::RelId;
use crate::program::VarId;
use crate::reasoner::compile::Pat;
use crate::terms::TermId;
use rustc_hash::{FxHashMap, FxHashSet};

/// Fewer `U`s than this are left to the plain join.
const MIN_US: usize = 8;

/// One rewritten rule: `head_rel(head) :- p_rel(X, U), S(C, U)`.
pub struct Exclusion {
    head_rel: RelId,
    head: Vec<Pat>,
    num_vars: usize,
    /// `P'`: the `X` variables' values, then the `U` variables'.
    p_rel: RelId,
    x_vars: Vec<VarId>,
    c_vars: Vec<VarId>,
    /// The `C` tuples (those of `S`, through the rule's filters on `C`).
    cs: Tuples,
    /// The `U` tuples of `S`: a `P'` row with another `U` excludes nothing.
    us: FxHashSet<Box<[TermId]>>,
    /// The prefix and suffix ORs' relations (arguments as `P'`'s).
    pre_rel: RelId,
    suf_rel: RelId,
    /// Relaxed fixpoint: rows of `P'` read, and per `X` its first `U` and
    /// whether it has another.
    seen: usize,
    groups: FxHashMap<Box<[TermId]>, Group>,
}

/// The exclusion rules of a rule set, by their index in `rs.rules`.
#[derive(Default)]
pub struct Exclusions {
    by_rule: FxHashMap<usize, Exclusion>,
}

impl Exclusions {
    pub fn get_mut(&mut self, rule: usize) -> Option<&mut Exclusion> {
        self.by_rule.get_mut(&rule)
    }

    pub fn len(&self) -> usize {
        self.by_rule.len()
    }
}

/// Rewrites every rule of `rs` of the form above (static relations and
/// filters must be grounded already: `S`'s rows are checked). Rules over
/// `does`, directly or through auxiliaries, are left alone: one move at a time, the network's complement
/// gates (`passes.rs`) serve frame axioms like "a move from another cell"
/// better.
pub fn rewrite(gr: &mut Grounder<'_>, rs: &mut RuleSet, does: Option<RelId>) -> Exclusions {
    let mut out = Exclusions::default();
    let moves = over_does(rs, does);
    for i in 0..rs.rules.len() {
        let reads_does = rs.rules[i].body.iter().any(|l| match l {
            GLit::Pos(r, _) | GLit::Neg(r, _) => moves[*r],
            GLit::Distinct(..) => false,
        });
        if rs.is_static[rs.rules[i].head_rel] || reads_does || rs.at_least.contains_key(&i) {
            continue;
        }
        let found = shapes(gr, &rs.rules[i])
            .into_iter()
            .find_map(|shape| Some((c_tuples(gr, &rs.rules[i], &shape)?, shape)));
        let Some(((cs, us), shape)) = found else {
            continue;
        };
        let rule = rs.rules[i].clone();
        let (p_rule, ex_rule, ex) = split(gr, rs, &rule, shape, cs, us);
        rs.rules[i] = ex_rule;
        rs.rules.push(p_rule);
        rs.aux += 1;
        out.by_rule.insert(i, ex);
    }
    out
}

/// The relations whose rows depend on `does`, also through auxiliaries
/// that rule splitting made.
fn over_does(rs: &RuleSet, does: Option<RelId>) -> Vec<bool> {
    let mut moves = vec![false; rs.arity.len()];
    let Some(does) = does else { return moves };
    moves[does] = true;
    let mut changed = true;
    while changed {
        changed = false;
        for rule in &rs.rules {
            let reads = rule.body.iter().any(|l| match l {
                GLit::Pos(r, _) | GLit::Neg(r, _) => moves[*r],
                GLit::Distinct(..) => false,
            });
            if reads && !moves[rule.head_rel] {
                moves[rule.head_rel] = true;
                changed = true;
            }
        }
    }
    moves
}

/// Where the parts of a matching rule are.
struct Shape {
    /// The literal `S(C, U)`, and its `C` and `U` positions.
    s: usize,
    c_pos: Vec<usize>,
    u_pos: Vec<usize>,
    /// Static filters on `C` variables only.
    c_lits: Vec<usize>,
}

fn vars_of(l: &GLit) -> Vec<VarId> {
    let mut vs = Vec::new();
    l.vars(&mut vs);
    vs
}
/// The rule's shapes as an exclusion, one per candidate `S` (before `S`'s
/// rows are checked).
fn shapes(gr: &Grounder<'_>, rule: &GRule) -> Vec<Shape> {
    let mut out = Vec::new();
    let mut head_vars = Vec::new();
    rule.head.iter().for_each(|p| pat_vars(p, &mut head_vars));
    'lits: for (s, lit) in rule.body.iter().enumerate() {
        let GLit::Pos(r, pats) = lit else { continue };
        if !gr.is_static[*r] || pats.len() < 2 || pats.len() % 2 == 1 {
            continue;
        }
        let mut vars = Vec::new();
        for p in pats {
            match p {
                Pat::Var(v) if !vars.contains(v) => vars.push(*v),
                _ => continue 'lits,
            }
        }
        let (c_pos, u_pos): (Vec<usize>, Vec<usize>) =
            (0..vars.len()).partition(|&k| head_vars.contains(&vars[k]));
        if c_pos.len() != u_pos.len() {
            continue;
        }
        let c_vars: Vec<VarId> = c_pos.iter().map(|&k| vars[k]).collect();
        let u_vars: Vec<VarId> = u_pos.iter().map(|&k| vars[k]).collect();
        let mut c_lits = Vec::new();
        let mut u_bound = vec![false; u_vars.len()];
        let mut dynamic = false;
        for (j, l) in rule.body.iter().enumerate().filter(|&(j, _)| j != s) {
            let vs = vars_of(l);
            if vs.iter().any(|v| c_vars.contains(v)) {
                match l {
                    GLit::Pos(r, _)
                        if gr.is_static[*r] && vs.iter().all(|v| c_vars.contains(v)) =>
                    {
                        c_lits.push(j)
                    }
                    _ => continue 'lits,
                }
                continue;
            }
            if let GLit::Pos(r, _) = l {
                dynamic |= !gr.is_static[*r];
                for (k, u) in u_vars.iter().enumerate() {
                    u_bound[k] |= vs.contains(u);
                }
            }
        }
        // `U` bound without `S`, and something to ground.
        if dynamic && u_bound.iter().all(|&b| b) {
            out.push(Shape {
                s,
                c_pos,
                u_pos,
                c_lits,
            });
        }
    }
    out
}

/// The `C` tuples of `S` that pass the rule's filters, if `S(c, u)` holds
/// exactly when `c ≠ u` (over its `C` and `U` columns) and `S` has enough `U`s.
fn c_tuples(
    gr: &Grounder<'_>,
    rule: &GRule,
    shape: &Shape,
) -> Option<(Tuples, FxHashSet<Box<[TermId]>>)> {
    let GLit::Pos(s, pats) = &rule.body[shape.s] else {
        return None;
    };
    let mut cs: Vec<Box<[TermId]>> = Vec::new();
    let mut count: FxHashMap<Box<[TermId]>, usize> = FxHashMap::default();
    let mut us: FxHashSet<Box<[TermId]>> = FxHashSet::default();
    for &a in &gr.rels[*s].rows {
        let args = gr.atoms.args(a);
        let c: Box<[TermId]> = shape.c_pos.iter().map(|&k| args[k]).collect();
        let u: Box<[TermId]> = shape.u_pos.iter().map(|&k| args[k]).collect();
        if c == u {
            return None;
        }
        us.insert(u);
        let n = count.entry(c.clone()).or_insert(0);
        if *n == 0 {
            cs.push(c);
        }
        *n += 1;
    }
    // Distinct rows, none on the diagonal: as many as `c ≠ u` has means
    // every `u` but `c` for each `c`.
    let exact = cs
        .iter()
        .all(|c| count[c] == us.len() - usize::from(us.contains(c)));
    if !exact || us.len() < MIN_US {
        return None;
    }
    let c_vars: Vec<VarId> = shape
        .c_pos
        .iter()
        .map(|&k| match &pats[k] {
            Pat::Var(v) => *v,
            _ => unreachable!("S's arguments are variables"),
        })
        .collect();
    let mut env = vec![TermId::NONE; rule.num_vars];
    cs.retain(|c| {
        for (v, &t) in c_vars.iter().zip(c.iter()) {
            env[*v as usize] = t;
        }
        shape.c_lits.iter().all(|&j| match &rule.body[j] {
            GLit::Pos(r, ps) => gr.holds(*r, ps, &env),
            _ => false,
        })
    });
    Some((cs, us))
}

type Tuples = Vec<Box<[TermId]>>;
/// An `X`'s first `U`, and whether it has another.
type Group = (Box<[TermId]>, bool);

/// `P'(X, U) :- P` and the exclusion evaluating the rest of `rule`.
fn split(
    gr: &mut Grounder<'_>,
    rs: &mut RuleSet,
    rule: &GRule,
    shape: Shape,
    cs: Tuples,
    us: FxHashSet<Box<[TermId]>>,
) -> (GRule, GRule, Exclusion) {
    let GLit::Pos(_, s_pats) = &rule.body[shape.s] else {
        unreachable!("S is positive")
    };
    let var = |k: usize| match &s_pats[k] {
        Pat::Var(v) => *v,
        _ => unreachable!("S's arguments are variables"),
    };
    let c_vars: Vec<VarId> = shape.c_pos.iter().map(|&k| var(k)).collect();
    let u_vars: Vec<VarId> = shape.u_pos.iter().map(|&k| var(k)).collect();
    let mut x_vars = Vec::new();
    rule.head.iter().for_each(|p| pat_vars(p, &mut x_vars));
    x_vars.retain(|v| !c_vars.contains(v));
    let p_head: Vec<Pat> = x_vars.iter().chain(&u_vars).map(|&v| Pat::Var(v)).collect();
    let mut new_rel = || {
        let r = rs.arity.len();
        rs.arity.push(p_head.len());
        rs.is_static.push(false);
        gr.push_relation(p_head.len(), false);
        r
    };
    let (p_rel, pre_rel, suf_rel) = (new_rel(), new_rel(), new_rel());
    let body = rule
        .body
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != shape.s && !shape.c_lits.contains(j))
        .map(|(_, l)| l.clone())
        .collect();
    // The rewritten rule (what it means; the grounder evaluates it through
    // the [`Exclusion`]): `P'(X, U)`, then `S(C, U)` and the filters on `C`.
    let mut ex_body = vec![GLit::Pos(p_rel, p_head.clone())];
    ex_body.push(rule.body[shape.s].clone());
    ex_body.extend(shape.c_lits.iter().map(|&j| rule.body[j].clone()));
    let ex_rule = GRule {
        head_rel: rule.head_rel,
        head: rule.head.clone(),
        body: ex_body,
        num_vars: rule.num_vars,
    };
    let p_rule = GRule {
        head_rel: p_rel,
        head: p_head,
        body,
        num_vars: rule.num_vars,
    };
    let ex = Exclusion {
        head_rel: rule.head_rel,
        head: rule.head.clone(),
        num_vars: rule.num_vars,
        p_rel,
        x_vars,
        c_vars,
        cs,
        us,
        pre_rel,
        suf_rel,
        seen: 0,
        groups: FxHashMap::default(),
    };
    (p_rule, ex_rule, ex)
}

impl Exclusion {
    /// The relaxed fixpoint's step: reads the rows of `P'` below
    /// `limit[P']` not read yet; returns the new head atoms.
    pub fn run_relaxed(&mut self, gr: &mut Grounder<'_>, limit: &[u32]) -> usize {
        let hi = (limit[self.p_rel] as usize).min(gr.rels[self.p_rel].rows.len());
        let nx = self.x_vars.len();
        let mut env = vec![TermId::NONE; self.num_vars];
        let mut added = 0;
        while self.seen < hi && gr.error.is_none() {
            let a = gr.rels[self.p_rel].rows[self.seen];
            self.seen += 1;
            let args = gr.atoms.args(a);
            let (x, u): (Box<[TermId]>, Box<[TermId]>) = (args[..nx].into(), args[nx..].into());
            if !self.us.contains(&u) {
                continue;
            }
            let heads: Vec<&[TermId]> = match self.groups.get_mut(&x) {
                None => {
                    let hs = self
                        .cs
                        .iter()
                        .filter(|c| **c != u)
                        .map(|c| &c[..])
                        .collect();
                    self.groups.insert(x.clone(), (u, false));
                    hs
                }
                Some((first, second)) if !*second => {
                    *second = true;
                    self.cs
                        .iter()
                        .filter(|c| *c == first)
                        .map(|c| &c[..])
                        .collect()
                }
                Some(_) => Vec::new(),
            };
            self.bind(&mut env, &x, &[]);
            for c in heads {
                self.bind(&mut env, &[], c);
                if let Some(h) = gr.build_args(&self.head, &env) {
                    added += usize::from(gr.add(self.head_rel, &h).1);
                }
                if !gr.tick() {
                    break;
                }
            }
        }
        added
    }

    fn bind(&self, env: &mut [TermId], x: &[TermId], c: &[TermId]) {
        for (v, &t) in self.x_vars.iter().zip(x) {
            env[*v as usize] = t;
        }
        for (v, &t) in self.c_vars.iter().zip(c) {
            env[*v as usize] = t;
        }
    }

    /// Records the instances: the prefix and suffix ORs of each `X`'s
    /// `P'` atoms, and each head atom over them.
    pub fn instantiate(&self, gr: &mut Grounder<'_>) {
        let nx = self.x_vars.len();
        let mut index: FxHashMap<Box<[TermId]>, usize> = FxHashMap::default();
        let mut groups: Vec<(Box<[TermId]>, Vec<AtomId>)> = Vec::new();
        for &a in &gr.rels[self.p_rel].rows {
            if !self.us.contains(&gr.atoms.args(a)[nx..]) {
                continue;
            }
            let x: Box<[TermId]> = gr.atoms.args(a)[..nx].into();
            let g = *index.entry(x.clone()).or_insert_with(|| {
                groups.push((x, Vec::new()));
                groups.len() - 1
            });
            groups[g].1.push(a);
        }
        let mut env = vec![TermId::NONE; self.num_vars];
        for (x, members) in &groups {
            if gr.error.is_some() {
                return;
            }
            let (pre, suf) = self.chains(gr, members);
            let pos: FxHashMap<&[TermId], usize> = members
                .iter()
                .enumerate()
                .map(|(k, &a)| (&gr.atoms.args(a)[nx..], k))
                .collect();
            let pos: Vec<Option<usize>> =
                self.cs.iter().map(|c| pos.get(&c[..]).copied()).collect();
            self.bind(&mut env, x, &[]);
            for (c, j) in self.cs.iter().zip(pos) {
                self.bind(&mut env, &[], c);
                let Some(h) = gr
                    .build_args(&self.head, &env)
                    .and_then(|h| gr.atoms.find(self.head_rel as u32, &h))
                else {
                    continue;
                };
                let n = members.len();
                match j {
                    None => gr.push_instance(h, &[pre[n - 1] << 1]),
                    Some(j) => {
                        if j > 0 {
                            gr.push_instance(h, &[pre[j - 1] << 1]);
                        }
                        if j + 1 < n {
                            gr.push_instance(h, &[suf[j + 1] << 1]);
                        }
                    }
                }
            }
        }
    }

    /// The ORs of `members` over each prefix (`pre[k]`: members `0..=k`)
    /// and each suffix (`suf[k]`: members `k..`; `suf[0]` is never read).
    fn chains(&self, gr: &mut Grounder<'_>, members: &[AtomId]) -> (Vec<AtomId>, Vec<AtomId>) {
        let n = members.len();
        let mut pre = vec![members[0]; n];
        let mut suf = vec![members[n - 1]; n];
        for k in 1..n {
            let args: Vec<TermId> = gr.atoms.args(members[k]).to_vec();
            let (a, _) = gr.add(self.pre_rel, &args);
            gr.push_instance(a, &[pre[k - 1] << 1]);
            gr.push_instance(a, &[members[k] << 1]);
            pre[k] = a;
        }
        for k in (1..n.saturating_sub(1)).rev() {
            let args: Vec<TermId> = gr.atoms.args(members[k]).to_vec();
            let (a, _) = gr.add(self.suf_rel, &args);
            gr.push_instance(a, &[suf[k + 1] << 1]);
            gr.push_instance(a, &[members[k] << 1]);
            suf[k] = a;
        }
        (pre, suf)
    }
}

#[cfg(test)]
mod tests {
    use crate::ground::{ground_program_with_strategy, rules::Strategy, Budget};

    const GAME: &str = include_str!("../../testdata/exclusion_game.kif");

    fn agrees_on_every_state(strategy: Strategy) -> usize {
        crate::ground::agreement::agrees_on_every_state(GAME, strategy).states
    }

    #[test]
    fn exclusions_are_rewritten_and_agree_with_the_interpreter() {
        let program = crate::parse_program(GAME);
        let gp = ground_program_with_strategy(&program, Budget::default(), Strategy::default())
            .expect("grounds");
        // `other` and `watched`.
        assert_eq!(gp.exclusions, 2);
        for strategy in crate::ground::agreement::strategies() {
            let states = agrees_on_every_state(strategy);
            assert!(states >= 200, "only {states} states");
        }
    }

    /// A guard lets the king's cell be eliminated from the shift rule:
    /// fewer instances than without.
    #[test]
    fn a_guard_splits_a_negation_off_its_rule() {
        let program = crate::parse_program(GAME);
        let instances = |guards| {
            let s = Strategy {
                guards,
                ..Strategy::default()
            };
            let gp = ground_program_with_strategy(&program, Budget::default(), s).expect("grounds");
            (gp.inst.len(), gp.aux_rules)
        };
        let (plain, guarded) = (instances(false), instances(true));
        assert!(
            guarded.1 > plain.1,
            "no auxiliary split off: {plain:?} {guarded:?}"
        );
    }
}
