//! The propositional network: one gate per derived ground atom (an OR of its
//! rule instances) and per rule instance with several literals (an AND, or
//! "at least k" for a counting rule's, `count.rs`), base propositions (the
//! state) and input propositions (`does`) as leaves.
//!
//! Every gate is a threshold gate over counted inputs: it is true when at
//! least `thr` of its input literals are true (AND: all of them, OR: one); a
//! negated input counts when its source is false. That makes evaluation
//! differential: when a node changes, only the counts of its successors
//! change (see `engine.rs`). Buffers (a gate with one positive input) are
//! collapsed into their input, so `next (cell ...) :- true (cell ...)`
//! costs nothing.
//!
//! Recursive rules can make cycles; they are found as strongly connected
//! components and evaluated as a unit (least fixpoint) when an input of the
//! component changes. Negation inside a component cannot happen in a
//! stratified program; if it does, grounding fails and the interpreter runs
//! the game.

use super::instantiate::{AtomId, Instances};
use super::GroundError;

pub const FALSE: u32 = 0;
pub const TRUE: u32 = 1;
pub const NONE: u32 = u32::MAX;
/// Threshold of leaves (base and input propositions): set from outside.
pub const LEAF: u32 = u32::MAX;
/// Inputs a gate may have: the engine keeps a count in 24 bits
/// (`engine::OFFSET`). Far above any corpus game's widest gate.
pub const MAX_FAN_IN: usize = (1 << 23) - 1;

/// Hooks: what a node's change updates.
pub const HOOK_LEGAL: u32 = 1 << 30;
pub const HOOK_NEXT: u32 = 2 << 30;
pub const HOOK_MASK: u32 = (1 << 30) - 1;

/// A network in flat arrays, indices `u32`.
#[derive(Clone, Debug, Default)]
pub struct Network {
    pub thr: Vec<u32>,
    /// Successors of node `n`: `out[out_start[n]..out_start[n + 1]]`, each
    /// `target << 1 | negated`.
    pub out_start: Vec<u32>,
    pub out: Vec<u32>,
    /// Cyclic component of a node (`NONE` if it is in none); components are
    /// numbered in topological order.
    pub scc: Vec<u32>,
    pub scc_start: Vec<u32>,
    pub scc_members: Vec<u32>,
    /// Nodes in a topological order (a cyclic component's members together).
    pub topo: Vec<u32>,
    pub hook_start: Vec<u32>,
    pub hooks: Vec<u32>,
}

impl Network {
    pub fn len(&self) -> usize {
        self.thr.len()
    }
    pub fn is_empty(&self) -> bool {
        self.thr.is_empty()
    }
    pub fn bytes(&self) -> usize {
        (self.thr.len() * 4 + self.out_start.len() * 4 + self.out.len() * 4 + self.scc.len() * 4)
            + self.scc_members.len() * 4
            + self.topo.len() * 4
            + self.hook_start.len() * 4
            + self.hooks.len() * 4
            // Runtime: counts, values.
            + self.thr.len() * 5
    }
}

/// Inputs to the builder: what each atom is.
pub struct Leaves<'a> {
    /// Node of each base or input atom (`NONE` for others).
    pub leaf_of_atom: &'a [u32],
    /// Number of leaf nodes (numbered from 2, after FALSE and TRUE).
    pub num_leaves: usize,
}

