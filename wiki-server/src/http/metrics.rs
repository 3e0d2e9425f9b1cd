//! `GET /metrics`: the server's Prometheus metrics ([`crate::metrics`]), on the main address for
//! a farm administrator's token only, and without a token on a separate metrics address
//! (`serve --metrics-listen`) that the operator keeps private.
//!
//! The metrics name wikis and tools and count what every caller did, which is not the guest's
//! (or any user's) to read: on the main address a request without a token gets
//! [`Refusal::TokenRequired`], a token of a user who is not a farm administrator (the admin
//! right on the main wiki) [`Refusal::FarmAdminRequired`]. A refused token draws from the
//! client address's rate bucket, as on the MCP endpoint.

use std::net::IpAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use http::header::{CACHE_CONTROL, CONTENT_TYPE};
use http::{HeaderMap, HeaderValue, StatusCode};

use super::identity::{Credentials, client_address, credentials};
use super::limits::RateKey;
use super::refusal::Refusal;
use super::router::Shared;
use crate::metrics::Metrics;
use crate::server::RequestId;

/// Where the metrics are served.
pub(crate) const METRICS_PATH: &str = "/metrics";

/// The Prometheus text format's content type.
const TEXT_FORMAT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// `GET /metrics` on the main address.
pub(crate) fn routes() -> Router<Arc<Shared>> {
    Router::new().route(METRICS_PATH, get(guarded))
}

/// `GET /metrics` on the metrics address: no token asked.
pub(crate) fn open_routes(metrics: Arc<Metrics>) -> Router {
    Router::new()
        .route(
            METRICS_PATH,
            get(|State(metrics): State<Arc<Metrics>>| async move { exposition(&metrics) }),
        )
        .with_state(metrics)
}

async fn guarded(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let address = client_address(&request);
    let (parts, _) = request.into_parts();
    let request_id = parts.extensions.get::<RequestId>();
    match farm_administrator(&shared, &parts.headers, address, request_id).await {
        Ok(()) => exposition(shared.manager().metrics()),
        Err(refusal) => refusal.into_response(),
    }
}

/// `Ok` when the request bears a farm administrator's token.
async fn farm_administrator(
    shared: &Shared,
    headers: &HeaderMap,
    address: IpAddr,
    request_id: Option<&RequestId>,
) -> Result<(), Refusal> {
    let token = match credentials(headers) {
        Credentials::Bearer(token) => token,
        Credentials::None => {
            return Err(Refusal::TokenRequired {
                resource_metadata: None,
            });
        }
        Credentials::Unusable => {
            return Err(invalid(shared, address, request_id, &Credentials::Unusable));
        }
    };
    let bearer = shared
        .directory()
        .bearer_of(token.clone())
        .await
        .map_err(|error| store_refusal(&error))?;
    let now = time::OffsetDateTime::now_utc();
    let Some(bearer) = bearer.filter(|bearer| {
        bearer
            .scope
            .as_deref()
            .is_none_or(|scope| !scope.expired_at(now))
    }) else {
        return Err(invalid(
            shared,
            address,
            request_id,
            &Credentials::Bearer(token),
        ));
    };
    // A scoped token is narrower than its user: it never carries the farm administrator's
    // right to read the metrics.
    if !bearer.is_full_at(now) {
        return Err(Refusal::FarmAdminRequired);
    }
    match shared.manager().is_farm_admin(&bearer.user).await {
        Ok(true) => Ok(()),
        Ok(false) => Err(Refusal::FarmAdminRequired),
        Err(error) => Err(store_refusal(&error)),
    }
}

/// The refusal of a token that is no valid one: logged, and taken from the address's bucket.
fn invalid(
    shared: &Shared,
    address: IpAddr,
    request_id: Option<&RequestId>,
    presented: &Credentials,
) -> Refusal {
    shared.refused_token(presented, address, request_id, None);
    shared
        .throttle(RateKey::address(address))
        .unwrap_or(Refusal::InvalidToken {
            resource_metadata: None,
        })
}

fn store_refusal(error: &crate::Error) -> Refusal {
    tracing::error!(%error, source = ?std::error::Error::source(error), "the metrics could not check a token");
    Refusal::of_store(error)
}

fn exposition(metrics: &Metrics) -> Response {
    let mut response = (StatusCode::OK, metrics.render()).into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(TEXT_FORMAT));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
