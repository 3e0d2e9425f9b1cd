//! The wikis page and each wiki's MCP configuration form.
//!
//! The form saves the whole configuration at once through `ConfigStore::set_mcp_config` (the
//! call `wiki-mcp config set` makes), which validates it; a refusal is shown above the form
//! with the store's reason, and nothing is saved. `man` is always served and `list_wikis`
//! follows reach, so neither is a toggle.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use axum::Form;
use axum::extract::{Path, RawQuery, State};
use axum::response::{IntoResponse, Redirect, Response};
use http::{HeaderMap, StatusCode};
use wiki_store::StoreError;
use wiki_store::model::mcp_config::{McpConfig, SpaceFilterMode};
use wiki_store::model::wiki::WikiId;

use super::AdminState;
use super::auth::{Admin, admin_posting, unavailable};
use super::html::{self, csrf_field, escape};
use crate::http::Refusal;
use crate::policy::{LIST_WIKIS, MAN, effective_tools};

/// The longest description accepted from the form (the store bounds it too).
const MAX_FIELD_CHARS: usize = 4000;

/// Entries of a space-filter list accepted from the form.
const MAX_FILTER_ENTRIES: usize = 500;

/// `GET /admin`: the wikis the administrator may configure.
pub(crate) async fn index(State(state): State<Arc<AdminState>>, admin: Admin) -> Response {
    let store = Arc::clone(state.shared.manager().store());
    let wikis = admin.wikis.clone();
    let configs = tokio::task::spawn_blocking(move || {
        wikis
            .into_iter()
            .map(|wiki| {
                let config = store.mcp_config(&wiki);
                (wiki, config)
            })
            .collect::<Vec<_>>()
    })
    .await;
    let Ok(configs) = configs else {
        return unavailable(&state);
    };
    let prefix = escape(&admin.prefix);
    let mut rows = String::new();
    for (wiki, config) in &configs {
        let status = if config.enabled {
            "<span class=\"tag on\">enabled</span>"
        } else {
            "<span class=\"tag\">disabled</span>"
        };
        let guest = if config.guest_access { "yes" } else { "no" };
        let _ = write!(
            rows,
            "<tr><td><a href=\"{prefix}/admin/wikis/{id}\">{id}</a>{status}</td><td>{}</td><td>{guest}</td>\
             <td><code>{}</code></td></tr>",
            escape(config.description.as_deref().unwrap_or("")),
            escape(&state.shared.base_url().endpoint(wiki)),
            id = escape(wiki.as_str()),
        );
    }
    let scope = if admin.farm {
        "You administer the farm: every wiki is listed."
    } else {
        "The wikis you administer."
    };
    let body = format!(
        "<h1>Wikis</h1><p class=\"muted\">{scope}</p><div class=\"card scroll\"><table>\
         <thead><tr><th scope=\"col\">Wiki</th><th scope=\"col\">Description</th>\
         <th scope=\"col\">Guest</th><th scope=\"col\">MCP endpoint</th></tr></thead>\
         <tbody>{rows}</tbody></table></div>"
    );
    html::page(StatusCode::OK, "Wikis", Some(&admin.nav("/admin")), &body)
}

/// The wiki `wiki` names, if `admin` administers it.
fn administered_wiki(admin: &Admin, wiki: &str) -> Option<WikiId> {
    WikiId::new(wiki).ok().filter(|id| admin.administers(id))
}

/// 404 alike for a wiki that does not exist and one the user does not administer.
fn no_such_wiki(admin: &Admin) -> Response {
    html::refusal(
        &admin.prefix,
        Some(&admin.nav("/admin")),
        &Refusal::NoSuchWiki,
    )
}

/// `GET /admin/wikis/{wiki}`: the configuration form.
pub(crate) async fn show(
    State(state): State<Arc<AdminState>>,
    Path(wiki): Path<String>,
    RawQuery(query): RawQuery,
    admin: Admin,
) -> Response {
    let Some(wiki) = administered_wiki(&admin, &wiki) else {
        return no_such_wiki(&admin);
    };
    let saved = query.as_deref() == Some("saved=1");
    let notice = saved.then_some("Saved. Every server applies it on its next request.");
    render(&state, &admin, &wiki, notice, None).await
}

