//! The grounded rules as BDDs: every derived atom of the ground program
//! (`ground::GroundProgram`, the input of the fast engine's network) is the
//! OR of its rule instances, each the AND of its literals, over the base
//! propositions' current copies. Atoms are evaluated dependencies first
//! (Tarjan's strongly connected components); a recursive component is
//! iterated from false to its least fixpoint (grounding refuses negation
//! inside one, so the iteration is monotone).
//!
//! Moves (`does` atoms) are not BDD variables: the atoms that depend on a
//! move are evaluated again per move, with that role's `does` atoms as
//! constants and every other role's `does` atom replaced by its `legal`
//! BDD, which is exact in the states where that role has one legal move
//! (the states where the moving role is the only one with a choice).

use super::bdd::Space;
use super::{Clock, Stop};
use crate::ground::instantiate::AtomId;
use crate::ground::GroundProgram;
use crate::terms::TermId;
use biodivine_lib_bdd::Bdd;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Not derived by any instance and not a leaf: always false.
    False,
    Fluent(u32),
    /// A move: role, index among the role's moves (`u32::MAX`: a move
    /// that is never legal).
    Does(u32, u32),
    Derived,
}

/// One role's move: when it is legal.
pub struct Move {
    pub legal: Bdd,
}

/// The game's rules as BDDs over the base propositions.
pub struct Circuit {
    kind: Vec<Kind>,
    /// Instances of each atom: `inst_of[start[a]..start[a + 1]]`.
    start: Vec<u32>,
    inst_of: Vec<u32>,
    /// Components, dependencies first; `true` when recursive.
    order: Vec<(Vec<AtomId>, bool)>,
    on_does: Vec<bool>,
    base: Vec<Bdd>,
    /// Per base proposition, the atom of its `next`.
    next_atom: Vec<Option<AtomId>>,
    pub moves: Vec<Vec<Move>>,
    /// The atoms evaluated: all of them, or for counting only those the
    /// moves and the terminal parts read.
    needed: Vec<bool>,
    pub terminal: Bdd,
    /// `terminal` as a disjunction of parts: when counting, the terminal
    /// rules' instances, through rules of one positive literal (`terminal
    /// ⇐ line(red)`, `line(red) ⇐` each line), never ORed into one BDD
    /// (that of "four in a line" on 7 × 6 connect four is too large);
    /// else the one part `terminal`.
    pub terminal_parts: Vec<Bdd>,
    /// Per role: goal value and when that goal atom holds.
    pub goals: Vec<Vec<(i64, Bdd)>>,
    pub init: Vec<bool>,
}

impl Circuit {
    /// The circuit of `gp`, or where the clock or the node limit stopped
    /// its evaluation.
    /// `values`: also the goals (to solve); without them (to count the
    /// reachable states) `terminal` stays in parts and the atoms only the
    /// goals read are never evaluated.
    pub fn new(
        gp: &GroundProgram,
        space: &mut Space,
        clock: &Clock,
        values: bool,
    ) -> Result<Circuit, Stop> {
        let n_atoms = gp.atoms.len();
        let mut kind = vec![Kind::False; n_atoms];
        for (i, &f) in gp.fluents.iter().enumerate() {
            if let Some(&t) = gp
                .true_tables
                .get(&(gp.store.functor(f), gp.store.arity(f) as u32))
            {
                if let Some(a) = gp.atoms.find(t as u32, gp.store.args_of(f)) {
                    kind[a as usize] = Kind::Fluent(i as u32);
                }
            }
            if let Some(a) = gp.true_all.and_then(|t| gp.atoms.find(t as u32, &[f])) {
                kind[a as usize] = Kind::Fluent(i as u32);
            }
        }
        let role_of = |t: TermId| gp.roles.iter().position(|&r| r == t).map(|r| r as u32);
        let mut legal_atoms: Vec<Vec<(TermId, AtomId)>> = vec![Vec::new(); gp.roles.len()];
        if let Some(rl) = gp.rel_legal {
            for &a in &gp.rels[rl].rows {
                let args = gp.atoms.args(a);
                if let Some(r) = role_of(args[0]) {
                    legal_atoms[r as usize].push((args[1], a));
                }
            }
        }
        if let Some(rd) = gp.rel_does {
            for &a in &gp.rels[rd].rows {
                let args = gp.atoms.args(a);
                if let Some(r) = role_of(args[0]) {
                    let m = legal_atoms[r as usize]
                        .iter()
                        .position(|&(t, _)| t == args[1]);
                    kind[a as usize] = Kind::Does(r, m.map_or(u32::MAX, |m| m as u32));
                }
            }
        }
        let (start, inst_of) = instances_by_head(gp, &mut kind);
        let order = components(gp, &kind, &start, &inst_of);
        let mut on_does: Vec<bool> = kind.iter().map(|k| matches!(k, Kind::Does(..))).collect();
        for (atoms, _) in &order {
            let any = atoms
                .iter()
                .any(|&a| instance_atoms(gp, &start, &inst_of, a).any(|b| on_does[b as usize]));
            for &a in atoms {
                on_does[a as usize] |= any;
            }
        }
        let terminal_atom = gp.rel_terminal.and_then(|t| gp.atoms.find(t as u32, &[]));
        let mut c = Circuit {
            kind,
            start,
            inst_of,
            order,
            on_does,
            base: Vec::new(),
            next_atom: Vec::new(),
            moves: Vec::new(),
            needed: vec![true; n_atoms],
            terminal: space.f(),
            terminal_parts: Vec::new(),
            goals: Vec::new(),
            init: vec![false; gp.fluents.len()],
        };
        c.base = c.leaves(space);
        c.read_next(gp);
        let parts = match (values, terminal_atom) {
            (false, Some(t)) => {
                let parts = c.terminal_instances(gp, t);
                let mut roots: Vec<AtomId> =
                    legal_atoms.iter().flatten().map(|&(_, a)| a).collect();
                roots.extend(c.next_atom.iter().flatten());
                for &k in &parts {
                    roots.extend(gp.inst.lits(k as usize).iter().map(|&l| l >> 1));
                }
                c.needed = c.closure(gp, &roots);
                Some(parts)
            }
            _ => None,
        };
        c.evaluate(gp, space, None, clock)?;
        c.read_out(gp, &legal_atoms, values);
        c.terminal_parts = match parts {
            Some(parts) => {
                let conjs = parts
                    .iter()
                    .map(|&k| c.instance(gp, space, k as usize, &c.base))
                    .collect::<Result<Vec<_>, _>>()?;
                merge_parts(space, conjs)?
            }
            None => {
                c.terminal =
                    terminal_atom.map_or_else(|| space.f(), |a| c.base[a as usize].clone());
                vec![c.terminal.clone()]
            }
        };
        Ok(c)
    }

