//! Import and export on the web: administrators upload a zip to import (streamed
//! to disk, size-limited); anyone signed in downloads a zip of what they may read.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use actix_multipart::Multipart;
use actix_web::http::{StatusCode, header};
use actix_web::{HttpResponse, web};
use askama::Template;
use futures_util::StreamExt;
use serde::Deserialize;

use super::AppState;
use super::admin::Admin;
use super::middleware::session::CurrentUser;
use super::respond;
use crate::documents::{group, human_size};
use crate::transfer::export::{ExportOptions, export};
use crate::transfer::import::{ImportOptions, ImportReport, import};
use crate::web::error::AppError;

/// Skipped files listed on the result page; the rest are counted.
const LIST_SKIPPED: usize = 200;

pub struct ResultView {
    pub imported: u64,
    pub revisions: u64,
    pub attached: u64,
    pub comments: u64,
    pub seconds: String,
    pub skipped: Vec<(String, String)>,
    pub skipped_count: usize,
    pub ignored: usize,
    pub notes: Vec<String>,
}

#[derive(Template)]
#[template(path = "admin/import_partial.html")]
struct ImportPartial<'a> {
    limit: String,
    error: Option<&'a str>,
    result: Option<ResultView>,
    /// Where the documents may go: (parameter, name), and the one offered.
    spaces: Vec<(String, String)>,
    space: String,
}

async fn page(
    state: &AppState,
    admin: &Admin,
    status: StatusCode,
    error: Option<&str>,
    result: Option<ResultView>,
) -> HttpResponse {
    let limit = human_size(state.config.max_import_bytes);
    let user = CurrentUser(admin.0.clone());
    let writable = super::spaces::writable(state, &user)
        .await
        .unwrap_or_default();
    // The team's space first: an import is most often the team's documents.
    let space = match crate::teams::space_for_new(&state.db, admin.0.id, None).await {
        Ok(Some(id)) => id.to_string(),
        _ => "personal".to_owned(),
    };
    let mut spaces = vec![
        ("personal".to_owned(), "Personal (only you)".to_owned()),
        (
            "own".to_owned(),
            "Each its own: a quire export's spaces, else each top folder a space".to_owned(),
        ),
    ];
    spaces.extend(
        writable
            .into_iter()
            .map(|(id, name)| (id.to_string(), name)),
    );
    respond::fragment(
        status,
        "Import documents",
        &ImportPartial {
            limit,
            error,
            result,
            spaces,
            space,
        },
    )
}

pub async fn import_form(state: web::Data<AppState>, admin: Admin) -> HttpResponse {
    page(&state, &admin, StatusCode::OK, None, None).await
}

/// A file in the data folder that is removed when dropped, whatever happens.
struct Scratch(PathBuf);

impl Scratch {
    fn new(state: &AppState, what: &str) -> Result<Self, AppError> {
        // Beside the SQLite file (same disk, same permissions); the system's
        // temporary folder when the data is on PostgreSQL.
        let dir = match state.config.sqlite_path() {
            Ok(db) => db.parent().unwrap_or(Path::new(".")).to_path_buf(),
            Err(_) => std::env::temp_dir(),
        };
        let token = crate::accounts::random_token();
        Ok(Self(dir.join(format!(".{what}-{}.zip", &token[..32]))))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_file(&self.0).ok();
    }
}

fn internal(e: impl Into<anyhow::Error>) -> AppError {
    AppError::Internal(e.into())
}

/// Streams the `file` field to `to`, refusing more than `limit` bytes. Returns the
/// size written (0 when the form had no file) and the `space` field.
async fn receive(
    mut form: Multipart,
    to: &Path,
    limit: usize,
) -> Result<(usize, String), AppError> {
    let mut written = 0;
    let mut space = String::new();
    while let Some(field) = form.next().await {
        let mut field =
            field.map_err(|e| AppError::BadRequest(format!("The upload failed: {e}")))?;
        if field.name() == Some("space") {
            while let Some(chunk) = field.next().await {
                let chunk =
                    chunk.map_err(|e| AppError::BadRequest(format!("The upload failed: {e}")))?;
                if space.len() + chunk.len() > 40 {
                    return Err(AppError::BadRequest("No such space.".into()));
                }
                space.push_str(&String::from_utf8_lossy(&chunk));
            }
            continue;
        }
        if field.name() != Some("file") {
            while field.next().await.is_some() {}
            continue;
        }
        let mut out = std::io::BufWriter::new(std::fs::File::create(to).map_err(internal)?);
        while let Some(chunk) = field.next().await {
            let chunk =
                chunk.map_err(|e| AppError::BadRequest(format!("The upload failed: {e}")))?;
            written += chunk.len();
            if written > limit {
                return Err(AppError::UploadTooLarge { limit });
            }
            out.write_all(&chunk).map_err(internal)?;
        }
        out.flush().map_err(internal)?;
    }
    Ok((written, space))
}

