//! Full-text search that accepts any input. The user's words are never passed to
//! FTS5 as syntax: they are read as quire's query (`search_terms`) and turned
//! into FTS5 expressions of quoted words (`search_fts`), so quotes, `*`,
//! `NEAR`, column filters and SQL fragments are just text to look for.

use super::search_fts::{Translated, translate};
use super::search_query::{CLOSE, Found, OPEN, SearchHit, mark_titles};
use super::search_scope::{Scope, scoped};
use super::search_terms::{Query, parse};
use super::word_forms::{self, Forms};
use super::{Caller, access, did_you_mean, snippet};
use crate::db::search::queue;
use crate::db::search::sqlite;
use crate::db::{Backend, Db};

async fn run(
    pool: &impl crate::db::Conn,
    expr: &str,
    (limit, viewer): (i64, (Option<i64>, &Scope)),
    (needles, found): (&[String], &Found),
) -> Result<Vec<SearchHit>, crate::db::Error> {
    let mut hits: Vec<SearchHit> =
        sqlite::ranked(pool, expr, (limit, RANKED_AT_MOST), viewer).await?;
    // A hit the title pass found is not cut again.
    hits.retain(|h| !found.hits.iter().any(|f| f.id == h.id));
    super::search_query::fill(pool, &mut hits, needles).await;
    Ok(hits)
}

/// Ranking costs time per match and per occurrence: every match of a word found
/// in most documents took hundreds of milliseconds at 100,000 documents, and
/// ranking 2,000 matches of 64 KB documents still took ~15 ms. Only the most
/// recently created matches are ranked (benches/search.rs, benches/budget.rs).
pub(super) const RANKED_AT_MOST: i64 = 500;

/// Candidates of the trigram index read a round at a time: most hold the
/// sequence itself, so one round usually fills a page. Each that may hold it
/// comes with its whole text (at most 256 KiB), which bounds a round's memory.
const CANDIDATES_PER_ROUND: i64 = 50;

/// Hits inside words, for the `wanted` documents not in `found` yet: candidates
/// holding every trigram, newest first, kept when their title or text holds
/// each substring (case and accents folded); title hits first. At most
/// `RANKED_AT_MOST` candidates are read.
async fn inside_words(
    pool: &impl crate::db::Conn,
    (expr, t): (&str, &Translated),
    (limit, viewer): (i64, (Option<i64>, &Scope)),
    found: &Found,
) -> Result<Vec<SearchHit>, crate::db::Error> {
    let wanted = (limit as usize).saturating_sub(found.hits.len());
    let substrings: Vec<String> = t.substrings.iter().map(|s| snippet::folded(s)).collect();
    let unwanted: Vec<String> = t.unwanted.iter().map(|s| snippet::folded(s)).collect();
    let (mut in_title, mut in_text) = (Vec::new(), Vec::new());
    // SQLite looks at each text for them first where that tells the same as
    // folding it: ASCII letters, digits and spaces, case aside.
    let plain_ascii = |s: &String| s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b' ');
    let each: &[String] = match substrings.iter().all(plain_ascii) {
        true => &substrings,
        false => &[],
    };
    let not: Vec<&str> = found.hits.iter().map(|h| h.id.as_str()).collect();
    let text_of = sqlite::Wanted {
        each,
        not: &not,
        unwanted: t.unwanted_words.as_deref(),
    };
    let (mut below, mut read) = (i64::MAX, 0);
    while in_title.len() + in_text.len() < wanted && read < RANKED_AT_MOST {
        // With words unwanted, one round: each round looks up every unwanted
        // document again, and those come without their text anyway.
        let per_round = match t.unwanted_words {
            Some(_) => RANKED_AT_MOST,
            None => CANDIDATES_PER_ROUND,
        };
        let round = per_round.min(RANKED_AT_MOST - read);
        let rows = sqlite::candidates(pool, expr, (round, below), viewer, &text_of).await?;
        read += rows.len() as i64;
        let last_round = (rows.len() as i64) < round;
        for c in rows {
            below = c.seq;
            // No text: found already, or SQLite saw it cannot hold them.
            let Some(body) = c.body else {
                continue;
            };
            // The title folded once; the text is looked at as it is, folded
            // only near the characters that fold into the substrings.
            let title_text = snippet::folded(&c.title);
            let title = substrings.iter().all(|s| title_text.contains(s.as_str()));
            if !title && !body_holds(&body, &title_text, &substrings) {
                continue;
            }
            if unwanted
                .iter()
                .any(|u| title_text.contains(u.as_str()) || snippet::holds(&body, u))
            {
                continue;
            }
            let hit = SearchHit {
                snippet: snippet::around(&body, &t.needles, OPEN, CLOSE),
                id: c.id,
                title: c.title,
                updated_at: c.updated_at,
                ..SearchHit::default()
            };
            if title { &mut in_title } else { &mut in_text }.push(hit);
            if in_title.len() + in_text.len() == wanted {
                break;
            }
        }
        if last_round {
            break;
        }
    }
    in_title.append(&mut in_text);
    Ok(in_title)
}

