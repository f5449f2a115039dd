//! Images: what an image of a post's body (`![](cat.jpg)`) names, what
//! folio measures of that file (its content hash, its size once turned
//! upright, its format), and the variants `[images]` asks for (each width
//! in each format), named by what they are made from so that a new image
//! gets new names and a browser caching them forever never sees a stale
//! one.
//!
//! Owns which file an image names and what its variants are; the plan
//! places them, produce makes them ([`process`]), and the store keeps them
//! ([`crate::store::image_cache`]).

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use crate::model::doc::{Record, Stat};
use crate::model::hash::source_hash;
use crate::model::url::decode_segment;
use crate::source::bundle::{Bundle, ContentFile};
use crate::source::config::{ImageFormat, Images};
use crate::source::discover::{FilesAt, StaticFile};

pub mod location;
#[cfg(feature = "images")]
pub mod process;
#[cfg(feature = "images")]
pub use process::{make, probe};

/// Without the `images` feature a site cannot have `[images]` (its
/// site.toml is refused) and no template can be given an image to resize:
/// what it asks of one is refused, saying why.
#[cfg(not(feature = "images"))]
const WITHOUT_IMAGES: &str = "this build of folio was made without its `images` feature";

#[cfg(not(feature = "images"))]
pub fn probe(_bytes: &[u8]) -> Result<Facts, String> {
    Err(WITHOUT_IMAGES.into())
}

#[cfg(not(feature = "images"))]
pub fn make(_bytes: &[u8], _variants: &[Variant]) -> Result<Vec<Vec<u8>>, String> {
    Err(WITHOUT_IMAGES.into())
}

/// What folio measures of the image file at `path` (from the root of
/// `files`) whose stat is `stat`; why not, as a sentence.
pub fn measure(files: &FilesAt, path: &str, stat: Stat) -> Result<Measured, String> {
    let bytes = files.read(path, stat.size).map_err(|e| e.to_string())?;
    Ok(Measured {
        stat,
        facts: probe(&bytes)?,
    })
}

/// The folder of the output where variants go, whichever page shows them:
/// an image shown by a post in three languages is made once.
pub const PROCESSED_DIR: &str = "processed_images";

/// The decoders, resizer and encoders a variant is made with: in its name
/// and in the cache's key, so that a new version makes new files.
pub const ENCODERS: &str = "image 0.25 fast_image_resize 6 libwebp 1.5 lanczos3";

/// What folio measured of an image file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    /// [`source_hash`] of its bytes.
    pub hash: String,
    /// Its size as shown: once its EXIF orientation is applied.
    pub width: u32,
    pub height: u32,
    pub format: ImageFormat,
}

/// An image file as folio measured it, at the stat it had: measured
/// again only when its stat moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Measured {
    pub stat: Stat,
    pub facts: Facts,
}

/// Whether the file at `path` is an image folio measures and makes
/// variants of, by its extension: JPEG, PNG, WebP, GIF. Any other (an SVG)
/// is shown as written; a file of one of these extensions that is no such
/// image is an error.
pub fn is_measured(path: &str) -> bool {
    let extension = path.rsplit_once('.').map_or("", |(_, extension)| extension);
    ["jpg", "jpeg", "png", "webp", "gif"]
        .iter()
        .any(|known| extension.eq_ignore_ascii_case(known))
}

/// The images the published documents show: the file each image of a
/// body names, and what folio measured of each file.
#[derive(Debug, Default)]
pub struct Shown {
    /// Per document (its source path), each of its images that names a
    /// file: as written, and the file's path from the root.
    pub by_document: BTreeMap<String, Vec<(String, String)>>,
    /// By the file's path from the root.
    pub measured: BTreeMap<String, Measured>,
}

/// Per page (its output path), the variants of images its templates asked
/// for (`resize_image`), by the image's path from the root.
pub type Drawn = BTreeMap<String, Vec<(String, Variant)>>;

/// [`Drawn`] as the index keeps it: each variant as its
/// [`Variant::spec`].
pub fn drawn_json(drawn: &Drawn) -> String {
    let pairs: BTreeMap<&str, Vec<(&str, String)>> = drawn
        .iter()
        .map(|(page, uses)| {
            let uses = uses.iter().map(|(image, v)| (image.as_str(), v.spec()));
            (page.as_str(), uses.collect())
        })
        .collect();
    serde_json::to_string(&pairs).unwrap_or_else(|_| "{}".into())
}

