use std::cell::Cell;
use std::collections::HashMap;

use proptest::prelude::*;
use serde_json::{Map, json};

use super::*;
use crate::budget::attempt_with;

/// A small deterministic generator (xorshift), so that a failing case is
/// its seed.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

const DEFS: u64 = 6;

/// A subschema at `level` of nesting: scalars (some with long
/// descriptions or enums), `$ref`s with and without siblings, arrays,
/// inline objects, `allOf`/`anyOf`, and now and then a `$ref` whose
/// sibling repeats a keyword of its target.
fn schema(g: &mut Gen, level: u32) -> Value {
    let pick = if level > 3 { g.below(3) } else { g.below(10) };
    match pick {
        0 => {
            json!({"type": "string", "description": "A text field, described at some length so that it costs bytes in a listing."})
        }
        1 => json!({"type": "integer", "format": "int32"}),
        2 => json!({"type": "string", "enum": ["a", "b", "c"]}),
        3 | 4 => json!({"$ref": format!("#/$defs/D{}", g.below(DEFS))}),
        5 => {
            json!({"$ref": format!("#/$defs/D{}", g.below(DEFS)), "description": "The site's own words."})
        }
        6 => json!({"type": "array", "items": schema(g, level + 1)}),
        7 => {
            let mut props = Map::new();
            for i in 0..1 + g.below(4) {
                props.insert(format!("n{i}"), schema(g, level + 1));
            }
            json!({"type": "object", "properties": props})
        }
        8 => json!({"allOf": [schema(g, level + 1), schema(g, level + 1)]}),
        _ => {
            if g.below(4) == 0 {
                json!({"$ref": format!("#/$defs/D{}", g.below(DEFS)), "properties": {"x": {"type": "string"}}})
            } else {
                json!({"anyOf": [schema(g, level + 1), {"type": "null"}]})
            }
        }
    }
}

fn object(g: &mut Gen, fields: u64) -> Value {
    let mut props = Map::new();
    for i in 0..fields {
        props.insert(format!("f{i}"), schema(g, 1));
    }
    json!({"type": "object", "properties": props, "description": "An object."})
}

fn table(defs: &Map<String, Value>) -> HashMap<String, Arc<Converted>> {
    defs.iter()
        .map(|(k, v)| {
            let mut deps = Vec::new();
            openapi2mcp_model::schemas::def_refs(v, &mut deps);
            let c = Converted::new(v.clone(), deps);
            (k.clone(), Arc::new(c))
        })
        .collect()
}

fn case(seed: u64) -> (Value, HashMap<String, Arc<Converted>>) {
    let mut g = Gen(seed | 1);
    let mut defs = Map::new();
    for d in 0..DEFS {
        let fields = 1 + g.below(8);
        defs.insert(format!("D{d}"), object(&mut g, fields));
    }
    let fields = 1 + g.below(6);
    let mut top = object(&mut g, fields);
    if g.below(3) == 0 {
        top.as_object_mut().unwrap().remove("description");
    }
    (top, table(&defs))
}

const SELF: &str = "openapi2mcp://tools/t/input-schema";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// One expansion finds what trying every level from scratch finds,
    /// byte for byte.
    #[test]
    fn deepest_is_every_level_tried_in_turn(seed in any::<u64>(), budget in 150usize..6000, output in any::<bool>()) {
        let (top, defs) = case(seed);
        let side = if output { Side::Output } else { Side::Input };
        let mut lookup = |k: &str| Arc::clone(&defs[k]);
        let once = deepest(&top, &mut lookup, side, budget, SELF);
        let each = level_by_level(&top, &mut lookup, side, budget, SELF);
        prop_assert_eq!(
            once.as_ref().map(Value::to_string),
            each.as_ref().map(Value::to_string),
            "seed {} budget {}", seed, budget
        );
    }
}

/// A chain of objects each holding the next: every level fits, so every
/// level is tried.
fn chain() -> (Value, HashMap<String, Arc<Converted>>) {
    let mut defs = Map::new();
    for d in 0..12 {
        let mut props = Map::new();
        props.insert(
            "next".into(),
            json!({"$ref": format!("#/$defs/C{}", d + 1)}),
        );
        for i in 0..4 {
            props.insert(
                format!("f{i}"),
                json!({"type": "string", "description": "Some words about this field, enough to be summarized."}),
            );
        }
        defs.insert(
            format!("C{d}"),
            json!({"type": "object", "properties": props}),
        );
    }
    defs.insert("C12".into(), json!({"type": "string"}));
    (
        json!({"type": "object", "properties": {"first": {"$ref": "#/$defs/C0"}}}),
        table(&defs),
    )
}

