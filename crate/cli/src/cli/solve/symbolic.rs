//! `gdlkit solve GAME.kif --symbolic`: the BDD solver
//! ([`crate::solve::solve_symbolic`]), with the explicit solver's fields
//! where they apply.

use super::{goals_text, load_game_within, Fail, Host, Output};
use crate::solve::{self, SymbolicLimits, SymbolicSummary};
use std::fmt::Write as _;

pub(super) fn run(
    path: &str,
    limits: SymbolicLimits,
    json: bool,
    host: &mut dyn Host,
    out: &mut Output,
) -> Result<i32, Fail> {
    let started = crate::clock::now_ms();
    // The rules only: the solver grounds them itself.
    let game = load_game_within(
        host,
        path,
        crate::EngineChoice::Interpreter,
        limits.seconds * 1000.0,
    )?
    .1;
    if game.program.is_gdl2() {
        return Err(Fail::game(format!(
            "{path}: --symbolic does not solve GDL-II games (chance, hidden information); \
             without it the game is solved over its information sets"
        )));
    }
    let left = limits.seconds - (crate::clock::now_ms() - started) / 1000.0;
    let limits = SymbolicLimits {
        seconds: left.max(0.001),
        ..limits
    };
    let s = solve::solve_symbolic(&game.program, &limits)
        .map_err(|r| Fail::game(format!("{path}: {r}")))?;
    Ok(super::write_result(
        &s,
        json,
        || text(path, &s, limits.count_only),
        s.complete,
        out,
    ))
}

/// The result of `solve` without `--symbolic` when the enumeration's
/// states did not fit and the BDDs took over (`explicit`: where the
/// enumeration stopped); JSON adds `method` and `explicit_stopped`.
pub(super) fn write_picked(
    path: &str,
    s: &SymbolicSummary,
    explicit: &str,
    json: bool,
    out: &mut Output,
) -> i32 {
    let mut value = serde_json::to_value(s).expect("serialisable");
    value["method"] = "symbolic".into();
    value["explicit_stopped"] = explicit.into();
    super::write_result(
        &value,
        json,
        || {
            let note =
                format!("{path}: enumeration stopped at {explicit}: solved with BDDs instead\n");
            note + &text(path, s, false)
        },
        s.complete,
        out,
    )
}

fn text(path: &str, s: &SymbolicSummary, counted: bool) -> String {
    let mut o = String::new();
    let st = &s.stats;
    let status = match &s.stopped {
        None => "complete".to_string(),
        Some(why) => format!("PARTIAL: {why}"),
    };
    let concept = s.concept.map_or("-", |c| c.name());
    if counted {
        let _ = writeln!(o, "{path}: counted symbolically ({status}), BDDs");
    } else {
        let _ = writeln!(
            o,
            "{path}: solved symbolically ({status}), {concept} concept, BDDs"
        );
    }
    match &s.initial {
        _ if counted => {}
        Some(g) => {
            let _ = writeln!(
                o,
                "  initial state: {} under perfect play",
                goals_text(&s.roles, g)
            );
        }
        None if s.complete => {
            let _ = writeln!(
                o,
                "  initial state: unknown (no role can force the game to end)"
            );
        }
        None => {
            let _ = writeln!(o, "  initial state: unknown (not classified)");
        }
    }
    let _ = writeln!(
        o,
        "  states: {} ({} terminal), {} layers{}",
        st.states,
        st.terminal,
        st.layers.len(),
        if st.layered { ", layered" } else { "" }
    );
    let _ = writeln!(o, "  states per layer: {}", layers_text(&st.layers));
    if counted {
        let seconds: Vec<String> = st.layer_seconds.iter().map(|s| format!("{s:.1}")).collect();
        let _ = writeln!(o, "  seconds per layer: {}", layers_text(&seconds));
    }
    if !s.by_value.is_empty() {
        let _ = writeln!(o, "  states by value:");
    }
    for c in &s.by_value {
        let name = c
            .goals
            .as_ref()
            .map_or("unknown".to_string(), |g| goals_text(&s.roles, g));
        let _ = writeln!(o, "    {name:<24} {}", c.states);
    }
    let _ = writeln!(
        o,
        "  {} propositions ({} order), {} relations ({} nodes), peak {} nodes, {:.2} s",
        st.propositions,
        st.order.name(),
        st.relations,
        st.relation_nodes,
        st.peak_nodes,
        st.seconds
    );
    o
}

/// Per-layer figures, the middle elided past 24 layers.
fn layers_text<T: ToString>(layers: &[T]) -> String {
    let show = |v: &[T]| v.iter().map(T::to_string).collect::<Vec<_>>().join(" ");
    if layers.len() <= 24 {
        return show(layers);
    }
    format!(
        "{} ... {}",
        show(&layers[..12]),
        show(&layers[layers.len() - 12..])
    )
}
