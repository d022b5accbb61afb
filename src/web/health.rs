//! Probes for supervisors and load balancers.

use actix_web::{HttpResponse, web};

use super::AppState;

/// The process is up and serving HTTP.
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .body("ok")
}

/// The database answers and every migration is applied.
pub async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    if state.db.is_ready().await {
        HttpResponse::Ok()
            .content_type("text/plain; charset=utf-8")
            .body("ready")
    } else {
        HttpResponse::ServiceUnavailable()
            .content_type("text/plain; charset=utf-8")
            .body("database not ready")
    }
}
