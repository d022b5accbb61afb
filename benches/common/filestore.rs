//! The baseline for the write bench: a file-per-document store behind the same
//! HTTP routes quire uses (`POST /docs`, `POST /d/{id}`, `POST /d/{id}/delete`),
//! each write to a temporary file and a rename, with or without fsync of the file
//! and its folder. Versions are checked like quire checks them (409 when stale).

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use actix_web::{App, HttpResponse, HttpServer, web};

struct Store {
    root: PathBuf,
    fsync: bool,
    next: AtomicU64,
}

type Form = web::Form<HashMap<String, String>>;

impl Store {
    fn doc(&self, id: &str) -> PathBuf {
        self.root.join("docs").join(format!("{id}.md"))
    }

    /// Write-to-temp, fsync, rename, fsync the folder: the crash-safe way.
    fn put(&self, id: &str, version: u64, title: &str, body: &str) -> std::io::Result<()> {
        let tmp = self.root.join("tmp").join(format!(
            "{id}.{}",
            self.next.fetch_add(1, Ordering::Relaxed)
        ));
        let mut f = File::create(&tmp)?;
        write!(f, "{version}\n{title}\n{body}")?;
        if self.fsync {
            f.sync_all()?;
        }
        fs::rename(&tmp, self.doc(id))?;
        self.sync_dir(&self.root.join("docs"))
    }

    fn sync_dir(&self, dir: &Path) -> std::io::Result<()> {
        if self.fsync {
            File::open(dir)?.sync_all()?;
        }
        Ok(())
    }

    fn version(&self, id: &str) -> std::io::Result<u64> {
        let text = fs::read_to_string(self.doc(id))?;
        Ok(text
            .split('\n')
            .next()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0))
    }
}

fn field<'a>(form: &'a Form, name: &str) -> &'a str {
    form.get(name).map_or("", String::as_str)
}

fn see_other(to: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header(("Location", to.to_owned()))
        .finish()
}

async fn create(store: web::Data<Store>, form: Form) -> HttpResponse {
    let id = format!("{:016x}", store.next.fetch_add(1, Ordering::Relaxed));
    let done = web::block(move || {
        store.put(&id, 1, field(&form, "title"), field(&form, "body"))?;
        Ok::<_, std::io::Error>(id)
    })
    .await;
    match done {
        Ok(Ok(id)) => see_other(&format!("/d/{id}")),
        _ => HttpResponse::InternalServerError().finish(),
    }
}

async fn update(store: web::Data<Store>, id: web::Path<String>, form: Form) -> HttpResponse {
    let done = web::block(move || {
        let base: u64 = field(&form, "version").parse().unwrap_or(0);
        if store.version(&id)? != base {
            return Ok(None);
        }
        store.put(&id, base + 1, field(&form, "title"), field(&form, "body"))?;
        Ok::<_, std::io::Error>(Some(id.into_inner()))
    })
    .await;
    match done {
        Ok(Ok(Some(id))) => see_other(&format!("/d/{id}")),
        Ok(Ok(None)) => HttpResponse::Conflict().finish(),
        _ => HttpResponse::InternalServerError().finish(),
    }
}

async fn delete(store: web::Data<Store>, id: web::Path<String>) -> HttpResponse {
    let done = web::block(move || {
        fs::rename(
            store.doc(&id),
            store.root.join("trash").join(format!("{id}.md")),
        )?;
        store.sync_dir(&store.root.join("docs"))?;
        store.sync_dir(&store.root.join("trash"))
    })
    .await;
    match done {
        Ok(Ok(())) => see_other("/"),
        _ => HttpResponse::InternalServerError().finish(),
    }
}

/// Starts the store over `root` on a random port; returns its address.
pub fn start(root: &Path, fsync: bool) -> String {
    for sub in ["docs", "tmp", "trash"] {
        fs::create_dir_all(root.join(sub)).expect("file store folders");
    }
    let store = web::Data::new(Store {
        root: root.to_path_buf(),
        fsync,
        next: AtomicU64::new(1),
    });
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = format!("http://{}", listener.local_addr().expect("address"));
    let server = HttpServer::new(move || {
        App::new()
            .app_data(store.clone())
            .route("/docs", web::post().to(create))
            .route("/d/{id}", web::post().to(update))
            .route("/d/{id}/delete", web::post().to(delete))
    })
    .workers(2)
    .listen(listener)
    .expect("listen")
    .run();
    tokio::spawn(server);
    address
}