/// `fingerprint` (a page's, without the images its templates ask for) with
/// what the images of `uses` are: their hashes by `hash_of`, and the
/// variants asked. Both the plan (from what the page asked for when it
/// last rendered) and the render (from what it asks for now) make it so.
pub fn drawn_fingerprint<'h>(
    fingerprint: &str,
    uses: &[(String, Variant)],
    hash_of: impl Fn(&str) -> Option<&'h str>,
) -> String {
    let base = base_fingerprint(fingerprint);
    if uses.is_empty() {
        return base.to_owned();
    }
    let mut what = String::new();
    for (image, variant) in uses {
        what.push_str(image);
        what.push(' ');
        what.push_str(hash_of(image).unwrap_or("?"));
        what.push(' ');
        what.push_str(&variant.spec());
        what.push('\n');
    }
    format!("{base}{DRAWN}{}", source_hash(what.as_bytes()))
}

/// What marks the part of a fingerprint that [`drawn_fingerprint`] adds.
const DRAWN: &str = " images ";

/// `fingerprint` without what [`drawn_fingerprint`] added.
pub fn base_fingerprint(fingerprint: &str) -> &str {
    fingerprint.split(DRAWN).next().unwrap_or(fingerprint)
}

/// One file made from an image: its size and format, and how the image
/// comes to that size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Variant {
    pub width: u32,
    pub height: u32,
    pub format: ImageFormat,
    /// 0 for a lossless format, where it means nothing.
    pub quality: u8,
    pub op: Op,
}

/// How an image comes to a variant's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// Scaled whole, its proportions kept: the size is within the one
    /// asked, never larger than the image.
    Fit,
    /// Scaled to cover the size asked, the overflow cropped evenly from
    /// both sides.
    Fill,
    /// Stretched to the size asked, its proportions lost.
    Scale,
}

impl Op {
    pub fn name(self) -> &'static str {
        match self {
            Op::Fit => "fit",
            Op::Fill => "fill",
            Op::Scale => "scale",
        }
    }

    pub fn parse(name: &str) -> Option<Op> {
        Some(match name {
            "fit" => Op::Fit,
            "fill" => Op::Fill,
            "scale" => Op::Scale,
            _ => return None,
        })
    }
}

/// What a template asks of an image (`resize_image`): a width, a height
/// or both, how to come to them, a format (the image's own when none) and
/// a quality (the site's when none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    pub width: Option<u32>,
    pub height: Option<u32>,
    pub op: Op,
    pub format: Option<ImageFormat>,
    pub quality: Option<u8>,
}

impl Request {
    /// The variant of the image `facts` measured that the request makes,
    /// or why it cannot be made.
    pub fn variant(&self, facts: &Facts, default_quality: u8) -> Result<Variant, String> {
        let format = self.format.unwrap_or(facts.format);
        if !format.is_written() {
            return Err(format!(
                "folio does not write {} images: ask for format=\"webp\", \"jpeg\" or \"png\"",
                format.name()
            ));
        }
        let (w, h) = (u64::from(facts.width), u64::from(facts.height));
        let scaled = |along: u64, by: u64, of: u64| ((along * by * 2 + of) / (2 * of)).max(1);
        let (width, height) = match (self.op, self.width, self.height) {
            (_, None, None) => return Err("give a width, a height or both".into()),
            (Op::Fit, Some(width), None) => {
                let width = u64::from(width).min(w);
                (width, scaled(h, width, w))
            }
            (Op::Fit, None, Some(height)) => {
                let height = u64::from(height).min(h);
                (scaled(w, height, h), height)
            }
            (Op::Fit, Some(width), Some(height)) => {
                // The smaller of the two scales, never above 1.
                let (width, height) = (u64::from(width), u64::from(height));
                if width * h <= height * w {
                    let width = width.min(w);
                    (width, scaled(h, width, w))
                } else {
                    let height = height.min(h);
                    (scaled(w, height, h), height)
                }
            }
            (Op::Fill | Op::Scale, Some(width), Some(height)) => {
                (u64::from(width), u64::from(height))
            }
            (op, ..) => {
                return Err(format!("op=\"{}\" takes a width and a height", op.name()));
            }
        };
        let widest = u64::from(crate::source::config::WIDEST);
        if width > widest || height > widest {
            return Err(format!(
                "{width} x {height} is larger than folio makes ({widest} a side)"
            ));
        }
        Ok(Variant {
            width: width as u32,
            height: height as u32,
            format,
            quality: match format {
                ImageFormat::Jpeg | ImageFormat::Webp => self.quality.unwrap_or(default_quality),
                ImageFormat::Png | ImageFormat::Gif => 0,
            },
            op: self.op,
        })
    }
}

