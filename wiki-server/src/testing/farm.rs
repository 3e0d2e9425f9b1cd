//! The throw-away farm and its callers.

use std::fmt::Display;
use std::path::Path;
use std::sync::Arc;

use mcp_runtime::call::ToolCall;
use mcp_runtime::elicit::{Answer, Elicitation};
use rmcp::ErrorData;
use rmcp::model::ListToolsResult;
use serde_json::Value;
use wiki_store::Store;
use wiki_store::model::document::DocumentSave;
use wiki_store::model::mcp_config::McpConfig;
use wiki_store::model::user::GUEST_USER;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::rights::{Effect, Right, RightRule, RightScope, Subject};

use super::person::Person;
use super::{Backend, Called, TestDatabase, setup};
use crate::policy::effective_tools;
use crate::{Caller, Manager, ServerSettings};

/// A farm on a throw-away database (a SQLite file in a temporary directory, or a fresh
/// PostgreSQL database: see [`Backend`]), served by a real [`Manager`] over the tools linked
/// into the test binary, and deleted on drop.
///
/// The store is shared with the manager, so what a test writes through [`TestFarm::store`]
/// (or the helpers here) is what the next call sees, as an admin command's change would be.
pub struct TestFarm {
    manager: Arc<Manager>,
    store: Arc<dyn Store>,
    // Last: the database goes after the store and the manager.
    database: TestDatabase,
}

impl std::fmt::Debug for TestFarm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestFarm")
            .field("database", &self.database)
            .finish_non_exhaustive()
    }
}

impl TestFarm {
    /// A farm with the main wiki alone: no users, no rights (so even the guest sees nothing
    /// until a test allows it), no content.
    pub fn empty() -> Self {
        Self::seeded(|_| Ok::<(), std::convert::Infallible>(()))
    }

    /// A farm `seed` fills before it is served; the stock binary's first-run farm (users `admin`
    /// and `alice`, wikis `main` and `dev`, the demo pages) is
    /// `TestFarm::seeded(|store| wiki_mcp_cli::farm::seed(store, Content::Demo))`.
    pub fn seeded<E: Display>(seed: impl FnOnce(&dyn Store) -> Result<(), E>) -> Self {
        Self::with_settings(ServerSettings::default(), seed)
    }

    /// [`TestFarm::seeded`] served with `settings` (e.g. a public URL, so tools print links).
    pub fn with_settings<E: Display>(
        settings: ServerSettings,
        seed: impl FnOnce(&dyn Store) -> Result<(), E>,
    ) -> Self {
        Self::on(&Backend::current(), settings, seed)
    }

    /// [`TestFarm::with_settings`] on `backend`, whatever the trial's [`Backend::current`] is
    /// (the constructors above use that one, so that a `#[backend_test]` runs on each backend).
    pub fn on<E: Display>(
        backend: &Backend,
        settings: ServerSettings,
        seed: impl FnOnce(&dyn Store) -> Result<(), E>,
    ) -> Self {
        let database = TestDatabase::on(backend);
        let store = database.open();
        setup("seed the farm", seed(store.as_ref()));
        let manager = Arc::new(setup(
            "start the server (the registry refused the linked tools?)",
            Manager::new(Arc::clone(&store), settings),
        ));
        Self {
            manager,
            store,
            database,
        }
    }

    /// The farm's store, to seed more or to check what a tool wrote.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// The farm's database: its backend, and [`TestDatabase::open`] for a second store on it
    /// (another process's view).
    pub fn database(&self) -> &TestDatabase {
        &self.database
    }

    /// The manager serving the farm.
    pub fn manager(&self) -> &Arc<Manager> {
        &self.manager
    }

    /// The farm's temporary directory: the SQLite data directory (its `wiki.db` is there), an
    /// empty scratch directory on PostgreSQL.
    pub fn path(&self) -> &Path {
        self.database.dir()
    }

    /// Creates the user `name`.
    #[track_caller]
    pub fn add_user(&self, name: &str) -> &Self {
        setup(
            &format!("create the user `{name}`"),
            self.store.create_user(name, None),
        );
        self
    }

