//! The rule form the grounder works on (a rule's head and body over
//! patterns), below both the rule collection (`rules.rs`) and the
//! demand transformation (`demand.rs`) that produce it.

use crate::deps::RelId;
use crate::program::VarId;
use crate::reasoner::compile::Pat;

/// A body literal of a rule to ground.
#[derive(Clone, Debug)]
pub enum GLit {
    Pos(RelId, Vec<Pat>),
    Neg(RelId, Vec<Pat>),
    Distinct(Pat, Pat),
}

impl GLit {
    pub fn vars(&self, out: &mut Vec<VarId>) {
        let mut add = |p: &Pat| pat_vars(p, out);
        match self {
            GLit::Pos(_, ps) | GLit::Neg(_, ps) => ps.iter().for_each(&mut add),
            GLit::Distinct(a, b) => {
                add(a);
                add(b);
            }
        }
    }
    pub fn is_pos(&self) -> bool {
        matches!(self, GLit::Pos(..))
    }
}

pub fn pat_vars(p: &Pat, out: &mut Vec<VarId>) {
    match p {
        Pat::Var(v) => {
            if !out.contains(v) {
                out.push(*v)
            }
        }
        Pat::Const(_) => {}
        Pat::App(_, args) => args.iter().for_each(|a| pat_vars(a, out)),
    }
}

/// A rule of the ground program's source: `head_rel(head) :- body`.
#[derive(Clone, Debug)]
pub struct GRule {
    pub head_rel: RelId,
    pub head: Vec<Pat>,
    pub body: Vec<GLit>,
    pub num_vars: usize,
}
