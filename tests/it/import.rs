//! Real blogs move in: `folio import` on the real Jekyll and Zola sites in
//! tests/corpora, then `folio build`, keeps every URL.

use crate::util;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use util::folio_command;

/// The folder of real public blogs kept with the tests (MIT; see its
/// README), so that a clone alone passes them.
pub(crate) fn corpora() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpora")
}

/// One archive of the corpora, unpacked into `into`.
pub(crate) fn unpack(archive: &str, into: &Path) -> PathBuf {
    let archive = corpora().join(archive);
    assert!(archive.is_file(), "{} is missing", archive.display());
    let status = std::process::Command::new("tar")
        .arg("xzf")
        .arg(&archive)
        .arg("-C")
        .arg(into)
        .status()
        .unwrap();
    assert!(status.success());
    into.to_owned()
}

/// Every file under `dir` with its bytes.
pub(crate) fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().to_owned(), std::fs::read(e.path()).unwrap()))
        .collect()
}

/// Runs `folio import GENERATOR source --into into`: whether it
/// succeeded, and its summary followed by what it said on stderr (the
/// warnings or the error of the build it ended with).
fn run_import(generator: &str, source: &Path, into: &Path) -> (bool, String) {
    let import = folio_command()
        .args(["import", generator])
        .arg(source)
        .arg("--into")
        .arg(into)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&import.stdout),
        String::from_utf8_lossy(&import.stderr)
    );
    (import.status.success(), said)
}

/// Runs `folio import GENERATOR source --into into`, which must succeed;
/// its summary, then the warnings of the build it ended with.
pub(crate) fn import(generator: &str, source: &Path, into: &Path) -> String {
    let (succeeded, said) = run_import(generator, source, into);
    assert!(succeeded, "{said}");
    said
}

/// Runs `folio import GENERATOR source --into into` on a site whose first
/// build must fail (what it holds is refused): the import writes the site
/// and says so, then fails with the build's error. Its summary and errors.
fn import_refused_by_its_build(generator: &str, source: &Path, into: &Path) -> String {
    let (succeeded, said) = run_import(generator, source, into);
    assert!(!succeeded, "{said}");
    assert!(
        said.contains("the first build of") && said.contains("the site is written"),
        "{said}"
    );
    said
}

/// Runs `folio build` on the site at `root`, at `epoch` (seconds) when
/// given, else at the suite's moment.
fn folio_build(root: &Path, epoch: Option<&str>) -> std::process::Output {
    let mut command = folio_command();
    if let Some(epoch) = epoch {
        command.env("SOURCE_DATE_EPOCH", epoch);
    }
    command
        .args(["build", "--root"])
        .arg(root)
        .output()
        .unwrap()
}

/// Runs `folio build` on the site at `root` (at `epoch`, as
/// [`folio_build`]), checks that it succeeded, and gives what it printed on
/// stderr (its warnings).
#[track_caller]
pub(crate) fn builds(root: &Path, epoch: Option<&str>) -> String {
    let build = folio_build(root, epoch);
    let stderr = String::from_utf8_lossy(&build.stderr).into_owned();
    assert!(build.status.success(), "{stderr}");
    stderr
}

/// Checks that every row of the index of the site at `root` has the id
/// its (slug, language, date) derive; returns how many rows there are.
fn rows_under_their_ids(root: &Path) -> usize {
    let conn = rusqlite::Connection::open(root.join(".folio/index.sqlite")).unwrap();
    let rows: Vec<(String, String, String, i64)> = conn
        .prepare("SELECT id, slug, lang, published_at FROM posts")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for (id, slug, lang, published) in &rows {
        let derived = folio::PostId::derive(slug, lang, *published).unwrap();
        assert_eq!(*id, derived.to_string(), "{slug} ({lang})");
    }
    rows.len()
}

/// The output file a URL path is served from.
pub(crate) fn served_file(out: &Path, url: &str) -> PathBuf {
    let path = url.trim_start_matches('/');
    if path.is_empty() || path.ends_with('/') {
        out.join(path).join("index.html")
    } else if Path::new(path).extension().is_some() {
        out.join(path)
    } else {
        out.join(path).join("index.html")
    }
}

/// A top-level front matter value of a Jekyll post, as written.
fn field<'t>(text: &'t str, key: &str) -> Option<&'t str> {
    let front = text.strip_prefix("---")?.split("\n---").next()?;
    front.lines().find_map(|line| {
        let value = line.strip_prefix(key)?.strip_prefix(':')?.trim();
        (!value.is_empty()).then_some(value)
    })
}