/// A search of filters (`tag:garden`, `in:Projects`) or exclusions (`-draft`)
/// alone: what they narrow the list to, last changed first, without snippets.
async fn everything_in(db: &Db, scope: &Scope, q: &Query, limit: i64, actor: Caller<'_>) -> Found {
    let viewer = access::viewer(actor);
    let unwanted = match db.backend {
        Backend::Sqlite => translate(&q.unwanted(), &Forms::default()).words,
        Backend::Postgres => super::search_pg::tsquery(&q.unwanted(), &Forms::default()),
    };
    let rows = crate::db::search::listed(db, limit, (viewer, scope), unwanted.as_deref()).await;
    let mut found = Found::default();
    found.take(rows, limit);
    found
}

/// Whether each of `substrings` (folded) is in the title (folded) or the body.
fn body_holds(body: &str, title: &str, substrings: &[String]) -> bool {
    substrings
        .iter()
        .all(|s| title.contains(s.as_str()) || snippet::holds(body, s))
}

/// Title hits first, then whole-word hits in the text, then other forms of
/// the words, then hits inside words, among the documents `actor` may read.
pub async fn search(db: &Db, input: &str, limit: i64, actor: Caller<'_>) -> Found {
    search_in(db, (input, None), limit, actor).await
}

/// Fewer hits than this and the search offers other words for misspelt ones.
const FEW: usize = 3;

/// `search`, narrowed to one space when `space` names one.
pub async fn search_in(
    db: &Db,
    (input, space): (&str, Option<super::InSpace>),
    limit: i64,
    actor: Caller<'_>,
) -> Found {
    let found = search_without_suggestion(db, (input, space), limit, actor).await;
    suggested(db, input, found, actor).await
}

/// The first hits as the person types (the header's live results): no
/// "Did you mean", which a word half typed would ask for at each key.
pub async fn search_as_typed(db: &Db, input: &str, limit: i64, actor: Caller<'_>) -> Found {
    search_without_suggestion(db, (input, None), limit, actor).await
}

/// `found` with "Did you mean" when it holds little.
async fn suggested(db: &Db, input: &str, mut found: Found, actor: Caller<'_>) -> Found {
    if found.hits.len() < FEW && !found.failed {
        let (_, words) = scoped(input);
        let q = parse(&words);
        if !q.is_empty() {
            found.suggestion = did_you_mean::suggest(db, input, &q, actor).await;
        }
    }
    found
}

