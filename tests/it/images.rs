//! The images of posts with `[images]`: each local image measured (turned
//! upright by its EXIF orientation) and given its size, lazy loading and a
//! `srcset` of variants read back at the widths and in the formats asked,
//! with no EXIF left; a second build decodes nothing; one image replaced
//! writes its variants and the pages that show it, and prunes the old
//! ones; a file that is no image is an error naming it and its page.

use std::collections::BTreeSet;

use crate::util;

use image::ImageEncoder;
use util::{TestSite, rewritten};

const IMAGES: &str = "\n[images]\nwidths = [160, 320]\nformats = [\"webp\"]\n";

/// A JPEG of `width` × `height` whose EXIF turns it a quarter (orientation
/// 6) and says where it was taken (a GPS latitude reference): `shade`
/// tells two photos apart.
fn photo(width: u32, height: u32, shade: u8) -> Vec<u8> {
    let pixels = image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([(x * 255 / width) as u8, (y * 255 / height) as u8, shade])
    });
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 90)
        .write_image(&pixels, width, height, image::ExtendedColorType::Rgb8)
        .unwrap();
    // An APP1 segment: orientation 6, and a GPS IFD with a latitude
    // reference.
    let exif = std::fs::read("tests/golden/exif-turned-gps.app1").unwrap();
    let mut out = jpeg[..2].to_vec();
    out.extend(exif);
    out.extend(&jpeg[2..]);
    out
}

fn png(width: u32, height: u32) -> Vec<u8> {
    let pixels = image::RgbaImage::from_fn(width, height, |x, _| image::Rgba([0, 0, 0, x as u8]));
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes)
        .write_image(&pixels, width, height, image::ExtendedColorType::Rgba8)
        .unwrap();
    bytes
}

/// A site with `[images]` and a post whose bundle holds a turned photo,
/// shown after its summary, and a static PNG it shows too.
fn site(kept: bool) -> TestSite {
    let site = TestSite::with_posts_kept(kept);
    let toml = site.read("site.toml");
    site.write("site.toml", &format!("{toml}{IMAGES}"));
    site.write_bytes("content/posts/trip/photo.jpg", &photo(640, 480, 10));
    site.write_bytes("static/img/dot.png", &png(200, 100));
    site.write(
        "content/posts/trip/index.md",
        "---\ntitle: Trip\ndate: 2024-03-01\n---\nWhere we went.\n\n<!-- more -->\n\n\
         ![A \"view\"](photo.jpg \"The view\")\n\nAnd ![a dot](/img/dot.png).\n",
    );
    site.build();
    site
}

fn variants(site: &TestSite) -> BTreeSet<String> {
    std::fs::read_dir(site.path("public/processed_images"))
        .map(|dir| {
            dir.map(|e| {
                format!(
                    "processed_images/{}",
                    e.unwrap().file_name().to_string_lossy()
                )
            })
            .collect()
        })
        .unwrap_or_default()
}

