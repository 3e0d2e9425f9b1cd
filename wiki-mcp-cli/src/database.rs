//! Where a farm lives: a SQLite data directory (the default, one process at a time serving it),
//! or a PostgreSQL database that several `wiki-mcp serve` replicas share.
//!
//! A PostgreSQL URL carries a password: [`DatabaseUrl`] keeps it out of every `Debug`,
//! `Display` and error, so it cannot reach a log line or a terminal by accident.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// Where the farm is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Database {
    /// A SQLite farm in this data directory (`sqlite:DIR`, or `--data DIR`).
    Sqlite(PathBuf),
    /// A PostgreSQL database (`postgres://user:password@host:port/database`).
    Postgres(DatabaseUrl),
}

/// A PostgreSQL connection URL. Shown (by `Debug` and `Display`) with its password replaced by
/// `***`; only [`DatabaseUrl::expose`] gives the URL itself, to connect with.
#[derive(Clone, PartialEq, Eq)]
pub struct DatabaseUrl(String);

impl DatabaseUrl {
    /// The URL as given, password included: for the driver only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&redact(&self.0))
    }
}

impl fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DatabaseUrl({self})")
    }
}

impl fmt::Display for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::Sqlite(dir) => write!(f, "sqlite:{}", dir.display()),
            Database::Postgres(url) => url.fmt(f),
        }
    }
}

/// Why a `--database` value was refused. Never repeats the value (it may hold a password).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{reason}: --database takes postgres://USER:PASSWORD@HOST:PORT/DATABASE or sqlite:DIR \
     (or leave it out and use --data DIR)"
)]
pub struct DatabaseError {
    reason: &'static str,
}

impl FromStr for Database {
    type Err = DatabaseError;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        let value = value.trim();
        if let Some(dir) = value.strip_prefix("sqlite:") {
            let dir = dir.strip_prefix("//").unwrap_or(dir);
            if dir.is_empty() {
                return Err(DatabaseError {
                    reason: "sqlite: names no directory",
                });
            }
            return Ok(Database::Sqlite(PathBuf::from(dir)));
        }
        let scheme = value.split_once("://").map(|(scheme, _)| scheme);
        match scheme {
            Some(scheme)
                if scheme.eq_ignore_ascii_case("postgres")
                    || scheme.eq_ignore_ascii_case("postgresql") =>
            {
                Ok(Database::Postgres(DatabaseUrl(value.to_owned())))
            }
            Some(_) => Err(DatabaseError {
                reason: "unsupported database scheme",
            }),
            None => Err(DatabaseError {
                reason: "not a database URL",
            }),
        }
    }
}

/// `url` with the password of its user info and any `password=` query parameter replaced by
/// `***`.
fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return "***".to_owned();
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let authority = match authority.rsplit_once('@') {
        Some((user_info, host)) => match user_info.split_once(':') {
            Some((user, _password)) => format!("{user}:***@{host}"),
            None => format!("{user_info}@{host}"),
        },
        None => authority.to_owned(),
    };
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let query: Vec<String> = query
                .split('&')
                .map(|pair| match pair.split_once('=') {
                    Some((key, _)) if key.eq_ignore_ascii_case("password") => {
                        format!("{key}=***")
                    }
                    _ => pair.to_owned(),
                })
                .collect();
            format!("{path}?{}", query.join("&"))
        }
        None => tail.to_owned(),
    };
    format!("{scheme}://{authority}{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(value: &str) -> Result<Database, DatabaseError> {
        value.parse()
    }

    #[test]
    fn postgres_and_sqlite_urls_are_told_apart() {
        assert_eq!(
            parse("sqlite:/var/lib/wiki"),
            Ok(Database::Sqlite(PathBuf::from("/var/lib/wiki")))
        );
        assert_eq!(
            parse("sqlite://data"),
            Ok(Database::Sqlite(PathBuf::from("data")))
        );
        for url in ["postgres://wiki@db/farm", "postgresql://wiki@db:5433/farm"] {
            assert!(matches!(parse(url), Ok(Database::Postgres(_))), "{url}");
        }
        for refused in ["sqlite:", "mysql://u:secret@db/farm", "./wiki-data", ""] {
            assert!(parse(refused).is_err(), "{refused}");
        }
    }

    #[test]
    fn passwords_never_show() {
        let Ok(Database::Postgres(url)) = parse(
            "postgres://wiki:s3cr%40t@db.internal:5433/farm?password=other&application_name=x",
        ) else {
            panic!("a PostgreSQL URL");
        };
        for shown in [url.to_string(), format!("{url:?}")] {
            assert!(!shown.contains("s3cr"), "{shown}");
            assert!(!shown.contains("other"), "{shown}");
            assert!(shown.contains("wiki:***@db.internal:5433/farm"), "{shown}");
            assert!(shown.contains("application_name=x"), "{shown}");
        }
        assert!(url.expose().contains("s3cr%40t"));
        let refused = parse("mysql://root:hunter2@db/farm")
            .err()
            .map(|error| error.to_string())
            .unwrap_or_default();
        assert!(!refused.contains("hunter2"), "{refused}");
    }
}
