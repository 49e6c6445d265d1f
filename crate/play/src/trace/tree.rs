//! Abstract game trees for the lecture: `((3 12 8) (2 4 6) (14 5 2))`
//! parsed into a [`Tree`], and [`TreeGame`], the tree as a state machine.

use super::NodeKind;
use crate::error::TreeError;
use crate::reasoner::{EvalError, StateMachine};
use crate::syntax::{self, Sexp, SexpKind};
use crate::terms::{SymbolTable, TermId, TermStore};
use serde::Serialize;

/// An abstract game tree: leaves carry values for MAX. MAX and MIN
/// alternate over the choice nodes; a chance node, written `(chance a b
/// ...)`, picks one of its children uniformly and passes the turn on
/// unchanged (`((chance 3 5) (chance 2 8))`: MAX chooses, then chance).
#[derive(Clone, Debug, PartialEq)]
pub enum Tree {
    Leaf(i64),
    Node(Vec<Tree>),
    Chance(Vec<Tree>),
}

/// The word that makes a list a chance node.
const CHANCE: &str = "chance";

/// Maximum number of nodes of an abstract tree.
pub const MAX_TREE_NODES: usize = 100_000;

impl Tree {
    /// Parses `((3 12 8) (2 4 6) (14 5 2))` with the project's s-expression
    /// reader. Leaves are integers; a list is a node whose children are its
    /// elements, a chance node when its first element is `chance`.
    pub fn parse(text: &str) -> Result<Tree, TreeError> {
        let st = syntax::parse(text);
        if let Some(d) = st.diagnostics.first() {
            return Err(TreeError::Syntax(d.message.clone()));
        }
        let [form] = st.forms.as_slice() else {
            return Err(TreeError::NotOneList);
        };
        // Post-order walk with an explicit stack (input depth is bounded by
        // the reader, but stay iterative anyway).
        let mut count = 0usize;
        let mut out: Vec<Tree> = Vec::new();
        let mut stack: Vec<(&Sexp, bool)> = vec![(form, false)];
        while let Some((s, done)) = stack.pop() {
            count += 1;
            if count > 2 * MAX_TREE_NODES {
                return Err(TreeError::TooLarge {
                    max: MAX_TREE_NODES,
                });
            }
            match &s.kind {
                SexpKind::Atom => {
                    let t = s.text(text);
                    let v: i64 = t.parse().map_err(|_| TreeError::NotAnInteger(t.into()))?;
                    out.push(Tree::Leaf(v));
                }
                SexpKind::Var => return Err(TreeError::Variable(s.text(text).into())),
                SexpKind::List(items) => {
                    let chance = items.first().is_some_and(|f| {
                        matches!(f.kind, SexpKind::Atom)
                            && f.text(text).eq_ignore_ascii_case(CHANCE)
                    });
                    let kids = &items[usize::from(chance)..];
                    if done {
                        let kids = out.split_off(out.len() - kids.len());
                        out.push(if chance {
                            Tree::Chance(kids)
                        } else {
                            Tree::Node(kids)
                        });
                    } else {
                        if kids.is_empty() {
                            return Err(TreeError::EmptyNode);
                        }
                        stack.push((s, true));
                        for it in kids.iter().rev() {
                            stack.push((it, false));
                        }
                    }
                }
            }
        }
        out.pop().ok_or(TreeError::Empty)
    }

    /// Moves on the longest path from the root.
    pub fn height(&self) -> u32 {
        let mut best = 0;
        let mut stack = vec![(self, 0u32)];
        while let Some((t, d)) = stack.pop() {
            best = best.max(d);
            stack.extend(t.children().iter().map(|k| (k, d + 1)));
        }
        best
    }

    /// A node's children (none for a leaf).
    pub fn children(&self) -> &[Tree] {
        match self {
            Tree::Leaf(_) => &[],
            Tree::Node(kids) | Tree::Chance(kids) => kids,
        }
    }

    /// Whether a chance node is anywhere in the tree.
    pub fn has_chance(&self) -> bool {
        let mut stack = vec![self];
        while let Some(t) = stack.pop() {
            if matches!(t, Tree::Chance(_)) {
                return true;
            }
            stack.extend(t.children());
        }
        false
    }

