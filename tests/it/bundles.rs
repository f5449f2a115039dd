//! Page bundles: `posts/my-trip/index.md` is one document named by its
//! folder, and the files beside it are copied beside its page in each
//! language it is published in, as outputs like any other.

use crate::util;

use util::TestSite;

/// A 1×1 PNG: bytes that are no UTF-8, copied as they are.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
    0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
    0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
    0x42, 0x60, 0x82,
];

const TRIP: &str = "content/posts/2024-05-01-my-trip";

/// A bundle in English and French (one folder, translations by file name)
/// with a picture and a map in a folder of its own, a second bundle, and a
/// page bundle.
fn trip_site(kept: bool) -> TestSite {
    let site = TestSite::new();
    if kept {
        site.keep_session();
    }
    site.write(
        &format!("{TRIP}/index.md"),
        "---\ntitle: My trip\n---\nWhere we went: ![the view](photo.png)\n\n\
         The way there: ![map](maps/way.svg)\n",
    );
    site.write(
        &format!("{TRIP}/index.fr.md"),
        "---\ntitle: Mon voyage\n---\nOù nous sommes allés : ![la vue](photo.png)\n",
    );
    site.write_bytes(&format!("{TRIP}/photo.png"), PNG);
    site.write(&format!("{TRIP}/maps/way.svg"), "<svg>way</svg>");
    site.write(
        "content/posts/other-trip/index.md",
        "---\ntitle: Another trip\ndate: 2024-06-01\n---\nAgain.\n",
    );
    site.write(
        "content/en/about/index.md",
        "---\ntitle: About\n---\n[My CV](cv.txt)\n",
    );
    site.write("content/en/about/cv.txt", "curriculum vitae\n");
    site.build();
    site
}

/// The copies of the trip's files, in both languages.
const TRIP_FILES: &[&str] = &[
    "fr/posts/my-trip/maps/way.svg",
    "fr/posts/my-trip/photo.png",
    "posts/my-trip/maps/way.svg",
    "posts/my-trip/photo.png",
];

#[test]
fn a_bundle_is_one_document_named_by_its_folder_with_its_files_beside_its_page() {
    let site = trip_site(false);
    let tree = site.output_tree();
    for page in [
        "posts/my-trip/index.html",
        "fr/posts/my-trip/index.html",
        "posts/other-trip/index.html",
        "about/index.html",
    ] {
        assert!(tree.contains_key(page), "{page}: {:?}", tree.keys());
    }
    assert!(
        !tree.keys().any(|path| path.contains("/index/")),
        "{:?}",
        tree.keys()
    );
    for copy in TRIP_FILES {
        assert!(tree.contains_key(*copy), "{copy}: {:?}", tree.keys());
    }
    assert_eq!(tree["posts/my-trip/photo.png"], PNG);
    assert_eq!(tree["fr/posts/my-trip/photo.png"], PNG);
    assert_eq!(tree["posts/my-trip/maps/way.svg"], b"<svg>way</svg>");
    assert_eq!(tree["about/cv.txt"], b"curriculum vitae\n");
    // The body's relative links lead to the copies beside the page.
    let page = String::from_utf8_lossy(&tree["posts/my-trip/index.html"]).into_owned();
    assert!(page.contains("src=\"photo.png\""), "{page}");
    // The folder's date prefix is the post's date, as a file name's is;
    // the two files of the folder are translations of each other.
    assert_eq!(
        site.query("SELECT slug || ' ' || lang || ' ' || published_at FROM posts WHERE slug = 'my-trip' ORDER BY lang"),
        ["my-trip en 1714521600000", "my-trip fr 1714521600000"]
    );
    assert!(page.contains("hreflang=\"fr\""), "{page}");
    assert!(page.contains("/fr/posts/my-trip/"), "{page}");
    // The Markdown sources themselves are not copied.
    assert!(!tree.keys().any(|path| path.ends_with(".md")));
    // A second build has nothing to do.
    let again = site.build();
    assert!(again.written.is_empty() && again.deleted.is_empty());
}

#[test]
fn a_bundle_s_files_are_inputs_of_the_build() {
    let site = trip_site(false);
    let inputs = site.build().inputs;
    for file in [
        "content/posts/2024-05-01-my-trip/photo.png",
        "content/posts/2024-05-01-my-trip/maps/way.svg",
        "content/en/about/cv.txt",
    ] {
        assert!(inputs.files.iter().any(|f| f == file), "{file}: {inputs:?}");
    }
}

