//! MaxN (thesis 3.2.3): values for every role; the role with a choice
//! maximises its own; with several choosing, paranoid on our value. It
//! prunes nothing and is not traced.

use super::node::Cx;
use crate::reasoner::StateMachine;
use crate::search::{replies, Stop, MAX_DEPTH};
use crate::terms::TermId;

/// A MaxN result: values per role, whether they are exact, the best joint move.
pub(super) type MaxnValue = (Vec<f64>, bool, Option<Vec<TermId>>);

/// Values per role and the joint move that leads to them.
type Line = (Vec<f64>, Vec<TermId>);

impl<M: StateMachine> Cx<'_, M> {
    pub(super) fn maxn(&mut self, s: &M::State, depth: u32, ply: u32) -> Result<MaxnValue, Stop> {
        self.stats.nodes += 1;
        if self.limit.tick() {
            return Err(Stop::Budget);
        }
        let n = self.m.roles().len();
        if self.m.is_terminal(s)? {
            return self.maxn_goals(s);
        }
        if depth == 0 || ply >= MAX_DEPTH {
            self.stats.leaves += 1;
            let mut v = Vec::with_capacity(n);
            for r in 0..n {
                v.push(self.h.evaluate(self.m, s, r)?);
            }
            return Ok((v, false, None));
        }
        let legal = self.m.all_legal_moves(s)?;
        if legal.iter().any(Vec::is_empty) {
            return self.maxn_goals(s);
        }
        let choosing: Vec<usize> = (0..n).filter(|&r| legal[r].len() > 1).collect();
        if choosing.len() <= 1 {
            let mover = choosing.first().copied().unwrap_or(self.role);
            return self.maxn_mover(s, depth, ply, &legal, mover);
        }
        self.maxn_paranoid(s, depth, ply, &legal)
    }

    /// A leaf valued by the goals.
    fn maxn_goals(&mut self, s: &M::State) -> Result<MaxnValue, Stop> {
        self.stats.leaves += 1;
        let g = self.m.goals(s)?;
        Ok((
            g.iter().map(|v| v.unwrap_or(0) as f64).collect(),
            true,
            None,
        ))
    }

    /// At most one role chooses: `mover` maximises its own value.
    fn maxn_mover(
        &mut self,
        s: &M::State,
        depth: u32,
        ply: u32,
        legal: &[Vec<TermId>],
        mover: usize,
    ) -> Result<MaxnValue, Stop> {
        let mut solved = true;
        let mut best: Option<Line> = None;
        for joint in crate::reasoner::joint_moves(legal)? {
            let child = self.m.next_state(s, &joint)?;
            let (v, sv, _) = self.maxn(&child, depth - 1, ply + 1)?;
            solved &= sv;
            if best.as_ref().is_none_or(|(b, _)| v[mover] > b[mover]) {
                if ply == 0 {
                    self.root_best = Some((joint[self.role], v[self.role]));
                }
                best = Some((v, joint));
            }
        }
        let (v, j) = best.expect("at least one joint move");
        Ok((v, solved, Some(j)))
    }

    /// Several roles choose: our best move against the others' worst reply
    /// for our value.
    fn maxn_paranoid(
        &mut self,
        s: &M::State,
        depth: u32,
        ply: u32,
        legal: &[Vec<TermId>],
    ) -> Result<MaxnValue, Stop> {
        let mut solved = true;
        let mut best: Option<Line> = None;
        for &our in &legal[self.role] {
            let mut worst: Option<Line> = None;
            for joint in replies(legal, self.role, our)? {
                let child = self.m.next_state(s, &joint)?;
                let (v, sv, _) = self.maxn(&child, depth - 1, ply + 1)?;
                solved &= sv;
                if worst
                    .as_ref()
                    .is_none_or(|(b, _)| v[self.role] < b[self.role])
                {
                    worst = Some((v, joint));
                }
            }
            let worst = worst.expect("at least one reply");
            if best
                .as_ref()
                .is_none_or(|(b, _)| worst.0[self.role] > b[self.role])
            {
                if ply == 0 {
                    self.root_best = Some((our, worst.0[self.role]));
                }
                best = Some(worst);
            }
        }
        let (v, j) = best.expect("at least one move");
        Ok((v, solved, Some(j)))
    }
}
