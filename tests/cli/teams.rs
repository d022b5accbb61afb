//! Spaces on the command line: `quire import --space` puts a folder where a
//! team reads it, and `quire invite` makes a link to join.

use super::instance::Instance;

#[test]
fn an_import_into_the_team_space_is_read_by_the_team_and_one_without_stays_with_its_owner() {
    let q = Instance::new();
    q.user("ada", true);
    q.user("bo", false);
    let team = q.dir.path().join("team");
    std::fs::create_dir_all(&team).unwrap();
    std::fs::write(team.join("handbook.md"), "# Handbook\n\nHow we work.\n").unwrap();
    let own = q.dir.path().join("own");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::write(own.join("diary.md"), "# Diary\n\nMine.\n").unwrap();

    q.ok(&["import", team.to_str().unwrap(), "--space", "team"]);
    q.ok(&["import", own.to_str().unwrap()]);
    assert_eq!(
        q.readable_by("bo"),
        ["Handbook"],
        "the team's import, not ada's own"
    );
    assert_eq!(q.readable_by("ada"), ["Diary", "Handbook"]);

    let out = q.run(&["import", own.to_str().unwrap(), "--space", "Nowhere"]);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("there is no space called \"Nowhere\""),
        "{said}"
    );
}

#[test]
fn quire_invite_prints_a_link_to_join_and_refuses_a_space_that_does_not_exist() {
    let q = Instance::new();
    q.user("ada", true);
    let link = q.ok(&["invite", "--space", "Team:read", "--days", "3"]);
    let link = link.trim();
    let token = link
        .strip_prefix("http://127.0.0.1:18080/join/")
        .unwrap_or_else(|| panic!("a link to join: {link}"));
    assert_eq!(token.len(), 64);
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));

    let out = q.run(&["invite", "--space", "Nowhere"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("there is no space called"));
    let out = q.run(&["invite", "--days", "400"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 to 90 days"));
}
