//! From a grounded program to the fast engine: the leaves (base
//! propositions read by some rule, and moves), the hooks of the legal and
//! `next` propositions, the network built over them, and the tables that
//! map the game's roles, moves, goals and fluents onto its nodes.

use super::instantiate::AtomId;
use super::network::{self, Network, HOOK_LEGAL, HOOK_MASK, HOOK_NEXT, NONE};
use super::tables::Tables;
use super::{FastEngine, GroundError, GroundProgram, GroundStats};
use crate::clock::now_ms;
use crate::terms::TermId;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// The fast engine of a grounded program (grounding started at `t0`).
pub(super) fn engine_of(gp: GroundProgram, t0: f64) -> Result<FastEngine, GroundError> {
    crate::job::progress("grounding: network", String::new);
    let leaves = Leaves::of(&gp);
    let legal = Legals::of(&gp);
    let hooked = hooks(&gp, &legal);
    if legal.moves.len() >= HOOK_MASK as usize || gp.fluents.len() >= HOOK_MASK as usize {
        return Err(GroundError::Budget {
            what: "propositions",
            limit: HOOK_MASK as u64,
        });
    }
    let (net, node_of_atom) = network::build(
        gp.atoms.len(),
        &gp.inst,
        &network::Leaves {
            leaf_of_atom: &leaves.leaf_of_atom,
            num_leaves: leaves.num_leaves,
        },
        &hooked,
    )?;
    let base_node = base_nodes(&gp, &leaves.base_leaf, &node_of_atom);
    let legal_input = legal_inputs(&gp, &legal.atoms, &node_of_atom);
    let move_index = move_index(gp.roles.len(), &legal);
    let terminal = gp
        .rel_terminal
        .and_then(|t| gp.atoms.find(t as u32, &[]))
        .map_or(network::FALSE, |a| node_of_atom[a as usize]);
    let goals = goal_nodes(&gp, &node_of_atom);
    let sees = sees_nodes(&gp, &node_of_atom);
    let queries_use_does = queries_use_does(
        &net,
        &legal_input,
        terminal,
        &legal.atoms,
        &goals,
        &node_of_atom,
    );
    let subgames = super::subgames::find(&gp, &legal.atoms, &legal.start).map(Arc::new);
    let mut stats = ground_stats(&gp, &net, leaves.inputs, legal.moves.len(), t0);
    stats.subgames = subgames.as_ref().map_or(0, |s| s.count());
    let GroundProgram {
        store,
        roles,
        fluents,
        base_of,
        init,
        ..
    } = gp;
    let tables = Tables {
        roles,
        base_fluent: fluents,
        base_node,
        base_of_fluent: base_of,
        init,
        legal_start: legal.start,
        legal_move: legal.moves,
        legal_input,
        move_index,
        terminal,
        goals,
        sees,
        queries_use_does,
        subgames,
    };
    let mut e = FastEngine::new(store, net, tables, stats);
    e.finish_stats(t0);
    Ok(e)
}

/// The network's leaves: base propositions read by some rule, then moves.
struct Leaves {
    leaf_of_atom: Vec<u32>,
    num_leaves: usize,
    /// Per base proposition, its leaf or `NONE` when no rule reads it.
    base_leaf: Vec<u32>,
    /// Moves (`does` atoms).
    inputs: usize,
}

