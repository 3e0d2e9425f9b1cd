//! The OTLP exporter of the calls' spans (`serve` and `stdio`): off unless the standard
//! OpenTelemetry variables ask for it.
//!
//! `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) turns it on; the
//! exporter reads that and the other standard variables itself (`_HEADERS`, `_TIMEOUT`, their
//! `_TRACES_` forms), the SDK reads `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`,
//! `OTEL_TRACES_SAMPLER` and the batch processor's `OTEL_BSP_*`. `OTEL_SDK_DISABLED=true` or
//! `OTEL_TRACES_EXPORTER=none` keeps it off. This build speaks OTLP over HTTP/protobuf to an
//! `http://` or `https://` endpoint, the latter verified as [`transport`] says: a protocol or
//! scheme it cannot speak is refused at start, naming what to set, rather than dropping every
//! span later.
//!
//! The server makes the spans (`wiki-server`'s audit); this only installs where they go.

mod transport;

use std::time::Duration;

use anyhow::{Result, bail};
use opentelemetry::KeyValue;
use opentelemetry_otlp::WithHttpConfig as _;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::SdkTracerProvider;

/// How long the exporter may take to send what waits when the process ends.
const FLUSH_LIMIT: Duration = Duration::from_secs(5);

/// The service name spans carry unless `OTEL_SERVICE_NAME` or `OTEL_RESOURCE_ATTRIBUTES` names one.
const SERVICE_NAME: &str = "wiki-mcp";

/// The installed exporter; dropping it sends the spans that wait (for at most [`FLUSH_LIMIT`]).
#[must_use = "dropping the export stops it"]
pub(crate) struct TraceExport {
    provider: SdkTracerProvider,
}

impl Drop for TraceExport {
    fn drop(&mut self) {
        if let Err(error) = self.provider.shutdown_with_timeout(FLUSH_LIMIT) {
            tracing::warn!(%error, "the trace exporter did not send every span before exit");
        }
    }
}

/// The value of the first of `names` that is set and not blank.
fn variable(names: &[&str]) -> Option<(String, String)> {
    names.iter().find_map(|name| {
        std::env::var(name)
            .ok()
            .map(|value| value.trim().to_owned())
            .filter(|value| !value.is_empty())
            .map(|value| ((*name).to_owned(), value))
    })
}

/// Starts exporting the spans of calls when the environment asks for it (module doc).
pub(crate) fn start() -> Result<Option<TraceExport>> {
    if variable(&["OTEL_SDK_DISABLED"]).is_some_and(|(_, value)| value.eq_ignore_ascii_case("true"))
    {
        return Ok(None);
    }
    match variable(&["OTEL_TRACES_EXPORTER"]) {
        Some((_, value)) if value.eq_ignore_ascii_case("none") => return Ok(None),
        Some((name, value)) if !value.eq_ignore_ascii_case("otlp") => {
            bail!("{name}={value} is not supported: set it to otlp (or none to export no traces)")
        }
        _ => {}
    }
    let Some((endpoint_name, endpoint)) = variable(&[
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
        "OTEL_EXPORTER_OTLP_ENDPOINT",
    ]) else {
        return Ok(None);
    };
    if let Some((name, protocol)) = variable(&[
        "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
        "OTEL_EXPORTER_OTLP_PROTOCOL",
    ]) && protocol != "http/protobuf"
    {
        bail!(
            "{name}={protocol} is not supported: this server exports traces over http/protobuf; \
             set {name}=http/protobuf and point {endpoint_name} at the collector's OTLP/HTTP \
             port (4318 by default)"
        );
    }
    if !endpoint.starts_with("http://") && !endpoint.starts_with("https://") {
        bail!(
            "{endpoint_name} must be an http:// or https:// URL of the collector's OTLP/HTTP \
             port, e.g. http://127.0.0.1:4318"
        );
    }
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_http_client(transport::Transport::from_environment()?)
        .build()
        .map_err(|error| anyhow::anyhow!("cannot start the OTLP trace exporter: {error}"))?;
    let provider = SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_resource(resource())
        .build();
    opentelemetry::global::set_tracer_provider(provider.clone());
    tracing::info!(
        variable = endpoint_name,
        "exporting the spans of tool calls over OTLP/HTTP"
    );
    Ok(Some(TraceExport { provider }))
}

/// The SDK's resource from the environment, named [`SERVICE_NAME`] when the environment names
/// no service.
fn resource() -> Resource {
    let detected = Resource::builder().build();
    let named = detected
        .get(&opentelemetry::Key::new("service.name"))
        .is_some_and(|name| !name.as_str().starts_with("unknown_service"));
    if named {
        detected
    } else {
        Resource::builder()
            .with_attribute(KeyValue::new("service.name", SERVICE_NAME))
            .build()
    }
}
