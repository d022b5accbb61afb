//! Response builders for pages: a handler renders its partial into a response
//! (`fragment`, `rendered`, or `message` for a heading and a line of text), and
//! the layout middleware (`middleware::layout`) decides whether it goes out alone
//! (htmx) or inside the layout (a normal page load).

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use askama::Template;

/// A rendered partial waiting for the layout middleware to finish the response.
pub struct Fragment {
    pub title: String,
    /// UTF-8 HTML.
    pub html: Vec<u8>,
}

/// Builds a response whose body the layout middleware fills in.
pub fn fragment(status: StatusCode, title: &str, partial: &impl Template) -> HttpResponse {
    rendered(status, title.to_owned(), partial.render())
}

/// A response for a partial already rendered (or that failed to).
pub fn rendered(
    status: StatusCode,
    title: String,
    html: Result<impl Into<Vec<u8>>, askama::Error>,
) -> HttpResponse {
    match html {
        Ok(html) => {
            let mut res = HttpResponse::build(status).finish();
            res.extensions_mut().insert(Fragment {
                title,
                html: html.into(),
            });
            res
        }
        Err(e) => {
            tracing::error!(error = %e, "template failed to render");
            HttpResponse::InternalServerError()
                .content_type("text/plain; charset=utf-8")
                .body("quire could not draw this page; the server log has the details.")
        }
    }
}

#[derive(Template)]
#[template(path = "message_partial.html")]
pub struct MessagePartial<'a> {
    pub heading: &'a str,
    pub text: &'a str,
}

/// A page that is only a heading and a line of text (errors, refusals).
pub fn message(status: StatusCode, heading: &str, text: &str) -> HttpResponse {
    fragment(status, heading, &MessagePartial { heading, text })
}
