//! The BDD operations the symbolic solver needs, over `biodivine-lib-bdd`
//! (docs/solve.md says why that crate). Every base proposition `i` has two
//! variables, interleaved: `2i` in the current state, `2i + 1` in the next,
//! so renaming one copy into the other keeps the order and is a relabelling
//! of the nodes. Proposition `i` sits at a position in the order
//! (`order.rs`): its variables are `2 · position` and `2 · position + 1`.

use biodivine_lib_bdd::{op_function, Bdd, BddNode, BddVariable, BddVariableSet};

/// The variables of `n` base propositions (current and next copies).
pub struct Space {
    set: BddVariableSet,
    n: usize,
    current: Vec<BddVariable>,
    next: Vec<BddVariable>,
    /// The largest BDD built by [`Space::note`], in nodes.
    pub peak_nodes: usize,
    /// Nodes of one result at most in the bounded operations
    /// ([`Space::and`], [`Space::or`]): they stop as soon as it is passed,
    /// so one operation cannot run on far past the solve's limits.
    pub max_nodes: usize,
}

/// The variables of the propositions a transition relation changes, in
/// the order (sorted).
pub struct Changed {
    current: Vec<BddVariable>,
    next: Vec<BddVariable>,
}

/// A bounded operation's result passed [`Space::max_nodes`].
#[derive(Debug)]
pub struct TooBig(pub usize);

impl Space {
    /// A space for propositions at the positions `position` (a
    /// permutation of `0..n`) whose bounded operations stop above
    /// `max_nodes`; `None` over the crate's 65,535 variables.
    pub fn new(position: &[usize], max_nodes: usize) -> Option<Space> {
        let n = position.len();
        let vars = u16::try_from(2 * n).ok()?;
        let set = BddVariableSet::new_anonymous(vars);
        let var = |k: usize| BddVariable::from_index(k);
        Some(Space {
            current: position.iter().map(|&p| var(2 * p)).collect(),
            next: position.iter().map(|&p| var(2 * p + 1)).collect(),
            set,
            n,
            peak_nodes: 0,
            max_nodes,
        })
    }

    pub fn t(&self) -> Bdd {
        self.set.mk_true()
    }

    pub fn f(&self) -> Bdd {
        self.set.mk_false()
    }

    /// Proposition `i` in the current state.
    pub fn cur(&self, i: usize) -> Bdd {
        self.set.mk_var(self.current[i])
    }

    /// Proposition `i` in the next state.
    pub fn nxt(&self, i: usize) -> Bdd {
        self.set.mk_var(self.next[i])
    }

    /// The single state where exactly the propositions `on` hold.
    pub fn state(&self, on: &[bool]) -> Bdd {
        let mut lits: Vec<(BddVariable, bool)> = self
            .current
            .iter()
            .copied()
            .zip(on.iter().copied())
            .collect();
        lits.sort_unstable_by_key(|&(v, _)| v);
        self.set.mk_true().select(&lits)
    }

    /// `a ∧ b`, or [`TooBig`] as soon as the result passes the node limit.
    pub fn and(&self, a: &Bdd, b: &Bdd) -> Result<Bdd, TooBig> {
        Bdd::binary_op_with_limit(self.max_nodes, a, b, op_function::and)
            .ok_or(TooBig(self.max_nodes))
    }

    /// `a ∨ b`, bounded as [`Space::and`].
    pub fn or(&self, a: &Bdd, b: &Bdd) -> Result<Bdd, TooBig> {
        Bdd::binary_op_with_limit(self.max_nodes, a, b, op_function::or)
            .ok_or(TooBig(self.max_nodes))
    }

    /// `a ∧ ¬b`, bounded as [`Space::and`].
    pub fn and_not(&self, a: &Bdd, b: &Bdd) -> Result<Bdd, TooBig> {
        Bdd::binary_op_with_limit(self.max_nodes, a, b, op_function::and_not)
            .ok_or(TooBig(self.max_nodes))
    }

    /// Records `b`'s size for the peak; returns it.
    pub fn note(&mut self, b: Bdd) -> Bdd {
        self.peak_nodes = self.peak_nodes.max(b.size());
        b
    }

    /// The variables of the propositions `props` that a relation changes.
    pub fn changed(&self, props: &[usize]) -> Changed {
        let mut current: Vec<BddVariable> = props.iter().map(|&i| self.current[i]).collect();
        let mut next: Vec<BddVariable> = props.iter().map(|&i| self.next[i]).collect();
        current.sort_unstable();
        next.sort_unstable();
        Changed { current, next }
    }

