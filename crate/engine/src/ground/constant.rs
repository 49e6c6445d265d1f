//! Constant fluents: a fluent whose only `next` rules copy it unchanged
//! (`(<= (next (wall ?x ?y ?d)) (true (wall ?x ?y ?d)))`) holds in every
//! reachable state exactly when it holds initially. Its `true` table is then
//! a static relation with the initial fluents as rows: negations of it are
//! exact in the relaxed fixpoint (which otherwise ignores negations on
//! dynamic relations) and its literals are resolved when instantiating.
//!
//! mummymaze1p needs it: its moves are blocked by `(not (true (wall ...)))`,
//! and with the walls ignored the relaxed positions ran over every index of
//! the step counter (50) instead of the maze's 8 × 8 cells.

use crate::deps::RelId;
use crate::reasoner::compile::{Compiled, Lit, Pat};
use crate::terms::{kw, Sym, TermStore};

/// The `true` tables of constant fluents: copied by some `next` rule and
/// produced by no other (none if some rule reads whole fluents through
/// `(true ?x)`, or a `next` head is a variable).
pub fn tables(c: &Compiled, store: &TermStore) -> Vec<RelId> {
    let Some(next) = c.graph.id_of(kw::NEXT, 1) else {
        return Vec::new();
    };
    if c.true_all.is_some() {
        return Vec::new();
    }
    // Functors (with arity) some `next` produces other than by a copy.
    let mut changed: Vec<(Sym, u32)> = Vec::new();
    let mut copied: Vec<(Sym, u32)> = Vec::new();
    for (r, row) in &c.facts {
        if *r == next {
            changed.push((store.functor(row[0]), store.arity(row[0]) as u32));
        }
    }
    for rb in c.strata.iter().flat_map(|s| &s.rules) {
        if rb.head_rel != next {
            continue;
        }
        let key = match &rb.head[0] {
            Pat::Var(_) => return Vec::new(),
            Pat::Const(t) => (store.functor(*t), store.arity(*t) as u32),
            Pat::App(f, args) => (*f, args.len() as u32),
        };
        let table = c.true_tables.get(&key).copied();
        if rb.bodies.iter().all(|b| is_copy(&rb.head[0], b, table)) {
            copied.push(key);
        } else {
            changed.push(key);
        }
    }
    let mut out: Vec<RelId> = c
        .true_tables
        .iter()
        .filter(|(k, _)| copied.contains(k) && !changed.contains(k))
        .map(|(_, &t)| t)
        .collect();
    out.sort_unstable();
    out
}

/// Whether `body` is exactly `(true head)` with distinct variables.
fn is_copy(head: &Pat, body: &[Lit], table: Option<RelId>) -> bool {
    let (Pat::App(_, args), [Lit::Pos { rel, pats, .. }], Some(t)) = (head, body, table) else {
        // A constant fluent's copy `(next open) :- (true open)` reads a
        // table of arity 0.
        return matches!((head, body, table),
            (Pat::Const(_), [Lit::Pos { rel, pats, .. }], Some(t)) if *rel == t && pats.is_empty());
    };
    let mut seen = Vec::new();
    *rel == t
        && pats.len() == args.len()
        && pats.iter().zip(args.iter()).all(|(p, a)| match (p, a) {
            (Pat::Var(v), Pat::Var(w)) if v == w && !seen.contains(v) => {
                seen.push(*v);
                true
            }
            _ => false,
        })
}

#[cfg(test)]
mod tests {
    use super::super::{ground_program_with_strategy, rules::Strategy, Budget};
    use super::tables;
    use crate::reasoner::{Interpreter, StateMachine};

    const GAME: &str = include_str!("../../testdata/constant_fluent_game.kif");

    #[test]
    fn only_copied_fluents_are_constant() {
        let program = crate::parse_program(GAME);
        let it = Interpreter::new(&program).expect("valid");
        let c = it.compiled();
        let names: Vec<String> = tables(c, it.terms())
            .iter()
            .map(|&t| {
                let (&(f, _), _) = c.true_tables.iter().find(|(_, &r)| r == t).unwrap();
                it.terms().symbols.name(f).to_string()
            })
            .collect();
        // `at` and `step` change; `wall` is only copied.
        assert_eq!(names, vec!["wall"]);
    }

    #[test]
    fn constant_walls_keep_the_relaxed_positions_exact() {
        let program = crate::parse_program(GAME);
        let demand = Strategy {
            demand: true,
            project_first: true,
            ..Strategy::default()
        };
        let at = |strategy| {
            let gp = ground_program_with_strategy(&program, Budget::default(), strategy).unwrap();
            let mut at: Vec<String> = gp
                .fluents
                .iter()
                .map(|&f| gp.store.display(f))
                .filter(|f| f.starts_with("(at "))
                .collect();
            at.sort();
            at
        };
        // The wall at 3 stops every move.
        assert_eq!(at(demand), vec!["(at 1)", "(at 2)", "(at 3)"]);
        // The first strategy ignores the negated walls: (at 1) ... (at 20).
        assert_eq!(at(Strategy::default()).len(), 20);
    }
}
