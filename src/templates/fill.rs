//! A template's fields: `{{date}}`, `{{time}}`, `{{title}}` and `{{author}}`
//! (spaces inside the braces allowed), filled when a new document starts from
//! it. Anything else in double braces is left as written.

/// What the fields are filled with. `title: None` leaves `{{title}}` for the
/// save to fill, when the new document has its title.
pub struct Fields<'a> {
    pub date: String,
    pub time: String,
    pub title: Option<&'a str>,
    pub author: &'a str,
}

impl<'a> Fields<'a> {
    /// The fields at `now_ms` (UTC) for `author`.
    pub fn at(now_ms: i64, author: &'a str, title: Option<&'a str>) -> Self {
        let t = chrono::DateTime::from_timestamp_millis(now_ms).unwrap_or_default();
        Self {
            date: t.format("%Y-%m-%d").to_string(),
            time: t.format("%H:%M").to_string(),
            title,
            author,
        }
    }

    fn value(&self, name: &str) -> Option<&str> {
        match name {
            "date" => Some(&self.date),
            "time" => Some(&self.time),
            "author" => Some(self.author),
            "title" => self.title,
            _ => None,
        }
    }
}

/// `text` with every known field filled.
pub fn fill(text: &str, fields: &Fields<'_>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            break;
        };
        let name = after[..close].trim();
        out.push_str(&rest[..open]);
        match fields.value(name) {
            Some(v) if !name.contains('{') => out.push_str(v),
            _ => out.push_str(&rest[open..open + 2 + close + 2]),
        }
        rest = &after[close + 2..];
    }
    out.push_str(rest);
    out
}

/// `text` with `{{title}}` filled with `title` (the save of a document that
/// started from a template, once it has its title).
pub fn fill_title(text: &str, title: &str) -> String {
    let fields = Fields {
        date: "{{date}}".into(),
        time: "{{time}}".into(),
        title: Some(title),
        author: "{{author}}",
    };
    fill(text, &fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields() -> Fields<'static> {
        // 2026-11-27 09:05 UTC.
        Fields::at(1_795_770_300_000, "alice", None)
    }

    #[test]
    fn fills_known_fields_and_keeps_the_rest() {
        let out = fill(
            "# {{ date }} standup\nby {{author}} at {{time}}: {{title}} {{nope}} {{",
            &fields(),
        );
        assert_eq!(
            out,
            "# 2026-11-27 standup\nby alice at 09:05: {{title}} {{nope}} {{"
        );
    }

    #[test]
    fn title_is_filled_when_known() {
        let f = Fields::at(0, "bob", Some("Weekly"));
        assert_eq!(fill("{{title}}/{{title}}", &f), "Weekly/Weekly");
        assert_eq!(
            fill_title("{{date}} {{title}} {{ author }}", "Q3"),
            "{{date}} Q3 {{author}}"
        );
    }

    #[test]
    fn a_value_is_not_filled_again() {
        // A title that itself looks like a field stays as typed.
        let f = Fields::at(0, "{{date}}", Some("{{time}}"));
        assert_eq!(fill("{{author}} {{title}}", &f), "{{date}} {{time}}");
    }

    #[test]
    fn odd_braces_are_kept() {
        let f = fields();
        assert_eq!(fill("{{{date}}}", &f), "{{{date}}}");
        assert_eq!(fill("a }} b {{", &f), "a }} b {{");
        assert_eq!(fill("ü{{date}}é", &f), "ü2026-11-27é");
    }
}
