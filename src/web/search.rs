//! `GET /search?q=`: a plain page with JavaScript off (shareable, back button works),
//! live results as you type with htmx.

use std::sync::Arc;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use super::AppState;
use super::middleware::session::CurrentUser;
use super::params::caller;
use super::respond;
use super::when::{fmt_time, iso_time};
use crate::documents::{self, SearchHit};

const RESULTS: i64 = 50;

#[derive(Deserialize)]
pub struct SearchQuery {
    #[serde(default)]
    q: String,
    /// Only this space: `personal` or its number; empty or left out: all.
    #[serde(default)]
    space: String,
}

pub struct HitRow {
    pub id: String,
    /// Safe HTML: escaped, the search words in `<mark>`.
    pub title: String,
    pub snippet: String,
    pub when: String,
    pub when_iso: String,
    /// The attached file whose text holds the words, its address (at the
    /// page, which browsers' PDF viewers open at) and the page; empty when
    /// the document's own text does.
    pub file: String,
    pub file_url: String,
    pub page: i64,
}

impl From<&SearchHit> for HitRow {
    fn from(h: &SearchHit) -> Self {
        let file_url = match h.file.as_str() {
            "" => String::new(),
            name => format!(
                "{}#page={}",
                crate::documents::attachments::url(&h.id, name),
                h.page
            ),
        };
        Self {
            file: h.file.clone(),
            file_url,
            page: h.page,
            id: h.id.clone(),
            title: h.title_html(),
            snippet: h.snippet_html(),
            when: fmt_time(h.updated_at),
            when_iso: iso_time(h.updated_at),
        }
    }
}

/// A comment a search found.
pub struct CommentRow {
    pub id: i64,
    pub doc_id: String,
    pub title: String,
    pub author: String,
    pub excerpt: String,
    pub when: String,
    pub when_iso: String,
}

impl From<crate::comments::search::CommentHit> for CommentRow {
    fn from(c: crate::comments::search::CommentHit) -> Self {
        Self {
            when: fmt_time(c.created_at),
            when_iso: iso_time(c.created_at),
            id: c.id,
            doc_id: c.doc_id,
            title: c.title,
            author: c.author,
            excerpt: c.excerpt,
        }
    }
}

#[derive(Template)]
#[template(path = "search/results_partial.html")]
struct ResultsPartial {
    q: String,
    hits: Vec<HitRow>,
    /// Comments that hold the words, marked as comments.
    comments: Vec<CommentRow>,
    failed: bool,
    catching_up: bool,
    /// "Did you mean": the search as typed with misspelt words replaced, and
    /// its address.
    suggestion: Option<(String, String)>,
}

#[derive(Template)]
#[template(path = "search/page_partial.html")]
struct SearchPartial {
    results: ResultsPartial,
    /// The space chosen (`personal`, a number, empty: all) and those to
    /// choose from: (value, name).
    space: String,
    spaces: Vec<(String, String)>,
}

pub async fn search_results(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<SearchQuery>,
) -> HttpResponse {
    let SearchQuery { q, space } = query.into_inner();
    let space = documents::InSpace::parse(&space);
    // The documents and the comments that hold the words, looked for at once.
    let found = async {
        if q.trim().is_empty() {
            documents::Found::default()
        } else {
            documents::search_in(&state.db, (&q, space), RESULTS, caller(&user)).await
        }
    };
    let comments = comments_found(&state, &user, &q, space);
    let live = req
        .headers()
        .get("hx-target")
        .is_some_and(|t| t.as_bytes() == b"results");
    // The spaces to choose from (the whole page only), asked for beside the
    // search rather than after it, and kept in the page cache until something
    // changes (a membership, a name); without them the page still searches all.
    let names = async {
        if live {
            return Arc::default();
        }
        if let Some(known) = state.cache.space_names(user.0.id) {
            return known;
        }
        let epoch = state.cache.epoch();
        match crate::teams::spaces::names(&state.db, user.0.id).await {
            Ok(names) => {
                let names = Arc::new(names);
                state.cache.keep_space_names(epoch, user.0.id, &names);
                names
            }
            Err(e) => {
                tracing::warn!(error = %e, "listing the spaces to search in failed");
                Arc::default()
            }
        }
    };
    let (found, comments, names) = futures_util::future::join3(found, comments, names).await;
    let results = ResultsPartial {
        hits: found.hits.iter().map(HitRow::from).collect(),
        comments: comments.into_iter().map(CommentRow::from).collect(),
        failed: found.failed,
        catching_up: found.catching_up,
        suggestion: found.suggestion.map(|meant| {
            let mut href = format!("/search?q={}", encoded(&meant));
            if let Some(space) = space {
                href.push_str(&format!("&space={}", encoded(&space.param())));
            }
            (meant, href)
        }),
        q,
    };
    // A failed query is a bug, not an empty result: the status says so, to
    // htmx, to monitoring and to tests.
    let status = if found.failed {
        StatusCode::INTERNAL_SERVER_ERROR
    } else {
        StatusCode::OK
    };
    let title = if results.q.trim().is_empty() {
        "Search".to_owned()
    } else {
        format!("Search: {}", results.q.chars().take(60).collect::<String>())
    };
    if live {
        return respond::fragment(status, &title, &results);
    }
    let page = SearchPartial {
        results,
        space: space.map(|s| s.param()).unwrap_or_default(),
        spaces: super::list_page::space_choices(Arc::unwrap_or_clone(names)),
    };
    respond::fragment(status, &title, &page)
}

/// The comments a reader may read that hold the words of `q`; none looked
/// for when the page cache knows there is no comment at all (learnt beside
/// the first search after each change).
async fn comments_found(
    state: &AppState,
    user: &CurrentUser,
    q: &str,
    space: Option<documents::InSpace>,
) -> Vec<crate::comments::search::CommentHit> {
    if q.trim().is_empty() {
        return Vec::new();
    }
    let epoch = state.cache.epoch();
    let known = state.cache.any_comments();
    if known == Some(false) {
        return Vec::new();
    }
    let who = super::params::actor(user);
    let learn = async {
        if known.is_none() && epoch.is_some() {
            Some(crate::comments::search::any(&state.db).await)
        } else {
            None
        }
    };
    let (found, any) = futures_util::future::join(
        crate::comments::search::search(&state.db, who, q, space),
        learn,
    )
    .await;
    if let Some(Ok(any)) = any {
        state.cache.keep_any_comments(epoch, any);
    }
    found.unwrap_or_else(|e| {
        tracing::warn!(error = %e, "searching comments failed");
        Vec::new()
    })
}

fn encoded(value: &str) -> String {
    percent_encoding::utf8_percent_encode(value, percent_encoding::NON_ALPHANUMERIC).to_string()
}
