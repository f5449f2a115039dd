//! Stage-level figures: `cargo bench`. The side-by-side comparison with Hugo
//! and Zola is `bench/run.sh`; this measures folio's own stages on a corpus
//! it generates (deterministically) in a temp dir.
//!
//! The whole-build benches run as `folio build` does. The per-stage ones
//! (`*_900_sources`) count what their stage handles, sources or pages, so
//! that divan's throughput gives a time per item; they run their stage on
//! this thread, except for what the stage itself hands to rayon (discover's
//! stats, the plan's fingerprints and sitemap), so the figure is the work a
//! page costs rather than how the two cores share it.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

use divan::counter::ItemsCount;
use folio::model::doc::{Record, Source};
use folio::plan::{self, Plan, Views, Visibility};
use folio::render::assets::AssetUrls;
use folio::render::i18n::I18n;
use folio::render::{Requests, Theme};
use folio::source::discover::FilesAt;
use folio::source::parse::{self, BodyAt, Parsed};
use folio::store::index::{Changes, Index};
use folio::store::write::{self, Rendered, Written};
use folio::{BuildOptions, Config, Site};

fn main() {
    divan::main();
}

const POSTS: usize = 300;
/// Every build runs at this moment (2026-01-01T00:00:00Z), after every post.
const NOW_MS: i64 = 1_767_225_600_000;
const LANGS: [&str; 3] = ["en", "fr", "de"];

/// About 800 words of Markdown with headings, lists, code and a table; the
/// words come from a fixed pseudo-random sequence.
fn body(seed: usize) -> String {
    let words = [
        "static",
        "site",
        "build",
        "page",
        "index",
        "render",
        "template",
        "feed",
        "language",
        "incremental",
        "hash",
        "write",
        "source",
        "output",
        "plan",
        "parse",
        "translation",
        "écrire",
        "données",
        "größe",
        "über",
        "dépôt",
        "schnell",
        "lecture",
        "entrée",
    ];
    let mut state = seed as u64 * 6364136223846793005 + 1442695040888963407;
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        words[(state >> 33) as usize % words.len()]
    };
    let mut out = String::new();
    for section in 0..5 {
        out.push_str(&format!("## Section {section} {}\n\n", next()));
        for _ in 0..2 {
            let sentence: Vec<&str> = (0..70).map(|_| next()).collect();
            out.push_str(&sentence.join(" "));
            out.push_str(".\n\n");
        }
        out.push_str(&format!("- {}\n- {}\n- *{}*\n\n", next(), next(), next()));
    }
    out.push_str(
        "```rust\nfn main() { println!(\"hi\"); }\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
    );
    out
}

fn corpus(root: &Path) {
    std::fs::write(
        root.join("site.toml"),
        "title = \"Bench\"\nbase_url = \"https://example.org\"\ndefault_language = \"en\"\n[languages.en]\nname = \"English\"\n[languages.fr]\nname = \"Français\"\n[languages.de]\nname = \"Deutsch\"\n",
    )
    .unwrap();
    for lang in LANGS {
        let dir = root.join("content").join(lang).join("posts");
        std::fs::create_dir_all(&dir).unwrap();
        for n in 0..POSTS {
            let text = format!(
                "---\ntitle: Post {n} {lang}\ndate: 20{:02}-{:02}-{:02}T10:00:00Z\ntags: [t{}, t{}]\n---\n{}",
                10 + n % 15,
                1 + n % 12,
                1 + n % 28,
                n % 20,
                n % 7,
                body(n)
            );
            std::fs::write(dir.join(format!("post-{n:05}.md")), text).unwrap();
        }
    }
    // Sources older than any build: the stat fast path trusts them.
    let past = filetime::FileTime::from_unix_time(1_600_000_000, 0);
    for entry in walkdir::WalkDir::new(root.join("content")) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            filetime::set_file_mtime(entry.path(), past).unwrap();
        }
    }
}

fn built() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    corpus(dir.path());
    Site::open(dir.path())
        .unwrap()
        .build(&BuildOptions::new(NOW_MS))
        .unwrap();
    dir
}

