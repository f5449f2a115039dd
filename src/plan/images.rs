//! The images of the published documents as their pages show them
//! (`[images]`): each variant of each image shown is an output, made once
//! however many pages show it; each `<img>` of a body that names a
//! measured file gets its size, lazy loading and, with variants, a
//! `srcset` (in a `<picture>` with a `<source>` per other format). What an
//! image is made of (its hash) and the settings are in the digest of each
//! document that shows it, so a new image renders again exactly the pages
//! that show it.

use super::*;

use crate::source::config::Images;
use crate::source::image::{Drawn, Facts, Shown, Variant, drawn_fingerprint, variants};

/// The images the documents of one plan show.
pub(super) struct ShownImages {
    /// The site's `[images]`.
    settings: Images,
    /// Where the site is under its host: the variants' URLs start with it.
    base_path: String,
    /// Per record, each of its images that names a measured file: as
    /// pulldown-cmark writes its address in the HTML, and the file.
    by_record: FxHashMap<usize, Vec<(String, Arc<ShownImage>)>>,
}

/// One image file as the pages show it.
pub(super) struct ShownImage {
    pub(super) path: String,
    facts: Facts,
    /// Its variants with their outputs, in [`variants`]' order.
    variants: Vec<(Variant, OutputPath)>,
}

impl ShownImages {
    /// Those `shown` holds of `records`; `None` without `[images]` or when
    /// no document shows an image.
    pub(super) fn new(config: &Config, records: &[Record], shown: &Shown) -> Option<ShownImages> {
        let settings = config.images.as_ref()?;
        if shown.by_document.is_empty() {
            return None;
        }
        let mut files: FxHashMap<&str, Arc<ShownImage>> = FxHashMap::default();
        let mut by_record = FxHashMap::default();
        for (i, record) in records.iter().enumerate() {
            let Some(images) = shown.by_document.get(&record.source.path) else {
                continue;
            };
            let mut shown_here = Vec::new();
            for (src, path) in images {
                let Some(measured) = shown.measured.get(path) else {
                    continue;
                };
                let image = files
                    .entry(path.as_str())
                    .or_insert_with(|| Arc::new(ShownImage::new(path, &measured.facts, settings)));
                let mut written = String::new();
                // Writing to a String cannot fail.
                let _ = pulldown_cmark_escape::escape_href(&mut written, src);
                shown_here.push((written, Arc::clone(image)));
            }
            by_record.insert(i, shown_here);
        }
        Some(ShownImages {
            settings: settings.clone(),
            base_path: config.base_path.clone(),
            by_record,
        })
    }

    /// The variants of the images the documents `visibility` publishes
    /// show, each once, by output.
    pub(super) fn copies(&self, records: &[Record], visibility: Visibility) -> Vec<Copy> {
        let mut copies: BTreeMap<&OutputPath, Copy> = BTreeMap::new();
        let mut showing: Vec<usize> = self.by_record.keys().copied().collect();
        showing.sort_unstable();
        for i in showing {
            if !visibility.shows(&records[i]) {
                continue;
            }
            for (_, image) in &self.by_record[&i] {
                for (variant, output) in &image.variants {
                    let page = &records[i].source.path;
                    let hash = &image.facts.hash;
                    if let Some(copy) = drawn_copy(&image.path, hash, *variant, page) {
                        copies.entry(output).or_insert(copy);
                    }
                }
            }
        }
        copies.into_values().collect()
    }

    /// Adds what document `i`'s images are to its digest.
    pub(super) fn digest(&self, i: usize, key: &mut KeyHasher) -> bool {
        let Some(images) = self.by_record.get(&i) else {
            return false;
        };
        key.text(&self.settings.settings());
        for (src, image) in images {
            key.text(src);
            key.text(&image.facts.hash);
        }
        true
    }

    /// `html` of document `i` with each of its `<img>` tags that names a
    /// measured file shown as the site's `[images]` says.
    pub(super) fn shown<'h>(&self, i: usize, html: &'h str) -> Cow<'h, str> {
        let Some(images) = self.by_record.get(&i) else {
            return Cow::Borrowed(html);
        };
        let (mut out, mut copied) = (String::new(), 0);
        for at in memchr::memmem::find_iter(html.as_bytes(), "<img src=\"") {
            let Some(tag) = ImgTag::read(&html[at..]) else {
                continue;
            };
            let Some((_, image)) = images.iter().find(|(src, _)| *src == tag.src) else {
                continue;
            };
            out.push_str(&html[copied..at]);
            image.write_html(&mut out, &tag, (&self.settings, &self.base_path));
            copied = at + tag.len;
        }
        if copied == 0 {
            return Cow::Borrowed(html);
        }
        out.push_str(&html[copied..]);
        Cow::Owned(out)
    }
}