#[test]
fn a_jekyll_blog_moves_in_with_every_url_kept() {
    let dir = tempfile::tempdir().unwrap();
    let source = unpack("bitcoincore-jekyll.tar.gz", dir.path()).join("bitcoincore");
    let into = dir.path().join("folio-site");
    let before = snapshot(&source);

    let summary = import("jekyll", &source, &into);
    // The import's report, in the test's output (`--nocapture`).
    println!("{summary}");
    assert!(
        summary.contains("posts:        235 en, 9 es, 138 ja, 27 zh-CN, 10 zh-TW"),
        "{summary}"
    );
    assert!(summary.contains("`zh_CN` is written `zh-CN`"));
    assert!(summary.contains("_posts/en/meetings/2015-10-01-meeting.md is `meeting-2015-10-01`"));
    assert!(summary.contains("set `version` twice"));
    // The corpus holds no `_includes/`: its includes are left out, named.
    assert!(
        summary.contains(
            "needs a hand: {% include references.md %}: not in _includes/: left out of the text in 267 file(s)"
        ),
        "{summary}"
    );
    assert!(
        summary.contains("converted:    {% highlight %} in 83 file(s)"),
        "{summary}"
    );
    assert!(summary.contains("left out:     _posts/zh_CN/posts/scaling-optimizations-zh_ch.md"));
    assert_eq!(snapshot(&source), before, "the import changed its source");

    // After the newest post of the corpus (taken on 2026-05-05), so that
    // every post is out, as it was on the site.
    const AFTER_THE_CORPUS: &str = "1780272000";
    let stderr = builds(&into, Some(AFTER_THE_CORPUS));
    // The one old URL another page of the site took is said, not lost.
    assert_eq!(stderr.matches("warning:").count(), 1, "{stderr}");
    assert!(
        stderr.contains("/zh_CN/2016/03/15/announcement-list/"),
        "{stderr}"
    );

    // Every URL Jekyll gave a post (its permalink, else the one the
    // `defaults` give `_posts/en/posts/`, `/en/:year/:month/:day/:title/`,
    // else the site's `/:title/`) is served, and so is every old URL it
    // redirected from.
    let out = into.join("public");
    let mut urls = 0;
    for (path, bytes) in &before {
        let rel = path
            .strip_prefix(&source)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        if !rel.starts_with("_posts/") || stem.len() < 11 || !stem.as_bytes()[0].is_ascii_digit() {
            continue;
        }
        let text = String::from_utf8_lossy(bytes).replace("\r\n", "\n");
        let url = match field(&text, "permalink") {
            Some(permalink) => permalink.to_owned(),
            None if rel.starts_with("_posts/en/posts/") => {
                let (date, title) = stem.split_at(10);
                format!("/en/{}/{}/", date.replace('-', "/"), &title[1..])
            }
            None => format!("/{}/", &stem[11..]),
        };
        assert!(
            served_file(&out, &url).is_file(),
            "{rel}: {url} is not served"
        );
        urls += 1;
        let redirects = text
            .split("\nredirect_from:")
            .nth(1)
            .map(|rest| {
                rest.lines()
                    .skip(1)
                    .take_while(|l| l.trim_start().starts_with("- "))
                    .count()
            })
            .unwrap_or(0);
        for old in text
            .split("\nredirect_from:")
            .nth(1)
            .into_iter()
            .flat_map(|rest| rest.lines().skip(1).take(redirects))
        {
            let old = old.trim_start().trim_start_matches("- ").trim();
            assert!(
                served_file(&out, old).is_file(),
                "{rel}: old URL {old} is not served"
            );
            urls += 1;
        }
    }
    assert!(urls >= 428, "{urls} URLs checked");
    // Translations are linked as the site linked them, by `name`.
    let capacity =
        std::fs::read_to_string(out.join("en/2015/12/21/capacity-increase/index.html")).unwrap();
    for lang in ["zh-CN", "zh-TW"] {
        assert!(
            capacity.contains(&format!("hreflang=\"{lang}\"")),
            "{lang} not linked"
        );
    }
    assert!(
        summary.contains(
            "translations: 237 documents linked to another language's as the old site linked them"
        ),
        "{summary}"
    );

    // Every post is indexed under its deterministic id.
    assert_eq!(rows_under_their_ids(&into), 419);

    // Converged.
    let again = folio_build(&into, Some(AFTER_THE_CORPUS));
    let line = String::from_utf8_lossy(&again.stdout).into_owned();
    assert!(line.contains(" 0 pages written, 0 deleted"), "{line}");
}

/// A TOML front matter value of a Zola page, as written.
fn toml_field(text: &str, key: &str) -> Option<String> {
    let front = text.strip_prefix("+++\n")?.split("\n+++").next()?;
    let table: toml::Table = toml::from_str(front).ok()?;
    table.get(key)?.as_str().map(str::to_owned)
}

