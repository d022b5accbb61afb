//! Reads the text of attached files for search, off the request path: claims
//! one content at a time (no other instance reads it meanwhile), hands it to
//! `quire extract-text` in a child process limited in memory and CPU and
//! killed after `DEADLINE`, and stores the pages it prints. A file the child
//! cannot read is noted as failed with the reason and not tried again; one
//! that kills the child (a bomb, nesting deep enough to overflow the stack)
//! is tried `TRIES` times in all, then given up. Nothing here reads a file
//! itself: whatever a file does, the server's memory and threads are not its.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::clock::now_ms;
use crate::db::attachment_texts as stored;
use crate::db::{Db, Error};
use crate::extract::{Kind, TEXT_AT_MOST};

/// How long one file may take to read, the child's start included.
pub const DEADLINE: Duration = Duration::from_secs(30);

/// How long a claim holds a content: past the deadline, so a claim runs out
/// only when the instance that held it stopped.
const CLAIM_MS: i64 = 90_000;

/// How often an idle reader looks for work.
const POLL: Duration = Duration::from_secs(1);

/// Bytes of the child's output read at most: the text kept, in UTF-8, with
/// the page breaks.
const OUTPUT_AT_MOST: u64 = (TEXT_AT_MOST as u64) * 4 + (1 << 16);

/// The quire binary that reads files, from the setting: none for `off`.
pub fn reader(setting: &str) -> anyhow::Result<Option<PathBuf>> {
    match setting.trim() {
        "off" => Ok(None),
        "" | "on" => Ok(Some(std::env::current_exe()?)),
        path => Ok(Some(PathBuf::from(path))),
    }
}

/// Reads until the database closes.
pub async fn run(db: Db, reader: PathBuf) {
    loop {
        if db.is_closed() {
            return;
        }
        match read_one(&db, &reader).await {
            Ok(true) => continue,
            Ok(false) => {}
            Err(e) => tracing::warn!(error = %e, "reading attached files failed; trying again"),
        }
        tokio::time::sleep(POLL).await;
    }
}

/// Reads one waiting content, if any: whether there was one.
pub async fn read_one(db: &Db, reader: &std::path::Path) -> Result<bool, Error> {
    let now = now_ms();
    if !stored::any_waiting(&db.read, now).await? {
        return Ok(false);
    }
    let tx = db.begin_write().await?;
    let claimed = stored::claim(&*tx, now, now + CLAIM_MS).await?;
    tx.commit().await?;
    let Some(file) = claimed else {
        return Ok(false);
    };
    let outcome = match Kind::of(&file.bytes, &file.name) {
        None => Err(("skipped", "not a kind of file quire reads".to_string())),
        Some(kind) => in_child(reader, kind, file.bytes)
            .await
            .map_err(|why| ("failed", why)),
    };
    let tx = db.begin_write().await?;
    match &outcome {
        Ok(pages) => stored::read(&*tx, &file.hash, pages, now_ms()).await?,
        Err((state, why)) => stored::finished(&*tx, &file.hash, (state, why), now_ms()).await?,
    }
    tx.commit().await?;
    if let Err(("failed", why)) = &outcome {
        tracing::warn!(file = %file.name, why = %why, "an attached file's text could not be read");
    }
    Ok(true)
}

/// The pages `quire extract-text` prints for `bytes`, or why there are none.
async fn in_child(
    reader: &std::path::Path,
    kind: Kind,
    bytes: Vec<u8>,
) -> Result<Vec<String>, String> {
    let mut child = tokio::process::Command::new(reader)
        .arg("extract-text")
        .arg(kind.name())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("the reader could not start: {e}"))?;
    let (Some(mut stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Err("the reader's pipes could not be opened".into());
    };
    let feed = async move {
        // A reader that stops early closes its end: what it read decides.
        let _ = stdin.write_all(&bytes).await;
        drop(stdin);
    };
    let mut out = Vec::new();
    let mut err = Vec::new();
    let (mut stdout, mut stderr) = (stdout.take(OUTPUT_AT_MOST), stderr.take(4096));
    let read_out = stdout.read_to_end(&mut out);
    let read_err = stderr.read_to_end(&mut err);
    let all = async {
        let (_, out, err) = tokio::join!(feed, read_out, read_err);
        out.and(err).map_err(|e| e.to_string())?;
        child.wait().await.map_err(|e| e.to_string())
    };
    let status = match tokio::time::timeout(DEADLINE, all).await {
        Ok(status) => status?,
        Err(_) => {
            let _ = child.kill().await;
            return Err(format!("reading took longer than {} s", DEADLINE.as_secs()));
        }
    };
    if status.success() {
        let text = String::from_utf8_lossy(&out);
        return Ok(text.split('\u{c}').map(str::to_string).collect());
    }
    let said = String::from_utf8_lossy(&err).trim().to_string();
    Err(match (said.is_empty(), status.code()) {
        (false, _) => said,
        (true, Some(code)) => format!("the reader ended with code {code}"),
        (true, None) => "the reader was stopped (too much memory or time, or malformed)".into(),
    })
}
