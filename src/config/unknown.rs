//! `QUIRE_*` variables that are not quire settings, found at start: a typo in a
//! setting's name would otherwise be ignored without a word.

use std::ffi::OsString;
use std::fmt;

use clap::CommandFactory;

use super::Standalone;

/// Names quire does not read but its own files put in its environment, so they
/// never warn: the container's entrypoint and `deploy/litestream.yml` (beside
/// quire in the Dockerfile, in compose and in the README's Litestream set-up),
/// compose's own variables (often exported in the shell that runs quire too), and
/// knobs of the test, bench and browser harnesses, which start quire with their
/// environment (`scripts/test.sh` exports `QUIRE_TEST_POSTGRES`, for one).
const NOT_SETTINGS: &[&str] = &[
    // deploy/entrypoint.sh, deploy/litestream.yml, Dockerfile, compose*.yaml
    "QUIRE_BACKUP_DIR",
    "QUIRE_BIN",
    "QUIRE_DB_PATH",
    "QUIRE_LITESTREAM_CONFIG",
    "QUIRE_LITESTREAM_MODE",
    "QUIRE_LITESTREAM_SOCKET",
    "QUIRE_PG_PASSWORD",
    "QUIRE_PORT",
    "QUIRE_PORT_A",
    "QUIRE_PORT_B",
    "QUIRE_RESTORE_TIMESTAMP",
    // scripts/, benches/, tests/
    "QUIRE_CHROMIUM",
    "QUIRE_COMPARE_BIN",
    "QUIRE_CRASH_RUNS",
    "QUIRE_DEBIAN_MIRROR",
    "QUIRE_P99_BUDGET_MS",
    "QUIRE_REPLICA_RUNS",
    "QUIRE_REQUIRE_POSTGRES",
    "QUIRE_SCREENSHOTS",
    "QUIRE_SEARCH_P99_BUDGET_MS",
];

/// Families of harness knobs (`QUIRE_BENCH_DOCS`, `QUIRE_LTR_SIZES`, ...).
const NOT_SETTINGS_PREFIXES: &[&str] = &[
    "QUIRE_BENCH_",
    "QUIRE_FUZZ_",
    "QUIRE_LTR_",
    "QUIRE_SAVE_",
    "QUIRE_TEST_",
    "QUIRE_WRITE_",
];

/// A `QUIRE_*` variable that names no setting, with the setting it most likely meant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSetting {
    pub name: String,
    pub nearest: Option<String>,
}

impl fmt::Display for UnknownSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a quire setting", self.name)?;
        match &self.nearest {
            Some(near) => write!(f, "; did you mean {near}?"),
            None => f.write_str("; `quire config` lists them"),
        }
    }
}

/// Every setting's variable, from the one table in `Config`.
fn setting_names() -> Vec<String> {
    Standalone::command()
        .get_arguments()
        .filter_map(|a| a.get_env())
        .map(|e| e.to_string_lossy().into_owned())
        .collect()
}

fn known_elsewhere(name: &str) -> bool {
    NOT_SETTINGS.contains(&name) || NOT_SETTINGS_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// The variables among `names` that look like quire's (`QUIRE_` in any case) but
/// are neither a setting nor known to quire's own scripts, in name order.
pub fn unknown_settings(names: impl IntoIterator<Item = OsString>) -> Vec<UnknownSetting> {
    let settings = setting_names();
    let mut found: Vec<UnknownSetting> = names
        .into_iter()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| n.to_ascii_uppercase().starts_with("QUIRE_"))
        .filter(|n| !settings.contains(n) && !known_elsewhere(n))
        .map(|name| UnknownSetting {
            nearest: nearest(&name, &settings).map(str::to_owned),
            name,
        })
        .collect();
    found.sort_by(|a, b| a.name.cmp(&b.name));
    found
}

/// Logs one warning for each variable `unknown_settings` finds in the environment.
pub fn warn_about_unknown_settings() {
    for unknown in unknown_settings(std::env::vars_os().map(|(name, _)| name)) {
        tracing::warn!(variable = %unknown.name, "{unknown}");
    }
}

