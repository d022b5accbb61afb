//! Floods against a real `quire serve`: simultaneous wrong passwords, more
//! connections than the cap. The server stays small and says what it is doing.

use std::time::Duration;

use super::server::{Server, anonymous};

#[tokio::test]
async fn two_hundred_simultaneous_wrong_passwords_keep_the_server_under_200_mb() {
    let mut server = Server::start();
    let base = format!("http://127.0.0.1:{}", server.port());
    let (client, csrf) = anonymous(&base).await;
    let before = server.peak_memory();

    let attempts = (0..200).map(|i| {
        let (client, base, csrf) = (client.clone(), base.clone(), csrf.clone());
        async move {
            client
                .post(format!("{base}/login"))
                .form(&[
                    ("username", "alice"),
                    ("password", &format!("wrong password {i}")),
                    ("csrf", &csrf),
                ])
                .send()
                .await
                .expect("POST /login")
                .status()
        }
    });
    let statuses = futures::future::join_all(attempts).await;
    assert!(
        statuses.iter().all(|s| *s == 401 || *s == 429),
        "{statuses:?}"
    );
    let peak = server.peak_memory();
    eprintln!(
        "200 simultaneous wrong passwords: peak {} MiB (before the flood {} MiB)",
        peak >> 20,
        before >> 20
    );
    assert!(peak < 200 << 20, "the server peaked at {} MiB", peak >> 20);
    // A password check takes 19 MiB and runs at most once per core at a time:
    // the flood may add that much, and little else.
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get()) as u64;
    assert!(
        peak - before <= (cores + 1) * (20 << 20),
        "the flood added {} MiB on {cores} cores",
        (peak - before) >> 20
    );
}

#[test]
fn past_the_connection_cap_the_log_says_so() {
    let mut server = Server::start_with(&[("QUIRE_MAX_CONNECTIONS", "4"), ("QUIRE_WORKERS", "1")]);
    let address = format!("127.0.0.1:{}", server.port());
    let open: Vec<std::net::TcpStream> = (0..6)
        .map(|_| std::net::TcpStream::connect(&address).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(100));
    let line = server.wait_for(|l| l.contains("connection cap reached"));
    assert!(line.contains("QUIRE_MAX_CONNECTIONS"), "{line}");
    drop(open);
}
