//! The messages of watching, the inbox, the notice settings, comments and templates,
//! compared with and without JavaScript (`flash.rs`).

use super::{Shown, post, two_revised};
use reqwest::StatusCode;

use crate::helpers::TestApp;

/// Watching, the inbox and the notice settings.
pub(super) async fn notices(app: &TestApp, shown: &mut Shown) {
    let [a, b] = two_revised(app, "Watched").await;
    for watch in ["on", "off"] {
        let fields = [("watch", watch)];
        shown
            .compare(
                app,
                post(format!("/d/{a}/watch"), &fields),
                post(format!("/d/{b}/watch"), &fields),
            )
            .await;
    }
    let mut ids = Vec::new();
    for doc in [&a, &b] {
        let id: i64 = quire::db::query_scalar(
            "INSERT INTO notices (user_id, kind, doc_seq, actor, count, created_at, updated_at)
             SELECT 1, 'shared', seq, 'bob', 1, 0, 0 FROM documents WHERE id = $1 RETURNING id",
        )
        .bind(doc.as_str())
        .fetch_one(&app.db.write)
        .await
        .unwrap();
        ids.push(id);
    }
    shown
        .compare(
            app,
            post(format!("/inbox/{}/read", ids[0]), &[]),
            post(format!("/inbox/{}/read", ids[1]), &[]),
        )
        .await;
    shown
        .compare(
            app,
            post("/inbox/read-all", &[]),
            post("/inbox/read-all", &[]),
        )
        .await;
    let on = [("watch_own", "on")];
    shown
        .compare(
            app,
            post("/account/notices", &on),
            post("/account/notices", &on),
        )
        .await;
    let off = "/account/feed/revoke";
    shown.compare(app, post(off, &[]), post(off, &[])).await;
    let mail = [("email", "alice@example.org"), ("every", "daily")];
    shown
        .compare(
            app,
            post("/account/mail", &mail),
            post("/account/mail", &mail),
        )
        .await;
}

/// Comments: added, changed, resolved, opened again, deleted.
pub(super) async fn comments(app: &TestApp, shown: &mut Shown) {
    let [a, b] = two_revised(app, "Discussed").await;
    let say = [("body", "A thought.")];
    shown
        .compare(
            app,
            post(format!("/d/{a}/comments"), &say),
            post(format!("/d/{b}/comments"), &say),
        )
        .await;
    let mut ids = Vec::new();
    for doc in [&a, &b] {
        let id: i64 = quire::db::query_scalar(
            "SELECT c.id FROM comments c JOIN documents d ON d.seq = c.doc_seq WHERE d.id = $1",
        )
        .bind(doc.as_str())
        .fetch_one(&app.db.read)
        .await
        .unwrap();
        ids.push(id);
    }
    let (one, two) = (
        format!("/d/{a}/comments/{}", ids[0]),
        format!("/d/{b}/comments/{}", ids[1]),
    );
    let changed = [("body", "A better thought.")];
    shown
        .compare(app, post(&one, &changed), post(&two, &changed))
        .await;
    for resolved in ["1", "0"] {
        let fields = [("resolved", resolved)];
        shown
            .compare(
                app,
                post(format!("{one}/resolve"), &fields),
                post(format!("{two}/resolve"), &fields),
            )
            .await;
    }
    shown
        .compare(
            app,
            post(format!("{one}/delete"), &[]),
            post(format!("{two}/delete"), &[]),
        )
        .await;
}

/// Webhooks: added, sent again, removed.
pub(super) async fn webhooks(app: &TestApp, shown: &mut Shown) {
    let hook = [
        ("url", "https://ci.example.org/hook"),
        ("space", ""),
        ("event:document.created", "on"),
    ];
    shown
        .compare(app, post("/webhooks", &hook), post("/webhooks", &hook))
        .await;
    let ids: Vec<i64> = quire::db::query_scalar("SELECT id FROM webhooks ORDER BY id")
        .fetch_all(&app.db.read)
        .await
        .unwrap();
    let mut deliveries = Vec::new();
    for id in &ids {
        let d: i64 = quire::db::query_scalar(
            "INSERT INTO webhook_deliveries (hook_id, event, body, created_at)
             VALUES ($1, 'document.created', '{}', 0) RETURNING id",
        )
        .bind(id)
        .fetch_one(&app.db.write)
        .await
        .unwrap();
        deliveries.push(d.to_string());
    }
    let (a, b) = (
        format!("/webhooks/{}", ids[0]),
        format!("/webhooks/{}", ids[1]),
    );
    shown
        .compare(
            app,
            post(
                format!("{a}/resend"),
                &[("delivery", deliveries[0].as_str())],
            ),
            post(
                format!("{b}/resend"),
                &[("delivery", deliveries[1].as_str())],
            ),
        )
        .await;
    shown
        .compare(
            app,
            post(format!("{a}/delete"), &[]),
            post(format!("{b}/delete"), &[]),
        )
        .await;
}

/// Suggested edits: accepted, declined (made by the admin on documents alike).
pub(super) async fn suggestions(app: &TestApp, shown: &mut Shown) {
    let mut ids = Vec::new();
    for _ in 0..4 {
        let id = app.create_document("Suggested", "one\ntwo\n").await;
        let res = app
            .post_form(
                &format!("/d/{id}/suggest"),
                &[
                    ("base", "1"),
                    ("title", "Suggested"),
                    ("body", "one\nTWO\n"),
                ],
            )
            .await;
        assert_eq!(res.status(), StatusCode::SEE_OTHER);
        let to = crate::helpers::location(&res);
        let sid = to
            .split('/')
            .nth(4)
            .unwrap()
            .split('?')
            .next()
            .unwrap()
            .to_owned();
        ids.push((id, sid));
    }
    let (a, b) = (&ids[0].0, &ids[1].0);
    let again = [
        ("base", "1"),
        ("title", "Suggested"),
        ("body", "ONE\ntwo\n"),
    ];
    shown
        .compare(
            app,
            post(format!("/d/{a}/suggest"), &again),
            post(format!("/d/{b}/suggest"), &again),
        )
        .await;
    let path = |i: usize, what: &str| format!("/d/{}/suggestions/{}/{what}", ids[i].0, ids[i].1);
    shown
        .compare(
            app,
            post(path(0, "accept"), &[]),
            post(path(1, "accept"), &[]),
        )
        .await;
    let why = [("answer", "Not now.")];
    shown
        .compare(
            app,
            post(path(2, "decline"), &why),
            post(path(3, "decline"), &why),
        )
        .await;
}

/// Templates: marked and unmarked, named for a space and no longer.
pub(super) async fn templates(app: &TestApp, shown: &mut Shown) {
    let team = crate::helpers::team_space(app).await;
    let a = crate::helpers::create_in(app, "Template A", "{{date}}", &team).await;
    let b = crate::helpers::create_in(app, "Template B", "{{date}}", &team).await;
    for on in ["on", "off", "on"] {
        let mark = [("template", on)];
        shown
            .compare(
                app,
                post(format!("/d/{a}/template"), &mark),
                post(format!("/d/{b}/template"), &mark),
            )
            .await;
    }
    for on in ["on", "off"] {
        let named = [("folder", ""), ("default", on)];
        shown
            .compare(
                app,
                post(format!("/d/{a}/template/default"), &named),
                post(format!("/d/{b}/template/default"), &named),
            )
            .await;
    }
}
