//! Games without a board drawn as a row of places, found from the sampled
//! states (never from names):
//!
//! - **lamps** (Buttons and Lights): the fluents without arguments, each a
//!   lamp, lit while it holds;
//! - **rooms** (a robot's maze) and **doors** (Monty Hall): the fluents
//!   with one argument are things at places, their values the places
//!   (ordered along a static relation that chains or rings them, else as
//!   first seen). A thing that holds at two places at once covers them (a
//!   closed door; where it is gone the door is open); the one thing that
//!   is at some place in every state is the agent (a person); the others
//!   are items (labelled badges). With a cover the places are doors, else
//!   rooms.
//!
//! Counters (`step`) follow the places as numbers. Only games whose
//! boards `board::main_board` cannot draw get a scene.

use super::board::{BoardCells, Cell, Fluent};
use super::pieces::{self, Drawing};
use super::simulate::Sample;
use super::statics;
use super::Counter;
use crate::program::Program;
use crate::terms::TermStore;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

pub const LAMPS: &str = "lamps";
pub const ROOMS: &str = "rooms";
pub const DOORS: &str = "doors";

/// How a thing of a scene is drawn.
pub const AGENT: &str = "agent";
pub const ITEM: &str = "item";
pub const COVER: &str = "cover";

/// Sampled states looked at.
const MAX_STATES: usize = 400;
/// Most places, things and lamps a scene is drawn with.
const MAX_PLACES: usize = 12;
const MAX_THINGS: usize = 6;
/// Rows of a static relation beyond which it is not examined.
const MAX_ROWS: usize = 10_000;

/// A game's state drawn as a row of lamps or places.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "StructureScene")
)]
pub struct Scene {
    /// `lamps`, `rooms` or `doors`.
    pub kind: String,
    /// The lamps (fluents without arguments) or the places, in order.
    pub places: Vec<String>,
    /// The fluents with one argument drawn at the places.
    pub things: Vec<Thing>,
    /// The counters drawn as numbers after the places.
    pub numbers: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "StructureThing")
)]
pub struct Thing {
    pub fluent: String,
    /// `agent`, `item` or `cover`.
    pub look: String,
}

/// What the sample shows of one fluent with one argument.
#[derive(Default)]
struct Seen {
    /// Held at two places in one state.
    multi: bool,
    /// At some place in every state.
    always: bool,
}

/// The scene of a game, from its sampled states and counters.
pub fn find(
    program: &Program,
    store: &TermStore,
    sample: &Sample,
    counters: &[Counter],
) -> Option<Scene> {
    let states: Vec<Vec<Fluent>> = sample
        .states
        .iter()
        .take(MAX_STATES)
        .map(|s| Fluent::of_terms(store, s))
        .collect();
    let numbers: Vec<String> = counters
        .iter()
        .filter(|c| c.argument == 0)
        .filter(|c| arity_seen(&states, &c.fluent) == Some(1))
        .map(|c| c.fluent.clone())
        .collect();
    let (mut names, mut places, mut seen) = (Vec::new(), Vec::new(), Vec::<Seen>::new());
    let mut lamps = Vec::new();
    for (si, state) in states.iter().enumerate() {
        let mut here: Vec<usize> = Vec::new();
        for f in state {
            if f.args.is_empty() {
                push_new(&mut lamps, &f.name);
                continue;
            }
            if f.args.len() != 1 || numbers.contains(&f.name) {
                continue;
            }
            let i = names.iter().position(|n| n == &f.name).unwrap_or_else(|| {
                names.push(f.name.clone());
                seen.push(Seen::default());
                names.len() - 1
            });
            seen[i].multi |= here.contains(&i);
            here.push(i);
            push_new(&mut places, &f.args[0]);
        }
        for (i, s) in seen.iter_mut().enumerate() {
            s.always = here.contains(&i) && (s.always || si == 0);
        }
    }
    let scene = if !names.is_empty() {
        if names.len() > MAX_THINGS || places.len() > MAX_PLACES {
            return None;
        }
        let rels = statics::static_relations::<2>(program, MAX_ROWS);
        things_scene(names, seen, order_places(places, &rels))
    } else if !lamps.is_empty() && lamps.len() <= MAX_PLACES {
        Scene {
            kind: LAMPS.to_string(),
            places: lamps,
            things: Vec::new(),
            numbers: Vec::new(),
        }
    } else {
        return None;
    };
    Some(Scene { numbers, ..scene })
}