async fn render(
    state: &AdminState,
    admin: &Admin,
    wiki: &WikiId,
    notice: Option<&str>,
    error: Option<&str>,
) -> Response {
    let store = Arc::clone(state.shared.manager().store());
    let id = wiki.clone();
    let loaded = tokio::task::spawn_blocking(move || {
        let config = store.mcp_config(&id);
        let main = store.mcp_config(&WikiId::main());
        let wikis = store
            .list_wikis()
            .map(|wikis| wikis.into_iter().map(|wiki| wiki.id).collect::<Vec<_>>());
        (config, main, wikis, store.has_reach(&id))
    })
    .await;
    let Ok((config, main_config, Ok(all_wikis), reach)) = loaded else {
        return unavailable(state);
    };
    let registry = state.shared.manager().registry();
    let served = effective_tools(registry, wiki, &config, reach);
    let mut categories: BTreeMap<&str, Vec<&mcp_runtime::RegisteredTool>> = BTreeMap::new();
    for tool in registry.tools() {
        categories
            .entry(tool.declaration().category)
            .or_default()
            .push(tool);
    }
    let mut tools = String::new();
    for (category, list) in &categories {
        let _ = write!(tools, "<fieldset><legend>{}</legend>", escape(category));
        for tool in list {
            let declaration = tool.declaration();
            let id = tool.id();
            let write = if declaration.write {
                "<span class=\"tag\">writes</span>"
            } else {
                ""
            };
            let summary = escape(declaration.summary);
            if id == MAN || id == LIST_WIKIS {
                let why = if id == MAN {
                    "always served"
                } else if reach {
                    "served: this wiki has cross-wiki reach"
                } else {
                    "served only with cross-wiki reach"
                };
                let _ = write!(
                    tools,
                    "<div class=\"check\"><code>{id}</code> <span class=\"muted\">{why} · {summary}</span></div>"
                );
                continue;
            }
            let checked = if served.contains(id) { " checked" } else { "" };
            let _ = write!(
                tools,
                "<label class=\"check\"><input type=\"checkbox\" name=\"tool\" value=\"{id}\"{checked}>\
                 <code>{id}</code>{write} <span class=\"muted\">{summary}</span></label>"
            );
        }
        tools.push_str("</fieldset>");
    }
    let checked = |on: bool| if on { " checked" } else { "" };
    let selected = |mode: SpaceFilterMode| {
        if config.space_filter_mode == mode {
            " selected"
        } else {
            ""
        }
    };
    let mut reach_section = String::new();
    if wiki.is_main() {
        let _ = write!(
            reach_section,
            "<fieldset><legend>Cross-wiki reach</legend><p class=\"muted\">Wikis whose agents may \
             read other wikis (and get <code>list_wikis</code>).</p>"
        );
        for other in &all_wikis {
            let on = main_config.grants_reach(other.as_str(), WikiId::main().as_str());
            let _ = write!(
                reach_section,
                "<label class=\"check\"><input type=\"checkbox\" name=\"reach\" value=\"{id}\"{}> {id}</label>",
                checked(on),
                id = escape(other.as_str())
            );
        }
        reach_section.push_str("</fieldset>");
    }
    let notice = notice.map_or_else(String::new, |text| {
        format!(
            "<div class=\"notice\" role=\"status\">{}</div>",
            escape(text)
        )
    });
    let error = error.map_or_else(String::new, |text| {
        format!("<div class=\"error\" role=\"alert\">{}</div>", escape(text))
    });
    let id = escape(wiki.as_str());
    let prefix = escape(&admin.prefix);
    let body = format!(
        "<h1>Wiki <code>{id}</code></h1>{notice}{error}\
         <p class=\"muted\">MCP endpoint: <code>{endpoint}</code></p>\
         <form method=\"post\" action=\"{prefix}/admin/wikis/{id}\" class=\"card\">{csrf}\
         <fieldset><legend>Endpoint</legend>\
         <label class=\"check\"><input type=\"checkbox\" name=\"enabled\" value=\"on\"{enabled}> Enabled (a disabled endpoint answers 404)</label>\
         <label class=\"check\"><input type=\"checkbox\" name=\"guest_access\" value=\"on\"{guest}> Guest access (requests without a token run as the guest, read tools only)</label>\
         <label class=\"check\"><input type=\"checkbox\" name=\"confirm_writes\" value=\"on\"{confirm}> Confirm writes (every write asks the person using the agent's client first)</label>\
         <label class=\"check\"><input type=\"checkbox\" name=\"links\" value=\"on\"{links}> Links in tool output (signed links for clients that show them to people; they cost agents tokens)</label>\
         <label for=\"description\">Description</label>\
         <textarea id=\"description\" name=\"description\" maxlength=\"{MAX_FIELD_CHARS}\">{description}</textarea>\
         </fieldset>\
         <h2>Tools</h2><p class=\"muted\">Checked tools are served to this wiki's agents; the guest never gets a tool marked <em>writes</em>.</p>{tools}\
         {reach_section}\
         <fieldset><legend>Space filter</legend>\
         <label for=\"space_filter_mode\">Mode</label>\
         <select id=\"space_filter_mode\" name=\"space_filter_mode\">\
         <option value=\"none\"{none}>none: every space</option>\
         <option value=\"whitelist\"{white}>whitelist: only the spaces listed</option>\
         <option value=\"blacklist\"{black}>blacklist: every space but those listed</option></select>\
         <label for=\"space_filter_spaces\">Spaces (one per line)</label>\
         <textarea id=\"space_filter_spaces\" name=\"space_filter_spaces\">{spaces}</textarea>\
         <label for=\"space_filter_documents\">Pages (one per line)</label>\
         <textarea id=\"space_filter_documents\" name=\"space_filter_documents\">{documents}</textarea>\
         </fieldset><p><button type=\"submit\">Save configuration</button></p></form>",
        endpoint = escape(&state.shared.base_url().endpoint(wiki)),
        csrf = csrf_field(&admin.session.csrf),
        enabled = checked(config.enabled),
        guest = checked(config.guest_access),
        confirm = checked(config.confirm_writes),
        links = checked(config.links),
        description = escape(config.description.as_deref().unwrap_or("")),
        none = selected(SpaceFilterMode::None),
        white = selected(SpaceFilterMode::Whitelist),
        black = selected(SpaceFilterMode::Blacklist),
        spaces = escape(&config.space_filter_spaces.join("\n")),
        documents = escape(&config.space_filter_documents.join("\n")),
    );
    let status = if error.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    html::page(status, wiki.as_str(), Some(&admin.nav("/admin")), &body)
}

