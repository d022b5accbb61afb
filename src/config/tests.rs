//! Settings: parsed, checked at start, and shown as given.

use super::*;

fn with_url(url: &str) -> Config {
    Config {
        database_url: url.into(),
        ..Config::from_env()
    }
}

#[test]
fn log_filters_are_levels_and_target_level_pairs() {
    for good in ["info", "quire=debug,info", "quire::web=warn", "WARN"] {
        assert!(parse_log_filter(good).is_ok(), "{good}");
    }
    for bad in ["verbose", "debg", "quire=loud", "", "info,", "=debug"] {
        assert!(parse_log_filter(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn sqlite_urls_name_a_file() {
    assert_eq!(
        with_url("sqlite://./data/q.db").sqlite_path(),
        Ok(PathBuf::from("./data/q.db"))
    );
    assert_eq!(
        with_url("sqlite:///var/lib/q.db?mode=rwc").sqlite_path(),
        Ok(PathBuf::from("/var/lib/q.db"))
    );
    assert!(with_url("postgres://x/y").sqlite_path().is_err());
    assert!(with_url("sqlite://").sqlite_path().is_err());
}

#[test]
fn every_setting_appears_in_the_table_with_the_value_it_was_given() {
    // A value unlike its default for each setting, and how the table shows
    // it: as given, except the secret, which is only said to be set.
    let given: &[(&str, &str, &str)] = &[
        ("--bind", "127.0.0.1:4321", "127.0.0.1:4321"),
        (
            "--database-url",
            "sqlite://elsewhere/q.db",
            "sqlite://elsewhere/q.db",
        ),
        ("--db-connections", "7", "7"),
        ("--page-cache-mb", "12", "12"),
        ("--max-doc-bytes", "123456", "123456"),
        ("--durability", "full", "full"),
        ("--max-import-bytes", "7654321", "7654321"),
        ("--max-attachment-bytes", "2097152", "2097152"),
        ("--upload-memory-bytes", "1048576", "1048576"),
        ("--body-timeout", "41", "41"),
        ("--max-connections", "77", "77"),
        ("--workers", "3", "3"),
        ("--signup", "", "true"),
        ("--cookie-secure", "", "true"),
        (
            "--replica-url",
            "file:///backup/quire",
            "file:///backup/quire",
        ),
        ("--litestream", "/opt/litestream", "/opt/litestream"),
        ("--log", "debug", "debug"),
        ("--log-format", "json", "json"),
        ("--metrics-token", "a-long-secret-token", "(set)"),
        ("--trusted-proxies", "10.0.0.0/8", "10.0.0.0/8"),
        (
            "--public-url",
            "https://docs.example.org",
            "https://docs.example.org",
        ),
        ("--auth-header", "Remote-User", "Remote-User"),
        ("--auth-groups-header", "Remote-Groups", "Remote-Groups"),
        ("--auth-admin-group", "wiki-admins", "wiki-admins"),
        (
            "--oidc-issuer",
            "https://sso.example.org/realms/team",
            "https://sso.example.org/realms/team",
        ),
        ("--oidc-client-id", "quire", "quire"),
        ("--oidc-client-secret", "s3cret-value", "(set)"),
        (
            "--oidc-client-secret-file",
            "/run/secrets/oidc",
            "/run/secrets/oidc",
        ),
        ("--oidc-name", "Keycloak", "Keycloak"),
        ("--oidc-scopes", "openid email", "openid email"),
        ("--oidc-username-claim", "email", "email"),
        ("--oidc-groups-claim", "roles", "roles"),
        ("--oidc-create-accounts", "false", "false"),
        ("--password-sign-in", "false", "false"),
        ("--smtp-host", "smtp.example.org", "smtp.example.org"),
        ("--smtp-port", "465", "465"),
        ("--smtp-security", "tls", "tls"),
        ("--smtp-user", "quire", "quire"),
        (
            "--smtp-password-file",
            "/run/secrets/smtp",
            "/run/secrets/smtp",
        ),
        (
            "--mail-from",
            "quire <quire@example.org>",
            "quire <quire@example.org>",
        ),
        (
            "--webhook-allow-networks",
            "10.0.5.0/24,::1",
            "10.0.5.0/24,::1/128",
        ),
        ("--webhook-retry-ms", "2500", "2500"),
        ("--search-language", "german", "german"),
        ("--attachment-text", "off", "off"),
    ];
    // A switch takes no value.
    let args = given
        .iter()
        .flat_map(|(flag, value, _)| [*flag, *value])
        .filter(|a| !a.is_empty());
    let cfg = Standalone::try_parse_from(std::iter::once("quire").chain(args))
        .expect("every sample value is valid")
        .config;
    let table = cfg.table();
    assert_eq!(table.len(), given.len(), "a setting has no sample here");
    for (flag, _, shown) in given {
        let row = table.iter().find(|r| r[0] == *flag).expect(flag);
        assert_eq!(row[2], *shown, "{flag}");
        assert!(row[1].starts_with("QUIRE_"), "{flag}");
        assert!(!row[3].is_empty(), "{flag} has no meaning");
    }
}

#[test]
fn single_sign_on_headers_must_be_header_names() {
    let parse = |value: &str| {
        Standalone::try_parse_from(["quire", "--auth-header", value]).map(|s| s.config.auth_header)
    };
    assert_eq!(
        parse(" Remote-User ").ok().flatten().as_deref(),
        Some("Remote-User")
    );
    for bad in ["Remote User", "", "X:Y", "Rémi"] {
        assert!(parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn proxies_and_the_public_address_are_checked_at_start() {
    let parse = |args: &[&str]| {
        Standalone::try_parse_from(std::iter::once("quire").chain(args.iter().copied()))
            .map(|s| s.config)
    };
    let ok = parse(&[
        "--trusted-proxies",
        "10.0.0.0/8,::1",
        "--public-url",
        "https://docs.example.org/",
    ])
    .unwrap();
    assert_eq!(ok.trusted_proxies.to_string(), "10.0.0.0/8,::1/128");
    assert_eq!(ok.public_url.as_deref(), Some("https://docs.example.org"));
    assert!(parse(&["--trusted-proxies", "10.0.0.0/40"]).is_err());
    for bad in [
        "docs.example.org",
        "https://",
        "https://x.org/?a=b",
        "ftp://x.org",
    ] {
        assert!(parse(&["--public-url", bad]).is_err(), "{bad}");
    }
}

#[test]
fn the_metrics_token_never_prints() {
    let cfg = Config {
        metrics_token: Some("hunter2-token".parse().unwrap()),
        ..Config::from_env()
    };
    let row = cfg
        .table()
        .into_iter()
        .find(|r| r[1] == "QUIRE_METRICS_TOKEN")
        .unwrap();
    assert_eq!(row[2], "(set)");
    assert!(!format!("{cfg:?}").contains("hunter2"));
    let mut cfg = Config::from_env();
    cfg.sign_in.oidc_client_secret = Some("hunter3-secret".parse().unwrap());
    assert!(!format!("{cfg:?}").contains("hunter3"));
    assert!(!format!("{:?}", cfg.table()).contains("hunter3"));
}

#[test]
fn the_client_secret_comes_from_its_setting_or_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("secret");
    std::fs::write(&file, "from-a-file\n").unwrap();
    let mut s = Config::from_env().sign_in;
    s.oidc_client_secret_file = Some(file);
    assert_eq!(s.client_secret(), Ok(Some("from-a-file".into())));
    s.oidc_client_secret = Some("given".parse().unwrap());
    assert_eq!(s.client_secret(), Ok(Some("given".into())));
    s.oidc_client_secret = None;
    s.oidc_client_secret_file = Some(dir.path().join("missing"));
    assert!(s.client_secret().unwrap_err().contains("missing"));
}
