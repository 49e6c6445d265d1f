//! The end tests a game could leave to the interpreter: `program` without
//! its `goal` rules, or without `terminal` and `goal`, and the relations
//! only they need. The hybrid engine (`engine/hybrid.rs`) grounds such a
//! rest when the whole game would not ground; the ground report shows it.

use super::estimate;
use super::Budget;
use crate::program::{Literal, Program};
use crate::reasoner::{Interpreter, StateMachine};
use crate::terms::{kw, Sym};
use rustc_hash::FxHashSet;

/// The first rest, leaving `goal` and then `terminal` and `goal` to the
/// interpreter, whose size estimate is within `budget`: whether
/// `terminal` is left too, and the rest.
pub fn rest_within(program: &Program, budget: &Budget) -> Option<(bool, Program)> {
    [false, true].into_iter().find_map(|terminal| {
        let rest = split(program, dropped(terminal));
        let it = Interpreter::new(&rest).ok()?;
        let e = estimate::estimate(&rest, it.compiled(), it.terms());
        (!e.refuses(budget)).then_some((terminal, rest))
    })
}

/// What the interpreter answers for a rest: `"goal"` or `"terminal and goal"`.
pub fn left_to_interpreter(terminal: bool) -> &'static str {
    if terminal {
        "terminal and goal"
    } else {
        "goal"
    }
}

/// The keywords left to the interpreter: `goal`, and `terminal` too.
pub fn dropped(terminal: bool) -> &'static [Sym] {
    if terminal {
        &[kw::TERMINAL, kw::GOAL]
    } else {
        &[kw::GOAL]
    }
}

/// `program` without the rules of the keywords in `drop` and of the
/// relations that only they need (the facts and rules every other keyword
/// reaches stay).
pub fn split(program: &Program, drop: &[Sym]) -> Program {
    let sees = program.sees_sym();
    let root = |rel: Sym| (kw::is_gdl_keyword(rel) || Some(rel) == sees) && !drop.contains(&rel);
    let mut needed: FxHashSet<Sym> = FxHashSet::default();
    let mut work: Vec<Sym> = Vec::new();
    for r in &program.rules {
        if root(r.head.rel) && needed.insert(r.head.rel) {
            work.push(r.head.rel);
        }
    }
    while let Some(rel) = work.pop() {
        for r in program.rules.iter().filter(|r| r.head.rel == rel) {
            for l in &r.body {
                body_relations(l, &mut |b| {
                    if !drop.contains(&b) && needed.insert(b) {
                        work.push(b);
                    }
                });
            }
        }
    }
    let mut out = program.clone();
    out.rules.retain(|r| needed.contains(&r.head.rel));
    out
}

fn body_relations(l: &Literal, f: &mut impl FnMut(Sym)) {
    match l {
        Literal::Pos(a) => f(a.rel),
        Literal::Not(l, _) => body_relations(l, f),
        Literal::Distinct(..) => {}
        Literal::Or(ds, _) => ds.iter().flatten().for_each(|l| body_relations(l, f)),
    }
}
