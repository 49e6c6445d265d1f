//! Retrograde analysis of an explored state graph (`Graph`), backwards
//! from the terminal states over the predecessor lists.
//!
//! - One role and zero-sum: **attractors**. For each goal value `t` of the
//!   first role, the states from which the first role can force the game
//!   to end with at least `t` (it picks one successor in its states, every
//!   successor must qualify in the others'); likewise the second role for
//!   at most `t`. A state's value is `t` when the first role can force `≥ t`
//!   and the second `≤ t`. States where neither can force the end (the game
//!   can repeat for ever) or whose successors were not explored get no
//!   value. The moves to the end come from a last attractor over the moves
//!   that keep the value (`optimal_depths`).
//!   Where both roles choose at once, a role forces a target when one of
//!   its moves does whatever the other plays: the attractors give each
//!   role's pure security value (`max_a min_b` and `min_b max_a`), and the
//!   state has a value when the two meet, a saddle point in pure moves.
//!   Where they do not, only a mixed strategy has a value, and the state
//!   gets none (nor do the states from which the way to the end must pass
//!   through it).
//! - General-sum: backward induction in topological order (a state is
//!   decided when all its successors are), each mover preferring its own
//!   goal, then the opponent's lower goal, then fewer moves when it hurries
//!   ([`hurry`]), more otherwise. States on or above a cycle stay unknown,
//!   and so do the states where both roles choose.

use super::{kind, Concept, UNKNOWN};
use rustc_hash::FxHashMap;

/// The explored state graph, the input of the retrograde analysis.
pub(crate) struct Graph {
    pub roles: usize,
    /// Per state: the mover (0, 1), or a [`kind`].
    pub kind: Vec<u8>,
    /// Terminal states' goals.
    pub goals: Vec<[u8; 2]>,
    /// Successors of expanded state `i`: `succ[start[i]..start[i + 1]]`.
    pub start: Vec<u32>,
    pub succ: Vec<u32>,
    /// States where both roles choose ([`kind::SIMULTANEOUS`]): the
    /// number of role 1's moves. Their successors are the joint moves row
    /// by row, a row per move of role 0.
    pub cols: FxHashMap<u32, u32>,
}

/// Per state: goals (UNKNOWN when not decided) and moves to the end.
pub(crate) struct Analysed {
    pub concept: Concept,
    pub goals: Vec<[u8; 2]>,
    pub depth: Vec<u32>,
}

const NOT: u32 = u32::MAX;

pub(crate) fn analyse(g: &Graph) -> Analysed {
    let concept = concept(g);
    let preds = Preds::new(g);
    let (goals, depth) = match concept {
        Concept::OnePlayer => one_player(g, &preds),
        Concept::ZeroSum => zero_sum(g, &preds),
        Concept::GeneralSum => general_sum(g, &preds),
    };
    Analysed {
        concept,
        goals,
        depth,
    }
}

/// One role; two roles whose goals sum to one constant in every terminal
/// state explored; two roles otherwise.
fn concept(g: &Graph) -> Concept {
    if g.roles == 1 {
        return Concept::OnePlayer;
    }
    let mut sums = terminals(g).map(|i| u16::from(g.goals[i][0]) + u16::from(g.goals[i][1]));
    match sums.next() {
        Some(s) if sums.all(|t| t == s) => Concept::ZeroSum,
        Some(_) => Concept::GeneralSum,
        None => Concept::ZeroSum,
    }
}

fn terminals(g: &Graph) -> impl Iterator<Item = usize> + '_ {
    (0..g.kind.len()).filter(|&i| g.kind[i] == kind::TERMINAL)
}

fn expanded(g: &Graph) -> usize {
    g.start.len() - 1
}

fn successors(g: &Graph, i: usize) -> &[u32] {
    &g.succ[g.start[i] as usize..g.start[i + 1] as usize]
}

/// Predecessor lists (one entry per edge).
struct Preds {
    start: Vec<u32>,
    pred: Vec<u32>,
    /// Per entry, the edge's index in `Graph::succ` (kept only when some
    /// state has both roles choose: it says which joint move it is).
    edge: Vec<u32>,
}