/// The variants of images the pages' templates asked for when they last
/// rendered (`resize_image`): the images' hashes in their fingerprints,
/// the variants outputs of the plan while a page asks for them. Which
/// pages ask for which is known again only once they render: produce makes
/// those the rendered pages ask for and prunes those no page asks for.
#[derive(Default)]
pub(super) struct DrawnImages {
    uses: Drawn,
    /// The hash of each image they name, by path from the root.
    hashes: FxHashMap<String, String>,
    /// Their variants, each once, but those the plan's copies make.
    copies: Vec<Copy>,
}

impl DrawnImages {
    /// Those of `uses` (by page output) of the pages among `specs`, the
    /// images measured in `shown`; `copies` are the plan's others.
    pub(super) fn new(uses: &Drawn, shown: &Shown, (specs, copies): (&[Spec], &[Copy])) -> Self {
        if uses.is_empty() {
            return DrawnImages::default();
        }
        let planned: FxHashSet<&str> = copies.iter().map(|c| c.output.as_str()).collect();
        let mut drawn = DrawnImages::default();
        let mut made: BTreeMap<String, Copy> = BTreeMap::new();
        for spec in specs {
            let Some(page_uses) = uses.get(spec.output.as_str()) else {
                continue;
            };
            drawn
                .uses
                .insert(spec.output.to_string(), page_uses.clone());
            for (image, variant) in page_uses {
                let Some(measured) = shown.measured.get(image) else {
                    continue;
                };
                let hash = &measured.facts.hash;
                drawn.hashes.insert(image.clone(), hash.clone());
                let Some(copy) = drawn_copy(image, hash, *variant, spec.output.as_str()) else {
                    continue;
                };
                if !planned.contains(copy.output.as_str()) {
                    made.entry(copy.output.to_string()).or_insert(copy);
                }
            }
        }
        drawn.copies = made.into_values().collect();
        drawn
    }

    /// `fingerprint` of the page at `output` with the images it asked for.
    pub(super) fn fingerprint(&self, output: &str, fingerprint: String) -> String {
        match self.uses.get(output) {
            None => fingerprint,
            Some(uses) => drawn_fingerprint(&fingerprint, uses, |image| {
                self.hashes.get(image).map(String::as_str)
            }),
        }
    }

    pub(super) fn copies(&self) -> &[Copy] {
        &self.copies
    }

    pub(super) fn uses(&self) -> &Drawn {
        &self.uses
    }
}

/// The copy that makes `variant` of the image at `image` (whose bytes hash
/// to `hash`) for the page at `page`.
pub fn drawn_copy(image: &str, hash: &str, variant: Variant, page: &str) -> Option<Copy> {
    let output = OutputPath::new(&variant.output(image, &variant.key(hash)))?;
    Some(Copy {
        fingerprint: format!("image {output}"),
        output,
        source: image.to_owned(),
        making: Making::Image {
            variant,
            source_hash: hash.to_owned(),
            shown_by: page.to_owned(),
        },
    })
}

/// An `<img>` tag as pulldown-cmark writes it: `<img src="…" alt="…" />`,
/// with ` title="…"` before the end when the image has one. Its values are
/// as written in the HTML (escaped).
struct ImgTag<'h> {
    src: &'h str,
    alt: &'h str,
    title: Option<&'h str>,
    /// Its length in bytes.
    len: usize,
}

impl<'h> ImgTag<'h> {
    fn read(html: &'h str) -> Option<ImgTag<'h>> {
        let rest = html.strip_prefix("<img src=\"")?;
        let (src, rest) = rest.split_once('"')?;
        let rest = rest.strip_prefix(" alt=\"")?;
        let (alt, rest) = rest.split_once('"')?;
        let (title, rest) = match rest.strip_prefix(" title=\"") {
            Some(titled) => {
                let (title, rest) = titled.split_once('"')?;
                (Some(title), rest)
            }
            None => (None, rest),
        };
        let rest = rest.strip_prefix(" />")?;
        Some(ImgTag {
            src,
            alt,
            title,
            len: html.len() - rest.len(),
        })
    }
}

impl ShownImage {
    fn new(path: &str, facts: &Facts, settings: &Images) -> ShownImage {
        let variants = variants(facts, settings)
            .into_iter()
            .filter_map(|variant| {
                let key = variant.key(&facts.hash);
                let output = OutputPath::new(&variant.output(path, &key))?;
                Some((variant, output))
            })
            .collect();
        ShownImage {
            path: path.to_owned(),
            facts: facts.clone(),
            variants,
        }
    }

