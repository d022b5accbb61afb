//! Ticking a task-list box: the `[ ]` or `[x]` of the n-th task in the text,
//! found by the same parser that renders it, so the n-th box on the page is the
//! n-th task here.

use pulldown_cmark::{Event, Parser};

/// The text with its `index`-th task (from 0) marked done or not; `None` when
/// the text has no such task.
pub fn set_task(body: &str, index: usize, done: bool) -> Option<String> {
    let range = Parser::new_ext(body, super::render::OPTIONS)
        .into_offset_iter()
        .filter(|(e, _)| matches!(e, Event::TaskListMarker(_)))
        .nth(index)
        .map(|(_, r)| r)?;
    // The marker's range covers `[ ]`, `[x]` or `[X]`: the mark is its middle byte.
    let marker = body.get(range.clone())?;
    if marker.len() != 3 || !marker.starts_with('[') || !marker.ends_with(']') {
        return None;
    }
    let mut out = String::with_capacity(body.len());
    out.push_str(&body[..range.start + 1]);
    out.push(if done { 'x' } else { ' ' });
    out.push_str(&body[range.start + 2..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::set_task;

    #[test]
    fn the_nth_task_is_ticked_and_nothing_else_changes() {
        let text = "- [ ] one\n- [x] two\n\n> - [ ] quoted\n\n`- [ ] not a task`\n";
        assert_eq!(
            set_task(text, 0, true).as_deref(),
            Some("- [x] one\n- [x] two\n\n> - [ ] quoted\n\n`- [ ] not a task`\n")
        );
        assert_eq!(
            set_task(text, 1, false).as_deref(),
            Some("- [ ] one\n- [ ] two\n\n> - [ ] quoted\n\n`- [ ] not a task`\n")
        );
        assert_eq!(
            set_task(text, 2, true).as_deref(),
            Some("- [ ] one\n- [x] two\n\n> - [x] quoted\n\n`- [ ] not a task`\n")
        );
        assert_eq!(set_task(text, 3, true), None, "code is not a task");
        assert_eq!(
            set_task("- [X] caps", 0, false).as_deref(),
            Some("- [ ] caps")
        );
    }
}