async fn search_without_suggestion(
    db: &Db,
    (input, space): (&str, Option<super::InSpace>),
    limit: i64,
    actor: Caller<'_>,
) -> Found {
    let (mut scope, words) = scoped(input);
    scope.space = space;
    let q = parse(&words);
    if q.is_empty() {
        if scope.is_empty() && q.none.is_empty() {
            return Found::default();
        }
        // Words left out are looked up in the index too.
        let catching_up = !q.none.is_empty() && catching_up(db).await;
        let mut found = everything_in(db, &scope, &q, limit, actor).await;
        found.catching_up = catching_up;
        return found;
    }
    let catching_up = catching_up(db).await;
    let mut found = match db.backend {
        Backend::Postgres => super::search_pg::search(db, (&q, &scope), limit, actor).await,
        Backend::Sqlite => search_sqlite(db, (&q, &scope), limit, actor).await,
    };
    found.catching_up = catching_up;
    if !found.is_full(limit) {
        in_files(db, (&q, &scope), limit, actor, &mut found).await;
    }
    found
}

/// Whether the search index still lags the saves: the user's own saves of a
/// moment ago are found, as the indexer is given up to a second to take them in.
async fn catching_up(db: &Db) -> bool {
    match queue::caught_up(db).await {
        Ok(current) => !current,
        Err(e) => {
            tracing::warn!(error = %e, "could not tell whether the search index is current");
            true
        }
    }
}

/// Whether a document `actor` may read holds `word` (letters only) whole.
pub(super) async fn reads_word(db: &Db, word: &str, actor: Caller<'_>) -> bool {
    let viewer = (access::viewer(actor), &Scope::default());
    let found: Result<Vec<SearchHit>, _> = match db.backend {
        Backend::Sqlite => {
            let expr = format!("\"{word}\"");
            sqlite::ranked(&db.read, &expr, (1, RANKED_AT_MOST), viewer).await
        }
        Backend::Postgres => super::search_pg::holding(db, word, viewer).await,
    };
    found.is_ok_and(|hits| !hits.is_empty())
}

async fn search_sqlite(
    db: &Db,
    (q, scope): (&Query, &Scope),
    limit: i64,
    actor: Caller<'_>,
) -> Found {
    let mut t = translate(q, &Forms::default());
    let page = (limit, (access::viewer(actor), scope));
    let mut found = Found::default();
    for expr in [&t.titles, &t.words].into_iter().flatten() {
        if !found.is_full(limit) {
            let hits = run(&db.read, expr, page, (&t.needles, &found)).await;
            found.take(hits, limit);
        }
    }
    if !found.is_full(limit) {
        let forms = word_forms::forms(db, q).await;
        let with_forms = translate(q, &forms);
        if let Some(expr) = &with_forms.forms {
            let hits = run(&db.read, expr, page, (&with_forms.needles, &found)).await;
            found.take(hits, limit);
            t.needles = with_forms.needles;
        }
    }
    if let Some(expr) = &t.trigrams
        && !found.is_full(limit)
    {
        let more = inside_words(&db.read, (expr, &t), page, &found).await;
        found.take(more, limit);
    }
    mark_titles(&mut found.hits, &t.needles);
    found
}

/// Documents whose attached files hold the words, after those whose own text
/// does: each hit names the file and the page. Not for words in titles only,
/// nor CJK (the files' index has neither column).
async fn in_files(
    db: &Db,
    (q, scope): (&Query, &Scope),
    limit: i64,
    actor: Caller<'_>,
    found: &mut Found,
) {
    if q.wanted().chain(&q.none).any(|t| t.title || t.has_cjk()) {
        return;
    }
    let expr = match db.backend {
        Backend::Sqlite => translate(q, &Forms::default()).words,
        Backend::Postgres => super::search_pg::tsquery(q, &Forms::default()),
    };
    let Some(expr) = expr else {
        return;
    };
    let needles = super::search_terms::needles(q);
    let viewer = (access::viewer(actor), scope);
    let pages = crate::db::search::attachments::found(db, &expr, limit, viewer).await;
    let hits = pages.map(|pages| {
        pages
            .into_iter()
            .map(|p| SearchHit {
                snippet: snippet::around(&p.text, &needles, OPEN, CLOSE),
                id: p.id,
                title: p.title,
                updated_at: p.updated_at,
                file: p.file,
                page: p.page,
                ..SearchHit::default()
            })
            .collect()
    });
    found.take(hits, limit);
}
