//! The names of the front matter fields folio reads, apart from the code
//! that reads them: site.toml's checks need them too (a taxonomy may not
//! take a name folio reads as something else), and the reader needs
//! site.toml, so they live in a leaf of their own.

/// The fields folio reads: its own, then those of Jekyll, Hugo and Zola
/// that mean one of its own (docs/content.md has the table). Any other field is
/// kept for templates (`post.extra.<name>`), unless it is one typo away
/// from one of these.
pub(crate) const FIELDS: &[&str] = &[
    "title",
    "date",
    "slug",
    "tags",
    "draft",
    "description",
    "translation_key",
    "updated",
    "summary",
    "authors",
    "lang",
    "permalink",
    "aliases",
    "template",
    "expires",
    "weight",
    // Other generators' names for folio's fields.
    "lastmod",
    "last_modified_at",
    "excerpt",
    "categories",
    "category",
    "author",
    "published",
    "url",
    "redirect_from",
    "layout",
    "expiryDate",
    "expirydate",
    // Zola's tables: `[taxonomies]` (the site's taxonomies' terms, the
    // others kept) and `[extra]` (kept).
    "taxonomies",
    "extra",
];
