//! deploy/entrypoint.sh: its start-up decisions, with the real Litestream binary.

use std::path::Path;
use std::process::Child;

use reqwest::StatusCode;

use crate::helpers::{PASSWORD, sign_in};
use crate::sites::*;

/// Runs deploy/entrypoint.sh for `site` (quire under it, without Litestream's
/// -exec) and returns quire's address, or the script's failure.
fn entrypoint(site: &Site) -> Result<(Child, String), String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/entrypoint.sh");
    let mut cmd = site.command("sh");
    cmd.arg(script)
        .env("QUIRE_BIN", quire_bin())
        .env("LITESTREAM", litestream())
        .env("QUIRE_LITESTREAM_MODE", "none")
        .env("QUIRE_LITESTREAM_CONFIG", site.config());
    try_start(&mut cmd)
}

/// A replica holding `n` documents (quire and a sidecar ran, then stopped).
async fn site_with_replica(n: usize) -> Site {
    let site = Site::new();
    let (mut server, address) = start(site.command(quire_bin()).arg("serve"));
    let mut sidecar = site.sidecar();
    let (client, csrf) = sign_in(&address, "alice", PASSWORD).await;
    for i in 0..n {
        create(&client, &address, &csrf, i).await.unwrap();
    }
    wait_for_first_sync(&site).await;
    signal(server.id(), "-TERM");
    let _ = server.wait();
    signal(sidecar.id(), "-TERM");
    let _ = sidecar.wait();
    site
}

async fn documents_seen(address: &str) -> usize {
    let (client, _) = sign_in(address, "alice", PASSWORD).await;
    let page = client.get(format!("{address}/")).send().await.unwrap();
    // The documents `create` made are titled "doc N"; count the distinct ones listed.
    let html = page.text().await.unwrap();
    let titles: std::collections::HashSet<&str> = html
        .split("\">doc ")
        .skip(1)
        .filter_map(|rest| rest.split("</a>").next())
        .collect();
    titles.len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_entrypoint_restores_an_empty_volume_and_never_starts_empty_over_a_replica() {
    let _serial = SERIAL.lock().await;
    let site = site_with_replica(7).await;

    // Empty volume, replica present: restore, then serve what was replicated.
    std::fs::remove_dir_all(site.dir.path().join("data")).unwrap();
    let (mut quire, address) = entrypoint(&site).expect("restores and serves");
    assert_eq!(documents_seen(&address).await, 7);
    signal(quire.id(), "-TERM");
    let _ = quire.wait();

    // Data present: served as it is, no restore over it.
    assert!(site.db().exists());
    let (mut quire, address) = entrypoint(&site).expect("serves existing data");
    let (client, csrf) = sign_in(&address, "alice", PASSWORD).await;
    create(&client, &address, &csrf, 99).await.unwrap();
    assert_eq!(
        documents_seen(&address).await,
        8,
        "local data, not the replica's 7"
    );
    signal(quire.id(), "-TERM");
    let _ = quire.wait();

    // A replica that cannot be read (its ltx folder is a file): the script stops
    // and creates nothing.
    let unreadable = site.dir.path().join("unreadable");
    std::fs::create_dir_all(&unreadable).unwrap();
    std::fs::write(unreadable.join("ltx"), "not a folder").unwrap();
    let broken = Site::with_replica(Some(format!("file://{}", unreadable.display())));
    std::fs::remove_dir_all(broken.dir.path().join("data")).unwrap();
    assert!(entrypoint(&broken).is_err());
    assert!(!broken.db().exists(), "never starts empty over a replica");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_entrypoint_starts_fresh_when_there_is_no_replica_yet() {
    let _serial = SERIAL.lock().await;
    let site = Site::new();
    std::fs::remove_dir_all(site.dir.path().join("data")).unwrap();
    let (mut quire, address) = entrypoint(&site).expect("starts fresh");
    let res = reqwest::get(format!("{address}/readyz")).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    signal(quire.id(), "-TERM");
    let _ = quire.wait();
    assert!(site.db().exists());
}
