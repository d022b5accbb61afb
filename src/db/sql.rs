//! Statements as quire writes them, run through SeaORM's connections: SQL text
//! with numbered parameters (`$1`, which both engines accept), values bound in
//! order, rows read by column name. Reading is lenient in the one way quire's
//! schemas need: an integer column, an `int4` expression (PostgreSQL's `CASE`,
//! `length`) and a boolean all read as `i64` or `bool`.

use std::borrow::Cow;
use std::marker::PhantomData;
use std::sync::Arc;

use futures_util::{Stream, StreamExt};
use sea_orm::{
    ColIdx, ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbErr, QueryResult,
    RuntimeErr, Statement, StreamTrait, Value,
};

/// Every database error quire sees.
pub type Error = DbErr;

/// Where statements run: a pool, or a transaction (quire's `WriteTx` too).
pub trait Conn: Sync {
    type Sea: ConnectionTrait + StreamTrait + Sync;
    fn sea(&self) -> &Self::Sea;
}

impl Conn for DatabaseConnection {
    type Sea = Self;
    fn sea(&self) -> &Self {
        self
    }
}

impl Conn for DatabaseTransaction {
    type Sea = Self;
    fn sea(&self) -> &Self {
        self
    }
}

/// A statement still collecting its values; `S` says what a row becomes.
#[must_use = "a statement does nothing until it is run"]
pub struct Query<S> {
    sql: Cow<'static, str>,
    values: Vec<Value>,
    shape: PhantomData<fn() -> S>,
}

/// Rows read as a struct or tuple (`FromRow`).
pub struct As<T>(PhantomData<T>);
/// Rows read as their first column.
pub struct Scalar<T>(PhantomData<T>);

/// What one row of a statement becomes.
pub trait Shape {
    type Out;
    fn read(row: Row) -> Result<Self::Out, Error>;
}

impl<T: FromRow> Shape for As<T> {
    type Out = T;
    fn read(row: Row) -> Result<T, Error> {
        T::from_row(row)
    }
}

impl<T: Decode> Shape for Scalar<T> {
    type Out = T;
    fn read(row: Row) -> Result<T, Error> {
        row.try_get_at(0)
    }
}

/// Rows as `fetch` streams them.
pub type Rows<'c, T> = std::pin::Pin<Box<dyn Stream<Item = Result<T, Error>> + Send + 'c>>;

/// A statement read as `Row`s.
pub type RowQuery = Query<As<Row>>;

/// A statement whose rows are read as `Row`s (or only counted, by `execute`).
pub fn query(sql: impl Into<Cow<'static, str>>) -> Query<As<Row>> {
    Query::new(sql)
}

/// A statement whose rows are read as `T`.
pub fn query_as<T: FromRow>(sql: impl Into<Cow<'static, str>>) -> Query<As<T>> {
    Query::new(sql)
}

/// A statement whose rows are read as their first column.
pub fn query_scalar<T: Decode>(sql: impl Into<Cow<'static, str>>) -> Query<Scalar<T>> {
    Query::new(sql)
}

/// What a statement that returns no rows did.
#[derive(Clone, Copy, Debug)]
pub struct Done {
    rows: u64,
}

impl Done {
    pub fn rows_affected(&self) -> u64 {
        self.rows
    }
}

impl<S: Shape> Query<S> {
    fn new(sql: impl Into<Cow<'static, str>>) -> Self {
        Self {
            sql: sql.into(),
            values: Vec::new(),
            shape: PhantomData,
        }
    }

    /// The next parameter's value.
    pub fn bind(mut self, value: impl Bind) -> Self {
        self.values.push(value.value());
        self
    }

    fn statement(self, conn: &impl ConnectionTrait) -> Statement {
        Statement::from_sql_and_values(conn.get_database_backend(), self.sql, self.values)
    }

    pub async fn execute(self, conn: &impl Conn) -> Result<Done, Error> {
        let conn = conn.sea();
        let stmt = self.statement(conn);
        let done = conn.execute_raw(stmt).await?;
        Ok(Done {
            rows: done.rows_affected(),
        })
    }

    /// The first row; an error (`is_not_found`) when there is none.
    pub async fn fetch_one(self, conn: &impl Conn) -> Result<S::Out, Error> {
        self.fetch_optional(conn).await?.ok_or_else(not_found)
    }

    pub async fn fetch_optional(self, conn: &impl Conn) -> Result<Option<S::Out>, Error> {
        let conn = conn.sea();
        let stmt = self.statement(conn);
        match conn.query_one_raw(stmt).await? {
            Some(row) => Ok(Some(S::read(Row(row))?)),
            None => Ok(None),
        }
    }