#[test]
fn an_image_gets_its_size_and_a_srcset_of_variants_made_upright_without_exif() {
    let site = site(false);
    let page = site.read("public/posts/trip/index.html");
    let picture = &page[page.find("<picture>").unwrap()..];
    let picture = &picture[..picture.find("</picture>").unwrap()];
    // 640 × 480 turned a quarter: 480 × 640, at 160 and 320 wide.
    assert!(
        picture.contains(" alt=\"A &quot;view&quot;\" title=\"The view\" width=\"320\" height=\"427\" loading=\"lazy\" decoding=\"async\" />"),
        "{picture}"
    );
    assert!(
        picture.contains("<source type=\"image/webp\" srcset=\"/processed_images/photo-160x213-"),
        "{picture}"
    );
    let made = variants(&site);
    assert_eq!(made.len(), 8, "{made:?}");
    for variant in &made {
        let bytes = std::fs::read(site.path(&format!("public/{variant}"))).unwrap();
        let read = image::load_from_memory(&bytes).unwrap();
        let size = format!("-{}x{}-", read.width(), read.height());
        assert!(variant.contains(&size), "{variant} is {size}");
        let format = image::guess_format(&bytes).unwrap();
        let extension = variant.rsplit('.').next().unwrap();
        assert_eq!(format.extensions_str()[0], extension, "{variant}");
        assert!(
            !bytes.windows(4).any(|w| w == b"Exif"),
            "{variant} holds no EXIF"
        );
        assert!(
            page.contains(&format!("/{variant} ")),
            "{variant} is in the page"
        );
    }
    // The photo's turned: its left column (dark red) is now its top row.
    let upright = made
        .iter()
        .find(|v| v.ends_with(".jpg") && v.contains("-320x"))
        .unwrap();
    let read = image::open(site.path(&format!("public/{upright}")))
        .unwrap()
        .to_rgb8();
    assert!(
        read.get_pixel(0, 0)[1] > read.get_pixel(0, 400)[1],
        "turned"
    );
    // A PNG with alpha keeps it, at its own width (200 < 320) and at 160.
    let dot = |size: &str, format: &str| {
        let prefix = format!("processed_images/dot-{size}-");
        made.iter()
            .any(|v| v.starts_with(&prefix) && v.ends_with(format))
    };
    assert!(dot("200x100", ".png") && dot("160x80", ".png") && dot("200x100", ".webp"));
    let alpha = image::open(site.path(&format!(
            "public/{}",
            made.iter()
                .find(|v| v.starts_with("processed_images/dot-200x100-") && v.ends_with(".png"))
                .unwrap()
        )))
    .unwrap();
    assert!(alpha.color().has_alpha());
    assert!(
        page.contains(" alt=\"a dot\" width=\"200\" height=\"100\" loading=\"lazy\""),
        "{page}"
    );
}

#[test]
fn a_second_build_decodes_nothing_and_a_replaced_image_writes_only_what_shows_it() {
    for kept in [false, true] {
        let site = site(kept);
        let report = site.build();
        assert!(report.written.is_empty(), "{:?}", report.written);
        assert_eq!((report.images_decoded, report.images_encoded), (0, 0));

        // A page edit elsewhere: no image is decoded or encoded.
        site.write("content/en/about.md", "---\ntitle: About\n---\nAbout it.\n");
        let report = site.build();
        assert_eq!(
            (report.images_decoded, report.images_encoded),
            (0, 0),
            "kept {kept}"
        );
        // The body of the post that shows them, its images as they were:
        // its page alone, with its images shown as before.
        let index = site.read("content/posts/trip/index.md");
        site.write(
            "content/posts/trip/index.md",
            &index.replace("And ", "And then "),
        );
        site.assert_rebuild(&["posts/trip/index.html"], &[]);
        assert!(
            site.read("public/posts/trip/index.html")
                .contains("<picture>")
        );

        let old = variants(&site);
        site.write_bytes("content/posts/trip/photo.jpg", &photo(640, 480, 200));
        let before = site.output_identities();
        let report = site.build();
        let new = variants(&site);
        let (gone, came): (BTreeSet<&String>, BTreeSet<&String>) = (
            old.difference(&new).collect(),
            new.difference(&old).collect(),
        );
        assert_eq!(gone.len(), 4, "the photo's four variants go");
        assert_eq!(came.len(), 4, "and four new ones come");
        let mut expected: Vec<String> = came.into_iter().cloned().collect();
        expected.extend([
            "posts/trip/index.html".into(),
            "posts/trip/photo.jpg".into(),
        ]);
        expected.sort();
        assert_eq!(report.written, expected, "kept {kept}");
        assert_eq!(
            report.deleted,
            gone.into_iter().cloned().collect::<Vec<_>>()
        );
        assert_eq!((report.images_decoded, report.images_encoded), (1, 4));
        assert_eq!(rewritten(&before, &site.output_identities()), expected);
        let clean = site.clean_build();
        assert!(
            site.output_tree() == clean.tree,
            "differs from a clean build"
        );
        assert_eq!(site.output_rows(), clean.output_rows, "output rows");
        site.assert_rebuild(&[], &[]);
    }
}

