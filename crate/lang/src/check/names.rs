//! Names: arities (GDL100, GDL101), relations that are also functions
//! (GDL102), relations used but never defined (GDL103, with "did you
//! mean"), defined but never used (GDL104), inconsistent spelling of one
//! symbol (GDL105), unusual characters (GDL106) and duplicate rules (GDL109).

use super::{
    args, edit_distance, for_each_atom, for_each_literal_term, for_each_subterm, near_limit, Ctx,
};
use crate::diagnostic::{Diagnostic, Edit, Span};
use crate::program::{Atom, Literal, Rule, Term};
use crate::terms::{kw, Sym};
use rustc_hash::FxHashMap;

/// Every name occurrence of a program, in source order per kind.
#[derive(Default)]
struct Occurrences {
    /// (relation, arity) → head name spans.
    defs: FxHashMap<(Sym, usize), Vec<Span>>,
    /// (relation, arity) → body name spans.
    uses: FxHashMap<(Sym, usize), Vec<Span>>,
    /// (functor, arity ≥ 1) → first span; constants are arity 0.
    functions: FxHashMap<(Sym, usize), Span>,
    /// Symbols in first-occurrence order, with that span.
    first: FxHashMap<Sym, Span>,
}

fn collect(cx: &Ctx) -> Occurrences {
    let mut o = Occurrences::default();
    let term = |o: &mut Occurrences, t: &Term| match t {
        Term::Const(s, span) => {
            o.functions.entry((*s, 0)).or_insert(*span);
            o.first.entry(*s).or_insert(*span);
        }
        Term::App {
            functor,
            args,
            name_span,
            ..
        } => {
            o.functions
                .entry((*functor, args.len()))
                .or_insert(*name_span);
            o.first.entry(*functor).or_insert(*name_span);
        }
        Term::Var(..) => {}
    };
    for rule in &cx.p.rules {
        let h = &rule.head;
        o.defs
            .entry((h.rel, h.arity()))
            .or_default()
            .push(h.name_span);
        o.first.entry(h.rel).or_insert(h.name_span);
        for t in &h.args {
            for_each_subterm(t, &mut |t| term(&mut o, t));
        }
        for_each_atom(&rule.body, &mut |a: &Atom, _| {
            o.uses
                .entry((a.rel, a.arity()))
                .or_default()
                .push(a.name_span);
            o.first.entry(a.rel).or_insert(a.name_span);
        });
        for l in &rule.body {
            for_each_literal_term(l, &mut |t| term(&mut o, t));
        }
    }
    o
}

pub(super) fn check(cx: &mut Ctx) {
    let o = collect(cx);
    relation_arities(cx, &o);
    function_arities(cx, &o);
    relation_and_function(cx, &o);
    if cx.complete {
        undefined(cx, &o);
        unused(cx, &o);
    }
    characters(cx, &o);
    duplicates(cx);
}

/// Relations that the GDL defines (`true`, `does`) or whose absence has its
/// own diagnostic: never "undefined" or "unused".
fn is_given(s: Sym) -> bool {
    kw::is_gdl_keyword(s)
}

fn min_span(spans: &[Span]) -> Span {
    spans.iter().copied().min().unwrap_or_default()
}

/// All arities a symbol is used with as a relation, with the first span of
/// each (definitions and uses), sorted by position.
fn relation_arities(cx: &mut Ctx, o: &Occurrences) {
    let mut by_sym: FxHashMap<Sym, Vec<(Span, usize)>> = FxHashMap::default();
    for (&(s, n), spans) in o.defs.iter().chain(o.uses.iter()) {
        if kw::is_gdl_keyword(s) || s.0 <= kw::ARROW.0 {
            continue; // fixed arities: GDL047
        }
        let v = by_sym.entry(s).or_default();
        let first = min_span(spans);
        match v.iter_mut().find(|(_, m)| *m == n) {
            Some(e) => e.0 = e.0.min(first),
            None => v.push((first, n)),
        }
    }
    let mut out = Vec::new();
    for (s, mut v) in by_sym {
        if v.len() < 2 {
            continue;
        }
        v.sort();
        let (first_span, first_n) = v[0];
        for &(span, n) in &v[1..] {
            // Used but never defined with this arity: GDL103 says it better.
            if cx.complete && !o.defs.contains_key(&(s, n)) && !is_given(s) {
                continue;
            }
            let name = cx.name(s);
            out.push(
                Diagnostic::warning(
                    "GDL100",
                    span,
                    format!("relation `{name}` is used with {} here and with {} elsewhere", args(n), args(first_n)),
                )
                .with_related(first_span, format!("`{name}` with {}", args(first_n)))
                .with_hint("a relation is identified by name and arity, so these are two different relations: use one arity or rename one"),
            );
        }
    }
    cx.out.extend(out);
}

