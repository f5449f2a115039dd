//! The taxonomies a site groups its posts by (`taxonomies`, as Zola's and
//! Hugo's): each name is a field of the front matter (`series: [...]`), a
//! folder of every language's place (`/fr/series/`) holding a page per term,
//! and a list `feeds_for` may name.

use crate::source::field_names::FIELDS;

/// Tags alone, as a site that says nothing has always had.
pub(super) fn default_taxonomies() -> Vec<String> {
    vec!["tags".to_owned()]
}

/// Each name is a folder name folio can write under every language and a
/// field it can read as terms; `feeds_for` names only lists the site has.
pub(super) fn check(names: &[String], post_sections: &[String]) -> Result<(), (String, String)> {
    let shape = "a taxonomy is named in lower-case letters, digits, `-` and `_`, starting with a letter, e.g. `taxonomies = [\"tags\", \"categories\", \"series\"]`";
    for (at, name) in names.iter().enumerate() {
        let well_formed = name.starts_with(|c: char| c.is_ascii_lowercase())
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_'));
        if !well_formed {
            return Err((format!("taxonomies: `{name}` is not a name folio can use"), shape.into()));
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
                format!("taxonomies: `{name}` is a front matter field folio reads as something else"),
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
    fn a_taxonomy_is_a_folder_and_a_field_of_its_own() {
        let posts = names(&["posts"]);
        assert!(check(&names(&["tags", "categories", "series", "reading-list"]), &posts).is_ok());
        for bad in ["Tags", "", "1st", "a b", "a/b", "é"] {
            let (message, _) = check(&names(&[bad]), &posts).unwrap_err();
            assert!(message.contains("not a name"), "{bad}: {message}");
        }
        let (message, _) = check(&names(&["tags", "tags"]), &posts).unwrap_err();
        assert!(message.contains("named twice"), "{message}");
        let (message, help) = check(&names(&["title"]), &posts).unwrap_err();
        assert!(message.contains("folio reads") && help.contains("`titles`"), "{message}");
        for clash in ["page", "posts"] {
            let (message, _) = check(&names(&[clash]), &posts).unwrap_err();
            assert!(message.contains("other pages"), "{clash}: {message}");
        }
    }
}