/// One edit at a time, each writing or deleting exactly the copies of the
/// file it touched.
fn bundle_edits(site: TestSite) {
    let mut png = PNG.to_vec();
    png.extend_from_slice(b"trailing");
    site.write_bytes(&format!("{TRIP}/photo.png"), &png);
    site.assert_rebuild(
        &["fr/posts/my-trip/photo.png", "posts/my-trip/photo.png"],
        &[],
    );
    assert_eq!(site.output_tree()["fr/posts/my-trip/photo.png"], png);
    site.write(&format!("{TRIP}/maps/back.svg"), "<svg>back</svg>");
    site.assert_rebuild(
        &[
            "fr/posts/my-trip/maps/back.svg",
            "posts/my-trip/maps/back.svg",
        ],
        &[],
    );
    site.remove(&format!("{TRIP}/maps/way.svg"));
    site.assert_rebuild(
        &[],
        &[
            "fr/posts/my-trip/maps/way.svg",
            "posts/my-trip/maps/way.svg",
        ],
    );
    site.write("content/en/about/cv.txt", "a longer curriculum vitae\n");
    site.assert_rebuild(&["about/cv.txt"], &[]);
    // An edit of the document's body further down than its summary: its
    // page alone, none of its files.
    site.write(
        &format!("{TRIP}/index.md"),
        "---\ntitle: My trip\n---\nWhere we went: ![the view](photo.png)\n\n\
         The way back: ![map](maps/back.svg)\n",
    );
    site.assert_rebuild(&["posts/my-trip/index.html"], &[]);
    // A file in no bundle is no output.
    site.write("content/posts/notes.txt", "not published\n");
    site.assert_rebuild(&[], &[]);
    site.write("content/posts/other-trip/.hidden.png", "not published\n");
    site.assert_rebuild(&[], &[]);
}

#[test]
fn a_bundle_s_file_edit_writes_exactly_its_copies_through_fresh_builds() {
    bundle_edits(trip_site(false));
}

#[test]
fn a_bundle_s_file_edit_writes_exactly_its_copies_through_a_kept_session() {
    bundle_edits(trip_site(true));
}

/// Moves of the page a bundle's files follow, each ending as a clean build.
fn page_moves(site: TestSite) {
    let moved = |written: &[&str], deleted: &[&str]| {
        let report = site.build();
        for path in written {
            assert!(
                report.written.iter().any(|w| w == path),
                "{path} written: {report:?}"
            );
        }
        for path in deleted {
            assert!(
                report.deleted.iter().any(|d| d == path),
                "{path} deleted: {report:?}"
            );
        }
        assert!(
            site.output_tree() == site.clean_build_tree(),
            "differs from a clean build"
        );
    };
    // A draft's files stay out with it.
    site.write(
        &format!("{TRIP}/index.fr.md"),
        "---\ntitle: Mon voyage\ndraft: true\n---\nOù nous sommes allés : ![la vue](photo.png)\n",
    );
    moved(
        &[],
        &[
            "fr/posts/my-trip/index.html",
            "fr/posts/my-trip/maps/way.svg",
            "fr/posts/my-trip/photo.png",
        ],
    );
    assert!(site.output_tree().contains_key("posts/my-trip/photo.png"));
    // A URL of its own moves the page, and its files with it.
    site.write(
        &format!("{TRIP}/index.md"),
        "---\ntitle: My trip\nurl: /trips/2024/\n---\nWhere we went: ![the view](photo.png)\n",
    );
    moved(
        &["trips/2024/index.html", "trips/2024/photo.png"],
        &["posts/my-trip/index.html", "posts/my-trip/photo.png"],
    );
    // Gone, with its files.
    site.remove(&format!("{TRIP}/index.md"));
    moved(&[], &["trips/2024/index.html", "trips/2024/photo.png"]);
    assert!(
        !site
            .output_tree()
            .keys()
            .any(|path| path.contains("trip/photo.png"))
    );
}

#[test]
fn a_bundle_s_files_follow_its_page_through_fresh_builds() {
    page_moves(trip_site(false));
}

#[test]
fn a_bundle_s_files_follow_its_page_through_a_kept_session() {
    page_moves(trip_site(true));
}