    /// The `<img>` of `tag` (in a `<picture>` when the image is served in
    /// more than one format) written to `out`.
    fn write_html(&self, out: &mut String, tag: &ImgTag<'_>, (settings, base): (&Images, &str)) {
        use std::fmt::Write as _;
        let own = self.variants.first().map(|(v, _)| v.format);
        let srcset = |format| {
            let set: Vec<String> = (self.variants.iter())
                .filter(|(v, _)| v.format == format)
                .map(|(v, output)| format!("{base}/{output} {}w", v.width))
                .collect();
            set.join(", ")
        };
        let sizes = html_attr(&settings.sizes);
        let others: Vec<_> = (self.variants.iter())
            .map(|(v, _)| v.format)
            .filter(|&f| Some(f) != own)
            .fold(Vec::new(), |mut formats, f| {
                if !formats.contains(&f) {
                    formats.push(f);
                }
                formats
            });
        if !others.is_empty() {
            out.push_str("<picture>");
            for format in others {
                let _ = write!(
                    out,
                    "<source type=\"{}\" srcset=\"{}\" sizes=\"{sizes}\" />",
                    format.mime(),
                    srcset(format)
                );
            }
        }
        // The original's format at the widest width made, or the image
        // itself when none is.
        let widest = (self.variants.iter())
            .filter(|(v, _)| Some(v.format) == own)
            .max_by_key(|(v, _)| v.width);
        let (width, height) = widest.map_or((self.facts.width, self.facts.height), |(v, _)| {
            (v.width, v.height)
        });
        match (widest, own) {
            (Some((_, output)), Some(format)) => {
                let _ = write!(
                    out,
                    "<img src=\"{base}/{output}\" srcset=\"{}\" sizes=\"{sizes}\"",
                    srcset(format)
                );
            }
            _ => {
                let _ = write!(out, "<img src=\"{}\"", tag.src);
            }
        }
        let _ = write!(out, " alt=\"{}\"", tag.alt);
        if let Some(title) = tag.title {
            let _ = write!(out, " title=\"{title}\"");
        }
        let _ = write!(
            out,
            " width=\"{width}\" height=\"{height}\" loading=\"lazy\" decoding=\"async\" />"
        );
        if self.variants.iter().any(|(v, _)| Some(v.format) != own) {
            out.push_str("</picture>");
        }
    }
}

fn html_attr(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::config::ImageFormat;

    fn image(widths: &[u32], formats: &[ImageFormat]) -> (ShownImage, Images) {
        let settings = Images {
            widths: widths.to_vec(),
            formats: formats.to_vec(),
            quality: 75,
            sizes: "(max-width: 40rem) 100vw, 40rem".into(),
        };
        let facts = Facts {
            hash: "ab".repeat(32),
            width: 1200,
            height: 800,
            format: ImageFormat::Jpeg,
        };
        (
            ShownImage::new("content/posts/a/cat.jpg", &facts, &settings),
            settings,
        )
    }

    fn shown(widths: &[u32], formats: &[ImageFormat], html: &str) -> String {
        let (image, settings) = image(widths, formats);
        let tag = ImgTag::read(html).unwrap();
        assert_eq!(tag.len, html.len());
        let mut out = String::new();
        image.write_html(&mut out, &tag, (&settings, "/blog"));
        out
    }

    #[test]
    fn an_image_without_widths_gets_its_size_and_loads_lazily() {
        let html = shown(
            &[],
            &[],
            "<img src=\"cat.jpg\" alt=\"A &quot;cat&quot;\" title=\"Tom\" />",
        );
        assert_eq!(
            html,
            "<img src=\"cat.jpg\" alt=\"A &quot;cat&quot;\" title=\"Tom\" width=\"1200\" height=\"800\" loading=\"lazy\" decoding=\"async\" />"
        );
    }

    #[test]
    fn an_image_with_widths_and_formats_is_a_picture_with_a_srcset_per_format() {
        let html = shown(
            &[480, 1600],
            &[ImageFormat::Webp],
            "<img src=\"cat.jpg\" alt=\"\" />",
        );
        let (image, _) = image(&[480, 1600], &[ImageFormat::Webp]);
        let out = |at: usize| format!("/blog/{}", image.variants[at].1);
        let expected = format!(
            "<picture><source type=\"image/webp\" srcset=\"{} 480w, {} 1200w\" sizes=\"(max-width: 40rem) 100vw, 40rem\" />\
             <img src=\"{}\" srcset=\"{} 480w, {} 1200w\" sizes=\"(max-width: 40rem) 100vw, 40rem\" alt=\"\" width=\"1200\" height=\"800\" loading=\"lazy\" decoding=\"async\" /></picture>",
            out(2),
            out(3),
            out(1),
            out(0),
            out(1)
        );
        assert_eq!(html, expected);
        let plain = shown(&[480], &[], "<img src=\"cat.jpg\" alt=\"x\" />");
        assert!(
            plain.starts_with("<img src=\"/blog/processed_images/cat-480x320-"),
            "{plain}"
        );
        assert!(
            plain.ends_with("width=\"480\" height=\"320\" loading=\"lazy\" decoding=\"async\" />"),
            "{plain}"
        );
    }

    #[test]
    fn only_pulldown_cmark_img_tags_are_read() {
        assert!(ImgTag::read("<img src=\"a.jpg\" alt=\"b\">").is_none());
        assert!(ImgTag::read("<img src=\"a.jpg\" class=\"x\" alt=\"b\" />").is_none());
        let tag = ImgTag::read("<img src=\"a.jpg\" alt=\"b\" /> after").unwrap();
        assert_eq!(
            (tag.src, tag.alt, tag.title, tag.len),
            ("a.jpg", "b", None, 27)
        );
    }
}
