//! `/readyz` follows the database: 503 while the cluster is stopped, 200 again by itself once
//! it is started, while `/healthz` (liveness) stays 200 throughout.

use std::path::Path;
use std::time::Duration;

use crate::Needs;
use crate::cluster::Cluster;
use crate::served::{Served, init, within};

pub(crate) fn cases() -> Vec<(&'static str, Needs)> {
    vec![(
        "readiness_is_503_while_postgresql_is_stopped_and_200_once_it_is_back",
        Needs::PostgresPrograms(readiness_follows_the_database),
    )]
}

/// Long enough for a replica to notice either way (a probe waits 2 s at most for the store).
const NOTICE: Duration = Duration::from_secs(30);

fn readiness_follows_the_database(bindir: &Path) {
    let cluster = Cluster::start_new(bindir);
    let url = cluster.url();
    let farm = ["--database", url.as_str()];
    init(&farm);
    let served = Served::start(&farm, &[]);
    let ready = |served: &Served| {
        let (status, refusal, body) = served.get("/readyz");
        (status, refusal, body.trim().to_owned())
    };
    assert_eq!(ready(&served), (200, None, "ready".to_owned()));

    cluster.stop();
    let down = within("readiness reports the stopped database", NOTICE, || {
        let answer = ready(&served);
        (answer.0 != 200).then_some(answer)
    });
    assert_eq!(
        (down.0, down.1.as_deref()),
        (503, Some("store-unavailable")),
        "{down:?}"
    );
    assert_eq!(
        served.get("/healthz").0,
        200,
        "liveness does not depend on the database"
    );

    cluster.start();
    within("readiness comes back by itself", NOTICE, || {
        (ready(&served).0 == 200).then_some(())
    });
    assert_eq!(served.get("/healthz").0, 200);
}