/// Builds the network from rule instances. Returns it and the node of each
/// atom (derived atoms without instances and unknown atoms are `FALSE`).
pub fn build(
    num_atoms: usize,
    inst: &Instances,
    leaves: &Leaves<'_>,
    hooked_atoms: &[(AtomId, u32)],
) -> Result<(Network, Vec<u32>), GroundError> {
    let by_head = ByHead::of(num_atoms, inst);
    let (mut thr, node_of_atom) = atom_nodes(num_atoms, leaves, &by_head);
    let inputs = raw_inputs(inst, leaves, &by_head, &node_of_atom, &mut thr);
    let raw = thr.len();
    // Fold constants where it is easy: inputs that are TRUE/FALSE.
    // (An OR with a TRUE input is TRUE; an AND with a FALSE positive input is
    // FALSE.) Done lazily by the evaluation otherwise.
    let rep = collapse_buffers(&thr, &inputs);
    // Keep only representatives; renumber.
    let mut new_id = vec![NONE; raw];
    let mut nthr = Vec::new();
    for n in 0..raw {
        if rep[n] == n as u32 {
            new_id[n] = nthr.len() as u32;
            nthr.push(thr[n]);
        }
    }
    let map = |n: u32| new_id[rep[n as usize] as usize];
    let (out_deg, out) = successors(&inputs, &rep, &new_id, nthr.len());
    drop(inputs);
    let node_of_atom: Vec<u32> = node_of_atom.iter().map(|&n| map(n)).collect();
    let (hook_deg, hooks) = hook_lists(nthr.len(), hooked_atoms, &node_of_atom);
    let mut net = Network {
        thr: nthr,
        out_start: out_deg,
        out,
        hook_start: hook_deg,
        hooks,
        ..Network::default()
    };
    components(&mut net)?;
    Ok((net, node_of_atom))
}

/// Instances per head atom: atom `a`'s are `at[start[a]..start[a + 1]]`.
struct ByHead {
    start: Vec<u32>,
    at: Vec<u32>,
}

impl ByHead {
    fn of(num_atoms: usize, inst: &Instances) -> ByHead {
        let mut per_head = vec![0u32; num_atoms + 1];
        for &h in &inst.head {
            per_head[h as usize + 1] += 1;
        }
        for i in 0..num_atoms {
            per_head[i + 1] += per_head[i];
        }
        let mut by_head = vec![0u32; inst.len()];
        let mut fill = per_head.clone();
        for (i, &h) in inst.head.iter().enumerate() {
            by_head[fill[h as usize] as usize] = i as u32;
            fill[h as usize] += 1;
        }
        ByHead {
            start: per_head,
            at: by_head,
        }
    }
}

/// The first raw nodes (FALSE, TRUE, the leaves, one per derived atom) as
/// thresholds, and the node of each atom.
fn atom_nodes(num_atoms: usize, leaves: &Leaves<'_>, by_head: &ByHead) -> (Vec<u32>, Vec<u32>) {
    let per_head = &by_head.start;
    let mut thr: Vec<u32> = vec![1, 0];
    thr.extend(std::iter::repeat_n(LEAF, leaves.num_leaves));
    let mut node_of_atom: Vec<u32> = leaves.leaf_of_atom.to_vec();
    node_of_atom.resize(num_atoms, NONE);
    for a in 0..num_atoms {
        if node_of_atom[a] == NONE && per_head[a + 1] > per_head[a] {
            node_of_atom[a] = thr.len() as u32;
            thr.push(1);
        }
    }
    for n in node_of_atom.iter_mut() {
        if *n == NONE {
            *n = FALSE;
        }
    }
    (thr, node_of_atom)
}

/// Inputs of each raw node, as (source, negated): a derived atom's OR over
/// its instances, each instance with several literals (or one negated
/// literal) a new AND node appended to `thr`.
fn raw_inputs(
    inst: &Instances,
    leaves: &Leaves<'_>,
    by_head: &ByHead,
    node_of_atom: &[u32],
    thr: &mut Vec<u32>,
) -> Vec<Vec<(u32, bool)>> {
    let per_head = &by_head.start;
    let mut inputs: Vec<Vec<(u32, bool)>> = vec![Vec::new(); thr.len()];
    for a in 0..node_of_atom.len() {
        let (s, e) = (per_head[a] as usize, per_head[a + 1] as usize);
        if s == e || leaves.leaf_of_atom.get(a).is_some_and(|&l| l != NONE) {
            continue;
        }
        let or = node_of_atom[a];
        let mut ins = Vec::new();
        for &i in &by_head.at[s..e] {
            let lits = inst.lits(i as usize);
            match lits {
                [] => ins.push((TRUE, false)),
                [l] if l & 1 == 0 => ins.push((node_of_atom[(l >> 1) as usize], false)),
                _ => {
                    let and = thr.len() as u32;
                    thr.push(inst.at_least(i as usize).unwrap_or(lits.len() as u32));
                    inputs.push(
                        lits.iter()
                            .map(|&l| (node_of_atom[(l >> 1) as usize], l & 1 == 1))
                            .collect(),
                    );
                    ins.push((and, false));
                }
            }
        }
        inputs[or as usize] = ins;
    }
    inputs
}

