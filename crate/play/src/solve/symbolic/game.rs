//! The game as sets and relations over the base propositions: who moves
//! where, one transition relation per move of each role, the terminal
//! states' goals.

use super::bdd::{Changed, Space};
use super::circuit::Circuit;
use super::{Clock, Stop};
use crate::ground::GroundProgram;
use crate::solve::Refusal;
use biodivine_lib_bdd::Bdd;

/// A transition relation: role `role` plays one of its moves (every other
/// role its one legal move). It constrains only the propositions the move
/// can change (`changed`), over their current and next copies, and the
/// current copies its precondition reads: the others keep their values,
/// so images and preimages never touch them (the frame).
pub struct Rel {
    pub role: usize,
    pub bdd: Bdd,
    pub changed: Changed,
}

pub struct Game {
    pub space: Space,
    pub roles: usize,
    pub init: Bdd,
    /// The terminal states; when only counting, false (see
    /// `terminal_parts`).
    pub terminal: Bdd,
    /// The terminal states as a disjunction of parts.
    pub terminal_parts: Vec<Bdd>,
    /// Per role: some move is legal, two moves are.
    pub any_legal: Vec<Bdd>,
    pub choice: Vec<Bdd>,
    /// Per role: the states where it alone chooses (role 0 also where
    /// nobody chooses).
    pub mover: Vec<Bdd>,
    pub rels: Vec<Rel>,
    /// Per role: goal value and the states whose goal (the largest goal
    /// atom that holds) it is.
    pub goal_eq: Vec<Vec<(i64, Bdd)>>,
    /// Per role: the states with no goal atom.
    pub no_goal: Vec<Bdd>,
}

impl Game {
    /// The game; without `values` only what counting the reachable states
    /// needs (no goals, the terminal states in parts).
    pub fn build(
        gp: &GroundProgram,
        mut space: Space,
        clock: &Clock,
        values: bool,
    ) -> Result<Game, Stop> {
        let mut c = Circuit::new(gp, &mut space, clock, values)?;
        let roles = gp.roles.len();
        let mut any_legal = Vec::new();
        let mut choice = Vec::new();
        for moves in &c.moves {
            // At least two legal: some move legal with another before it.
            let (mut one, mut two) = (space.f(), space.f());
            for m in moves {
                two = two.or(&one.and(&m.legal));
                one = one.or(&m.legal);
            }
            any_legal.push(one);
            choice.push(two);
        }
        let mover = match roles {
            1 => vec![space.t()],
            _ => vec![choice[1].not(), choice[1].and_not(&choice[0])],
        };
        let mut goal_eq = Vec::new();
        let mut no_goal = Vec::new();
        for goals in &c.goals {
            let mut sorted: Vec<&(i64, Bdd)> = goals.iter().collect();
            sorted.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
            let mut above = space.f();
            let mut eq = Vec::new();
            for (v, b) in sorted {
                eq.push((*v, b.and_not(&above)));
                above = above.or(b);
            }
            goal_eq.push(eq);
            no_goal.push(above.not());
        }
        let mut rels = Vec::new();
        for (r, mover_r) in mover.iter().enumerate() {
            for m in 0..c.moves[r].len() {
                clock.check()?;
                let pre = mover_r.and(&c.moves[r][m].legal);
                if pre.is_false() {
                    continue;
                }
                let next = c.next_under(gp, &mut space, r, m, clock)?;
                let mut changed = Vec::new();
                let mut t = pre.clone();
                for i in (0..next.len()).rev() {
                    // Changed where `next` can differ under the precondition
                    // (the conjuncts already in `t` only bind next copies).
                    if pre.and(&next[i].xor(&space.cur(i))).is_false() {
                        continue;
                    }
                    changed.push(i);
                    t = space.and(&t, &space.nxt(i).iff(&next[i]))?;
                }
                rels.push(Rel {
                    role: r,
                    bdd: space.note(t),
                    changed: space.changed(&changed),
                });
                clock.check_nodes(space.peak_nodes)?;
            }
        }
        Ok(Game {
            init: space.state(&c.init),
            terminal: std::mem::replace(&mut c.terminal, space.f()),
            terminal_parts: std::mem::take(&mut c.terminal_parts),
            space,
            roles,
            any_legal,
            choice,
            mover,
            rels,
            goal_eq,
            no_goal,
        })
    }

