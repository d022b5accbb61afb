//! Front matter: the `---` block of YAML `key: value` lines at the top of a
//! text, read as far as quire reads it (scalars and lists of scalars). The
//! import reads its keys (`transfer::frontmatter`); a document's `aliases`
//! are other titles its links resolve to (`aliases`).

/// The front matter block at the top of `text`, if there is one, as its lines
/// (without the `---` fences) and the text after its closing fence.
pub fn block(text: &str) -> Option<(&str, &str)> {
    let inner = text.strip_prefix("---\n")?;
    let mut at = 0;
    for line in inner.split_inclusive('\n') {
        let bare = line.trim_end_matches('\n');
        if bare == "---" || bare == "..." {
            return Some((&inner[..at], &inner[at + line.len()..]));
        }
        at += line.len();
    }
    None
}

/// The key a front matter line sets at the top level, if it sets one.
pub fn top_level_key(line: &str) -> Option<&str> {
    if line.starts_with([' ', '\t', '-', '#']) {
        return None;
    }
    let (key, _) = line.split_once(':')?;
    (!key.is_empty() && !key.contains(' ')).then_some(key)
}

/// A scalar as YAML writes it: "double quoted" (JSON escapes), 'single quoted',
/// or plain. None for what quire does not read as a scalar (lists, blocks).
pub fn scalar(raw: &str) -> Option<String> {
    let raw = raw.trim();
    if raw.starts_with('"') {
        serde_json::from_str(raw).ok()
    } else if let Some(inner) = raw.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')) {
        Some(inner.replace("''", "'"))
    } else if raw.is_empty() || raw.starts_with(['[', '{', '|', '>', '&', '*', '!']) {
        None
    } else {
        Some(raw.to_owned())
    }
}

/// The items of a list key (`tags`, `aliases`): `[a, "b"]`, `a, b`, `a b`, or (with nothing
/// after the colon) the `- item` lines that follow. `None` for anything else,
/// which is then kept as it is.
pub fn tag_list(value: &str, following: &[&str]) -> Option<Vec<String>> {
    let value = value.trim();
    if value.is_empty() {
        return following
            .iter()
            .map(|l| l.trim_start().strip_prefix("- ").and_then(scalar))
            .collect();
    }
    if let Some(inner) = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
        if let Ok(items) = serde_json::from_str::<Vec<String>>(value) {
            return Some(items);
        }
        if inner.contains(['"', '\'', '[', '{']) {
            return None;
        }
        return Some(inner.split(',').map(|t| t.trim().to_owned()).collect());
    }
    let plain = scalar(value)?;
    let items: Vec<String> = if plain.contains(',') {
        plain.split(',').map(|t| t.trim().to_owned()).collect()
    } else {
        plain.split_whitespace().map(str::to_owned).collect()
    };
    (following.is_empty()).then_some(items)
}

/// The most aliases a document has, and the longest (a title's limit).
const MOST_ALIASES: usize = 20;
const LONGEST_ALIAS: usize = 200;

/// The other titles a text's front matter gives its document (`aliases:` or
/// `alias:`, a list or one title; commas part titles in a plain value), as
/// written, each once.
pub fn aliases(text: &str) -> Vec<String> {
    let Some((lines, _)) = block(text) else {
        return Vec::new();
    };
    let all: Vec<&str> = lines.lines().collect();
    let mut out: Vec<String> = Vec::new();
    for (i, line) in all.iter().enumerate() {
        let Some(key) = top_level_key(line).filter(|k| ["aliases", "alias"].contains(k)) else {
            continue;
        };
        let value = &line[key.len() + 1..];
        let items: Vec<&str> = all[i + 1..]
            .iter()
            .copied()
            .take_while(|l| l.starts_with([' ', '\t', '-']))
            .collect();
        let flow = value
            .trim()
            .strip_prefix('[')
            .and_then(|v| v.strip_suffix(']'));
        let listed = match (scalar(value), flow) {
            (Some(plain), _) => plain.split(',').map(str::to_owned).collect(),
            (None, Some(inner)) => flow_items(inner),
            (None, None) => tag_list(value, &items).unwrap_or_default(),
        };
        for alias in listed {
            let alias = alias.split_whitespace().collect::<Vec<_>>().join(" ");
            if !alias.is_empty()
                && alias.chars().count() <= LONGEST_ALIAS
                && !out.contains(&alias)
                && out.len() < MOST_ALIASES
            {
                out.push(alias);
            }
        }
    }
    out
}

/// The items of a flow list's inside (`One, "Two, three", 'four'`): commas
/// part them outside quotes; an item that is no scalar is left out.
fn flow_items(inner: &str) -> Vec<String> {
    let mut items = Vec::new();
    let (mut start, mut quote) = (0, None);
    for (i, c) in inner.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, ',') => {
                items.extend(scalar(&inner[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    items.extend(scalar(&inner[start..]));
    items
}

#[cfg(test)]
mod tests {
    use super::aliases;

    #[test]
    fn aliases_come_as_lists_or_one_title() {
        let block =
            "---\ntitle: x\naliases:\n  - Website redesign\n  - \"Web: 2.0\"\ntags: [a]\n---\nText";
        assert_eq!(aliases(block), ["Website redesign", "Web: 2.0"]);
        assert_eq!(
            aliases("---\naliases: [One, \"Two  words\"]\n---\n"),
            ["One", "Two words"]
        );
        assert_eq!(aliases("---\nalias: Roadmap 2027\n---\n"), ["Roadmap 2027"]);
        assert_eq!(aliases("---\naliases: a, b,  , a\n---\n"), ["a", "b"]);
    }

    #[test]
    fn no_front_matter_or_a_broken_one_gives_none() {
        assert!(aliases("aliases: [x]\n").is_empty());
        assert!(aliases("---\naliases: [x]\nno end").is_empty());
        assert!(aliases("---\naliases:\n---\n").is_empty());
        assert!(aliases("---\naliases: [\"unclosed]\n---\n").is_empty());
        assert_eq!(
            aliases("---\naliases: [\"a, b\", 'c', d]\n---\n"),
            ["a, b", "c", "d"]
        );
        let many: String = (0..30).map(|i| format!("  - a{i}\n")).collect();
        assert_eq!(aliases(&format!("---\naliases:\n{many}---\n")).len(), 20);
    }
}