    /// The successors of the states in `set` under `rel`, which changes the
    /// propositions `changed` (the others keep their values): the current
    /// copies of the changed ones are quantified away and their next copies
    /// become current.
    pub fn image(&self, set: &Bdd, rel: &Bdd, changed: &Changed) -> Bdd {
        let next = Bdd::binary_op_with_exists(set, rel, op_function::and, &changed.current);
        // Only changed propositions have a next variable left, and their
        // current one is gone: odd to even keeps the order.
        relabel(next, |v| v & !1)
    }

    /// The states with a successor under `rel` in `set`: the preimage.
    pub fn preimage(&self, set: &Bdd, rel: &Bdd, changed: &Changed) -> Bdd {
        let primed = relabel(set.clone(), |v| {
            let var = BddVariable::from_index(v);
            if changed.current.binary_search(&var).is_ok() {
                v + 1
            } else {
                v
            }
        });
        Bdd::binary_op_with_exists(&primed, rel, op_function::and, &changed.next)
    }

    /// Number of states in a set over the current copy (exact).
    pub fn count(&self, set: &Bdd) -> u128 {
        let all = set.exact_cardinality() >> self.n;
        let digits = all.to_u64_digits();
        match digits.as_slice() {
            [] => 0,
            [lo] => u128::from(*lo),
            [lo, hi] => u128::from(*lo) | (u128::from(*hi) << 64),
            _ => u128::MAX,
        }
    }
}

/// `b` with every variable index mapped by `f` (which must keep the
/// order of the variables `b` uses).
fn relabel(b: Bdd, f: impl Fn(usize) -> usize) -> Bdd {
    let mut nodes = b.to_nodes();
    for node in nodes.iter_mut().skip(2) {
        node.var = BddVariable::from_index(f(node.var.to_index()));
    }
    if nodes.len() == 1 {
        return Bdd::from_nodes(&nodes).expect("the false BDD");
    }
    let nodes: Vec<BddNode> = nodes;
    Bdd::from_nodes(&nodes).expect("relabelling within the interleaved order keeps a BDD")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_and_preimage_of_a_swap() {
        // Two propositions; the relation swaps them.
        let s = Space::new(&[1, 0], 1000).unwrap();
        let rel = s.nxt(0).iff(&s.cur(1)).and(&s.nxt(1).iff(&s.cur(0)));
        let both = s.changed(&[0, 1]);
        let a = s.state(&[true, false]);
        let b = s.state(&[false, true]);
        assert_eq!(s.image(&a, &rel, &both), b);
        assert_eq!(s.preimage(&b, &rel, &both), a);
        assert_eq!(s.count(&a.or(&b)), 2);
        assert_eq!(s.count(&s.t()), 4);
    }

    #[test]
    fn a_relation_over_the_changed_propositions_keeps_the_others() {
        // Three propositions in the order 2, 0, 1; the relation sets
        // proposition 1 where proposition 0 holds and mentions no other.
        let s = Space::new(&[1, 2, 0], 1000).unwrap();
        let rel = s.cur(0).and(&s.nxt(1));
        let only_1 = s.changed(&[1]);
        let from = s
            .state(&[true, false, true])
            .or(&s.state(&[true, true, false]));
        let to = s
            .state(&[true, true, true])
            .or(&s.state(&[true, true, false]));
        assert_eq!(s.image(&from, &rel, &only_1), to);
        // Each state of `to` has a predecessor that differs at most in 1.
        let pre = s.preimage(&to, &rel, &only_1);
        let expected = [
            [true, false, true],
            [true, true, true],
            [true, false, false],
            [true, true, false],
        ]
        .iter()
        .fold(s.f(), |acc, st| acc.or(&s.state(st)));
        assert_eq!(pre, expected);
        assert_eq!(
            s.image(&s.state(&[false, false, true]), &rel, &only_1),
            s.f()
        );
    }

    #[test]
    fn bounded_operations_stop_at_the_node_limit() {
        // x0 ∧ x1 ∧ … over 8 propositions: one node per variable.
        let big = Space::new(&(0..8).collect::<Vec<_>>(), 100).unwrap();
        let conj = (0..8).try_fold(big.t(), |acc, i| big.and(&acc, &big.cur(i)));
        assert_eq!(conj.unwrap().size(), 8 + 2);
        let small = Space::new(&(0..8).collect::<Vec<_>>(), 5).unwrap();
        let conj = (0..8).try_fold(small.t(), |acc, i| small.and(&acc, &small.cur(i)));
        assert!(matches!(conj, Err(TooBig(5))));
        // Within the limit the bounded and the plain operations agree.
        let (a, b) = (big.cur(0).xor(&big.cur(3)), big.cur(3).or(&big.nxt(5)));
        assert_eq!(big.or(&a, &b).unwrap(), a.or(&b));
        assert_eq!(big.and_not(&a, &b).unwrap(), a.and_not(&b));
    }
}
