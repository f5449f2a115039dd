//! Plugins registered through the library: the shipped shortcode and search
//! index, a template filter, and what a new version of each renders again.

use crate::util;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use folio::plugin::{
    Callable, Document, LanguageDocuments, MarkdownTransform, OutputPlugin, Phase, Plugin,
    PluginError, SearchIndex, TemplateFunction, Value, YouTube,
};
use folio::{BuildReport, Event, Plugins, Site};
use util::{TestSite, options, post};

/// A shipped plugin under another version, as a new release of it would be.
struct Versioned<P> {
    inner: P,
    version: &'static str,
}

impl<P: Plugin> Plugin for Versioned<P> {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn version(&self) -> &str {
        self.version
    }
}

impl<P: MarkdownTransform> MarkdownTransform for Versioned<P> {
    fn phase(&self) -> Phase {
        self.inner.phase()
    }
    fn transform(
        &self,
        body: &str,
        document: &Document<'_>,
    ) -> Result<Option<String>, PluginError> {
        self.inner.transform(body, document)
    }
}

impl<P: OutputPlugin> OutputPlugin for Versioned<P> {
    fn path(&self, lang: &str, root: &str) -> String {
        self.inner.path(lang, root)
    }
    fn render(&self, documents: &LanguageDocuments<'_>) -> Result<Vec<u8>, PluginError> {
        self.inner.render(documents)
    }
}

/// `{{ value | shout }}`: the value in capitals.
struct Shout {
    version: &'static str,
}

impl Plugin for Shout {
    fn name(&self) -> &str {
        "shout"
    }
    fn version(&self) -> &str {
        self.version
    }
}

impl TemplateFunction for Shout {
    fn callable(&self) -> Callable {
        Callable::Filter
    }
    fn call(&self, args: &[Value]) -> Result<Value, PluginError> {
        match args.first() {
            Some(Value::String(text)) => Ok(Value::String(text.to_uppercase())),
            other => Err(format!("shout takes a string, not {other:?}").into()),
        }
    }
}

/// The test site, with one English post that embeds a video, and a tags
/// page template that shouts its title.
fn site() -> TestSite {
    let site = TestSite::with_posts();
    site.write(
        "content/posts/talk.md",
        "---\ntitle: The talk\ndate: 2024-08-01\ntags: [video]\n---\nThe recording:\n\n{{< youtube dQw4w9WgXcQ >}}\n",
    );
    site.write(
        "templates/taxonomy.html",
        "{% extends \"base.html\" %}{% block content %}<h1>{{ \"tags\" | shout }}</h1>{% endblock %}",
    );
    site
}

