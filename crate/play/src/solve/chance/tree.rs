//! The game tree of a GDL-II game with its information sets.
//!
//! Every node is a history, not a state: two histories reaching the same
//! state may differ in what a role knows. A step where several roles
//! choose is made sequential (players in role order, then chance), and a
//! player's decision is keyed by its own history only (its moves and
//! percepts of the steps before), so a later mover of the same step does
//! not see an earlier one's move: the simultaneous step is modelled
//! exactly.

use crate::reasoner::{sort_by_text, StateMachine};
use crate::solve::Refusal;
use crate::terms::TermId;
use rustc_hash::FxHashMap;

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The end: `data` indexes [`Tree::goals`].
    Terminal,
    /// `random` moves: each child equally likely.
    Chance,
    /// A player chooses: `data` is the information set.
    Decision,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub kind: Kind,
    pub data: u32,
    kids_start: u32,
    kids_len: u32,
}

/// One player's information set: the states it cannot tell apart.
#[derive(Clone, Debug)]
pub(crate) struct InfoSet {
    /// The player (0 or 1: index into [`Tree::players`]).
    pub player: u8,
    /// Its history ([`Tree::histories`]); its length is the step.
    pub history: u32,
    pub step: u32,
    /// Its legal moves, in the order of their text (a child per move).
    pub moves: Vec<TermId>,
}

/// A step of a player's history: its move and its percepts.
#[derive(Clone, Debug)]
pub(crate) struct Observation {
    pub parent: u32,
    pub own: TermId,
    pub percepts: Vec<TermId>,
}

/// The tree, nodes in preorder (every child after its parent).
pub(crate) struct Tree {
    pub nodes: Vec<Node>,
    kids: Vec<u32>,
    /// Per terminal node: each player's goal.
    pub goals: Vec<Vec<f64>>,
    pub infosets: Vec<InfoSet>,
    /// Index 0: the empty history.
    pub histories: Vec<Observation>,
    /// The players' role indices (every role but `random`).
    pub players: Vec<usize>,
}

impl Tree {
    pub fn kids(&self, i: usize) -> &[u32] {
        let n = &self.nodes[i];
        &self.kids[n.kids_start as usize..(n.kids_start + n.kids_len) as usize]
    }

    /// A player's history as text: per step its move and what it saw.
    pub fn history_text<M: StateMachine>(&self, m: &M, h: u32) -> String {
        let mut steps = Vec::new();
        let mut h = h;
        while h != 0 {
            let o = &self.histories[h as usize];
            let mut s = m.terms().display(o.own);
            for &p in &o.percepts {
                s.push_str(&format!(" sees {}", m.terms().display(p)));
            }
            steps.push(s);
            h = o.parent;
        }
        steps.reverse();
        if steps.is_empty() {
            "(start)".into()
        } else {
            steps.join("; ")
        }
    }
}

/// How large a tree may grow.
pub(crate) struct Budget {
    pub max_nodes: usize,
    /// `clock::now_ms` deadline.
    pub deadline_ms: f64,
    pub seconds: f64,
}

struct Builder<'a, M: StateMachine> {
    m: &'a mut M,
    chance: Option<usize>,
    budget: &'a Budget,
    tree: Tree,
    history_index: FxHashMap<(u8, u32, TermId, Vec<TermId>), u32>,
    infoset_index: FxHashMap<(u8, u32), u32>,
    /// States visited (the clock is read every 256).
    visits: u64,
}

/// Builds the whole tree from the initial state, or refuses (too many
/// nodes, the time limit, a game whose legal moves reveal what a role
/// does not perceive, a terminal state without a goal).
pub(crate) fn build<M: StateMachine>(
    m: &mut M,
    players: Vec<usize>,
    chance: Option<usize>,
    budget: &Budget,
) -> Result<Tree, Refusal> {
    let root = Observation {
        parent: u32::MAX,
        own: TermId(0),
        percepts: Vec::new(),
    };
    let mut b = Builder {
        m,
        chance,
        budget,
        tree: Tree {
            nodes: Vec::new(),
            kids: Vec::new(),
            goals: Vec::new(),
            infosets: Vec::new(),
            histories: vec![root],
            players,
        },
        history_index: FxHashMap::default(),
        infoset_index: FxHashMap::default(),
        visits: 0,
    };
    let init = b.m.initial_state()?;
    let hists = vec![0; b.tree.players.len()];
    b.state(&init, &hists, 0)?;
    Ok(b.tree)
}