#[test]
fn a_zola_site_moves_in_with_every_url_kept() {
    let dir = tempfile::tempdir().unwrap();
    let source = unpack("tabi-zola.tar.gz", dir.path()).join("tabi");
    let into = dir.path().join("folio-site");
    let before = snapshot(&source);
    let summary = import("zola", &source, &into);
    // The import's report, in the test's output (`--nocapture`).
    println!("{summary}");
    assert!(
        summary.contains("languages:    en, ar, ca, es"),
        "{summary}"
    );
    // The theme's shortcodes are not in the corpus: its admonitions become
    // folio's notes and warnings, its images Markdown images, and what
    // else it called is taken out, its text kept, and named.
    for said in [
        "converted:    {{ admonition() }} as folio's note or warning in 9 file(s)",
        "converted:    {% mermaid() %} as a fenced `mermaid` block in 6 file(s)",
        "converted:    {{ dual_theme_image() }} as a Markdown image",
        "needs a hand: {% wide_container() %} (a shortcode folio cannot run; what it showed of text kept): left out of the text in 18 file(s)",
    ] {
        assert!(summary.contains(said), "{said}\n{summary}");
    }
    assert!(
        summary.contains(
            "kept for templates (extra): insert_anchor_links, paginate_by, render, sort_by"
        ),
        "{summary}"
    );
    // Sections are folio's: listed at their folder's URL; Zola's archive
    // section, empty, leaves its place to folio's archive.
    assert!(
        summary.contains("sections:     3 ar, 3 ca, 3 en, 3 es"),
        "{summary}"
    );
    assert!(summary.contains("left out:     content/archive/_index.md: a section without text or pages at the URL of folio's archive"), "{summary}");
    // The import built the site and checked every URL Zola served there:
    // each document's, home, feed, tag index and tag page. Zola gives the
    // pages' terms (the projects') a page too, as folio does, and writes
    // a term's URL in ASCII (`preguntes-frequents`), as the import asks
    // folio to.
    assert!(
        summary.contains(
            "URLs:         every post keeps its old URL: the 199 URLs the old site served are served by the built site"
        ),
        "{summary}"
    );
    assert!(!summary.contains("not served:"), "{summary}");
    let toml = std::fs::read_to_string(into.join("site.toml")).unwrap();
    assert!(toml.contains("\nterm_slugs = \"ascii\"\n"), "{toml}");
    assert_eq!(snapshot(&source), before, "the import changed its source");

    // The import's build said the warnings; this one has nothing to do.
    let stderr = summary.clone();
    builds(&into, None);

    // Every page Zola made is served where Zola put it: its `path`, else
    // its section and its slug (the bundle's folder), under its
    // language's prefix; a section with text of its own at the section.
    let out = into.join("public");
    let languages = ["ar", "ca", "es"];
    let mut urls = 0;
    for (path, bytes) in &before {
        let rel = path.strip_prefix(source.join("content")).unwrap_or(path);
        let rel = rel.to_string_lossy().into_owned();
        if !rel.ends_with(".md") {
            continue;
        }
        let text = String::from_utf8_lossy(bytes).replace("\r\n", "\n");
        let (dir, file) = rel.rsplit_once('/').unwrap_or(("", rel.as_str()));
        let stem = file.trim_end_matches(".md");
        let (name, lang) = match stem.rsplit_once('.') {
            Some((name, lang)) if languages.contains(&lang) => (name, Some(lang)),
            _ => (stem, None),
        };
        let body = text.splitn(3, "+++").nth(2).unwrap_or("").trim();
        if name == "_index" && body.is_empty() {
            continue;
        }
        let prefix = lang.map(|l| format!("/{l}")).unwrap_or_default();
        let url = match toml_field(&text, "path") {
            Some(path) => format!("/{}/", path.trim_matches('/')),
            None if name == "_index" => format!("{prefix}/{dir}/"),
            None if name == "index" => format!("{prefix}/{dir}/"),
            None => format!("{prefix}/{dir}/{name}/"),
        };
        let url = url.replace("//", "/");
        assert!(
            served_file(&out, &url).is_file(),
            "{rel}: {url} is not served"
        );
        urls += 1;
    }
    assert!(urls >= 76, "{urls} URLs checked");

    assert_eq!(rows_under_their_ids(&into), urls);

    // Links between documents follow their targets, moved into folio's
    // layout, and an accented heading keeps Zola's ASCII id, which they and
    // any link from elsewhere name; a link to a heading the old site lacks
    // too is a warning, as Zola's `internal_level = "warn"` made it.
    assert!(
        summary
            .contains("100 link(s) between documents written again to lead where their target is"),
        "{summary}"
    );
    assert!(
        summary.contains("heading(s) keep the id the old site gave them"),
        "{summary}"
    );
    let catalan = std::fs::read_to_string(served_file(&out, "/ca/blog/security/")).unwrap();
    assert!(
        catalan.contains("href=\"/tabi/ca/blog/mastering-tabi-settings/#analisi-web\""),
        "{catalan}"
    );
    let settings =
        std::fs::read_to_string(served_file(&out, "/ca/blog/mastering-tabi-settings/")).unwrap();
    assert!(settings.contains("id=\"analisi-web\""), "{settings}");
    assert!(
        stderr.contains("the link `@/es/blog/mastering-tabi-settings/index.md#indicador-enlaces-externos` leads nowhere"),
        "{stderr}"
    );
    // No call is left in what a reader sees but the two Zola showed as
    // text too (a string holding its own quote, `'l\'estil'`, does not
    // read in Zola's syntax either).
    let mut shown_as_text = Vec::new();
    for (rel, html) in util::TestSite::tree(&out) {
        let html = String::from_utf8_lossy(&html);
        assert!(!html.contains("href=\"@/"), "{rel} keeps an `@/` link");
        let text = crate::moves::visible_text(&html);
        for at in text.match_indices("{{").chain(text.match_indices("{%")) {
            shown_as_text.push(format!(
                "{rel}: {}",
                &text[at.0..(at.0 + 40).min(text.len())]
            ));
        }
    }
    assert_eq!(shown_as_text.len(), 2, "{shown_as_text:#?}");
    assert!(
        shown_as_text
            .iter()
            .all(|s| s.contains("{{ admonition(") && s.starts_with("ca/")),
        "{shown_as_text:#?}"
    );
    // A project (a page) is on the page of its tag, as on Zola's.
    let python = std::fs::read_to_string(served_file(&out, "/tags/python/")).unwrap();
    assert!(
        python.contains("href=\"/tabi/projects/doteki/\""),
        "{python}"
    );
    // A code block's `name=README.md` labels it as Zola's does, without
    // a warning.
    let doteki = std::fs::read_to_string(served_file(&out, "/projects/doteki/")).unwrap();
    assert!(
        doteki.contains("data-lang=\"md\" data-name=\"README.md\">"),
        "{doteki}"
    );
    assert!(!stderr.contains("`name="), "{stderr}");
    // Zola wrote atom.xml of each home and, its `tags` taxonomy having
    // `feed = true`, of each tag: so does folio.
    let toml = std::fs::read_to_string(into.join("site.toml")).unwrap();
    assert!(
        toml.contains("feeds_for = [\"home\", \"tags\"]\n"),
        "{toml}"
    );
    let tags: Vec<PathBuf> = std::fs::read_dir(out.join("tags"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .collect();
    assert!(!tags.is_empty());
    for tag in tags {
        assert!(tag.join("atom.xml").is_file(), "{}", tag.display());
    }
    let again = folio_build(&into, None);
    let line = String::from_utf8_lossy(&again.stdout).into_owned();
    assert!(line.contains(" 0 pages written, 0 deleted"), "{line}");
}

#[test]
fn an_import_never_writes_over_files_and_names_what_it_misses() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("jekyll");
    std::fs::create_dir_all(source.join("_posts")).unwrap();
    let into = dir.path().join("taken");
    std::fs::create_dir_all(&into).unwrap();
    std::fs::write(into.join("notes.txt"), "mine").unwrap();
    let refused = folio_command()
        .args(["import", "jekyll"])
        .arg(&source)
        .arg("--into")
        .arg(&into)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(
        stderr.contains("taken") && stderr.contains("not empty"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(into.join("notes.txt")).unwrap(),
        "mine"
    );

    let missing = folio_command()
        .args(["import", "jekyll"])
        .arg(&source)
        .arg("--into")
        .arg(dir.path().join("new"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(!missing.status.success());
    assert!(stderr.contains("_config.yml"), "{stderr}");
}

/// The URL of every page Hugo itself publishes for the site at `site`
/// (`hugo list all`), as paths.
pub(crate) fn hugo_urls(site: &Path) -> Vec<String> {
    let listed = std::process::Command::new("hugo")
        .args(["list", "all", "--source"])
        .arg(site)
        .output()
        .unwrap_or_else(|e| {
            panic!("hugo cannot run ({e}): install Debian's `hugo` package (.ci/test does)")
        });
    assert!(
        listed.status.success(),
        "{}",
        String::from_utf8_lossy(&listed.stderr)
    );
    let text = String::from_utf8(listed.stdout).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = header.iter().position(|h| *h == "permalink").unwrap();
    lines
        .map(|line| {
            line.split(',')
                .nth(at)
                .unwrap()
                .replace("https://example.org", "")
        })
        .collect()
}

/// The feeds Hugo writes for `site`'s homes and tags, built into `out`.
fn hugo_feeds(site: &Path, out: &Path) -> Vec<String> {
    let built = std::process::Command::new("hugo")
        .args(["--quiet", "--source"])
        .arg(site)
        .arg("--destination")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let mut feeds: Vec<String> = walkdir::WalkDir::new(out)
        .into_iter()
        .map(|entry| {
            entry
                .unwrap()
                .path()
                .strip_prefix(out)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|rel| rel.ends_with("index.xml"))
        .filter(|rel| {
            let rel = ["fr/", "de/"]
                .iter()
                .find_map(|lang| rel.strip_prefix(lang))
                .unwrap_or(rel);
            let parts: Vec<&str> = rel.split('/').collect();
            matches!(parts[..], ["index.xml"] | ["tags", _, "index.xml"])
        })
        .collect();
    feeds.sort();
    feeds
}

#[test]
fn a_hugo_site_moves_in_with_the_urls_hugo_gives_it() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("hugo-site");
    let write = |rel: &str, text: &str| {
        let path = source.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    // Translations by file name; dated posts under a per-section
    // permalink (`:slug` is the title's without a slug), a leaf bundle, a
    // url of its own, an old URL, pages. (bench/gen_corpus.py --format
    // hugo makes sites with a content folder per language.)
    write(
        "hugo.toml",
        "baseURL = \"https://example.org/\"\ntitle = \"Notes\"\ndefaultContentLanguage = \"en\"\n\
         [permalinks]\nposts = \"/:year/:month/:slug/\"\n\
         [languages.en]\nlanguageName = \"English\"\nweight = 1\n\
         [languages.fr]\nlanguageName = \"Français\"\nweight = 2\n\
         [languages.de]\nlanguageName = \"Deutsch\"\nweight = 3\n",
    );
    write(
        "content/posts/first-post.md",
        "---\ntitle: First Post\ndate: 2024-02-05\ntags: [a]\n---\nHello.\n",
    );
    write(
        "content/posts/Second.md",
        "---\ntitle: Second\ndate: 2024-03-01\nslug: the-second\naliases: [/old/second/]\n---\nAgain {{< youtube abc >}}.\n",
    );
    write(
        "content/posts/bundle/index.md",
        "+++\ntitle = \"A Bundle\"\ndate = 2024-04-01\n+++\nWith pictures.\n",
    );
    write(
        "content/about.md",
        "---\ntitle: About\nurl: /who/\n---\nMe.\n",
    );
    write("content/docs/Setup.md", "---\ntitle: Setup\n---\nSteps.\n");
    write(
        "content/posts/first-post.fr.md",
        "---\ntitle: Premier\ndate: 2024-02-05\n---\nBonjour.\n",
    );
    write(
        "content/posts/first-post.de.md",
        "---\ntitle: Erster\ndate: 2024-02-05\n---\nHallo.\n",
    );
    let expected = hugo_urls(&source);
    assert!(expected.len() >= 7, "{expected:?}");

    let into = dir.path().join("folio-site");
    let summary = import("hugo", &source, &into);
    assert!(
        summary.contains("converted:    {{< youtube >}} in 1 file(s)"),
        "{summary}"
    );
    builds(&into, None);
    let out = into.join("public");
    // Hugo's `youtube` is folio's.
    let second = std::fs::read_to_string(out.join("2024/03/the-second/index.html")).unwrap();
    assert!(
        second.contains("https://www.youtube-nocookie.com/embed/abc"),
        "{second}"
    );
    for url in &expected {
        assert!(
            served_file(&out, url).is_file(),
            "{url}, which Hugo publishes, is not served: {expected:?}"
        );
    }
    assert!(served_file(&out, "/old/second/").is_file(), "the alias");
    // Hugo's RSS feeds of each home and each tag, where Hugo writes them
    // (its feeds of sections and of the tag index are not folio's yet).
    let feeds = hugo_feeds(&source, &dir.path().join("hugo-out"));
    assert_eq!(
        feeds,
        [
            "de/index.xml",
            "fr/index.xml",
            "index.xml",
            "tags/a/index.xml"
        ]
    );
    for feed in feeds {
        let text = std::fs::read_to_string(out.join(&feed)).unwrap();
        assert!(text.contains("<rss version=\"2.0\""), "{feed}: {text}");
    }
    // Translations stay linked as Hugo linked them (by their path).
    let first = std::fs::read_to_string(served_file(&out, "/2024/02/first-post/")).unwrap();
    assert!(
        first.contains("hreflang=\"fr\"") && first.contains("hreflang=\"de\""),
        "{first}"
    );
}

#[test]
fn a_yaml_alias_bomb_in_a_jekyll_post_is_copied_for_the_build_to_name() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("jekyll");
    std::fs::create_dir_all(source.join("_posts")).unwrap();
    std::fs::write(source.join("_config.yml"), "title: Bomb\n").unwrap();
    let mut bomb =
        String::from("---\ntitle: Laughs\na: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for (name, previous) in ["b", "c", "d", "e", "f", "g", "h", "i"]
        .iter()
        .zip(["a", "b", "c", "d", "e", "f", "g", "h"])
    {
        bomb.push_str(&format!(
            "{name}: &{name} [{}]\n",
            vec![format!("*{previous}"); 9].join(", ")
        ));
    }
    bomb.push_str("---\nBody.\n");
    std::fs::write(source.join("_posts/2024-01-01-laughs.md"), bomb).unwrap();
    let into = dir.path().join("folio");
    // Before the reader refused them, these aliases took the import down:
    // now it writes the site, whose first build names the post.
    let said = import_refused_by_its_build("jekyll", &source, &into);
    assert!(
        said.contains("content/en/posts/2024-01-01-laughs.md:7: its YAML aliases would have the reader copy more than 1 MiB"),
        "{said}"
    );
    let built = folio_build(&into, None);
    assert!(!built.status.success());
}

/// Runs `folio import GENERATOR source --into into`, which must fail
/// without making `into` or changing anything beside it; what it says.
fn refused_import(generator: &str, source: &Path, into: &Path) -> String {
    // Everything beside --into: the sources, and the files an attack aims at.
    let dir = into.parent().unwrap();
    let before = outside(dir, into);
    let import = folio_command()
        .args(["import", generator])
        .arg(source)
        .arg("--into")
        .arg(into)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&import.stderr).into_owned();
    assert!(
        !import.status.success(),
        "{}{stderr}",
        String::from_utf8_lossy(&import.stdout)
    );
    assert_eq!(outside(dir, into), before, "{stderr}");
    assert!(!into.exists(), "a refused import made --into: {stderr}");
    stderr
}

/// Every file, folder and link under `dir` but outside `into`, with a
/// file's bytes: what an import must leave as it was.
fn outside(dir: &Path, into: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| !e.path().starts_with(into))
        .map(|e| {
            let bytes = if e.file_type().is_file() {
                std::fs::read(e.path()).unwrap()
            } else {
                Vec::new()
            };
            (e.path().to_owned(), bytes)
        })
        .collect()
}

/// Writes `text` at `rel` under `root`, with its folders.
fn put(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The one file in `folder`.
fn only_file(folder: &Path) -> PathBuf {
    let files: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files.into_iter().next().unwrap()
}

#[test]
fn a_zola_slug_that_is_an_absolute_path_is_made_safe_and_writes_nothing_outside() {
    let dir = tempfile::tempdir().unwrap();
    // Where the slug points: a file of the user's.
    put(dir.path(), "home/me/notes.md", "orig");
    let source = dir.path().join("zsrc");
    put(
        &source,
        "config.toml",
        "title=\"z\"\nbase_url=\"https://z\"\n",
    );
    let slug = dir.path().join("home/me/notes").display().to_string();
    put(
        &source,
        "content/blog/a.md",
        &format!("+++\ntitle = \"a\"\ndate = 2024-01-01\nslug = \"{slug}\"\n+++\nbody\n"),
    );
    let into = dir.path().join("zinto");
    let before = outside(dir.path(), &into);

    let summary = import("zola", &source, &into);
    assert_eq!(outside(dir.path(), &into), before, "{summary}");
    assert!(
        summary.contains(&format!(
            "made safe:    content/blog/a.md: its slug `{slug}` contains `/`; written as `"
        )),
        "{summary}"
    );
    // Written inside, under the safe slug, with the URL Zola gave it.
    let post = std::fs::read_to_string(only_file(&into.join("content/en/blog"))).unwrap();
    let safe = toml_field(&post, "slug").unwrap();
    assert!(
        summary.contains(&format!("written as `{safe}`")),
        "{summary}"
    );
    assert!(!safe.contains('/'), "{safe}");
    let old_url = format!("/blog{slug}/");
    assert_eq!(toml_field(&post, "permalink").as_deref(), Some(&*old_url));

    builds(&into, None);
    assert!(served_file(&into.join("public"), &old_url).is_file());
}

#[test]
fn a_hugo_slug_that_climbs_out_is_made_safe_and_writes_nothing_outside() {
    let dir = tempfile::tempdir().unwrap();
    // Where `content/en/posts/../../../../victim/x.md` is, from --into.
    put(dir.path(), "victim/x.md", "orig");
    let source = dir.path().join("hsrc");
    put(
        &source,
        "hugo.toml",
        "baseURL = \"https://example.org/\"\ntitle = \"h\"\n",
    );
    put(
        &source,
        "content/posts/a.md",
        "---\ntitle: a\ndate: 2024-01-01\nslug: ../../../../victim/x\n---\nbody\n",
    );
    let into = dir.path().join("hinto");
    let before = outside(dir.path(), &into);

    // Its old URL leads out of the site too: the build refuses it.
    let summary = import_refused_by_its_build("hugo", &source, &into);
    assert_eq!(outside(dir.path(), &into), before, "{summary}");
    assert!(
        summary.contains("`/posts/../../../../victim/x/` is not a path inside the site"),
        "{summary}"
    );
    assert!(
        summary.contains("made safe:    content/posts/a.md: its slug `../../../../victim/x` starts with a dot, which hides a folder or leads out of one; written as `victim-x`"),
        "{summary}"
    );
    let post = std::fs::read_to_string(into.join("content/en/posts/victim-x.md")).unwrap();
    assert!(post.contains("slug: \"victim-x\""), "{post}");
    assert!(post.contains("permalink: "), "{post}");
}

#[test]
fn a_jekyll_language_that_climbs_out_is_refused_naming_the_post() {
    let dir = tempfile::tempdir().unwrap();
    // Where `content/../../victim/posts/2024-01-01-a.md` is, from --into.
    put(dir.path(), "victim/posts/2024-01-01-a.md", "orig");
    let source = dir.path().join("jsrc");
    put(&source, "_config.yml", "title: j\n");
    put(
        &source,
        "_posts/2024-01-01-a.md",
        "---\ntitle: a\nlang: ../../victim\n---\nbody\n",
    );
    let into = dir.path().join("jinto");
    let stderr = refused_import("jekyll", &source, &into);
    assert!(
        stderr.contains("_posts/2024-01-01-a.md")
            && stderr.contains("`lang` is `../../victim`, which is not a language code")
            && stderr.contains("help: write `lang` as the code of the language"),
        "{stderr}"
    );
}

#[test]
fn a_hugo_content_dir_outside_the_site_is_refused_and_not_read() {
    for (name, content_dir) in [("absolute", None), ("climbing", Some("../private"))] {
        let dir = tempfile::tempdir().unwrap();
        put(
            dir.path(),
            "private/posts/secret.md",
            "---\ntitle: Secret\ndate: 2024-01-01\n---\nsecret text\n",
        );
        let content_dir = content_dir.map_or_else(
            || dir.path().join("private").display().to_string(),
            str::to_owned,
        );
        let source = dir.path().join("site");
        put(
            &source,
            "hugo.toml",
            &format!(
                "baseURL = \"https://example.org/\"\ntitle = \"h\"\ndefaultContentLanguage = \"en\"\n\
                 [languages.en]\nweight = 1\n[languages.fr]\nweight = 2\ncontentDir = \"{content_dir}\"\n"
            ),
        );
        put(
            &source,
            "content/posts/a.md",
            "---\ntitle: a\ndate: 2024-01-01\n---\nbody\n",
        );
        let into = dir.path().join("into");
        let stderr = refused_import("hugo", &source, &into);
        assert!(
            stderr.contains("hugo.toml")
                && stderr.contains(&format!("`languages.fr.contentDir` is `{content_dir}`"))
                && stderr.contains(
                    "help: write `languages.fr.contentDir` relative to the site's folder"
                ),
            "{name}: {stderr}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_content_folder_that_links_out_of_the_site_is_refused_and_not_read() {
    let dir = tempfile::tempdir().unwrap();
    put(
        dir.path(),
        "elsewhere/blog/secret.md",
        "+++\ntitle = \"Secret\"\ndate = 2024-01-01\n+++\nsecret text\n",
    );
    let source = dir.path().join("zsrc");
    put(
        &source,
        "config.toml",
        "title=\"z\"\nbase_url=\"https://z\"\n",
    );
    std::os::unix::fs::symlink(dir.path().join("elsewhere"), source.join("content")).unwrap();
    let into = dir.path().join("zinto");
    let stderr = refused_import("zola", &source, &into);
    assert!(
        stderr.contains("zsrc/content")
            && stderr.contains("outside the folder being imported")
            && stderr.contains("help: copy what it links to into the site's folder"),
        "{stderr}"
    );
}

#[test]
fn a_jekyll_post_without_a_title_or_dated_beyond_folio_builds_as_jekyll_showed_it() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("jekyll");
    put(&source, "_config.yml", "title: j\npermalink: /:title/\n");
    put(
        &source,
        "_posts/2009-09-05-edge-case-no-yaml-title.md",
        "---\ntags: [a]\n---\nNo title.\n",
    );
    put(
        &source,
        "_posts/2010-10-25-post-future-date.md",
        "---\ntitle: Future\ndate: 9999-12-31\n---\nLater.\n",
    );
    let into = dir.path().join("folio");
    let summary = import("jekyll", &source, &into);
    assert!(
        summary.contains("given \"Edge Case No Yaml Title\""),
        "{summary}"
    );
    assert!(
        summary.contains("drafted:      _posts/2010-10-25-post-future-date.md"),
        "{summary}"
    );
    builds(&into, None);
    let out = into.join("public");
    let page = std::fs::read_to_string(served_file(&out, "/edge-case-no-yaml-title/")).unwrap();
    assert!(page.contains("<h1>Edge Case No Yaml Title</h1>"), "{page}");
    // Jekyll did not publish it; neither does folio.
    assert!(!served_file(&out, "/post-future-date/").exists());
    let draft =
        std::fs::read_to_string(into.join("content/en/posts/2010-10-25-post-future-date.md"))
            .unwrap();
    assert!(
        draft.contains("draft: true") && !draft.contains("9999"),
        "{draft}"
    );
}

#[test]
fn a_key_a_jekyll_post_repeats_inside_a_mapping_keeps_its_last_value() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("jekyll");
    put(&source, "_config.yml", "title: j\npermalink: /:title/\n");
    put(
        &source,
        "_posts/2024-01-01-a.md",
        "---\ntitle: A\nheader:\n  teaser: one.png\n  caption: c\n  teaser: two.png\n---\nBody.\n",
    );
    let into = dir.path().join("folio");
    let summary = import("jekyll", &source, &into);
    assert!(summary.contains("set `header.teaser` twice"), "{summary}");
    builds(&into, None);
    let post = std::fs::read_to_string(into.join("content/en/posts/2024-01-01-a.md")).unwrap();
    assert!(
        post.contains("header:\n  caption: c\n  teaser: two.png\n"),
        "{post}"
    );
    assert!(!post.contains("one.png"), "{post}");
}

#[test]
fn a_key_a_hugo_page_repeats_keeps_its_last_value() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("hsrc");
    put(
        &source,
        "hugo.toml",
        "baseURL = \"https://example.org/\"\ntitle = \"h\"\n",
    );
    put(
        &source,
        "content/posts/a.md",
        "---\ntitle: a\ndate: 2024-01-01\nauthor: x\nparams:\n  tag: one\n  tag: two\nauthor: y\n---\nbody\n",
    );
    let into = dir.path().join("hinto");
    let summary = import("hugo", &source, &into);
    for key in ["params.tag", "author"] {
        assert!(
            summary.contains(&format!("set `{key}` twice")),
            "{key}: {summary}"
        );
    }
    builds(&into, None);
    let post = std::fs::read_to_string(into.join("content/en/posts/a.md")).unwrap();
    assert!(post.contains("params:\n  tag: two\nauthor: y\n"), "{post}");
}

#[test]
fn hugo_pages_of_one_section_sharing_a_slug_each_keep_their_url() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("hsrc");
    put(
        &source,
        "hugo.toml",
        "baseURL = \"https://example.org/\"\ntitle = \"h\"\n",
    );
    for month in ["03", "04", "05"] {
        put(
            &source,
            &format!("content/blog/2015-{month}-00-Weekly-Meeting.md"),
            // A byte order mark and a blank line before one of them.
            &format!(
                "{}---\ntitle: Weekly\ndate: 2015-{month}-01\nslug: weekly-meeting\nurl: /blog/2015/{month}/weekly/\n---\nNotes.\n",
                if month == "04" { "\u{feff}\n" } else { "" }
            ),
        );
    }
    let into = dir.path().join("hinto");
    let summary = import("hugo", &source, &into);
    assert!(summary.contains("renamed:      content/blog/2015-03-00-Weekly-Meeting.md is `2015-03-00-weekly-meeting-blog`"), "{summary}");
    builds(&into, None);
    for month in ["03", "04", "05"] {
        let page = served_file(&into.join("public"), &format!("/blog/2015/{month}/weekly/"));
        assert!(
            std::fs::read_to_string(&page)
                .unwrap()
                .contains("<h1>Weekly</h1>"),
            "{month}"
        );
    }
}

#[test]
fn the_site_wide_hugo_content_dir_holds_the_languages_without_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("hsrc");
    put(
        &source,
        "config.toml",
        "baseURL = \"https://example.org/\"\ntitle = \"h\"\ncontentDir = \"content/en\"\n\
         [languages.en]\nweight = 1\n[languages.fr]\ncontentDir = \"content/fr\"\n",
    );
    put(
        &source,
        "content/en/blog/a.md",
        "---\ntitle: A\ndate: 2024-01-01\n---\nbody\n",
    );
    put(
        &source,
        "content/fr/blog/b.md",
        "---\ntitle: B\ndate: 2024-01-01\n---\ncorps\n",
    );
    let into = dir.path().join("hinto");
    import("hugo", &source, &into);
    assert!(into.join("content/en/blog/a.md").is_file());
    assert!(into.join("content/fr/blog/b.md").is_file());
    assert!(!into.join("content/en/en").exists());
    builds(&into, None);
    let out = into.join("public");
    assert!(served_file(&out, "/blog/a/").is_file() && served_file(&out, "/fr/blog/b/").is_file());
}

#[test]
fn a_jekyll_slug_that_yaml_would_read_otherwise_is_written_quoted() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("jekyll");
    put(&source, "_config.yml", "title: j\npermalink: /:slug/\n");
    put(
        &source,
        "_posts/2024-01-01-a.md",
        "---\ntitle: a\nslug: \"[draft]\"\n---\nbody\n",
    );
    let into = dir.path().join("folio");
    import("jekyll", &source, &into);
    // Unquoted, `[draft]` is a YAML list, which the build refuses as a slug.
    builds(&into, None);
    assert!(served_file(&into.join("public"), "/[draft]/").is_file());
}