#[test]
fn each_language_folder_s_bundle_has_its_own_files() {
    let site = TestSite::new();
    let post = |title: &str| format!("---\ntitle: {title}\ndate: 2024-05-01\n---\n![](map.svg)\n");
    site.write("content/en/posts/trip/index.md", &post("Trip"));
    site.write("content/fr/posts/trip/index.md", &post("Voyage"));
    site.write("content/fr/posts/trip/map.svg", "<svg>carte</svg>");
    site.write("content/ja/posts/trip/map.svg", "<svg>no document</svg>");
    site.build();
    let tree = site.output_tree();
    assert_eq!(tree["fr/posts/trip/map.svg"], b"<svg>carte</svg>");
    assert!(!tree.contains_key("posts/trip/map.svg"));
    assert!(!tree.keys().any(|path| path.starts_with("ja/posts")));
    // Translations of each other, by their folders' place.
    let page = String::from_utf8_lossy(&tree["posts/trip/index.html"]).into_owned();
    assert!(page.contains("/fr/posts/trip/"), "{page}");
}

#[test]
fn markdown_in_a_bundle_is_a_document_of_its_own_and_a_bundle_inside_takes_its_files() {
    let site = TestSite::new();
    let post = |title: &str| format!("---\ntitle: {title}\ndate: 2024-05-01\n---\nText.\n");
    site.write("content/posts/trip/index.md", &post("Trip"));
    site.write("content/posts/trip/notes.md", &post("Notes"));
    site.write("content/posts/trip/photo.png", "outer");
    site.write("content/posts/trip/day-1/index.md", &post("Day 1"));
    site.write("content/posts/trip/day-1/photo.png", "inner");
    site.build();
    let tree = site.output_tree();
    assert_eq!(tree["posts/trip/photo.png"], b"outer");
    assert_eq!(tree["posts/day-1/photo.png"], b"inner");
    assert!(tree.contains_key("posts/notes/index.html"));
    assert!(
        !tree
            .keys()
            .any(|path| path.starts_with("posts/trip/day-1") || path.ends_with(".md")),
        "{:?}",
        tree.keys()
    );
}

#[test]
fn a_bundle_s_file_on_a_page_s_output_is_refused_naming_both() {
    let site = trip_site(false);
    let before = site.output_tree();
    site.write(&format!("{TRIP}/index.html"), "<p>hand-made</p>");
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains(&format!(
            "{TRIP}/index.md: would be written to posts/my-trip/index.html, which {TRIP}/index.html also produces"
        )),
        "{error}"
    );
    assert!(error.contains(&format!("{TRIP}/index.fr.md")), "{error}");
    assert_eq!(site.output_tree(), before, "nothing written");
    // The same from the command line, and through a kept session.
    let cli = site.cli(&["build"]);
    assert!(!cli.status.success());
    assert!(util::stderr(&cli).contains(&format!("which {TRIP}/index.html also produces")));
    let kept = trip_site(true);
    kept.write("content/posts/other-trip/index.html", "<p>hand-made</p>");
    let error = kept.try_build().unwrap_err().to_string();
    assert!(
        error.contains("which content/posts/other-trip/index.html also produces"),
        "{error}"
    );
    kept.remove("content/posts/other-trip/index.html");
    kept.assert_rebuild(&[], &[]);
}

#[test]
fn two_bundles_no_longer_meet_at_the_slug_index() {
    let site = TestSite::new();
    let post = |title: &str| format!("---\ntitle: {title}\ndate: 2024-05-01\n---\nText.\n");
    site.write("content/posts/a/index.md", &post("A"));
    site.write("content/posts/b/index.md", &post("B"));
    // The section's own index.md stays what it was: a post named `index`.
    site.write("content/posts/index.md", &post("Index"));
    site.build();
    let tree = site.output_tree();
    for page in [
        "posts/a/index.html",
        "posts/b/index.html",
        "posts/index/index.html",
    ] {
        assert!(tree.contains_key(page), "{page}: {:?}", tree.keys());
    }
}

#[cfg(feature = "serve")]
#[test]
fn folio_serve_copies_a_bundle_s_new_file_on_save() {
    let site = trip_site(false);
    let serving = util::Serving::start(&site);
    serving.page_once_it_shows("/posts/my-trip/maps/way.svg", "<svg>way</svg>");
    site.write(&format!("{TRIP}/maps/way.svg"), "<svg>another way</svg>");
    serving.page_once_it_shows("/posts/my-trip/maps/way.svg", "<svg>another way</svg>");
    site.write(&format!("{TRIP}/new.svg"), "<svg>new</svg>");
    serving.page_once_it_shows("/fr/posts/my-trip/new.svg", "<svg>new</svg>");
    assert_eq!(
        TestSite::tree(&site.site().preview_dir()),
        site.clean_build_tree()
    );
}

