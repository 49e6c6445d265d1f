//! The ground game as a planning problem (thesis 3.5, 4.2–4.5).
//!
//! State variables are the ground program's atoms ([`GroundProgram`]: the
//! reachable atoms of thesis 4.3), with `init`/`next`/`true` merged into one
//! variable per fluent and `legal`/`does` into one per move (3.5.1). Every
//! rule instance becomes an operator with a single effect (its head) and its
//! positive body literals as preconditions; its cost depends on the rule's
//! type (3.5.3, 4.5), see [`Costs`]. Goal formulas `T_q = goal(role, q) ∧
//! terminal` (3.5.4) are one extra variable per role and goal value, made
//! true by a cost-0 operator with those two preconditions.
//!
//! **Negative preconditions** (an approximation of the positive normal form
//! of 3.3.2, see `docs/planning.md`): `(not x)` keeps the truth value it has
//! in the evaluated state (the relaxed plan never deletes anything, so it
//! never makes `x` false); where `x` depends on a move (`(not (touched
//! ...))` in a frame rule) it is dropped.

use crate::deps::RelId;
use crate::ground::instantiate::AtomId;
use crate::ground::{Budget, GroundError, GroundProgram};
use crate::program::Program;
use crate::terms::{Sym, TermId, TermStore};
use rustc_hash::FxHashMap;

/// Operator costs by rule type (thesis 4.5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Costs {
    /// A `legal` rule: a role's action.
    pub action: u32,
    /// A `legal` rule of a move named `noop`.
    pub noop: u32,
    /// A `next` rule that depends on `does`: the action's effect.
    pub effect: u32,
    /// A `next` rule without `does`: the world changing by itself (a step
    /// counter, whose turn it is).
    pub world: u32,
    /// Every other rule (derived relations, `terminal`, `goal`).
    pub derived: u32,
}

impl Costs {
    /// The costs of thesis 4.5.
    pub const THESIS: Costs = Costs {
        action: 1,
        noop: 0,
        effect: 0,
        world: 1,
        derived: 0,
    };
}

impl Default for Costs {
    fn default() -> Costs {
        Costs::THESIS
    }
}

/// The type of rule an operator comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpKind {
    /// `legal`: role index and move (in the problem's term store).
    Action {
        role: u32,
        mv: TermId,
    },
    Effect,
    World,
    Derived,
    /// Reaching a goal formula `T_q`.
    Goal,
}

/// A grounded game as a relaxed planning problem.
pub struct Problem {
    pub store: TermStore,
    pub roles: Vec<TermId>,
    pub costs: Costs,
    pub num_vars: usize,
    /// Operators in flat arrays: effect, cost, kind, preconditions
    /// `pre[pre_start[o]..pre_start[o + 1]]`.
    pub op_eff: Vec<u32>,
    pub op_cost: Vec<u32>,
    pub op_kind: Vec<OpKind>,
    pub pre_start: Vec<u32>,
    pub pre: Vec<u32>,
    /// Negated state variables of each operator: `neg[neg_start[o]..]`.
    pub neg_start: Vec<u32>,
    pub neg: Vec<u32>,
    /// The variable of each fluent that some rule reads or a rule makes
    /// true (fluents in `store`).
    pub fluent_var: FxHashMap<TermId, u32>,
    /// Per role: goal value and the variable of `T_q`, by value.
    pub goals: Vec<Vec<(i64, u32)>>,
    /// Per role: goal value and the variable of the atom `goal(role, q)`.
    pub goal_atoms: Vec<Vec<(i64, u32)>>,
}

impl Problem {
    /// Grounds `program` and translates it with `costs`.
    pub fn build(program: &Program, budget: Budget, costs: Costs) -> Result<Problem, GroundError> {
        let gp = crate::ground::ground_program(program, budget)?;
        Ok(Problem::translate(gp, costs))
    }

    pub fn num_ops(&self) -> usize {
        self.op_eff.len()
    }

    pub fn neg(&self, op: usize) -> &[u32] {
        &self.neg[self.neg_start[op] as usize..self.neg_start[op + 1] as usize]
    }

