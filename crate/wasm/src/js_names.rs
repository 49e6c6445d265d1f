//! JavaScript's spelling of results: every struct field in camelCase
//! (`best_move` → `bestMove`), as JS expects, while the CLI's JSON keeps
//! the fields' Rust (snake_case) names. [`Camel`] wraps a value for the
//! wasm bindings; its serializer renames struct fields only, so maps keyed
//! by data (role names, moves, file paths, option names) keep their keys
//! without a list of exceptions. The generated TypeScript
//! (`crate::typescript`) applies the same rule to the same types:
//! `#[ts(rename_all = "camelCase")]` on each result struct.
//!
//! The rule is carried by the types, so a result reaches JS as a struct,
//! never as a `serde_json::Value` object (whose keys are data). One case
//! needs care: serde writes a struct with a `#[serde(flatten)]` field as a
//! map of unknown length, while data maps (std's, `serde_json::Map`) always
//! give theirs, so the keys of a map of unknown length are renamed too
//! (the test `flattened_fields_renamed` holds serde to it).

use serde::ser::{self, Serialize, Serializer};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// `best_move` → `bestMove` (what ts-rs's `rename_all = "camelCase"` does).
pub fn camel(name: &str) -> String {
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

/// The camelCase name of a field, made once per name: serde takes field
/// names as `&'static str`, and a program has finitely many.
fn camel_static(name: &'static str) -> &'static str {
    if !name.contains('_') {
        return name;
    }
    static NAMES: OnceLock<Mutex<HashMap<&'static str, &'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    names
        .entry(name)
        .or_insert_with(|| Box::leak(camel(name).into_boxed_str()))
}

/// A value serialized with its struct fields in camelCase (and everything
/// inside it the same way).
pub struct Camel<'a, T: ?Sized>(pub &'a T);

impl<T: Serialize + ?Sized> Serialize for Camel<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(CamelSerializer(s))
    }
}

/// Forwards to the inner serializer, renaming the fields of structs and
/// struct variants; everything nested is wrapped again.
struct CamelSerializer<S>(S);

/// The compound serializers (sequences, structs) of the inner serializer,
/// with their elements wrapped.
struct Compound<C>(C);

/// A map; `fields`: it is a struct with flattened fields (unknown length).
struct MapCompound<C> {
    inner: C,
    fields: bool,
}

macro_rules! forward {
    ($($f:ident($t:ty)),* $(,)?) => {
        $(fn $f(self, v: $t) -> Result<S::Ok, S::Error> { self.0.$f(v) })*
    };
}

impl<S: Serializer> Serializer for CamelSerializer<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Compound<S::SerializeSeq>;
    type SerializeTuple = Compound<S::SerializeTuple>;
    type SerializeTupleStruct = Compound<S::SerializeTupleStruct>;
    type SerializeTupleVariant = Compound<S::SerializeTupleVariant>;
    type SerializeMap = MapCompound<S::SerializeMap>;
    type SerializeStruct = Compound<S::SerializeStruct>;
    type SerializeStructVariant = Compound<S::SerializeStructVariant>;

    forward!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_unit_struct(&'static str),
    );

    fn serialize_none(self) -> Result<S::Ok, S::Error> {
        self.0.serialize_none()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<S::Ok, S::Error> {
        self.0.serialize_some(&Camel(v))
    }
    fn serialize_unit(self) -> Result<S::Ok, S::Error> {
        self.0.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<S::Ok, S::Error> {
        self.0.serialize_unit_variant(name, index, variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        v: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0.serialize_newtype_struct(name, &Camel(v))
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0
            .serialize_newtype_variant(name, index, variant, &Camel(v))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        self.0.serialize_seq(len).map(Compound)
    }
    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        self.0.serialize_tuple(len).map(Compound)
    }
    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        self.0.serialize_tuple_struct(name, len).map(Compound)
    }
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        self.0
            .serialize_tuple_variant(name, index, variant, len)
            .map(Compound)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        let fields = len.is_none();
        self.0
            .serialize_map(len)
            .map(|inner| MapCompound { inner, fields })
    }
    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        self.0.serialize_struct(name, len).map(Compound)
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        self.0
            .serialize_struct_variant(name, index, variant, len)
            .map(Compound)
    }
    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// The sequence-like compounds: elements wrapped.
macro_rules! elements {
    ($($tr:ident::$f:ident),* $(,)?) => {
        $(impl<C: ser::$tr> ser::$tr for Compound<C> {
            type Ok = C::Ok;
            type Error = C::Error;
            fn $f<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), C::Error> {
                self.0.$f(&Camel(v))
            }
            fn end(self) -> Result<C::Ok, C::Error> {
                self.0.end()
            }
        })*
    };
}

elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field,
);

