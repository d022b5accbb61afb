//! Who a document is shared with, its visibility and its public link.

#[derive(Debug, Clone)]
pub struct Share {
    pub user_id: i64,
    pub username: String,
    pub can_edit: bool,
}
crate::db::from_row!(Share {
    user_id,
    username,
    can_edit
});

/// The people a document is shared with by name, by name.
pub async fn list(ex: &impl crate::db::Conn, doc_seq: i64) -> Result<Vec<Share>, crate::db::Error> {
    crate::db::query_as(
        "SELECT s.user_id, u.username, s.can_edit FROM document_shares s
         JOIN users u ON u.id = s.user_id WHERE s.doc_seq = $1 ORDER BY u.username",
    )
    .bind(doc_seq)
    .fetch_all(ex)
    .await
}

pub async fn set_visibility(
    conn: &impl crate::db::Conn,
    doc_seq: i64,
    visibility: &str,
) -> Result<(), crate::db::Error> {
    crate::db::query("UPDATE documents SET visibility = $1 WHERE seq = $2")
        .bind(visibility)
        .bind(doc_seq)
        .execute(conn)
        .await?;
    Ok(())
}

/// Shares with a user, or changes what they may do.
pub async fn put(
    conn: &impl crate::db::Conn,
    doc_seq: i64,
    user_id: i64,
    can_edit: bool,
) -> Result<(), crate::db::Error> {
    crate::db::query(
        "INSERT INTO document_shares (doc_seq, user_id, can_edit) VALUES ($1, $2, $3)
         ON CONFLICT (doc_seq, user_id) DO UPDATE SET can_edit = excluded.can_edit",
    )
    .bind(doc_seq)
    .bind(user_id)
    .bind(i64::from(can_edit))
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn remove(
    conn: &impl crate::db::Conn,
    doc_seq: i64,
    user_id: i64,
) -> Result<(), crate::db::Error> {
    crate::db::query("DELETE FROM document_shares WHERE doc_seq = $1 AND user_id = $2")
        .bind(doc_seq)
        .bind(user_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Sets (`Some`) or revokes (`None`) the public link's token.
pub async fn set_public_token(
    conn: &impl crate::db::Conn,
    doc_seq: i64,
    token: Option<&str>,
) -> Result<(), crate::db::Error> {
    crate::db::query("UPDATE documents SET public_token = $1 WHERE seq = $2")
        .bind(token)
        .bind(doc_seq)
        .execute(conn)
        .await?;
    Ok(())
}
