//! The platform's patch rules: merge, and every 400 with its path.

use reference::config::{apply_patch, Document};
use serde_json::{json, Value};

fn rejected(patch: Value) -> String {
    let doc = Document::defaults();
    let errors = apply_patch(&doc, &patch).expect_err("patch should be rejected");
    errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")
}

#[test]
fn merges_nested_values_and_units() {
    let patch = json!({
        "NetworkInterface": {
            "UplinkNetworkInterface": {"DataRate": {"value": 800, "unit": "Gbps", "type": "datarate"}},
            "TransmissionMedium": {"Delay": {"value": 750, "unit": "ns", "type": "timeval"}}
        },
        "SharedBufferManager": {"PoolAllocationMap": {"value": "[0.8, 0.2, 0, 0, 0, 0, 0, 0]", "type": "string"}}
    });
    let (merged, warnings) = apply_patch(&Document::defaults(), &patch).unwrap();
    assert!(warnings.is_empty());
    let v = merged.to_value();
    assert_eq!(v["NetworkInterface"]["UplinkNetworkInterface"]["DataRate"]["value"].to_string(), "800");
    assert_eq!(v["NetworkInterface"]["TransmissionMedium"]["Delay"]["value"].to_string(), "750");
    assert_eq!(v["SharedBufferManager"]["PoolAllocationMap"]["value"], json!("[0.8, 0.2, 0, 0, 0, 0, 0, 0]"));
    // Untouched attributes and fields stay as they were.
    assert_eq!(v["NetworkInterface"]["DownlinkNetworkInterface"], Document::defaults().to_value()["NetworkInterface"]["DownlinkNetworkInterface"]);
    assert_eq!(v["NetworkInterface"]["TransmissionMedium"]["Delay"]["default"].to_string(), "500");
}

#[test]
fn unit_replaced_with_value_and_kept_with_a_warning_when_missing() {
    let patch = json!({"SharedBufferManager": {"PlaneBDP": {"value": 1, "unit": "MB", "type": "bytes"}}});
    let (merged, _) = apply_patch(&Document::defaults(), &patch).unwrap();
    assert_eq!(merged.to_value()["SharedBufferManager"]["PlaneBDP"]["unit"], json!("MB"));
    let patch = json!({"SharedBufferManager": {"PlaneBDP": {"value": 600, "type": "bytes"}}});
    let (merged, warnings) = apply_patch(&Document::defaults(), &patch).unwrap();
    assert_eq!(merged.to_value()["SharedBufferManager"]["PlaneBDP"]["unit"], json!("KB"));
    assert!(warnings[0].to_string().contains("SharedBufferManager.PlaneBDP"));
}

#[test]
fn unknown_key_is_400_with_path() {
    let e = rejected(json!({"SharedBufferManager": {"PoolAlocationMap": {"value": "[1, 0, 0, 0, 0, 0, 0, 0]", "type": "string"}}}));
    assert!(e.contains("SharedBufferManager.PoolAlocationMap") && e.contains("unknown key"), "{e}");
    let e = rejected(json!({"Bogus": {"X": {"value": 1, "type": "uint"}}}));
    assert!(e.contains("Bogus") && e.contains("unknown key"), "{e}");
}

#[test]
fn a_key_omitted_from_the_stored_document_cannot_be_patched() {
    let doc = Document::from_json_str(r#"{"EcnHandler": {"EnableEcn": {"value": true, "type": "bool"}}}"#).unwrap();
    let errors = apply_patch(&doc, &json!({"EcnHandler": {"EwmaWeight": {"value": 0.2, "type": "double"}}})).unwrap_err();
    assert!(errors[0].to_string().contains("EcnHandler.EwmaWeight"));
}

#[test]
fn type_must_match_stored_type() {
    let e = rejected(json!({"SharedBufferManager": {"PlaneBDP": {"value": 300, "type": "uint"}}}));
    assert!(e.contains("SharedBufferManager.PlaneBDP") && e.contains("does not match the stored type \"bytes\""), "{e}");
    let e = rejected(json!({"NumUpLinks": {"value": 3}}));
    assert!(e.contains("NumUpLinks") && e.contains("nested object"), "{e}");
}

#[test]
fn empty_patch_is_400() {
    assert!(rejected(json!({})).contains("empty"));
    assert!(rejected(json!({"EcnHandler": {}})).contains("EcnHandler"));
    assert!(rejected(json!([1])).contains("JSON object"));
}

#[test]
fn object_where_attribute_expected_and_reverse() {
    let e = rejected(json!({"EcnHandler": {"EwmaWeight": {"inner": {"value": 1, "type": "double"}}}}));
    assert!(e.contains("EcnHandler.EwmaWeight") && e.contains("nested object was sent where an attribute"), "{e}");
    let e = rejected(json!({"EcnHandler": {"value": 1, "type": "double"}}));
    assert!(e.contains("EcnHandler") && e.contains("attribute was sent where a nested object"), "{e}");
    let e = rejected(json!({"EcnHandler": 5}));
    assert!(e.contains("nested object is expected"), "{e}");
    let e = rejected(json!({"NumUpLinks": 5}));
    assert!(e.contains("NumUpLinks") && e.contains("attribute object"), "{e}");
}

#[test]
fn list_form_rules() {
    let path = "SharedBufferManager.PoolAllocationMap";
    for bad in ["0.8, 0.2, 0, 0, 0, 0, 0, 0", "[0.8, 0.2, 0, 0, 0, 0, 0]", "[0.8, 0.2, 0, 0, 0, 0, 0, 0, 0]", "[0.8; 0.2, 0, 0, 0, 0, 0, 0]", "[0.8, 0.2, 0, 0, 0, 0, 0, 0 ]x"] {
        let e = rejected(json!({"SharedBufferManager": {"PoolAllocationMap": {"value": bad, "type": "string"}}}));
        assert!(e.contains(path), "{bad}: {e}");
    }
    // Letters pass the form check (the stop rule catches them later).
    let ok = json!({"SharedBufferManager": {"EnablePFC": {"value": "[on, 1, 0, 0, 0, 0, 0, 0]", "type": "string"}}});
    assert!(apply_patch(&Document::defaults(), &ok).is_ok());
}

#[test]
fn enum_rule() {
    let e = rejected(json!({"EcmpHashMethod": {"value": "sha1", "type": "string"}}));
    assert!(e.contains("EcmpHashMethod") && e.contains("allowed values"), "{e}");
    assert!(apply_patch(&Document::defaults(), &json!({"LoadBalancingMethod": {"value": "flowlet", "type": "string"}})).is_ok());
}

#[test]
fn rejected_patch_changes_nothing_and_reports_every_error() {
    let doc = Document::defaults();
    let before = doc.clone();
    let patch = json!({
        "NumUpLinks": {"value": 3, "type": "uint"},
        "EcmpHashMethod": {"value": "sha1", "type": "string"},
        "Bogus": {"value": 1, "type": "uint"}
    });
    let errors = apply_patch(&doc, &patch).unwrap_err();
    assert_eq!(errors.len(), 2);
    assert_eq!(doc, before);
}
