//! `explain`: a position and, for every legal move of a role, the value of
//! the state after it under a heuristic, with the planning heuristics' goal
//! distances and relaxed plans (thesis chapter 5's way of explaining its
//! numbers). Shared by `gdlkit explain`, the wasm `explain` and the page.
//!
//! Generic over the heuristic name: any heuristic of
//! [`super::heuristics::build`] works; those with
//! [`Heuristic::details`] (fjo, hff, hadd, hmax) report their raw value
//! (f_JO, or the distance to the role's best goal) and goal distances,
//! the others their value in `[1, 99]`. A terminal state is worth its goal
//! value (for `fjo`: `g − 50`, as in the thesis).

use super::heuristics::{self, Heuristic};
use super::Stop;
use crate::error::{ExplainError, PositionError};
use crate::program::{parse_ground_term, Program};
use crate::reasoner::{first_joint_moves, joint_count, StateMachine};
use crate::terms::TermId;
use serde::Serialize;

pub use super::fjo::GoalDistance;

/// The explanation of one position.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase")
)]
pub struct Explanation {
    pub role: String,
    pub heuristic: String,
    pub terminal: bool,
    /// The position's own value (None: an unreachable distance).
    pub value: Option<f64>,
    /// The position's goal distances (planning heuristics, non-terminal).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(
        feature = "typescript",
        ts(as = "Option<Vec<crate::search::fjo::GoalDistance>>", optional)
    )]
    pub goals: Vec<GoalDistance>,
    pub moves: Vec<MoveValue>,
    /// The move with the best value (what a one-ply search on this
    /// heuristic plays), for the board's highlights.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub chosen: Option<String>,
    /// The move with the second-best value.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub runner_up: Option<String>,
}

/// One legal move of the role and the value after it.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "ExplainedMove")
)]
pub struct MoveValue {
    #[serde(rename = "move")]
    pub mv: String,
    /// With simultaneous replies: the minimum over them.
    pub value: Option<f64>,
    pub terminal: bool,
    pub goals: Vec<GoalDistance>,
    /// With several joint replies of the other roles: each one's value.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<Vec<Reply>>", optional))]
    pub replies: Vec<Reply>,
    /// The board cells the move changes (the same after every reply):
    /// `[column, row]` or `[column, row, layer]`; empty without a board.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "typescript", ts(as = "Option<Vec<Vec<String>>>", optional))]
    pub cells: Vec<Vec<String>>,
}

#[derive(Clone, Debug, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "ExplainedReply")
)]
pub struct Reply {
    /// The other roles' moves, in role order.
    pub moves: Vec<String>,
    pub value: Option<f64>,
}

/// Upper bound on joint replies evaluated per move.
const MAX_REPLIES: usize = 256;

/// Upper bound on the moves in those replies (replies times other roles):
/// with 2,000 simultaneous roles, 32 replies of 1,999 moves each.
const MAX_REPLY_MOVES: usize = 65_536;

/// Plays `moves` (joint moves, one per role in role order, as text) from
/// the initial state.
pub fn position<M: StateMachine>(
    m: &mut M,
    moves: &[Vec<String>],
) -> Result<M::State, PositionError> {
    let s = m.initial_state()?;
    position_from(m, s, moves)
}

/// Plays `moves` from state `s` (see [`position`]).
pub fn position_from<M: StateMachine>(
    m: &mut M,
    mut s: M::State,
    moves: &[Vec<String>],
) -> Result<M::State, PositionError> {
    let n = m.roles().len();
    for (i, joint) in moves.iter().enumerate() {
        let step = i + 1;
        if m.is_terminal(&s)? {
            return Err(PositionError::Terminal { step });
        }
        if joint.len() != n {
            return Err(PositionError::MoveCount {
                step,
                given: joint.len(),
                roles: n,
            });
        }
        let legal = m.all_legal_moves(&s)?;
        let mut ids = Vec::with_capacity(n);
        for (r, text) in joint.iter().enumerate() {
            let id = parse_ground_term(m.terms_mut(), text)
                .map_err(|error| PositionError::BadMove { step, error })?;
            if !legal[r].contains(&id) {
                return Err(PositionError::Illegal {
                    step,
                    mv: m.terms().display(id),
                    role: m.terms().display(m.roles()[r]),
                });
            }
            ids.push(id);
        }
        s = m.next_state(&s, &ids)?;
    }
    Ok(s)
}

