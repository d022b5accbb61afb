//! Checks on a document's input: sizes as stored, titles, line ends.

use super::*;

#[test]
fn oversized_body_is_refused_before_the_title_is_looked_at() {
    let err = Valid::parse("", &"x".repeat(11), 10).unwrap_err();
    assert!(matches!(err, DocError::TooLarge { size: 11, cap: 10 }));
}

#[test]
fn the_cap_applies_to_the_body_as_stored() {
    // Line ends are stored as LF: CRLF counts one byte.
    let crlf = "line\r\n".repeat(5);
    assert_eq!(stored_len(&crlf), 25);
    assert_eq!(
        Valid::parse("t", &crlf, 25).unwrap().body(),
        "line\n".repeat(5)
    );
    // A NUL is stored as U+FFFD, three bytes.
    let nul = format!("{}{}", "a".repeat(7), "\0".repeat(3));
    assert!(matches!(
        Valid::parse("t", &nul, 10),
        Err(DocError::TooLarge { size: 16, cap: 10 })
    ));
    for text in ["a\r\r\nb\rc\0", "\r\n\0\r", "plain"] {
        assert_eq!(stored_len(text), as_stored(text).len(), "{text:?}");
    }
}

#[test]
fn cap_counts_utf8_bytes_not_characters() {
    // Four characters, twelve bytes.
    assert!(Valid::parse("t", "日本語!", 10).is_ok());
    assert!(Valid::parse("t", "日本語日", 11).is_err());
}

#[test]
fn titles_are_trimmed_and_must_not_be_empty() {
    assert!(matches!(
        Valid::parse("   ", "", 10),
        Err(DocError::EmptyTitle)
    ));
    assert_eq!(Valid::parse("  Hi ", "", 10).unwrap().title(), "Hi");
    for invisible in ["\u{200B}", "\u{202E}\u{FEFF}", " \u{200B}\u{200D} "] {
        assert!(matches!(
            Valid::parse(invisible, "", 10),
            Err(DocError::EmptyTitle)
        ));
    }
    assert!(Valid::parse("\u{200B}a", "", 10).is_ok());
    assert!(matches!(
        Valid::parse(&"é".repeat(201), "", 10),
        Err(DocError::TitleTooLong { chars: 201 })
    ));
}

#[test]
fn too_large_message_names_the_limit_and_the_size() {
    let msg = too_large_message(300_000, 262_144);
    assert!(msg.contains("300,000 bytes"), "{msg}");
    assert!(msg.contains("262,144 bytes (256 KiB)"), "{msg}");
}
