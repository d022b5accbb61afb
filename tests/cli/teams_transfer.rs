//! Spaces travel with an export: each document's front matter names its
//! space, the manifest describes the spaces with their members and groups, and
//! an import into another quire makes them again, so the same people read the
//! same documents there. A vault's top folders can become spaces.

use quire::db::Db;
use quire::documents::{self, Actor, InSpace, Valid};
use quire::teams::{Manager, Role};

use super::instance::Instance;

async fn id_of(db: &Db, name: &str) -> i64 {
    quire::db::query_scalar("SELECT id FROM users WHERE username = $1")
        .bind(name)
        .fetch_one(&db.read)
        .await
        .unwrap()
}

#[tokio::test]
async fn an_export_imported_into_another_quire_keeps_each_documents_space_and_its_members() {
    let from = Instance::made().await;
    for (name, admin) in [("ada", true), ("bo", false), ("cy", false), ("di", false)] {
        from.user(name, admin);
    }
    let db = from.db().await;
    let ada = Manager {
        user_id: id_of(&db, "ada").await,
        name: "ada",
        is_admin: true,
    };
    let lab = quire::teams::spaces::create(&db, ada, "Lab", None)
        .await
        .unwrap();
    quire::teams::spaces::put_member(&db, ada, lab, "bo", Role::Edit)
        .await
        .unwrap();
    let readers = quire::teams::groups::create(&db, ada, "Readers")
        .await
        .unwrap();
    quire::teams::groups::add(&db, ada, readers, "cy")
        .await
        .unwrap();
    quire::teams::spaces::put_member(&db, ada, lab, "Readers", Role::Read)
        .await
        .unwrap();
    let actor = Actor {
        user_id: ada.user_id,
        name: "ada",
    };
    for (title, space) in [
        ("Assay", Some(InSpace::Id(lab))),
        ("Diary", Some(InSpace::Personal)),
    ] {
        let valid = Valid::parse(title, "text", 1 << 20).unwrap();
        documents::create_in(&db, valid, actor.into(), space)
            .await
            .unwrap();
    }
    db.close().await;
    assert_eq!(from.readable_by("cy"), ["Assay"]);
    let zip = from.dir.path().join("all.zip");
    from.ok(&["export", zip.to_str().unwrap()]);

    // Another quire with the same people (not yet in any space but Team).
    let to = Instance::made().await;
    for (name, admin) in [("ada", true), ("bo", false), ("cy", false), ("di", false)] {
        to.user(name, admin);
    }
    let said = to.ok(&["import", zip.to_str().unwrap()]);
    assert!(said.contains("made the space \"Lab\""), "{said}");
    assert_eq!(to.readable_by("ada"), ["Assay", "Diary"]);
    assert_eq!(to.readable_by("bo"), ["Assay"], "bo edits in Lab");
    assert_eq!(to.readable_by("cy"), ["Assay"], "cy reads through Readers");
    assert!(to.readable_by("di").is_empty(), "di is in neither");
    let db = to.db().await;
    let roles: Vec<(String, i64)> = quire::db::query_as(
        "SELECT COALESCE(u.username, g.name), m.role FROM space_members m
           JOIN spaces s ON s.id = m.space_id
           LEFT JOIN users u ON u.id = m.user_id LEFT JOIN user_groups g ON g.id = m.group_id
         WHERE s.name = 'Lab' ORDER BY 1",
    )
    .fetch_all(&db.read)
    .await
    .unwrap();
    assert_eq!(
        roles,
        [
            ("Readers".to_owned(), 1),
            ("ada".to_owned(), 3),
            ("bo".to_owned(), 2)
        ]
    );
    db.close().await;

    // Imported again: nothing new, no second Lab.
    let again = to.ok(&["import", zip.to_str().unwrap()]);
    assert!(!again.contains("made the space"), "{again}");
}

#[tokio::test]
async fn a_vaults_top_folders_become_spaces_everyone_edits() {
    let q = Instance::made().await;
    q.user("ada", true);
    q.user("bo", false);
    let vault = q.dir.path().join("vault");
    for (path, text) in [
        ("Handbook/Onboarding/first-day.md", "# First day\n"),
        ("Handbook/holidays.md", "# Holidays\n"),
        ("Research/assay.md", "# Assay\n"),
        ("loose.md", "# Loose\n"),
    ] {
        let file = vault.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    let said = q.ok(&["import", vault.to_str().unwrap(), "--spaces-from-folders"]);
    assert!(
        said.contains("made the space \"Handbook\"")
            && said.contains("made the space \"Research\""),
        "{said}"
    );
    assert_eq!(
        q.readable_by("bo"),
        ["Assay", "First day", "Holidays"],
        "a top-level file stays its owner's"
    );
    let db = q.db().await;
    let placed: Vec<(String, String, String)> = quire::db::query_as(
        "SELECT d.title, s.name, d.folder FROM documents d JOIN spaces s ON s.id = d.space_id
         ORDER BY d.title",
    )
    .fetch_all(&db.read)
    .await
    .unwrap();
    let placed: Vec<(&str, &str, &str)> = placed
        .iter()
        .map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_str()))
        .collect();
    assert_eq!(
        placed,
        [
            ("Assay", "Research", ""),
            ("First day", "Handbook", "Onboarding"),
            ("Holidays", "Handbook", "")
        ]
    );
    db.close().await;
}