/// Value and goal distances of a state for `role`.
fn value_of<M: StateMachine>(
    m: &mut M,
    h: &mut dyn Heuristic<M>,
    fjo: bool,
    s: &M::State,
    role: usize,
) -> Result<(bool, Option<f64>, Vec<GoalDistance>), Stop> {
    if m.is_terminal(s)? {
        let g = m.goals(s)?[role].unwrap_or(0) as f64;
        return Ok((true, Some(if fjo { g - 50.0 } else { g }), Vec::new()));
    }
    match h.details(m, s, role)? {
        Some(d) => Ok((false, d.value, d.goals)),
        None => Ok((false, Some(h.evaluate(m, s, role)?), Vec::new())),
    }
}

/// Explains the position after `moves` for `role` (default: the first role
/// with more than one legal move, else the first) under `heuristic`.
pub fn explain<M: StateMachine + 'static>(
    m: &mut M,
    program: &Program,
    moves: &[Vec<String>],
    role: Option<&str>,
    heuristic: &str,
) -> Result<Explanation, ExplainError> {
    let s = position(m, moves)?;
    explain_state(m, program, &s, role, heuristic)
}

/// [`explain`] for a state in hand (JS: `game.explain(state, options)`).
pub fn explain_state<M: StateMachine + 'static>(
    m: &mut M,
    program: &Program,
    s: &M::State,
    role: Option<&str>,
    heuristic: &str,
) -> Result<Explanation, ExplainError> {
    let s = s.clone();
    if m.roles().is_empty() {
        return Err(ExplainError::NoRoles);
    }
    let legal = m.all_legal_moves(&s)?;
    let names: Vec<String> = m.roles().iter().map(|&r| m.terms().display(r)).collect();
    let role = pick_role(&names, &legal, role)?;
    let mut h = heuristics::build(heuristic, program, m)?;
    h.set_root(m, &s)?;
    let measure = super::fjo::parse_spec(&h.name()).map(|(m, _)| m);
    let fjo = measure == Some(super::fjo::Measure::Fjo);
    let (terminal, value, goals) = value_of(m, h.as_mut(), fjo, &s, role).map_err(stop_error)?;
    let mut out = Explanation {
        role: names[role].clone(),
        heuristic: h.name(),
        terminal,
        value,
        goals,
        moves: Vec::new(),
        chosen: None,
        runner_up: None,
    };
    if terminal {
        return Ok(out);
    }
    let board = super::explain_board::find(program, m);
    let mut others = legal.clone();
    others[role] = vec![crate::terms::TermId::NONE];
    // Only the first replies are built: with many simultaneous roles the
    // product is astronomical (2,000 roles with two moves: 2^1999).
    let limit = MAX_REPLIES
        .min(MAX_REPLY_MOVES / others.len().max(2).saturating_sub(1))
        .max(1);
    let replies = first_joint_moves(&others, limit);
    let several = joint_count(&others) != Some(1);
    let mut ours = legal[role].clone();
    ours.sort_by_key(|&mv| m.terms().display(mv));
    let n = ours.len();
    for (i, mv) in ours.into_iter().enumerate() {
        crate::job::progress("explain: moves", || format!("{i} of {n} moves"));
        // Thousands of moves, each with its replies valued: the time limit
        // is checked here, since a heuristic's value may not evaluate rules.
        crate::job::check()?;
        let at = Position {
            s: &s,
            role,
            fjo,
            several,
            board: board.as_ref(),
        };
        let mvv = value_move(m, h.as_mut(), &at, mv, &replies)?;
        out.moves.push(mvv);
    }
    if let Some(b) = &board {
        super::explain_board::locate_plans(b, &mut out.goals);
        for mv in &mut out.moves {
            super::explain_board::locate_plans(b, &mut mv.goals);
        }
    }
    let distance = measure.is_some_and(|m| m != super::fjo::Measure::Fjo);
    rank(&mut out, distance);
    Ok(out)
}

/// What [`value_move`] needs of the position being explained.
struct Position<'a, M: StateMachine> {
    s: &'a M::State,
    role: usize,
    /// The heuristic is f_JO: terminal values are shifted by -50.
    fjo: bool,
    /// More than one joint reply: each is listed.
    several: bool,
    board: Option<&'a crate::structure::Board>,
}

