//! The exact supply of the value rules: which `true` and `does` atoms are
//! reachable (over-approximated), from the rules that decide them run to a
//! relaxed fixpoint in a scratch grounder on a small budget. A supply from
//! rows rather than from argument positions alone keeps the filters tight.

use super::{Dom, Roles};
use crate::deps::RelId;
use crate::ground::instantiate::Grounder;
use crate::ground::rules::{GLit, GRule, RuleSet};
use crate::ground::Budget;
use crate::terms::TermId;

/// The rules that decide which `true` and `does` atoms are reachable,
/// unsplit (each auxiliary literal replaced by its rule's body), each
/// without the positive literals that only filter (every variable bound
/// by another kept literal; the widest first, only wide or large ones),
/// then split again into `arity`/`is_static`. Dropping a
/// literal only adds atoms; it keeps chess's threat relations (read by
/// the discovered-check rules only as filters) out.
pub(super) fn value_rules(
    rs: &RuleSet,
    computed: &[bool],
    static_rows: &[usize],
    g: &Roles,
    arity: &mut Vec<usize>,
    is_static: &mut Vec<bool>,
) -> Vec<GRule> {
    let (defs, reads) = definitions(rs);
    let inline = |l: &GLit| match l {
        GLit::Pos(r, pats) if *r >= g.first_aux && defs[*r].len() == 1 && reads[*r] == 1 => {
            let d = &rs.rules[defs[*r][0]];
            (d.head == *pats).then_some(d)
        }
        _ => None,
    };
    // Dropped if covered: wide dynamic relations (chess's threats over an
    // ignored cell) and large static ones (its `different_cells`).
    let wide = |r: RelId| {
        if computed[r] {
            static_rows[r] > 4096
        } else {
            rs.arity[r] >= 7
        }
    };
    let mut wanted = vec![false; rs.arity.len()];
    let mut stack: Vec<RelId> = [g.legal, g.next].into_iter().flatten().collect();
    let mut out = Vec::new();
    while let Some(r) = stack.pop() {
        if std::mem::replace(&mut wanted[r], true) {
            continue;
        }
        for &i in &defs[r] {
            let mut rule = rs.rules[i].clone();
            // Unsplit (auxiliaries nest: a work list, bounded by the rules).
            let mut body = Vec::new();
            let mut work: Vec<GLit> = rule.body.drain(..).rev().collect();
            while let Some(l) = work.pop() {
                match inline(&l) {
                    Some(d) => work.extend(d.body.iter().rev().cloned()),
                    None => body.push(l),
                }
            }
            // The relaxed fixpoint ignores dynamic negations: without them
            // splitting projects away the variables only they read.
            body.retain(|l| !matches!(l, GLit::Neg(x, _) if !computed[*x]));
            drop_covered(&mut body, &wide);
            for l in &body {
                if let GLit::Pos(x, _) = l {
                    if !computed[*x] {
                        stack.push(*x);
                    }
                }
            }
            rule.body = body;
            crate::ground::rules::split_plain(rule, &mut out, arity, is_static);
        }
    }
    out
}

/// Per relation, the rules defining it, and how many literals read it.
/// Auxiliaries made by splitting are defined by one rule, read once with
/// the same variables as its head.
fn definitions(rs: &RuleSet) -> (Vec<Vec<usize>>, Vec<usize>) {
    let mut defs: Vec<Vec<usize>> = vec![Vec::new(); rs.arity.len()];
    let mut reads = vec![0usize; rs.arity.len()];
    for (i, rule) in rs.rules.iter().enumerate() {
        defs[rule.head_rel].push(i);
        for l in &rule.body {
            if let GLit::Pos(r, _) | GLit::Neg(r, _) = l {
                reads[*r] += 1;
            }
        }
    }
    (defs, reads)
}

/// Drops the positive literals on `wide` relations whose variables the
/// other positive literals kept all bind, the widest first.
fn drop_covered(body: &mut Vec<GLit>, wide: &dyn Fn(RelId) -> bool) {
    let mut order: Vec<usize> = (0..body.len())
        .filter(|&i| matches!(&body[i], GLit::Pos(x, _) if wide(*x)))
        .collect();
    order.sort_by_key(|&i| match &body[i] {
        GLit::Pos(_, ps) => std::cmp::Reverse(ps.len()),
        _ => std::cmp::Reverse(0),
    });
    let mut dropped = vec![false; body.len()];
    for i in order {
        let mut mine = Vec::new();
        body[i].vars(&mut mine);
        let mut others = Vec::new();
        for (j, l) in body.iter().enumerate() {
            if j != i && !dropped[j] && l.is_pos() {
                l.vars(&mut others);
            }
        }
        if mine.iter().all(|v| others.contains(v)) {
            dropped[i] = true;
        }
    }
    let mut k = 0;
    body.retain(|_| {
        k += 1;
        !dropped[k - 1]
    });
}

