//! The JSON API described: an OpenAPI 3.1 document generated from the handlers'
//! own annotations (`web::api`), so it cannot drift from them, served at
//! `/api/v1/openapi.json`, and the same description drawn as a page at
//! `/api/docs`. Neither needs a sign-in: they say what the API is, not what is
//! in it.

use std::sync::LazyLock;

use actix_web::http::{StatusCode, header};
use actix_web::{HttpResponse, http::header::CacheDirective};
use askama::Template;
use serde_json::Value;
use utoipa::OpenApi;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};

use super::api_description::{camel_case_links, describe_webhooks};
use super::respond;
use super::{api, api_attachments, api_comments, api_groups, api_places, api_spaces};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "quire",
        description = "The JSON API of a quire server, for scripts and integrations. \
            Authenticate with `Authorization: Bearer qt_...`, a token made on the account \
            page; it acts as its user, with that user's access (single sign-on's groups \
            included, as of the last sign-in), also when local passwords are off. \
            Versions travel in `ETag` \
            and come back in `If-Match`: a save over a version that is no longer current \
            is refused with 412 and changes nothing.",
    ),
    paths(
        api::api_list,
        api::api_create,
        api::api_get,
        api::api_update,
        api::api_delete,
        api_attachments::api_attachments,
        api_attachments::api_attach,
        api_attachments::api_download,
        api_attachments::api_detach,
        api_comments::api_comments,
        api_comments::api_comment_add,
        api_comments::api_comment_change,
        api_comments::api_comment_delete,
        api_places::api_folders,
        api_places::api_tags,
        api_spaces::api_spaces,
        api_spaces::api_space_create,
        api_spaces::api_members,
        api_spaces::api_member_put,
        api_spaces::api_move,
        api_groups::api_groups,
        api_groups::api_group_create,
        api_groups::api_group_members,
        api_groups::api_group_member_put,
        api_groups::api_group_member_delete
    ),
    components(schemas(super::api_description::WebhookEvent)),
    modifiers(&Bearer),
    security(("bearer" = [])),
    tags(
        (name = "documents", description = "Documents: Markdown text with a version"),
        (name = "spaces", description = "Spaces: shared places whose members read, edit or manage \
            what is in them. A document is in one space, or in its owner's personal space."),
        (name = "comments", description = "Comments: a discussion under each document, with \
            replies one level deep; whoever may read a document may read its comments."),
        (name = "webhooks", description = "Webhooks: events quire posts, signed, to the addresses \
            administrators and space managers register on the `/webhooks` page."),
        (name = "groups", description = "Groups: people an administrator puts together, to make \
            them members of a space or share a document with them at once."),
    ),
)]
struct Description;

/// The bearer-token scheme every operation takes.
struct Bearer;

impl utoipa::Modify for Bearer {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "An API token (`qt_...`), made and revoked on the account page",
                    ))
                    .build(),
            ),
        );
    }
}

/// The description, made once.
pub fn openapi() -> &'static Value {
    static DOC: LazyLock<Value> = LazyLock::new(|| {
        let mut doc = serde_json::to_value(Description::openapi()).unwrap_or_else(|e| {
            // Serialising a value built in memory has no way to fail; say so loudly
            // if it ever does rather than serve half a description.
            tracing::error!(error = %e, "the API description could not be written");
            Value::Null
        });
        camel_case_links(&mut doc);
        describe_webhooks(&mut doc);
        doc
    });
    &DOC
}

/// `GET /api/v1/openapi.json`
pub async fn openapi_json() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(header::CacheControl(vec![
            CacheDirective::Public,
            CacheDirective::MaxAge(300),
        ]))
        .json(openapi())
}

#[derive(Template)]
#[template(path = "api/docs_partial.html")]
struct DocsPage {
    intro: String,
    version: String,
    operations: Vec<Operation>,
    schemas: Vec<Schema>,
}

struct Operation {
    anchor: String,
    method: String,
    path: String,
    summary: String,
    params: Vec<Field>,
    body: Option<String>,
    responses: Vec<Answer>,
}

struct Answer {
    status: String,
    description: String,
    body: Option<String>,
    headers: Vec<String>,
}

struct Schema {
    name: String,
    description: String,
    fields: Vec<Field>,
}

struct Field {
    name: String,
    place: String,
    kind: String,
    required: bool,
    description: String,
}

/// `GET /api/docs`: the description as a page.
pub async fn docs_page() -> HttpResponse {
    let doc = openapi();
    let page = DocsPage {
        intro: prose(&doc["info"]["description"]),
        version: text(&doc["openapi"]),
        operations: operations(doc),
        schemas: schemas(doc),
    };
    respond::fragment(StatusCode::OK, "API", &page)
}

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_owned()
}