/// Collapses buffers (a gate of threshold 1 with exactly one positive
/// input): the representative of each raw node.
fn collapse_buffers(thr: &[u32], inputs: &[Vec<(u32, bool)>]) -> Vec<u32> {
    let raw = thr.len();
    let mut rep: Vec<u32> = (0..raw as u32).collect();
    let mut state = vec![0u8; raw]; // 0 unvisited, 1 on path, 2 done
    for start in 0..raw {
        if state[start] != 0 {
            continue;
        }
        let mut path = Vec::new();
        let mut n = start;
        let target = loop {
            if state[n] == 2 {
                break rep[n];
            }
            if state[n] == 1 {
                // A cycle of buffers: no other support, so false.
                break FALSE;
            }
            state[n] = 1;
            path.push(n);
            match inputs[n].as_slice() {
                [(src, false)] if thr[n] == 1 => n = *src as usize,
                _ => break n as u32,
            }
        };
        for p in path {
            rep[p] = target;
            state[p] = 2;
        }
    }
    rep
}

/// The successor lists of the `nn` kept nodes (`target << 1 | negated`)
/// and where each node's starts.
fn successors(
    inputs: &[Vec<(u32, bool)>],
    rep: &[u32],
    new_id: &[u32],
    nn: usize,
) -> (Vec<u32>, Vec<u32>) {
    let raw = inputs.len();
    let map = |n: u32| new_id[rep[n as usize] as usize];
    let mut out_deg = vec![0u32; nn + 1];
    for n in 0..raw {
        if rep[n] != n as u32 {
            continue;
        }
        for &(s, _) in &inputs[n] {
            out_deg[map(s) as usize + 1] += 1;
        }
    }
    for i in 0..nn {
        out_deg[i + 1] += out_deg[i];
    }
    let mut out = vec![0u32; out_deg[nn] as usize];
    let mut fill = out_deg.clone();
    for n in 0..raw {
        if rep[n] != n as u32 {
            continue;
        }
        let t = new_id[n];
        for &(s, neg) in &inputs[n] {
            let s = map(s) as usize;
            out[fill[s] as usize] = t << 1 | u32::from(neg);
            fill[s] += 1;
        }
    }
    (out_deg, out)
}

/// The hooks of each of the `nn` nodes, and where each node's start.
fn hook_lists(
    nn: usize,
    hooked_atoms: &[(AtomId, u32)],
    node_of_atom: &[u32],
) -> (Vec<u32>, Vec<u32>) {
    let mut hook_deg = vec![0u32; nn + 1];
    for &(a, _) in hooked_atoms {
        hook_deg[node_of_atom[a as usize] as usize + 1] += 1;
    }
    for i in 0..nn {
        hook_deg[i + 1] += hook_deg[i];
    }
    let mut hooks = vec![0u32; hook_deg[nn] as usize];
    let mut fill = hook_deg.clone();
    for &(a, h) in hooked_atoms {
        let n = node_of_atom[a as usize] as usize;
        hooks[fill[n] as usize] = h;
        fill[n] += 1;
    }
    (hook_deg, hooks)
}

/// Finds cyclic components (iterative Tarjan on the successor lists) and a
/// topological order.
fn components(net: &mut Network) -> Result<(), GroundError> {
    let (comps_rev, members) = tarjan(net);
    record_components(net, &comps_rev, &members);
    check_components(net)
}