impl<M: StateMachine> Builder<'_, M> {
    fn push(&mut self, kind: Kind, data: u32, kids: usize) -> u32 {
        let i = self.tree.nodes.len() as u32;
        self.tree.nodes.push(Node {
            kind,
            data,
            kids_start: self.tree.kids.len() as u32,
            kids_len: kids as u32,
        });
        self.tree.kids.extend(std::iter::repeat_n(0, kids));
        i
    }

    fn set_kid(&mut self, node: u32, k: usize, kid: u32) {
        let start = self.tree.nodes[node as usize].kids_start as usize;
        self.tree.kids[start + k] = kid;
    }

    fn over_budget(&mut self) -> Result<(), Refusal> {
        let n = self.tree.nodes.len();
        self.visits += 1;
        if n >= self.budget.max_nodes {
            return Err(Refusal(format!(
                "the game tree has more than {} nodes (the node limit, --max-nodes): \
                 too large to solve with its information sets",
                self.budget.max_nodes
            )));
        }
        if self.visits.is_multiple_of(256) {
            if crate::job::cancelled() {
                return Err(Refusal("cancelled".into()));
            }
            if crate::clock::now_ms() >= self.budget.deadline_ms || crate::job::soft_passed() {
                return Err(Refusal(format!(
                    "the time limit ({:.1} s) passed while building the game tree \
                     ({n} nodes so far)",
                    self.budget.seconds
                )));
            }
            crate::job::progress("solve: game tree", || format!("{n} nodes"));
        }
        Ok(())
    }

    /// The subtree of a state reached by the players' histories `hists`.
    fn state(&mut self, s: &M::State, hists: &[u32], step: u32) -> Result<u32, Refusal> {
        self.over_budget()?;
        if self.m.is_terminal(s)? {
            return self.terminal(s);
        }
        let mut legal = self.m.all_legal_moves(s)?;
        for (r, moves) in legal.iter_mut().enumerate() {
            if moves.is_empty() {
                let role = self.m.terms().display(self.m.roles()[r]);
                return Err(Refusal(format!(
                    "{role} has no legal move in a non-terminal state (step {})",
                    step + 1
                )));
            }
            sort_by_text(self.m.terms(), moves);
        }
        let mut movers = Vec::new();
        for p in 0..self.tree.players.len() {
            let moves = &legal[self.tree.players[p]];
            let set = self.infoset(p, hists[p], step, moves)?;
            if moves.len() > 1 {
                movers.push((p, set));
            }
        }
        let mut joint: Vec<TermId> = legal.iter().map(|l| l[0]).collect();
        self.choices(s, hists, step, &legal, &movers, &mut joint)
    }

    fn terminal(&mut self, s: &M::State) -> Result<u32, Refusal> {
        let goals = self.m.goals(s)?;
        let mut out = Vec::new();
        for &r in &self.tree.players {
            match goals[r] {
                Some(g) => out.push(g as f64),
                None => {
                    let role = self.m.terms().display(self.m.roles()[r]);
                    return Err(Refusal(format!("a terminal state gives {role} no goal")));
                }
            }
        }
        self.tree.goals.push(out);
        Ok(self.push(Kind::Terminal, self.tree.goals.len() as u32 - 1, 0))
    }

    /// The information set of player `p` with history `h`; the same moves
    /// must be legal in every state of it.
    fn infoset(&mut self, p: usize, h: u32, step: u32, moves: &[TermId]) -> Result<u32, Refusal> {
        if let Some(&i) = self.infoset_index.get(&(p as u8, h)) {
            if self.tree.infosets[i as usize].moves != moves {
                let role = self.m.terms().display(self.m.roles()[self.tree.players[p]]);
                return Err(Refusal(format!(
                    "{role}'s legal moves differ between states it cannot tell apart \
                     (after {}): the moves reveal what the percepts hide",
                    self.tree.history_text(self.m, h)
                )));
            }
            return Ok(i);
        }
        let i = self.tree.infosets.len() as u32;
        self.tree.infosets.push(InfoSet {
            player: p as u8,
            history: h,
            step,
            moves: moves.to_vec(),
        });
        self.infoset_index.insert((p as u8, h), i);
        Ok(i)
    }

    /// The players in `movers` choose one after the other, then chance.
    fn choices(
        &mut self,
        s: &M::State,
        hists: &[u32],
        step: u32,
        legal: &[Vec<TermId>],
        movers: &[(usize, u32)],
        joint: &mut [TermId],
    ) -> Result<u32, Refusal> {
        if let Some((&(p, set), rest)) = movers.split_first() {
            let role = self.tree.players[p];
            let node = self.push(Kind::Decision, set, legal[role].len());
            for (k, &mv) in legal[role].iter().enumerate() {
                joint[role] = mv;
                let kid = self.choices(s, hists, step, legal, rest, joint)?;
                self.set_kid(node, k, kid);
            }
            return Ok(node);
        }
        match self.chance {
            Some(c) if legal[c].len() > 1 => {
                let node = self.push(Kind::Chance, 0, legal[c].len());
                for (k, &mv) in legal[c].iter().enumerate() {
                    joint[c] = mv;
                    let kid = self.outcome(s, hists, step, joint)?;
                    self.set_kid(node, k, kid);
                }
                Ok(node)
            }
            _ => self.outcome(s, hists, step, joint),
        }
    }

    /// The joint move made: each player's history grows by its move and
    /// percepts.
    fn outcome(
        &mut self,
        s: &M::State,
        hists: &[u32],
        step: u32,
        joint: &[TermId],
    ) -> Result<u32, Refusal> {
        let next = self.m.next_state(s, joint)?;
        let percepts = self.m.percepts(s, joint)?;
        let mut grown = Vec::with_capacity(hists.len());
        for (p, &h) in hists.iter().enumerate() {
            let role = self.tree.players[p];
            grown.push(self.observe(p, h, joint[role], &percepts[role]));
        }
        self.state(&next, &grown, step + 1)
    }

    fn observe(&mut self, p: usize, h: u32, own: TermId, percepts: &[TermId]) -> u32 {
        let key = (p as u8, h, own, percepts.to_vec());
        if let Some(&i) = self.history_index.get(&key) {
            return i;
        }
        let i = self.tree.histories.len() as u32;
        self.tree.histories.push(Observation {
            parent: h,
            own,
            percepts: percepts.to_vec(),
        });
        self.history_index.insert(key, i);
        i
    }
}