#[divan::bench(sample_count = 5)]
fn cold_build_900_posts(bencher: divan::Bencher) {
    bencher
        .with_inputs(|| {
            let dir = tempfile::tempdir().unwrap();
            corpus(dir.path());
            dir
        })
        .bench_local_values(|dir| {
            Site::open(dir.path())
                .unwrap()
                .build(&BuildOptions::new(NOW_MS))
                .unwrap();
            dir
        });
}

#[divan::bench(sample_count = 20)]
fn noop_rebuild_900_posts(bencher: divan::Bencher) {
    let dir = built();
    let site = Site::open(dir.path()).unwrap();
    bencher.bench_local(|| {
        let report = site.build(&BuildOptions::new(NOW_MS)).unwrap();
        assert!(report.written.is_empty());
    });
}

#[divan::bench(sample_count = 20)]
fn one_body_edit_900_posts(bencher: divan::Bencher) {
    let dir = built();
    let site = Site::open(dir.path()).unwrap();
    let post = dir.path().join("content/en/posts/post-00042.md");
    let original = std::fs::read_to_string(&post).unwrap();
    let mut flip = false;
    bencher.bench_local(|| {
        flip = !flip;
        let text = if flip {
            format!("{original}\nEdited.\n")
        } else {
            original.clone()
        };
        std::fs::write(&post, text).unwrap();
        let report = site.build(&BuildOptions::new(NOW_MS)).unwrap();
        assert_eq!(report.written.len(), 1);
    });
}

#[divan::bench]
fn parse_one_post(bencher: divan::Bencher) {
    let text = format!(
        "---\ntitle: A post\ndate: 2024-05-01T09:00:00Z\ntags: [a, b]\n---\n{}",
        body(7)
    );
    let config = folio::Config::parse(
        "title='t'\nbase_url='x'\ndefault_language='en'\n[languages.en]\nname='English'\n",
        Path::new("site.toml"),
    )
    .unwrap();
    let mut source = folio::source::discover::classify("en/posts/a-post.md", &config).unwrap();
    source.path = "content/en/posts/a-post.md".into();
    bencher.bench(|| {
        let hash = folio::model::hash::source_hash(text.as_bytes());
        folio::source::parse::parse(
            &source,
            text.as_bytes(),
            hash,
            (&config, &NO_PLUGINS, &Default::default()),
        )
        .unwrap()
    });
}

#[divan::bench]
fn discover_900_sources(bencher: divan::Bencher) {
    let dir = tempfile::tempdir().unwrap();
    corpus(dir.path());
    let site = Site::open(dir.path()).unwrap();
    bencher
        .counter(ItemsCount::new(LANGS.len() * POSTS))
        .bench(|| folio::source::discover::discover(dir.path(), site.config()).unwrap());
}

/// A `now` after every date of the corpus, so that every post is shown
/// whatever the day the bench runs.
const VISIBILITY: Visibility = Visibility {
    drafts: false,
    future: false,
    expired: false,
    now_ms: 1_750_000_000_000,
};
static NO_PLUGINS: folio::Plugins = folio::Plugins::new();
const STARTED_NS: i64 = VISIBILITY.now_ms * 1_000_000;

/// What the parse stage does with one source.
fn read_and_parse(files: &FilesAt, source: &Source, config: &Config) -> Parsed {
    let bytes = files.read(&source.path, source.stat.size).unwrap();
    let hash = folio::model::hash::source_hash(&bytes);
    parse::parse(
        source,
        &bytes,
        hash,
        (config, &NO_PLUGINS, &Default::default()),
    )
    .unwrap()
}

/// The corpus as a cold build holds it once parsed: its records sorted by
/// source path, as the plan takes them, and where each one's body starts.
struct Corpus {
    dir: tempfile::TempDir,
    site: Site,
    files: FilesAt,
    records: Vec<Record>,
    /// Where each one's body is, and the check of the bytes read again.
    bodies: Vec<BodyAt>,
}

impl Corpus {
    fn parsed() -> Corpus {
        let dir = tempfile::tempdir().unwrap();
        corpus(dir.path());
        let site = Site::open(dir.path()).unwrap();
        let files = FilesAt::new(dir.path());
        let sources = folio::source::discover::discover(dir.path(), site.config())
            .unwrap()
            .sources;
        let mut parsed: Vec<Parsed> = sources
            .iter()
            .map(|source| read_and_parse(&files, source, site.config()))
            .collect();
        parsed.sort_by(|a, b| a.record.source.path.cmp(&b.record.source.path));
        let bodies = parsed.iter().map(|p| p.body).collect();
        let records = parsed.into_iter().map(|p| p.record).collect();
        Corpus {
            dir,
            site,
            files,
            records,
            bodies,
        }
    }

