//! Building for another place: `--base-url` and `--config FILE` laid over
//! site.toml on build, serve and check.

use crate::util;

use util::TestSite;

fn folio(site: &TestSite, args: &[&str]) -> std::process::Output {
    let root = site.root().to_str().unwrap().to_owned();
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--root", &root]);
    let output = site.cli(&all);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        util::stderr(&output)
    );
    output
}

#[test]
fn a_base_url_given_at_build_time_wins_and_a_plain_build_goes_back() {
    let site = TestSite::with_posts();
    folio(
        &site,
        &["build", "--base-url", "https://prod.example/blog/"],
    );
    let page = site.read("public/posts/hello-world/index.html");
    assert!(
        page.contains(
            r#"<link rel="canonical" href="https://prod.example/blog/posts/hello-world/">"#
        ),
        "{page}"
    );
    let sheet = format!("href=\"/blog/{}\"", site.twin_of("style.css"));
    assert!(page.contains(&sheet), "{page}");
    folio(&site, &["build"]);
    let page = site.read("public/posts/hello-world/index.html");
    assert!(
        page.contains(r#"href="https://example.org/posts/hello-world/""#),
        "{page}"
    );
    folio(&site, &["check", "--base-url", "https://prod.example/"]);
}

#[test]
fn a_second_file_is_laid_over_site_toml_table_by_table() {
    let site = TestSite::with_posts();
    site.write(
        "prod.toml",
        "title = \"Production\"\n[languages.fr]\ntitle = \"Production FR\"\n",
    );
    folio(&site, &["build", "--config", "prod.toml"]);
    let home = site.read("public/index.html");
    assert!(home.contains("<title>Production</title>"), "{home}");
    let french = site.read("public/fr/index.html");
    assert!(french.contains("<title>Production FR</title>"), "{french}");
    // site.toml's French name is kept: only what prod.toml says changes.
    assert!(french.contains("Français"), "{french}");
}

#[test]
fn a_mistake_in_the_second_file_is_named_with_its_own_line() {
    let site = TestSite::with_posts();
    site.write("prod.toml", "# production\ntitel = \"Production\"\n");
    let root = site.root().to_str().unwrap().to_owned();
    let output = site.cli(&["build", "--config", "prod.toml", "--root", &root]);
    assert!(!output.status.success());
    let said = util::stderr(&output);
    assert!(said.contains("prod.toml:2:"), "{said}");
    assert!(said.contains("titel"), "{said}");
    assert!(!site.root().join("public").exists(), "nothing written");
}
