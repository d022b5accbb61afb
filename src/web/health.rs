//! Probes for supervisors and load balancers.

use actix_web::{HttpResponse, web};

use super::AppState;

/// The process is up and serving HTTP.
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .body("ok")
}

/// The database answers, every migration is applied, and writes reach the disk
/// (after a write failed on a full or read-only disk, not until one succeeds).
pub async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    if let Some(fault) = state.db.storage_refused() {
        return HttpResponse::ServiceUnavailable()
            .content_type("text/plain; charset=utf-8")
            .body(format!("database not usable: {}", fault.what));
    }
    if !state.db.is_ready().await {
        return HttpResponse::ServiceUnavailable()
            .content_type("text/plain; charset=utf-8")
            .body("database not ready");
    }
    if let Some(fault) = state.db.writer_fault().await {
        return HttpResponse::ServiceUnavailable()
            .content_type("text/plain; charset=utf-8")
            .body(format!("database not writable: {}", fault.what));
    }
    HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .body("ready")
}
