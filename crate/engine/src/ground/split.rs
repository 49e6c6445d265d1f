//! The end tests a game could leave to the interpreter: `program` without
//! its `goal` rules, or without `terminal` and `goal`, and the relations
//! only they need. The hybrid engine (`engine/hybrid.rs`) grounds such a
//! rest when the whole game would not ground; the ground report shows it.

use super::estimate;
use super::Budget;
use crate::deps::{DepGraph, RelId};
use crate::program::Program;
use crate::reasoner::{Interpreter, StateMachine};
use crate::terms::{kw, Sym};

/// A rest of a game: the program without its end tests, and its
/// interpreter (compiled once, for the estimate and the report).
pub struct Rest {
    /// `terminal` is left to the interpreter too (else only `goal`).
    pub terminal: bool,
    pub program: Program,
    pub interpreter: Interpreter,
}

/// The first rest, leaving `goal` and then `terminal` and `goal` to the
/// interpreter, whose size estimate is within `budget`.
pub fn rest_within(program: &Program, budget: &Budget) -> Option<Rest> {
    [false, true].into_iter().find_map(|terminal| {
        let rest = split(program, dropped(terminal))?;
        let it = Interpreter::new(&rest).ok()?;
        let e = estimate::estimate(&rest, it.compiled(), it.terms());
        (!e.refuses(budget)).then_some(Rest {
            terminal,
            program: rest,
            interpreter: it,
        })
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
/// relations only they need (the facts and rules every other keyword
/// reaches stay); `None` when another keyword needs a dropped one (a
/// `legal` that reads `terminal`): its rules must stay.
pub fn split(program: &Program, drop: &[Sym]) -> Option<Program> {
    let g = DepGraph::build(program);
    let sees = program.sees_sym();
    let kept = |r: RelId| {
        let s = g.rels[r].sym;
        (kw::is_gdl_keyword(s) || Some(s) == sees) && !drop.contains(&s)
    };
    let roots: Vec<RelId> = (0..g.rels.len()).filter(|&r| kept(r)).collect();
    let needed = g.closure(&roots);
    if (0..g.rels.len()).any(|r| needed[r] && drop.contains(&g.rels[r].sym)) {
        return None;
    }
    let mut out = program.clone();
    out.rules.retain(|r| {
        g.id_of(r.head.rel, r.head.arity())
            .is_some_and(|id| needed[id])
    });
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "(role p) (init (at 1)) (succ 1 2) (succ 2 3) \
        (<= (legal p go) (true (at ?x))) \
        (<= (next (at ?y)) (true (at ?x)) (succ ?x ?y)) \
        (<= terminal (true (at 3))) \
        (<= (goal p 100) (true (at 3)) (big 1)) (<= (goal p 0) (not (true (at 3)))) \
        (big 1)";

    fn heads(p: &Program) -> Vec<String> {
        p.rules
            .iter()
            .map(|r| p.symbols.name(r.head.rel).to_string())
            .collect()
    }

    /// Dropping `goal` drops the relations only it needs, keeps the rest.
    #[test]
    fn a_split_keeps_what_the_other_keywords_need() {
        let program = crate::parse_program(GAME);
        let rest = split(&program, dropped(false)).expect("a rest");
        let h = heads(&rest);
        assert!(!h.iter().any(|n| n == "goal" || n == "big"), "{h:?}");
        for kept in ["role", "init", "succ", "legal", "next", "terminal"] {
            assert!(h.iter().any(|n| n == kept), "{kept}: {h:?}");
        }
        let rest = split(&program, dropped(true)).expect("a rest");
        assert!(!heads(&rest).iter().any(|n| n == "terminal"));
    }

    /// A `legal` that reads `terminal` needs its rules: no rest drops them.
    #[test]
    fn a_keyword_another_needs_is_not_dropped() {
        let program = crate::parse_program(&format!("{GAME} (<= (legal p wait) terminal)"));
        assert!(split(&program, dropped(true)).is_none());
        assert!(split(&program, dropped(false)).is_some());
    }
}
