//! Dependencies: stratified negation (GDL030, judged on the rule graph by
//! unification, as tabled Prolog and the reference reasoner do) and the
//! keyword dependencies the GDL forbids (GDL041, GDL045, GDL046, on the
//! relation graph).

use super::Ctx;
use crate::deps::{Edge, RelId};
use crate::diagnostic::{Diagnostic, Span};
use crate::terms::{kw, Sym};
use std::collections::VecDeque;

pub(super) fn check(cx: &mut Ctx) {
    negative_cycles(cx);
    forbidden(
        cx,
        &[kw::INIT],
        &[kw::TRUE, kw::DOES, kw::NEXT, kw::LEGAL, kw::GOAL, kw::TERMINAL],
        "GDL041",
        "the initial state is fixed: `init` may only use relations that do not depend on a state or on moves",
    );
    forbidden(
        cx,
        &[kw::LEGAL, kw::GOAL, kw::TERMINAL],
        &[kw::DOES],
        "GDL045",
        "legality, goals and termination depend on the state only, not on the moves being made; use `does` in `next` rules",
    );
    forbidden(
        cx,
        &[kw::BASE, kw::INPUT],
        &[kw::TRUE, kw::DOES],
        "GDL046",
        "`base` and `input` list every possible fluent and move: they must not depend on a state or on moves",
    );
}

fn rule_head_name<'c>(cx: &'c Ctx, node: usize) -> &'c str {
    cx.name(cx.p.rules[cx.rg.rules[node]].head.rel)
}

/// One error per `not` literal that closes a cycle through negation, naming
/// the cycle (`p -> not q -> p`) with a related span for each further edge.
fn negative_cycles(cx: &mut Ctx) {
    let rg = &cx.rg;
    let mut seen: Vec<Span> = Vec::new();
    let mut found = Vec::new();
    for e in rg.negative_cycle_edges() {
        if seen.contains(&e.span) {
            continue;
        }
        seen.push(e.span);
        // Shortest path back from the negated rule to the rule using it,
        // inside their component.
        let scc = rg.scc_of[e.from];
        let mut prev = vec![None; rg.rules.len()];
        let mut queue = VecDeque::from([e.to]);
        let mut reached = e.to == e.from;
        let mut visited = vec![false; rg.rules.len()];
        visited[e.to] = true;
        while let Some(v) = queue.pop_front() {
            if v == e.from {
                reached = true;
                break;
            }
            for x in &rg.edges[v] {
                if rg.scc_of[x.to] == scc && !visited[x.to] {
                    visited[x.to] = true;
                    prev[x.to] = Some(*x);
                    queue.push_back(x.to);
                }
            }
        }
        let mut path = Vec::new();
        if reached {
            let mut cur = e.from;
            while cur != e.to {
                let Some(x) = prev[cur] else { break };
                path.push(x);
                cur = x.from;
            }
            path.reverse();
        }
        found.push((e, path));
    }
    for (e, path) in found {
        let head = rule_head_name(cx, e.from).to_string();
        let mut cycle = format!("{head} -> not {}", rule_head_name(cx, e.to));
        for x in &path {
            cycle.push_str(if x.negative { " -> not " } else { " -> " });
            cycle.push_str(rule_head_name(cx, x.to));
        }
        let mut d = Diagnostic::error(
            "GDL030",
            e.span,
            format!("unstratified negation: `{head}` depends on its own negation ({cycle})"),
        )
        .with_hint("GDL requires stratified negation: no relation may depend on its own negation; break this cycle");
        for x in &path {
            let (from, to) = (rule_head_name(cx, x.from), rule_head_name(cx, x.to));
            let how = if x.negative { "the negation of " } else { "" };
            d = d.with_related(x.span, format!("`{from}` depends on {how}`{to}` here"));
        }
        cx.push(d);
    }
}

/// Which relations reach a target relation (transitively, through any
/// literal, positive or negative).
fn reaching(cx: &Ctx, targets: &[Sym]) -> Vec<bool> {
    let g = &cx.g;
    let is_target = |r: RelId| targets.contains(&g.rels[r].sym);
    let mut reach = vec![false; g.rels.len()];
    // Components come dependencies first.
    for comp in &g.sccs {
        let any = comp.iter().any(|&m| {
            is_target(m)
                || g.edges[m]
                    .iter()
                    .any(|e| reach[e.body] || is_target(e.body))
        });
        for &m in comp {
            reach[m] = any;
        }
    }
    reach
}

/// Shortest relation path from `from` to some target.
fn path_to_target(cx: &Ctx, from: RelId, targets: &[Sym]) -> Vec<Edge> {
    let g = &cx.g;
    let mut prev: Vec<Option<Edge>> = vec![None; g.rels.len()];
    let mut seen = vec![false; g.rels.len()];
    let mut queue = VecDeque::from([from]);
    seen[from] = true;
    while let Some(v) = queue.pop_front() {
        if targets.contains(&g.rels[v].sym) {
            let mut path = Vec::new();
            let mut cur = v;
            while cur != from {
                let Some(e) = prev[cur] else { break };
                path.push(e);
                cur = e.head;
            }
            path.reverse();
            return path;
        }
        for e in &g.edges[v] {
            if !seen[e.body] {
                seen[e.body] = true;
                prev[e.body] = Some(*e);
                queue.push_back(e.body);
            }
        }
    }
    Vec::new()
}

/// Rules for the relations `heads` must not depend on `targets`: one error
/// per rule, at its first literal leading there, with the path.
fn forbidden(cx: &mut Ctx, heads: &[Sym], targets: &[Sym], code: &'static str, hint: &str) {
    let p = cx.p;
    let g = &cx.g;
    if !g.rels.iter().any(|k| targets.contains(&k.sym)) {
        return;
    }
    let reach = reaching(cx, targets);
    let mut out = Vec::new();
    for (ri, rule) in p.rules.iter().enumerate() {
        if !heads.contains(&rule.head.rel) || rule.body.is_empty() {
            continue;
        }
        let Some(h) = g.id_of(rule.head.rel, rule.head.arity()) else {
            continue;
        };
        // This rule's own edges, in source order.
        let mut first: Option<Edge> = None;
        for e in g.edges[h].iter().filter(|e| e.rule == ri && reach[e.body]) {
            if first.is_none_or(|f| e.span.start < f.span.start) {
                first = Some(*e);
            }
        }
        let Some(e) = first else { continue };
        let path = path_to_target(cx, e.body, targets);
        let target = path.last().map(|x| x.body).unwrap_or(e.body);
        let (hname, tname) = (cx.name(rule.head.rel), cx.name(g.rels[target].sym));
        let mut chain = format!(
            "{hname} -> {}{}",
            if e.negative { "not " } else { "" },
            cx.name(g.rels[e.body].sym)
        );
        for x in &path {
            chain.push_str(if x.negative { " -> not " } else { " -> " });
            chain.push_str(cx.name(g.rels[x.body].sym));
        }
        let mut d = Diagnostic::error(
            code,
            e.span,
            format!("`{hname}` must not depend on `{tname}` ({chain})"),
        )
        .with_hint(hint);
        for x in &path {
            let (a, b) = (cx.name(g.rels[x.head].sym), cx.name(g.rels[x.body].sym));
            d = d.with_related(x.span, format!("`{a}` uses `{b}` here"));
        }
        out.push(d);
    }
    cx.out.extend(out);
}
