//! `/webhooks`: the hooks a person may manage (an admin: all; a space
//! manager: their spaces'), a form to add one, and each hook's page with its
//! secret, its latest deliveries (status, answer time, tries) and a way to
//! send one again.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use super::error::AppError;
use super::form::FormData;
use super::message::Message;
use super::middleware::session::CurrentUser;
use super::spaces::manager;
use super::when::fmt_time;
use super::{AppState, done, respond};
use crate::documents::DocError;
use crate::webhooks::{self, EVENTS, Hook};

/// A delivery as a hook's page lists it.
pub struct DeliveryView {
    pub id: i64,
    pub event: String,
    pub when: String,
    /// "delivered", "trying again at …", "given up".
    pub state: String,
    pub ok: bool,
    /// "200 in 12 ms", or "no answer".
    pub answer: String,
    /// "1 try", "3 tries".
    pub tries: String,
    pub error: String,
}

#[derive(Template)]
#[template(path = "webhooks/list_partial.html")]
struct ListPartial {
    hooks: Vec<Hook>,
    events: &'static [(&'static str, &'static str)],
    /// The spaces a hook may be for: (value, name); "" is every space.
    spaces: Vec<(String, String)>,
    error: Option<String>,
    url: String,
}

#[derive(Template)]
#[template(path = "webhooks/hook_partial.html")]
struct HookPartial {
    hook: Hook,
    deliveries: Vec<DeliveryView>,
}

/// The spaces `user` may make a hook for: every space (admins), and each
/// space they manage.
async fn spaces_for(
    state: &AppState,
    user: &CurrentUser,
) -> Result<Vec<(String, String)>, AppError> {
    let m = manager(user);
    let mut out = Vec::new();
    if m.is_admin {
        out.push((String::new(), "Every space".to_owned()));
    }
    for s in crate::teams::spaces::list(&state.db, m).await? {
        if crate::teams::spaces::may_manage(m, &s) {
            out.push((s.id.to_string(), s.name));
        }
    }
    Ok(out)
}

async fn list_page(
    state: &AppState,
    user: &CurrentUser,
    status: StatusCode,
    error: Option<String>,
    url: String,
) -> Result<HttpResponse, AppError> {
    let spaces = spaces_for(state, user).await?;
    if spaces.is_empty() {
        return Err(AppError::Forbidden(
            "Webhooks are made by administrators and by the managers of a space.".into(),
        ));
    }
    let hooks = webhooks::list(&state.db, manager(user)).await?;
    let page = ListPartial {
        hooks,
        events: EVENTS,
        spaces,
        error,
        url,
    };
    Ok(respond::fragment(status, "Webhooks", &page))
}

pub async fn hooks_show(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<HttpResponse, AppError> {
    list_page(&state, &user, StatusCode::OK, None, String::new()).await
}

pub async fn hook_create(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let url = form.get("url").unwrap_or_default().to_owned();
    let asked: Vec<&str> = EVENTS
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| form.get(&format!("event:{name}")).is_some())
        .collect();
    let space = match form.get("space").map(str::trim).unwrap_or_default() {
        "" => None,
        s => Some(
            s.parse()
                .map_err(|_| AppError::BadRequest("Choose a space.".into()))?,
        ),
    };
    match webhooks::create(&state.db, manager(&user), &url, &asked, space).await {
        Ok(id) => Ok(done(&req, &format!("/webhooks/{id}"), Message::HookSaved)),
        Err(DocError::Invalid(message)) => {
            list_page(
                &state,
                &user,
                StatusCode::UNPROCESSABLE_ENTITY,
                Some(message),
                url,
            )
            .await
        }
        Err(e) => Err(e.into()),
    }
}

fn view(d: webhooks::Delivery) -> DeliveryView {
    let state = match (d.sent_at, d.next_try_at) {
        (Some(at), _) => format!("delivered {}", fmt_time(at)),
        (None, Some(at)) if d.tries == 0 => format!("waiting (due {})", fmt_time(at)),
        (None, Some(at)) => format!("trying again {}", fmt_time(at)),
        (None, None) => "given up".to_owned(),
    };
    DeliveryView {
        id: d.id,
        event: d.event,
        when: fmt_time(d.created_at),
        ok: d.sent_at.is_some(),
        state,
        answer: match (d.status, d.answer_ms) {
            (Some(status), Some(ms)) => format!("{status} in {ms} ms"),
            (Some(status), None) => status.to_string(),
            _ => "no answer".to_owned(),
        },
        tries: super::counted::counted(d.tries.max(0) as u64, "try", "tries"),
        error: d.error.unwrap_or_default(),
    }
}

pub async fn hook_show(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let m = manager(&user);
    let hook = webhooks::find(&state.db, m, id).await?;
    let deliveries = webhooks::deliveries(&state.db, m, id).await?;
    let page = HookPartial {
        hook,
        deliveries: deliveries.into_iter().map(view).collect(),
    };
    Ok(respond::fragment(StatusCode::OK, "Webhook", &page))
}

pub async fn hook_delete(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    webhooks::delete(&state.db, manager(&user), id.into_inner()).await?;
    Ok(done(&req, "/webhooks", Message::HookRemoved))
}

pub async fn hook_resend(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<i64>,
    form: FormData,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let delivery = form
        .require("delivery")?
        .trim()
        .parse()
        .map_err(|_| AppError::BadRequest("Choose a delivery to send again.".into()))?;
    webhooks::resend(&state.db, manager(&user), id, delivery).await?;
    Ok(done(&req, &format!("/webhooks/{id}"), Message::HookResent))
}
