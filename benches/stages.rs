//! Stage-level figures: `cargo bench`. The side-by-side comparison with Hugo
//! and Zola is `bench/run.sh`; this measures folio's own stages on a corpus
//! it generates (deterministically) in a temp dir.

use std::path::Path;

use folio::{BuildOptions, Site};

fn main() {
    divan::main();
}

const POSTS: usize = 300;
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
        .build(&BuildOptions::default())
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
                .build(&BuildOptions::default())
                .unwrap();
            dir
        });
}

#[divan::bench(sample_count = 20)]
fn noop_rebuild_900_posts(bencher: divan::Bencher) {
    let dir = built();
    let site = Site::open(dir.path()).unwrap();
    bencher.bench_local(|| {
        let report = site.build(&BuildOptions::default()).unwrap();
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
        let report = site.build(&BuildOptions::default()).unwrap();
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
    let mut source = folio::discover::classify("en/posts/a-post.md", &config).unwrap();
    source.path = "content/en/posts/a-post.md".into();
    bencher.bench(|| {
        let hash = folio::parse::source_hash(text.as_bytes());
        folio::parse::parse(&source, text.as_bytes(), hash, &config).unwrap()
    });
}

#[divan::bench]
fn discover_900_sources(bencher: divan::Bencher) {
    let dir = tempfile::tempdir().unwrap();
    corpus(dir.path());
    let site = Site::open(dir.path()).unwrap();
    bencher.bench(|| folio::discover::discover(dir.path(), site.config()).unwrap());
}
