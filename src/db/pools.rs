//! The connection pools' state, for the metrics.

use sea_orm::DatabaseConnection;

use super::{Backend, Db};

/// One connection pool's state, for the metrics.
#[derive(Clone, Copy, Debug)]
pub struct PoolGauge {
    pub name: &'static str,
    pub open: u32,
    pub idle: usize,
    pub most: u32,
}

impl Db {
    /// For the metrics: the read pool, then the write pool (the same pool on
    /// PostgreSQL), each with its open, idle and most connections.
    pub fn pool_gauges(&self) -> [PoolGauge; 2] {
        let gauge = |name, conn: &DatabaseConnection| match self.backend {
            Backend::Sqlite => {
                let p = conn.get_sqlite_connection_pool();
                PoolGauge {
                    name,
                    open: p.size(),
                    idle: p.num_idle(),
                    most: p.options().get_max_connections(),
                }
            }
            Backend::Postgres => {
                let p = conn.get_postgres_connection_pool();
                PoolGauge {
                    name,
                    open: p.size(),
                    idle: p.num_idle(),
                    most: p.options().get_max_connections(),
                }
            }
        };
        [gauge("read", &self.read), gauge("write", &self.write)]
    }
}
