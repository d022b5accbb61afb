//! The document list's page: its rows, the sort and filter form, the count and
//! numbered page links that keep the sort.

use askama::Template;

use super::pages::Row;
use crate::documents::Listing;

#[derive(Template)]
#[template(path = "documents/list_partial.html")]
pub struct ListPartial {
    pub rows: Vec<Row>,
    pub page: i64,
    pub more: bool,
    pub total: i64,
    /// The page numbers to link to; `None` stands for the ones left out.
    pub numbers: Vec<Option<i64>>,
    /// The sort and filter as query parameters, for every link (`sort=title&`).
    pub keep: String,
    pub sort: &'static str,
    pub order: &'static str,
    pub owner: &'static str,
}

impl ListPartial {
    pub fn new(rows: Vec<Row>, page: i64, total: i64, listing: Listing) -> Self {
        let last = (total.max(1) - 1) / crate::documents::PAGE_SIZE + 1;
        Self {
            rows,
            page,
            more: crate::documents::more_after(page, total),
            total,
            numbers: page_numbers(page, last),
            keep: listing.query(),
            sort: listing.sort.as_str(),
            order: listing.order.map_or("", |o| o.as_str()),
            owner: listing.owner.map_or("", |o| o.as_str()),
        }
    }
}

/// Links to the first and last pages and the two either side of `page`, with
/// `None` where numbers are left out: 1 … 4 5 [6] 7 8 … 20.
pub fn page_numbers(page: i64, last: i64) -> Vec<Option<i64>> {
    if last <= 1 {
        return Vec::new();
    }
    let mut out = Vec::new();
    let (from, to) = (
        page.saturating_sub(2).max(2),
        page.saturating_add(2).min(last - 1),
    );
    out.push(Some(1));
    if from > 2 {
        out.push(None);
    }
    out.extend((from..=to).map(Some));
    if to < last - 1 {
        out.push(None);
    }
    out.push(Some(last));
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn page_numbers_show_both_ends_and_two_either_side_with_gaps_between() {
        let shown = |page, last| super::page_numbers(page, last);
        assert!(shown(1, 1).is_empty());
        assert_eq!(shown(1, 3), [Some(1), Some(2), Some(3)]);
        assert_eq!(
            shown(6, 20),
            [
                Some(1),
                None,
                Some(4),
                Some(5),
                Some(6),
                Some(7),
                Some(8),
                None,
                Some(20)
            ]
        );
        assert_eq!(shown(i64::MAX - 1, 3), [Some(1), None, Some(3)]);
    }
}