    pub fn pre(&self, op: usize) -> &[u32] {
        &self.pre[self.pre_start[op] as usize..self.pre_start[op + 1] as usize]
    }

    /// Translates a ground program (thesis 3.5).
    pub fn translate(gp: GroundProgram, costs: Costs) -> Problem {
        let n = gp.atoms.len();
        let (var, fluent_var, is_does) = merged_vars(&gp);
        let on_does = depends_on_does(&gp, &var, is_does);
        let mut p = Problem {
            roles: gp.roles.clone(),
            costs,
            num_vars: n,
            op_eff: Vec::new(),
            op_cost: Vec::new(),
            op_kind: Vec::new(),
            pre_start: vec![0],
            pre: Vec::new(),
            neg_start: vec![0],
            neg: Vec::new(),
            fluent_var,
            goals: vec![Vec::new(); gp.roles.len()],
            goal_atoms: vec![Vec::new(); gp.roles.len()],
            store: TermStore::default(),
        };
        p.push_rule_ops(&gp, &var, &on_does);
        p.push_goal_ops(&gp, &var);
        for g in p.goals.iter_mut().chain(p.goal_atoms.iter_mut()) {
            g.sort_by_key(|x| x.0);
        }
        p.store = gp.store;
        p
    }

    /// One operator per rule instance (but `init`'s: the state being
    /// evaluated replaces it), its cost by the rule's type.
    fn push_rule_ops(&mut self, gp: &GroundProgram, var: &[u32], on_does: &[bool]) {
        let noop = gp.store.symbols.get("noop");
        let mut pre: Vec<u32> = Vec::new();
        let mut neg: Vec<u32> = Vec::new();
        for i in 0..gp.inst.len() {
            let h = gp.inst.head[i];
            if is(gp, h, gp.rel_init) {
                continue; // the state being evaluated replaces `init`
            }
            if gp.inst.at_least(i).is_some() {
                // "At least k of" (a counting rule's auxiliary, ground/count.rs),
                // relaxed further to "any one of": an operator per member.
                for &l in gp.inst.lits(i) {
                    let member = [var[(l >> 1) as usize]];
                    let cost = self.costs.derived;
                    self.push_op(var[h as usize], cost, OpKind::Derived, &member, &[]);
                }
                continue;
            }
            pre.clear();
            pre.extend(
                gp.inst
                    .lits(i)
                    .iter()
                    .filter(|&&l| l & 1 == 0)
                    .map(|&l| var[(l >> 1) as usize]),
            );
            pre.sort_unstable();
            pre.dedup();
            neg.clear();
            neg.extend(
                gp.inst
                    .lits(i)
                    .iter()
                    .filter(|&&l| l & 1 == 1)
                    .map(|&l| var[(l >> 1) as usize])
                    .filter(|&v| !on_does[v as usize]),
            );
            let (kind, cost) = if is(gp, h, gp.rel_legal) {
                action_kind(gp, h, noop, self.costs)
            } else if is(gp, h, gp.rel_next) {
                if pre.iter().any(|&v| on_does[v as usize]) {
                    (OpKind::Effect, self.costs.effect)
                } else {
                    (OpKind::World, self.costs.world)
                }
            } else {
                (OpKind::Derived, self.costs.derived)
            };
            self.push_op(var[h as usize], cost, kind, &pre, &neg);
        }
    }

    /// Goal formulas T_q = goal(role, q) ∧ terminal: a variable each, made
    /// true by a cost-0 operator.
    fn push_goal_ops(&mut self, gp: &GroundProgram, var: &[u32]) {
        let terminal = gp
            .rel_terminal
            .and_then(|t| gp.atoms.find(t as u32, &[]))
            .map(|a| var[a as usize]);
        let Some(rg) = gp.rel_goal else {
            return;
        };
        for &a in &gp.rels[rg].rows {
            let args = gp.atoms.args(a);
            let (Some(r), Some(q)) = (
                gp.roles.iter().position(|&x| x == args[0]),
                gp.store.as_int(args[1]),
            ) else {
                continue;
            };
            let t = self.num_vars as u32;
            self.num_vars += 1;
            if let Some(term) = terminal {
                self.push_op(t, 0, OpKind::Goal, &[var[a as usize], term], &[]);
            }
            self.goals[r].push((q, t));
            self.goal_atoms[r].push((q, var[a as usize]));
        }
    }

