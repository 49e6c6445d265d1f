//! The fast engine as a [`StateMachine`]: each query moves the network to
//! the state asked about (and the joint move), then reads the hooks.

use super::super::subgames::SHARED;
use super::{BitState, FastEngine};
use crate::reasoner::{EvalError, StateMachine};
use crate::terms::{TermId, TermStore};
use smallvec::SmallVec;

impl StateMachine for FastEngine {
    type State = BitState;

    fn roles(&self) -> &[TermId] {
        &self.t.roles
    }

    fn terms(&self) -> &TermStore {
        &self.store
    }

    fn terms_mut(&mut self) -> &mut TermStore {
        &mut self.store
    }

    fn initial_state(&mut self) -> Result<BitState, EvalError> {
        let mut s = BitState::zero(self.cur.len());
        for &b in &self.t.init {
            s.set(b as usize, true);
        }
        Ok(s)
    }

    fn legal_moves(&mut self, state: &BitState, role: usize) -> Result<Vec<TermId>, EvalError> {
        self.check_state(state)?;
        self.at(state);
        if role >= self.t.roles.len() {
            return Ok(Vec::new());
        }
        let bits = self.legal_bits(role).to_vec();
        let base = self.t.legal_start[role] as usize;
        let mut out = Vec::new();
        for (w, &word) in bits.iter().enumerate() {
            let mut x = word;
            while x != 0 {
                let b = x.trailing_zeros() as usize;
                x &= x - 1;
                out.push(self.t.legal_move[base + w * 64 + b]);
            }
        }
        Ok(out)
    }

    fn next_state(&mut self, state: &BitState, joint: &[TermId]) -> Result<BitState, EvalError> {
        self.check_state(state)?;
        let nodes = self.input_nodes(joint)?;
        self.go_to(state);
        self.set_inputs(&nodes);
        let mut next = SmallVec::from_slice(&self.hooked[..self.cur.len()]);
        self.outside_part(&mut next);
        Ok(BitState(next))
    }

    fn subgames(&self) -> Vec<usize> {
        self.t
            .subgames
            .as_ref()
            .map_or(Vec::new(), |s| s.movers.clone())
    }

    fn subgame_of_move(&self, role: usize, mv: TermId) -> Option<u32> {
        let parts = self.t.subgames.as_ref()?;
        let &i = self.t.move_index.get(&(role as u32, mv))?;
        Some(parts.of_legal[i as usize]).filter(|&p| p != SHARED)
    }

    fn enter_subgame(&mut self, part: u32, pass: TermId) -> Result<(), EvalError> {
        FastEngine::enter_subgame(self, part, pass)
    }

    fn hold_subgame(&mut self, state: &BitState) -> Result<BitState, EvalError> {
        self.check_state(state)?;
        FastEngine::hold_subgame(self, state)
    }

    fn is_terminal(&mut self, state: &BitState) -> Result<bool, EvalError> {
        self.check_state(state)?;
        self.at(state);
        Ok(self.on(self.t.terminal as usize))
    }

    fn goal_values(&mut self, state: &BitState) -> Result<Vec<Vec<i64>>, EvalError> {
        self.check_state(state)?;
        self.at(state);
        self.sweep_lazy();
        Ok(self
            .t
            .goals
            .iter()
            .map(|gs| {
                let mut v: Vec<i64> = gs
                    .iter()
                    .filter(|(_, n)| self.on(*n as usize))
                    .map(|(v, _)| *v)
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            })
            .collect())
    }

    fn percepts(
        &mut self,
        state: &BitState,
        joint: &[TermId],
    ) -> Result<Vec<Vec<TermId>>, EvalError> {
        if self.t.sees.is_none() {
            return Ok(vec![Vec::new(); self.t.roles.len()]);
        }
        self.check_state(state)?;
        let nodes = self.input_nodes(joint)?;
        self.go_to(state);
        self.set_inputs(&nodes);
        self.sweep_lazy();
        let sees = self.t.sees.as_deref().unwrap_or_default();
        Ok(sees
            .iter()
            .map(|ps| {
                let mut v: Vec<TermId> = ps
                    .iter()
                    .filter(|(_, n)| self.on(*n as usize))
                    .map(|(p, _)| *p)
                    .collect();
                v.dedup();
                v
            })
            .collect())
    }

    fn has_percepts(&self) -> bool {
        self.t.sees.is_some()
    }

    fn fluents(&self, state: &BitState) -> Vec<TermId> {
        (0..self.t.base_fluent.len())
            .filter(|&i| state.get(i))
            .map(|i| self.t.base_fluent[i])
            .collect()
    }

    /// Fluents that are in no reachable state (outside the grounded base
    /// propositions) are dropped: the network has no place for them.
    fn state_from_fluents(&mut self, fluents: &[TermId]) -> BitState {
        let mut s = BitState::zero(self.cur.len());
        for f in fluents {
            if let Some(&b) = self.t.base_of_fluent.get(f) {
                s.set(b as usize, true);
            }
        }
        s
    }
}