impl Variant {
    /// What names the variant of the image whose bytes hash to
    /// `source_hash`: the cache's key, and part of its output's name.
    pub fn key(&self, source_hash_of_image: &str) -> String {
        source_hash(format!("{source_hash_of_image} {} {ENCODERS}", self.spec()).as_bytes())
    }

    /// What the variant is, in words: `fit 480x360 jpeg q75`.
    pub fn spec(&self) -> String {
        let Variant {
            width,
            height,
            format,
            quality,
            op,
        } = self;
        format!(
            "{} {width}x{height} {} q{quality}",
            op.name(),
            format.name()
        )
    }

    /// The variant [`Variant::spec`] wrote.
    pub fn from_spec(spec: &str) -> Option<Variant> {
        let mut words = spec.split(' ');
        let op = Op::parse(words.next()?)?;
        let (width, height) = words.next()?.split_once('x')?;
        let format = ImageFormat::parse(words.next()?)?;
        let quality = words.next()?.strip_prefix('q')?.parse().ok()?;
        Some(Variant {
            width: width.parse().ok()?,
            height: height.parse().ok()?,
            format,
            quality,
            op,
        })
    }

    /// Where it goes under the output folder: the image's name (its
    /// letters and digits), its size and a part of its key.
    pub fn output(&self, image: &str, key: &str) -> String {
        let name = image.rsplit('/').next().unwrap_or(image);
        let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
        let stem: String = stem
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '-'
                }
            })
            .take(60)
            .collect();
        format!(
            "{PROCESSED_DIR}/{stem}-{}x{}-{}.{}",
            self.width,
            self.height,
            &key[..10],
            self.format.extension()
        )
    }
}

/// The variants `settings` asks for of an image: each width below its own
/// (and its own, when no wider is asked), in its own format and then in
/// each of `settings.formats`. None for an image folio does not write
/// (a GIF), or without `widths`.
pub fn variants(facts: &Facts, settings: &Images) -> Vec<Variant> {
    let Some(&widest) = settings.widths.last() else {
        return Vec::new();
    };
    if !facts.format.is_written() {
        return Vec::new();
    }
    let mut widths: Vec<u32> = (settings.widths.iter().copied())
        .filter(|&w| w < facts.width)
        .collect();
    if facts.width <= widest {
        widths.push(facts.width);
    }
    let formats = std::iter::once(facts.format).chain(
        settings
            .formats
            .iter()
            .copied()
            .filter(|&f| f != facts.format),
    );
    formats
        .flat_map(|format| {
            widths.iter().map(move |&width| Variant {
                width,
                height: height_at(facts, width),
                format,
                quality: match format {
                    ImageFormat::Png | ImageFormat::Gif => 0,
                    ImageFormat::Jpeg | ImageFormat::Webp => settings.quality,
                },
                op: Op::Fit,
            })
        })
        .collect()
}

/// The height of `facts`'s image scaled to `width`, rounded, at least 1.
fn height_at(facts: &Facts, width: u32) -> u32 {
    let scaled = (u64::from(facts.height) * u64::from(width) * 2 + u64::from(facts.width))
        / (2 * u64::from(facts.width));
    (scaled as u32).max(1)
}

/// The image files a body may name: the static files (the site's over its
/// theme's) and the files of the bundles, with the bundle of each
/// bundle's document.
pub struct ImageFiles<'a> {
    statics: FxHashMap<&'a str, &'a StaticFile>,
    bundle_files: FxHashMap<&'a str, &'a ContentFile>,
    folder_of: FxHashMap<&'a str, &'a str>,
    base_path: &'a str,
}

impl<'a> ImageFiles<'a> {
    pub fn new(statics: &'a [StaticFile], bundles: &'a [Bundle], base_path: &'a str) -> Self {
        let mut by_rel: FxHashMap<&str, &StaticFile> = FxHashMap::default();
        for file in statics {
            let site_has_it = by_rel
                .get(file.rel.as_str())
                .is_some_and(|known| known.theme_dir.is_none());
            if !site_has_it {
                by_rel.insert(&file.rel, file);
            }
        }
        ImageFiles {
            statics: by_rel,
            bundle_files: (bundles.iter())
                .flat_map(|b| &b.files)
                .map(|f| (f.path.as_str(), f))
                .collect(),
            folder_of: (bundles.iter())
                .flat_map(|b| b.documents.iter().map(|d| (d.as_str(), b.folder.as_str())))
                .collect(),
            base_path,
        }
    }