    /// The leaf values: fluents their current variable, moves false.
    fn leaves(&self, space: &Space) -> Vec<Bdd> {
        self.kind
            .iter()
            .map(|k| match *k {
                Kind::Fluent(i) => space.cur(i as usize),
                Kind::Does(..) | Kind::False | Kind::Derived => space.f(),
            })
            .collect()
    }

    /// Evaluates the derived atoms into `base` (no context) or, for a
    /// move context, only those that depend on a move, into `ctx`.
    fn evaluate(
        &mut self,
        gp: &GroundProgram,
        space: &mut Space,
        ctx: Option<&mut Vec<Bdd>>,
        clock: &Clock,
    ) -> Result<(), Stop> {
        let order = std::mem::take(&mut self.order);
        let result = self.evaluate_in(&order, gp, space, ctx, clock);
        self.order = order;
        result
    }

    fn evaluate_in(
        &mut self,
        order: &[(Vec<AtomId>, bool)],
        gp: &GroundProgram,
        space: &mut Space,
        mut ctx: Option<&mut Vec<Bdd>>,
        clock: &Clock,
    ) -> Result<(), Stop> {
        for (atoms, recursive) in order {
            clock.check()?;
            if ctx.is_some() && !self.on_does[atoms[0] as usize] {
                continue;
            }
            if !atoms.iter().any(|&a| self.needed[a as usize]) {
                continue;
            }
            if let Some(vals) = ctx.as_deref_mut() {
                // A least fixpoint starts from false, not from the base values.
                for &a in atoms {
                    vals[a as usize] = space.f();
                }
            }
            loop {
                let mut changed = false;
                for &a in atoms {
                    let v = {
                        let vals = ctx.as_deref().unwrap_or(&self.base);
                        self.derive(gp, space, a, vals)?
                    };
                    let v = space.note(v);
                    let slot = &mut ctx.as_deref_mut().unwrap_or(&mut self.base)[a as usize];
                    if *slot != v {
                        *slot = v;
                        changed = true;
                    }
                }
                if !*recursive || !changed {
                    break;
                }
            }
        }
        Ok(())
    }

    /// OR over `a`'s instances of the AND of their literals.
    fn derive(
        &self,
        gp: &GroundProgram,
        space: &Space,
        a: AtomId,
        vals: &[Bdd],
    ) -> Result<Bdd, Stop> {
        let mut out = space.f();
        for k in self.start[a as usize]..self.start[a as usize + 1] {
            let conj = self.instance(gp, space, self.inst_of[k as usize] as usize, vals)?;
            out = space.or(&out, &conj)?;
        }
        Ok(out)
    }