fn push_new(list: &mut Vec<String>, v: &str) {
    if !list.iter().any(|x| x == v) {
        list.push(v.to_string());
    }
}

/// The number of arguments of `name` in the sampled states.
fn arity_seen(states: &[Vec<Fluent>], name: &str) -> Option<usize> {
    states
        .iter()
        .flatten()
        .find(|f| f.name == name)
        .map(|f| f.args.len())
}

/// Rooms or doors: a thing held at two places at once is a cover, the
/// first thing at a place in every state the agent, the rest items.
fn things_scene(names: Vec<String>, seen: Vec<Seen>, places: Vec<String>) -> Scene {
    let mut agent = false;
    let things: Vec<Thing> = names
        .into_iter()
        .zip(&seen)
        .map(|(fluent, s)| {
            let look = if s.multi {
                COVER
            } else if s.always && !agent {
                agent = true;
                AGENT
            } else {
                ITEM
            };
            Thing {
                fluent,
                look: look.to_string(),
            }
        })
        .collect();
    let doors = things.iter().any(|t| t.look == COVER);
    Scene {
        kind: if doors { DOORS } else { ROOMS }.to_string(),
        places,
        things,
        numbers: Vec::new(),
    }
}

/// The places along the static relation that chains (or rings) most of
/// them, one step each (functional both ways), from the first place seen
/// that nothing leads to; the rest after them as first seen.
fn order_places(places: Vec<String>, rels: &[Vec<[String; 2]>]) -> Vec<String> {
    let mut best: Vec<String> = Vec::new();
    for rows in rels {
        let steps: Vec<&[String; 2]> = rows
            .iter()
            .filter(|[a, b]| a != b && places.contains(a) && places.contains(b))
            .collect();
        let functional = |side: usize| {
            let mut ends: Vec<&String> = steps.iter().map(|r| &r[side]).collect();
            ends.sort();
            ends.windows(2).all(|w| w[0] != w[1])
        };
        if steps.len() < 2 || !functional(0) || !functional(1) {
            continue;
        }
        let start = places
            .iter()
            .find(|p| steps.iter().any(|r| &r[0] == *p) && !steps.iter().any(|r| &r[1] == *p))
            .or_else(|| places.iter().find(|p| steps.iter().any(|r| &r[0] == *p)));
        let mut chain = Vec::new();
        let mut at = start.cloned();
        while let Some(p) = at.filter(|p| !chain.contains(p)) {
            at = steps.iter().find(|r| r[0] == p).map(|r| r[1].clone());
            chain.push(p);
        }
        if chain.len() > best.len() {
            best = chain;
        }
    }
    for p in places {
        push_new(&mut best, &p);
    }
    best
}