impl Preds {
    fn new(g: &Graph) -> Preds {
        let n = g.kind.len();
        let mut start = vec![0u32; n + 1];
        for &s in &g.succ {
            start[s as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut pred = vec![0u32; g.succ.len()];
        let mut edge = vec![0u32; if g.cols.is_empty() { 0 } else { g.succ.len() }];
        for i in 0..expanded(g) {
            for (k, &s) in successors(g, i).iter().enumerate() {
                let at = fill[s as usize] as usize;
                pred[at] = i as u32;
                if let Some(e) = edge.get_mut(at) {
                    *e = g.start[i] + k as u32;
                }
                fill[s as usize] += 1;
            }
        }
        Preds { start, pred, edge }
    }
    fn of(&self, i: usize) -> &[u32] {
        &self.pred[self.entries(i)]
    }
    fn entries(&self, i: usize) -> std::ops::Range<usize> {
        self.start[i] as usize..self.start[i + 1] as usize
    }
}

/// Where both roles choose, per move of the attacker the joint moves not
/// yet in the attractor: the state joins when one of them reaches zero.
struct Lines {
    /// Per such state, where its counters start.
    first: FxHashMap<u32, u32>,
    left: Vec<u32>,
}

impl Lines {
    fn new(g: &Graph, attacker: u8) -> Lines {
        let mut first = FxHashMap::default();
        let mut left = Vec::new();
        for (&p, &cols) in &g.cols {
            let rows = successors(g, p as usize).len() as u32 / cols;
            let (lines, each) = if attacker == 0 {
                (rows, cols)
            } else {
                (cols, rows)
            };
            first.insert(p, left.len() as u32);
            left.extend(std::iter::repeat_n(each, lines as usize));
        }
        Lines { first, left }
    }

    /// Edge `e` of state `p` joined the attractor: whether `p` does now.
    fn joined(&mut self, g: &Graph, attacker: u8, p: usize, e: u32) -> bool {
        let cols = g.cols[&(p as u32)];
        let k = e - g.start[p];
        let line = if attacker == 0 { k / cols } else { k % cols };
        let at = (self.first[&(p as u32)] + line) as usize;
        self.left[at] -= 1;
        self.left[at] == 0
    }
}

/// The states from which `attacker` forces a terminal state satisfying
/// `target`: per state the moves to it (attacker hurrying, the other
/// delaying), NOT outside.
fn attractor(
    g: &Graph,
    preds: &Preds,
    attacker: u8,
    target: impl Fn(&[u8; 2]) -> bool,
) -> Vec<u32> {
    let n = g.kind.len();
    let mut depth = vec![NOT; n];
    // Successors not yet in the attractor, where the attacker does not choose.
    let mut left: Vec<u32> = (0..n)
        .map(|i| {
            if i < expanded(g) && g.kind[i] != kind::TERMINAL && g.kind[i] != attacker {
                g.start[i + 1] - g.start[i]
            } else {
                0
            }
        })
        .collect();
    let mut lines = Lines::new(g, attacker);
    let mut queue: Vec<u32> = terminals(g)
        .filter(|&i| target(&g.goals[i]))
        .map(|i| i as u32)
        .collect();
    for &i in &queue {
        depth[i as usize] = 0;
    }
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head] as usize;
        head += 1;
        for at in preds.entries(u) {
            let p = preds.pred[at] as usize;
            if depth[p] != NOT {
                continue;
            }
            let joins = if g.kind[p] == attacker {
                true
            } else if g.kind[p] == kind::SIMULTANEOUS {
                lines.joined(g, attacker, p, preds.edge[at])
            } else {
                left[p] -= 1;
                left[p] == 0
            };
            if joins {
                depth[p] = depth[u] + 1;
                queue.push(p as u32);
            }
        }
    }
    depth
}