/// Function symbols used with different numbers of arguments (constants
/// count as arity 0 only against other constants' uses as functions when
/// they are also used with arguments: `(a 1)` and `(a 2 3)`).
fn function_arities(cx: &mut Ctx, o: &Occurrences) {
    let mut by_sym: FxHashMap<Sym, Vec<(Span, usize)>> = FxHashMap::default();
    for (&(s, n), &span) in &o.functions {
        if n > 0 {
            by_sym.entry(s).or_default().push((span, n));
        }
    }
    let mut out = Vec::new();
    for (s, mut v) in by_sym {
        if v.len() < 2 {
            continue;
        }
        v.sort();
        let (first_span, first_n) = v[0];
        let name = cx.name(s);
        for &(span, n) in &v[1..] {
            out.push(
                Diagnostic::warning(
                    "GDL101",
                    span,
                    format!("function `{name}` is used with {} here and with {} elsewhere", args(n), args(first_n)),
                )
                .with_related(first_span, format!("`{name}` with {}", args(first_n)))
                .with_hint("terms with different numbers of arguments never match each other: use one arity or rename one"),
            );
        }
    }
    cx.out.extend(out);
}

/// A symbol used both as a relation and as a function with arguments.
fn relation_and_function(cx: &mut Ctx, o: &Occurrences) {
    let mut rel_first: FxHashMap<Sym, Span> = FxHashMap::default();
    for (&(s, _), spans) in o.defs.iter().chain(o.uses.iter()) {
        if s.0 <= kw::ARROW.0 {
            continue;
        }
        let e = rel_first
            .entry(s)
            .or_insert(Span::new(u32::MAX as usize, u32::MAX as usize));
        *e = (*e).min(min_span(spans));
    }
    let mut fun_first: FxHashMap<Sym, Span> = FxHashMap::default();
    for (&(s, n), &span) in &o.functions {
        if n > 0 && rel_first.contains_key(&s) {
            let e = fun_first.entry(s).or_insert(span);
            *e = (*e).min(span);
        }
    }
    let mut found: Vec<(Span, Sym)> = fun_first.iter().map(|(&s, &span)| (span, s)).collect();
    found.sort();
    for (span, s) in found {
        let name = cx.name(s).to_string();
        let d = Diagnostic::warning("GDL102", span, format!("`{name}` is used both as a relation and as a function"))
            .with_related(rel_first[&s], format!("`{name}` as a relation"))
            .with_hint(format!("this is legal but confusing: the term `({name} ...)` and the relation `{name}` are unrelated; rename one"));
        cx.push(d);
    }
}