    pub async fn fetch_all(self, conn: &impl Conn) -> Result<Vec<S::Out>, Error> {
        let conn = conn.sea();
        let stmt = self.statement(conn);
        conn.query_all_raw(stmt)
            .await?
            .into_iter()
            .map(|row| S::read(Row(row)))
            .collect()
    }

    /// The rows one at a time, for copies larger than memory.
    pub async fn fetch<'c, C>(self, conn: &'c C) -> Result<Rows<'c, S::Out>, Error>
    where
        C: Conn,
        S: 'c,
        S::Out: Send,
    {
        let conn = conn.sea();
        let stmt = self.statement(conn);
        let rows = conn.stream_raw(stmt).await?;
        Ok(Box::pin(
            rows.map(|row| row.and_then(|row| S::read(Row(row)))),
        ))
    }
}

impl<S: Shape> Query<S> {
    /// PostgreSQL only: every row, from a statement that is not prepared, so it
    /// is planned for its own values each time (a prepared one switches to one
    /// generic plan after five runs); `no_seqscan` keeps the planner to indexes.
    pub async fn fetch_all_unprepared(
        self,
        conn: &DatabaseConnection,
        no_seqscan: bool,
    ) -> Result<Vec<S::Out>, Error> {
        let wrap = |e: sqlx::Error| DbErr::Query(RuntimeErr::SqlxError(Arc::new(e)));
        let mut q = sqlx::query(sqlx::AssertSqlSafe(self.sql.into_owned())).persistent(false);
        for value in self.values {
            q = match value {
                Value::BigInt(v) => q.bind(v),
                Value::Int(v) => q.bind(v),
                Value::Bool(v) => q.bind(v),
                Value::Double(v) => q.bind(v),
                Value::String(v) => q.bind(v),
                Value::Bytes(v) => q.bind(v),
                other => return Err(internal(format!("cannot bind {other:?}"))),
            };
        }
        let pool = conn.get_postgres_connection_pool();
        let rows = if no_seqscan {
            let mut tx = pool.begin().await.map_err(wrap)?;
            sqlx::query("SET LOCAL enable_seqscan = off")
                .execute(&mut *tx)
                .await
                .map_err(wrap)?;
            let rows = q.fetch_all(&mut *tx).await.map_err(wrap)?;
            tx.commit().await.map_err(wrap)?;
            rows
        } else {
            q.fetch_all(pool).await.map_err(wrap)?
        };
        rows.into_iter()
            .map(|row| S::read(Row(QueryResult::from(row))))
            .collect()
    }
}

/// One row of a result, read by column name or position.
#[derive(Debug)]
pub struct Row(QueryResult);

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
    (A 0, B 1, C 2, D 3, E 4, F 5)
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
        Err(first) if is_missing_column(&first) => Err(first),
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
        Err(first) if is_missing_column(&first) => Err(first),
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

/// The driver's own error, where the database or the connection produced one.
pub(crate) fn driver_error(err: &Error) -> Option<&sqlx::Error> {
    match err {
        DbErr::Conn(RuntimeErr::SqlxError(e))
        | DbErr::Exec(RuntimeErr::SqlxError(e))
        | DbErr::Query(RuntimeErr::SqlxError(e)) => Some(e),
        _ => None,
    }
}

/// "No such row", as `fetch_one` reports it.
pub fn not_found() -> Error {
    DbErr::RecordNotFound("no row".into())
}

pub fn is_not_found(err: &Error) -> bool {
    matches!(err, DbErr::RecordNotFound(_))
        || matches!(driver_error(err), Some(sqlx::Error::RowNotFound))
}

fn is_missing_column(err: &Error) -> bool {
    matches!(driver_error(err), Some(sqlx::Error::ColumnNotFound(_)))
}

/// An input/output failure as a database error (the disk under SQLite).
pub fn io_error(err: std::io::Error) -> Error {
    DbErr::Conn(RuntimeErr::SqlxError(Arc::new(sqlx::Error::Io(err))))
}

/// Something quire itself found wrong while reading or writing.
pub fn internal(what: impl Into<String>) -> Error {
    DbErr::Custom(what.into())
}

/// The database's own message, for an error the database raised (a constraint,
/// a trigger's `RAISE`).
pub fn database_message(err: &Error) -> Option<String> {
    match driver_error(err) {
        Some(sqlx::Error::Database(db)) => Some(db.message().to_owned()),
        _ => None,
    }
}

/// The database's error code (SQLite's extended result code, PostgreSQL's SQLSTATE).
pub fn database_code(err: &Error) -> Option<String> {
    match driver_error(err) {
        Some(sqlx::Error::Database(db)) => db.code().map(|c| c.into_owned()),
        _ => None,
    }
}

/// True when a unique or primary key constraint refused the row.
pub fn is_unique_violation(err: &Error) -> bool {
    matches!(driver_error(err), Some(sqlx::Error::Database(db)) if db.is_unique_violation())
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