#[test]
fn variants_made_once_are_kept_for_the_next_build_of_the_same_image() {
    let site = site(false);
    // The output folder gone: everything is written again, nothing encoded.
    std::fs::remove_dir_all(site.path("public")).unwrap();
    let report = site.build();
    assert!(
        report
            .written
            .iter()
            .any(|w| w.starts_with("processed_images/"))
    );
    assert_eq!((report.images_decoded, report.images_encoded), (0, 0));
    // Back to an image seen before: made from the cache too.
    site.write_bytes("static/img/dot.png", &png(120, 60));
    let report = site.build();
    // 120 wide: at its own width alone, in PNG and WebP.
    assert_eq!((report.images_decoded, report.images_encoded), (1, 2));
    site.write_bytes("static/img/dot.png", &png(200, 100));
    let report = site.build();
    assert_eq!((report.images_decoded, report.images_encoded), (0, 0));
}

#[test]
fn a_file_that_is_no_image_is_an_error_naming_it_and_its_page() {
    let site = site(false);
    site.write("static/img/dot.png", "<svg/>");
    let error = site.try_build().unwrap_err().to_string();
    assert!(error.contains("content/posts/trip/index.md"), "{error}");
    assert!(
        error.contains("the image static/img/dot.png it shows cannot be read"),
        "{error}"
    );
    assert!(error.contains("= help:"), "{error}");
}

#[test]
fn an_svg_is_shown_as_written() {
    let site = site(false);
    site.write(
        "content/posts/trip/map.svg",
        "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
    );
    let index = site.read("content/posts/trip/index.md");
    site.write(
        "content/posts/trip/index.md",
        &format!("{index}\n![The map](map.svg)\n"),
    );
    site.build();
    let page = site.read("public/posts/trip/index.html");
    assert!(
        page.contains("<img src=\"map.svg\" alt=\"The map\" />"),
        "{page}"
    );
}

#[test]
fn without_images_a_body_shows_its_images_as_written() {
    let site = TestSite::with_posts();
    site.write_bytes("content/posts/trip/photo.jpg", &photo(64, 48, 1));
    site.write(
        "content/posts/trip/index.md",
        "---\ntitle: Trip\ndate: 2024-03-01\n---\n![x](photo.jpg)\n",
    );
    site.build();
    let page = site.read("public/posts/trip/index.html");
    assert!(
        page.contains("<img src=\"photo.jpg\" alt=\"x\" />"),
        "{page}"
    );
    assert!(!site.path("public/processed_images").exists());
}

#[test]
fn a_photo_copied_as_it_is_keeps_its_orientation_but_not_where_it_was_taken() {
    let site = site(false);
    let original = std::fs::read(site.path("content/posts/trip/photo.jpg")).unwrap();
    let copied = std::fs::read(site.path("public/posts/trip/photo.jpg")).unwrap();
    // The GPS IFD's one entry: GPSLatitudeRef, two ASCII bytes, "N".
    let latitude = [0, 1, 0, 2, 0, 0, 0, 2, b'N', 0];
    let orientation = [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6];
    assert!(original.windows(10).any(|w| w == latitude));
    assert!(!copied.windows(10).any(|w| w == latitude), "no position");
    assert!(copied.windows(10).any(|w| w == orientation), "still turned");
    assert_eq!(copied.len(), original.len());
    assert_eq!(image::load_from_memory(&copied).unwrap().width(), 640);
    // Without `[images]`, the photo is copied as it is again.
    let toml = site.read("site.toml").replace(IMAGES, "");
    site.write("site.toml", &toml);
    let report = site.build();
    assert!(report.written.iter().any(|w| w == "posts/trip/photo.jpg"));
    assert_eq!(
        std::fs::read(site.path("public/posts/trip/photo.jpg")).unwrap(),
        original
    );
}

