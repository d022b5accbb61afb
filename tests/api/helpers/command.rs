//! The quire binary, run from a test as an operator runs it from a shell.

/// Runs the quire binary against a database, as an operator would from a shell,
/// on a blocking thread: the test's own runtime keeps serving the app meanwhile,
/// so a write transaction it had open (the search indexer's, say) can finish
/// instead of holding the database's lock until the command gives up.
pub async fn run_quire(url: &str, args: &[&str]) -> std::process::Output {
    let (url, args) = (
        url.to_owned(),
        args.iter().map(|a| a.to_string()).collect::<Vec<_>>(),
    );
    tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_quire"))
            .args(&args)
            .env("QUIRE_DATABASE_URL", url)
            .env("QUIRE_LOG", "warn")
            .output()
            .expect("running quire")
    })
    .await
    .expect("the quire command's thread")
}

/// `run_quire`, which must succeed: its standard output.
pub async fn quire(url: &str, args: &[&str]) -> String {
    let out = run_quire(url, args).await;
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}