fn plugins(versions: [&'static str; 3]) -> Plugins {
    let mut plugins = Plugins::new();
    plugins
        .markdown(Versioned {
            inner: YouTube::new(),
            version: versions[0],
        })
        .template(Shout {
            version: versions[1],
        })
        .output(Versioned {
            inner: SearchIndex::new(),
            version: versions[2],
        });
    plugins
}

/// Builds with `plugins`, returning the report and the outputs rendered.
fn build_with(site: &TestSite, plugins: Plugins) -> (BuildReport, BTreeSet<String>) {
    let rendered: Arc<Mutex<BTreeSet<String>>> = Arc::default();
    let sink = Arc::clone(&rendered);
    let options = options(|o| {
        o.plugins = plugins;
        o.observer = Some(Arc::new(move |event: &Event| {
            if let Event::PageRendered { output } = event {
                sink.lock().unwrap().insert(output.clone());
            }
        }));
    });
    let report = Site::open(site.root()).unwrap().build(&options).unwrap();
    let rendered = rendered.lock().unwrap().clone();
    (report, rendered)
}

#[test]
fn the_shortcode_search_index_and_filter_reach_the_output() {
    let site = site();
    let (report, _) = build_with(&site, plugins(["1", "1", "1"]));
    let talk = site.read("public/posts/talk/index.html");
    assert!(talk.contains("<iframe src=\"https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ\""));
    assert!(!talk.contains("{{<"));
    assert!(
        site.read("public/tags/index.html")
            .contains("<h1>TAGS</h1>")
    );
    for index in ["search.json", "fr/search.json", "ja/search.json"] {
        assert!(
            report.written.iter().any(|w| w == index),
            "{index} not written"
        );
    }
    let english: serde_json::Value =
        serde_json::from_str(&site.read("public/search.json")).unwrap();
    assert_eq!(english["lang"], "en");
    let titles: Vec<&str> = english["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["The talk", "Second", "Hello", "About"]);
    let french: serde_json::Value =
        serde_json::from_str(&site.read("public/fr/search.json")).unwrap();
    assert_eq!(french["documents"].as_array().unwrap().len(), 2);
    assert!(
        !site.read("public/sitemap.xml").contains("search.json"),
        "a plugin's data file is no page of the sitemap"
    );

    // Nothing changed: nothing is rendered.
    let (again, rendered) = build_with(&site, plugins(["1", "1", "1"]));
    assert!(again.written.is_empty() && rendered.is_empty());

    // An edit of a French post rewrites the French index only.
    site.write(
        "content/fr/posts/hello-world.md",
        &util::post("Bonjour !", "2024-05-01T09:00:00Z", "Premier paragraphe."),
    );
    let (report, _) = build_with(&site, plugins(["1", "1", "1"]));
    let indexes: Vec<&String> = report
        .written
        .iter()
        .filter(|w| w.ends_with("search.json"))
        .collect();
    assert_eq!(indexes, ["fr/search.json"]);

    // Without the search index and the shortcode, their files and players go.
    let mut filter_only = Plugins::new();
    filter_only.template(Shout { version: "1" });
    let (report, _) = build_with(&site, filter_only);
    assert!(report.deleted.iter().any(|d| d == "fr/search.json"));
    assert!(!site.path("public/search.json").exists());
    assert!(
        site.read("public/posts/talk/index.html")
            .contains("{{&lt; youtube")
    );
}

#[test]
fn a_new_version_of_a_plugin_renders_again_exactly_the_pages_it_touches() {
    let site = site();
    let (_, first) = build_with(&site, plugins(["1", "1", "1"]));
    // The pages that show the post that uses the shortcode: those an edit
    // of its text renders again.
    site.write(
        "content/posts/talk.md",
        "---\ntitle: The talk\ndate: 2024-08-01\ntags: [video]\n---\nThe recording, edited:\n\n{{< youtube dQw4w9WgXcQ >}}\n",
    );
    let (_, showing_talk) = build_with(&site, plugins(["1", "1", "1"]));
    assert!(showing_talk.contains("posts/talk/index.html"));
    assert!(showing_talk.contains("index.html") && showing_talk.contains("search.json"));
    assert!(showing_talk.len() < first.len() / 2, "{showing_talk:?}");

    // The shortcode: the pages that show the post that uses it.
    let (report, rendered) = build_with(&site, plugins(["2", "1", "1"]));
    assert_eq!(rendered, showing_talk);
    assert!(report.written.is_empty(), "same output, nothing written");
    assert!(
        report.parsed > 0,
        "a new transform reads every source again"
    );

    // The filter: the pages of the templates that call it.
    let (_, rendered) = build_with(&site, plugins(["2", "2", "1"]));
    let tags_pages: BTreeSet<String> = [
        "tags/index.html",
        "fr/tags/index.html",
        "ja/tags/index.html",
    ]
    .map(String::from)
    .into();
    assert_eq!(rendered, tags_pages);

    // The output plugin: its files.
    let (_, rendered) = build_with(&site, plugins(["2", "2", "2"]));
    let indexes: BTreeSet<String> = ["search.json", "fr/search.json", "ja/search.json"]
        .map(String::from)
        .into();
    assert_eq!(rendered, indexes);
}

#[test]
fn the_plugins_work_the_same_through_a_kept_session() {
    let site = site();
    let mut session = folio::Session::open(
        Site::open(site.root()).unwrap(),
        options(|o| o.plugins = plugins(["1", "1", "1"])),
    )
    .unwrap();
    session.build().unwrap();
    site.write(
        "content/posts/talk.md",
        "---\ntitle: The talk\ndate: 2024-08-01\ntags: [video]\n---\nNow two:\n\n{{< youtube abc >}}\n{{< youtube def >}}\n",
    );
    let report = session.rebuild(&["content/posts/talk.md"]).unwrap();
    assert!(!report.scanned_everything);
    assert!(report.written.iter().any(|w| w == "search.json"));
    let talk = site.read("public/posts/talk/index.html");
    assert_eq!(talk.matches("<iframe").count(), 2);
}

#[test]
fn plugin_errors_name_the_file_and_the_plugin() {
    let site = site();
    site.write(
        "content/posts/broken.md",
        "---\ntitle: Broken\ndate: 2024-09-01\n---\n{{< youtube >}}\n",
    );
    let options = options(|o| o.plugins = plugins(["1", "1", "1"]));
    let error = Site::open(site.root())
        .unwrap()
        .build(&options)
        .unwrap_err();
    let message = error.to_string();
    assert!(
        message.contains("content/posts/broken.md") && message.contains("`youtube`"),
        "{message}"
    );
    assert!(!site.out().exists(), "nothing written");

    let mut twice = plugins(["1", "1", "1"]);
    twice.output(SearchIndex::new());
    let options = util::options(|o| o.plugins = twice);
    let error = Site::open(site.root())
        .unwrap()
        .build(&options)
        .unwrap_err();
    assert!(
        matches!(&error, folio::Error::Plugin { plugin, .. } if plugin == "search-index"),
        "{error}"
    );
}

/// The site's `[plugins]` table, after its other settings.
fn with_plugins_table(site: &TestSite, table: &str) {
    site.write(
        "site.toml",
        &format!("{}\n[plugins]\n{table}", util::SITE_TOML),
    );
}

#[test]
fn site_toml_turns_on_the_shipped_plugins_for_folio_build() {
    let site = TestSite::with_posts();
    site.write(
        "content/posts/talk.md",
        "---\ntitle: The talk\ndate: 2024-08-01\n---\nThe recording:\n\n{{< youtube dQw4w9WgXcQ >}}\n",
    );
    with_plugins_table(&site, "search_index = true\nyoutube = true\n");
    let built = site.cli(&["build", "--root", site.root().to_str().unwrap()]);
    assert!(built.status.success(), "{}", util::stderr(&built));
    let talk = site.read("public/posts/talk/index.html");
    assert!(
        talk.contains("youtube-nocookie.com/embed/dQw4w9WgXcQ"),
        "{talk}"
    );
    let search: serde_json::Value = serde_json::from_str(&site.read("public/search.json")).unwrap();
    assert!(search.to_string().contains("The talk"), "{search}");
    assert!(site.root().join("public/fr/search.json").is_file());

    // Turned off: the page shows the shortcode as written, the index files
    // are pruned, and nothing else is written.
    with_plugins_table(&site, "search_index = false\n");
    site.assert_rebuild(
        &["posts/talk/index.html"],
        &["fr/search.json", "ja/search.json", "search.json"],
    );
    assert!(
        site.read("public/posts/talk/index.html")
            .contains("{{&lt; youtube dQw4w9WgXcQ &gt;}}")
    );
}

#[test]
fn a_host_s_own_plugin_of_that_name_is_not_added_twice() {
    let site = TestSite::with_posts();
    with_plugins_table(&site, "search_index = true\n");
    let (report, _) = build_with(&site, plugins(["1", "1", "2"]));
    assert!(report.written.iter().any(|path| path == "search.json"));
}

#[test]
fn a_misspelled_plugin_in_site_toml_is_refused_naming_the_line() {
    let site = TestSite::with_posts();
    with_plugins_table(&site, "youtub = true\n");
    let built = site.cli(&["build", "--root", site.root().to_str().unwrap()]);
    assert!(!built.status.success());
    let said = util::stderr(&built);
    assert!(said.contains("site.toml:"), "{said}");
    assert!(
        said.contains("unknown field `youtub`, expected `search_index` or `youtube`"),
        "{said}"
    );
}

/// Ends the HTML of the hello-world post's body with a link into a part of
/// the about page: a link no row lists.
struct LinksTheTeam;

impl Plugin for LinksTheTeam {
    fn name(&self) -> &str {
        "links-the-team"
    }
    fn version(&self) -> &str {
        "1"
    }
}

impl MarkdownTransform for LinksTheTeam {
    fn phase(&self) -> Phase {
        Phase::AfterMarkdown
    }
    fn transform(
        &self,
        body: &str,
        document: &Document<'_>,
    ) -> Result<Option<String>, PluginError> {
        let hello = document.source.ends_with("hello-world.md");
        Ok(hello.then(|| format!("{body}<p><a href=\"@/about.md#team\">team</a></p>")))
    }
}

#[test]
fn a_link_a_transform_writes_into_a_heading_leads_there_after_an_edit_elsewhere() {
    // A one-off edit reads the headings of the documents it does not read
    // again only when a link names an anchor; a transform of the HTML may
    // write one that no row lists.
    let site = TestSite::with_posts();
    site.write(
        "content/en/about.md",
        "---\ntitle: About\n---\nAbout.\n\n## Team\n\nUs.\n",
    );
    let hello = |x: &str| {
        let body = format!("See [about](@/about.md).\n\n{x}\n");
        let text = post("Hello", "2024-05-01T09:00:00Z", &body);
        site.write("content/en/posts/hello-world.md", &text);
    };
    let plugins = || {
        let mut plugins = Plugins::new();
        plugins.markdown(LinksTheTeam);
        plugins
    };
    hello("First.");
    build_with(&site, plugins());
    hello("First, edited.");
    let (_, rendered) = build_with(&site, plugins());
    assert!(
        rendered.contains("posts/hello-world/index.html"),
        "{rendered:?}"
    );
    let page = site.read("public/posts/hello-world/index.html");
    assert!(page.contains("href=\"/about/#team\">team</a>"), "{page}");
}
