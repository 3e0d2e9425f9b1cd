//! A tool's parameter table, assembled when it is compiled: its own fields' declarations and, in
//! their place, the declarations of each `#[param(flatten)]` group (a `ParamObject` whose fields
//! become top-level parameters), so a group shared by several tools is declared and documented
//! once. The table is one `static` either way, so the schema, `man` and the parser read it as
//! they read a tool without groups.

use super::{JsonObject, ParamDecl, ParamError, ParamSpec};

fn no_schema(_: &ParamSpec) -> JsonObject {
    JsonObject::new()
}

fn not_required(_: &ParamSpec) -> bool {
    false
}

/// A slot of a table under construction; never left in a finished table.
const PLACEHOLDER: ParamDecl = ParamDecl {
    spec: ParamSpec::new("", ""),
    schema: no_schema,
    required: not_required,
};

const fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut at = 0;
    while at < a.len() {
        if a[at] != b[at] {
            return false;
        }
        at += 1;
    }
    true
}

/// The `N` declarations of `parts`, in order.
pub const fn concat<const N: usize>(parts: &[&[ParamDecl]]) -> [ParamDecl; N] {
    let mut table = [PLACEHOLDER; N];
    let mut filled = 0;
    let mut part = 0;
    while part < parts.len() {
        let decls = parts[part];
        let mut index = 0;
        while index < decls.len() {
            table[filled] = decls[index];
            filled += 1;
            index += 1;
        }
        part += 1;
    }
    assert!(
        filled == N,
        "mcp-macros bug: a parameter table's length is not the sum of its parts"
    );
    table
}

/// Fails const evaluation with `duplicate` (the macro's message, naming the struct) when two
/// declarations of `table` share a wire name: a group's field and a tool's field, or two
/// groups', would otherwise make one of them unreachable.
pub const fn unique_names(table: &[ParamDecl], duplicate: &'static str) {
    let mut index = 0;
    while index < table.len() {
        let mut earlier = 0;
        while earlier < index {
            if same_name(table[earlier].spec.name, table[index].spec.name) {
                panic!("{}", duplicate);
            }
            earlier += 1;
        }
        index += 1;
    }
}

/// Refuses an argument no declaration of `params` names, listing the accepted names.
pub fn refuse_unknown(args: &JsonObject, params: &[ParamDecl]) -> Result<(), ParamError> {
    for key in args.keys() {
        if !params.iter().any(|param| param.spec.name == key) {
            return Err(ParamError::Unknown {
                name: key.clone(),
                accepted: params.iter().map(|param| param.spec.name).collect(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn decl(name: &'static str) -> ParamDecl {
        ParamDecl {
            spec: ParamSpec::new(name, ""),
            ..PLACEHOLDER
        }
    }

    const GROUP: &[ParamDecl] = &[decl("comment"), decl("major")];
    static TABLE: [ParamDecl; 4] = concat(&[&[decl("reference")], GROUP, &[decl("wiki")]]);
    const _: () = unique_names(&TABLE, "two parameters share a name");

    #[test]
    fn groups_take_their_place_in_declaration_order() {
        let names: Vec<&str> = TABLE.iter().map(|decl| decl.spec.name).collect();
        assert_eq!(names, ["reference", "comment", "major", "wiki"]);
    }

    #[test]
    fn unknown_arguments_are_refused_listing_the_table() {
        let mut args = JsonObject::new();
        args.insert("comment".to_owned(), "x".into());
        assert_eq!(refuse_unknown(&args, &TABLE), Ok(()));
        args.insert("coment".to_owned(), "x".into());
        assert_eq!(
            refuse_unknown(&args, &TABLE).map_err(|e| e.to_string()),
            Err(
                "Error: 'coment' is not a parameter of this tool. Accepted parameters: \
                 reference, comment, major, wiki."
                    .to_owned()
            )
        );
    }
}