    /// The expectimax value with `max` (MAX or MIN) at the first choice
    /// node (recursion depth is the tree's height, which the reader
    /// bounds): the minimax value where there is no chance node.
    pub fn value(&self, max: bool) -> f64 {
        match self {
            Tree::Leaf(v) => *v as f64,
            Tree::Node(kids) => {
                let vs = kids.iter().map(|k| k.value(!max));
                if max {
                    vs.fold(f64::NEG_INFINITY, f64::max)
                } else {
                    vs.fold(f64::INFINITY, f64::min)
                }
            }
            Tree::Chance(kids) => {
                kids.iter().map(|k| k.value(max)).sum::<f64>() / kids.len() as f64
            }
        }
    }

    /// The tree with each node's children in `order` (best: the best child
    /// for the player to move first, perfect ordering; worst: the reverse;
    /// ties keep the given order), and for each node its children's
    /// original numbers ([`Label`]), so moves can be shown as in the
    /// original tree.
    pub fn reorder(&self, order: crate::ordering::Order) -> (Tree, Vec<Label>) {
        use crate::ordering::Order;
        fn walk(t: &Tree, max: bool, order: Order) -> (Tree, Option<Vec<Label>>) {
            let kids = match t {
                Tree::Leaf(_) => return (t.clone(), None),
                // Chance has no preference: its children keep their order.
                Tree::Chance(kids) => {
                    let (kids, labels): (Vec<Tree>, Vec<Label>) = kids
                        .iter()
                        .enumerate()
                        .map(|(i, k)| {
                            let (tree, sub) = walk(k, max, order);
                            (tree, Label { label: i + 1, sub })
                        })
                        .unzip();
                    return (Tree::Chance(kids), Some(labels));
                }
                Tree::Node(kids) => kids,
            };
            let mut items: Vec<(f64, usize, Tree, Option<Vec<Label>>)> = kids
                .iter()
                .enumerate()
                .map(|(i, k)| {
                    let (tree, sub) = walk(k, !max, order);
                    (k.value(!max), i + 1, tree, sub)
                })
                .collect();
            match order {
                Order::Given => {}
                Order::Reversed => items.reverse(),
                Order::Best | Order::Worst => {
                    // Better for the mover first (MAX: larger values).
                    items.sort_by(|a, b| {
                        let c = if max {
                            b.0.total_cmp(&a.0)
                        } else {
                            a.0.total_cmp(&b.0)
                        };
                        let c = if order == Order::Worst {
                            c.reverse()
                        } else {
                            c
                        };
                        c.then(a.1.cmp(&b.1))
                    });
                }
            }
            let labels = items
                .iter()
                .map(|(_, label, _, sub)| Label {
                    label: *label,
                    sub: sub.clone(),
                })
                .collect();
            let kids = items.into_iter().map(|(_, _, t, _)| t).collect();
            (Tree::Node(kids), Some(labels))
        }
        let (tree, labels) = walk(self, true, order);
        (tree, labels.unwrap_or_default())
    }

    /// A random tree with `branching` children per node to `depth`, leaves
    /// 0..100, reproducible for a seed (the page's example trees). At most
    /// [`MAX_TREE_NODES`] nodes.
    pub fn random(branching: u32, depth: u32, seed: u64) -> Result<Tree, TreeError> {
        let (b, d) = (branching.max(1) as usize, depth as usize);
        let mut nodes = 1usize;
        let mut level = 1usize;
        for _ in 0..d {
            level = level.saturating_mul(b);
            nodes = nodes.saturating_add(level);
        }
        if nodes > MAX_TREE_NODES {
            return Err(TreeError::RandomTooLarge {
                branching: b,
                depth: d,
                max: MAX_TREE_NODES,
            });
        }
        let mut rng = fastrand::Rng::with_seed(seed);
        // Leaves in depth-first order, then nodes built bottom-up.
        let mut layer: Vec<Tree> = (0..level).map(|_| Tree::Leaf(rng.i64(0..100))).collect();
        for _ in 0..d {
            let mut up = Vec::with_capacity(layer.len() / b);
            let mut it = layer.into_iter();
            loop {
                let kids: Vec<Tree> = it.by_ref().take(b).collect();
                if kids.is_empty() {
                    break;
                }
                up.push(Tree::Node(kids));
            }
            layer = up;
        }
        Ok(layer.pop().unwrap_or(Tree::Leaf(0)))
    }

