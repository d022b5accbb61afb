//! A small closed-loop HTTP/1.1 load generator that records every request's
//! latency in an HDR histogram (wrk's percentiles are inflated for
//! sub-millisecond answers on a small machine; its request rate is right).
//!
//! `cargo run --release --example loadgen -- HOST:PORT PATHS_FILE CONNECTIONS SECONDS [COOKIE]`
//!
//! Each connection keeps one keep-alive socket and sends its next request when the
//! previous answer has fully arrived; paths are taken at random from PATHS_FILE
//! (one per line). Prints one line: `requests rps p50 p90 p99 p999 max` (ms), and
//! fails if any answer is not 200.

use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use quire::seed::Rng;
use tokio::io::{AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    anyhow::ensure!(
        args.len() >= 5,
        "usage: loadgen HOST:PORT PATHS_FILE CONNECTIONS SECONDS [COOKIE]"
    );
    let host = args[1].clone();
    let paths: Vec<String> = std::fs::read_to_string(&args[2])?
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    anyhow::ensure!(!paths.is_empty(), "{} lists no paths", args[2]);
    let connections: usize = args[3].parse()?;
    let seconds: f64 = args[4].parse()?;
    let cookie = args.get(5).cloned().unwrap_or_default();
    let until = Instant::now() + Duration::from_secs_f64(seconds);
    let started = Instant::now();
    let results = futures::future::join_all(
        (0..connections).map(|c| client(c, &host, &paths, &cookie, until)),
    )
    .await;
    let wall = started.elapsed().as_secs_f64();
    let mut all = Histogram::<u64>::new(3)?;
    for r in results {
        all.add(r?)?;
    }
    let ms = |q: f64| all.value_at_quantile(q) as f64 / 1000.0;
    println!(
        "{} {:.0} {:.3} {:.3} {:.3} {:.3} {:.3}",
        all.len(),
        all.len() as f64 / wall,
        ms(0.5),
        ms(0.9),
        ms(0.99),
        ms(0.999),
        all.max() as f64 / 1000.0
    );
    Ok(())
}

async fn client(
    c: usize,
    host: &str,
    paths: &[String],
    cookie: &str,
    until: Instant,
) -> anyhow::Result<Histogram<u64>> {
    let mut hist = Histogram::<u64>::new(3)?;
    let mut rng = Rng::new(c as u64 * 7919 + 1);
    let mut stream = BufReader::with_capacity(256 * 1024, TcpStream::connect(host).await?);
    stream.get_ref().set_nodelay(true)?;
    let mut head = Vec::with_capacity(4096);
    let mut body = vec![0u8; 64 * 1024];
    while Instant::now() < until {
        let path = &paths[rng.below(paths.len())];
        let request = if cookie.is_empty() {
            format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n")
        } else {
            format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\n\r\n")
        };
        let t = Instant::now();
        stream.get_mut().write_all(request.as_bytes()).await?;
        let length = read_head(&mut stream, &mut head, path).await?;
        let mut left = length;
        while left > 0 {
            let n = left.min(body.len());
            stream.read_exact(&mut body[..n]).await?;
            left -= n;
        }
        hist.record(t.elapsed().as_micros() as u64)?;
    }
    Ok(hist)
}

/// Reads the status line and headers; returns Content-Length. Only 200 passes.
async fn read_head(
    stream: &mut BufReader<TcpStream>,
    head: &mut Vec<u8>,
    path: &str,
) -> anyhow::Result<usize> {
    head.clear();
    while !head.ends_with(b"\r\n\r\n") {
        let byte = stream.read_u8().await?;
        head.push(byte);
        anyhow::ensure!(head.len() < 64 * 1024, "response head too long");
    }
    let text = std::str::from_utf8(head)?;
    let status = text.split(' ').nth(1).unwrap_or_default();
    anyhow::ensure!(status == "200", "{path} answered {status}");
    text.lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse().ok())?
        })
        .ok_or_else(|| anyhow::anyhow!("{path}: answer without Content-Length"))
}