/// The setting `name` most likely meant: the fewest edits away when that is a
/// typo's worth (a third of the letters, at least two), or else sharing its first
/// four letters or more (`QUIRE_DATA_DIR` for `QUIRE_DATABASE_URL`); none if
/// nothing is that close.
fn nearest<'a>(name: &str, settings: &'a [String]) -> Option<&'a str> {
    let upper = name.to_ascii_uppercase();
    let typed = upper.strip_prefix("QUIRE_").unwrap_or(&upper);
    settings
        .iter()
        .filter_map(|s| {
            let tail = s.strip_prefix("QUIRE_")?;
            let edits = edit_distance(typed, tail);
            let shared = typed
                .bytes()
                .zip(tail.bytes())
                .take_while(|(a, b)| a == b)
                .count();
            let typo = edits <= (typed.len().max(tail.len()) / 3).max(2);
            (typo || shared >= 4).then_some((!typo, edits, s.as_str()))
        })
        .min()
        .map(|(_, _, s)| s)
}

/// Levenshtein distance: the fewest single-letter insertions, deletions and
/// substitutions that turn `a` into `b`.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitute = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reported(names: &[&str]) -> Vec<String> {
        unknown_settings(names.iter().map(OsString::from))
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn a_misspelt_setting_is_reported_with_the_one_it_most_likely_meant() {
        for (typed, meant) in [
            ("QUIRE_DATA_DIR", "QUIRE_DATABASE_URL"),
            ("QUIRE_DATABASE", "QUIRE_DATABASE_URL"),
            ("QUIRE_MAX_DOC_SIZE", "QUIRE_MAX_DOC_BYTES"),
            ("QUIRE_LOGS", "QUIRE_LOG"),
            ("QUIRE_LOGFORMAT", "QUIRE_LOG_FORMAT"),
            ("quire_bind", "QUIRE_BIND"),
            ("QUIRE_BIND_ADDR", "QUIRE_BIND"),
            ("QUIRE_SIGN_UP", "QUIRE_SIGNUP"),
            ("QUIRE_WORKER", "QUIRE_WORKERS"),
            ("QUIRE_PAGE_CACHE", "QUIRE_PAGE_CACHE_MB"),
            ("QUIRE_TRUSTED_PROXY", "QUIRE_TRUSTED_PROXIES"),
        ] {
            assert_eq!(
                reported(&[typed]),
                [format!(
                    "{typed} is not a quire setting; did you mean {meant}?"
                )],
            );
        }
    }

    #[test]
    fn a_name_like_no_setting_points_to_the_list() {
        assert_eq!(
            reported(&["QUIRE_XYZZY"]),
            ["QUIRE_XYZZY is not a quire setting; `quire config` lists them"]
        );
    }

    #[test]
    fn settings_other_programs_variables_and_harness_knobs_are_not_reported() {
        let names = [
            "QUIRE_BIND",
            "QUIRE_DATABASE_URL",
            "QUIRE_METRICS_TOKEN",
            "QUIRE_DB_PATH",
            "QUIRE_LITESTREAM_SOCKET",
            "QUIRE_TEST_POSTGRES",
            "QUIRE_BENCH_DOCS",
            "PATH",
            "QUIREBIND",
        ];
        assert_eq!(reported(&names), Vec::<String>::new());
    }

    /// Deliberate misspellings in tests of this check.
    const TYPOS_IN_TESTS: &[&str] = &["QUIRE_DATA_DIR", "QUIRE_XYZZY"];

    fn names_in(path: &std::path::Path, out: &mut std::collections::BTreeSet<String>) {
        if path.is_dir() {
            if path.ends_with("node_modules") {
                return;
            }
            for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
                names_in(&entry.path(), out);
            }
            return;
        }
        let Ok(text) = std::fs::read_to_string(path) else {
            return;
        };
        for (at, _) in text.match_indices("QUIRE_") {
            let name: String = text[at..]
                .chars()
                .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
                .collect();
            // `QUIRE_*`, `QUIRE_LTR_{name}`: a family, not a name; `__QUIRE_CSRF__`
            // is inside a longer word.
            let inside = text[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
            if !name.ends_with('_') && !inside {
                out.insert(name);
            }
        }
    }

    #[test]
    fn no_name_quires_own_files_set_is_reported() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut names = std::collections::BTreeSet::new();
        for place in [
            "Dockerfile",
            "compose.yaml",
            "compose.postgres.yaml",
            "deploy",
            "scripts",
            "benches",
            "tests",
            "docs",
            "README.md",
        ] {
            names_in(&root.join(place), &mut names);
        }
        assert!(names.contains("QUIRE_DB_PATH") && names.contains("QUIRE_BENCH_DOCS"));
        let reported: Vec<_> = unknown_settings(names.into_iter().map(OsString::from))
            .into_iter()
            .filter(|u| !TYPOS_IN_TESTS.contains(&u.name.as_str()))
            .collect();
        assert!(reported.is_empty(), "{reported:?}");
    }
}