/// Move `mv` valued as its worst reply among `replies`.
fn value_move<M: StateMachine>(
    m: &mut M,
    h: &mut dyn Heuristic<M>,
    at: &Position<'_, M>,
    mv: TermId,
    replies: &[Vec<TermId>],
) -> Result<MoveValue, ExplainError> {
    let role = at.role;
    let mut mvv = MoveValue {
        mv: m.terms().display(mv),
        value: None,
        terminal: false,
        goals: Vec::new(),
        replies: Vec::new(),
        cells: Vec::new(),
    };
    let mut min: Option<f64> = None;
    let mut all_unknown = true;
    for joint in replies {
        crate::job::check()?;
        let mut joint = joint.clone();
        joint[role] = mv;
        let next = m.next_state(at.s, &joint)?;
        if let Some(b) = at.board {
            touched(&mut mvv, super::explain_board::changed(b, m, at.s, &next));
        }
        let (t, v, g) = value_of(m, h, at.fjo, &next, role).map_err(stop_error)?;
        if at.several {
            mvv.replies.push(Reply {
                moves: joint
                    .iter()
                    .enumerate()
                    .filter(|&(r, _)| r != role)
                    .map(|(_, &x)| m.terms().display(x))
                    .collect(),
                value: v,
            });
        } else {
            mvv.terminal = t;
            mvv.goals = g;
        }
        if let Some(v) = v {
            all_unknown = false;
            min = Some(min.map_or(v, |x: f64| x.min(v)));
        }
    }
    mvv.value = if all_unknown { None } else { min };
    Ok(mvv)
}

fn stop_error(e: Stop) -> ExplainError {
    match e {
        Stop::Eval(e) => ExplainError::Eval(e),
        Stop::Budget => ExplainError::Budget,
    }
}

/// The role to explain: the one named, else the first with a choice.
fn pick_role(
    names: &[String],
    legal: &[Vec<TermId>],
    role: Option<&str>,
) -> Result<usize, ExplainError> {
    match role {
        Some(r) => names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(r))
            .ok_or_else(|| ExplainError::UnknownRole {
                role: r.into(),
                roles: names.join(", "),
            }),
        None => Ok(legal.iter().position(|l| l.len() > 1).unwrap_or(0)),
    }
}

/// Keeps the cells a move changes after every reply: the first reply's
/// (no reply recorded yet), then those that later replies change too.
fn touched(mv: &mut MoveValue, cells: Vec<Vec<String>>) {
    if mv.replies.is_empty() {
        mv.cells = cells;
    } else {
        mv.cells.retain(|c| cells.contains(c));
    }
}

/// Plain-text rendering of an explanation (`--format text`).
pub fn to_text(e: &Explanation) -> String {
    use std::fmt::Write as _;
    let num = |v: Option<f64>| {
        v.map_or("∞".to_string(), |v| {
            format!("{}", (v * 1000.0).round() / 1000.0)
        })
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "role {}, heuristic {}: {}{}",
        e.role,
        e.heuristic,
        num(e.value),
        if e.terminal { " (terminal)" } else { "" }
    );
    let goal_lines = |s: &mut String, goals: &[GoalDistance], indent: &str| {
        for g in goals {
            let d = |x: Option<u32>| x.map_or("∞".to_string(), |x| x.to_string());
            let _ = writeln!(
                s,
                "{indent}goal {}: h_max {} h_add {} h_ff {}  [{}]",
                g.goal,
                d(g.h_max),
                d(g.h_add),
                d(g.h_ff),
                g.plan.join(", ")
            );
        }
    };
    goal_lines(&mut s, &e.goals, "  ");
    for m in &e.moves {
        let _ = writeln!(
            s,
            "{:>8}  {}{}",
            num(m.value),
            m.mv,
            if m.terminal { " (terminal)" } else { "" }
        );
        goal_lines(&mut s, &m.goals, "            ");
        for r in &m.replies {
            let _ = writeln!(
                s,
                "            reply {}: {}",
                r.moves.join(" "),
                num(r.value)
            );
        }
    }
    s
}