/// Strongly connected components (iterative Tarjan), sinks first: each as
/// (start in the members, length), and the members.
fn tarjan(net: &Network) -> (Vec<(u32, u32)>, Vec<u32>) {
    let n = net.len();
    let mut index = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut call: Vec<(u32, u32)> = Vec::new();
    let mut next = 0u32;
    // Components come out sinks first.
    let mut comps_rev: Vec<(u32, u32)> = Vec::new(); // (start in members, len)
    let mut members: Vec<u32> = Vec::new();
    for root in 0..n as u32 {
        if index[root as usize] != NONE {
            continue;
        }
        index[root as usize] = next;
        low[root as usize] = next;
        next += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        call.push((root, net.out_start[root as usize]));
        while let Some(&mut (v, ref mut ei)) = call.last_mut() {
            if *ei < net.out_start[v as usize + 1] {
                let w = net.out[*ei as usize] >> 1;
                *ei += 1;
                if index[w as usize] == NONE {
                    index[w as usize] = next;
                    low[w as usize] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w as usize] = true;
                    call.push((w, net.out_start[w as usize]));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
                continue;
            }
            call.pop();
            if let Some(&(p, _)) = call.last() {
                low[p as usize] = low[p as usize].min(low[v as usize]);
            }
            if low[v as usize] == index[v as usize] {
                let start = members.len() as u32;
                loop {
                    let w = stack.pop().expect("tarjan stack");
                    on_stack[w as usize] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                comps_rev.push((start, members.len() as u32 - start));
            }
        }
    }
    (comps_rev, members)
}

/// Records the cyclic components and the topological order (sources
/// first) in `net`.
fn record_components(net: &mut Network, comps_rev: &[(u32, u32)], members: &[u32]) {
    let n = net.len();
    net.scc = vec![NONE; n];
    net.topo = Vec::with_capacity(n);
    net.scc_start = vec![0];
    net.scc_members = Vec::new();
    for &(s, len) in comps_rev.iter().rev() {
        let ms = &members[s as usize..(s + len) as usize];
        let cyclic = len > 1 || {
            let v = ms[0] as usize;
            net.out[net.out_start[v] as usize..net.out_start[v + 1] as usize]
                .iter()
                .any(|&e| e >> 1 == ms[0])
        };
        if cyclic {
            let id = net.scc_start.len() as u32 - 1;
            for &m in ms {
                net.scc[m as usize] = id;
            }
            net.scc_members.extend_from_slice(ms);
            net.scc_start.push(net.scc_members.len() as u32);
        }
        net.topo.extend_from_slice(ms);
    }
}

/// Rejects what the engine cannot run: too wide a gate, a negation inside
/// a component, or a leaf in one.
fn check_components(net: &Network) -> Result<(), GroundError> {
    let n = net.len();
    let mut indeg = vec![0u32; n];
    for &e in &net.out {
        indeg[(e >> 1) as usize] += 1;
    }
    if let Some(w) = indeg.iter().find(|&&d| d as usize > MAX_FAN_IN) {
        return Err(GroundError::Unsupported(format!(
            "a gate with {w} inputs (at most {MAX_FAN_IN})"
        )));
    }
    drop(indeg);
    // Negation inside a component would make the least fixpoint wrong.
    for v in 0..n {
        let c = net.scc[v];
        if c == NONE {
            continue;
        }
        for &e in &net.out[net.out_start[v] as usize..net.out_start[v + 1] as usize] {
            if e & 1 == 1 && net.scc[(e >> 1) as usize] == c {
                return Err(GroundError::Unsupported(
                    "a ground atom depends on its own negation".into(),
                ));
            }
        }
        if net.thr[v] == LEAF {
            return Err(GroundError::Unsupported(
                "a state or move proposition in a cycle".into(),
            ));
        }
    }
    Ok(())
}
