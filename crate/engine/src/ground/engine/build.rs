//! Building the fast engine from a grounded network: the passes that
//! reshape it (factoring, flattening, complement gates, legal gates), then
//! the edge list, hook bits and run-time buffers, and a first evaluation.

use super::{
    FastEngine, COMPLEMENT, E_SCC, FACTOR, FLATTEN, GATE_LEGALS, HOOKED, NEW_FIRST, OFFSET,
};
use crate::ground::factor::factor_ors;
use crate::ground::network::{Network, HOOK_LEGAL, HOOK_MASK, LEAF, NONE};
use crate::ground::passes::{
    complement_ors, flatten, frame_inputs, lazy_nodes, legal_gates, levels, Gates,
};
use crate::ground::tables::Tables;
use crate::ground::GroundStats;
use crate::terms::TermStore;
use smallvec::SmallVec;

impl FastEngine {
    pub(in crate::ground) fn new(
        store: TermStore,
        mut net: Network,
        t: Tables,
        stats: GroundStats,
    ) -> FastEngine {
        let words = t.base_fluent.len().div_ceil(64).max(1);
        let mut legal_word = vec![0u32];
        for r in 0..t.roles.len() {
            let len = (t.legal_start[r + 1] - t.legal_start[r]) as usize;
            legal_word.push(legal_word[r] + len.div_ceil(64).max(1) as u32);
        }
        // Legal hooks address their bit directly.
        for h in net.hooks.iter_mut() {
            if *h & !HOOK_MASK == HOOK_LEGAL {
                let i = (*h & HOOK_MASK) as usize;
                let r = t.legal_role(i);
                let bit = legal_word[r] as usize * 64 + i - t.legal_start[r] as usize;
                *h = HOOK_LEGAL | bit as u32;
            }
        }
        if FLATTEN {
            flatten(&mut net, &t);
        }
        let new_first = NEW_FIRST && frame_inputs(&net, &t);
        if FACTOR {
            let mut keep = vec![false; net.len()];
            keep[t.terminal as usize] = true;
            for g in t.goals.iter().flatten() {
                keep[g.1 as usize] = true;
            }
            let mut is_input = vec![false; net.len()];
            for &i in t.legal_input.iter().filter(|&&i| i != NONE) {
                is_input[i as usize] = true;
            }
            factor_ors(&mut net, &keep, &is_input);
        }
        let n = net.len();
        let mut lazy = lazy_nodes(&net, t.terminal);
        let (complement, counted) = if COMPLEMENT {
            complement_ors(&mut net, &t, &lazy)
        } else {
            (Vec::new(), Vec::new())
        };
        if !complement.is_empty() {
            // ORs that fed only rewritten gates are no longer needed.
            lazy = lazy_nodes(&net, t.terminal);
        }
        let gates = if GATE_LEGALS {
            legal_gates(&net, &legal_word)
        } else {
            Gates {
                removed: vec![NONE; n],
                start: vec![0; t.roles.len() + 1],
                node: Vec::new(),
                mask_at: Vec::new(),
                mask: Vec::new(),
            }
        };
        for v in 0..n {
            if gates.removed[v] != NONE {
                net.thr[v] -= 1;
            }
        }
        // Edges into lazy nodes are not propagated.
        let mut out_start = vec![0u32; n + 1];
        let mut edges: Vec<u32> = Vec::with_capacity(net.out.len());
        for v in 0..n {
            for &e in &net.out[net.out_start[v] as usize..net.out_start[v + 1] as usize] {
                let target = e >> 1;
                if !lazy[target as usize] && gates.removed[target as usize] != v as u32 {
                    edges.push(
                        (target << 2)
                            | if net.scc[target as usize] != NONE {
                                E_SCC
                            } else {
                                0
                            }
                            | (e & 1),
                    );
                }
            }
            out_start[v + 1] = edges.len() as u32;
        }
        // Inputs of lazy nodes, in topological order.
        let lazy_order: Vec<u32> = net
            .topo
            .iter()
            .copied()
            .filter(|&v| lazy[v as usize])
            .collect();
        let mut pos = vec![NONE; n];
        for (i, &v) in lazy_order.iter().enumerate() {
            pos[v as usize] = i as u32;
        }
        let mut lazy_in_start = vec![0u32; lazy_order.len() + 1];
        for v in 0..n {
            for &e in &net.out[net.out_start[v] as usize..net.out_start[v + 1] as usize] {
                let p = pos[(e >> 1) as usize];
                if p != NONE {
                    lazy_in_start[p as usize + 1] += 1;
                }
            }
        }
        for i in 0..lazy_order.len() {
            lazy_in_start[i + 1] += lazy_in_start[i];
        }
        let mut lazy_in = vec![0u32; lazy_in_start[lazy_order.len()] as usize];
        let mut fill = lazy_in_start.clone();
        for v in 0..n {
            for &e in &net.out[net.out_start[v] as usize..net.out_start[v + 1] as usize] {
                let p = pos[(e >> 1) as usize];
                if p != NONE {
                    lazy_in[fill[p as usize] as usize] = (v as u32) << 1 | (e & 1);
                    fill[p as usize] += 1;
                }
            }
        }
        drop(pos);
        net.out_start = out_start;
        net.out = Vec::new();
        // Hooks as positions in `hooked`: next bits first, then legal bits.
        let hook_bits: Vec<u32> = net
            .hooks
            .iter()
            .map(|&h| match h & !HOOK_MASK {
                HOOK_LEGAL => (words * 64) as u32 + (h & HOOK_MASK),
                _ => h & HOOK_MASK,
            })
            .collect();
        let hook: Vec<u32> = (0..n)
            .map(|v| {
                let (a, b) = (net.hook_start[v] as usize, net.hook_start[v + 1] as usize);
                if b == a + 1 {
                    hook_bits[a]
                } else {
                    NONE
                }
            })
            .collect();
        for w in legal_word.iter_mut() {
            *w += words as u32;
        }
        let ns = (0..n)
            .map(|v| {
                let thr = net.thr[v];
                let count = if thr == LEAF { 0 } else { OFFSET - thr };
                if net.hook_start[v] != net.hook_start[v + 1] {
                    count | HOOKED
                } else {
                    count
                }
            })
            .collect();
        let nscc = net.scc_start.len() - 1;
        let levels = levels(&net, &edges);
        let mut e = FastEngine {
            store,
            edges,
            hook,
            lazy_order,
            lazy_in_start,
            lazy_in,
            lazy_fresh: false,
            ns,
            cur: vec![0; words],
            hooked: vec![0; *legal_word.last().expect("one entry") as usize],
            spare: vec![0; words],
            hook_bits,
            masked: vec![
                0;
                legal_word
                    .windows(2)
                    .map(|w| (w[1] - w[0]) as usize)
                    .max()
                    .unwrap_or(0)
            ],
            legal_word,
            gates,
            inputs: SmallVec::new(),
            inputs_on: 0,
            complement,
            counted,
            buckets: vec![Vec::new(); levels.iter().max().map_or(1, |&l| l as usize + 1)],
            level: levels,
            stack: Vec::new(),
            lo: usize::MAX,
            hi: 0,
            dirty_flag: vec![false; nscc],
            new_first,
            scratch: Vec::new(),
            work: Vec::new(),
            net,
            t,
            stats,
        };
        e.initialise();
        e
    }
}