    fn config(&self) -> &Config {
        self.site.config()
    }

    fn theme_and_words(&self) -> (Theme, I18n) {
        let theme = Theme::load(self.dir.path(), None, &NO_PLUGINS).unwrap();
        let i18n = I18n::load(self.dir.path(), self.config()).unwrap();
        (theme, i18n)
    }

    fn plan<'a>(&'a self, views: &'a Views<'a>, theme: &Theme) -> Plan<'a> {
        plan::plan(
            self.config(),
            views,
            theme,
            // The plan owns the records it was made from: their copy is
            // counted in the plan's time (well under 1% of it here).
            (self.records.clone(), Vec::new()),
            plan::Sources::documents_only(&NO_PLUGINS),
            VISIBILITY,
            STARTED_NS,
        )
        .unwrap()
        .0
    }

    /// Renders every page of `plan` as the render stage does, up to its
    /// staging: the sitemap, each page's context, the body of a post read
    /// again from its source and checked, the template.
    fn render_each(
        &self,
        plan: &mut Plan<'_>,
        theme: &Theme,
        env: &minijinja::Environment<'_>,
        mut each: impl FnMut(Rendered),
    ) {
        let sitemap = plan.sitemap_if_selected(&plan.specs, &vec![true; plan.specs.len()]);
        let shortcodes = theme.shortcodes();
        for spec in &plan.specs {
            let body_of = spec.body_of();
            let mut page = plan.page(spec, sitemap.as_deref());
            if let Some(i) = body_of {
                let source = &self.records[i].source;
                let bytes = self.files.read(&source.path, source.stat.size).unwrap();
                let body = self.bodies[i];
                assert!(body.holds(&bytes));
                let document = folio::plugin::Document::new(&source.path, &self.records[i].lang);
                let plugins = (&NO_PLUGINS, &document);
                let render = (self.config(), shortcodes);
                let (html, _) =
                    parse::body_html(&bytes, Some(body.start), plugins, render).unwrap();
                page.context.set_content(html);
            }
            let size_hint = page.context.size_hint();
            each(Rendered {
                bytes: theme
                    .render(env, &page.template, &page.context, size_hint)
                    .unwrap(),
                output: page.output,
                fingerprint: page.fingerprint,
            });
        }
    }

    /// Every page of the corpus, rendered.
    fn pages(&self) -> Vec<Rendered> {
        let (theme, i18n) = self.theme_and_words();
        let views = Views::new(self.config(), &i18n);
        let mut plan = self.plan(&views, &theme);
        let env = theme
            .environment(&self.config().markup.highlight, &requests(&plan))
            .unwrap();
        let mut pages = Vec::new();
        self.render_each(&mut plan, &theme, &env, |page| pages.push(page));
        pages
    }
}

/// What the templates of `plan` may ask for: its assets, whose bytes are
/// not made here (`asset_url` answers with their own URL), and no image.
fn requests(plan: &Plan<'_>) -> Requests {
    let names = plan.assets().keys().cloned().collect();
    Requests {
        resizer: folio::render::images::Resizer::without_files(),
        assets: Arc::new(AssetUrls::new((names, BTreeSet::new()), [], "")),
    }
}

fn copy(page: &Rendered) -> Rendered {
    Rendered {
        output: page.output.clone(),
        bytes: page.bytes.clone(),
        fingerprint: page.fingerprint.clone(),
    }
}

/// The write stage's staging and commit of a first build into an empty
/// folder, `out`.
fn write_all(out: &Path, pages: Vec<Rendered>) -> Vec<Written> {
    let mut staging = write::Staging::for_folder(out, true).unwrap();
    for page in pages {
        let write::Staged::Page(page) = write::stage(&staging, page, None, false).unwrap() else {
            unreachable!("an empty folder holds no one else's file");
        };
        staging.push(page);
    }
    staging.commit(|_| {}).unwrap()
}