/// Every relation's terms per position in `gr` (its rows' projections).
pub(super) fn projections(gr: &Grounder<'_>, rels: &[bool]) -> Vec<Option<Vec<Dom>>> {
    let mut out = Vec::with_capacity(rels.len());
    for (r, &want) in rels.iter().enumerate() {
        if !want {
            out.push(None);
            continue;
        }
        let rel = &gr.rels[r];
        let mut doms = vec![Dom::default(); rel.arity];
        for &a in &rel.rows {
            for (d, &t) in doms.iter_mut().zip(gr.atoms.args(a)) {
                d.join(&Dom::of_term(gr.store, t, 0));
            }
        }
        out.push(Some(doms));
    }
    out
}

/// The relaxed fixpoint of the value rules in a scratch grounder: the
/// reachable `true` and `does` atoms (over-approximated), or `None` over
/// its small budget (then no filters).
#[allow(clippy::too_many_arguments)]
pub(super) fn reachable_values(
    gr: &Grounder<'_>,
    arity: &[usize],
    is_static: Vec<bool>,
    rules: &[GRule],
    computed: &[bool],
    facts: &[(RelId, Box<[TermId]>)],
    g: &Roles,
    budget: Budget,
    name: &dyn Fn(RelId) -> String,
) -> Option<Vec<Option<Vec<Dom>>>> {
    let mut store = gr.store.clone();
    let small = Budget {
        max_atoms: budget.max_atoms / 4,
        max_ms: budget.max_ms / 10.0,
        max_bytes: budget.max_bytes / 4,
        ..budget
    };
    let mut sc = Grounder::new(&mut store, arity, is_static, small);
    for (r, &c) in computed.iter().enumerate() {
        if c {
            for &a in &gr.rels[r].rows {
                sc.add(r, gr.atoms.args(a));
            }
        }
    }
    for (r, row) in facts {
        if !computed[*r] {
            sc.add(*r, row);
        }
    }
    if let Some(ri) = g.init {
        for a in gr.rels[ri].rows.clone() {
            add_fluent(g, &mut sc, gr.atoms.args(a)[0]);
        }
    }
    let (mut next_seen, mut legal_seen) = (0usize, 0usize);
    let mut prof =
        crate::ground::profile::Profile::from_env(|| (0..arity.len()).map(name).collect());
    let done = crate::ground::fixpoint(
        &mut sc,
        rules,
        &mut prof,
        "types",
        &mut Default::default(),
        |sc| {
            if let Some(rn) = g.next {
                while next_seen < sc.rels[rn].rows.len() {
                    let f = sc.atoms.args(sc.rels[rn].rows[next_seen])[0];
                    add_fluent(g, sc, f);
                    next_seen += 1;
                }
            }
            if let (Some(rl), Some(rd)) = (g.legal, g.does) {
                while legal_seen < sc.rels[rl].rows.len() {
                    let args: Vec<TermId> = sc.atoms.args(sc.rels[rl].rows[legal_seen]).to_vec();
                    sc.add(rd, &args);
                    legal_seen += 1;
                }
            }
        },
    );
    prof.print("types: the value rules");
    if let Err(e) = done {
        if std::env::var_os("GDLKIT_GROUND_TYPES").is_some() {
            report_stop(&sc, &e.to_string(), name);
        }
        return None;
    }
    let mut filled = computed.to_vec();
    for rule in rules {
        filled[rule.head_rel] = true;
    }
    for r in g
        .true_tables
        .iter()
        .map(|x| x.1)
        .chain(g.true_all)
        .chain(g.does)
    {
        filled[r] = true;
    }
    Some(projections(&sc, &filled))
}

/// Makes the fluent `f` true: adds it to the `true` table that reads it.
fn add_fluent(g: &Roles, sc: &mut Grounder<'_>, f: TermId) {
    let key = (sc.store.functor(f), sc.store.arity(f) as u32);
    if let Some(&(_, t)) = g.true_tables.iter().find(|(k, _)| *k == key) {
        let args: Vec<TermId> = sc.store.args_of(f).to_vec();
        sc.add(t, &args);
    }
    if let Some(t) = g.true_all {
        sc.add(t, &[f]);
    }
}

/// A diagnostic (`GDLKIT_GROUND_TYPES`): why there are no filters, and the
/// largest relations of the stopped fixpoint.
fn report_stop(sc: &Grounder<'_>, e: &str, name: &dyn Fn(RelId) -> String) {
    eprintln!("types: no filters, the value rules' fixpoint stopped: {e}");
    let mut sizes: Vec<(usize, RelId)> = sc
        .rels
        .iter()
        .enumerate()
        .map(|(r, x)| (x.rows.len(), r))
        .collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    for &(n, r) in sizes.iter().take(8) {
        eprintln!("types:   {} {n}", name(r));
    }
}
