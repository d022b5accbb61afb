//! A count in words: the number with its noun in the right number.

/// "1 document", "2 documents": a count with its noun in the right number.
pub fn counted(n: impl std::borrow::Borrow<u64>, one: &str, many: &str) -> String {
    let n = *n.borrow();
    format!("{n} {}", if n == 1 { one } else { many })
}
