//! The document list's folder tree, drawn without JavaScript: nested
//! `<details>` that open along the path to the folder being shown. The tree is
//! a flat run of steps (open a folder with sub-folders, show one without, close)
//! that the template follows in order.

/// A folder as the tree shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// Its own name, the last part of its path.
    pub name: String,
    /// Its whole path, for the link that narrows the list to it.
    pub path: String,
    /// The documents in it and in the folders under it.
    pub count: i64,
    /// The list shows this folder, or one under it: drawn open.
    pub open: bool,
    /// The list shows exactly this folder.
    pub current: bool,
    /// How many folders are directly in it.
    pub folders: usize,
}

/// One step of drawing the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A folder with sub-folders: its `<details>` and its list open here.
    Open(Node),
    /// A folder without sub-folders.
    Leaf(Node),
    /// The last open folder's list and `<details>` close here.
    Close,
}

/// The steps for `folders` (each folder that directly holds documents, with
/// how many) with `shown` the folder the list is narrowed to. Folders that hold
/// only folders are drawn too; the root's documents are not a folder.
pub fn steps(folders: &[(String, i64)], shown: Option<&str>) -> Vec<Step> {
    // Every folder and every folder above one, with the documents directly in it.
    let mut own: std::collections::HashMap<Vec<&str>, i64> = std::collections::HashMap::new();
    for (path, count) in folders.iter().filter(|(p, _)| !p.is_empty()) {
        let parts: Vec<&str> = path.split('/').collect();
        for depth in 1..parts.len() {
            own.entry(parts[..depth].to_vec()).or_insert(0);
        }
        *own.entry(parts).or_insert(0) += count;
    }
    let mut paths: Vec<(Vec<&str>, i64)> = own.into_iter().collect();
    // Part by part, case aside: a folder comes right before what is under it,
    // so what is under a folder is the run of paths that follows it.
    paths.sort_by_cached_key(|(parts, _)| {
        parts
            .iter()
            .map(|p| (p.to_lowercase(), *p))
            .collect::<Vec<_>>()
    });
    let under = |a: &[&str], b: &[&str]| b.len() > a.len() && b[..a.len()] == *a;
    let shown: Vec<&str> = shown.map_or(Vec::new(), |s| s.split('/').collect());
    let mut out = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    for (i, (parts, own_count)) in paths.iter().enumerate() {
        while let Some(&top) = open.last() {
            if under(&paths[top].0, parts) {
                break;
            }
            open.pop();
            out.push(Step::Close);
        }
        let below = paths[i + 1..].iter().take_while(|(p, _)| under(parts, p));
        let (count, folders) = below.fold((*own_count, 0), |(n, f), (p, c)| {
            (n + c, f + usize::from(p.len() == parts.len() + 1))
        });
        let node = Node {
            name: parts.last().copied().unwrap_or_default().to_owned(),
            path: parts.join("/"),
            count,
            open: *parts == shown || under(parts, &shown),
            current: *parts == shown,
            folders,
        };
        if folders > 0 {
            open.push(i);
            out.push(Step::Open(node));
        } else {
            out.push(Step::Leaf(node));
        }
    }
    out.extend(open.iter().map(|_| Step::Close));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawn(steps: &[Step]) -> String {
        steps
            .iter()
            .map(|s| match s {
                Step::Open(n) => {
                    format!("{}({}){}[", n.name, n.count, if n.open { "*" } else { "" })
                }
                Step::Leaf(n) => format!(
                    "{}({}){} ",
                    n.name,
                    n.count,
                    if n.current { "!" } else { "" }
                ),
                Step::Close => "] ".into(),
            })
            .collect()
    }

    #[test]
    fn folders_nest_count_what_is_under_them_and_open_toward_the_one_shown() {
        let folders = [
            (String::new(), 4),
            ("Projects/Garden".to_owned(), 2),
            ("Projects".to_owned(), 1),
            ("Projects b".to_owned(), 1),
            ("archive/2024/q1".to_owned(), 3),
            ("Projects/Garden/Seeds".to_owned(), 1),
        ];
        let steps = steps(&folders, Some("Projects/Garden"));
        assert_eq!(
            drawn(&steps),
            "archive(3)[2024(3)[q1(3) ] ] Projects(4)*[Garden(3)*[Seeds(1) ] ] Projects b(1) "
        );
        let Step::Open(garden) = &steps[6] else {
            panic!("{steps:?}")
        };
        assert!(garden.current && garden.path == "Projects/Garden" && garden.folders == 1);
        assert!(super::steps(&[(String::new(), 3)], None).is_empty());
    }
}
