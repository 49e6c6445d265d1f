//! Factoring a shared literal out of an OR of ANDs (a compile-time pass
//! over the network, like those in `passes.rs`): `(c ∧ a1) ∨ (c ∧ a2) ∨ …`
//! becomes `c ∧ X` with `X = a1 ∨ a2 ∨ …`, a new OR gate.
//!
//! Bucket elimination makes such gates from frame axioms with a disjunction
//! in the body: ticTacToe's `next (cell ?m ?n b)` holds when the cell is
//! blank and some move is in another row, or in another column, one AND of
//! `(true (cell ?m ?n b))` with each "some move in row/column j" OR. Each
//! move then switched ~12 of those ANDs off and ~12 on. Factored, the
//! moves feed `X` only, and `X` is an OR over (ORs over) `does` inputs,
//! which [`super::passes::complement_ors`] rewrites to be touched only by
//! the moves on the cell.

use super::network::{Network, LEAF, NONE};

/// Factors every OR gate (outside cycles) whose inputs are at least two
/// AND gates, each with no other successor, no hook, not the terminal or a
/// goal node, all sharing one input literal `c`, when `X` is an OR over at
/// least 16 `does` inputs (directly or through ORs over inputs only: what
/// `complement_ors` rewrites). The OR keeps its node (and hooks) and
/// becomes the AND `c ∧ X`; an AND left with one positive input is replaced
/// by that input. Returns the number of ORs factored.
///
/// Only for such `X`: elsewhere factoring measured worse (chess_200 2x the
/// instructions per playout): where `c` is mostly false, the ANDs kept
/// changes of the `a_i` from propagating, `X` does not.
pub(super) fn factor_ors(net: &mut Network, keep: &[bool], is_input: &[bool]) -> usize {
    let n = net.len();
    if !any_or_of_ands(net) {
        return 0;
    }
    let mut out: Vec<Vec<u32>> = (0..n)
        .map(|v| net.out[net.out_start[v] as usize..net.out_start[v + 1] as usize].to_vec())
        .collect();
    // Inputs of each node, `source << 1 | negated`.
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (v, outs) in out.iter().enumerate() {
        for &e in outs {
            preds[(e >> 1) as usize].push((v as u32) << 1 | (e & 1));
        }
    }
    // New OR gates, each placed before its factored gate in `topo`.
    let mut before: Vec<u32> = vec![NONE; n];
    let mut factored = 0;
    for g in 0..n {
        let Some(c) = shared_literal(net, &out, &preds, g, keep, n) else {
            continue;
        };
        if !over_many_inputs(net, &preds, &preds[g], c, is_input) {
            continue;
        }
        before[g] = factor(net, &mut out, &mut preds, g, c);
        factored += 1;
    }
    if factored == 0 {
        return 0;
    }
    store(net, &out, &before);
    factored
}

/// The literal shared by all the inputs of `g`, if `g` is an OR (outside
/// cycles) of at least two ANDs that may be factored (among the first `n`
/// nodes, none kept, hooked or in a cycle, each feeding only `g`).
fn shared_literal(
    net: &Network,
    out: &[Vec<u32>],
    preds: &[Vec<u32>],
    g: usize,
    keep: &[bool],
    n: usize,
) -> Option<u32> {
    if net.thr[g] != 1 || net.scc[g] != NONE || preds[g].len() < 2 {
        return None;
    }
    let hooked = |net: &Network, v: usize| net.hook_start[v] != net.hook_start[v + 1];
    let and = |a: usize| {
        a < n
            && !keep[a]
            && net.thr[a] != LEAF
            && net.thr[a] >= 2
            && net.scc[a] == NONE
            && !hooked(net, a)
            && out[a].len() == 1
            && net.thr[a] as usize == preds[a].len()
    };
    if !preds[g]
        .iter()
        .all(|&p| p & 1 == 0 && and((p >> 1) as usize))
    {
        return None;
    }
    let first = (preds[g][0] >> 1) as usize;
    preds[first].iter().copied().find(|&l| {
        preds[g]
            .iter()
            .all(|&p| preds[(p >> 1) as usize].contains(&l))
    })
}

