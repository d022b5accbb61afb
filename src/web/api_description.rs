//! What the API's description says that utoipa's derive cannot: the
//! `webhooks` section (the events quire posts, each body's schema), and
//! links' fields in OpenAPI's spelling.

use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

/// A document as an event names it.
#[derive(Serialize, ToSchema)]
#[schema(as = WebhookDocument)]
pub struct WebhookDocument {
    id: String,
    title: String,
    /// Its space; none for a personal space.
    space: Option<WebhookSpace>,
    folder: String,
    version: i64,
    /// Its page (absolute when QUIRE_PUBLIC_URL is set).
    url: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = WebhookSpace)]
pub struct WebhookSpace {
    id: i64,
    name: Option<String>,
}

/// The revisions a `document.updated` event gathers.
#[derive(Serialize, ToSchema)]
#[schema(as = WebhookRevisions)]
pub struct WebhookRevisions {
    from: i64,
    to: i64,
    /// The changes between them.
    url: String,
}

/// The comment of a `comment.added` event.
#[derive(Serialize, ToSchema)]
#[schema(as = WebhookComment)]
pub struct WebhookComment {
    id: i64,
    parent: Option<i64>,
    author: String,
    /// Markdown.
    body: String,
    url: String,
}

/// The body of every event quire posts to a webhook (JSON). Headers:
/// `Quire-Event` (the event), `Quire-Delivery` (the delivery's number, the
/// same on a retry), `Quire-Signature: t=<unix seconds>,v1=<hex>` where the
/// hex is HMAC-SHA256 with the hook's secret over `<unix seconds>.<body>`.
/// A document's text is never sent; its title only to hooks whose makers may
/// read it. A 2xx answer within 10 s is a delivery; anything else is tried
/// again later, each wait twice the last, eight tries in all.
#[derive(Serialize, ToSchema)]
#[schema(as = WebhookEvent)]
pub struct WebhookEvent {
    /// `document.created`, `document.updated`, `document.moved`,
    /// `document.trashed`, `document.restored`, `document.deleted` or
    /// `comment.added`.
    event: String,
    /// When it happened (RFC 3339, UTC).
    at: String,
    /// Who did it.
    actor: Option<String>,
    /// For `document.deleted` only `id`, `title` and `space` (its id).
    document: WebhookDocument,
    /// `document.updated` only.
    revisions: Option<WebhookRevisions>,
    /// `comment.added` only.
    comment: Option<WebhookComment>,
}

/// Adds the `webhooks` section: one entry per event, each a POST of a
/// `WebhookEvent`.
pub fn describe_webhooks(doc: &mut Value) {
    let mut hooks = serde_json::Map::new();
    for (name, what) in crate::webhooks::EVENTS {
        hooks.insert(
            (*name).to_owned(),
            json!({"post": {
                "summary": format!("Sent when {what}"),
                "operationId": format!("webhook_{}", name.replace('.', "_")),
                "tags": ["webhooks"],
                "security": [],
                "requestBody": {"required": true, "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/WebhookEvent"}}}},
                "responses": {"200": {"description": "Taken; any 2xx will do"}},
            }}),
        );
    }
    doc["webhooks"] = Value::Object(hooks);
}

/// utoipa 5 writes a link's fields as `operation_id`, `operation_ref` and
/// `request_body`; OpenAPI spells them `operationId`, `operationRef` and
/// `requestBody` (the validator refuses the others, and tools skip the links).
pub fn camel_case_links(doc: &mut Value) {
    let operations = doc["paths"]
        .as_object_mut()
        .into_iter()
        .flat_map(|paths| paths.values_mut())
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.values_mut());
    for op in operations {
        let links = op["responses"]
            .as_object_mut()
            .into_iter()
            .flat_map(|r| r.values_mut())
            .filter_map(|r| r.get_mut("links").and_then(Value::as_object_mut))
            .flat_map(|links| links.values_mut())
            .filter_map(Value::as_object_mut);
        for link in links {
            for (from, to) in [
                ("operation_id", "operationId"),
                ("operation_ref", "operationRef"),
                ("request_body", "requestBody"),
            ] {
                if let Some(v) = link.remove(from) {
                    link.insert(to.to_owned(), v);
                }
            }
        }
    }
}
