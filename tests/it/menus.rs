//! Menus from site.toml on a real site: each language's entries (its own
//! menus over the site's), `@/` paths resolved to the version in that
//! language, nested by `parent`, lightest first; a path that leads nowhere
//! fails the build naming site.toml; a menu change renders every page of
//! the languages that show it, and a target that moves renders every page
//! again.

use crate::util;

use util::{SITE_TOML, TestSite, post};

const MENUS: &str = r#"
[[menus.main]]
name = "About"
url = "@/about.md"
weight = 2

[[menus.main]]
name = "Posts"
url = "/"
weight = 1

[[menus.main]]
name = "Rust"
url = "/tags/rust/"
parent = "Posts"

[[languages.fr.menus.main]]
name = "À propos"
url = "@/about.md#equipe"
"#;

fn site() -> TestSite {
    let site = TestSite::new();
    site.write("site.toml", &format!("{SITE_TOML}{MENUS}"));
    site.write("content/en/about.md", "---\ntitle: About\n---\nUs.\n");
    site.write(
        "content/fr/about.md",
        "---\ntitle: À propos\n---\n## Équipe {#equipe}\n\nNous.\n",
    );
    site.write(
        "content/en/posts/a.md",
        &post("A", "2024-05-01T09:00:00Z", "Text."),
    );
    site.build();
    site
}

#[test]
fn each_language_shows_its_menus_with_documents_in_its_language() {
    let site = site();
    site.write(
        "templates/page.html",
        "{% for e in menus.main recursive %}[{{ e.name }} {{ e.url }} {{ e.weight }}{% if e.children %} {{ loop(e.children) }}{% endif %}]{% endfor %}",
    );
    site.build();
    assert_eq!(
        site.read("public/about/index.html"),
        "[Posts / 1 [Rust /tags/rust/ 0]][About /about/ 2]"
    );
    assert_eq!(
        site.read("public/fr/about/index.html"),
        "[À propos /fr/about/#equipe 0]"
    );
    // The default theme shows the main menu, the current page marked.
    site.remove("templates/page.html");
    site.build();
    let about = site.read("public/about/index.html");
    assert!(
        about.contains("<a href=\"/about/\" aria-current=\"page\">About</a>"),
        "{about}"
    );
    assert!(
        about.contains("<a href=\"/tags/rust/\">Rust</a>"),
        "{about}"
    );
}

#[test]
fn a_menu_path_that_leads_nowhere_fails_the_build_naming_site_toml() {
    let site = site();
    site.write(
        "site.toml",
        &format!(
            "{SITE_TOML}{}",
            MENUS.replace("@/about.md\"", "@/abut.md\"")
        ),
    );
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains("site.toml: the link `@/abut.md` leads nowhere: in menus.main, `About`: no document is at content/abut.md"),
        "{error}"
    );
    assert!(error.contains("did you mean `@/about.md`?"), "{error}");
    site.write(
        "site.toml",
        &format!(
            "{SITE_TOML}{}",
            MENUS.replace("parent = \"Posts\"", "parent = \"Post\"")
        ),
    );
    let refused = site.cli(&["build"]);
    assert!(!refused.status.success());
    let error = util::stderr(&refused);
    assert!(
        error.contains("menus.main: the entry `Rust`: its `parent` `Post` is no entry of the menu"),
        "{error}"
    );
}

#[test]
fn a_menu_change_renders_the_pages_of_its_languages_and_a_moved_target_every_page() {
    let site = site();
    // French has its own main menu: an English one leaves it alone.
    site.write(
        "site.toml",
        &format!("{SITE_TOML}{}", MENUS.replace("weight = 2", "weight = 0")),
    );
    let report = site.build();
    assert!(
        report.written.iter().all(|page| !page.starts_with("fr/")),
        "{:?}",
        report.written
    );
    assert!(
        report.written.contains(&"about/index.html".to_owned()),
        "{:?}",
        report.written
    );
    assert_eq!(site.output_tree(), site.clean_build_tree());
    site.write(
        "content/fr/about.md",
        "---\ntitle: À propos\nslug: nous\n---\n## Équipe {#equipe}\n\nNous.\n",
    );
    site.build();
    let french_home = site.read("public/fr/index.html");
    assert!(
        french_home.contains("href=\"/fr/nous/#equipe\""),
        "{french_home}"
    );
    assert_eq!(site.output_tree(), site.clean_build_tree());
}

#[test]
fn a_menu_naming_a_heading_leads_into_it_after_another_document_is_edited() {
    // A one-off edit reads the rows of the documents it does not read again
    // without their headings, unless a link names one: here only a menu
    // does, into a page the edit does not touch.
    let site = site();
    site.write(
        "content/en/posts/a.md",
        &post("A", "2024-05-01T09:00:00Z", "Text, edited."),
    );
    let report = site.build();
    assert!(
        report.written.contains(&"posts/a/index.html".to_owned()),
        "{:?}",
        report.written
    );
    assert!(
        site.read("public/fr/index.html")
            .contains("href=\"/fr/about/#equipe\"")
    );
    assert_eq!(site.output_tree(), site.clean_build_tree());
}