pub async fn import_upload(
    state: web::Data<AppState>,
    admin: Admin,
    form: Multipart,
) -> Result<HttpResponse, AppError> {
    let limit = state.config.max_import_bytes;
    let scratch = Scratch::new(&state, "import")?;
    let (size, space) = match receive(form, &scratch.0, limit).await {
        Err(AppError::UploadTooLarge { .. }) => {
            let msg = format!(
                "The file is larger than {} bytes ({}), the most quire accepts for an import \
                 (QUIRE_MAX_IMPORT_BYTES). Nothing was imported. Split the zip, or import it \
                 on the server with `quire import FILE.zip`.",
                group(limit),
                human_size(limit)
            );
            return Ok(page(
                &state,
                &admin,
                StatusCode::PAYLOAD_TOO_LARGE,
                Some(&msg),
                None,
            )
            .await);
        }
        other => other?,
    };
    // "As the files say": a quire export's own spaces, else each top folder's.
    let own_spaces = space == "own";
    let space = match crate::documents::InSpace::parse(&space) {
        _ if own_spaces => None,
        None | Some(crate::documents::InSpace::Personal) => None,
        asked => match crate::teams::space_for_new(&state.db, admin.0.id, asked).await {
            Ok(id) => id,
            Err(crate::documents::DocError::Invalid(m)) => {
                return Ok(page(
                    &state,
                    &admin,
                    StatusCode::UNPROCESSABLE_ENTITY,
                    Some(&m),
                    None,
                )
                .await);
            }
            Err(e) => return Err(e.into()),
        },
    };
    if size == 0 {
        let msg = "Choose a zip file to upload.";
        return Ok(page(
            &state,
            &admin,
            StatusCode::UNPROCESSABLE_ENTITY,
            Some(msg),
            None,
        )
        .await);
    }
    let path = scratch.0.clone();
    let is_zip = web::block(move || {
        std::fs::File::open(&path)
            .ok()
            .and_then(|f| zip::ZipArchive::new(f).ok())
            .is_some()
    })
    .await
    .map_err(internal)?;
    if !is_zip {
        let msg = "That file is not a zip archive quire can read. Nothing was imported.";
        return Ok(page(
            &state,
            &admin,
            StatusCode::UNPROCESSABLE_ENTITY,
            Some(msg),
            None,
        )
        .await);
    }
    let opts = ImportOptions {
        cap: state.config.max_doc_bytes,
        attachment_cap: state.config.max_attachment_bytes,
        owner: Some(admin.0.username.clone()),
        render: true,
        index: true,
        follow_symlinks: false,
        space,
        spaces_from_folders: own_spaces,
        progress: false,
    };
    let report = import(&state.db, &scratch.0, opts)
        .await
        .map_err(internal)?;
    let detail = format!(
        "{} imported from a zip, {} skipped",
        super::counted::counted(report.imported, "document", "documents"),
        super::counted::counted(report.skipped.len() as u64, "file", "files")
    );
    crate::accounts::audit(
        &state.db.write,
        Some(admin.0.id),
        "documents.imported",
        &detail,
    )
    .await
    .map_err(internal)?;
    Ok(page(&state, &admin, StatusCode::OK, None, Some(view(report))).await)
}

fn view(report: ImportReport) -> ResultView {
    ResultView {
        imported: report.imported,
        revisions: report.revisions,
        attached: report.attached,
        comments: report.comments,
        seconds: format!("{:.1}", report.seconds),
        skipped_count: report.skipped.len(),
        skipped: report.skipped.into_iter().take(LIST_SKIPPED).collect(),
        ignored: report.ignored,
        notes: report.notes,
    }
}

#[derive(Deserialize)]
pub struct ExportQuery {
    history: Option<String>,
}

/// The zip is built in a scratch file (export memory stays flat), then sent.
pub async fn export_download(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<ExportQuery>,
) -> Result<HttpResponse, AppError> {
    let scratch = Scratch::new(&state, "export")?;
    let out = std::fs::File::create(&scratch.0).map_err(internal)?;
    let opts = ExportOptions {
        viewer: Some(user.0.id),
        history: query.history.as_deref() == Some("on"),
        progress: false,
    };
    export(&state.db, std::io::BufWriter::new(out), opts)
        .await
        .map_err(internal)?;
    let file = std::fs::File::open(&scratch.0).map_err(internal)?;
    let len = file.metadata().map_err(internal)?.len();
    // The open handle keeps the data readable after the scratch name is removed.
    drop(scratch);
    let name: String = user
        .0
        .username
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .collect();
    Ok(HttpResponse::Ok()
        .content_type("application/zip")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"quire-{name}.zip\""),
        ))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .no_chunking(len)
        .streaming(chunks(file)))
}

/// The file in 256 KiB pieces, each read off the async workers.
fn chunks(
    file: std::fs::File,
) -> impl futures_util::Stream<Item = Result<web::Bytes, actix_web::Error>> {
    futures_util::stream::unfold(Some(file), |file| async move {
        let mut file = file?;
        let read = web::block(move || {
            let mut buf = vec![0; 256 * 1024];
            let n = file.read(&mut buf)?;
            buf.truncate(n);
            Ok::<_, std::io::Error>((file, buf))
        })
        .await;
        match read {
            Ok(Ok((_, buf))) if buf.is_empty() => None,
            Ok(Ok((file, buf))) => Some((Ok(web::Bytes::from(buf)), Some(file))),
            Ok(Err(e)) => Some((Err(e.into()), None)),
            Err(e) => Some((Err(e.into()), None)),
        }
    })
}