/// Options of `explain` (CLI flags; camelCase in JS).
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct ExplainOptions {
    /// Joint moves from the initial state, one move per role in role order.
    #[cfg_attr(feature = "typescript", ts(as = "Option<Vec<Vec<String>>>", optional))]
    pub moves: Vec<Vec<String>>,
    /// The state to start from, as its fluents (default: the initial
    /// state); `moves` are played from it.
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub from: Option<Vec<String>>,
    /// The role whose moves are explained (default: the one with a choice).
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub role: Option<String>,
    /// `fjo` (default), `hff`, `hadd`, `hmax`, or any other heuristic name.
    #[cfg_attr(feature = "typescript", ts(as = "Option<String>", optional))]
    pub heuristic: String,
    /// The planning heuristics' action costs: `default` (thesis 4.5) or
    /// `thesis` (the turn passing free: the thesis's tic-tac-toe table).
    #[cfg_attr(feature = "typescript", ts(type = "'default' | 'thesis'", optional))]
    pub costs: Option<String>,
    /// The state machine (default "auto").
    #[cfg_attr(
        feature = "typescript",
        ts(as = "Option<crate::ts_types::EngineChoice>", optional)
    )]
    pub engine: String,
    /// Time limit in milliseconds (default [`EXPLAIN_MS`]); the CLI's
    /// `--seconds` is the job's limit around it.
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub ms: Option<f64>,
}

/// The default time limit of `explain` (60 s, as `gdlkit explain`).
pub const EXPLAIN_MS: f64 = 60_000.0;

impl Default for ExplainOptions {
    fn default() -> Self {
        ExplainOptions {
            moves: Vec::new(),
            from: None,
            role: None,
            heuristic: "fjo".into(),
            costs: None,
            engine: "auto".into(),
            ms: None,
        }
    }
}

/// Loads a game from its text and explains a position (what the wasm
/// binding and the page call). Errors are messages (the game's first
/// error diagnostic with its line, a bad option, an illegal move).
pub fn explain_text(text: &str, o: &ExplainOptions) -> Result<Explanation, ExplainError> {
    let ms = o.time_limit()?;
    crate::job::scope(ms, || explain_in_time(text, o))
}

impl ExplainOptions {
    /// The time limit: `ms` ([`crate::job::check_ms`]) or [`EXPLAIN_MS`].
    pub fn time_limit(&self) -> Result<f64, gdlkit_engine::error::OptionError> {
        self.ms.map_or(Ok(EXPLAIN_MS), |ms| {
            crate::job::check_ms("explain option ms", ms)
        })
    }
}

fn explain_in_time(text: &str, o: &ExplainOptions) -> Result<Explanation, ExplainError> {
    let choice: crate::EngineChoice = o.engine.parse()?;
    let program = crate::parse_program(text);
    let fail = |d: Vec<crate::Diagnostic>| {
        let rendered = crate::diagnostic::render(&d, "game", text, false);
        ExplainError::Game { rendered }
    };
    if crate::diagnostic::has_errors(&program.diagnostics) {
        return Err(fail(program.diagnostics));
    }
    // What `check` rejects (no roles, no legal moves, ...) is not explained,
    // as no other command runs it.
    let diags = crate::check_program(text, &program);
    if crate::diagnostic::has_errors(&diags) {
        return Err(fail(diags.into_iter().filter(|d| d.is_error()).collect()));
    }
    let mut m = crate::Engine::from_program(&program, choice, crate::ground::Budget::default())
        .map_err(fail)?;
    let heuristic = super::fjo::with_costs(&o.heuristic, o.costs.as_deref())?;
    let start = match &o.from {
        Some(fluents) => {
            crate::reasoner::state_of(&mut m, fluents).map_err(|b| ExplainError::BadFluent {
                text: b.text.into(),
                error: b.error,
            })?
        }
        None => m.initial_state()?,
    };
    let s = position_from(&mut m, start, &o.moves)?;
    explain_state(&mut m, &program, &s, o.role.as_deref(), &heuristic)
}

/// Sets `chosen` and `runner_up`: the moves with the best and second-best
/// values (highest; lowest for a distance), unknown values last, ties in
/// the moves' order.
pub fn rank(e: &mut Explanation, distance: bool) {
    let mut order: Vec<(usize, f64)> = e
        .moves
        .iter()
        .enumerate()
        .filter_map(|(i, mv)| mv.value.map(|v| (i, if distance { -v } else { v })))
        .collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    e.chosen = order.first().map(|&(i, _)| e.moves[i].mv.clone());
    e.runner_up = order.get(1).map(|&(i, _)| e.moves[i].mv.clone());
}