/// What the form posts: repeated `tool` and `reach` fields, so read as pairs.
type Fields = Vec<(String, String)>;

fn lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The configuration the form describes, over the stored one (fields the form does not show
/// are kept), or what is wrong with it.
fn apply(
    mut config: McpConfig,
    fields: &Fields,
    wiki: &WikiId,
    registry: &mcp_runtime::Registry,
) -> Result<McpConfig, String> {
    let get = |name: &str| {
        fields
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    };
    config.enabled = get("enabled").is_some();
    config.guest_access = get("guest_access").is_some();
    config.confirm_writes = get("confirm_writes").is_some();
    config.links = get("links").is_some();
    let description = get("description").unwrap_or("").trim();
    if description.chars().count() > MAX_FIELD_CHARS {
        return Err(format!(
            "The description is longer than {MAX_FIELD_CHARS} characters: shorten it."
        ));
    }
    config.description = (!description.is_empty()).then(|| description.to_owned());
    let mut tools: Vec<String> = fields
        .iter()
        .filter(|(key, _)| key == "tool")
        .map(|(_, id)| id.trim().to_owned())
        .filter(|id| id != MAN && id != LIST_WIKIS)
        .collect();
    tools.sort();
    tools.dedup();
    if let Some(unknown) = tools.iter().find(|id| registry.get(id).is_none()) {
        return Err(format!(
            "`{unknown}` is not a tool of this server: reload the page and choose from the list."
        ));
    }
    // An empty stored list means the default (every read tool): unchecking everything must
    // not turn every read tool back on, so keep `man` as the explicit list then.
    config.enabled_tools = if tools.is_empty() {
        vec![MAN.to_owned()]
    } else {
        tools
    };
    config.space_filter_mode = get("space_filter_mode")
        .unwrap_or("none")
        .parse()
        .map_err(|_| "The space filter mode must be none, whitelist or blacklist.".to_owned())?;
    config.space_filter_spaces = lines(get("space_filter_spaces").unwrap_or(""));
    config.space_filter_documents = lines(get("space_filter_documents").unwrap_or(""));
    if config.space_filter_spaces.len() + config.space_filter_documents.len() > MAX_FILTER_ENTRIES {
        return Err(format!(
            "The space filter lists more than {MAX_FILTER_ENTRIES} entries: use fewer, broader spaces."
        ));
    }
    if wiki.is_main() {
        let mut reach: Vec<String> = fields
            .iter()
            .filter(|(key, _)| key == "reach")
            .map(|(_, id)| id.trim().to_owned())
            .collect();
        reach.sort();
        reach.dedup();
        config.reach_enabled_wikis = reach;
        config.reach_initialized = true;
    }
    Ok(config)
}

/// `POST /admin/wikis/{wiki}`: saves the configuration.
pub(crate) async fn save(
    State(state): State<Arc<AdminState>>,
    Path(wiki): Path<String>,
    headers: HeaderMap,
    Form(fields): Form<Fields>,
) -> Response {
    let csrf = fields
        .iter()
        .find(|(key, _)| key == "csrf")
        .map(|(_, value)| value.as_str());
    let admin = match admin_posting(&state, &headers, csrf).await {
        Ok(admin) => admin,
        Err(response) => return response,
    };
    let Some(wiki) = administered_wiki(&admin, &wiki) else {
        return no_such_wiki(&admin);
    };
    let store = Arc::clone(state.shared.manager().store());
    let registry = state.shared.manager().registry();
    let author = admin.session.user.clone();
    let id = wiki.clone();
    let saved = tokio::task::spawn_blocking(move || {
        let config = apply(store.mcp_config(&id), &fields, &id, registry)?;
        match store.set_mcp_config(&id, &config, &author) {
            Ok(_) => Ok(()),
            Err(StoreError::Invalid(invalid)) => Err(format!("Not saved: {invalid}.")),
            Err(error) => {
                tracing::error!(wiki = %id, %error, "the admin page could not save a configuration");
                Err("Not saved: the wiki store failed; the server log says why. Try again.".to_owned())
            }
        }
    })
    .await;
    match saved {
        Ok(Ok(())) => {
            tracing::info!(wiki = %wiki, user = %admin.session.user, "MCP configuration saved from the admin page");
            Redirect::to(&state.at(&format!("/admin/wikis/{}?saved=1", wiki.as_str())))
                .into_response()
        }
        Ok(Err(message)) => render(&state, &admin, &wiki, None, Some(&message)).await,
        Err(_) => unavailable(&state),
    }
}
