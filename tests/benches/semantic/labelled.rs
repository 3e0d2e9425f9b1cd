//! The labelled set: pages of a team wiki, each with a question an agent would ask about it.
//!
//! `shares_words` says whether the question has a content word of its page (after the full-text
//! search's folding): `false` for paraphrases a keyword search cannot match ("how do I install"
//! against a page that says "set up"), `true` for questions a keyword search can answer.

/// One labelled page and its question.
pub(crate) struct Labelled {
    pub(crate) name: &'static str,
    pub(crate) title: &'static str,
    pub(crate) body: &'static str,
    pub(crate) query: &'static str,
    pub(crate) shares_words: bool,
}

const fn page(
    name: &'static str,
    title: &'static str,
    body: &'static str,
    query: &'static str,
    shares_words: bool,
) -> Labelled {
    Labelled {
        name,
        title,
        body,
        query,
        shares_words,
    }
}

pub(crate) const LABELLED: &[Labelled] = &[
    page(
        "Ops.Setup",
        "Getting the server running",
        "To set up the server, unpack the archive on a Linux machine and start the wizard; it asks for a port and a data folder.",
        "how do I install it",
        false,
    ),
    page(
        "Ops.Backups",
        "Nightly copies",
        "Every night a job copies the data folder to the storage bucket; restoring means copying it back while the service is stopped.",
        "how are backups made",
        false,
    ),
    page(
        "Ops.Upgrade",
        "Moving to a new release",
        "Stop the service, replace the binary with the newer one and start it again; the schema migrates itself on start.",
        "upgrade procedure",
        false,
    ),
    page(
        "Ops.Certificates",
        "TLS certificates",
        "Certificates are renewed automatically thirty days before they expire; the renewal log is in the proxy folder.",
        "when do the https certs get refreshed",
        false,
    ),
    page(
        "Ops.Monitoring",
        "Dashboards and alerts",
        "CPU, memory and request latency are graphed on the operations dashboard; a pager alert fires when latency stays above one second.",
        "who gets woken up when the site is slow",
        false,
    ),
    page(
        "Ops.Logs",
        "Where the logs go",
        "Application logs are shipped to the central collector and kept for ninety days.",
        "log retention period",
        true,
    ),
    page(
        "Ops.Outage",
        "When the site is down",
        "Open an incident channel, name an incident lead and post updates every thirty minutes until the service recovers.",
        "what to do during an outage",
        false,
    ),
    page(
        "Ops.Firewall",
        "Network rules",
        "Only ports 443 and 22 are open to the internet; everything else is blocked at the edge.",
        "which ports are reachable from outside",
        true,
    ),
    page(
        "Ops.Database",
        "Database maintenance",
        "The database is vacuumed every Sunday night and its indexes are rebuilt once a month.",
        "database maintenance schedule",
        true,
    ),
    page(
        "Ops.Scaling",
        "Adding capacity",
        "When traffic grows, add another replica behind the load balancer; replicas share one database.",
        "how do we handle more users",
        false,
    ),
    page(
        "HR.Vacation",
        "Time off",
        "Every employee has twenty-five days of paid leave a year; ask your manager two weeks ahead.",
        "how many holidays do I get",
        false,
    ),
    page(
        "HR.Sick",
        "Being ill",
        "If you are ill, tell your manager before ten in the morning; from the third day a doctor's note is needed.",
        "what if I catch the flu",
        false,
    ),
    page(
        "HR.Expenses",
        "Getting money back",
        "Submit receipts in the expense tool within a month; refunds arrive with the next salary.",
        "reimbursement of travel costs",
        false,
    ),
    page(
        "HR.Onboarding",
        "Your first week",
        "New colleagues get a laptop, a buddy and a calendar of introductions on their first day.",
        "what happens when someone joins",
        false,
    ),
    page(
        "HR.Remote",
        "Working from home",
        "Staff may work from home three days a week; the office is open for the other two.",
        "remote work policy",
        true,
    ),
    page(
        "HR.Parental",
        "Parental leave",
        "Parents get sixteen weeks of leave after a birth or adoption, paid in full.",
        "baby leave",
        true,
    ),
    page(
        "HR.Training",
        "Learning budget",
        "Each person has a yearly budget of one thousand euros for courses, books and conferences.",
        "can the company pay for a course",
        true,
    ),
    page(
        "HR.Review",
        "Yearly conversations",
        "Once a year you and your manager talk about goals, growth and salary.",
        "performance review process",
        false,
    ),
    page(
        "HR.Leaving",
        "Leaving the company",
        "Give notice in writing; return your laptop and badge on the last day.",
        "how do I resign",
        false,
    ),
    page(
        "HR.Badge",
        "Office access",
        "Badges open the front door from seven to nine; a lost badge is replaced at the reception.",
        "I lost my access card",
        true,
    ),
    page(
        "Dev.Review",
        "Code review rules",
        "Every change needs one approval; the author merges once the checks are green.",
        "who merges a pull request",
        true,
    ),
    page(
        "Dev.Branches",
        "Branching model",
        "Work happens on short-lived branches off main; release branches are cut every two weeks.",
        "git branching strategy",
        true,
    ),
    page(
        "Dev.Tests",
        "Running the tests",
        "Run the whole suite with one command before you push; the nightly build runs the slow tests.",
        "how do I run the test suite",
        true,
    ),
    page(
        "Dev.Style",
        "Formatting",
        "The formatter runs in the editor and in continuous integration; unformatted code fails the build.",
        "code formatting rules",
        true,
    ),
    page(
        "Dev.Secrets",
        "Keeping keys safe",
        "Never commit passwords or tokens; put them in the vault and read them at start-up.",
        "where to store credentials",
        false,
    ),
    page(
        "Dev.Release",
        "Shipping a version",
        "Tag the commit, let the pipeline build the packages and announce it in the changelog.",
        "how to publish a new version",
        true,
    ),
    page(
        "Dev.Debugging",
        "Finding bugs in production",
        "Turn on debug logs for one request with the trace header; never for the whole service.",
        "investigate an error on the live system",
        false,
    ),
    page(
        "Dev.Dependencies",
        "Third-party libraries",
        "A new library needs a licence check and a short note on why it is needed.",
        "adding a package",
        false,
    ),
    page(
        "Dev.Api",
        "API versioning",
        "Breaking changes get a new version prefix in the path; old versions live for a year.",
        "api versioning policy",
        true,
    ),
    page(
        "Dev.Performance",
        "Making it fast",
        "Measure with the benchmark before and after a change; keep the p99 latency under two hundred milliseconds.",
        "speed targets",
        false,
    ),
    page(
        "Office.Lunch",
        "Canteen",
        "The canteen serves soup and a hot dish from noon to two; Fridays are pizza day.",
        "where can I eat at midday",
        false,
    ),
    page(
        "Office.Parking",
        "Parking",
        "Cars park in the underground garage with the badge; bicycles go in the courtyard racks.",
        "where do I leave my bike",
        false,
    ),
    page(
        "Office.Printer",
        "Printing",
        "The printer on the second floor prints double-sided by default; toner is in the supply cupboard.",
        "the printer ran out of ink",
        true,
    ),
    page(
        "Office.Wifi",
        "Wireless network",
        "The guest network password changes every Monday and is shown on the screens at the entrance.",
        "internet access for visitors",
        false,
    ),
    page(
        "Office.Meeting",
        "Booking rooms",
        "Book meeting rooms in the shared calendar; a room unused for fifteen minutes is freed.",
        "reserve a conference room",
        true,
    ),
    page(
        "Office.Fire",
        "Fire safety",
        "When the alarm rings leave by the stairs and gather in the car park across the street.",
        "emergency evacuation",
        false,
    ),
    page(
        "Office.Mail",
        "Post and parcels",
        "Parcels are collected at the reception; outgoing post leaves at four.",
        "where are deliveries picked up",
        false,
    ),
    page(
        "Office.Cleaning",
        "Keeping desks tidy",
        "Cleaners come every evening; clear your desk on Fridays.",
        "desk cleaning schedule",
        true,
    ),
    page(
        "Sales.Pricing",
        "Price list",
        "The standard plan costs twenty euros per user per month; volume discounts start at fifty users.",
        "how much does it cost",
        true,
    ),
    page(
        "Sales.Trial",
        "Free trial",
        "Prospects can try the product for thirty days without a credit card.",
        "can customers test it before buying",
        false,
    ),
    page(
        "Sales.Contracts",
        "Signing deals",
        "Contracts above ten thousand euros need the legal team's approval.",
        "who approves large contracts",
        true,
    ),
    page(
        "Sales.Refunds",
        "Money back",
        "A customer who cancels within fourteen days gets a full refund.",
        "refund policy",
        true,
    ),
    page(
        "Support.Hours",
        "When support answers",
        "Support answers on weekdays from eight to eight; urgent tickets are handled around the clock.",
        "support opening hours",
        true,
    ),
    page(
        "Support.Escalation",
        "Passing a ticket on",
        "If a ticket is not solved within a day, move it to the second-level team.",
        "escalating a customer problem",
        false,
    ),
    page(
        "Support.Password",
        "Forgotten passwords",
        "Users reset a forgotten password from the sign-in page; the link is valid for an hour.",
        "I cannot log in anymore",
        false,
    ),
    page(
        "Support.Export",
        "Taking data out",
        "Customers export all their data as a zip archive from the account page.",
        "download everything from my account",
        true,
    ),
    page(
        "Support.Deletion",
        "Closing an account",
        "Closing an account deletes its data after thirty days.",
        "how do I remove my account",
        true,
    ),
    page(
        "Support.Languages",
        "Languages",
        "The interface is available in English, French and German.",
        "which languages does the interface support",
        true,
    ),
];