    /// The tree as text: `((3 12 8) (2 4 6) (14 5 2))`.
    pub fn text(&self) -> String {
        let parts = |kids: &[Tree]| kids.iter().map(Tree::text).collect::<Vec<_>>().join(" ");
        match self {
            Tree::Leaf(v) => v.to_string(),
            Tree::Node(kids) => format!("({})", parts(kids)),
            Tree::Chance(kids) => format!("({CHANCE} {})", parts(kids)),
        }
    }

    /// The tree as JSON: a number for a leaf, an array for a node,
    /// `{"chance": [...]}` for a chance node.
    pub fn to_json(&self) -> serde_json::Value {
        let list =
            |kids: &[Tree]| serde_json::Value::Array(kids.iter().map(Tree::to_json).collect());
        match self {
            Tree::Leaf(v) => serde_json::Value::from(*v),
            Tree::Node(kids) => list(kids),
            Tree::Chance(kids) => serde_json::json!({ CHANCE: list(kids) }),
        }
    }
}

/// A child's number in the original tree, and its own children's labels
/// (`null` for a leaf).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "TreeLabel"))]
pub struct Label {
    pub label: usize,
    pub sub: Option<Vec<Label>>,
}

/// One node of an abstract tree, searched or not, for pages that draw the
/// whole tree (`TreeShapeNode` in JS).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "TreeShapeNode")
)]
pub struct ShapeNode {
    /// Child numbers (1-based) from the root.
    pub path: Vec<u32>,
    /// Who chooses here: `max`, `min`, `chance`, or `leaf`.
    pub kind: NodeKind,
    /// A leaf's value for MAX.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub value: Option<i64>,
    /// How many children it has.
    pub children: u32,
}

/// An abstract tree as a two-role turn-taking game (MAX and MIN alternate
/// over the choice nodes), with a third role `random` (GDL-II's chance)
/// choosing at the chance nodes when the tree has any. Goal of `max` at a
/// leaf is its value, of `min` the negation (zero-sum); `random` has none.
#[derive(Clone)]
pub struct TreeGame {
    store: TermStore,
    roles: Vec<TermId>,
    noop: TermId,
    /// Child-number moves `1`, `2`, ...
    numbers: Vec<TermId>,
    nodes: Vec<TNode>,
}

#[derive(Clone)]
struct TNode {
    /// The role choosing here (0 MAX, 1 MIN, 2 chance); none at a leaf.
    mover: usize,
    value: Option<i64>,
    children: Vec<u32>,
    fluent: TermId,
    /// Child numbers (1-based) from the root.
    path: Vec<u32>,
}

