//! Middleware: no request touches a database quire cannot use just now (see
//! `Db::storage_refused`); it is answered 503 with why, and quire stays up.
//! Static files and the liveness probe need no database and pass; `/readyz`
//! says it in its own words.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{ResponseError, web};

use crate::web::AppState;
use crate::web::error::AppError;

pub async fn wrap(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let path = req.path();
    let exempt = path.starts_with("/static/") || path == "/healthz" || path == "/readyz";
    if !exempt
        && let Some(state) = req.app_data::<web::Data<AppState>>()
        && let Some(fault) = state.db.storage_refused()
    {
        let answer = AppError::Unavailable(fault.what).error_response();
        return Ok(req.into_response(answer));
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}