#[test]
fn a_bundle_s_relative_links_lead_to_its_files_from_lists_and_feeds_too() {
    let site = trip_site(false);
    site.write(
        "site.toml",
        &format!("feed_content = \"full\"\n{}", util::SITE_TOML),
    );
    site.build();
    // Its own page keeps them relative; the home's summary and the feed's
    // summary and whole post, elsewhere, lead from the root.
    let page = site.read("public/posts/my-trip/index.html");
    assert!(page.contains("src=\"photo.png\""), "{page}");
    let home = site.read("public/index.html");
    assert!(home.contains("src=\"/posts/my-trip/photo.png\""), "{home}");
    let feed = site.read("public/atom.xml");
    assert_eq!(
        feed.matches("src=&quot;/posts/my-trip/photo.png&quot;")
            .count(),
        2,
        "{feed}"
    );
    assert!(
        feed.contains("src=&quot;/posts/my-trip/maps/way.svg&quot;"),
        "{feed}"
    );
    let french = site.read("public/fr/index.html");
    assert!(
        french.contains("src=\"/fr/posts/my-trip/photo.png\""),
        "{french}"
    );
    // Every link of every page leads somewhere.
    let check = site.cli(&["check"]);
    assert!(check.status.success(), "{}", util::stderr(&check));
}

/// A folder's files wait for its `index.md`, and go when it goes.
fn a_folder_becomes_a_bundle_and_stops_being_one(site: TestSite) {
    let post = "---\ntitle: Walk\ndate: 2024-07-01\n---\n![](route.svg)\n";
    site.write("content/posts/walk/route.svg", "<svg>route</svg>");
    site.assert_rebuild(&[], &[]);
    site.write("content/posts/walk/index.md", post);
    let report = site.build();
    assert!(
        report.written.iter().any(|w| w == "posts/walk/route.svg"),
        "{report:?}"
    );
    assert_eq!(site.output_tree(), site.clean_build_tree());
    // Renamed, it is a post of its own named by its file, with no files.
    site.remove("content/posts/walk/index.md");
    site.write("content/posts/walk/walk-notes.md", post);
    let report = site.build();
    assert!(
        report.deleted.iter().any(|d| d == "posts/walk/route.svg")
            && report.deleted.iter().any(|d| d == "posts/walk/index.html"),
        "{report:?}"
    );
    assert!(
        site.output_tree()
            .contains_key("posts/walk-notes/index.html")
    );
    assert_eq!(site.output_tree(), site.clean_build_tree());
}

#[test]
fn a_folder_becomes_a_bundle_and_stops_being_one_through_fresh_builds() {
    a_folder_becomes_a_bundle_and_stops_being_one(trip_site(false));
}

#[test]
fn a_folder_becomes_a_bundle_and_stops_being_one_through_a_kept_session() {
    a_folder_becomes_a_bundle_and_stops_being_one(trip_site(true));
}

/// A draft's files are no outputs: an edit of one writes nothing.
fn a_draft_s_file_edit_writes_nothing(site: TestSite) {
    site.write(
        "content/posts/other-trip/index.md",
        "---\ntitle: Another trip\ndate: 2024-06-01\ndraft: true\n---\nAgain.\n",
    );
    site.write("content/posts/other-trip/map.svg", "<svg>one</svg>");
    site.build();
    assert!(!site.output_tree().contains_key("posts/other-trip/map.svg"));
    site.write("content/posts/other-trip/map.svg", "<svg>two</svg>");
    site.assert_rebuild(&[], &[]);
}

#[test]
fn a_draft_s_file_edit_writes_nothing_through_fresh_builds() {
    a_draft_s_file_edit_writes_nothing(trip_site(false));
}

#[test]
fn a_draft_s_file_edit_writes_nothing_through_a_kept_session() {
    a_draft_s_file_edit_writes_nothing(trip_site(true));
}

