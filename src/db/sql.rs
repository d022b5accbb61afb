//! Statements as quire writes them, run through SeaORM's connections: SQL text
//! with numbered parameters (`$1`, which both engines accept), values bound in
//! order, rows read by column name (`values`).

use std::borrow::Cow;
use std::marker::PhantomData;
use std::sync::Arc;

use futures_util::{Stream, StreamExt};

use super::values::{Bind, Decode, Error, FromRow, Row};
use sea_orm::{
    ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbErr, QueryResult, RuntimeErr,
    Statement, StreamTrait, Value,
};

/// Where statements run: a pool, or a transaction (quire's `WriteTx` too).
pub trait Conn: Sync {
    type Sea: ConnectionTrait + StreamTrait + Sync;
    fn sea(&self) -> &Self::Sea;
    /// A statement ran on it (`changes::Writer` notes that it may have written).
    fn ran(&self) {}
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

    pub async fn execute(self, on: &impl Conn) -> Result<Done, Error> {
        let conn = on.sea();
        let stmt = self.statement(conn);
        let done = conn.execute_raw(stmt).await;
        on.ran();
        Ok(Done {
            rows: done?.rows_affected(),
        })
    }

    /// The first row; an error (`is_not_found`) when there is none.
    pub async fn fetch_one(self, conn: &impl Conn) -> Result<S::Out, Error> {
        self.fetch_optional(conn).await?.ok_or_else(not_found)
    }

    pub async fn fetch_optional(self, on: &impl Conn) -> Result<Option<S::Out>, Error> {
        let conn = on.sea();
        let stmt = self.statement(conn);
        let row = conn.query_one_raw(stmt).await;
        on.ran();
        match row? {
            Some(row) => Ok(Some(S::read(Row(row))?)),
            None => Ok(None),
        }
    }

    pub async fn fetch_all(self, on: &impl Conn) -> Result<Vec<S::Out>, Error> {
        let conn = on.sea();
        let stmt = self.statement(conn);
        let rows = conn.query_all_raw(stmt).await;
        on.ran();
        rows?.into_iter().map(|row| S::read(Row(row))).collect()
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

/// True when a foreign key refused the row: a row it names is gone (deleted
/// after the request that wrote it had looked).
pub fn is_foreign_key_violation(err: &Error) -> bool {
    matches!(driver_error(err), Some(sqlx::Error::Database(db)) if db.is_foreign_key_violation())
}