/// The first role's goal values at terminal states, ascending.
fn first_goals(g: &Graph) -> Vec<u8> {
    let mut v: Vec<u8> = terminals(g).map(|i| g.goals[i][0]).collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn one_player(g: &Graph, preds: &Preds) -> (Vec<[u8; 2]>, Vec<u32>) {
    let n = g.kind.len();
    let mut goals = vec![[UNKNOWN; 2]; n];
    let mut depth = vec![0u32; n];
    for t in first_goals(g) {
        let a = attractor(g, preds, 0, |gs| gs[0] >= t);
        for i in 0..n {
            if a[i] != NOT {
                goals[i] = [t, 0];
                depth[i] = a[i];
            }
        }
    }
    (goals, depth)
}

fn zero_sum(g: &Graph, preds: &Preds) -> (Vec<[u8; 2]>, Vec<u32>) {
    let n = g.kind.len();
    let values = first_goals(g);
    let sum = terminals(g)
        .next()
        .map_or(0, |i| g.goals[i][0] + g.goals[i][1]);
    // The best bound each role can force on the first role's goal.
    let mut lo = vec![UNKNOWN; n];
    for &t in &values {
        let a = attractor(g, preds, 0, |gs| gs[0] >= t);
        for i in 0..n {
            if a[i] != NOT {
                lo[i] = t;
            }
        }
    }
    let mut hi = vec![UNKNOWN; n];
    for &t in values.iter().rev() {
        let a = attractor(g, preds, 1, |gs| gs[0] <= t);
        for i in 0..n {
            if a[i] != NOT {
                hi[i] = t;
            }
        }
    }
    let mut goals = vec![[UNKNOWN; 2]; n];
    for i in 0..n {
        if lo[i] != UNKNOWN && lo[i] == hi[i] {
            goals[i] = [lo[i], sum - lo[i]];
        }
    }
    let depth = optimal_depths(g, preds, &goals);
    (goals, depth)
}

/// Moves to the end when both roles keep the value: the role that gets
/// more (the first on equal goals) picks the fastest of its moves that keep
/// it, the other the slowest. An attractor over the moves that keep the
/// value, which the hurrying role's strategy never leaves, so it reaches
/// every state with a value.
fn optimal_depths(g: &Graph, preds: &Preds, goals: &[[u8; 2]]) -> Vec<u32> {
    let n = g.kind.len();
    let keeps = |p: usize, s: usize| goals[p][0] != UNKNOWN && goals[s] == goals[p];
    let hurries = |p: usize| {
        let m = g.kind[p] as usize;
        m >= 2 || hurry(goals[p], m)
    };
    let mut left: Vec<u32> = (0..n)
        .map(|p| {
            if p < expanded(g) && g.kind[p] != kind::TERMINAL && !hurries(p) {
                successors(g, p)
                    .iter()
                    .filter(|&&s| keeps(p, s as usize))
                    .count() as u32
            } else {
                0
            }
        })
        .collect();
    let mut depth = vec![0u32; n];
    let mut done = vec![false; n];
    let mut queue: Vec<u32> = terminals(g).map(|i| i as u32).collect();
    for &i in &queue {
        done[i as usize] = true;
    }
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head] as usize;
        head += 1;
        for &p in preds.of(u) {
            let p = p as usize;
            if done[p] || !keeps(p, u) {
                continue;
            }
            let joins = hurries(p) || {
                left[p] -= 1;
                left[p] == 0
            };
            if joins {
                (done[p], depth[p]) = (true, depth[u] + 1);
                queue.push(p as u32);
            }
        }
    }
    depth
}

/// Whether `mover` hurries to a state with these goals: it gets more than
/// the other role, or as much and it is the first role.
pub(crate) fn hurry(goals: [u8; 2], mover: usize) -> bool {
    let (own, other) = (goals[mover], goals[1 - mover]);
    own > other || (own == other && mover == 0)
}

fn general_sum(g: &Graph, preds: &Preds) -> (Vec<[u8; 2]>, Vec<u32>) {
    let n = g.kind.len();
    let mut goals = vec![[UNKNOWN; 2]; n];
    let mut depth = vec![0u32; n];
    let mut left: Vec<u32> = (0..n)
        .map(|i| {
            if i < expanded(g) && g.kind[i] != kind::TERMINAL && g.kind[i] != kind::SIMULTANEOUS {
                g.start[i + 1] - g.start[i]
            } else {
                u32::MAX // open states and joint choices are never decided
            }
        })
        .collect();
    let mut queue: Vec<u32> = terminals(g).map(|i| i as u32).collect();
    for &i in &queue {
        goals[i as usize] = g.goals[i as usize];
    }
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head] as usize;
        head += 1;
        for &p in preds.of(u) {
            let p = p as usize;
            left[p] -= 1;
            if left[p] == 0 {
                let mover = if g.kind[p] == kind::FORCED {
                    0
                } else {
                    g.kind[p] as usize
                };
                let best = successors(g, p)
                    .iter()
                    .map(|&s| s as usize)
                    .max_by_key(|&s| rank(goals[s], depth[s], mover))
                    .expect("an expanded non-terminal state has a successor");
                goals[p] = goals[best];
                depth[p] = depth[best] + 1;
                queue.push(p as u32);
            }
        }
    }
    (goals, depth)
}

/// How much `mover` likes a successor (larger is better).
fn rank(goals: [u8; 2], depth: u32, mover: usize) -> (u8, u8, i64) {
    let (own, other) = (goals[mover], goals[1 - mover]);
    let d = i64::from(depth);
    (
        own,
        u8::MAX - other,
        if hurry(goals, mover) { -d } else { d },
    )
}
