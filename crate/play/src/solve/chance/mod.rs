//! Solving GDL-II games (chance and hidden information) over their
//! information sets (`docs/solve.md`, "Games with chance and hidden
//! information"):
//!
//! - **one role against chance** (every other role is `random`): the
//!   role's best expected goal, the same move in every state of an
//!   information set (expectimax over information sets, `expectimax.rs`);
//! - **two roles, zero-sum**: an equilibrium by CFR+ (`cfr.rs`), with its
//!   exploitability measured by best responses.
//!
//! More roles, two roles whose goals do not sum to one constant, trees
//! above the node limit and games whose legal moves reveal what the
//! percepts hide are refused with the reason.

mod cfr;
mod expectimax;
mod tree;

use super::Refusal;
use crate::engine::Engine;
use crate::reasoner::{chance_role, StateMachine};
use expectimax::Strategy;
use serde::Serialize;
use tree::Tree;

/// How much a solve of a GDL-II game may do.
#[derive(Clone, Debug, PartialEq)]
pub struct ChanceLimits {
    /// Wall-clock seconds for the tree and the iterations.
    pub seconds: f64,
    /// Nodes of the game tree at most (histories, not states).
    pub max_nodes: usize,
    /// CFR: exactly this many iterations (else until `target`).
    pub iterations: Option<u64>,
    /// CFR: stop once the exploitability is at most this (goal points).
    pub target: f64,
}

/// The default node limit of a GDL-II solve.
pub const MAX_NODES: usize = 2_000_000;
/// CFR's iterations at most when no count is given.
const MAX_ITERATIONS: u64 = 10_000_000;
/// CFR: the exploitability is measured every this many iterations.
const CHECK_EVERY: u64 = 100;
/// Information sets listed in the policy at most.
const POLICY_LIMIT: usize = 200;

impl Default for ChanceLimits {
    fn default() -> ChanceLimits {
        ChanceLimits {
            seconds: 60.0,
            max_nodes: MAX_NODES,
            iterations: None,
            target: 0.001,
        }
    }
}

/// A move of a policy with its probability.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveProbability {
    pub r#move: String,
    pub probability: f64,
}

/// What a role plays in one of its information sets.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PolicyEntry {
    pub role: String,
    /// The step (1 for the first move).
    pub step: u32,
    /// The role's moves and percepts before it (`(start)` at the start).
    pub history: String,
    /// The moves played with a probability above zero.
    pub moves: Vec<MoveProbability>,
}

/// The result of [`solve_chance`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChanceSolution {
    /// `expectimax` (one role against chance) or `cfr+` (two roles).
    pub method: &'static str,
    /// The roles that choose (every role but `random`), in role order.
    pub roles: Vec<String>,
    /// Each role's expected goal: the optimum (one role), or under the
    /// average strategy (two roles).
    pub values: Vec<f64>,
    /// CFR: the mean gain of each role's best response over its value
    /// (NashConv / 2), in goal points; 0 for one role.
    pub exploitability: f64,
    /// CFR: each role's best response value against the other's strategy.
    pub best_responses: Option<Vec<f64>>,
    pub iterations: u64,
    /// The target was met (CFR) or the optimum computed (one role).
    pub complete: bool,
    /// Why CFR stopped before its target.
    pub stopped: Option<String>,
    pub nodes: u64,
    pub terminal: u64,
    /// Information sets where a role has more than one move.
    pub information_sets: u64,
    pub seconds: f64,
    /// The engine the game ran on.
    pub engine: String,
    /// The policy in the information sets reached when it is played, by
    /// step and history (at most 200).
    pub policy: Vec<PolicyEntry>,
    /// The number of such information sets (also those not listed).
    pub policy_sets: u64,
}

/// [`solve_chance`] on an [`Engine`], naming it.
pub fn solve_gdl2(engine: &mut Engine, limits: &ChanceLimits) -> Result<ChanceSolution, Refusal> {
    let name = engine.name().to_string();
    let mut s = solve_chance(engine, limits)?;
    s.engine = name;
    Ok(s)
}

/// Solves a game with chance and hidden information over its
/// information sets, or refuses with the reason.
pub fn solve_chance<M: StateMachine>(
    m: &mut M,
    limits: &ChanceLimits,
) -> Result<ChanceSolution, Refusal> {
    let started = crate::clock::now_ms();
    let chance = chance_role(m);
    let players: Vec<usize> = (0..m.roles().len())
        .filter(|&r| Some(r) != chance)
        .collect();
    let names: Vec<String> = players
        .iter()
        .map(|&r| m.terms().display(m.roles()[r]))
        .collect();
    if players.is_empty() || players.len() > 2 {
        return Err(Refusal(format!(
            "{} roles besides random ({}): games with hidden information are solved for one \
             role against chance or two zero-sum roles",
            players.len(),
            names.join(", ")
        )));
    }
    let budget = tree::Budget {
        max_nodes: limits.max_nodes,
        deadline_ms: started + limits.seconds * 1000.0,
        seconds: limits.seconds,
    };
    let tree = tree::build(m, players, chance, &budget)?;
    let mut out = if tree.players.len() == 1 {
        one_role(&tree)
    } else {
        zero_sum_check(&tree, &names)?;
        two_roles(&tree, limits, &budget)
    };
    let strategy = out.1;
    out.0.roles = names;
    out.0.nodes = tree.nodes.len() as u64;
    out.0.terminal = tree.goals.len() as u64;
    out.0.information_sets = tree.infosets.iter().filter(|s| s.moves.len() > 1).count() as u64;
    (out.0.policy, out.0.policy_sets) = policy(m, &tree, &strategy, &out.0.roles);
    out.0.seconds = (crate::clock::now_ms() - started) / 1000.0;
    Ok(out.0)
}

