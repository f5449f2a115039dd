//! The menus of each language as its pages show them: site.toml's entries
//! (the language's own menus over the site's), each `@/` path resolved to
//! the version of its document in that language, nested by `parent`,
//! lightest weight first. Every page of a language shows them: their
//! digest is in each of its fingerprints.

use super::*;

use crate::source::config::{CONFIG_FILE, MenuItem};
use crate::source::html::INTERNAL_LINK;

/// A language's menus, by name.
pub(super) type LanguageMenus = Shared<BTreeMap<String, Vec<MenuView>>>;

impl Model {
    /// Each language's menus, or the problems of the `@/` paths that lead
    /// nowhere.
    pub(super) fn menus(
        &self,
        config: &Config,
    ) -> Result<BTreeMap<String, LanguageMenus>, Vec<Problem>> {
        let mut problems = Vec::new();
        let mut by_lang = BTreeMap::new();
        for (code, _) in config.ordered_languages() {
            let menus = config
                .menus_in(code)
                .into_iter()
                .map(|(name, items)| {
                    let mut url_of = |item: &MenuItem| {
                        let Some(target) = item.url.strip_prefix(INTERNAL_LINK) else {
                            return item.url.clone();
                        };
                        self.url_from(code, target)
                            .unwrap_or_else(|(message, help)| {
                                let message =
                                    format!("in menus.{name}, `{}`: {message}", item.name);
                                let link = item.url.clone();
                                let kind = ProblemKind::BrokenLink {
                                    link,
                                    message,
                                    help,
                                };
                                problems.push(Problem::new(CONFIG_FILE, None, kind));
                                String::new()
                            })
                    };
                    let resolved: Vec<(MenuItem, String)> = items
                        .into_iter()
                        .map(|item| {
                            let url = url_of(&item);
                            (item, url)
                        })
                        .collect();
                    (name, nested(&resolved, None))
                })
                .collect();
            by_lang.insert(code.clone(), Shared::new(menus));
        }
        problems.dedup_by(|a, b| a.to_string() == b.to_string());
        if problems.is_empty() {
            Ok(by_lang)
        } else {
            Err(problems)
        }
    }
}

/// The entries of `items` under `parent` (the top ones for `None`), each
/// with those under it, lightest first, equal weights as written.
fn nested(items: &[(MenuItem, String)], parent: Option<&str>) -> Vec<MenuView> {
    let mut level: Vec<&(MenuItem, String)> = items
        .iter()
        .filter(|(item, _)| item.parent.as_deref() == parent)
        .collect();
    level.sort_by_key(|(item, _)| item.weight);
    level
        .into_iter()
        .map(|(item, url)| MenuView {
            name: item.name.clone(),
            url: url.clone(),
            weight: item.weight,
            identifier: item.key().to_owned(),
            children: nested(items, Some(item.key())),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(name: &str, weight: i64, parent: Option<&str>) -> (MenuItem, String) {
        let item: MenuItem = toml::from_str(&format!(
            "name = \"{name}\"\nurl = \"/{name}/\"\nweight = {weight}\n{}",
            parent.map_or(String::new(), |p| format!("parent = \"{p}\""))
        ))
        .unwrap();
        let url = format!("/{name}/");
        (item, url)
    }

    #[test]
    fn entries_nest_under_their_parent_lightest_first_then_as_written() {
        let items = [
            item("b", 2, None),
            item("a", 1, None),
            item("a2", 0, Some("a")),
            item("c", 2, None),
            item("a1", 0, Some("a")),
        ];
        let menu = nested(&items, None);
        let names: Vec<&str> = menu.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        let under: Vec<&str> = menu[0].children.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(under, ["a2", "a1"]);
        assert_eq!(menu[0].url, "/a/");
    }
}