/// The cells of a scene in a state: one per place (lamps: `on` or `off`;
/// places: the things there, in the scene's order, joined by a space),
/// then one per counter (its value); the other fluents are `rest`.
pub fn cells(scene: &Scene, fluents: &[Fluent]) -> BoardCells {
    let mut xs = scene.places.clone();
    xs.extend(scene.numbers.iter().cloned());
    let mut at: Vec<Vec<&str>> = vec![Vec::new(); xs.len()];
    let mut rest = Vec::new();
    let mut lit = vec![false; scene.places.len()];
    let mut values: Vec<Option<String>> = vec![None; scene.numbers.len()];
    for f in fluents {
        let place = |v: &str| scene.places.iter().position(|p| p == v);
        let thing = scene.things.iter().position(|t| t.fluent == f.name);
        let number = scene.numbers.iter().position(|n| n == &f.name);
        match (f.args.as_slice(), thing, number) {
            ([], _, _) if scene.kind == LAMPS && place(&f.name).is_some() => {
                lit[place(&f.name).unwrap_or_default()] = true;
            }
            ([v], Some(t), _) if place(v).is_some() => {
                at[place(v).unwrap_or_default()].push(&scene.things[t].fluent);
            }
            ([v], _, Some(n)) => values[n] = Some(v.clone()),
            _ => rest.push(f.text.clone()),
        }
    }
    let mut cells = Vec::new();
    for (i, x) in scene.places.iter().enumerate() {
        let content = if scene.kind == LAMPS {
            if lit[i] { "on" } else { "off" }.to_string()
        } else {
            let mut here = at[i].clone();
            here.sort_by_key(|t| scene.things.iter().position(|s| s.fluent == *t));
            here.join(" ")
        };
        cells.push(cell(x, content));
    }
    for (n, v) in scene.numbers.iter().zip(values) {
        if let Some(v) = v {
            cells.push(cell(n, v));
        }
    }
    let mut drawings: Vec<Drawing> = Vec::new();
    for c in &cells {
        if !drawings.iter().any(|d| d.content == c.content) {
            let number = scene.numbers.contains(&c.x);
            drawings.push(if number {
                pieces::fallback(&c.content, 0)
            } else {
                drawing(scene, &c.content)
            });
        }
    }
    BoardCells {
        fluent: String::new(),
        size: vec![xs.len()],
        xs,
        ys: vec![String::new()],
        zs: Vec::new(),
        cells,
        rest,
        geometry: super::SQUARE.to_string(),
        shear: 0.0,
        drawings,
        shape: scene.kind.clone(),
        sizes: Vec::new(),
        stores: Vec::new(),
        links: Vec::new(),
        places: Vec::new(),
    }
}

fn cell(x: &str, content: String) -> Cell {
    Cell {
        x: x.to_string(),
        y: String::new(),
        z: String::new(),
        content,
    }
}

/// Badge colours of the items, in the scene's order.
const ITEM_FILLS: [&str; 5] = ["#f2c200", "#d9534f", "#5bc0de", "#5cb85c", "#b565c4"];