/// Filler pages: plausible, distinct, and about none of the labelled questions.
pub(crate) fn filler(count: usize) -> Vec<(String, String, String)> {
    const TEAMS: [&str; 8] = [
        "Atlas", "Borealis", "Cobalt", "Delta", "Ember", "Fjord", "Granite", "Harbor",
    ];
    const SUBJECTS: [&str; 10] = [
        "quarterly roadmap",
        "design notes",
        "meeting minutes",
        "retrospective",
        "budget sheet",
        "hiring plan",
        "architecture sketch",
        "customer interview",
        "risk register",
        "glossary",
    ];
    const DETAILS: [&str; 10] = [
        "The team agreed to revisit the estimates after the next milestone.",
        "Open questions are tracked in the issue list with the label triage.",
        "The prototype was shown to three customers, who asked for a darker theme.",
        "Costs rose by four percent because of the new cloud region.",
        "Two positions are open: a designer and a data analyst.",
        "The service splits into an ingestion part and a query part.",
        "Interviewees mostly used the product on tablets while travelling.",
        "The main risk is a supplier that may stop selling the sensor.",
        "A widget is a small reusable block of the dashboard.",
        "Action items were assigned and are due by the end of the month.",
    ];
    (0..count)
        .map(|i| {
            let team = TEAMS[i % TEAMS.len()];
            let subject = SUBJECTS[(i / TEAMS.len()) % SUBJECTS.len()];
            let round = i / (TEAMS.len() * SUBJECTS.len());
            let name = format!("Projects.{team}.{}{round}", subject.replace(' ', "_"));
            let title = format!("{team} {subject} {round}");
            let body = format!(
                "# {title}\n\n{}\n\n{}\n\n## Notes\n\nRound {round} of the {team} team's {subject}. {}\n",
                DETAILS[i % DETAILS.len()],
                DETAILS[(i / 3 + 1) % DETAILS.len()],
                DETAILS[(i / 7 + 4) % DETAILS.len()],
            );
            (name, title, body)
        })
        .collect()
}