/// `site(kept)` with a page whose template asks for `call`'s variant of
/// the photo and shows its URL and size.
fn site_asking(kept: bool, call: &str) -> TestSite {
    let site = site(kept);
    site.write("templates/card.html", &card(call));
    site.write(
        "content/en/gallery.md",
        "---\ntitle: Gallery\ntemplate: card.html\n---\nPhotos.\n",
    );
    site.build();
    site
}

fn card(call: &str) -> String {
    format!(
        "{{% set photo = {call} %}}<img src=\"{{{{ photo.url }}}}\" width=\"{{{{ photo.width }}}}\" height=\"{{{{ photo.height }}}}\" data-of=\"{{{{ photo.orig_width }}}}x{{{{ photo.orig_height }}}}\">\n"
    )
}

fn asked_variant(site: &TestSite) -> (String, (u32, u32)) {
    let page = site.read("public/gallery/index.html");
    let url = page
        .split("src=\"/")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    let read = image::open(site.path(&format!("public/{url}"))).unwrap();
    (url, (read.width(), read.height()))
}

#[test]
fn a_template_asks_for_a_variant_that_lives_while_a_page_asks_for_it() {
    for kept in [false, true] {
        let site = site_asking(
            kept,
            "resize_image(path=\"posts/trip/photo.jpg\", width=100)",
        );
        let (url, size) = asked_variant(&site);
        // The photo is 480 × 640 upright: 100 wide is 133 high.
        assert_eq!(size, (100, 133), "kept {kept}");
        let page = site.read("public/gallery/index.html");
        assert!(
            page.contains("width=\"100\" height=\"133\" data-of=\"480x640\""),
            "{page}"
        );
        // A second build writes nothing: the page's fingerprint already
        // holds the photo.
        site.assert_rebuild(&[], &[]);
        if !kept {
            let said = util::stdout(&site.cli(&["explain", "gallery/index.html"]));
            assert!(said.contains("content/posts/trip/photo.jpg"), "{said}");
            let said = util::stdout(&site.cli(&["explain", &url]));
            assert!(said.contains("content/posts/trip/photo.jpg"), "{said}");
        }

        // Another size: the page and the new variant are written, the old
        // variant deleted.
        site.write(
            "templates/card.html",
            &card("resize_image(path=\"content/posts/trip/photo.jpg\", width=80, format=\"webp\")"),
        );
        let before = site.output_identities();
        let report = site.build();
        let (new_url, size) = asked_variant(&site);
        assert_eq!(size, (80, 107));
        assert!(new_url.ends_with(".webp"), "{new_url}");
        assert_eq!(
            report.written,
            ["gallery/index.html".to_owned(), new_url.clone()]
        );
        assert_eq!(report.deleted, [url]);
        assert_eq!(
            rewritten(&before, &site.output_identities()),
            report.written
        );
        site.assert_rebuild(&[], &[]);

        // The photo replaced: the pages that show it and the variants of
        // it, this one too.
        site.write_bytes("content/posts/trip/photo.jpg", &photo(640, 480, 99));
        let report = site.build();
        assert!(
            report.written.iter().any(|w| w == "gallery/index.html"),
            "{:?}",
            report.written
        );
        assert!(report.deleted.contains(&new_url), "{:?}", report.deleted);
        let clean = site.clean_build();
        assert!(
            site.output_tree() == clean.tree,
            "differs from a clean build"
        );
        site.assert_rebuild(&[], &[]);

        // No page asks for it any more: it goes.
        site.write("templates/card.html", "No photo.\n");
        let asked_now = asked_files(&site);
        let report = site.build();
        assert_eq!(report.written, ["gallery/index.html"]);
        assert_eq!(report.deleted.len(), 1, "{:?}", report.deleted);
        assert_eq!(asked_files(&site).len() + 1, asked_now.len());
        site.assert_rebuild(&[], &[]);
    }
}

fn asked_files(site: &TestSite) -> BTreeSet<String> {
    variants(site)
}

