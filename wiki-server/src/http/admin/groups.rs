//! Groups (farm administrators only): each group with its direct members, groups created and
//! deleted, members added and removed, as `wiki-mcp group create|delete|add|remove` do
//! (`changes.rs`). The built-in all-users group is listed (every registered user is in it) but
//! takes no members.

use std::fmt::Write as _;
use std::sync::Arc;

use axum::Form;
use axum::extract::{Path, RawQuery, State};
use axum::response::Response;
use http::{HeaderMap, StatusCode};
use serde::Deserialize;
use wiki_store::model::rights::Subject;
use wiki_store::model::user::{ALL_USERS_GROUP, Group};

use super::AdminState;
use super::auth::Admin;
use super::changes::{self, Typed, notice_banner};
use super::html::{self, csrf_field, escape};
use crate::accounts::{AccountChange, ChangeError};
use mcp_runtime::reason::ErrorKind;

/// Groups listed at most (by name); beyond, the page says how many are not shown.
const MAX_LISTED: usize = 500;

/// Members shown per group at most.
const MAX_MEMBERS: usize = 200;

/// What the group forms post: a group's `name` (create, delete), or a membership (add,
/// remove): the `group`, and the member as `kind` (`user` or `group`) and name.
#[derive(Deserialize)]
pub(crate) struct Fields {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    group: String,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    member: String,
}

impl Fields {
    /// The group and member the form names.
    fn membership(&self) -> Result<(String, Subject), ChangeError> {
        let name = self.member.trim().to_owned();
        let member = match self.kind.as_str() {
            "user" => Subject::User(name),
            "group" => Subject::Group(name),
            _ => {
                return Err(ChangeError::refused(
                    ErrorKind::BadArgument,
                    "choose whether the member is a user or a group",
                ));
            }
        };
        Ok((self.group.trim().to_owned(), member))
    }
}

/// One member's cell: its name, and a button removing it from `group`.
fn member(base: &str, csrf: &str, group: &str, kind: &str, name: &str) -> String {
    let label = if kind == "group" {
        format!("group {name}")
    } else {
        name.to_owned()
    };
    format!(
        "<li>{label} <form method=\"post\" action=\"{base}/admin/groups/remove\" class=\"inline\">{csrf}\
         <input type=\"hidden\" name=\"group\" value=\"{group}\">\
         <input type=\"hidden\" name=\"kind\" value=\"{kind}\">\
         <input type=\"hidden\" name=\"member\" value=\"{name}\">\
         <button class=\"secondary small\" type=\"submit\" aria-label=\"Remove {label} from {group}\">Remove</button></form></li>",
        label = escape(&label),
        group = escape(group),
        name = escape(name),
    )
}

fn row(base: &str, csrf: &str, group: &Group) -> String {
    let name = escape(&group.name);
    if group.name == ALL_USERS_GROUP {
        return format!(
            "<tr><td>{name} <span class=\"tag on\">built in</span></td>\
             <td class=\"muted\">Every registered user ({}).</td></tr>",
            group.users.len()
        );
    }
    let members: Vec<String> = group
        .users
        .iter()
        .map(|user| member(base, csrf, &group.name, "user", user))
        .chain(
            group
                .groups
                .iter()
                .map(|inner| member(base, csrf, &group.name, "group", inner)),
        )
        .collect();
    let total = members.len();
    let mut cell = if total == 0 {
        "<span class=\"muted\">no members</span>".to_owned()
    } else {
        format!(
            "<ul class=\"members\">{}</ul>",
            members[..total.min(MAX_MEMBERS)].concat()
        )
    };
    if total > MAX_MEMBERS {
        let _ = write!(
            cell,
            "<p class=\"muted\">{} more members are not shown (<code>wiki-mcp group list</code> \
             lists them).</p>",
            total - MAX_MEMBERS
        );
    }
    format!("<tr><td>{name}</td><td>{cell}</td></tr>")
}