    /// Creates the wiki `id`.
    #[track_caller]
    pub fn add_wiki(&self, id: &str) -> &Self {
        setup(
            &format!("create the wiki `{id}`"),
            self.store.create_wiki(&wiki(id), id),
        );
        self
    }

    /// Allows `right` to `subject` on `scope`.
    #[track_caller]
    pub fn allow(&self, subject: Subject, right: Right, scope: RightScope) -> &Self {
        let rule = RightRule {
            scope,
            subject,
            right,
            effect: Effect::Allow,
        };
        setup(
            &format!("set the right {rule:?}"),
            self.store.set_right(&rule),
        );
        self
    }

    /// Allows each of `rights` to `user` ([`GUEST_USER`] for the guest) on the whole wiki.
    #[track_caller]
    pub fn allow_on_wiki(&self, user: &str, wiki_id: &str, rights: &[Right]) -> &Self {
        for right in rights {
            self.allow(
                Subject::User(user.to_owned()),
                *right,
                RightScope::Wiki(wiki(wiki_id)),
            );
        }
        self
    }

    /// Saves `content` on the document `reference` (`wiki:Space.Page`, or in `main`) as
    /// `admin`, creating it or adding a version; returns the version saved.
    #[track_caller]
    pub fn save(&self, reference: &str, content: &str) -> String {
        let save = DocumentSave::new(document(reference), content, "admin").comment("test");
        setup(
            &format!("save {reference}"),
            self.store.save_document(&save),
        )
        .version()
        .to_string()
    }

    /// Changes `wiki`'s MCP configuration (tools, guest access, space filter, ...).
    #[track_caller]
    pub fn configure(&self, wiki_id: &str, change: impl FnOnce(&mut McpConfig)) -> &Self {
        let id = wiki(wiki_id);
        let mut config = self.store.mcp_config(&id);
        change(&mut config);
        setup(
            &format!("save the configuration of `{wiki_id}`"),
            self.store.set_mcp_config(&id, &config, "admin"),
        );
        self
    }

    /// Adds `tools` (ids of linked tools, e.g. write tools, which are off by default) to the
    /// tools `wiki` serves now.
    #[track_caller]
    pub fn enable_tools(&self, wiki_id: &str, tools: &[&str]) -> &Self {
        let id = wiki(wiki_id);
        let reach = self.store.has_reach(&id);
        let registry = self.manager.registry();
        self.configure(wiki_id, |config| {
            let mut ids = effective_tools(registry, &id, config, reach);
            for tool in tools {
                let known = registry
                    .get(tool)
                    .unwrap_or_else(|| panic!("test farm: `{tool}` is not linked"));
                ids.insert(known.id());
            }
            config.enabled_tools = ids.into_iter().map(str::to_owned).collect();
        })
    }

    /// Grants cross-wiki reach to exactly `wikis` (main's configuration decides reach).
    #[track_caller]
    pub fn grant_reach(&self, wikis: &[&str]) -> &Self {
        self.configure("main", |config| {
            config.reach_initialized = true;
            config.reach_enabled_wikis = wikis.iter().map(|w| (*w).to_owned()).collect();
        })
    }

    /// `user` calling on the main wiki.
    pub fn user(&self, user: &str) -> As<'_> {
        As {
            farm: self,
            caller: Caller::user(WikiId::main(), user),
            meta: serde_json::Map::new(),
            answer: None,
        }
    }

    /// The guest (no credentials) calling on the main wiki.
    pub fn guest(&self) -> As<'_> {
        As {
            farm: self,
            caller: Caller::guest(WikiId::main()),
            meta: serde_json::Map::new(),
            answer: None,
        }
    }

    /// `user` ([`GUEST_USER`] for the guest) calling on the main wiki.
    pub fn caller(&self, user: &str) -> As<'_> {
        if user == GUEST_USER {
            self.guest()
        } else {
            self.user(user)
        }
    }
}

/// A caller of a [`TestFarm`]: a user or the guest, on one wiki's endpoint.
#[derive(Debug, Clone)]
pub struct As<'f> {
    farm: &'f TestFarm,
    caller: Caller,
    /// The `_meta` its calls carry.
    meta: serde_json::Map<String, Value>,
    /// How its person answers a confirmation; `None`: its client cannot ask.
    answer: Option<Answer>,
}

