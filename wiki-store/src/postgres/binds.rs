//! Bound values of statements built at run time (search filters, object queries): each value
//! is a parameter, never text in the statement.

use postgres::types::ToSql;

/// The values of a statement being built, in placeholder order (`$1`, `$2`, ...).
#[derive(Default)]
pub(crate) struct Binds {
    values: Vec<Box<dyn ToSql + Sync>>,
}

impl Binds {
    /// Binds `value`; its placeholder.
    pub(crate) fn push(&mut self, value: impl ToSql + Sync + 'static) -> String {
        self.values.push(Box::new(value));
        format!("${}", self.values.len())
    }

    /// The values, as a statement takes them.
    pub(crate) fn params(&self) -> Vec<&(dyn ToSql + Sync)> {
        self.values
            .iter()
            .map(|value| &**value as &(dyn ToSql + Sync))
            .collect()
    }

    /// How many values are bound.
    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }
}
