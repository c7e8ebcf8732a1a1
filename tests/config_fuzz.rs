//! Arbitrary documents and patches never panic the configuration code.

use proptest::prelude::*;
use reference::config::{apply_patch, validate, Document, Topology};
use reference::BufferPlan;
use serde_json::{json, Value};

fn cases() -> u32 {
    testbench::proptest_cases(512)
}

const KEYS: &[&str] = &["value", "type", "unit", "SharedBufferManager", "EcnHandler", "PoolAllocationMap",
    "EnablePFC", "TrafficClassPoolMapping", "NumUpLinks", "Gap", "LoadBalancingFlowlet", "NetworkInterface",
    "UplinkNetworkInterface", "DataRate", "TotalSharedBufferSize", "EwmaWeight", "LossyAlpha", "x"];
const STRINGS: &[&str] = &["uint", "bool", "double", "string", "bytes", "datarate", "timeval", "KB", "MB", "B",
    "Gbps", "ns", "us", "s", "[0.9, 0.1, 0, 0, 0, 0, 0, 0]", "[1, 1, 0, 0, 0, 0, 0, 0]", "[", "flowlet", "dpr", ""];

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| json!(f)),
        prop::sample::select(STRINGS).prop_map(|s| json!(s)),
        "[a-z0-9\\[\\], .]{0,30}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
        ]
    })
}

/// A mutation of the default document: one attribute's value, unit or type replaced.
fn mutated_default() -> impl Strategy<Value = Value> {
    (0..33usize, prop::sample::select(&["value", "unit", "type"][..]), json_value()).prop_map(|(i, field, v)| {
        let mut doc = Document::defaults().to_value();
        let spec = &reference::config::schema::ATTRIBUTES[i];
        let mut node = &mut doc;
        for c in spec.component {
            node = &mut node[*c];
        }
        node[spec.name][field] = v;
        doc
    })
}

fn exercise(doc: Value, patch: Value, ports: u32) {
    if let Ok(doc) = Document::from_value(doc) {
        let _ = doc.to_json_pretty();
        let topology = Topology { connected_ports: Some(ports), nic_models: vec!["x".into()] };
        if let Ok(v) = validate(&doc, &topology) {
            let _ = BufferPlan::derive(&v.config, ports).map(|p| p.to_json());
        }
        if let Ok((merged, _)) = apply_patch(&doc, &patch) {
            let _ = validate(&merged, &topology);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn arbitrary_json_never_panics(doc in json_value(), patch in json_value(), ports in 0u32..3000) {
        exercise(doc, patch, ports);
    }

    #[test]
    fn mutated_documents_never_panic(doc in mutated_default(), patch in json_value(), ports in 0u32..3000) {
        exercise(doc, patch, ports);
    }

    #[test]
    fn patches_of_the_default_never_panic(patch in json_value(), ports in 1u32..2000) {
        exercise(Document::defaults().to_value(), json!({"SharedBufferManager": patch.clone()}), ports);
        exercise(Document::defaults().to_value(), patch, ports);
    }
}