#[test]
fn fill_and_scale_come_to_the_size_asked_and_mistakes_name_the_template() {
    let site = site_asking(
        false,
        "resize_image(\"img/dot.png\", width=50, height=50, op=\"fill\")",
    );
    assert_eq!(asked_variant(&site).1, (50, 50));
    site.write("templates/card.html", &card("resize_image(path=\"static/img/dot.png\", width=30, height=90, op=\"scale\", format=\"jpeg\", quality=60)"));
    site.build();
    let (url, size) = asked_variant(&site);
    assert_eq!(size, (30, 90));
    assert!(url.ends_with(".jpg"), "{url}");
    // An image no post shows, asked by a template alone.
    site.write_bytes("static/img/alone.png", &png(64, 32));
    site.write(
        "templates/card.html",
        &card("resize_image(path=\"img/alone.png\", width=16)"),
    );
    site.build();
    assert_eq!(asked_variant(&site).1, (16, 8));
    site.assert_rebuild(&[], &[]);

    for (call, said) in [
        (
            "resize_image(path=\"img/none.png\", width=10)",
            "`img/none.png` is not an image",
        ),
        (
            "resize_image(path=\"img/dot.png\", width=10, op=\"fill\")",
            "takes a width and a height",
        ),
        (
            "resize_image(path=\"img/dot.png\", width=10, op=\"crop\")",
            "op=\"crop\" is none of",
        ),
    ] {
        site.write("templates/card.html", &card(call));
        let error = site.try_build().unwrap_err().to_string();
        assert!(error.contains("templates/card.html"), "{error}");
        assert!(error.contains(said), "{error}");
    }
}

#[test]
fn the_cache_forgets_variants_no_page_has_named_for_a_month() {
    let site = site(false);
    let cache = site.path(".folio/images");
    let cached = || std::fs::read_dir(&cache).unwrap().count();
    assert_eq!(cached(), 8, "the photo's 4 variants, the dot's 4");
    let two_months_ago = filetime::FileTime::from_unix_time(
        filetime::FileTime::now().unix_seconds() - 60 * 24 * 3600,
        0,
    );
    for entry in std::fs::read_dir(&cache).unwrap() {
        filetime::set_file_mtime(entry.unwrap().path(), two_months_ago).unwrap();
    }
    // A new dot: its 2 variants made; the old dot's 4, named by no page
    // and old, go; the photo's 4, old but named, stay.
    site.write_bytes("static/img/dot.png", &png(120, 60));
    let report = site.build();
    assert_eq!(report.images_encoded, 2);
    assert_eq!(cached(), 6);
    // Made within the month, a variant no page names stays: putting the
    // image back costs nothing.
    site.write_bytes("static/img/dot.png", &png(200, 100));
    site.build();
    site.write_bytes("static/img/dot.png", &png(120, 60));
    let report = site.build();
    assert_eq!((report.images_decoded, report.images_encoded), (0, 0));
}

#[test]
fn a_published_body_shows_its_images_as_its_page_does() {
    let db = crate::pg::Database::fresh("images_publish");
    let site = site(false);
    folio::Session::open(site.site(), util::options(|_| {}))
        .unwrap()
        .publish(&db.options())
        .unwrap_or_else(|e| panic!("publish failed:\n{e}"));
    let body: String = db
        .client()
        .query_one(
            "SELECT body FROM folio.posts WHERE url LIKE '%/posts/trip/'",
            &[],
        )
        .unwrap()
        .get(0);
    assert!(
        body.contains("<picture><source type=\"image/webp\""),
        "{body}"
    );
    let page = site.read("public/posts/trip/index.html");
    assert!(
        page.contains(&body),
        "the same bytes as the page's:\n{body}"
    );
    // A dry run renders the bodies as the pages do too: nothing to write.
    let mut dry = db.options();
    dry.dry_run = true;
    let report = folio::Session::open(site.site(), util::options(|_| {}))
        .unwrap()
        .publish(&dry)
        .unwrap();
    assert!(report.written.is_empty(), "{:?}", report.written);
}
