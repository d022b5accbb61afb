//! Rows as plain values, decoded the same way from either engine, and the
//! SHA-256 over a table's rows that shows both sides hold the same data.

use crate::db::{Row, RowQuery};
use sha2::{Digest, Sha256};

use super::tables::{Kind, Table};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Int(Option<i64>),
    Text(Option<String>),
    Blob(Option<Vec<u8>>),
}

impl Value {
    /// Roughly what the value costs in a batch, for keeping batches small.
    pub fn bytes(&self) -> usize {
        match self {
            Self::Int(_) => 8,
            Self::Text(t) => t.as_ref().map_or(0, String::len),
            Self::Blob(b) => b.as_ref().map_or(0, Vec::len),
        }
    }
}

pub fn decode(row: &Row, table: &Table) -> Result<Vec<Value>, crate::db::Error> {
    table
        .columns
        .iter()
        .enumerate()
        .map(|(i, (_, kind))| {
            Ok(match kind {
                Kind::Int => Value::Int(row.try_get_at(i)?),
                Kind::Text => Value::Text(row.try_get_at(i)?),
                Kind::Blob => Value::Blob(row.try_get_at(i)?),
            })
        })
        .collect()
}

/// Adds one row's values to a query, in column order.
pub fn bind(query: RowQuery, row: Vec<Value>) -> RowQuery {
    row.into_iter().fold(query, |q, v| match v {
        Value::Int(v) => q.bind(v),
        Value::Text(v) => q.bind(v),
        Value::Blob(v) => q.bind(v),
    })
}

/// Row count and SHA-256 over every row, in the table's order. Each value is
/// tagged with its type and length, so no two different tables of rows hash alike.
#[derive(Clone, Default)]
pub struct TableDigest {
    pub rows: u64,
    hasher: Sha256,
}

impl TableDigest {
    pub fn add(&mut self, row: &[Value]) {
        self.rows += 1;
        let h = &mut self.hasher;
        h.update(b"r");
        for v in row {
            let (tag, bytes): (u8, Option<&[u8]>) = match v {
                Value::Int(None) | Value::Text(None) | Value::Blob(None) => (b'n', None),
                Value::Int(Some(n)) => (b'i', Some(&n.to_le_bytes()[..])),
                Value::Text(Some(t)) => (b't', Some(t.as_bytes())),
                Value::Blob(Some(b)) => (b'b', Some(b)),
            };
            h.update([tag]);
            if let Some(bytes) = bytes {
                h.update((bytes.len() as u64).to_le_bytes());
                h.update(bytes);
            }
        }
    }

    pub fn finish(self) -> (u64, [u8; 32]) {
        (self.rows, self.hasher.finalize().into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digest(rows: &[Vec<Value>]) -> [u8; 32] {
        let mut d = TableDigest::default();
        rows.iter().for_each(|r| d.add(r));
        d.finish().1
    }

    #[test]
    fn null_empty_and_zero_hash_differently() {
        let a = digest(&[vec![Value::Text(None)]]);
        let b = digest(&[vec![Value::Text(Some(String::new()))]]);
        let c = digest(&[vec![Value::Int(Some(0))]]);
        assert_ne!(a, b);
        assert_ne!(b, c);
        assert_ne!(a, c);
    }

    #[test]
    fn values_do_not_run_into_each_other() {
        let split = |x: &str, y: &str| {
            digest(&[vec![
                Value::Text(Some(x.into())),
                Value::Text(Some(y.into())),
            ]])
        };
        assert_ne!(split("ab", "c"), split("a", "bc"));
        assert_ne!(
            digest(&[vec![Value::Int(Some(1))], vec![Value::Int(Some(2))]]),
            digest(&[vec![Value::Int(Some(2))], vec![Value::Int(Some(1))]])
        );
    }
}
