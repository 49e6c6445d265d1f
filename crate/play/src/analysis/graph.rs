//! The explored part of the reachable state graph, in flat vectors.
//!
//! States get ids in discovery order (breadth-first), so the frontier is the
//! id range `expanded()..len()` and the adjacency of expanded states is a
//! CSR array appended in id order. Every algorithm here is iterative (no
//! recursion on the graph) and linear in states + edges.

use hashbrown::HashTable;
use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};

/// No parent (the initial state) / not visited.
pub const NONE: u32 = u32::MAX;
/// Goal cell: the role has no goal value in this state.
pub const NO_GOAL: i64 = i64::MIN;
/// Goal cell: the role has several goal values in this state.
pub const MANY_GOALS: i64 = i64::MIN + 1;

pub fn hash_of<S: Hash>(s: &S) -> u64 {
    let mut h = FxHasher::default();
    s.hash(&mut h);
    h.finish()
}

/// The goal cell for a list of derivable goal values.
pub fn goal_cell(values: &[i64]) -> i64 {
    match values {
        [] => NO_GOAL,
        [v] => *v,
        _ => MANY_GOALS,
    }
}

pub struct Graph<S> {
    roles: usize,
    pub states: Vec<S>,
    hashes: Vec<u64>,
    index: HashTable<u32>,
    /// Per state: the state it was discovered from (`NONE` for the initial
    /// state), the joint-move index in that state's canonical list, and its
    /// breadth-first depth.
    pub parent: Vec<u32>,
    pub parent_move: Vec<u32>,
    pub depth: Vec<u32>,
    /// Per expanded state (`len = expanded() + 1`): where its edges start.
    pub edge_start: Vec<u32>,
    /// Edge targets; the edges of a state are in canonical joint-move order.
    pub edges: Vec<u32>,
    /// Per expanded state.
    pub terminal: Vec<bool>,
    /// Per expanded state and role: goal cell (a value, `NO_GOAL` or `MANY_GOALS`).
    pub goals: Vec<i64>,
    /// Per expanded state and role: number of legal moves (0 in terminal states).
    pub counts: Vec<u32>,
}