impl Leaves {
    fn of(gp: &GroundProgram) -> Leaves {
        let (store, atoms) = (&gp.store, &gp.atoms);
        let mut leaf_of_atom = vec![NONE; atoms.len()];
        let mut num_leaves = 0usize;
        let mut base_leaf = vec![NONE; gp.fluents.len()];
        for (i, &f) in gp.fluents.iter().enumerate() {
            let mut reads = Vec::new();
            if let Some(&t) = gp
                .true_tables
                .get(&(store.functor(f), store.arity(f) as u32))
            {
                reads.extend(atoms.find(t as u32, store.args_of(f)));
            }
            if let Some(t) = gp.true_all {
                reads.extend(atoms.find(t as u32, &[f]));
            }
            if reads.is_empty() {
                continue;
            }
            let leaf = 2 + num_leaves as u32;
            num_leaves += 1;
            base_leaf[i] = leaf;
            for a in reads {
                leaf_of_atom[a as usize] = leaf;
            }
        }
        let mut inputs = 0;
        if let Some(rd) = gp.rel_does {
            for &a in &gp.rels[rd].rows {
                leaf_of_atom[a as usize] = 2 + num_leaves as u32;
                num_leaves += 1;
                inputs += 1;
            }
        }
        Leaves {
            leaf_of_atom,
            num_leaves,
            base_leaf,
            inputs,
        }
    }
}

/// Legal propositions per role, sorted by the move's text: role `r`'s are
/// `start[r]..start[r + 1]`.
struct Legals {
    start: Vec<u32>,
    moves: Vec<TermId>,
    atoms: Vec<AtomId>,
}

impl Legals {
    fn of(gp: &GroundProgram) -> Legals {
        let mut start = vec![0u32];
        let mut legal_move = Vec::new();
        let mut legal_atom = Vec::new();
        for &role in &gp.roles {
            let mut moves: Vec<(String, TermId, AtomId)> = Vec::new();
            if let Some(rl) = gp.rel_legal {
                for &a in &gp.rels[rl].rows {
                    let args = gp.atoms.args(a);
                    if args[0] == role {
                        moves.push((gp.store.display(args[1]), args[1], a));
                    }
                }
            }
            moves.sort();
            for (_, m, a) in moves {
                legal_move.push(m);
                legal_atom.push(a);
            }
            start.push(legal_move.len() as u32);
        }
        Legals {
            start,
            moves: legal_move,
            atoms: legal_atom,
        }
    }
}

/// The hooked atoms: each legal proposition (by index), then each `next`
/// atom (by the base index of its fluent).
fn hooks(gp: &GroundProgram, legal: &Legals) -> Vec<(AtomId, u32)> {
    let mut hooked: Vec<(AtomId, u32)> = Vec::new();
    for (i, &a) in legal.atoms.iter().enumerate() {
        hooked.push((a, HOOK_LEGAL | i as u32));
    }
    if let Some(rn) = gp.rel_next {
        for &a in &gp.rels[rn].rows {
            let f = gp.atoms.args(a)[0];
            hooked.push((a, HOOK_NEXT | gp.base_of[&f]));
        }
    }
    hooked
}

/// The node of each base proposition that some rule reads, else `NONE`.
fn base_nodes(gp: &GroundProgram, base_leaf: &[u32], node_of_atom: &[u32]) -> Vec<u32> {
    let (store, atoms) = (&gp.store, &gp.atoms);
    let mut base_node = vec![NONE; gp.fluents.len()];
    // (Direct mapping: a base leaf's atoms all map to the same node.)
    for (i, &f) in gp.fluents.iter().enumerate() {
        if base_leaf[i] == NONE {
            continue;
        }
        let a = gp
            .true_tables
            .get(&(store.functor(f), store.arity(f) as u32))
            .and_then(|&t| atoms.find(t as u32, store.args_of(f)))
            .or_else(|| gp.true_all.and_then(|t| atoms.find(t as u32, &[f])));
        if let Some(a) = a {
            base_node[i] = node_of_atom[a as usize];
        }
    }
    base_node
}

/// The input node (`does`) of each legal proposition, or `NONE`.
fn legal_inputs(gp: &GroundProgram, legal_atom: &[AtomId], node_of_atom: &[u32]) -> Vec<u32> {
    legal_atom
        .iter()
        .map(|&la| {
            let args = gp.atoms.args(la).to_vec();
            gp.rel_does
                .and_then(|rd| gp.atoms.find(rd as u32, &args))
                .map_or(NONE, |a| node_of_atom[a as usize])
        })
        .collect()
}