    /// The stat of the image file at `path` from the root (a static file of
    /// the site or its theme, a bundle's file).
    pub fn stat_of(&self, path: &str) -> Option<Stat> {
        if let Some(file) = self.bundle_files.get(path) {
            return Some(file.stat);
        }
        let rel = match path.strip_prefix("static/") {
            Some(rel) => rel,
            None => path.split_once("/static/")?.1,
        };
        let file = self.statics.get(rel)?;
        (file.source_path() == path).then_some(file.stat)
    }

    /// The files a template may name to `resize_image`, by each name it
    /// may give: a static file by its path under `static/` (with or
    /// without `static/`), a bundle's by its path under `content/` (with
    /// or without `content/`); the file's path from the root and its stat.
    pub fn template_paths(&self) -> FxHashMap<String, (String, Stat)> {
        let mut paths = FxHashMap::default();
        for (rel, file) in &self.statics {
            let found = (file.source_path(), file.stat);
            paths.insert(format!("static/{rel}"), found.clone());
            paths.insert((*rel).to_owned(), found);
        }
        for (path, file) in &self.bundle_files {
            let found = ((*path).to_owned(), file.stat);
            if let Some(rel) = path.strip_prefix("content/") {
                paths.insert(rel.to_owned(), found.clone());
            }
            paths.insert((*path).to_owned(), found);
        }
        paths
    }

    /// The images of `record` that name an image file folio measures: each
    /// as written, with the file's path from the root and its stat.
    pub fn measured_of<'r>(
        &self,
        record: &'r Record,
    ) -> impl Iterator<Item = (&'r String, String, Stat)> {
        record.images.iter().filter_map(|src| {
            let (path, stat) = self.resolve(&record.source.path, src)?;
            is_measured(&path).then_some((src, path, stat))
        })
    }

    /// The file (its path from the root, and its stat) that `src`, an
    /// image of the document at `document` as written, names: from the
    /// root (`/images/cat.jpg`), a static file; else one of the files of
    /// the document's bundle. `None` for anything else, left as written.
    pub fn resolve(&self, document: &str, src: &str) -> Option<(String, Stat)> {
        let path = src.split(['?', '#']).next().unwrap_or(src);
        if let Some(rooted) = path.strip_prefix('/') {
            let rooted = (path.strip_prefix(self.base_path))
                .and_then(|rest| rest.strip_prefix('/'))
                .filter(|_| !self.base_path.is_empty())
                .unwrap_or(rooted);
            let rel = decoded(rooted.split('/'))?;
            let file = self.statics.get(rel.as_str())?;
            return Some((file.source_path(), file.stat));
        }
        let folder = self.folder_of.get(document)?;
        let joined = decoded(folder.split('/').chain(path.split('/')))?;
        let file = self.bundle_files.get(joined.as_str())?;
        Some((file.path.clone(), file.stat))
    }
}