impl<S: Clone + Eq + Hash> Graph<S> {
    pub fn new(roles: usize) -> Graph<S> {
        Graph {
            roles,
            states: Vec::new(),
            hashes: Vec::new(),
            index: HashTable::new(),
            parent: Vec::new(),
            parent_move: Vec::new(),
            depth: Vec::new(),
            edge_start: vec![0],
            edges: Vec::new(),
            terminal: Vec::new(),
            goals: Vec::new(),
            counts: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Number of expanded states (a prefix of the ids).
    pub fn expanded(&self) -> usize {
        self.terminal.len()
    }

    pub fn find(&self, s: &S) -> Option<u32> {
        let h = hash_of(s);
        self.index
            .find(h, |&i| self.states[i as usize] == *s)
            .copied()
    }

    /// The id of `s`, adding it (discovered from `parent` by joint move
    /// `mv`) when new. Returns `(id, new)`.
    pub fn intern(&mut self, s: S, parent: u32, mv: u32) -> (u32, bool) {
        let h = hash_of(&s);
        let states = &self.states;
        if let Some(&i) = self.index.find(h, |&i| states[i as usize] == s) {
            return (i, false);
        }
        let id = self.states.len() as u32;
        let hashes = &self.hashes;
        self.index.insert_unique(h, id, |&i| hashes[i as usize]);
        self.hashes.push(h);
        self.states.push(s);
        self.parent.push(parent);
        self.parent_move.push(mv);
        let d = if parent == NONE {
            0
        } else {
            self.depth[parent as usize] + 1
        };
        self.depth.push(d);
        (id, true)
    }

    /// Records the evaluation of the next state to expand (id `expanded()`).
    pub fn begin_expand(&mut self, terminal: bool, goals: &[i64], counts: &[u32]) {
        self.terminal.push(terminal);
        self.goals.extend_from_slice(goals);
        self.counts.extend_from_slice(counts);
    }

    /// Closes the edge list of the state being expanded.
    pub fn end_expand(&mut self) {
        self.edge_start.push(self.edges.len() as u32);
    }

    pub fn succ(&self, v: u32) -> &[u32] {
        let v = v as usize;
        if v + 1 >= self.edge_start.len() {
            return &[];
        }
        &self.edges[self.edge_start[v] as usize..self.edge_start[v + 1] as usize]
    }

    pub fn goal(&self, v: u32, role: usize) -> i64 {
        self.goals[v as usize * self.roles + role]
    }

    pub fn counts_of(&self, v: u32) -> &[u32] {
        &self.counts[v as usize * self.roles..(v as usize + 1) * self.roles]
    }

    /// The discovery path of `v`: `(state, joint-move index)` pairs from the
    /// initial state (shortest, as discovery is breadth-first).
    pub fn path_to(&self, v: u32) -> Vec<(u32, u32)> {
        let mut path = Vec::new();
        let mut v = v;
        while self.parent[v as usize] != NONE {
            path.push((self.parent[v as usize], self.parent_move[v as usize]));
            v = self.parent[v as usize];
        }
        path.reverse();
        path
    }

    /// The breadth-first depth up to which every state is expanded.
    pub fn complete_depth(&self) -> u32 {
        match self.depth.get(self.expanded()) {
            None => self.depth.last().copied().unwrap_or(0),
            Some(&d) => d.saturating_sub(1),
        }
    }

    /// Strongly connected components of the explored graph (iterative
    /// Tarjan from the initial state). Returns `(component, cyclic)`: the
    /// component of every state and whether each component contains a cycle
    /// (more than one state, or a self-loop); components are numbered in
    /// reverse topological order (successors first).
    pub fn sccs(&self) -> (Vec<u32>, Vec<bool>) {
        let n = self.len();
        let mut index = vec![NONE; n];
        let mut low = vec![0u32; n];
        let mut on_stack = vec![false; n];
        let mut comp = vec![NONE; n];
        let mut cyclic = Vec::new();
        let mut stack: Vec<u32> = Vec::new();
        let mut call: Vec<(u32, u32)> = Vec::new();
        let mut counter = 0u32;
        if n == 0 {
            return (comp, cyclic);
        }
        let visit = |v: u32, index: &mut Vec<u32>, low: &mut Vec<u32>, counter: &mut u32| {
            index[v as usize] = *counter;
            low[v as usize] = *counter;
            *counter += 1;
        };
        visit(0, &mut index, &mut low, &mut counter);
        stack.push(0);
        on_stack[0] = true;
        call.push((0, 0));
        while let Some(&mut (v, ref mut next)) = call.last_mut() {
            let succ = self.succ(v);
            if (*next as usize) < succ.len() {
                let w = succ[*next as usize];
                *next += 1;
                if index[w as usize] == NONE {
                    visit(w, &mut index, &mut low, &mut counter);
                    stack.push(w);
                    on_stack[w as usize] = true;
                    call.push((w, 0));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
                continue;
            }
            call.pop();
            if let Some(&(u, _)) = call.last() {
                low[u as usize] = low[u as usize].min(low[v as usize]);
            }
            if low[v as usize] == index[v as usize] {
                let c = cyclic.len() as u32;
                let mut size = 0;
                loop {
                    let w = stack.pop().expect("tarjan stack");
                    on_stack[w as usize] = false;
                    comp[w as usize] = c;
                    size += 1;
                    if w == v {
                        break;
                    }
                }
                cyclic.push(size > 1 || self.succ(v).contains(&v));
            }
        }
        (comp, cyclic)
    }

    /// The shortest cycle from `v` back to `v` inside its component, as
    /// `(state, edge position)` steps. `None` when `v` is on no cycle.
    pub fn shortest_cycle(&self, v: u32, comp: &[u32]) -> Option<Vec<(u32, u32)>> {
        let c = comp[v as usize];
        // Breadth-first from v over its component; `from[w]` = (pred, pos).
        let mut from: hashbrown::HashMap<u32, (u32, u32)> = hashbrown::HashMap::new();
        let mut queue = std::collections::VecDeque::from([v]);
        while let Some(u) = queue.pop_front() {
            for (pos, &w) in self.succ(u).iter().enumerate() {
                if comp[w as usize] != c {
                    continue;
                }
                if w == v {
                    let mut steps = vec![(u, pos as u32)];
                    let mut x = u;
                    while x != v {
                        let (p, ppos) = from[&x];
                        steps.push((p, ppos));
                        x = p;
                    }
                    steps.reverse();
                    return Some(steps);
                }
                if let hashbrown::hash_map::Entry::Vacant(e) = from.entry(w) {
                    e.insert((u, pos as u32));
                    queue.push_back(w);
                }
            }
        }
        None
    }

    /// Longest path (in joint moves) from the initial state, for an acyclic
    /// graph given its components in reverse topological order.
    pub fn longest_play(&self, comp: &[u32]) -> u64 {
        // Order states by component number (successors first).
        let mut order: Vec<u32> = (0..self.len() as u32)
            .filter(|&v| comp[v as usize] != NONE)
            .collect();
        order.sort_unstable_by_key(|&v| comp[v as usize]);
        let mut longest = vec![0u64; self.len()];
        for &v in &order {
            let best = self
                .succ(v)
                .iter()
                .map(|&w| longest[w as usize] + 1)
                .max()
                .unwrap_or(0);
            longest[v as usize] = best;
        }
        longest.first().copied().unwrap_or(0)
    }

    /// States from which `role` can force a terminal state where its goal
    /// value is 100, whatever the other roles do (least fixpoint of the
    /// AND-OR condition; frontier states count as not winning, so the result
    /// is sound on a partial graph).
    pub fn forced_wins(&self, role: usize, rev: &Reverse) -> Vec<bool> {
        let n = self.len();
        let exp = self.expanded();
        let mut win = vec![false; n];
        // Group counters: for each expanded non-terminal state with moves for
        // every role, one counter per move of `role`: successors not yet won.
        let mut group_start = vec![0u32; exp + 1];
        let mut total = 0u64;
        for (v, start) in group_start.iter_mut().enumerate().take(exp) {
            *start = total as u32;
            let counts = self.counts_of(v as u32);
            if !self.terminal[v] && counts.iter().all(|&c| c > 0) {
                total += counts[role] as u64;
            }
        }
        group_start[exp] = total as u32;
        let mut counters = vec![0u32; total as usize];
        for v in 0..exp {
            let counts = self.counts_of(v as u32);
            let (a, b) = (group_start[v] as usize, group_start[v + 1] as usize);
            if a < b {
                let edges = self.succ(v as u32).len() as u32;
                let per_group = edges / counts[role];
                counters[a..b].iter_mut().for_each(|c| *c = per_group);
            }
        }
        let mut queue: Vec<u32> = Vec::new();
        for (v, w) in win.iter_mut().enumerate().take(exp) {
            if self.terminal[v] && self.goal(v as u32, role) == 100 {
                *w = true;
                queue.push(v as u32);
            }
        }
        while let Some(t) = queue.pop() {
            for &e in rev.into(t) {
                let s = rev.source[e as usize];
                if win[s as usize] {
                    continue;
                }
                let gs = group_start[s as usize] as usize;
                if gs == group_start[s as usize + 1] as usize {
                    continue;
                }
                let counts = self.counts_of(s);
                let stride: u64 = counts[role + 1..].iter().map(|&c| c as u64).product();
                let pos = (e - self.edge_start[s as usize]) as u64;
                let g = ((pos / stride) % counts[role] as u64) as usize;
                counters[gs + g] -= 1;
                if counters[gs + g] == 0 {
                    win[s as usize] = true;
                    queue.push(s);
                }
            }
        }
        win
    }
}

/// Reverse adjacency: for every state, the ids of the edges into it.
pub struct Reverse {
    start: Vec<u32>,
    edge_ids: Vec<u32>,
    /// Source state of every edge.
    pub source: Vec<u32>,
}

impl Reverse {
    pub fn build<S: Clone + Eq + Hash>(g: &Graph<S>) -> Reverse {
        let n = g.len();
        let mut source = vec![0u32; g.edges.len()];
        let mut start = vec![0u32; n + 1];
        for v in 0..g.expanded() {
            let (a, b) = (g.edge_start[v] as usize, g.edge_start[v + 1] as usize);
            source[a..b].iter_mut().for_each(|s| *s = v as u32);
        }
        for &t in &g.edges {
            start[t as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut edge_ids = vec![0u32; g.edges.len()];
        for (e, &t) in g.edges.iter().enumerate() {
            edge_ids[fill[t as usize] as usize] = e as u32;
            fill[t as usize] += 1;
        }
        Reverse {
            start,
            edge_ids,
            source,
        }
    }

    pub fn into(&self, t: u32) -> &[u32] {
        &self.edge_ids[self.start[t as usize] as usize..self.start[t as usize + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A graph from adjacency lists (state i has successors adj[i]); one
    /// role with one move per edge.
    fn graph(adj: &[&[u32]], terminal: &[bool], goals: &[i64]) -> Graph<u32> {
        let mut g = Graph::new(1);
        for i in 0..adj.len() as u32 {
            g.intern(i, if i == 0 { NONE } else { 0 }, 0);
        }
        for (v, succ) in adj.iter().enumerate() {
            let c = succ.len() as u32;
            g.begin_expand(terminal[v], &[goals[v]], &[c]);
            g.edges.extend_from_slice(succ);
            g.end_expand();
        }
        g
    }

    #[test]
    fn sccs_find_cycles_and_longest_play() {
        // 0 -> 1 -> 2 (terminal), 0 -> 2
        let g = graph(&[&[1, 2], &[2], &[]], &[false, false, true], &[0, 0, 100]);
        let (comp, cyclic) = g.sccs();
        assert!(cyclic.iter().all(|&c| !c));
        assert_eq!(g.longest_play(&comp), 2);
        // 0 -> 1 -> 0 and 1 -> 2; self-loop on 2 -> 2 is terminal? make 3 a self-loop.
        let g = graph(&[&[1], &[0, 2], &[3], &[3]], &[false; 4], &[0; 4]);
        let (comp, cyclic) = g.sccs();
        assert!(cyclic[comp[0] as usize]);
        assert_eq!(comp[0], comp[1]);
        assert!(cyclic[comp[3] as usize]);
        assert!(!cyclic[comp[2] as usize]);
        assert_eq!(g.shortest_cycle(0, &comp).unwrap(), vec![(0, 0), (1, 0)]);
        assert_eq!(g.shortest_cycle(3, &comp).unwrap(), vec![(3, 0)]);
        assert_eq!(g.shortest_cycle(2, &comp), None);
    }

    #[test]
    fn forced_wins_one_role_is_reachability() {
        // 0 -> 1 (terminal, 0), 0 -> 2 -> 3 (terminal, 100), 4 unreachable-ish frontier.
        let g = graph(
            &[&[1, 2], &[], &[3], &[]],
            &[false, true, false, true],
            &[0, 0, 0, 100],
        );
        let rev = Reverse::build(&g);
        assert_eq!(g.forced_wins(0, &rev), vec![true, false, true, true]);
    }
}
