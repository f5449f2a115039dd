//! Menus: `[[menus.<name>]]` entries for every language, and a language's
//! own `[[languages.<code>.menus.<name>]]`, which replace the site's menu
//! of that name for its pages. An entry links a URL, or a document written
//! from `content/` (`@/about.md`, the version in each language); `parent`
//! names the entry it is nested under, as in Hugo.

use std::collections::BTreeMap;

use serde::Deserialize;

/// One entry of a menu, as site.toml writes it.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq, serde::Serialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct MenuItem {
    /// What the link says.
    pub name: String,
    /// Where it leads: a URL (`/tags/`, `https://…`) or a document
    /// (`@/about.md`).
    pub url: String,
    /// Entries of lighter weight come first; equal weights keep the order
    /// written.
    #[serde(default)]
    pub weight: i64,
    /// The `identifier` (else the `name`) of the entry this one is under.
    pub parent: Option<String>,
    /// What `parent` names this entry by, when its name is not enough (two
    /// entries of one name).
    pub identifier: Option<String>,
}

impl MenuItem {
    /// What a `parent` names this entry by.
    pub fn key(&self) -> &str {
        self.identifier.as_deref().unwrap_or(&self.name)
    }
}

/// Menus by name.
pub type Menus = BTreeMap<String, Vec<MenuItem>>;

/// `site`'s menus with `own`'s laid over them, menu by menu.
pub(super) fn merged(site: &Menus, own: &Menus) -> Menus {
    let mut menus = site.clone();
    menus.extend(
        own.iter()
            .map(|(name, items)| (name.clone(), items.clone())),
    );
    menus
}

/// [`check`] of the site's menus and of each language's laid over them:
/// the message and help of the first problem.
pub(super) fn check_every<'m>(
    site: &Menus,
    languages: impl Iterator<Item = &'m Menus>,
) -> Result<(), (String, &'static str)> {
    let language_menus = languages.map(|own| merged(site, own));
    for menus in std::iter::once(site.clone()).chain(language_menus) {
        check(&menus).map_err(|(menu, entry, why)| {
            let message = format!("menus.{menu}: the entry `{entry}`: {why}");
            let help = "name the `identifier` (or else the `name`) of an entry of the same menu as `parent`";
            (message, help)
        })?;
    }
    Ok(())
}

/// Each entry's `parent` names an entry of its menu, and no entry is under
/// itself: the first that does not, as (menu, entry, what is wrong).
pub(super) fn check(menus: &Menus) -> Result<(), (String, String, String)> {
    for (menu, items) in menus {
        for item in items {
            let mut seen = vec![item.key()];
            let mut parent = item.parent.as_deref();
            while let Some(name) = parent {
                let Some(up) = items.iter().find(|other| other.key() == name) else {
                    let why = format!("its `parent` `{name}` is no entry of the menu");
                    return Err((menu.clone(), item.name.clone(), why));
                };
                if seen.contains(&up.key()) {
                    let why = "it is under itself, through its `parent`s".to_owned();
                    return Err((menu.clone(), item.name.clone(), why));
                }
                seen.push(up.key());
                parent = up.parent.as_deref();
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(name: &str, parent: Option<&str>) -> MenuItem {
        MenuItem {
            name: name.into(),
            url: "/".into(),
            weight: 0,
            parent: parent.map(str::to_owned),
            identifier: None,
        }
    }

    #[test]
    fn a_parent_must_be_an_entry_and_no_entry_under_itself() {
        let menus = |items: Vec<MenuItem>| Menus::from([("main".to_owned(), items)]);
        assert!(check(&menus(vec![item("a", None), item("b", Some("a"))])).is_ok());
        let (menu, entry, why) = check(&menus(vec![item("b", Some("x"))])).unwrap_err();
        assert_eq!((menu.as_str(), entry.as_str()), ("main", "b"));
        assert!(why.contains("`parent` `x` is no entry"), "{why}");
        let looped = menus(vec![item("a", Some("b")), item("b", Some("a"))]);
        assert!(check(&looped).unwrap_err().2.contains("under itself"));
    }
}