#[divan::bench(sample_count = 20)]
fn parse_900_sources(bencher: divan::Bencher) {
    let dir = tempfile::tempdir().unwrap();
    corpus(dir.path());
    let site = Site::open(dir.path()).unwrap();
    let files = FilesAt::new(dir.path());
    let sources = folio::source::discover::discover(dir.path(), site.config())
        .unwrap()
        .sources;
    bencher
        .counter(ItemsCount::new(sources.len()))
        .bench_local(|| {
            sources
                .iter()
                .map(|source| read_and_parse(&files, source, site.config()))
                .collect::<Vec<_>>()
        });
}

/// Bodies are rendered at render time, once per page shown; parse no longer
/// does it. The corpus's bodies each hold a highlighted code block.
#[divan::bench]
fn render_body_one_post(bencher: divan::Bencher) {
    let markdown = body(7);
    let markup = folio::source::markdown::Markup::default();
    bencher.bench(|| folio::source::markdown::render_body(&markdown, &markup));
}

/// Counted in pages (the plan's specs), not sources.
#[divan::bench(sample_count = 20)]
fn plan_900_sources(bencher: divan::Bencher) {
    let corpus = Corpus::parsed();
    let (theme, i18n) = corpus.theme_and_words();
    let views = Views::new(corpus.config(), &i18n);
    let pages = corpus.plan(&views, &theme).specs.len();
    bencher
        .counter(ItemsCount::new(pages))
        .bench_local(|| corpus.plan(&views, &theme));
}

/// Timed: from the plan's specs to every page's bytes, the staging left out
/// (it is in `write_900_sources`).
#[divan::bench(sample_count = 10, sample_size = 1)]
fn render_900_sources(bencher: divan::Bencher) {
    let corpus = Corpus::parsed();
    let (theme, i18n) = corpus.theme_and_words();
    let views = Views::new(corpus.config(), &i18n);
    let plan = corpus.plan(&views, &theme);
    let env = theme
        .environment(&corpus.config().markup.highlight, &requests(&plan))
        .unwrap();
    let pages = plan.specs.len();
    drop(plan);
    bencher
        .counter(ItemsCount::new(pages))
        .with_inputs(|| corpus.plan(&views, &theme))
        .bench_local_refs(|plan| {
            let mut bytes = 0;
            corpus.render_each(plan, &theme, &env, |page| bytes += page.bytes.len());
            bytes
        });
}

/// Timed: staging every page into a fresh empty folder and committing it, as
/// a first build does (`folio build --json` counts the staging, done by the
/// render workers, under "render"); copying the pages is not. The folders are removed
/// only once every sample is taken: on the disk of the machine this was
/// written on, creating 1,200 files right after removing as many took 2.5 s,
/// against 0.12 s once the removals had stopped.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn write_900_sources(bencher: divan::Bencher) {
    let pages = Corpus::parsed().pages();
    let mut outs = Vec::new();
    bencher
        .counter(ItemsCount::new(pages.len()))
        .with_inputs(|| {
            (
                tempfile::tempdir().unwrap(),
                pages.iter().map(copy).collect(),
            )
        })
        .bench_local_values(|(out, pages)| {
            let written = write_all(out.path(), pages);
            outs.push(out);
            written
        });
}

/// Timed: the commit of a cold build's rows, one per source and one per
/// page, into an index just created (its opening, which creates the schema,
/// is not). Counted in rows.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn index_900_sources(bencher: divan::Bencher) {
    let corpus = Corpus::parsed();
    let out = tempfile::tempdir().unwrap();
    let written = write_all(out.path(), corpus.pages());
    let out_key = out.path().to_string_lossy();
    let changes = Changes {
        output_dir: &out_key,
        upserts: corpus.records.iter().collect(),
        outputs: written
            .into_iter()
            .map(|w| (w.output.to_string(), w.row))
            .collect(),
        ..Changes::default()
    };
    bencher
        .counter(ItemsCount::new(
            changes.upserts.len() + changes.outputs.len(),
        ))
        .with_inputs(|| {
            let dir = tempfile::tempdir().unwrap();
            let index = Index::open(&dir.path().join("index.sqlite")).unwrap();
            (dir, index)
        })
        .bench_local_refs(|(_, index)| index.commit(&changes).unwrap());
}
