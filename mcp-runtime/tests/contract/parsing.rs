//! Parsing through a declaration's `invoke`, as the server will call it.

use serde_json::json;

use crate::harness::call;

fn minimal() -> serde_json::Value {
    json!({"reference": "Sandbox.WebHome", "content": "", "version": 1, "mode": "source",
           "filter": {"field": "title"}})
}

#[test]
fn every_kind_parses_as_the_table_says() {
    let args = json!({
        "reference": "  Sandbox.WebHome ", "content": " raw\r\n", "locale": "  ",
        "comment": "", "limit": "7", "context": 99, "version": 2.0, "offset": -1,
        "hidden": "TRUE", "minor": false, "spaces": [" A ", ""], "fields": {"k": " v "},
        "mode": "rendered_html", "diff_mode": null, "filter": {"field": "f", "max": 3},
        "filters": [{"field": "a"}, {"field": "b"}], "source": "dev", "size": "12",
        "ratio": "0.25", "weight": -1.5, "start": 3, "count": 99
    });
    assert_eq!(
        call("every_kind", &args),
        Ok(
            "by alice: reference=\"Sandbox.WebHome\" content=\" raw\\r\\n\" locale=None \
            comment=Present(\"\") limit=7 context=10 version=2 offset=Some(-1) size=Some(12) \
            ratio=0.25 weight=Some(-1.5) page=Page { start: 3, count: 50 } hidden=true \
            minor=Some(false) spaces=[\"A\"] fields={\"k\": \" v \"} mode=rendered_html \
            diff_mode=None filter=Filter { field: \"f\", value: None, max: Some(3) } filters=2 \
            extra=None source=Some(\"dev\")"
                .to_owned()
        )
    );
}

#[test]
fn defaults_apply_when_absent() {
    let text = call("every_kind", &minimal());
    let text = text.as_deref().unwrap_or_default();
    assert!(text.contains("comment=Absent limit=20 context=3"), "{text}");
    assert!(
        text.contains("size=None ratio=0.5 weight=None page=Page { start: 0, count: 10 }"),
        "{text}"
    );
    assert!(
        text.contains("hidden=false minor=None spaces=[] fields={}"),
        "{text}"
    );
}

#[test]
fn unknown_arguments_are_refused_listing_the_accepted_ones() {
    let mut args = minimal();
    args["limt"] = json!(5);
    assert_eq!(
        call("every_kind", &args),
        Err(
            "Error: 'limt' is not a parameter of this tool. Accepted parameters: reference, \
             content, locale, comment, limit, context, version, offset, size, ratio, weight, \
             start, count, hidden, minor, spaces, fields, mode, diff_mode, filter, filters, \
             extra, source."
                .to_owned()
        )
    );
    assert_eq!(
        call("no_params", &json!({"x": 1})),
        Err(
            "Error: 'x' is not a parameter of this tool. This tool takes no parameters: call it \
             with no arguments."
                .to_owned()
        )
    );
}

#[test]
fn refusals_name_the_parameter_in_the_reference_form() {
    let cases = [
        (
            "reference",
            json!("   "),
            "Error: 'reference' parameter is required.",
        ),
        ("limit", json!(1.5), "Error: 'limit' must be an integer."),
        (
            "limit",
            json!(101),
            "Error: 'limit' must be between 1 and 100 (got 101).",
        ),
        ("hidden", json!("yes"), "Error: 'hidden' must be a boolean."),
        (
            "spaces",
            json!(["a", 1]),
            "Error: 'spaces' must be an array of strings.",
        ),
        (
            "mode",
            json!("html"),
            "Error: 'mode' must be one of: source, rendered, rendered_html (got \"html\").",
        ),
    ];
    for (name, value, expected) in cases {
        let mut args = minimal();
        args[name] = value;
        assert_eq!(
            call("every_kind", &args),
            Err(expected.to_owned()),
            "{name}"
        );
    }
}

#[test]
fn renamed_parameters_parse_under_their_wire_names() {
    assert_eq!(
        call(
            "renamed",
            &json!({"documentReference": "A.B", "showHidden": true, "fieldValues": {"x": "1"}})
        ),
        Ok("A.B true {\"x\": \"1\"}".to_owned())
    );
    assert_eq!(
        call("renamed", &json!({"documentReference": "A.B"})),
        Err("Error: 'fieldValues' parameter is required.".to_owned())
    );
}