/// A description as HTML: its text escaped, and what it quotes between backticks
/// shown as code. The template writes it as it is.
fn prose(v: &Value) -> String {
    let mut out = String::new();
    for (i, part) in v.as_str().unwrap_or_default().split('`').enumerate() {
        let escaped = escape(part);
        if i % 2 == 1 {
            out.push_str("<code>");
            out.push_str(&escaped);
            out.push_str("</code>");
        } else {
            out.push_str(&escaped);
        }
    }
    out
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn operations(doc: &Value) -> Vec<Operation> {
    let mut out = Vec::new();
    let Some(paths) = doc["paths"].as_object() else {
        return out;
    };
    for (path, item) in paths {
        for method in ["get", "post", "put", "delete"] {
            let op = &item[method];
            if op.is_null() {
                continue;
            }
            let params = op["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| Field {
                    name: text(&p["name"]),
                    place: text(&p["in"]),
                    kind: kind(&p["schema"]),
                    required: p["required"].as_bool().unwrap_or(false),
                    description: prose(&p["description"]),
                })
                .collect();
            let body = op["requestBody"]["content"]["application/json"]["schema"]
                .as_object()
                .map(|_| kind(&op["requestBody"]["content"]["application/json"]["schema"]));
            let responses = op["responses"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(status, r)| Answer {
                    status: status.clone(),
                    description: prose(&r["description"]),
                    body: r["content"]["application/json"]["schema"]
                        .as_object()
                        .map(|_| kind(&r["content"]["application/json"]["schema"])),
                    headers: r["headers"]
                        .as_object()
                        .map(|h| h.keys().cloned().collect())
                        .unwrap_or_default(),
                })
                .collect();
            out.push(Operation {
                anchor: text(&op["operationId"]),
                method: method.to_uppercase(),
                path: path.clone(),
                summary: prose(&op["summary"]),
                params,
                body,
                responses,
            });
        }
    }
    out
}

fn schemas(doc: &Value) -> Vec<Schema> {
    let Some(all) = doc["components"]["schemas"].as_object() else {
        return Vec::new();
    };
    all.iter()
        .map(|(name, s)| {
            let required: Vec<&str> = s["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let fields = s["properties"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(field, p)| Field {
                    name: field.clone(),
                    place: String::new(),
                    kind: kind(p),
                    required: required.contains(&field.as_str()),
                    description: prose(&p["description"]),
                })
                .collect();
            Schema {
                name: name.clone(),
                description: prose(&s["description"]),
                fields,
            }
        })
        .collect()
}

/// A schema in a few words: `string, 1-200 characters`, `array of DocumentSummary`.
fn kind(s: &Value) -> String {
    if let Some(target) = s["$ref"].as_str() {
        return target.rsplit('/').next().unwrap_or(target).to_owned();
    }
    let mut words = match &s["type"] {
        Value::String(t) if t == "array" => format!("array of {}", kind(&s["items"])),
        Value::String(t) => t.clone(),
        Value::Array(ts) => ts
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        _ => "any".to_owned(),
    };
    let bounds = |low: &str, high: &str, unit: &str| match (s[low].as_i64(), s[high].as_i64()) {
        (Some(a), Some(b)) if a == b => Some(format!("{a}{unit}")),
        (Some(a), Some(b)) => Some(format!("{a}-{b}{unit}")),
        (Some(a), None) => Some(format!("at least {a}{unit}")),
        (None, Some(b)) => Some(format!("at most {b}{unit}")),
        (None, None) => None,
    };
    for extra in [
        bounds("minLength", "maxLength", " characters"),
        bounds("minimum", "maximum", ""),
        s["pattern"].as_str().map(|p| format!("matching {p}")),
        s["enum"].as_array().map(|values| {
            let names: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
            format!("one of {}", names.join(", "))
        }),
    ]
    .into_iter()
    .flatten()
    {
        words.push_str(", ");
        words.push_str(&extra);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_of_the_api_is_described_with_its_errors_and_the_token_scheme() {
        let doc = openapi();
        assert_eq!(doc["openapi"], "3.1.0");
        let ops: Vec<(String, String)> = operations(doc)
            .into_iter()
            .map(|o| (o.method, o.path))
            .collect();
        for (method, path) in [
            ("GET", "/api/v1/documents"),
            ("POST", "/api/v1/documents"),
            ("GET", "/api/v1/documents/{id}"),
            ("PUT", "/api/v1/documents/{id}"),
            ("DELETE", "/api/v1/documents/{id}"),
        ] {
            assert!(
                ops.contains(&(method.into(), path.into())),
                "{method} {path}"
            );
        }
        let put = &doc["paths"]["/api/v1/documents/{id}"]["put"]["responses"];
        for status in ["401", "403", "404", "412", "413", "428"] {
            assert!(put[status].is_object(), "PUT answers {status}");
        }
        assert_eq!(
            doc["components"]["securitySchemes"]["bearer"]["scheme"],
            "bearer"
        );
        let update =
            &doc["paths"]["/api/v1/documents"]["post"]["responses"]["201"]["links"]["update"];
        assert_eq!(update["operationId"], "updateDocument");
        assert_eq!(
            update["parameters"]["header.If-Match"],
            "$response.header.ETag"
        );
        let title = kind(&doc["components"]["schemas"]["DocumentInput"]["properties"]["title"]);
        assert!(
            title.starts_with("string, 1-200 characters, matching [^\\s"),
            "{title}"
        );
    }
}