#[test]
fn each_schema_is_expanded_about_twice_not_once_per_level() {
    let (top, defs) = chain();
    let lookups = Cell::new(0usize);
    let mut lookup = |k: &str| {
        lookups.set(lookups.get() + 1);
        Arc::clone(&defs[k])
    };
    let deps = ["C0".to_string()].into_iter().collect();
    let fitted = super::super::fit(
        top.as_object().unwrap().clone(),
        &deps,
        Side::Input,
        4000,
        &mut lookup,
        SELF,
    );
    let text = fitted.listed.to_string();
    // Eight levels inline, the rest summarized.
    assert!(text.contains("openapi2mcp://schemas/C8"), "{text}");
    assert!(!text.contains("openapi2mcp://schemas/C7"), "{text}");
    // The closure's size is measured first (13 lookups); then trying the
    // eight levels from scratch looks up C0 to C(k-1) and C(k)'s summary
    // at each level k, 44 lookups (57 in all); one expansion, the next
    // levels' places and the final listing, 25.
    assert!(lookups.get() <= 45, "{} lookups", lookups.get());
}

/// Over many generated schemas and budgets: the same as level by level,
/// and the cases cover every outcome (nothing fits, level 1 only, a
/// deeper level, every level).
#[test]
fn deepest_matches_level_by_level_over_a_sweep() {
    let mut outcomes = [0usize; 4];
    for seed in 1..600u64 {
        let (top, defs) = case(seed * 7919);
        for budget in [300, 900, 2000, 4096] {
            for side in [Side::Input, Side::Output] {
                let mut lookup = |k: &str| Arc::clone(&defs[k]);
                let once = deepest(&top, &mut lookup, side, budget, SELF);
                let each = level_by_level(&top, &mut lookup, side, budget, SELF);
                assert_eq!(once, each, "seed {} budget {budget}", seed * 7919);
                let mut level = |d| attempt(&top, &mut lookup, side, budget, SELF, d, None);
                let outcome = match &once {
                    None => 0,
                    Some(v)
                        if level(MAX_DEPTH).as_ref() == Some(v) && level(1).as_ref() != Some(v) =>
                    {
                        3
                    }
                    Some(v) if level(1).as_ref() == Some(v) => 1,
                    Some(_) => 2,
                };
                outcomes[outcome] += 1;
            }
        }
    }
    assert!(outcomes.iter().all(|&n| n >= 50), "{outcomes:?}");
}

/// An attempt given up once what it copied passes the budget answers as
/// one built whole and then measured, at every level and description
/// length the budget tries; and some attempts are given up that way.
#[test]
fn attempts_cut_short_answer_as_attempts_built_whole() {
    let mut fitted = 0;
    for seed in 1..300u64 {
        let (top, defs) = case(seed * 104_729);
        for budget in [200, 600, 1500, 4096] {
            for side in [Side::Input, Side::Output] {
                for (depth, desc_max) in [
                    (1, None),
                    (3, None),
                    (1, Some(100)),
                    (0, Some(40)),
                    (0, Some(0)),
                ] {
                    let mut lookup = |k: &str| Arc::clone(&defs[k]);
                    let short =
                        attempt_with(&top, &mut lookup, side, budget, SELF, depth, desc_max, true);
                    let whole = attempt_with(
                        &top,
                        &mut lookup,
                        side,
                        budget,
                        SELF,
                        depth,
                        desc_max,
                        false,
                    );
                    assert_eq!(
                        short,
                        whole,
                        "seed {} budget {budget} depth {depth} {desc_max:?}",
                        seed * 104_729
                    );
                    fitted += usize::from(whole.is_some());
                }
            }
        }
    }
    assert!(fitted > 1000, "{fitted}");
}

/// A schema far over the budget is given up after copying about the
/// budget's worth, not all of it.
#[test]
fn an_attempt_far_over_the_budget_stops_early() {
    let mut props = Map::new();
    for i in 0..300 {
        props.insert(
            format!("field_{i}"),
            json!({"type": "string", "description": "x".repeat(300)}),
        );
    }
    let top =
        json!({"type": "object", "properties": {"big": {"type": "object", "properties": props}}});
    let mut lookup = |_: &str| -> Arc<Converted> { unreachable!("no references") };
    let mut e = Expander::new(&mut lookup, Side::Input, SELF, 1, None, usize::MAX);
    e.size_limit = 4096;
    assert!(e.expand(&top, 0, None).is_err());
    assert!(e.nodes < 30, "{} nodes expanded", e.nodes);
}
