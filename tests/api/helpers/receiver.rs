//! A real HTTP receiver for webhooks on loopback: it records each post's
//! headers and body, and can answer 500 to the first few to test retries.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};

/// One post as it arrived.
#[derive(Clone, Debug)]
pub struct Got {
    pub event: String,
    pub delivery: String,
    pub signature: String,
    pub body: String,
}

#[derive(Default)]
struct State {
    got: Mutex<Vec<Got>>,
    /// Posts answered 500 before any is taken.
    failing: AtomicUsize,
    /// Every post that arrived, failed ones too.
    arrived: AtomicUsize,
}

pub struct Receiver {
    pub url: String,
    state: Arc<State>,
}

fn header(req: &HttpRequest, name: &str) -> String {
    req.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

async fn take(req: HttpRequest, body: web::Bytes, state: web::Data<Arc<State>>) -> HttpResponse {
    state.arrived.fetch_add(1, Ordering::SeqCst);
    let failing = state.failing.load(Ordering::SeqCst);
    if failing > 0 {
        state.failing.store(failing - 1, Ordering::SeqCst);
        return HttpResponse::InternalServerError().body("not now");
    }
    state.got.lock().unwrap().push(Got {
        event: header(&req, "quire-event"),
        delivery: header(&req, "quire-delivery"),
        signature: header(&req, "quire-signature"),
        body: String::from_utf8_lossy(&body).into_owned(),
    });
    HttpResponse::Ok().body("thanks")
}

impl Receiver {
    /// Listens on 127.0.0.1 at a free port; answers 500 to the first `failing` posts.
    pub async fn start(failing: usize) -> Self {
        let state = Arc::new(State::default());
        state.failing.store(failing, Ordering::SeqCst);
        let data = web::Data::new(state.clone());
        let server = HttpServer::new(move || {
            App::new()
                .app_data(data.clone())
                .route("/hook", web::post().to(take))
        })
        .workers(1)
        .bind("127.0.0.1:0")
        .unwrap();
        let port = server.addrs()[0].port();
        tokio::spawn(server.run());
        Self {
            url: format!("http://127.0.0.1:{port}/hook"),
            state,
        }
    }

    pub fn got(&self) -> Vec<Got> {
        self.state.got.lock().unwrap().clone()
    }

    pub fn arrived(&self) -> usize {
        self.state.arrived.load(Ordering::SeqCst)
    }

    /// Waits (up to 15 s) until `n` posts were taken; what was taken.
    pub async fn wait_for(&self, n: usize) -> Vec<Got> {
        for _ in 0..300 {
            if self.got().len() >= n {
                return self.got();
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("{n} posts expected, got {:#?}", self.got());
    }
}