    /// The AND of rule instance `i`'s literals (for a counting instance,
    /// that at least its `k` hold).
    fn instance(
        &self,
        gp: &GroundProgram,
        space: &Space,
        i: usize,
        vals: &[Bdd],
    ) -> Result<Bdd, Stop> {
        if let Some(k) = gp.inst.at_least(i) {
            return at_least(space, gp.inst.lits(i), k as usize, vals);
        }
        let mut conj = space.t();
        for &l in gp.inst.lits(i) {
            let v = &vals[(l >> 1) as usize];
            conj = if l & 1 == 1 {
                space.and_not(&conj, v)?
            } else {
                space.and(&conj, v)?
            };
            if conj.is_false() {
                break;
            }
        }
        Ok(conj)
    }

    /// The instances whose OR is atom `t`, through instances of one
    /// positive derived literal (whose own instances then stand in).
    fn terminal_instances(&self, gp: &GroundProgram, t: AtomId) -> Vec<u32> {
        let mut seen = vec![false; self.kind.len()];
        let (mut todo, mut out) = (vec![t], Vec::new());
        seen[t as usize] = true;
        while let Some(a) = todo.pop() {
            for k in self.start[a as usize]..self.start[a as usize + 1] {
                let i = self.inst_of[k as usize];
                match gp.inst.lits(i as usize) {
                    [l] if l & 1 == 0 && self.kind[(l >> 1) as usize] == Kind::Derived => {
                        let b = (l >> 1) as usize;
                        if !seen[b] {
                            seen[b] = true;
                            todo.push(b as AtomId);
                        }
                    }
                    _ => out.push(i),
                }
            }
        }
        out
    }

    /// The atoms `roots` read, directly or through derived atoms.
    fn closure(&self, gp: &GroundProgram, roots: &[AtomId]) -> Vec<bool> {
        let mut needed = vec![false; self.kind.len()];
        let mut todo: Vec<AtomId> = roots.to_vec();
        while let Some(a) = todo.pop() {
            if std::mem::replace(&mut needed[a as usize], true) {
                continue;
            }
            todo.extend(instance_atoms(gp, &self.start, &self.inst_of, a));
        }
        needed
    }

    fn read_next(&mut self, gp: &GroundProgram) {
        self.next_atom = gp
            .fluents
            .iter()
            .map(|&f| gp.rel_next.and_then(|rn| gp.atoms.find(rn as u32, &[f])))
            .collect();
        for &i in &gp.init {
            self.init[i as usize] = true;
        }
    }

    fn read_out(&mut self, gp: &GroundProgram, legal: &[Vec<(TermId, AtomId)>], values: bool) {
        self.moves = legal
            .iter()
            .map(|ms| {
                ms.iter()
                    .map(|&(_, a)| Move {
                        legal: self.base[a as usize].clone(),
                    })
                    .collect()
            })
            .collect();
        self.goals = vec![Vec::new(); gp.roles.len()];
        if !values {
            return;
        }
        if let Some(rg) = gp.rel_goal {
            for &a in &gp.rels[rg].rows {
                let args = gp.atoms.args(a);
                let r = gp.roles.iter().position(|&x| x == args[0]);
                if let (Some(r), Some(v)) = (r, gp.store.as_int(args[1])) {
                    self.goals[r].push((v, self.base[a as usize].clone()));
                }
            }
        }
    }

    /// Each base proposition's `next` when role `r` plays its move `m` and
    /// every other role its one legal move.
    pub fn next_under(
        &mut self,
        gp: &GroundProgram,
        space: &mut Space,
        r: usize,
        m: usize,
        clock: &Clock,
    ) -> Result<Vec<Bdd>, Stop> {
        let mut ctx = self.base.clone();
        for (a, k) in self.kind.iter().enumerate() {
            if let Kind::Does(role, mv) = *k {
                ctx[a] = if role as usize == r {
                    if mv as usize == m {
                        space.t()
                    } else {
                        space.f()
                    }
                } else {
                    self.moves[role as usize]
                        .get(mv as usize)
                        .map_or_else(|| space.f(), |x| x.legal.clone())
                };
            }
        }
        self.evaluate(gp, space, Some(&mut ctx), clock)?;
        Ok(self
            .next_atom
            .iter()
            .map(|a| match a {
                Some(a) if self.on_does[*a as usize] => ctx[*a as usize].clone(),
                Some(a) => self.base[*a as usize].clone(),
                None => space.f(),
            })
            .collect())
    }
}