/// Relations used in a body but defined by no rule or fact.
fn undefined(cx: &mut Ctx, o: &Occurrences) {
    let mut found: Vec<(Span, Sym, usize, usize)> = Vec::new();
    let sees = cx.p.sees_sym();
    for (&(s, n), spans) in &o.uses {
        // `sees` in a body has its own error (GDL080).
        if is_given(s) || Some(s) == sees || s.0 <= kw::ARROW.0 || o.defs.contains_key(&(s, n)) {
            continue;
        }
        found.push((min_span(spans), s, n, spans.len()));
    }
    found.sort();
    let mut defined: Vec<(Sym, usize)> = o
        .defs
        .keys()
        .copied()
        .filter(|(s, _)| s.0 > kw::ARROW.0)
        .collect();
    defined.sort();
    for (span, s, n, count) in found {
        let name = cx.name(s).to_string();
        let message = format!(
            "relation `{name}` with {} is never defined, so it is always false",
            args(n)
        );
        let mut d = Diagnostic::warning("GDL103", span, message);
        // Same name, other arity.
        let other: Vec<usize> = defined
            .iter()
            .filter(|(t, _)| *t == s)
            .map(|(_, m)| *m)
            .collect();
        let hint = if let Some(&m) = other.first() {
            d = d.with_related(
                min_span(&o.defs[&(s, m)]),
                format!("`{name}` is defined with {} here", args(m)),
            );
            format!("`{name}` is defined with {}: check the arguments", args(m))
        } else {
            // Near names: defined relations (any arity), best first.
            let limit = near_limit(cx.p.symbols.name(s));
            let best = defined
                .iter()
                .filter(|(t, _)| *t != s)
                .map(|&(t, m)| {
                    (
                        edit_distance(cx.p.symbols.name(s), cx.p.symbols.name(t), limit),
                        m != n,
                        t,
                        m,
                    )
                })
                .filter(|x| x.0 <= limit)
                .min();
            match best {
                Some((_, _, t, m)) => {
                    let near = cx.name(t).to_string();
                    d = d.with_related(
                        min_span(&o.defs[&(t, m)]),
                        format!("`{near}` is defined here"),
                    );
                    if m == n {
                        // A guess: renaming every use to the near name.
                        let edits = o.uses[&(s, n)]
                            .iter()
                            .map(|&sp| Edit::replace(sp, near.clone()))
                            .collect();
                        d = d.with_suggestion(format!("Use `{near}`"), edits);
                    }
                    format!("did you mean `{near}`?")
                }
                None => format!("define `{name}` with a fact or a rule, or remove the literal"),
            }
        };
        if count > 1 {
            d.message.push_str(&format!(" (used {count} times)"));
        }
        cx.push(d.with_hint(hint));
    }
}

/// Relations defined but used by no rule body.
fn unused(cx: &mut Ctx, o: &Occurrences) {
    let mut found: Vec<(Span, Sym, usize)> = Vec::new();
    // GDL-II's `sees` is read by the game master, not by rules.
    let sees = cx.p.sees_sym();
    for (&(s, n), spans) in &o.defs {
        if is_given(s)
            || (Some(s) == sees && n == 2)
            || s.0 <= kw::ARROW.0
            || o.uses.contains_key(&(s, n))
        {
            continue;
        }
        found.push((min_span(spans), s, n));
    }
    found.sort();
    for (span, s, n) in found {
        let name = cx.name(s).to_string();
        let used_other: Vec<usize> = o
            .uses
            .keys()
            .filter(|(t, _)| *t == s)
            .map(|(_, m)| *m)
            .collect();
        let hint = match used_other.first() {
            Some(&m) => format!("`{name}` is used with {}: check the arguments", args(m)),
            None => "remove it, or use it in a rule: only relations that `legal`, `next`, `goal` or `terminal` use affect the game".to_string(),
        };
        cx.push(
            Diagnostic::warning(
                "GDL104",
                span,
                format!(
                    "relation `{name}` with {} is defined but never used",
                    args(n)
                ),
            )
            .with_hint(hint),
        );
    }
}

/// KIF words: letters, digits and `! $ % & * + - . / < = > ? @ _ ~`.
fn unusual_char(c: char) -> bool {
    !(c.is_ascii_alphanumeric() || "!$%&*+-./<=>?@_~".contains(c))
}

