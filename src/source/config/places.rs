//! The settings that name where documents and lists go, checked: the
//! folders of posts (`post_sections`), their URLs (`permalink`), and the
//! taxonomies a site groups its posts by (`taxonomies`, as Zola's and
//! Hugo's), each name a field of the front matter (`series: [...]`), a
//! folder of every language's place (`/fr/series/`) holding a page per term,
//! and a list `feeds_for` may name. Each error is a message and its help.

use crate::source::field_names::FIELDS;

const PERMALINK_FIELDS: &[&str] = &["lang", "section", "slug", "year", "month", "day"];

/// Tags alone, as a site that says nothing has always had.
pub(super) fn default_taxonomies() -> Vec<String> {
    vec!["tags".to_owned()]
}

/// `post_sections`, `permalink` and `taxonomies`, checked.
pub(super) fn check(
    post_sections: &[String],
    permalink: &str,
    taxonomies: &[String],
) -> Result<(), (String, String)> {
    let sections_help = "list the folders that hold posts, one name each, e.g. `post_sections = [\"posts\", \"blog\"]`";
    if post_sections.is_empty() {
        return Err(("post_sections is empty".into(), sections_help.into()));
    }
    if let Some(bad) = post_sections
        .iter()
        .find(|s| s.is_empty() || s.contains(['/', '\\']) || s.starts_with('.'))
    {
        return Err((
            format!("post_sections: `{bad}` is not a folder name"),
            sections_help.into(),
        ));
    }
    check_permalink(permalink).map_err(|why| {
        (
            format!("permalink `{permalink}` {why}"),
            "write a path such as `/{lang}/posts/{slug}/` or `/{lang}/{year}/{month}/{slug}/`"
                .into(),
        )
    })?;
    check_taxonomies(taxonomies, post_sections)
}

/// A permalink starts and ends with `/`, holds `{slug}`, and names only the
/// fields it can be given.
fn check_permalink(pattern: &str) -> Result<(), String> {
    if !pattern.starts_with('/') || !pattern.ends_with('/') {
        return Err("must start and end with `/`".into());
    }
    if !pattern.contains("{slug}") {
        return Err("must contain `{slug}`, or two posts would share a URL".into());
    }
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            return Err("has an unclosed `{`".into());
        };
        let field = &rest[open + 1..open + close];
        if !PERMALINK_FIELDS.contains(&field) {
            return Err(format!(
                "names `{{{field}}}`; the fields are {}",
                PERMALINK_FIELDS
                    .iter()
                    .map(|f| format!("{{{f}}}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        rest = &rest[open + close + 1..];
    }
    if pattern.split('/').any(|s| s == "." || s == "..") {
        return Err("must not contain `.` or `..` segments".into());
    }
    Ok(())
}

/// Each name is a folder name folio can write under every language and a
/// field it can read as terms.
fn check_taxonomies(names: &[String], post_sections: &[String]) -> Result<(), (String, String)> {
    let shape = "a taxonomy is named in lower-case letters, digits, `-` and `_`, starting with a letter, e.g. `taxonomies = [\"tags\", \"categories\", \"series\"]`";
    for (at, name) in names.iter().enumerate() {
        let well_formed = name.starts_with(|c: char| c.is_ascii_lowercase())
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_'));
        if !well_formed {
            return Err((
                format!("taxonomies: `{name}` is not a name folio can use"),
                shape.into(),
            ));
        }
        if names[..at].contains(name) {
            return Err((
                format!("taxonomies: `{name}` is named twice"),
                "name each taxonomy once".into(),
            ));
        }
        // `categories` is Jekyll's and Hugo's taxonomy as much as a field.
        if name != "tags" && name != "categories" && FIELDS.contains(&name.as_str()) {
            return Err((
                format!(
                    "taxonomies: `{name}` is a front matter field folio reads as something else"
                ),
                format!("name the taxonomy otherwise, e.g. `{name}s`"),
            ));
        }
        // Page 2 of a language's home is `/page/2/`.
        if name == "page" || post_sections.contains(name) {
            return Err((
                format!("taxonomies: `{name}`'s pages would be where the site's other pages are"),
                format!("name the taxonomy otherwise, e.g. `{name}s`"),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn permalinks_are_checked() {
        for good in [
            "/{lang}/posts/{slug}/",
            "/{lang}/{year}/{month}/{day}/{slug}/",
            "/{slug}/",
        ] {
            assert!(check_permalink(good).is_ok(), "{good}");
        }
        for bad in [
            "/{lang}/posts/",
            "{slug}/",
            "/{slug}",
            "/{slug}/{hour}/",
            "/../{slug}/",
            "/{slug/",
        ] {
            assert!(check_permalink(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_taxonomy_is_a_folder_and_a_field_of_its_own() {
        let posts = names(&["posts"]);
        assert!(
            check_taxonomies(
                &names(&["tags", "categories", "series", "reading-list"]),
                &posts
            )
            .is_ok()
        );
        for bad in ["Tags", "", "1st", "a b", "a/b", "é"] {
            let (message, _) = check_taxonomies(&names(&[bad]), &posts).unwrap_err();
            assert!(message.contains("not a name"), "{bad}: {message}");
        }
        let (message, _) = check_taxonomies(&names(&["tags", "tags"]), &posts).unwrap_err();
        assert!(message.contains("named twice"), "{message}");
        let (message, help) = check_taxonomies(&names(&["title"]), &posts).unwrap_err();
        assert!(
            message.contains("folio reads") && help.contains("`titles`"),
            "{message}"
        );
        for clash in ["page", "posts"] {
            let (message, _) = check_taxonomies(&names(&[clash]), &posts).unwrap_err();
            assert!(message.contains("other pages"), "{clash}: {message}");
        }
    }
}