/// The path of `segments`, each percent-decoded, `.` dropped and `..`
/// taking the one before it away; `None` when it climbs out.
fn decoded<'s>(segments: impl Iterator<Item = &'s str>) -> Option<String> {
    let mut path: Vec<String> = Vec::new();
    for segment in segments {
        match segment {
            "" | "." => {}
            ".." => {
                path.pop()?;
            }
            segment => path.push(decode_segment(segment)?),
        }
    }
    Some(path.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(width: u32, height: u32, format: ImageFormat) -> Facts {
        Facts {
            hash: "ab".repeat(32),
            width,
            height,
            format,
        }
    }

    fn settings(widths: &[u32], formats: &[ImageFormat]) -> Images {
        Images {
            widths: widths.to_vec(),
            formats: formats.to_vec(),
            quality: 75,
            sizes: "100vw".into(),
        }
    }

    #[test]
    fn variants_stop_at_the_image_own_width_original_format_first() {
        let webp = [ImageFormat::Webp];
        let wide = variants(
            &facts(4000, 3000, ImageFormat::Jpeg),
            &settings(&[480, 960], &webp),
        );
        let sizes: Vec<(u32, u32, &str)> = (wide.iter())
            .map(|v| (v.width, v.height, v.format.name()))
            .collect();
        assert_eq!(
            sizes,
            [
                (480, 360, "jpeg"),
                (960, 720, "jpeg"),
                (480, 360, "webp"),
                (960, 720, "webp")
            ]
        );
        let narrow = variants(
            &facts(700, 333, ImageFormat::Png),
            &settings(&[480, 960], &webp),
        );
        let sizes: Vec<(u32, u32, u8)> = (narrow.iter())
            .map(|v| (v.width, v.height, v.quality))
            .collect();
        assert_eq!(
            sizes,
            [(480, 228, 0), (700, 333, 0), (480, 228, 75), (700, 333, 75)]
        );
        assert!(variants(&facts(700, 333, ImageFormat::Gif), &settings(&[480], &webp)).is_empty());
        assert!(variants(&facts(700, 333, ImageFormat::Jpeg), &settings(&[], &webp)).is_empty());
    }

    #[test]
    fn a_variant_name_says_what_it_is_and_changes_with_its_source() {
        let variant = Variant {
            width: 480,
            height: 360,
            format: ImageFormat::Jpeg,
            quality: 75,
            op: Op::Fit,
        };
        assert_eq!(variant.spec(), "fit 480x360 jpeg q75");
        assert_eq!(Variant::from_spec(&variant.spec()), Some(variant));
        let key = variant.key(&"ab".repeat(32));
        let output = variant.output("content/posts/trip/My cat.JPG", &key);
        assert!(
            output.starts_with("processed_images/My-cat-480x360-"),
            "{output}"
        );
        assert!(output.ends_with(".jpg"), "{output}");
        assert_ne!(key, variant.key(&"cd".repeat(32)));
        let webp = Variant {
            format: ImageFormat::Webp,
            ..variant
        };
        assert_ne!(key, webp.key(&"ab".repeat(32)));
    }

    #[test]
    fn a_request_gives_the_size_each_op_makes() {
        let photo = facts(1200, 800, ImageFormat::Jpeg);
        let size = |width, height, op| {
            let request = Request {
                width,
                height,
                op,
                format: None,
                quality: None,
            };
            request.variant(&photo, 75).map(|v| (v.width, v.height))
        };
        assert_eq!(size(Some(300), None, Op::Fit), Ok((300, 200)));
        assert_eq!(size(None, Some(100), Op::Fit), Ok((150, 100)));
        assert_eq!(size(Some(300), Some(300), Op::Fit), Ok((300, 200)));
        assert_eq!(
            size(Some(3000), None, Op::Fit),
            Ok((1200, 800)),
            "never larger"
        );
        assert_eq!(size(Some(300), Some(300), Op::Fill), Ok((300, 300)));
        assert_eq!(size(Some(50), Some(400), Op::Scale), Ok((50, 400)));
        assert!(
            size(Some(300), None, Op::Fill)
                .unwrap_err()
                .contains("width and a height")
        );
        assert!(size(None, None, Op::Fit).is_err());
        let gif = Request {
            width: Some(10),
            height: None,
            op: Op::Fit,
            format: None,
            quality: None,
        };
        assert!(gif.variant(&facts(20, 20, ImageFormat::Gif), 75).is_err());
    }

    #[test]
    fn an_image_names_a_file_of_its_bundle_or_a_static_file() {
        let stat = Stat {
            size: 1,
            mtime_ns: 1,
        };
        let statics = [
            StaticFile {
                rel: "img/map.png".into(),
                stat,
                theme_dir: Some("themes/t".into()),
            },
            StaticFile {
                rel: "img/map.png".into(),
                stat,
                theme_dir: None,
            },
        ];
        let bundles = [Bundle {
            folder: "content/posts/trip".into(),
            documents: vec!["content/posts/trip/index.md".into()],
            files: vec![ContentFile {
                path: "content/posts/trip/photos/my cat.jpg".into(),
                stat,
            }],
        }];
        let files = ImageFiles::new(&statics, &bundles, "/blog");
        let doc = "content/posts/trip/index.md";
        let found = |src: &str| files.resolve(doc, src).map(|(path, _)| path);
        assert_eq!(found("/img/map.png").as_deref(), Some("static/img/map.png"));
        assert_eq!(
            found("/blog/img/map.png?v=2").as_deref(),
            Some("static/img/map.png")
        );
        let cat = Some("content/posts/trip/photos/my cat.jpg");
        assert_eq!(found("photos/my%20cat.jpg").as_deref(), cat);
        assert_eq!(found("./photos/../photos/my cat.jpg").as_deref(), cat);
        assert_eq!(found("../../../../etc/passwd"), None);
        assert_eq!(
            files.resolve("content/posts/other.md", "photos/my cat.jpg"),
            None
        );
    }
}
