use sqlx::ConnectOptions;
use sqlx::sqlite::SqliteConnectOptions;

use crate::helpers::{on_postgres, spawn_with};

async fn raw_connection(app: &crate::helpers::TestApp) -> sqlx::SqliteConnection {
    SqliteConnectOptions::new()
        .filename(app.dir.path().join("quire.db"))
        .connect()
        .await
        .expect("open the database file directly")
}

#[tokio::test]
async fn the_schema_itself_refuses_a_body_over_the_configured_cap() {
    let app = spawn_with(|c| c.max_doc_bytes = 100).await;
    // Straight to the database, past every check in quire's code.
    let insert = |body: String| {
        quire::db::query(
            "INSERT INTO documents (id, title, version, created_at, updated_at,
                                    render_version, size, body, html)
             VALUES ($1, 't', 1, 0, 0, 1, octet_length($2), $2, '')",
        )
        .bind(format!("{:a<26}", body.len()))
        .bind(body)
    };

    let over = insert("x".repeat(101)).execute(&app.db.write).await;
    let at_cap = insert("x".repeat(100)).execute(&app.db.write).await;

    let err = over.expect_err("over the cap must fail in SQL");
    assert!(err.to_string().contains("exceeds max_doc_bytes"), "{err}");
    assert!(at_cap.is_ok());
}

#[tokio::test]
async fn the_schema_refuses_an_update_or_a_draft_over_the_configured_cap() {
    let app = spawn_with(|c| c.max_doc_bytes = 100).await;
    let id = app.create_document("Capped", "small").await;
    let seq: i64 = quire::db::query_scalar("SELECT seq FROM documents WHERE id = $1")
        .bind(&id)
        .fetch_one(&app.db.read)
        .await
        .unwrap();
    let user: i64 = quire::db::query_scalar("SELECT min(id) FROM users")
        .fetch_one(&app.db.read)
        .await
        .unwrap();
    let update = |body: String| {
        quire::db::query("UPDATE documents SET body = $1, size = octet_length($1) WHERE id = $2")
            .bind(body)
            .bind(&id)
    };
    let err = update("x".repeat(101))
        .execute(&app.db.write)
        .await
        .expect_err("an update over the cap must fail in SQL");
    assert!(err.to_string().contains("exceeds max_doc_bytes"), "{err}");
    update("x".repeat(100))
        .execute(&app.db.write)
        .await
        .unwrap();

    let draft = |body: String| {
        quire::db::query(
            "INSERT INTO drafts (doc_seq, user_id, title, body, base_version, updated_at)
             VALUES ($1, $2, 'd', $3, 1, 0)",
        )
        .bind(seq)
        .bind(user)
        .bind(body)
    };
    let err = draft("x".repeat(101))
        .execute(&app.db.write)
        .await
        .expect_err("a draft over the cap must fail in SQL");
    assert!(err.to_string().contains("exceeds max_doc_bytes"), "{err}");
    draft("x".repeat(100)).execute(&app.db.write).await.unwrap();
    let err = quire::db::query("UPDATE drafts SET body = $1 WHERE doc_seq = $2")
        .bind("x".repeat(101))
        .bind(seq)
        .execute(&app.db.write)
        .await
        .expect_err("a draft grown over the cap must fail in SQL");
    assert!(err.to_string().contains("exceeds max_doc_bytes"), "{err}");
}

#[tokio::test]
async fn the_database_runs_in_wal_mode() {
    if on_postgres() {
        return;
    }
    let app = spawn_with(|_| {}).await;
    app.create_document("w", "x").await;
    let mut conn = raw_connection(&app).await;
    let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(mode, "wal");
}

/// On PostgreSQL a long text is compressed with lz4 where the server has it
/// (the Debian and official builds do): pglz cost saves several per cent.
#[tokio::test]
async fn postgres_compresses_long_texts_with_lz4() {
    if !on_postgres() {
        return;
    }
    let app = crate::helpers::spawn_app().await;
    let body = "A line of a long document, said again and again.\n".repeat(400);
    let id = app.create_document("Long", &body).await;
    let text: Option<String> =
        quire::db::query_scalar("SELECT pg_column_compression(body) FROM documents WHERE id = $1")
            .bind(&id)
            .fetch_one(&app.db.read)
            .await
            .unwrap();
    assert_eq!(text.as_deref(), Some("lz4"));
}