/// Maps keep their keys (data) unless they are a struct with flattened
/// fields; their values are wrapped.
impl<C: ser::SerializeMap> ser::SerializeMap for MapCompound<C> {
    type Ok = C::Ok;
    type Error = C::Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<(), C::Error> {
        if !self.fields {
            return self.inner.serialize_key(k);
        }
        match serde_json::to_value(k).map_err(ser::Error::custom)? {
            serde_json::Value::String(name) => self.inner.serialize_key(&camel(&name)),
            _ => self.inner.serialize_key(k),
        }
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), C::Error> {
        self.inner.serialize_value(&Camel(v))
    }
    fn end(self) -> Result<C::Ok, C::Error> {
        self.inner.end()
    }
}

/// Struct fields renamed; their values wrapped.
macro_rules! fields {
    ($($tr:ident),* $(,)?) => {
        $(impl<C: ser::$tr> ser::$tr for Compound<C> {
            type Ok = C::Ok;
            type Error = C::Error;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                v: &T,
            ) -> Result<(), C::Error> {
                self.0.serialize_field(camel_static(key), &Camel(v))
            }
            fn skip_field(&mut self, key: &'static str) -> Result<(), C::Error> {
                self.0.skip_field(camel_static(key))
            }
            fn end(self) -> Result<C::Ok, C::Error> {
                self.0.end()
            }
        })*
    };
}

fields!(SerializeStruct, SerializeStructVariant);

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use serde_json::json;
    use std::collections::BTreeMap;

    fn js<T: Serialize>(v: &T) -> serde_json::Value {
        serde_json::to_value(Camel(v)).unwrap()
    }

    #[test]
    fn names() {
        for (s, c) in [
            ("best_move", "bestMove"),
            ("h_max", "hMax"),
            ("ci95", "ci95"),
            ("terminal_states_sampled", "terminalStatesSampled"),
        ] {
            assert_eq!(camel(s), c);
            assert_eq!(camel_static(Box::leak(s.to_string().into_boxed_str())), c);
        }
    }

    #[derive(Serialize)]
    struct Inner {
        tt_hits: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        node_cap: Option<u32>,
    }

    #[derive(Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    enum Event {
        NodeEnter { state_id: u32 },
        LeafValue(Inner),
    }

    #[derive(Serialize)]
    struct Outer {
        best_move: Option<String>,
        goal_values: BTreeMap<String, Vec<Inner>>,
        events: Vec<Event>,
        nested: Vec<Option<Inner>>,
        raw: serde_json::Value,
    }

    #[test]
    fn struct_fields_renamed_map_keys_kept() {
        let v = Outer {
            best_move: None,
            goal_values: BTreeMap::from([(
                "white_player".to_string(),
                vec![Inner {
                    tt_hits: 1,
                    node_cap: Some(2),
                }],
            )]),
            events: vec![
                Event::NodeEnter { state_id: 3 },
                Event::LeafValue(Inner {
                    tt_hits: 4,
                    node_cap: None,
                }),
            ],
            nested: vec![
                None,
                Some(Inner {
                    tt_hits: 5,
                    node_cap: None,
                }),
            ],
            raw: json!({"elapsed_ms": 1}),
        };
        assert_eq!(
            js(&v),
            json!({
                "bestMove": null,
                "goalValues": {"white_player": [{"ttHits": 1, "nodeCap": 2}]},
                "events": [
                    {"type": "node_enter", "stateId": 3},
                    {"type": "leaf_value", "ttHits": 4}
                ],
                "nested": [null, {"ttHits": 5}],
                "raw": {"elapsed_ms": 1}
            })
        );
        // The CLI's spelling is the fields' own.
        assert_eq!(serde_json::to_value(&v).unwrap()["nested"][1]["tt_hits"], 5);
        assert_eq!(
            serde_json::to_value(&v).unwrap()["goal_values"]["white_player"][0]["tt_hits"],
            1
        );
    }

    #[derive(Serialize)]
    struct Flat {
        best_move: u8,
        #[serde(flatten)]
        inner: Inner,
        data: BTreeMap<String, u8>,
    }

    #[test]
    fn flattened_fields_renamed() {
        let v = Flat {
            best_move: 1,
            inner: Inner {
                tt_hits: 2,
                node_cap: None,
            },
            data: BTreeMap::from([("a_b".to_string(), 3)]),
        };
        assert_eq!(
            js(&v),
            json!({"bestMove": 1, "ttHits": 2, "data": {"a_b": 3}})
        );
        // A map built from an iterator of known length keeps its keys.
        let keys = ["x_y", "z"];
        let by_role = ByKeys(&keys);
        assert_eq!(js(&by_role), json!({"x_y": 0, "z": 1}));
    }

    struct ByKeys<'a>(&'a [&'a str]);

    impl Serialize for ByKeys<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map(self.0.iter().zip(0..))
        }
    }
}