#[test]
fn a_bundle_s_file_on_a_static_file_s_output_is_refused_naming_both() {
    let site = trip_site(false);
    site.write("static/posts/my-trip/photo.png", "a static photo");
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains(&format!(
            "{TRIP}/photo.png: would be written to posts/my-trip/photo.png, which static/posts/my-trip/photo.png also produces"
        )),
        "{error}"
    );
}

#[test]
fn a_bundle_and_a_file_of_the_same_name_claim_one_slug() {
    let site = TestSite::new();
    let post = |title: &str| format!("---\ntitle: {title}\ndate: 2024-05-01\n---\nText.\n");
    site.write("content/posts/trip/index.md", &post("Bundle"));
    site.write("content/posts/trip.md", &post("File"));
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains("content/posts/trip/index.md") && error.contains("content/posts/trip.md"),
        "{error}"
    );
    assert!(error.contains("slug `trip`"), "{error}");
}

/// Before bundles, `posts/my-trip/index.md` was the post `index`: its id
/// comes from that slug, so the build refuses the new one and says how to
/// keep the post (and its old address) with `folio move`.
#[test]
fn a_bundle_published_before_bundles_is_moved_with_folio_move() {
    let site = TestSite::new();
    let index = "content/posts/my-trip/index.md";
    site.write(
        index,
        "---\ntitle: My trip\ndate: 2024-05-01\nslug: index\n---\n![](photo.svg)\n",
    );
    site.write("content/posts/my-trip/photo.svg", "<svg/>");
    site.build();
    assert!(site.output_tree().contains_key("posts/index/photo.svg"));
    site.write(
        index,
        "---\ntitle: My trip\ndate: 2024-05-01\n---\n![](photo.svg)\n",
    );
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains("changed from `index` to `my-trip`")
            && error.contains(&format!("folio move {index} my-trip")),
        "{error}"
    );
    let moved = site.cli(&["move", index, "my-trip"]);
    assert!(moved.status.success(), "{}", util::stderr(&moved));
    site.build();
    let tree = site.output_tree();
    assert_eq!(tree["posts/my-trip/photo.svg"], b"<svg/>");
    assert!(!tree.contains_key("posts/index/photo.svg"));
    let old = String::from_utf8_lossy(&tree["posts/index/index.html"]).into_owned();
    assert!(old.contains("url=/posts/my-trip/"), "{old}");
}

#[test]
fn folio_check_names_the_line_of_a_link_to_a_file_the_bundle_does_not_hold() {
    let site = trip_site(false);
    site.write(
        &format!("{TRIP}/index.md"),
        "---\ntitle: My trip\n---\nWhere we went: ![the view](photo.png)\n\n\
         Lost: ![gone](fotos/gone.png)\n",
    );
    let check = site.cli(&["check"]);
    assert!(!check.status.success());
    let stderr = util::stderr(&check);
    assert!(
        stderr.contains(&format!("{TRIP}/index.md:6")) && stderr.contains("fotos/gone.png"),
        "{stderr}"
    );
}

/// A bundle's files come out with its post when a kept session's clock
/// passes its date, and go with it when the clock passes its expiry.
#[test]
fn a_bundle_s_files_come_and_go_with_its_post_s_date_and_expiry() {
    const DAY_MS: i64 = 86_400_000;
    let site = TestSite::new();
    site.write(
        "content/posts/offer/index.md",
        "---\ntitle: Offer\ndate: 2026-01-02T00:00:00Z\nexpires: 2026-01-04T00:00:00Z\n---\n![](coupon.svg)\n",
    );
    site.write("content/posts/offer/coupon.svg", "<svg>coupon</svg>");
    let mut session = folio::Session::open(site.site(), util::options(|_| {})).unwrap();
    session.build().unwrap();
    assert!(!site.path("public/posts/offer/coupon.svg").exists());
    session.set_now(util::NOW_MS + 2 * DAY_MS);
    let report = session.rebuild::<&str>(&[]).unwrap();
    assert!(!report.scanned_everything);
    assert!(
        report.written.iter().any(|w| w == "posts/offer/coupon.svg"),
        "{report:?}"
    );
    session.set_now(util::NOW_MS + 4 * DAY_MS);
    let report = session.rebuild::<&str>(&[]).unwrap();
    let mut deleted = report.deleted.clone();
    deleted.retain(|d| d.starts_with("posts/offer/"));
    assert_eq!(
        deleted,
        ["posts/offer/coupon.svg", "posts/offer/index.html"],
        "{report:?}"
    );
}
