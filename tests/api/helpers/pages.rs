//! What tests read out of quire's pages, and a document of someone else's.

use quire::accounts;

use super::{PASSWORD, TestApp, location, sign_in};

/// The text a page shows inside `<textarea>`, where the user's words come back.
pub fn textareas(html: &str) -> Vec<String> {
    html.split("<textarea")
        .skip(1)
        .filter_map(|part| {
            let start = part.find('>')? + 1;
            let end = part.find("</textarea>")?;
            Some(unescape(part[start..end].trim_start_matches('\n')))
        })
        .collect()
}

pub fn unescape(s: &str) -> String {
    s.replace("&#60;", "<")
        .replace("&#62;", ">")
        .replace("&#34;", "\"")
        .replace("&#39;", "'")
        .replace("&#38;", "&")
}

/// A second user, signed in (client, CSRF token), with a private document
/// made from the editor's form `fields` (title, body, ...): its id.
pub async fn someone_elses_private_document(
    app: &TestApp,
    username: &str,
    fields: &[(&str, &str)],
) -> (reqwest::Client, String, String) {
    accounts::create_user(&app.db, username, PASSWORD, false)
        .await
        .unwrap();
    let (client, csrf) = sign_in(&app.address, username, PASSWORD).await;
    let mut form = fields.to_vec();
    form.push(("csrf", &csrf));
    form.push(("space", "personal"));
    let res = client
        .post(format!("{}/docs", app.address))
        .form(&form)
        .send()
        .await
        .unwrap();
    let path = location(&res);
    let id = path
        .trim_start_matches("/d/")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    let res = client
        .post(format!("{}/d/{id}/share", app.address))
        .form(&[
            ("action", "visibility"),
            ("visibility", "private"),
            ("csrf", &csrf),
        ])
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success() || res.status().is_redirection());
    (client, csrf, id)
}

/// The titles of the hits on a search page, in order.
pub fn hit_titles(page: &str) -> Vec<String> {
    let Some(from) = page.find(r#"<ol class="hits">"#) else {
        return Vec::new();
    };
    page[from..]
        .split("</ol>")
        .next()
        .unwrap()
        .split("<li>")
        .skip(1)
        // Each hit's first link is its document (a second, its file).
        .filter_map(|li| li.split(r#"<a href="/d/"#).nth(1))
        .map(|a| {
            let text = a.split_once('>').unwrap().1.split("</a>").next().unwrap();
            text.replace("<mark>", "").replace("</mark>", "")
        })
        .collect()
}

/// The search page `client` gets for `q` (answered 200).
pub async fn search_page(client: &reqwest::Client, app: &TestApp, q: &str) -> String {
    let res = client
        .get(format!("{}/search", app.address))
        .query(&[("q", q)])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "{q:?}");
    res.text().await.unwrap()
}