    /// Cuts the relations to transitions from `reach` (after the
    /// reachability analysis): preimages then never leave the reachable
    /// states, whose sets are far smaller than the unreachable
    /// predecessors a preimage would otherwise add.
    pub fn restrict(&mut self, reach: &Bdd) {
        for rel in &mut self.rels {
            rel.bdd = rel.bdd.and(reach);
            self.space.peak_nodes = self.space.peak_nodes.max(rel.bdd.size());
        }
    }

    /// The states with a successor in `set` (by `role`'s moves, or any):
    /// the union of the preimages under each move's relation. One
    /// relation per move keeps each product small: the library builds a
    /// conjunction whole before quantifying, and one relation for all
    /// moves is far larger than its parts.
    pub fn pre(&mut self, set: &Bdd, role: Option<usize>, clock: &Clock) -> Result<Bdd, Stop> {
        let mut out = self.space.f();
        for rel in &self.rels {
            if role.is_some_and(|r| r != rel.role) {
                continue;
            }
            // Between products too: one image of a big layer over every
            // move's relation can take minutes.
            clock.check()?;
            let p = self.space.preimage(set, &rel.bdd, &rel.changed);
            self.space.peak_nodes = self.space.peak_nodes.max(p.size());
            out = self.space.or(&out, &p)?;
            clock.check_nodes(self.space.peak_nodes.max(out.size()))?;
        }
        Ok(self.space.note(out))
    }

    /// The successors of the states in `set` (by any move).
    pub fn image(&mut self, set: &Bdd, clock: &Clock) -> Result<Bdd, Stop> {
        let mut out = self.space.f();
        for rel in &self.rels {
            clock.check()?;
            let p = self.space.image(set, &rel.bdd, &rel.changed);
            self.space.peak_nodes = self.space.peak_nodes.max(p.size());
            out = self.space.or(&out, &p)?;
            clock.check_nodes(self.space.peak_nodes.max(out.size()))?;
        }
        Ok(self.space.note(out))
    }

    /// Nodes of the transition relations (one per move).
    pub fn relation_nodes(&self) -> usize {
        self.rels.iter().map(|r| r.bdd.size()).sum()
    }

    /// Why the reachable states `reach` (with `role_names`) cannot be
    /// solved, as the explicit solver refuses them.
    pub fn check(&self, reach: &Bdd, role_names: &[String]) -> Result<(), Refusal> {
        let open = reach.and_not(&self.terminal);
        let ended = reach.and(&self.terminal);
        for (r, name) in role_names.iter().enumerate().take(self.roles) {
            if !open.and_not(&self.any_legal[r]).is_false() {
                return Err(Refusal(format!(
                    "role {name} has no legal move in a reachable non-terminal state: the game is not playable there"
                )));
            }
            if !ended.and(&self.no_goal[r]).is_false() {
                return Err(Refusal(format!(
                    "a reachable terminal state gives role {name} no goal: solving needs one goal in 0..100 per role"
                )));
            }
            for (v, b) in &self.goal_eq[r] {
                if !(0..=100).contains(v) && !ended.and(b).is_false() {
                    return Err(Refusal(format!(
                        "a reachable terminal state gives role {name} goal {v}: solving needs one goal in 0..100 per role"
                    )));
                }
            }
        }
        if self.roles == 2 && !open.and(&self.choice[0]).and(&self.choice[1]).is_false() {
            return Err(Refusal(
                "both roles choose a move at once in a reachable state: the symbolic solver takes only games where one role moves at a time (the explicit solver, without --symbolic, values simultaneous moves where pure moves secure a value)".into(),
            ));
        }
        Ok(())
    }
}