/// The drawing of a place's content (or a lamp's `on` / `off`).
pub fn drawing(scene: &Scene, content: &str) -> Drawing {
    if scene.kind == LAMPS {
        let on = content == "on";
        return finish(content, "lamp", content.to_string(), lamp(on));
    }
    let here: Vec<&Thing> = content
        .split(' ')
        .filter_map(|w| scene.things.iter().find(|t| t.fluent == w))
        .collect();
    let mut svg = String::new();
    let kind = if scene.kind == DOORS {
        let closed = here.iter().any(|t| t.look == COVER);
        svg.push_str(&door(closed));
        if closed {
            "door"
        } else {
            "opening"
        }
    } else {
        svg.push_str(r##"<rect x="4" y="4" width="92" height="92" rx="6" fill="#f7f1e3" stroke="#8a7a60" stroke-width="3"/>"##);
        "room"
    };
    let agent = here.iter().any(|t| t.look == AGENT);
    let items: Vec<&&Thing> = here.iter().filter(|t| t.look == ITEM).collect();
    if agent {
        svg.push_str(&person(if items.is_empty() { 50.0 } else { 32.0 }));
    }
    for (k, t) in items.iter().enumerate() {
        let index = scene
            .things
            .iter()
            .position(|s| s.fluent == t.fluent)
            .unwrap_or(0);
        let x = if agent { 66.0 } else { 50.0 };
        svg.push_str(&badge(
            x,
            80.0 - 24.0 * k as f64,
            &t.fluent,
            ITEM_FILLS[index % ITEM_FILLS.len()],
        ));
    }
    let label = here
        .iter()
        .map(|t| t.fluent.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    finish(content, kind, label, svg)
}

fn finish(content: &str, kind: &str, label: String, svg: String) -> Drawing {
    Drawing {
        content: content.to_string(),
        kind: kind.to_string(),
        owner: None,
        colour: "none".to_string(),
        label,
        svg,
    }
}

/// A lamp: a bulb on a base, yellow with a halo when lit, grey when not.
fn lamp(on: bool) -> String {
    let (fill, halo) = if on {
        (
            "#ffd23f",
            r##"<circle class="halo" cx="50" cy="42" r="40" fill="#ffe98a" opacity="0.55"/>"##,
        )
    } else {
        ("#5b6270", "")
    };
    format!(
        r##"{halo}<circle class="bulb" cx="50" cy="42" r="28" fill="{fill}" stroke="#3b3128" stroke-width="4"/><rect x="38" y="70" width="24" height="18" rx="3" fill="#8a8f99" stroke="#3b3128" stroke-width="3"/>"##
    )
}

/// A door: a closed panel with a knob, or an open dark doorway with the
/// leaf swung aside.
fn door(closed: bool) -> String {
    if closed {
        return r##"<rect class="door" x="20" y="6" width="60" height="90" rx="3" fill="#9a6535" stroke="#3b3128" stroke-width="4"/><circle cx="70" cy="52" r="5" fill="#e3b21b" stroke="#3b3128" stroke-width="2"/>"##.to_string();
    }
    r##"<rect class="doorway" x="20" y="6" width="60" height="90" rx="3" fill="#2b2f3a" stroke="#3b3128" stroke-width="4"/><path class="leaf" d="M20 6 L8 14 L8 92 L20 96 Z" fill="#9a6535" stroke="#3b3128" stroke-width="3" stroke-linejoin="round"/>"##.to_string()
}

/// A person centred at `x`: head, body, arms and legs.
pub(crate) fn person(x: f64) -> String {
    format!(
        r##"<g class="agent" stroke="#1d2330" stroke-width="4" stroke-linecap="round"><circle cx="{x}" cy="26" r="12" fill="#2f6fd0"/><path d="M{x} 38 L{x} 64 M{a} 48 L{b} 48 M{x} 64 L{a} 86 M{x} 64 L{b} 86" fill="none"/></g>"##,
        a = x - 14.0,
        b = x + 14.0
    )
}

/// A labelled badge centred at (x, y).
fn badge(x: f64, y: f64, label: &str, fill: &str) -> String {
    let text: String = label.chars().take(6).collect();
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<rect class="item" x="{:.1}" y="{:.1}" width="40" height="20" rx="6" fill="{fill}" stroke="#3b3128" stroke-width="2.5"/><text x="{x:.1}" y="{y:.1}" font-size="13" font-family="sans-serif" font-weight="700" text-anchor="middle" dominant-baseline="central" fill="#1d2330" textLength="32" lengthAdjust="spacingAndGlyphs">{}</text>"##,
        x - 20.0,
        y - 10.0,
        pieces::escape(&text)
    );
    s
}

/// The scene as a standalone SVG (npm `renderBoard`): its cells in a row,
/// `cell` pixels each.
pub fn svg(bc: &BoardCells, cell: f64) -> String {
    let (w, h) = (cell * bc.xs.len() as f64 + 1.0, cell + 1.0);
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="gdl-board" viewBox="0 0 {w:.2} {h:.2}" width="{w:.2}" height="{h:.2}" font-family="sans-serif" role="img" aria-label="{}">"#,
        bc.shape
    );
    for (i, x) in bc.xs.iter().enumerate() {
        let left = i as f64 * cell;
        let _ = write!(
            s,
            r##"<rect x="{left:.2}" y="0" width="{cell}" height="{cell}" fill="#efe6d3" stroke="#8a7a60" stroke-width="1"/>"##
        );
        let Some(c) = bc.cells.iter().find(|c| &c.x == x) else {
            continue;
        };
        let Some(d) = bc.drawings.iter().find(|d| d.content == c.content) else {
            continue;
        };
        let _ = write!(
            s,
            r#"<svg class="{}" x="{left:.2}" y="0" width="{cell}" height="{cell}" viewBox="0 0 100 100" data-content="{}"><title>{}</title>{}</svg>"#,
            d.kind,
            pieces::escape(&c.content),
            pieces::escape(x),
            d.svg
        );
    }
    s.push_str("</svg>");
    s
}