impl TreeGame {
    pub fn new(tree: &Tree) -> TreeGame {
        let mut store = TermStore::new(SymbolTable::new());
        let max = store.symbols.intern("max");
        let min = store.symbols.intern("min");
        let noop = store.symbols.intern("noop");
        let node_sym = store.symbols.intern("node");
        let mut roles = vec![store.constant(max), store.constant(min)];
        if tree.has_chance() {
            let random = store.symbols.intern(crate::terms::kw::RANDOM_NAME);
            roles.push(store.constant(random));
        }
        let noop = store.constant(noop);
        let mut g = TreeGame {
            store,
            roles,
            noop,
            numbers: Vec::new(),
            nodes: Vec::new(),
        };
        // Breadth-first numbering; paths for fluent names. Each queued node
        // carries the role that chooses if it is a choice node.
        let mut queue: std::collections::VecDeque<(&Tree, Vec<TermId>, usize)> =
            std::collections::VecDeque::new();
        queue.push_back((tree, Vec::new(), 0));
        let mut paths: std::collections::VecDeque<Vec<u32>> = std::collections::VecDeque::new();
        paths.push_back(Vec::new());
        let mut pending_children: Vec<(u32, usize)> = Vec::new();
        while let Some((t, path, chooser)) = queue.pop_front() {
            let numbers = paths.pop_front().unwrap_or_default();
            let fluent = g.store.app(node_sym, &path);
            let id = g.nodes.len() as u32;
            let value = match t {
                Tree::Leaf(v) => Some(*v),
                _ => None,
            };
            let nkids = t.children().len();
            // Chance passes the turn on; a choice hands it to the other.
            let (mover, next) = match t {
                Tree::Chance(_) => (2, chooser),
                _ => (chooser, 1 - chooser),
            };
            for (i, k) in t.children().iter().enumerate() {
                let num = g.number(i + 1);
                let mut p = path.clone();
                p.push(num);
                queue.push_back((k, p, next));
                let mut n = numbers.clone();
                n.push(i as u32 + 1);
                paths.push_back(n);
            }
            g.nodes.push(TNode {
                mover,
                value,
                children: Vec::new(),
                fluent,
                path: numbers,
            });
            pending_children.push((id, nkids));
        }
        // Children were queued in order, so node ids are consecutive per parent.
        let mut next = 1u32;
        for (id, n) in pending_children {
            g.nodes[id as usize].children = (next..next + n as u32).collect();
            next += n as u32;
        }
        g
    }

    fn number(&mut self, i: usize) -> TermId {
        while self.numbers.len() < i {
            let s = self
                .store
                .symbols
                .intern(&(self.numbers.len() + 1).to_string());
            let t = self.store.constant(s);
            self.numbers.push(t);
        }
        self.numbers[i - 1]
    }

    /// The leaf value reached by following child numbers (1-based) from the
    /// root, if that is a leaf.
    pub fn leaf_at(&self, path: &[usize]) -> Option<i64> {
        let mut n = 0usize;
        for &c in path {
            n = *self.nodes[n].children.get(c.checked_sub(1)?)? as usize;
        }
        self.nodes[n].value
    }

    pub fn root(&self) -> u32 {
        0
    }

    /// Every node, parents before children (breadth-first), with who
    /// chooses there: MAX at the root, MAX and MIN alternating over the
    /// choice nodes, chance passing the turn on.
    pub fn shape(&self) -> Vec<ShapeNode> {
        let kind = |n: &TNode| match (n.value, n.mover) {
            (Some(_), _) => NodeKind::Leaf,
            (None, 0) => NodeKind::Max,
            (None, 1) => NodeKind::Min,
            (None, _) => NodeKind::Chance,
        };
        self.nodes
            .iter()
            .map(|n| ShapeNode {
                path: n.path.clone(),
                kind: kind(n),
                value: n.value,
                children: n.children.len() as u32,
            })
            .collect()
    }

    /// The child numbers from the root of the node whose state prints as
    /// `fluent` (`(node 2 1)` → `[2, 1]`), for pages that draw the tree.
    pub fn path_of(&self, fluent: &str) -> Option<Vec<u32>> {
        self.nodes
            .iter()
            .find(|n| self.store.display(n.fluent) == fluent)
            .map(|n| n.path.clone())
    }

    /// [`Self::path_of`] for many fluents, indexing the nodes once (a
    /// trace of 11,111 nodes took seconds node by node).
    pub fn paths_of<'a>(
        &self,
        fluents: impl Iterator<Item = Option<&'a str>>,
    ) -> Vec<Option<Vec<u32>>> {
        let mut index: rustc_hash::FxHashMap<String, &[u32]> = rustc_hash::FxHashMap::default();
        for n in &self.nodes {
            index.entry(self.store.display(n.fluent)).or_insert(&n.path);
        }
        fluents
            .map(|f| f.and_then(|f| index.get(f)).map(|p| p.to_vec()))
            .collect()
    }
}

impl StateMachine for TreeGame {
    type State = u32;