/// The index of each legal proposition by (role, move).
fn move_index(roles: usize, legal: &Legals) -> FxHashMap<(u32, TermId), u32> {
    let mut move_index = FxHashMap::default();
    for r in 0..roles {
        for i in legal.start[r]..legal.start[r + 1] {
            move_index.insert((r as u32, legal.moves[i as usize]), i);
        }
    }
    move_index
}

/// Per role, its goal values and their nodes.
fn goal_nodes(gp: &GroundProgram, node_of_atom: &[u32]) -> Vec<Vec<(i64, u32)>> {
    let mut goals = vec![Vec::new(); gp.roles.len()];
    if let Some(rg) = gp.rel_goal {
        for &a in &gp.rels[rg].rows {
            let args = gp.atoms.args(a);
            if let (Some(r), Some(v)) = (
                gp.roles.iter().position(|&x| x == args[0]),
                gp.store.as_int(args[1]),
            ) {
                goals[r].push((v, node_of_atom[a as usize]));
            }
        }
    }
    goals
}

/// GDL-II: per role, its percepts and their nodes, sorted by the percept's
/// text (`None` without `sees`).
fn sees_nodes(gp: &GroundProgram, node_of_atom: &[u32]) -> Option<Vec<Vec<(TermId, u32)>>> {
    let rs = gp.rel_sees?;
    let mut sees: Vec<Vec<(String, TermId, u32)>> = vec![Vec::new(); gp.roles.len()];
    for &a in &gp.rels[rs].rows {
        let args = gp.atoms.args(a);
        if let Some(r) = gp.roles.iter().position(|&x| x == args[0]) {
            sees[r].push((gp.store.display(args[1]), args[1], node_of_atom[a as usize]));
        }
    }
    Some(
        sees.into_iter()
            .map(|mut v| {
                v.sort();
                v.into_iter().map(|(_, t, n)| (t, n)).collect()
            })
            .collect(),
    )
}

/// Whether a legal, goal or terminal node depends on a move.
fn queries_use_does(
    net: &Network,
    legal_input: &[u32],
    terminal: u32,
    legal_atom: &[AtomId],
    goals: &[Vec<(i64, u32)>],
    node_of_atom: &[u32],
) -> bool {
    let mut reach = vec![false; net.len()];
    let mut stack: Vec<u32> = legal_input.iter().copied().filter(|&n| n != NONE).collect();
    while let Some(v) = stack.pop() {
        let v = v as usize;
        if std::mem::replace(&mut reach[v], true) {
            continue;
        }
        for k in net.out_start[v]..net.out_start[v + 1] {
            stack.push(net.out[k as usize] >> 1);
        }
    }
    reach[terminal as usize]
        || legal_atom
            .iter()
            .any(|&a| reach[node_of_atom[a as usize] as usize])
        || goals.iter().flatten().any(|&(_, n)| reach[n as usize])
}

/// Sizes of the grounding and the network (the time so far).
fn ground_stats(
    gp: &GroundProgram,
    net: &Network,
    inputs: usize,
    legals: usize,
    t0: f64,
) -> GroundStats {
    GroundStats {
        ms: now_ms() - t0,
        peak_bytes: gp.peak_bytes,
        network_bytes: net.bytes(),
        atoms: gp.atoms.len(),
        rules: gp.rules,
        aux_rules: gp.aux_rules,
        exclusions: gp.exclusions,
        counting_rules: gp.counting_rules,
        folds: gp.folds,
        instances: gp.inst.len(),
        literals: gp.inst.lits.len(),
        base: gp.fluents.len(),
        inputs,
        legals,
        nodes: net.len(),
        edges: net.out.len(),
        cyclic_components: net.scc_start.len() - 1,
        rounds: gp.rounds,
        ..GroundStats::default()
    }
}