#[test]
fn a_zola_default_language_that_climbs_out_is_refused_naming_the_config() {
    let dir = tempfile::tempdir().unwrap();
    // Where `content/../../victim/blog/a.md` is, from --into.
    put(dir.path(), "victim/blog/a.md", "orig");
    let source = dir.path().join("zsrc");
    put(
        &source,
        "config.toml",
        "title=\"z\"\nbase_url=\"https://z\"\ndefault_language=\"../../victim\"\n",
    );
    put(
        &source,
        "content/blog/a.md",
        "+++\ntitle = \"a\"\ndate = 2024-01-01\n+++\nbody\n",
    );
    let into = dir.path().join("zinto");
    let stderr = refused_import("zola", &source, &into);
    assert!(
        stderr.contains("config.toml")
            && stderr
                .contains("`default_language` is `../../victim`, which is not a language code"),
        "{stderr}"
    );
}

#[test]
fn a_hugo_ref_written_in_html_leads_where_its_markdown_twin_does() {
    let dir = tempfile::tempdir().unwrap();
    let (source, into) = (dir.path().join("hugo"), dir.path().join("folio"));
    let put = |rel: &str, text: &str| {
        let path = source.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    put(
        "hugo.toml",
        "baseURL = \"https://example.org/\"\ntitle = \"h\"\n",
    );
    put(
        "content/blog/_index.md",
        "---\ntitle: Blog\n---\nThe blog.\n",
    );
    put(
        "content/blog/b.md",
        "---\ntitle: b\ndate: 2024-01-01\n---\nB.\n",
    );
    put(
        "content/blog/a.md",
        "---\ntitle: a\ndate: 2024-01-02\n---\nSee [the blog]({{< ref \"/blog\" >}}), \
         <a href=\"{{< ref \"/blog\" >}}\">the blog</a> and <a href=\"{{< ref \"b\" >}}\">b</a>.\n",
    );
    import("hugo", &source, &into);
    let page = std::fs::read_to_string(into.join("public/blog/a/index.html")).unwrap();
    assert!(
        page.contains("<a href=\"/blog/\">the blog</a> and"),
        "{page}"
    );
    assert!(page.contains("<a href=\"/blog/b/\">b</a>"), "{page}");
    assert!(!page.contains("@/"), "{page}");
}
