//! Clients that hold the server: a body dribbled byte by byte gets 408 and its
//! connection closed once the body time limit passes; past the connection cap,
//! a new connection waits until one closes.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::helpers::spawn_with;

fn host(address: &str) -> &str {
    address.trim_start_matches("http://")
}

#[tokio::test]
async fn a_body_that_does_not_arrive_in_time_gets_408_and_the_connection_closes() {
    let app = spawn_with(|c| c.body_timeout = 1).await;
    let mut conn = TcpStream::connect(host(&app.address)).await.unwrap();
    conn.write_all(
        b"POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n\
          Content-Length: 1000\r\n\r\nusername=al",
    )
    .await
    .unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(8), async {
        // Keep dribbling, as a slow-body client does, while reading the answer.
        let mut buf = [0u8; 4096];
        loop {
            tokio::select! {
                n = conn.read(&mut buf) => match n {
                    Ok(0) | Err(_) => break,
                    Ok(n) => answer.extend_from_slice(&buf[..n]),
                },
                () = tokio::time::sleep(Duration::from_millis(200)) => {
                    if conn.write_all(b"i").await.is_err() {
                        break;
                    }
                }
            }
        }
    })
    .await;
    let text = String::from_utf8_lossy(&answer);
    assert!(
        read.is_ok(),
        "the connection was still open after 8 s: {text}"
    );
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");

    let (status, _) = app.get_text("/healthz").await;
    assert_eq!(status, reqwest::StatusCode::OK, "others are served");
}

#[tokio::test]
async fn past_the_connection_cap_a_new_connection_waits_until_one_closes() {
    let app = spawn_with(|c| {
        c.workers = 1;
        c.max_connections = 3;
    })
    .await;
    // Three idle connections (with the test's own signed-in client's, maybe four).
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(TcpStream::connect(host(&app.address)).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let request = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    let ask = || async {
        let mut c = TcpStream::connect(host(&app.address)).await.unwrap();
        c.write_all(request).await.unwrap();
        let mut buf = [0u8; 1024];
        tokio::time::timeout(Duration::from_millis(1500), c.read(&mut buf))
            .await
            .is_ok_and(|n| n.is_ok_and(|n| n > 0))
    };
    assert!(
        !ask().await,
        "a fourth connection is not served while three are open"
    );
    held.clear();
    assert!(ask().await, "served once the others closed");
}