fn characters(cx: &mut Ctx, o: &Occurrences) {
    let mut found: Vec<(Span, Sym, char)> = Vec::new();
    for (&s, &span) in &o.first {
        if let Some(c) = cx.p.symbols.name(s).chars().find(|&c| unusual_char(c)) {
            found.push((span, s, c));
        }
    }
    // Variables, once per rule.
    let mut vars: Vec<(Span, String, char)> = Vec::new();
    for rule in &cx.p.rules {
        for (v, name) in rule.vars.iter().enumerate() {
            if let Some(c) = name.chars().find(|&c| unusual_char(c)) {
                let mut first = None;
                let mut note = |w: crate::program::VarId, s: Span| {
                    if w as usize == v && first.is_none_or(|f: Span| s < f) {
                        first = Some(s);
                    }
                };
                rule.head.for_each_var(&mut note);
                rule.body.iter().for_each(|l| l.for_each_var(&mut note));
                vars.push((first.unwrap_or(rule.span), format!("?{name}"), c));
            }
        }
    }
    found.sort();
    let shown = |c: char| {
        if c.is_control() || c.is_whitespace() {
            format!("U+{:04X}", c as u32)
        } else {
            format!("`{c}` (U+{:04X})", c as u32)
        }
    };
    for (span, name, c) in vars {
        cx.push(
            Diagnostic::warning("GDL106", span, format!("unusual character {} in the variable `{name}`", shown(c)))
                .with_hint("KIF names use letters, digits and `! $ % & * + - . / < = > ? @ _ ~`; other GDL readers may reject this name"),
        );
    }
    for (span, s, c) in found {
        let name = cx.name(s).to_string();
        cx.push(
            Diagnostic::warning("GDL106", span, format!("unusual character {} in the name `{name}`", shown(c)))
                .with_hint("KIF names use letters, digits and `! $ % & * + - . / < = > ? @ _ ~`; other GDL readers may reject this name"),
        );
    }
}

/// Rules equal up to variable names (facts included).
fn duplicates(cx: &mut Ctx) {
    let mut seen: FxHashMap<Vec<u32>, usize> = FxHashMap::default();
    let mut out = Vec::new();
    for (i, rule) in cx.p.rules.iter().enumerate() {
        let key = encode_rule(rule);
        match seen.get(&key) {
            Some(&j) => {
                let what = if rule.body.is_empty() { "fact" } else { "rule" };
                out.push(
                    Diagnostic::warning(
                        "GDL109",
                        rule.span,
                        format!("duplicate {what}: the same {what} appears earlier"),
                    )
                    .with_related(cx.p.rules[j].span, "the first occurrence")
                    .with_hint(format!(
                        "remove this copy; a repeated {what} changes nothing"
                    ))
                    .with_fix("Remove the copy", vec![Edit::delete(rule.span)]),
                );
            }
            None => {
                seen.insert(key, i);
            }
        }
    }
    cx.out.extend(out);
}

/// A span-free encoding of a rule. Variables are numbered by first
/// occurrence during lowering, so equal encodings mean equal rules up to
/// renaming.
fn encode_rule(rule: &Rule) -> Vec<u32> {
    let mut k = Vec::with_capacity(16);
    encode_atom(&rule.head, &mut k);
    for l in &rule.body {
        encode_literal(l, &mut k);
    }
    k
}

const TAG_VAR: u32 = u32::MAX;
const TAG_APP: u32 = u32::MAX - 1;
const TAG_NOT: u32 = u32::MAX - 2;
const TAG_DISTINCT: u32 = u32::MAX - 3;
const TAG_OR: u32 = u32::MAX - 4;
const TAG_END: u32 = u32::MAX - 5;

fn encode_atom(a: &Atom, k: &mut Vec<u32>) {
    k.push(a.rel.0);
    k.push(a.args.len() as u32);
    for t in &a.args {
        encode_term(t, k);
    }
}

fn encode_term(t: &Term, k: &mut Vec<u32>) {
    for_each_subterm(t, &mut |t| match t {
        Term::Var(v, _) => k.extend([TAG_VAR, u32::from(*v)]),
        Term::Const(s, _) => k.push(s.0),
        // `(f)` is the constant `f`.
        Term::App { functor, args, .. } if args.is_empty() => k.push(functor.0),
        Term::App { functor, args, .. } => k.extend([TAG_APP, functor.0, args.len() as u32]),
    });
}

fn encode_literal(l: &Literal, k: &mut Vec<u32>) {
    match l {
        Literal::Pos(a) => encode_atom(a, k),
        Literal::Not(inner, _) => {
            k.push(TAG_NOT);
            encode_literal(inner, k);
        }
        Literal::Distinct(a, b, _) => {
            k.push(TAG_DISTINCT);
            encode_term(a, k);
            encode_term(b, k);
        }
        Literal::Or(ds, _) => {
            k.extend([TAG_OR, ds.len() as u32]);
            for d in ds {
                k.push(d.len() as u32);
                for x in d {
                    encode_literal(x, k);
                }
            }
            k.push(TAG_END);
        }
    }
}

