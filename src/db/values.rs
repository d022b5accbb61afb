//! Rows and values: reading a row's columns as Rust values and binding Rust
//! values as parameters. Reading is lenient in the one way quire's schemas need:
//! an integer column, an `int4` expression (PostgreSQL's `CASE`, `length`) and a
//! boolean all read as `i64` or `bool`.

use sea_orm::{ColIdx, DbErr, QueryResult, Value};

/// Every database error quire sees.
pub type Error = DbErr;

/// One row of a result, read by column name or position.
#[derive(Debug)]
pub struct Row(pub(super) QueryResult);

impl Row {
    pub fn try_get<T: Decode>(&self, column: &str) -> Result<T, Error> {
        T::decode(&self.0, column)
    }

    pub fn try_get_at<T: Decode>(&self, index: usize) -> Result<T, Error> {
        T::decode(&self.0, index)
    }

    /// The column's value, or `T`'s default when the statement did not select it
    /// (or it is NULL).
    pub fn get_or_default<T: Decode + Default>(&self, column: &str) -> Result<T, Error> {
        Ok(T::decode_nullable(&self.0, column)?.unwrap_or_default())
    }
}

/// Builds a value from one row.
pub trait FromRow: Sized {
    fn from_row(row: Row) -> Result<Self, Error>;
}

impl FromRow for Row {
    fn from_row(row: Row) -> Result<Self, Error> {
        Ok(row)
    }
}

macro_rules! tuple_rows {
    ($(($($t:ident $i:tt),+)),+) => {$(
        impl<$($t: Decode),+> FromRow for ($($t,)+) {
            fn from_row(row: Row) -> Result<Self, Error> {
                Ok(($(row.try_get_at::<$t>($i)?,)+))
            }
        }
    )+};
}
tuple_rows!(
    (A 0),
    (A 0, B 1),
    (A 0, B 1, C 2),
    (A 0, B 1, C 2, D 3),
    (A 0, B 1, C 2, D 3, E 4),
    (A 0, B 1, C 2, D 3, E 4, F 5),
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6)
);

/// A column's value as a Rust value.
pub trait Decode: Sized {
    /// `None` for NULL, and for a column the statement did not select.
    fn decode_nullable<I: ColIdx>(row: &QueryResult, index: I) -> Result<Option<Self>, Error>;

    fn decode<I: ColIdx>(row: &QueryResult, index: I) -> Result<Self, Error> {
        present(Self::decode_nullable(row, index)?, index)
    }
}

/// An integer, from any integer or boolean column (PostgreSQL types its
/// expressions as `int4` or `bool` where SQLite has only integers).
fn int<I: ColIdx>(row: &QueryResult, index: I) -> Result<Option<i64>, Error> {
    match row.try_get_by::<Option<i64>, I>(index) {
        Ok(v) => Ok(v),
        Err(first) => {
            if let Ok(v) = row.try_get_by::<Option<i32>, I>(index) {
                return Ok(v.map(i64::from));
            }
            if let Ok(v) = row.try_get_by::<Option<bool>, I>(index) {
                return Ok(v.map(i64::from));
            }
            Err(first)
        }
    }
}

fn float<I: ColIdx>(row: &QueryResult, index: I) -> Result<Option<f64>, Error> {
    match row.try_get_by::<Option<f64>, I>(index) {
        Ok(v) => Ok(v),
        Err(first) => {
            if let Ok(v) = row.try_get_by::<Option<f32>, I>(index) {
                return Ok(v.map(f64::from));
            }
            // An integer-valued expression where a real one was meant.
            int(row, index).map(|v| v.map(|n| n as f64)).or(Err(first))
        }
    }
}

fn present<T, I: ColIdx>(value: Option<T>, index: I) -> Result<T, Error> {
    value.ok_or_else(|| DbErr::Type(format!("column {index:?} is NULL")))
}

impl Decode for i64 {
    fn decode_nullable<I: ColIdx>(row: &QueryResult, index: I) -> Result<Option<Self>, Error> {
        int(row, index)
    }
}

impl Decode for bool {
    fn decode_nullable<I: ColIdx>(row: &QueryResult, index: I) -> Result<Option<Self>, Error> {
        Ok(int(row, index)?.map(|n| n != 0))
    }
}

impl Decode for f64 {
    fn decode_nullable<I: ColIdx>(row: &QueryResult, index: I) -> Result<Option<Self>, Error> {
        float(row, index)
    }
}

impl Decode for String {
    fn decode_nullable<I: ColIdx>(row: &QueryResult, index: I) -> Result<Option<Self>, Error> {
        row.try_get_by::<Option<String>, I>(index)
    }
}

impl Decode for Vec<u8> {
    fn decode_nullable<I: ColIdx>(row: &QueryResult, index: I) -> Result<Option<Self>, Error> {
        row.try_get_by::<Option<Vec<u8>>, I>(index)
    }
}

/// NULL reads as `None`.
impl<T: Decode> Decode for Option<T> {
    fn decode_nullable<I: ColIdx>(row: &QueryResult, index: I) -> Result<Option<Self>, Error> {
        T::decode_nullable(row, index).map(Some)
    }
}

/// A value a statement can take as a parameter.
pub trait Bind {
    fn value(self) -> Value;
}

macro_rules! bind_into {
    ($($t:ty),+) => {$(
        impl Bind for $t {
            fn value(self) -> Value {
                Value::from(self)
            }
        }
        impl Bind for Option<$t> {
            fn value(self) -> Value {
                Value::from(self)
            }
        }
    )+};
}
bind_into!(i64, i32, f64, bool, String, Vec<u8>);

macro_rules! bind_cloned {
    ($($t:ty),+) => {$(
        impl Bind for &$t {
            fn value(self) -> Value {
                self.clone().value()
            }
        }
    )+};
}
bind_cloned!(
    i64,
    String,
    Vec<u8>,
    Option<i64>,
    Option<String>,
    Option<Vec<u8>>
);

impl Bind for &str {
    fn value(self) -> Value {
        Value::from(self.to_owned())
    }
}

impl Bind for Option<&str> {
    fn value(self) -> Value {
        Value::from(self.map(str::to_owned))
    }
}

impl Bind for &[u8] {
    fn value(self) -> Value {
        Value::from(self.to_vec())
    }
}

impl Bind for Option<&[u8]> {
    fn value(self) -> Value {
        Value::from(self.map(<[u8]>::to_vec))
    }
}

impl Bind for Option<&String> {
    fn value(self) -> Value {
        Value::from(self.cloned())
    }
}

impl Bind for Value {
    fn value(self) -> Value {
        self
    }
}

/// Implements `FromRow` for a struct of the named fields, each read from the
/// column of its name; the fields after `defaults` take their default when the
/// statement did not select them.
macro_rules! from_row {
    ($ty:ident { $($field:ident),* $(,)? } $(defaults { $($d:ident),* $(,)? })?) => {
        impl $crate::db::FromRow for $ty {
            fn from_row(row: $crate::db::Row) -> Result<Self, $crate::db::Error> {
                Ok(Self {
                    $($field: row.try_get(stringify!($field))?,)*
                    $($($d: row.get_or_default(stringify!($d))?,)*)?
                })
            }
        }
    };
}
pub(crate) use from_row;
