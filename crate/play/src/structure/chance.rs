//! How GDL-II's chance draws look, found from the structure: a drawn
//! thing that is a card of the roles' hands is that card; a drawn number
//! from 1 to 6 that is no coordinate of a board and no place of a scene is
//! a die showing it (pig's `(throw 4)`, meier's `(roll 2)`; Monty Hall's
//! `(hide_car 2)` names a door, so it is no die).

use super::board::Fluent;
use super::pieces::Drawing;
use super::{shapes, Structure};

/// The drawings of the things chance's move `mv` draws, in the order of
/// its arguments (none when nothing in it looks like a card or a die).
/// With `seen`, only those whose value appears in one of these percepts
/// (what a role saw of the draw).
pub fn drawings(st: &Structure, mv: &str, seen: Option<&[String]>) -> Vec<Drawing> {
    let Some(m) = Fluent::of_texts(&[mv.to_string()]).pop() else {
        return Vec::new();
    };
    let percepts = seen.map(Fluent::of_texts);
    m.args
        .iter()
        .filter(|a| {
            percepts
                .as_ref()
                .is_none_or(|ps| ps.iter().any(|p| p.args.contains(a)))
        })
        .filter_map(|a| card(st, a).or_else(|| die(st, a)))
        .collect()
}

/// The card drawing of `value` where a hands board holds it.
fn card(st: &Structure, value: &str) -> Option<Drawing> {
    st.boards
        .iter()
        .filter(|b| b.shape == shapes::HANDS)
        .flat_map(|b| &b.drawings)
        .find(|d| d.kind == "card" && d.content == value)
        .cloned()
}

/// A die showing `value`, if it is a number from 1 to 6 that no board or
/// scene uses as a place.
fn die(st: &Structure, value: &str) -> Option<Drawing> {
    let face: u8 = value.parse().ok().filter(|f| (1..=6).contains(f))?;
    let a_place = st
        .boards
        .iter()
        .any(|b| b.values.iter().any(|vs| vs.iter().any(|v| v == value)))
        || st
            .scene
            .as_ref()
            .is_some_and(|s| s.places.iter().any(|p| p == value));
    (!a_place).then(|| shapes::die(face))
}

#[cfg(test)]
mod tests {
    use super::super::{find, DISPLAY_OPTIONS};
    use super::drawings;
    use crate::EngineChoice;

    fn structure(name: &str) -> super::Structure {
        let path = format!("{}/../../games/{name}.kif", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        let crate::Game {
            program,
            mut engine,
        } = crate::Game::load(&text, EngineChoice::Interpreter).unwrap();
        find(&program, &mut engine, DISPLAY_OPTIONS).unwrap()
    }

    fn kinds(st: &super::Structure, mv: &str, seen: Option<&[String]>) -> Vec<(String, String)> {
        drawings(st, mv, seen)
            .into_iter()
            .map(|d| (d.kind, d.content))
            .collect()
    }

    #[test]
    fn dice_and_cards_where_the_structure_finds_them() {
        let pig = structure("pig");
        assert_eq!(kinds(&pig, "(throw 4)", None), [("die".into(), "4".into())]);
        assert_eq!(kinds(&pig, "noop", None), []);
        // What a player saw of the throw: the die only where a percept names it.
        assert_eq!(
            kinds(&pig, "(throw 4)", Some(&["(thrown 4)".into()])).len(),
            1
        );
        assert_eq!(kinds(&pig, "(throw 4)", Some(&["(chose hold)".into()])), []);
        let kuhn = structure("kuhnPoker");
        let dealt = kinds(&kuhn, "(deal q k)", None);
        assert_eq!(
            dealt,
            [("card".into(), "q".into()), ("card".into(), "k".into())]
        );
        // Monty Hall's numbers are doors: no dice.
        let monty = structure("montyHall");
        assert_eq!(kinds(&monty, "(hide_car 2)", None), []);
        let die = super::shapes::die(6);
        assert_eq!(die.svg.matches("<circle").count(), 6);
        assert_eq!(super::shapes::die(1).svg.matches("<circle").count(), 1);
    }
}