    fn roles(&self) -> &[TermId] {
        &self.roles
    }
    fn terms(&self) -> &TermStore {
        &self.store
    }
    fn terms_mut(&mut self) -> &mut TermStore {
        &mut self.store
    }
    fn initial_state(&mut self) -> Result<u32, EvalError> {
        Ok(0)
    }
    fn legal_moves(&mut self, s: &u32, role: usize) -> Result<Vec<TermId>, EvalError> {
        let Some(n) = self.nodes.get(*s as usize) else {
            return Ok(Vec::new());
        };
        if n.children.is_empty() {
            return Ok(Vec::new());
        }
        let k = n.children.len();
        if role == n.mover {
            Ok((1..=k).map(|i| self.numbers[i - 1]).collect())
        } else {
            Ok(vec![self.noop])
        }
    }
    fn next_state(&mut self, s: &u32, joint: &[TermId]) -> Result<u32, EvalError> {
        let n = self
            .nodes
            .get(*s as usize)
            .ok_or_else(|| EvalError::BadMove("no such tree node".into()))?;
        let mv = *joint
            .get(n.mover)
            .ok_or_else(|| EvalError::BadMove("joint move too short".into()))?;
        let i = self
            .numbers
            .iter()
            .position(|&t| t == mv)
            .ok_or_else(|| EvalError::BadMove("not a child number".into()))?;
        n.children
            .get(i)
            .copied()
            .ok_or_else(|| EvalError::BadMove(format!("node has no child {}", i + 1)))
    }
    fn is_terminal(&mut self, s: &u32) -> Result<bool, EvalError> {
        Ok(self
            .nodes
            .get(*s as usize)
            .is_none_or(|n| n.children.is_empty()))
    }
    fn goal_values(&mut self, s: &u32) -> Result<Vec<Vec<i64>>, EvalError> {
        let mut goals = match self.nodes.get(*s as usize).and_then(|n| n.value) {
            Some(v) => vec![vec![v], vec![-v]],
            None => vec![Vec::new(), Vec::new()],
        };
        goals.resize(self.roles.len(), Vec::new());
        Ok(goals)
    }
    fn fluents(&self, s: &u32) -> Vec<TermId> {
        self.nodes
            .get(*s as usize)
            .map(|n| vec![n.fluent])
            .unwrap_or_default()
    }
    fn state_from_fluents(&mut self, fluents: &[TermId]) -> u32 {
        fluents
            .first()
            .and_then(|f| self.nodes.iter().position(|n| n.fluent == *f))
            .unwrap_or(0) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_classic_tree() {
        let t = Tree::parse("((3 12 8) (2 4 6) (14 5 2))").unwrap();
        assert_eq!(
            t,
            Tree::Node(vec![
                Tree::Node(vec![Tree::Leaf(3), Tree::Leaf(12), Tree::Leaf(8)]),
                Tree::Node(vec![Tree::Leaf(2), Tree::Leaf(4), Tree::Leaf(6)]),
                Tree::Node(vec![Tree::Leaf(14), Tree::Leaf(5), Tree::Leaf(2)]),
            ])
        );
        let g = TreeGame::new(&t);
        assert_eq!(g.leaf_at(&[2, 3]), Some(6));
        assert_eq!(g.leaf_at(&[3, 1]), Some(14));
        assert!(Tree::parse("((1 x))").is_err());
        assert!(Tree::parse("(1 ())").is_err());
        assert!(Tree::parse("(1 2) (3)").is_err());
        assert_eq!(Tree::parse("-7").unwrap(), Tree::Leaf(-7));
        let shape = g.shape();
        assert_eq!(shape.len(), 13);
        assert_eq!((shape[0].kind, shape[0].children), (NodeKind::Max, 3));
        assert_eq!(shape[2].kind, NodeKind::Min);
        let leaf = shape.iter().find(|n| n.path == [2, 3]).unwrap();
        assert_eq!((leaf.kind, leaf.value), (NodeKind::Leaf, Some(6)));
    }

    #[test]
    fn chance_nodes_average_and_pass_the_turn_on() {
        // MAX chooses between two chance nodes: 4 (3 and 5) or 5 (2 and 8).
        let t = Tree::parse("((chance 3 5) (CHANCE 2 8))").unwrap();
        assert_eq!(t.value(true), 5.0);
        assert_eq!(t.text(), "((chance 3 5) (chance 2 8))");
        assert_eq!(
            t.to_json().to_string(),
            r#"[{"chance":[3,5]},{"chance":[2,8]}]"#
        );
        // Chance at the root passes the turn on: MAX chooses below it,
        // the mean of 9 and 6.
        let t = Tree::parse("(chance (1 9) (4 6))").unwrap();
        assert_eq!(t.value(true), 7.5);
        assert!(Tree::parse("(chance)").is_err());
        let mut g = TreeGame::new(&t);
        let names: Vec<String> = g.roles().iter().map(|&r| g.terms().display(r)).collect();
        assert_eq!(names, ["max", "min", "random"]);
        assert_eq!(crate::reasoner::chance_role(&g), Some(2));
        let root = g.initial_state().unwrap();
        let legal = g.all_legal_moves(&root).unwrap();
        assert_eq!(legal.iter().map(Vec::len).collect::<Vec<_>>(), [1, 1, 2]);
        let c = g
            .next_state(&root, &[legal[0][0], legal[1][0], legal[2][1]])
            .unwrap();
        let legal = g.all_legal_moves(&c).unwrap();
        assert_eq!(
            legal.iter().map(Vec::len).collect::<Vec<_>>(),
            [2, 1, 1],
            "MAX after chance at the root"
        );
        // A tree without chance keeps its two roles.
        assert_eq!(
            TreeGame::new(&Tree::parse("(1 2)").unwrap()).roles().len(),
            2
        );
    }

    #[test]
    fn tree_game_is_a_turn_taking_state_machine() {
        let mut g = TreeGame::new(&Tree::parse("((3 12) (2))").unwrap());
        let root = g.initial_state().unwrap();
        let legal = g.all_legal_moves(&root).unwrap();
        assert_eq!(legal[0].len(), 2);
        assert_eq!(g.terms().display(legal[1][0]), "noop");
        let c = g.next_state(&root, &[legal[0][0], legal[1][0]]).unwrap();
        assert_eq!(g.terms().display(g.fluents(&c)[0]), "(node 1)");
        let legal = g.all_legal_moves(&c).unwrap();
        assert_eq!(legal[1].len(), 2, "MIN moves at depth 1");
        let leaf = g.next_state(&c, &[legal[0][0], legal[1][1]]).unwrap();
        assert!(g.is_terminal(&leaf).unwrap());
        assert_eq!(g.goals(&leaf).unwrap(), vec![Some(12), Some(-12)]);
    }

    #[test]
    fn trees_reorder_by_value_and_keep_their_labels() {
        use crate::ordering::Order;
        let t = Tree::parse("((3 12 8) (2 4 6) (14 5 2))").unwrap();
        assert_eq!(t.value(true), 3.0);
        let (best, labels) = t.reorder(Order::Best);
        // MAX first takes the child worth 3; MIN nodes put their smallest first.
        assert_eq!(best.text(), "((3 8 12) (2 4 6) (2 5 14))");
        assert_eq!(
            labels.iter().map(|l| l.label).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        let third: Vec<usize> = labels[2]
            .sub
            .as_ref()
            .unwrap()
            .iter()
            .map(|l| l.label)
            .collect();
        assert_eq!(third, [3, 2, 1]);
        let (worst, _) = t.reorder(Order::Worst);
        assert_eq!(worst.text(), "((6 4 2) (14 5 2) (12 8 3))");
        assert_eq!(
            t.reorder(Order::Reversed).0.text(),
            "((2 5 14) (6 4 2) (8 12 3))"
        );
        assert_eq!(t.reorder(Order::Given).0, t);
        assert_eq!(best.value(true), 3.0);
        let r = Tree::random(3, 4, 11).unwrap();
        assert_eq!(
            (r.height(), r.text().matches('(').count()),
            (4, 1 + 3 + 9 + 27)
        );
        assert_eq!(r, Tree::random(3, 4, 11).unwrap());
        assert!(Tree::random(10, 6, 1).is_err());
    }
}