    fn push_op(&mut self, eff: u32, cost: u32, kind: OpKind, pre: &[u32], neg: &[u32]) {
        self.neg.extend_from_slice(neg);
        self.neg_start.push(self.neg.len() as u32);
        self.op_eff.push(eff);
        self.op_cost.push(cost);
        self.op_kind.push(kind);
        self.pre.extend_from_slice(pre);
        self.pre_start.push(self.pre.len() as u32);
    }
}

/// Whether atom `a` is of relation `r`.
fn is(gp: &GroundProgram, a: AtomId, r: Option<RelId>) -> bool {
    r == Some(gp.atoms.rel[a as usize] as RelId)
}

/// The state variable of each atom, with `next(f)` merged into `true(f)`
/// and `does(r, m)` into `legal(r, m)`; the variable of each fluent; which
/// variables are moves (`does`).
fn merged_vars(gp: &GroundProgram) -> (Vec<u32>, FxHashMap<TermId, u32>, Vec<bool>) {
    let n = gp.atoms.len();
    let mut var: Vec<u32> = (0..n as u32).collect();
    let mut fluent_var = FxHashMap::default();
    if let Some(rn) = gp.rel_next {
        for &a in &gp.rels[rn].rows {
            let f = gp.atoms.args(a)[0];
            if let Some(t) = gp.true_atom(f) {
                var[a as usize] = t;
            }
            fluent_var.insert(f, var[a as usize]);
        }
    }
    for &f in &gp.fluents {
        if let Some(t) = gp.true_atom(f) {
            fluent_var.insert(f, t);
        }
    }
    let mut is_does = vec![false; n];
    if let (Some(rd), Some(rl)) = (gp.rel_does, gp.rel_legal) {
        for &a in &gp.rels[rd].rows {
            if let Some(l) = gp.atoms.find(rl as u32, gp.atoms.args(a)) {
                var[a as usize] = l;
            }
            is_does[var[a as usize] as usize] = true;
        }
    }
    (var, fluent_var, is_does)
}

/// Which variables depend on a move, starting from the moves `is_does`
/// (then a `next` rule reading them is an action effect even after bucket
/// elimination moved its `does` literal into an auxiliary rule).
fn depends_on_does(gp: &GroundProgram, var: &[u32], is_does: Vec<bool>) -> Vec<bool> {
    let mut on_does = is_does;
    let derived =
        |a: AtomId| !is(gp, a, gp.rel_next) && !is(gp, a, gp.rel_legal) && !is(gp, a, gp.rel_init);
    loop {
        let mut changed = false;
        for i in 0..gp.inst.len() {
            let h = gp.inst.head[i];
            let hv = var[h as usize] as usize;
            if !derived(h) || on_does[hv] {
                continue;
            }
            if gp
                .inst
                .lits(i)
                .iter()
                .any(|&l| l & 1 == 0 && on_does[var[(l >> 1) as usize] as usize])
            {
                on_does[hv] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    on_does
}

/// The kind and cost of the operator of a `legal` rule with head `h`: a
/// role's action (a `noop` one at its own cost), or a derived rule when
/// the first argument is no role.
fn action_kind(gp: &GroundProgram, h: AtomId, noop: Option<Sym>, costs: Costs) -> (OpKind, u32) {
    let args = gp.atoms.args(h);
    let role = gp.roles.iter().position(|&r| r == args[0]);
    let mv = args[1];
    let is_noop =
        noop.is_some_and(|s| gp.store.args_of(mv).is_empty() && gp.store.functor(mv) == s);
    match role {
        Some(r) => (
            OpKind::Action { role: r as u32, mv },
            if is_noop { costs.noop } else { costs.action },
        ),
        None => (OpKind::Derived, costs.derived),
    }
}
