//! The solution file (`gdlkit solve --out FILE`): text, one line per state
//! in index order (`docs/solve.md`):
//!
//! ```text
//! gdlkit-solution 1
//! {"concept":"zero-sum","roles":["x","o"],"engine":"fast","complete":true,"stopped":null,"states":5478,"simultaneous":0}
//! 3c0f…(32 hex digits: the state's content key) 3232 9
//! ```
//!
//! Each state line: the key, the goals as two hex digits per role (`ff`:
//! unknown), the moves to the end in decimal. Line 3 is the initial state.

use super::{Concept, Depths, Lookup, Solution, Stats, UNKNOWN};
use rustc_hash::FxHashMap;
use serde_json::json;
use std::fmt::Write as _;

/// The version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;
const MAGIC: &str = "gdlkit-solution";

/// The solution as the text of a solution file.
pub fn write_solution(s: &Solution) -> String {
    let keys = s.lookup.keys(s.len());
    let header = json!({
        "concept": s.concept.name(),
        "roles": s.roles,
        "engine": s.engine,
        "complete": s.complete,
        "stopped": s.stopped,
        "states": s.len(),
        "simultaneous": s.stats.simultaneous,
    });
    let mut out = String::with_capacity(64 + s.len() * 44);
    let _ = writeln!(out, "{MAGIC} {FORMAT_VERSION}\n{header}");
    for (i, key) in keys.iter().enumerate() {
        let _ = write!(out, "{key:032x} ");
        for g in &s.goals[i][..s.roles.len()] {
            let _ = write!(out, "{g:02x}");
        }
        let _ = writeln!(out, " {}", s.depth.get(i));
    }
    out
}

/// Reads a solution file; errors name the line.
pub fn read_solution(text: &str) -> Result<Solution, crate::error::SolutionError> {
    read(text).map_err(crate::error::SolutionError)
}

fn read(text: &str) -> Result<Solution, String> {
    let mut lines = text.lines().enumerate().map(|(n, l)| (n + 1, l));
    let (_, first) = lines.next().ok_or("an empty file, not a solution")?;
    let version = first
        .strip_prefix(MAGIC)
        .and_then(|v| v.trim().parse::<u32>().ok())
        .ok_or(format!("line 1: expected `{MAGIC} {FORMAT_VERSION}`"))?;
    if version != FORMAT_VERSION {
        return Err(format!(
            "line 1: a solution of format version {version}; this build reads version {FORMAT_VERSION}"
        ));
    }
    let (_, header) = lines.next().ok_or("line 2: the header is missing")?;
    let h: serde_json::Value = serde_json::from_str(header).map_err(|e| format!("line 2: {e}"))?;
    let field = |name: &str| h.get(name).ok_or(format!("line 2: no `{name}`"));
    let concept = field("concept")?
        .as_str()
        .and_then(Concept::from_name)
        .ok_or("line 2: an unknown `concept`")?;
    let roles: Vec<String> = serde_json::from_value(field("roles")?.clone())
        .map_err(|e| format!("line 2: roles: {e}"))?;
    if roles.is_empty() || roles.len() > 2 {
        return Err("line 2: one or two roles expected".into());
    }
    let states = field("states")?
        .as_u64()
        .ok_or("line 2: `states` must be a number")? as usize;
    let mut sol = Solution {
        concept,
        engine: field("engine")?.as_str().unwrap_or("").to_string(),
        complete: field("complete")?.as_bool().unwrap_or(false),
        stopped: h.get("stopped").and_then(|v| v.as_str()).map(String::from),
        roles,
        stats: Stats {
            states: states as u64,
            // Older files did not say: taking turns.
            simultaneous: h.get("simultaneous").and_then(|v| v.as_u64()).unwrap_or(0),
            ..Stats::default()
        },
        lookup: Lookup::Keys(FxHashMap::default()),
        goals: Vec::with_capacity(states.min(1 << 24)),
        depth: Depths::Wide(Vec::new()),
    };
    let (mut index, mut depths) = (
        FxHashMap::default(),
        Vec::with_capacity(states.min(1 << 24)),
    );
    for (n, line) in lines {
        let (key, goals, depth) = parse_state(line, sol.roles.len()).ok_or(format!(
            "line {n}: expected `KEY GOALS MOVES` (hex, hex, decimal)"
        ))?;
        let i = sol.goals.len() as u32;
        if index.insert(key, i).is_some() {
            return Err(format!("line {n}: a state listed twice"));
        }
        sol.goals.push(goals);
        depths.push(depth);
    }
    (sol.lookup, sol.depth) = (Lookup::Keys(index), Depths::narrow(depths));
    if sol.goals.len() != states {
        return Err(format!(
            "the header announces {states} states, the file lists {}",
            sol.goals.len()
        ));
    }
    Ok(sol)
}

fn parse_state(line: &str, roles: usize) -> Option<(u128, [u8; 2], u32)> {
    let mut parts = line.split(' ');
    let key = parts.next().filter(|k| k.len() == 32)?;
    let key = u128::from_str_radix(key, 16).ok()?;
    let g = parts.next().filter(|g| g.len() == 2 * roles)?;
    let mut goals = [0u8; 2];
    for (r, goal) in goals.iter_mut().enumerate().take(roles) {
        *goal = u8::from_str_radix(g.get(2 * r..2 * r + 2)?, 16).ok()?;
        if *goal > 100 && *goal != UNKNOWN {
            return None;
        }
    }
    if goals[0] == UNKNOWN {
        goals = [UNKNOWN; 2];
    }
    let depth = parts.next()?.parse().ok()?;
    parts.next().is_none().then_some((key, goals, depth))
}
