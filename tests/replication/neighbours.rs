//! Other processes on the database file while quire serves: the command line,
//! Litestream, a backup tool. SQLite shares the file between processes through
//! POSIX locks on it and on its `-shm`; a descriptor that quire opened and closed
//! on either would drop SQLite's locks, and the next process to open the file
//! would take it for unused and truncate the `-shm` quire has mapped (SIGBUS).

use std::time::{Duration, Instant};

use crate::helpers::{PASSWORD, sign_in};
use crate::sites::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_processes_opening_the_database_while_quire_serves_stop_nothing() {
    let _serial = SERIAL.lock().await;
    let site = Site::new();
    let (mut server, address) = start(site.command(quire_bin()).arg("serve"));
    let (client, csrf) = sign_in(&address, "alice", PASSWORD).await;
    let until = Instant::now() + Duration::from_secs(3);
    let writer = tokio::spawn(async move {
        let (mut written, mut failed) = (Vec::new(), 0);
        let mut n = 0;
        while Instant::now() < until {
            match create(&client, &address, &csrf, n).await {
                Some(id) => written.push(id),
                None => failed += 1,
            }
            n += 1;
        }
        (written, failed)
    });
    // Meanwhile another process opens the database, reads and closes it, again
    // and again (as the command line, Litestream or a backup tool do).
    let mut opened = 0;
    while Instant::now() < until {
        ids_in(&site.db()).await;
        opened += 1;
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (written, failed) = writer.await.unwrap();
    assert_eq!(
        failed,
        0,
        "{failed} writes failed while the database was opened {opened} times (quire: {:?})",
        server.try_wait()
    );
    assert!(
        server.try_wait().unwrap().is_none(),
        "quire is still serving"
    );
    signal(server.id(), "-TERM");
    let status = server.wait().unwrap();
    assert!(status.success(), "quire stopped cleanly: {status:?}");
    let present = ids_in(&site.db()).await;
    assert!(written.iter().all(|id| present.contains(id)));
    assert!(written.len() > 100, "{} writes", written.len());
}