/// Parts ORed together while the OR stays small: fewer, larger parts
/// for the reachability's subtractions.
fn merge_parts(space: &Space, parts: Vec<Bdd>) -> Result<Vec<Bdd>, Stop> {
    const SMALL: usize = 20_000;
    let mut out: Vec<Bdd> = Vec::new();
    for p in parts {
        if p.is_false() {
            continue;
        }
        match out.last_mut() {
            Some(last) if last.size() + p.size() <= SMALL => *last = space.or(last, &p)?,
            _ => out.push(p),
        }
    }
    Ok(out)
}

/// The instances of each derived atom (atoms with instances become
/// `Derived`; instances of `init` are left out).
fn instances_by_head(gp: &GroundProgram, kind: &mut [Kind]) -> (Vec<u32>, Vec<u32>) {
    let n = kind.len();
    let keep = |i: usize| {
        let h = gp.inst.head[i];
        gp.rel_init != Some(gp.atoms.rel[h as usize] as usize)
            && matches!(kind[h as usize], Kind::False | Kind::Derived)
    };
    let mut start = vec![0u32; n + 1];
    for i in (0..gp.inst.len()).filter(|&i| keep(i)) {
        start[gp.inst.head[i] as usize + 1] += 1;
    }
    for a in 0..n {
        start[a + 1] += start[a];
    }
    let mut fill = start.clone();
    let mut inst_of = vec![0u32; start[n] as usize];
    for i in (0..gp.inst.len()).filter(|&i| keep(i)) {
        let h = gp.inst.head[i] as usize;
        inst_of[fill[h] as usize] = i as u32;
        fill[h] += 1;
    }
    for a in 0..n {
        if start[a + 1] > start[a] {
            kind[a] = Kind::Derived;
        }
    }
    (start, inst_of)
}

/// The atoms read by `a`'s instances.
fn instance_atoms<'a>(
    gp: &'a GroundProgram,
    start: &'a [u32],
    inst_of: &'a [u32],
    a: AtomId,
) -> impl Iterator<Item = AtomId> + 'a {
    (start[a as usize]..start[a as usize + 1]).flat_map(move |k| {
        gp.inst
            .lits(inst_of[k as usize] as usize)
            .iter()
            .map(|&l| l >> 1)
    })
}

/// The derived atoms' strongly connected components, dependencies first
/// (Tarjan, iterative), each with whether it is recursive.
fn components(
    gp: &GroundProgram,
    kind: &[Kind],
    start: &[u32],
    inst_of: &[u32],
) -> Vec<(Vec<AtomId>, bool)> {
    const UNSEEN: u32 = u32::MAX;
    let n = kind.len();
    let derived = |a: u32| kind[a as usize] == Kind::Derived;
    let succ = |a: u32| -> Vec<u32> {
        instance_atoms(gp, start, inst_of, a)
            .filter(|&b| derived(b))
            .collect()
    };
    let (mut index, mut low) = (vec![UNSEEN; n], vec![0u32; n]);
    let mut on_stack = vec![false; n];
    let (mut stack, mut out, mut next) = (Vec::new(), Vec::new(), 0u32);
    for root in (0..n as u32).filter(|&a| derived(a)) {
        if index[root as usize] != UNSEEN {
            continue;
        }
        // (atom, its successors, next successor to visit)
        let mut calls: Vec<(u32, Vec<u32>, usize)> = vec![(root, succ(root), 0)];
        (index[root as usize], low[root as usize]) = (next, next);
        next += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        while let Some((v, ws, k)) = calls.last_mut() {
            let v = *v;
            if let Some(&w) = ws.get(*k) {
                *k += 1;
                if index[w as usize] == UNSEEN {
                    (index[w as usize], low[w as usize]) = (next, next);
                    next += 1;
                    stack.push(w);
                    on_stack[w as usize] = true;
                    calls.push((w, succ(w), 0));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
                continue;
            }
            let self_loop = ws.contains(&v);
            calls.pop();
            if let Some((p, _, _)) = calls.last() {
                low[*p as usize] = low[*p as usize].min(low[v as usize]);
            }
            if low[v as usize] == index[v as usize] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w as usize] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                let recursive = comp.len() > 1 || self_loop;
                out.push((comp, recursive));
            }
        }
    }
    out
}

/// That at least `k` of the positive literals `lits` hold: `t[j]`, "at
/// least `j` of the literals so far", updated literal by literal.
fn at_least(space: &Space, lits: &[u32], k: usize, vals: &[Bdd]) -> Result<Bdd, Stop> {
    let mut t = vec![space.f(); k + 1];
    t[0] = space.t();
    for &l in lits {
        let v = &vals[(l >> 1) as usize];
        for j in (1..=k).rev() {
            let more = space.and(&t[j - 1], v)?;
            t[j] = space.or(&t[j], &more)?;
        }
    }
    Ok(t.swap_remove(k))
}