/// Rewrites the OR `g` of ANDs sharing `c` into `c ∧ X`; returns the new
/// OR gate `X`.
fn factor(
    net: &mut Network,
    out: &mut Vec<Vec<u32>>,
    preds: &mut Vec<Vec<u32>>,
    g: usize,
    c: u32,
) -> u32 {
    let x = net.thr.len();
    net.thr.push(1);
    net.scc.push(NONE);
    out.push(Vec::new());
    preds.push(Vec::new());
    for p in std::mem::take(&mut preds[g]) {
        let a = (p >> 1) as usize;
        remove(&mut out[(c >> 1) as usize], (a as u32) << 1 | (c & 1));
        remove(&mut preds[a], c);
        net.thr[a] -= 1;
        if let [s] = preds[a][..] {
            if net.thr[a] == 1 && s & 1 == 0 {
                // A buffer: its input feeds X directly.
                let s = (s >> 1) as usize;
                remove(&mut out[s], (a as u32) << 1);
                if !preds[x].contains(&((s as u32) << 1)) {
                    out[s].push((x as u32) << 1);
                    preds[x].push((s as u32) << 1);
                }
                net.thr[a] = LEAF;
                preds[a].clear();
                out[a].clear();
                continue;
            }
        }
        out[a] = vec![(x as u32) << 1];
        preds[x].push((a as u32) << 1);
    }
    out[(c >> 1) as usize].push((g as u32) << 1 | (c & 1));
    out[x].push((g as u32) << 1);
    preds[g] = vec![c, (x as u32) << 1];
    net.thr[g] = 2;
    x as u32
}

/// Stores the successor lists `out` in `net`, and the new gates in its
/// topological order (each `before[g]` just before `g`).
fn store(net: &mut Network, out: &[Vec<u32>], before: &[u32]) {
    let total = net.thr.len();
    let mut topo = Vec::with_capacity(total);
    for &v in &net.topo {
        if before[v as usize] != NONE {
            topo.push(before[v as usize]);
        }
        topo.push(v);
    }
    net.topo = topo;
    let last = *net.hook_start.last().expect("one entry");
    net.hook_start.resize(total + 1, last);
    net.out.clear();
    net.out_start = vec![0; total + 1];
    for (v, outs) in out.iter().enumerate() {
        net.out.extend_from_slice(outs);
        net.out_start[v + 1] = net.out.len() as u32;
    }
}

/// Removes one occurrence of `x` from `list`.
fn remove(list: &mut Vec<u32>, x: u32) {
    let at = list.iter().position(|&y| y == x).expect("edge present");
    list.swap_remove(at);
}

/// Whether the ANDs `ands` less their shared literal `c` are each one
/// positive `does` input or OR over such inputs, reaching at least 16
/// inputs in all.
fn over_many_inputs(
    net: &Network,
    preds: &[Vec<u32>],
    ands: &[u32],
    c: u32,
    is_input: &[bool],
) -> bool {
    let mut reached: Vec<u32> = Vec::new();
    for &p in ands {
        let a = (p >> 1) as usize;
        let [l] = preds[a]
            .iter()
            .filter(|&&l| l != c)
            .copied()
            .collect::<Vec<_>>()[..]
        else {
            return false;
        };
        let u = (l >> 1) as usize;
        // (An OR factored before, `u >= is_input.len()`, has no hook range
        // yet: never an input.)
        if l & 1 == 1 || u >= is_input.len() {
            return false;
        }
        if is_input[u] {
            reached.push(u as u32);
        } else if net.thr[u] == 1
            && net.scc[u] == NONE
            && net.hook_start[u] == net.hook_start[u + 1]
            && preds[u]
                .iter()
                .all(|&q| q & 1 == 0 && is_input[(q >> 1) as usize])
        {
            reached.extend(preds[u].iter().map(|&q| q >> 1));
        } else {
            return false;
        }
    }
    reached.sort_unstable();
    reached.dedup();
    reached.len() >= 16
}

/// Whether some OR gate has only AND gates with one successor as inputs
/// (a cheap test before the pass builds its per-node lists).
fn any_or_of_ands(net: &Network) -> bool {
    let n = net.len();
    let mut indeg = vec![0u32; n];
    let mut bad = vec![false; n];
    for v in 0..n {
        let outs = &net.out[net.out_start[v] as usize..net.out_start[v + 1] as usize];
        let single_and = net.thr[v] != LEAF && net.thr[v] >= 2 && outs.len() == 1;
        for &e in outs {
            let t = (e >> 1) as usize;
            indeg[t] += 1;
            bad[t] |= e & 1 == 1 || !single_and;
        }
    }
    (0..n).any(|g| net.thr[g] == 1 && net.scc[g] == NONE && indeg[g] >= 2 && !bad[g])
}