pub(crate) async fn render(
    state: &AdminState,
    admin: &Admin,
    status: StatusCode,
    banner: &str,
    typed: &Typed,
) -> Response {
    let groups = match state
        .on_store("list groups", |store| store.list_groups())
        .await
    {
        Ok(groups) => groups,
        Err(response) => return response,
    };
    let csrf = csrf_field(&admin.session.csrf);
    let base = escape(&admin.prefix);
    let rows: String = groups
        .iter()
        .take(MAX_LISTED)
        .map(|group| row(&base, &csrf, group))
        .collect();
    let more = groups.len().saturating_sub(MAX_LISTED);
    let more = if more > 0 {
        format!("<p class=\"muted\">{more} more groups are not shown.</p>")
    } else {
        String::new()
    };
    let body = format!(
        "<h1>Groups</h1>{banner}\
         <p>A group's members get the rights its rules give (Rights); a group in a group brings \
         its members along.</p>\
         <form method=\"post\" action=\"{base}/admin/groups/add\" class=\"card\">{csrf}<h2>Add a member</h2>\
         <label for=\"add-group\">Group</label><input type=\"text\" id=\"add-group\" name=\"group\"{add_group} required>\
         <fieldset><legend>The member is</legend>\
         <label class=\"check\"><input type=\"radio\" name=\"kind\" value=\"user\"{user_checked}> a user</label>\
         <label class=\"check\"><input type=\"radio\" name=\"kind\" value=\"group\"{group_checked}> a group</label></fieldset>\
         <label for=\"add-member\">Member name</label><input type=\"text\" id=\"add-member\" name=\"member\"{add_member} required>\
         <p><button type=\"submit\">Add member</button></p></form>\
         <div class=\"card scroll\"><table><thead><tr><th scope=\"col\">Group</th>\
         <th scope=\"col\">Members</th></tr></thead><tbody>{rows}</tbody></table>{more}</div>\
         <form method=\"post\" action=\"{base}/admin/groups/create\" class=\"card\">{csrf}<h2>Create a group</h2>\
         <label for=\"create-group\">Group name</label><input type=\"text\" id=\"create-group\" name=\"name\"{create_group} required autocomplete=\"off\">\
         <p><button type=\"submit\">Create group</button></p></form>\
         <form method=\"post\" action=\"{base}/admin/groups/delete\" class=\"card\">{csrf}<h2>Delete a group</h2>\
         <p class=\"muted\">Its memberships and rights rules go with it; its members stay.</p>\
         <label for=\"delete-group\">Group name, typed to confirm</label>\
         <input type=\"text\" id=\"delete-group\" name=\"name\" required autocomplete=\"off\">\
         <p><button class=\"danger\" type=\"submit\">Delete group</button></p></form>",
        add_group = typed.value("add-group"),
        user_checked = typed.checked("kind", "user", true),
        group_checked = typed.checked("kind", "group", false),
        add_member = typed.value("add-member"),
        create_group = typed.value("create-group"),
    );
    html::page(status, "Groups", Some(&admin.nav("/admin/groups")), &body)
}

/// The page again with a refused change's `banner`.
async fn refused(state: &AdminState, admin: Admin, banner: String, typed: Typed) -> Response {
    render(state, &admin, StatusCode::OK, &banner, &typed).await
}

/// `GET /admin/groups`.
pub(crate) async fn index(
    State(state): State<Arc<AdminState>>,
    RawQuery(query): RawQuery,
    admin: Admin,
) -> Response {
    if !admin.farm {
        return changes::only_farm_admins(&admin, "/admin/groups");
    }
    let banner = match query.as_deref() {
        Some("created=1") => notice_banner("Created: add its members below."),
        Some("deleted=1") => notice_banner("Deleted, with its memberships and rules."),
        Some("added=1") => {
            notice_banner("Added: the member has the group's rights from its next request.")
        }
        Some("removed=1") => {
            notice_banner("Removed: the group's rights no longer reach the member.")
        }
        _ => String::new(),
    };
    render(&state, &admin, StatusCode::OK, &banner, &Typed::default()).await
}

/// `POST /admin/groups/{create,delete,add,remove}`.
pub(crate) async fn change(
    State(state): State<Arc<AdminState>>,
    Path(op): Path<String>,
    headers: HeaderMap,
    Form(form): Form<Fields>,
) -> Response {
    let name = form.name.trim().to_owned();
    let typed = match op.as_str() {
        "create" => Typed::new(vec![("create-group", name.clone())]),
        "add" => Typed::new(vec![
            ("add-group", form.group.clone()),
            ("kind", form.kind.clone()),
            ("add-member", form.member.clone()),
        ]),
        _ => Typed::default(),
    };
    let (change, done) = match op.as_str() {
        "create" => (Ok(AccountChange::CreateGroup { name }), "created"),
        "delete" => (Ok(AccountChange::DeleteGroup { name }), "deleted"),
        "add" => (
            form.membership()
                .map(|(group, member)| AccountChange::AddMember { group, member }),
            "added",
        ),
        "remove" => (
            form.membership()
                .map(|(group, member)| AccountChange::RemoveMember { group, member }),
            "removed",
        ),
        _ => return changes::no_such_change(),
    };
    let done = format!("/admin/groups?{done}=1");
    changes::submit(
        &state,
        &headers,
        &form.csrf,
        ("/admin/groups", &done),
        move |_| change,
        |admin, banner| refused(&state, admin, banner, typed),
    )
    .await
}