impl As<'_> {
    /// The same caller on `wiki`'s endpoint.
    pub fn on(&self, wiki_id: &str) -> Self {
        let wiki = wiki(wiki_id);
        let caller = match self.caller.user_name() {
            Some(user) => Caller::user(wiki, user),
            None => Caller::guest(wiki),
        };
        Self {
            farm: self.farm,
            caller,
            meta: self.meta.clone(),
            answer: self.answer,
        }
    }

    /// The same caller, its calls asking for signed links (`_meta` key
    /// [`crate::LINKS_META_KEY`]), as a client that shows links to a person does.
    pub fn with_links(&self) -> Self {
        let mut meta = self.meta.clone();
        meta.insert(crate::LINKS_META_KEY.to_owned(), Value::Bool(true));
        Self {
            farm: self.farm,
            caller: self.caller.clone(),
            meta,
            answer: self.answer,
        }
    }

    /// The same caller, its client able to ask its person (form elicitation), who answers
    /// every confirmation question with `answer`: [`Answer::Accepted`] lets the write run,
    /// [`Answer::Declined`] or [`Answer::Cancelled`] stops it. [`Called::questions`] holds what
    /// the person was asked. Without this, a caller's client cannot ask: a tool declared
    /// `confirm`, and every write on a wiki with `confirm_writes`, is refused.
    pub fn answering(&self, answer: Answer) -> Self {
        Self {
            farm: self.farm,
            caller: self.caller.clone(),
            meta: self.meta.clone(),
            answer: Some(answer),
        }
    }

    /// The caller as the server sees it.
    pub fn caller(&self) -> &Caller {
        &self.caller
    }

    /// Calls `tool` with `arguments` (a JSON object), as a transport does: on a task of its
    /// own, the endpoint of the caller's wiki, then [`Manager::call`].
    pub async fn call(&self, tool: &str, arguments: Value) -> Called {
        let Value::Object(arguments) = arguments else {
            panic!("test farm: the arguments of `{tool}` must be a JSON object, got {arguments}");
        };
        let manager = Arc::clone(&self.farm.manager);
        let caller = self.caller.clone();
        let mut call = ToolCall::new(tool, arguments).with_meta(self.meta.clone());
        let person = self
            .answer
            .map(|answer| Arc::new(Person::answering(answer)));
        if let Some(person) = &person {
            call = call.with_elicitation(Elicitation::Relayed(Arc::clone(person) as _));
        }
        let outcome = on_task(async move {
            let server = manager.endpoint(caller.wiki()).await?;
            manager.call(&server, &caller, call).await
        })
        .await;
        let questions = person.map(|person| person.asked()).unwrap_or_default();
        Called::new(tool, outcome).with_questions(questions)
    }

    /// The `tools/list` answer this caller gets, exactly as the rmcp handler builds it.
    pub async fn tools_list(&self) -> Result<ListToolsResult, ErrorData> {
        let manager = Arc::clone(&self.farm.manager);
        let caller = self.caller.clone();
        on_task(async move {
            let server = manager.endpoint(caller.wiki()).await?;
            Ok(server.list_for(&caller))
        })
        .await
    }
}

/// Runs `work` on a runtime task, as the transports run a request, re-raising its panic: the
/// server's code then runs where it does in production (a PostgreSQL test's own thread is
/// outside the runtime, see `suite.rs`).
async fn on_task<T: Send + 'static>(work: impl Future<Output = T> + Send + 'static) -> T {
    match tokio::spawn(work).await {
        Ok(output) => output,
        Err(failure) => match failure.try_into_panic() {
            Ok(payload) => std::panic::resume_unwind(payload),
            Err(cancelled) => panic!("test farm: the call's task was cancelled: {cancelled}"),
        },
    }
}

#[track_caller]
fn wiki(id: &str) -> WikiId {
    setup(&format!("read the wiki id `{id}`"), WikiId::new(id))
}

#[track_caller]
fn document(text: &str) -> DocumentReference {
    setup(
        &format!("read the reference `{text}`"),
        DocumentReference::parse(text, &WikiId::main()),
    )
}