/// One symbol written with different capitalisation (`nextRank` and
/// `nextrank`): the same symbol in KIF, two symbols for case-sensitive
/// readers. One warning per other spelling, at its first occurrence.
pub(super) fn spelling(cx: &mut Ctx, text: &str) {
    // Per symbol: spellings in first-occurrence order, with count and first span.
    let mut spellings: FxHashMap<Sym, Vec<(&str, usize, Span)>> = FxHashMap::default();
    let mut note = |s: Sym, span: Span| {
        let Some(word) = text.get(span.range()) else {
            return;
        };
        let v = spellings.entry(s).or_default();
        match v.iter_mut().find(|(w, _, _)| *w == word) {
            Some(e) => e.1 += 1,
            None => v.push((word, 1, span)),
        }
    };
    let term = |t: &Term, note: &mut dyn FnMut(Sym, Span)| {
        for_each_subterm(t, &mut |t| match t {
            Term::Const(s, span) => note(*s, *span),
            Term::App {
                functor, name_span, ..
            } => note(*functor, *name_span),
            Term::Var(..) => {}
        })
    };
    let mut var_spellings: Vec<(String, Vec<(&str, Span)>)> = Vec::new();
    for rule in &cx.p.rules {
        note(rule.head.rel, rule.head.name_span);
        rule.head.args.iter().for_each(|t| term(t, &mut note));
        for_each_atom(&rule.body, &mut |a: &Atom, _| note(a.rel, a.name_span));
        for l in &rule.body {
            for_each_literal_term(l, &mut |t| term(t, &mut note));
        }
        // Variables of one rule.
        let mut vars: Vec<Vec<(&str, Span)>> = vec![Vec::new(); rule.vars.len()];
        let mut var = |v: crate::program::VarId, s: Span| {
            if let Some(word) = text.get(s.start as usize + 1..s.end as usize) {
                let e = &mut vars[v as usize];
                if !e.iter().any(|(w, _)| *w == word) {
                    e.push((word, s));
                }
            }
        };
        rule.head.for_each_var(&mut var);
        rule.body.iter().for_each(|l| l.for_each_var(&mut var));
        for (i, v) in vars.into_iter().enumerate() {
            if v.len() > 1 {
                var_spellings.push((rule.vars[i].clone(), v));
            }
        }
    }
    let mut out = Vec::new();
    for (s, mut v) in spellings {
        if v.len() < 2 {
            continue;
        }
        // The most frequent spelling is the reference (ties: the first).
        v.sort_by_key(|e| e.2);
        let main = (0..v.len())
            .max_by_key(|&i| (v[i].1, std::cmp::Reverse(i)))
            .unwrap_or(0);
        let (main_word, main_count, main_span) = v[main];
        for (i, &(word, count, span)) in v.iter().enumerate() {
            if i == main {
                continue;
            }
            let _ = s;
            out.push(
                Diagnostic::warning(
                    "GDL105",
                    span,
                    format!(
                        "`{word}` is written `{main_word}` elsewhere ({count} vs {main_count} time{})",
                        if main_count == 1 { "" } else { "s" }
                    ),
                )
                .with_related(main_span, format!("written `{main_word}` here"))
                .with_hint("KIF is case-insensitive, so both are one symbol, but case-sensitive readers (ggp-base) see two: use one spelling"),
            );
        }
    }
    for (_, v) in var_spellings {
        let (main_word, main_span) = v[0];
        for &(word, span) in &v[1..] {
            out.push(
                Diagnostic::warning(
                    "GDL105",
                    span,
                    format!("variable `?{word}` is written `?{main_word}` elsewhere in this rule"),
                )
                .with_related(main_span, format!("written `?{main_word}` here"))
                .with_hint(
                    "variables are case-insensitive, so both are one variable: use one spelling",
                ),
            );
        }
    }
    cx.out.extend(out);
}