/// The cells a state is drawn with: those of the main board, else of
/// the scene (lamps, rooms or doors), else `None`.
pub fn state_cells(
    boards: &[super::Board],
    scene: Option<&Scene>,
    fluents: &[Fluent],
) -> Option<BoardCells> {
    match super::board::main_board(boards) {
        Some(b) => super::board::cells(b, fluents),
        None => scene.map(|s| cells(s, fluents)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::Fluent;
    use super::super::{find as structure, Structure, DISPLAY_OPTIONS};
    use super::state_cells;
    use super::*;
    use crate::reasoner::StateMachine;
    use crate::EngineChoice;

    /// A project game's structure and the fluents of the states of one
    /// playout (each role's middle legal move), at most `steps` states.
    fn states(name: &str, steps: usize) -> (Structure, Vec<Vec<Fluent>>) {
        let path = format!("{}/../../games/{name}.kif", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).expect("the game file");
        let crate::Game {
            program,
            mut engine,
        } = crate::Game::load(&text, EngineChoice::Interpreter).expect("the game loads");
        let st = structure(&program, &mut engine, DISPLAY_OPTIONS).unwrap();
        let mut s = engine.initial_state().unwrap();
        let mut out = Vec::new();
        for _ in 0..steps {
            out.push(Fluent::of_terms(engine.terms(), &engine.fluents(&s)));
            if engine.is_terminal(&s).unwrap() {
                break;
            }
            let joint: Vec<_> = (0..engine.roles().len())
                .map(|r| {
                    let l = engine.legal_moves(&s, r).unwrap();
                    l[l.len() / 2]
                })
                .collect();
            s = engine.next_state(&s, &joint).unwrap();
        }
        (st, out)
    }

    /// The elements of `svg` of this class (not the drawings' wrappers).
    fn count(svg: &str, class: &str) -> usize {
        let wrapper = format!("<svg class=\"{class}\"");
        svg.matches(&format!("class=\"{class}\"")).count() - svg.matches(&wrapper).count()
    }

    /// The SVG of the state, with its cells.
    fn drawn(st: &Structure, fluents: &[Fluent]) -> (String, BoardCells) {
        let bc = state_cells(&st.boards, st.scene.as_ref(), fluents).expect("cells");
        (svg(&bc, 40.0), bc)
    }

    /// Of two boards of one size the one with the most kinds of content:
    /// blind tic-tac-toe's marks, not its record of collisions.
    #[test]
    fn blind_tic_tac_toe_is_drawn_on_its_cells() {
        let (st, _) = states("blindTicTacToe", 1);
        let b = crate::structure::board::main_board(&st.boards).unwrap();
        assert_eq!(b.fluent, "cell");
        assert!(st.boards.iter().any(|b| b.fluent == "taken"));
    }

    #[test]
    fn lights_are_lamps_lit_while_they_hold() {
        for game in ["buttonsAndLights", "buttonsAndLightsCounter"] {
            let (st, states) = states(game, 8);
            let scene = st.scene.as_ref().expect("a scene");
            assert_eq!(scene.kind, LAMPS, "{game}");
            assert_eq!(scene.places.len(), 2, "{game}: {scene:?}");
            assert!(states.len() >= 4, "{game}: {} states", states.len());
            for fluents in &states {
                let (svg, _) = drawn(&st, fluents);
                let lit = fluents.iter().filter(|f| f.args.is_empty()).count();
                assert_eq!(count(&svg, "bulb"), scene.places.len(), "a lamp per light");
                assert_eq!(count(&svg, "halo"), lit, "{game}: lit lamps in {svg}");
            }
            // Every combination of lit lamps: exactly those drawn lit.
            for mask in 0..1usize << scene.places.len() {
                let on: Vec<Fluent> = (scene.places.iter().enumerate())
                    .filter(|(i, _)| (mask >> i) & 1 == 1)
                    .map(|(_, p)| Fluent::of_texts(std::slice::from_ref(p)).remove(0))
                    .collect();
                let (svg, bc) = drawn(&st, &on);
                assert_eq!(count(&svg, "bulb"), scene.places.len());
                assert_eq!(count(&svg, "halo"), on.len(), "{game}: {mask:b}");
                for c in bc.cells.iter().filter(|c| scene.places.contains(&c.x)) {
                    let lit = on.iter().any(|f| f.name == c.x);
                    assert_eq!(c.content, if lit { "on" } else { "off" }, "{c:?}");
                }
            }
        }
    }

    #[test]
    fn the_step_counter_is_a_number() {
        let (st, states) = states("buttonsAndLightsCounter", 4);
        let scene = st.scene.as_ref().expect("a scene");
        assert_eq!(scene.numbers.len(), 1, "{scene:?}");
        for fluents in &states {
            let (_, bc) = drawn(&st, fluents);
            let step = fluents.iter().find(|f| f.name == scene.numbers[0]).unwrap();
            let cell = bc.cells.iter().find(|c| c.x == scene.numbers[0]).unwrap();
            assert_eq!(cell.content, step.args[0]);
            let d = bc
                .drawings
                .iter()
                .find(|d| d.content == cell.content)
                .unwrap();
            assert_eq!(d.kind, "number");
            assert!(bc.rest.is_empty(), "{:?}", bc.rest);
        }
    }

    #[test]
    fn the_maze_is_rooms_with_one_robot_and_the_gold() {
        let (st, states) = states("maze", 10);
        let scene = st.scene.as_ref().expect("a scene");
        assert_eq!(scene.kind, ROOMS);
        let agent = scene
            .things
            .iter()
            .find(|t| t.look == AGENT)
            .expect("an agent");
        let item = scene
            .things
            .iter()
            .find(|t| t.look == ITEM)
            .expect("an item");
        // The rooms go round the ring, each next to the one it leads to.
        let ring = ["a", "b", "c", "d"];
        let start = ring
            .iter()
            .position(|r| *r == scene.places[0])
            .expect("a room first");
        for (i, p) in scene.places[..4].iter().enumerate() {
            assert_eq!(p, ring[(start + i) % 4], "{scene:?}");
        }
        assert!(states.len() >= 6, "{} states", states.len());
        for fluents in &states {
            let (svg, bc) = drawn(&st, fluents);
            assert_eq!(count(&svg, "agent"), 1, "one robot in {svg}");
            for f in fluents
                .iter()
                .filter(|f| f.name == agent.fluent || f.name == item.fluent)
            {
                let cell = bc
                    .cells
                    .iter()
                    .find(|c| c.x == f.args[0])
                    .expect("its room");
                assert!(
                    cell.content.split(' ').any(|w| w == f.name),
                    "{f:?} in {cell:?}"
                );
            }
            let items = fluents.iter().filter(|f| f.name == item.fluent).count();
            assert_eq!(
                count(&svg, "item"),
                items,
                "the gold where the state has it"
            );
        }
    }

    #[test]
    fn monty_hall_is_three_doors() {
        let (st, states) = states("montyHall", 5);
        let scene = st.scene.as_ref().expect("a scene");
        assert_eq!(scene.kind, DOORS);
        assert_eq!(scene.places, ["1", "2", "3"]);
        let cover = scene
            .things
            .iter()
            .find(|t| t.look == COVER)
            .expect("a cover");
        let mut opened = 0;
        for fluents in &states {
            let (svg, bc) = drawn(&st, fluents);
            let closed: Vec<&String> = fluents
                .iter()
                .filter(|f| f.name == cover.fluent)
                .map(|f| &f.args[0])
                .collect();
            assert_eq!(count(&svg, "door") + count(&svg, "doorway"), 3, "{svg}");
            assert_eq!(count(&svg, "doorway"), 3 - closed.len());
            for c in bc.cells.iter().filter(|c| scene.places.contains(&c.x)) {
                let d = bc.drawings.iter().find(|d| d.content == c.content).unwrap();
                let want = if closed.contains(&&c.x) {
                    "door"
                } else {
                    "opening"
                };
                assert_eq!(d.kind, want, "door {}", c.x);
            }
            opened += 3 - closed.len();
        }
        assert!(opened > 0, "a door was opened");
    }

    #[test]
    fn games_with_boards_have_no_scene() {
        for game in ["ticTacToe", "hanoi", "nim"] {
            let (st, _) = states(game, 1);
            assert!(st.scene.is_none(), "{game}");
        }
    }
}