fn empty(method: &'static str) -> ChanceSolution {
    ChanceSolution {
        method,
        roles: Vec::new(),
        values: Vec::new(),
        exploitability: 0.0,
        best_responses: None,
        iterations: 0,
        complete: true,
        stopped: None,
        nodes: 0,
        terminal: 0,
        information_sets: 0,
        seconds: 0.0,
        engine: String::new(),
        policy: Vec::new(),
        policy_sets: 0,
    }
}

/// One role: its best response to chance is its optimum.
fn one_role(tree: &Tree) -> (ChanceSolution, Strategy) {
    let br = expectimax::best_response(tree, 0, &Vec::new());
    let strategy: Strategy = tree
        .infosets
        .iter()
        .zip(&br.choice)
        .map(|(s, &c)| {
            let mut v = vec![0.0; s.moves.len()];
            v[c.min(s.moves.len() - 1)] = 1.0;
            v
        })
        .collect();
    let mut s = empty("expectimax");
    s.values = vec![br.value];
    (s, strategy)
}

/// Refuses two roles whose goals do not sum to one constant.
fn zero_sum_check(tree: &Tree, names: &[String]) -> Result<(), Refusal> {
    let sum = |g: &Vec<f64>| g[0] + g[1];
    let first = sum(&tree.goals[0]);
    if let Some(g) = tree.goals.iter().find(|g| sum(g) != first) {
        return Err(Refusal(format!(
            "the goals of {} and {} do not sum to one constant ({} at one end, {} at \
             another): a game with hidden information that is not zero-sum has no single value",
            names[0],
            names[1],
            first,
            sum(g)
        )));
    }
    Ok(())
}

/// Two zero-sum roles: CFR+ until the exploitability is at most the
/// target, the iterations asked for, or the time limit.
fn two_roles(
    tree: &Tree,
    limits: &ChanceLimits,
    budget: &tree::Budget,
) -> (ChanceSolution, Strategy) {
    let mut cfr = cfr::Cfr::new(tree);
    let max = limits.iterations.unwrap_or(MAX_ITERATIONS);
    let mut stopped = None;
    while cfr.iterations < max {
        cfr.iterate();
        if limits.iterations.is_none() && cfr.iterations.is_multiple_of(CHECK_EVERY) {
            let avg = cfr.average();
            let (e, _) = cfr::exploitability(tree, &avg, &expectimax::expected(tree, &avg));
            if e <= limits.target {
                break;
            }
            crate::job::progress("solve: CFR+", || {
                format!("{} iterations, exploitability {e:.4}", cfr.iterations)
            });
        }
        if crate::job::cancelled() {
            stopped = Some(format!("cancelled after {} iterations", cfr.iterations));
        } else if crate::clock::now_ms() >= budget.deadline_ms || crate::job::soft_passed() {
            stopped = Some(format!(
                "the time limit ({:.1} s) passed after {} iterations",
                budget.seconds, cfr.iterations
            ));
        }
        if stopped.is_some() {
            break;
        }
    }
    let avg = cfr.average();
    let values = expectimax::expected(tree, &avg);
    let (e, br) = cfr::exploitability(tree, &avg, &values);
    if stopped.is_none() && limits.iterations.is_none() && e > limits.target {
        stopped = Some(format!("{max} iterations without reaching the target"));
    }
    let mut s = empty("cfr+");
    s.values = values;
    s.exploitability = e;
    s.best_responses = Some(br.to_vec());
    s.iterations = cfr.iterations;
    s.complete = stopped.is_none();
    s.stopped = stopped;
    (s, avg)
}

/// The decision sets reached under `strategy`, by step and history, with
/// their moves of positive probability.
fn policy<M: StateMachine>(
    m: &M,
    tree: &Tree,
    strategy: &Strategy,
    roles: &[String],
) -> (Vec<PolicyEntry>, u64) {
    let reach = expectimax::profile_reach(tree, strategy);
    let mut reached = vec![false; tree.infosets.len()];
    for (i, n) in tree.nodes.iter().enumerate() {
        if n.kind == tree::Kind::Decision && reach[i] > 1e-12 {
            reached[n.data as usize] = true;
        }
    }
    let mut entries: Vec<PolicyEntry> = Vec::new();
    for (i, set) in tree.infosets.iter().enumerate() {
        if !reached[i] {
            continue;
        }
        let moves = set
            .moves
            .iter()
            .zip(&strategy[i])
            .filter(|(_, &p)| p > 1e-9)
            .map(|(&mv, &p)| MoveProbability {
                r#move: m.terms().display(mv),
                probability: p,
            })
            .collect();
        entries.push(PolicyEntry {
            role: roles[set.player as usize].clone(),
            step: set.step + 1,
            history: tree.history_text(m, set.history),
            moves,
        });
    }
    entries.sort_by(|a, b| (a.step, &a.role, &a.history).cmp(&(b.step, &b.role, &b.history)));
    let total = entries.len() as u64;
    entries.truncate(POLICY_LIMIT);
    (entries, total)
}
