//! The static validator: every GDL restriction as a diagnostic.
//!
//! [`check`] runs every check on a lowered [`Program`] and returns all
//! diagnostics (not just the first). One submodule per family of checks:
//!
//! | module | codes | what |
//! |---|---|---|
//! | `forms` | GDL012, GDL031, GDL040, GDL042–GDL048, GDL107, GDL108, GDL111 | keyword placement and arity, connectives, `(f)`, `or` shape |
//! | `safety` | GDL020, GDL021, GDL050 | safety, the recursion restriction, `or` expansion size |
//! | `strata` | GDL030, GDL041, GDL045, GDL046 | negative cycles (rule graph) and forbidden dependencies (relation graph) |
//! | `essentials` | GDL060–GDL063, GDL070, GDL110, GDL112 | roles, `init`, `terminal`, `legal`, `goal`, goal values |
//! | `names` | GDL100–GDL106, GDL109 | arities, undefined/unused relations (with "did you mean"), spelling, characters, duplicates |
//! | `gdl2` | GDL080–GDL082, GDL113 | GDL-II: `sees` placement, arity and role; goals of `random` |
//!
//! Errors have codes `GDL0xx`, warnings `GDL1xx`; every code is documented
//! with an example in `docs/diagnostics.md`. [`check_source`] adds the
//! checks that need the source text (spelling) and is what
//! [`crate::check_text`] uses.
//!
//! Checks that judge the program as a whole (missing `role`, relations never
//! defined or never used) are skipped while the text has syntax or lowering
//! errors: forms that could not be read would make them report nonsense.

mod essentials;
mod forms;
mod gdl2;
mod names;
mod safety;
mod strata;

use crate::deps::{DepGraph, RuleGraph};
use crate::diagnostic::{has_errors, Diagnostic};
use crate::program::{Atom, Literal, Program, Term};
use crate::terms::Sym;

/// Runs every program-level check. Does not include the program's own
/// syntax and lowering diagnostics (`program.diagnostics`).
pub fn check(program: &Program) -> Vec<Diagnostic> {
    let mut cx = Ctx::new(program);
    cx.run();
    cx.finish()
}

/// [`check`] plus the checks that read the source text (inconsistent
/// spelling of one symbol), for a program lowered from `text`.
pub fn check_source(text: &str, program: &Program) -> Vec<Diagnostic> {
    let mut cx = Ctx::new(program);
    cx.run();
    names::spelling(&mut cx, text);
    cx.finish()
}

/// Shared state of one validation run.
pub(crate) struct Ctx<'a> {
    pub p: &'a Program,
    pub g: DepGraph,
    pub rg: RuleGraph,
    pub out: Vec<Diagnostic>,
    /// The program was read without syntax or lowering errors, so checks of
    /// the whole program (missing or unused definitions) are meaningful.
    pub complete: bool,
}

impl<'a> Ctx<'a> {
    fn new(p: &'a Program) -> Ctx<'a> {
        let g = DepGraph::build(p);
        let rg = RuleGraph::build(p, &g);
        Ctx {
            p,
            g,
            rg,
            out: Vec::new(),
            complete: !has_errors(&p.diagnostics),
        }
    }

    fn run(&mut self) {
        forms::check(self);
        safety::check(self);
        strata::check(self);
        essentials::check(self);
        names::check(self);
        gdl2::check(self);
    }

    fn finish(mut self) -> Vec<Diagnostic> {
        sort(&mut self.out);
        self.out
    }

    /// The name of a symbol as first written in the source.
    pub fn name(&self, s: Sym) -> &str {
        self.p.symbols.spelling(s)
    }

    pub fn push(&mut self, d: Diagnostic) {
        self.out.push(d);
    }
}

/// Sorts diagnostics by position (then code), the order every consumer shows.
pub fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by(|a, b| {
        (a.span.start, a.span.end, a.code).cmp(&(b.span.start, b.span.end, b.code))
    });
}

/// Calls `f` on every atom of a body, with whether it is negated, through
/// `or`, `and` and `not`.
pub(crate) fn for_each_atom<'a>(body: &'a [Literal], f: &mut impl FnMut(&'a Atom, bool)) {
    fn go<'a>(l: &'a Literal, neg: bool, f: &mut impl FnMut(&'a Atom, bool)) {
        match l {
            Literal::Pos(a) => f(a, neg),
            Literal::Not(inner, _) => go(inner, true, f),
            Literal::Distinct(..) => {}
            Literal::Or(ds, _) => ds.iter().flatten().for_each(|x| go(x, neg, f)),
        }
    }
    body.iter().for_each(|l| go(l, false, f));
}

/// Calls `f` on every term (and every subterm) of an atom.
pub(crate) fn for_each_subterm<'a>(t: &'a Term, f: &mut impl FnMut(&'a Term)) {
    // Terms nest at most `syntax::MAX_DEPTH` deep; an explicit stack anyway.
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        f(t);
        if let Term::App { args, .. } = t {
            stack.extend(args.iter().rev());
        }
    }
}

/// Calls `f` on every term of a literal (including those of `distinct`).
pub(crate) fn for_each_literal_term<'a>(l: &'a Literal, f: &mut impl FnMut(&'a Term)) {
    match l {
        Literal::Pos(a) => a.args.iter().for_each(|t| for_each_subterm(t, f)),
        Literal::Not(inner, _) => for_each_literal_term(inner, f),
        Literal::Distinct(a, b, _) => {
            for_each_subterm(a, f);
            for_each_subterm(b, f);
        }
        Literal::Or(ds, _) => ds
            .iter()
            .flatten()
            .for_each(|x| for_each_literal_term(x, f)),
    }
}

/// Damerau–Levenshtein distance (optimal string alignment), on chars, with
/// an early exit once it exceeds `max` (returns `max + 1` then).
pub(crate) fn edit_distance(a: &str, b: &str, max: usize) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > max {
        return max + 1;
    }
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for (j, x) in d.iter_mut().take(w).enumerate() {
        *x = j;
    }
    for i in 1..=a.len() {
        d[i * w] = i;
        let mut row_min = usize::MAX;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return max + 1;
        }
    }
    d[a.len() * w + b.len()].min(max + 1)
}

/// How many edits still count as a near name ("did you mean").
pub(crate) fn near_limit(name: &str) -> usize {
    match name.chars().count() {
        0..=2 => 0,
        3..=5 => 1,
        6..=10 => 2,
        _ => 3,
    }
}

/// "1 argument", "3 arguments".
pub(crate) fn args(n: usize) -> String {
    format!("{n} argument{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests;
