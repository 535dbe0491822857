//! Every operation of the API document says what its successful answer holds: its 200 response
//! carries a schema, not only words.

use std::collections::BTreeSet;

fn operations() -> (BTreeSet<String>, BTreeSet<String>) {
    let doc: serde_json::Value =
        serde_json::from_str(&api::openapi::document().expect("document")).expect("json");
    let (mut typed, mut untyped) = (BTreeSet::new(), BTreeSet::new());
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("path item") {
            let name = format!("{} {path}", method.to_uppercase());
            let content = &op["responses"]["200"]["content"];
            let has_schema = content
                .as_object()
                .is_some_and(|c| !c.is_empty() && c.values().all(|m| m.get("schema").is_some()));
            if has_schema {
                typed.insert(name);
            } else {
                untyped.insert(name);
            }
        }
    }
    (typed, untyped)
}

#[test]
fn every_answer_has_a_schema() {
    let (typed, untyped) = operations();
    assert!(
        untyped.is_empty(),
        "operations whose answer has no schema (give the handler a typed answer and `body = ...`): {untyped:#?}"
    );
    assert!(typed.len() > 200, "the document lost operations");
}

/// Schemas are named by their type's name alone, and the document keeps one schema per name:
/// two `ToSchema` types of the same name in different modules would describe one of them
/// wrongly, without any error. Every name must be unique across the API crate.
#[test]
fn schema_names_are_unique() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../api/src");
    let mut seen: std::collections::BTreeMap<String, String> = Default::default();
    let mut clashes = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("read dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let source = std::fs::read_to_string(&path).expect("read source");
            let mut derives_schema = false;
            for line in source.lines().map(str::trim) {
                if line.starts_with("#[derive(") && line.contains("ToSchema") {
                    derives_schema = true;
                    continue;
                }
                if line.starts_with("#[") || line.starts_with("///") {
                    continue;
                }
                if derives_schema {
                    let name = line
                        .split_whitespace()
                        .skip_while(|w| *w != "struct" && *w != "enum")
                        .nth(1)
                        .map(|w| {
                            w.chars()
                                .take_while(|c| c.is_alphanumeric() || *c == '_')
                                .collect::<String>()
                        });
                    if let Some(name) = name {
                        let at = path.display().to_string();
                        if let Some(first) = seen.insert(name.clone(), at.clone()) {
                            clashes.push(format!("{name}: {first} and {at}"));
                        }
                    }
                }
                derives_schema = false;
            }
        }
    }
    assert!(
        clashes.is_empty(),
        "ToSchema names used twice: {clashes:#?}"
    );
    assert!(
        seen.len() > 50,
        "the scan found too few schemas: {}",
        seen.len()
    );
}
