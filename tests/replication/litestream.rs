//! Replication with Litestream: graceful stops, kill -9, an S3-compatible replica.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use quire::db::snapshot::verify;

use crate::helpers::{PASSWORD, sign_in};
use crate::sites::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_litestream_exec_every_write_survives_losing_the_disk() {
    let _serial = SERIAL.lock().await;
    let site = Site::new();
    let mut cmd = site.command(litestream());
    cmd.args(["replicate", "-config", &site.config(), "-exec"])
        .arg(format!("{} serve", quire_bin()));
    let (mut litestream_proc, address) = start(&mut cmd);
    let (client, csrf) = sign_in(&address, "alice", PASSWORD).await;
    let mut written = Vec::new();
    for n in 0..30 {
        written.push(
            create(&client, &address, &csrf, n)
                .await
                .expect("write acknowledged"),
        );
    }
    // A stop before Litestream's first sync replicates nothing (seen with 0.5.17):
    // wait for it. The last ten writes go right before the stop, so only the
    // final sync on shutdown can save them.
    wait_for_first_sync(&site).await;
    for n in 30..40 {
        written.push(
            create(&client, &address, &csrf, n)
                .await
                .expect("write acknowledged"),
        );
    }

    // Stop quire (Litestream's child); Litestream syncs one last time and exits.
    // Go may start the child from any thread: look through every task.
    let tasks = std::fs::read_dir(format!("/proc/{}/task", litestream_proc.id())).unwrap();
    let children: Vec<u32> = tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("children")).ok())
        .flat_map(|c| {
            c.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect();
    assert!(!children.is_empty(), "quire runs as Litestream's child");
    for pid in children {
        signal(pid, "-TERM");
    }
    let status = litestream_proc.wait().unwrap();
    assert!(
        status.success(),
        "litestream exits cleanly after quire: {status}"
    );

    std::fs::remove_dir_all(site.dir.path().join("data")).unwrap();
    let out = site
        .command(quire_bin())
        .args(["restore", "--from-replica"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let verified = verify(&site.db()).await.unwrap();
    assert_eq!(verified.documents, 40);
    let present = ids_in(&site.db()).await;
    assert!(written.iter().all(|id| present.contains(id)));
}

/// Litestream's default sync interval (1 s, deploy/litestream.yml sets none) and
/// a margin for the sync itself: a write acknowledged longer ago than this
/// before a kill must be in the replica.
const LOSS_WINDOW: Duration = Duration::from_millis(1500);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_of_server_and_sidecar_loses_at_most_about_a_second() {
    let _serial = SERIAL.lock().await;
    let mut windows = Vec::new();
    for run in 0..runs("QUIRE_REPLICA_RUNS", 3) {
        let site = Site::new();
        let (mut server, address) = start(site.command(quire_bin()).arg("serve"));
        let mut sidecar = site.sidecar();
        let (client, csrf) = sign_in(&address, "alice", PASSWORD).await;
        let started = Instant::now();
        // Every run, run 0 too, writes for longer than the window it tests.
        let run_for = LOSS_WINDOW + Duration::from_millis(1000 + (run as u64 * 377) % 1500);
        let mut acked: Vec<(String, Instant)> = Vec::new();
        let mut n = 0;
        while started.elapsed() < run_for {
            let Some(id) = create(&client, &address, &csrf, n).await else {
                tokio::time::sleep(Duration::from_millis(300)).await;
                panic!(
                    "run {run}: write {n} failed before the kill (server: {:?}, sidecar: {:?})",
                    server.try_wait(),
                    sidecar.try_wait()
                );
            };
            acked.push((id, Instant::now()));
            n += 1;
        }
        let killed_at = Instant::now();
        signal(server.id(), "-KILL");
        signal(sidecar.id(), "-KILL");
        let _ = (server.wait(), sidecar.wait());

        let out = site.dir.path().join("restored.db");
        restore_replica(&site, &out);
        verify(&out)
            .await
            .expect("the restored database is consistent");
        let present = ids_in(&out).await;
        let first_lost = acked.iter().find(|(id, _)| !present.contains(id));
        let window = first_lost.map_or(Duration::ZERO, |(_, at)| killed_at - *at);
        windows.push(window);
        let settled: Vec<&String> = acked
            .iter()
            .filter(|(_, at)| killed_at - *at > LOSS_WINDOW)
            .map(|(id, _)| id)
            .collect();
        assert!(
            !settled.is_empty(),
            "run {run}: no write was acknowledged more than the window before the kill"
        );
        let lost = settled.iter().filter(|id| !present.contains(**id)).count();
        assert_eq!(
            lost, 0,
            "run {run}: writes acknowledged over {LOSS_WINDOW:?} before the kill were lost"
        );
        println!(
            "run {run}: {} writes acknowledged, {} restored, loss window {:.2} s",
            acked.len(),
            present.len(),
            window.as_secs_f64()
        );
    }
    windows.sort();
    println!(
        "replica loss window over {} runs: min {:.2} s, median {:.2} s, max {:.2} s",
        windows.len(),
        windows[0].as_secs_f64(),
        windows[windows.len() / 2].as_secs_f64(),
        windows[windows.len() - 1].as_secs_f64()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_of_the_server_under_100_writers_loses_no_acknowledged_write() {
    let _serial = SERIAL.lock().await;
    for run in 0..runs("QUIRE_CRASH_RUNS", 5) {
        let site = Site::new();
        let (mut server, address) = start(site.command(quire_bin()).arg("serve"));
        let (client, csrf) = sign_in(&address, "alice", PASSWORD).await;
        let deadline = Instant::now() + Duration::from_millis(400 + (run as u64 * 211) % 800);
        let writers = (0..100).map(|w| {
            let (client, address, csrf) = (client.clone(), address.clone(), csrf.clone());
            tokio::spawn(async move {
                let mut acked = Vec::new();
                let mut n = w * 100_000;
                while Instant::now() < deadline {
                    if let Some(id) = create(&client, &address, &csrf, n).await {
                        acked.push(id);
                    }
                    n += 1;
                }
                acked
            })
        });
        let handles: Vec<_> = writers.collect();
        tokio::time::sleep_until(deadline.into()).await;
        signal(server.id(), "-KILL");
        let _ = server.wait();
        let mut acked = Vec::new();
        for h in handles {
            acked.extend(h.await.unwrap());
        }

        // quire starts again on the same file; SQLite recovers the WAL.
        let (mut again, _) = start(site.command(quire_bin()).arg("serve"));
        signal(again.id(), "-TERM");
        let _ = again.wait();
        verify(&site.db()).await.expect("integrity after the crash");
        let present = ids_in(&site.db()).await;
        let lost = acked.iter().filter(|id| !present.contains(*id)).count();
        println!(
            "run {run}: {} acknowledged writes, {lost} lost",
            acked.len()
        );
        assert_eq!(lost, 0, "run {run}");
        assert!(!acked.is_empty());
    }
}

/// An S3-compatible store on loopback (moto, installed by the test command).
struct S3Server(Child, u16);

impl Drop for S3Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn s3_server() -> S3Server {
    let moto = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/moto_server");
    assert!(
        moto.exists(),
        "moto_server is missing: run ./scripts/test.sh, which installs it"
    );
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(moto)
        .args(["-H", "127.0.0.1", "-p", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let server = S3Server(child, port);
    let client = reqwest::Client::new();
    let bucket = format!("http://127.0.0.1:{port}/quire");
    for _ in 0..100 {
        // Litestream does not create buckets; S3's CreateBucket is a plain PUT.
        if let Ok(res) = client.put(&bucket).send().await
            && res.status().is_success()
        {
            return server;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("moto_server did not start");
}

/// Waits until Litestream has put LTX files in the bucket (S3's ListObjectsV2).
async fn replica_has_ltx_files(port: u16) {
    let listing = format!("http://127.0.0.1:{port}/quire?list-type=2&prefix=db");
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(res) = reqwest::get(&listing).await
            && let Ok(body) = res.text().await
            && body.contains(".ltx</Key>")
        {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "Litestream put nothing in the bucket in 30 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_s3_compatible_replica_restores_every_write() {
    let _serial = SERIAL.lock().await;
    let s3 = s3_server().await;
    let url = format!(
        "s3://quire/db?endpoint=http://127.0.0.1:{}&region=us-east-1&forcePathStyle=true",
        s3.1
    );
    let site = Site::with_replica(Some(url));
    let (mut server, address) = start(site.command(quire_bin()).arg("serve"));
    let mut sidecar = site.sidecar();
    let (client, csrf) = sign_in(&address, "alice", PASSWORD).await;
    let mut written = Vec::new();
    for n in 0..20 {
        written.push(create(&client, &address, &csrf, n).await.unwrap());
    }
    // The first writes reach the bucket before more are made, so the restore
    // reads the replica as several syncs left it.
    replica_has_ltx_files(s3.1).await;
    for n in 20..25 {
        written.push(create(&client, &address, &csrf, n).await.unwrap());
    }
    // The sidecar way to stop: quire first, then Litestream (which syncs on exit).
    signal(server.id(), "-TERM");
    let _ = server.wait();
    signal(sidecar.id(), "-TERM");
    let status = sidecar.wait().unwrap();
    assert!(status.success(), "litestream: {status}");

    std::fs::remove_dir_all(site.dir.path().join("data")).unwrap();
    let out = site
        .command(quire_bin())
        .args(["restore", "--from-replica"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let present = ids_in(&site.db()).await;
    assert!(written.iter().all(|id| present.contains(id)));
    assert_eq!(verify(&site.db()).await.unwrap().documents, 25);
}
