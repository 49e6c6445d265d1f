//! JavaScript names for the JSON the library makes: every field name in
//! camelCase (`best_move` → `bestMove`), as JS expects, while the CLI's JSON
//! keeps its documented snake_case. The wasm bindings pass every result
//! through [`camel_keys`] (and data that comes back from JS, such as a
//! structure handed to `renderBoard`, through [`snake_keys`]), so the Rust
//! structs and the `json!` reports keep one spelling.
//!
//! Objects that are maps keyed by data (role names, file paths, option
//! names) keep their keys: [`MAP_FIELDS`] names the fields holding such maps.
//! The generated TypeScript (`js/types.d.ts`, `crate::typescript`, with the `typescript` feature) spells
//! the fields the same way (`#[ts(rename_all = "camelCase")]`).

use serde_json::{Map, Value};

/// Fields whose value is an object keyed by data, not by field names: its
/// keys are kept (its values are still converted).
pub const MAP_FIELDS: &[&str] = &[
    "goal_values",
    "goalValues",
    "defined_at",
    "definedAt",
    "rules_at",
    "rulesAt",
    "legal",
    "goals",
    "written",
    "options",
];

/// `best_move` → `bestMove` (what ts-rs's `rename_all = "camelCase"` does).
/// Only field-like names (`[a-z][a-z0-9_]*`) change: game text never does.
pub fn camel(name: &str) -> String {
    if !field_like(name) {
        return name.to_string();
    }
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' && !out.is_empty() {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

fn field_like(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `bestMove` → `best_move`.
pub fn snake(name: &str) -> String {
    if !field_like(name) {
        return name.to_string();
    }
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Renames every field of `v` to camelCase (map fields keep their keys).
pub fn camel_keys(v: Value) -> Value {
    rename(v, camel)
}

/// Renames every field of `v` to snake_case (map fields keep their keys).
pub fn snake_keys(v: Value) -> Value {
    rename(v, snake)
}

/// Iterative (no recursion over user data): a work stack of values still to
/// convert, rebuilt bottom-up.
fn rename(v: Value, f: fn(&str) -> String) -> Value {
    enum Frame {
        Array(Vec<Value>, std::vec::IntoIter<Value>),
        Object(Map<String, Value>, serde_json::map::IntoIter, String, bool),
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut current = v;
    // Whether `current` is the value of a map field (keep its keys).
    let mut keep_keys = false;
    loop {
        // Descend into `current` until a leaf or an empty container.
        let done = match current {
            Value::Array(items) => {
                let mut it = items.into_iter();
                match it.next() {
                    Some(first) => {
                        stack.push(Frame::Array(Vec::new(), it));
                        current = first;
                        keep_keys = false;
                        continue;
                    }
                    None => Value::Array(Vec::new()),
                }
            }
            Value::Object(obj) => {
                let mut it = obj.into_iter();
                match it.next() {
                    Some((k, first)) => {
                        let keep = keep_keys;
                        let (key, map_field) = field(k, keep, f);
                        stack.push(Frame::Object(Map::new(), it, key, keep));
                        current = first;
                        keep_keys = map_field;
                        continue;
                    }
                    None => Value::Object(Map::new()),
                }
            }
            leaf => leaf,
        };
        // Hand `done` to its parent; move on to the parent's next child.
        let mut done = done;
        loop {
            match stack.pop() {
                None => return done,
                Some(Frame::Array(mut items, mut it)) => {
                    items.push(done);
                    match it.next() {
                        Some(next) => {
                            stack.push(Frame::Array(items, it));
                            current = next;
                            keep_keys = false;
                            break;
                        }
                        None => done = Value::Array(items),
                    }
                }
                Some(Frame::Object(mut obj, mut it, key, keep)) => {
                    obj.insert(key, done);
                    match it.next() {
                        Some((k, next)) => {
                            let (key, map_field) = field(k, keep, f);
                            stack.push(Frame::Object(obj, it, key, keep));
                            current = next;
                            keep_keys = map_field;
                            break;
                        }
                        None => done = Value::Object(obj),
                    }
                }
            }
        }
    }
}

/// A key of an object whose keys are kept (`keep`) or renamed, and whether
/// its value is a map keyed by data.
fn field(k: String, keep: bool, f: fn(&str) -> String) -> (String, bool) {
    if keep {
        (k, false)
    } else {
        let map_field = MAP_FIELDS.contains(&k.as_str());
        (f(&k), map_field)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_round_trip() {
        for (s, c) in [
            ("best_move", "bestMove"),
            ("h_max", "hMax"),
            ("ci95", "ci95"),
            ("terminal_states_sampled", "terminalStatesSampled"),
            ("nodes_per_second", "nodesPerSecond"),
        ] {
            assert_eq!(camel(s), c);
            assert_eq!(snake(c), s);
        }
    }

    #[test]
    fn fields_renamed_map_keys_kept() {
        let v = json!({
            "best_move": "a",
            "stats": { "tt_hits": 1, "elapsed_ms": 2.0 },
            "goal_values": { "white_player": [0, 100] },
            "goals": [{ "h_max": 1 }],
            "events": [[{ "node_cap": 3 }], 4, null],
            "empty": {}, "none": []
        });
        let c = camel_keys(v.clone());
        assert_eq!(
            c,
            json!({
                "bestMove": "a",
                "stats": { "ttHits": 1, "elapsedMs": 2.0 },
                "goalValues": { "white_player": [0, 100] },
                "goals": [{ "hMax": 1 }],
                "events": [[{ "nodeCap": 3 }], 4, null],
                "empty": {}, "none": []
            })
        );
        assert_eq!(snake_keys(c), v);
    }

    #[test]
    fn deep_values_do_not_overflow() {
        let mut v = json!(1);
        for _ in 0..10_000 {
            v = json!([v]);
        }
        let out = camel_keys(v);
        // Dropping a deep Value recurses: take it apart iteratively.
        let mut cur = out;
        let mut depth = 0;
        while let Value::Array(mut a) = cur {
            cur = a.pop().unwrap();
            depth += 1;
        }
        assert_eq!(depth, 10_000);
        assert_eq!(cur, json!(1));
    }
}
