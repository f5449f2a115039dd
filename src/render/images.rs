//! `resize_image(path, width, height, op, format, quality)`: a variant of
//! an image made for a template, its URL and size. What a page's templates
//! ask for is known only once it renders: each call is recorded for the
//! page being rendered, and the build makes the variants the pages ask for
//! after they render (and prunes those none asks for any more); the next
//! build puts the images a page asked for in its fingerprint.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Mutex, PoisonError};

use minijinja::value::Kwargs;
use minijinja::{Error as TemplateError, ErrorKind, Value};
use rustc_hash::FxHashMap;

use crate::model::doc::Stat;
use crate::source::config::ImageFormat;
use crate::source::discover::FilesAt;
use crate::source::image::{
    Drawn, Facts, Op, Request, Variant, base_fingerprint, drawn_fingerprint, is_measured, measure,
};

/// What one build's `resize_image` calls find and record.
pub struct Resizer {
    files: FilesAt,
    /// The image files a template may name, by the names it may use
    /// (`static/img/a.png` and `img/a.png`; `content/posts/x/a.jpg` and
    /// `posts/x/a.jpg`): the file's path from the root and its stat.
    paths: FxHashMap<String, (String, Stat)>,
    /// What was measured of images, by path from the root: by the build's
    /// survey, or by a call that named an image no one had.
    measured: Mutex<FxHashMap<String, Result<Facts, String>>>,
    base_path: String,
    quality: u8,
    /// Per page rendered, the variants its templates asked for.
    asked: Mutex<BTreeMap<String, BTreeSet<(String, Variant)>>>,
}

impl Resizer {
    /// The calls of a build of the site at `root`: `paths` its image files,
    /// `measured` what its survey measured of them.
    pub fn new(
        root: &std::path::Path,
        paths: FxHashMap<String, (String, Stat)>,
        measured: impl IntoIterator<Item = (String, Facts)>,
        (base_path, quality): (&str, u8),
    ) -> Resizer {
        Resizer {
            files: FilesAt::new(root),
            paths,
            measured: Mutex::new(measured.into_iter().map(|(p, f)| (p, Ok(f))).collect()),
            base_path: base_path.to_owned(),
            quality,
            asked: Mutex::default(),
        }
    }

    /// A resizer that finds no image: every call is an error naming the
    /// path. What tests of templates that call none are given.
    #[cfg(any(test, feature = "internals"))]
    pub fn without_files() -> std::sync::Arc<Resizer> {
        let root = std::path::Path::new(".");
        std::sync::Arc::new(Resizer::new(root, FxHashMap::default(), [], ("", 75)))
    }

    /// What the pages rendered asked for, taken.
    pub fn take_asked(&self) -> Drawn {
        let asked = std::mem::take(&mut *self.asked.lock().unwrap_or_else(PoisonError::into_inner));
        asked
            .into_iter()
            .map(|(page, uses)| (page, uses.into_iter().collect()))
            .collect()
    }

    /// The fingerprint of the page at `output`, rendered just now on this
    /// thread, made from `fingerprint` (its plan's) and the images its
    /// templates asked for.
    pub fn fingerprint_of(&self, output: &str, fingerprint: String) -> String {
        let asked = self.asked.lock().unwrap_or_else(PoisonError::into_inner);
        let uses: Vec<(String, Variant)> = match asked.get(output) {
            Some(uses) => uses.iter().cloned().collect(),
            // Most pages ask for none, and did not.
            None if base_fingerprint(&fingerprint) == fingerprint => return fingerprint,
            None => Vec::new(),
        };
        drop(asked);
        let measured = self.measured.lock().unwrap_or_else(PoisonError::into_inner);
        let hash_of = |image: &str| match measured.get(image) {
            Some(Ok(facts)) => Some(facts.hash.as_str()),
            _ => None,
        };
        drawn_fingerprint(&fingerprint, &uses, hash_of)
    }

    /// The hash of each image measured, by path from the root.
    pub fn hashes(&self) -> FxHashMap<String, String> {
        let measured = self.measured.lock().unwrap_or_else(PoisonError::into_inner);
        (measured.iter())
            .filter_map(|(path, facts)| Some((path.clone(), facts.as_ref().ok()?.hash.clone())))
            .collect()
    }

    /// `resize_image(...)`: the variant's `url`, `width` and `height`, with
    /// the image's own `orig_width` and `orig_height`.
    pub fn call(&self, path: Option<String>, kwargs: Kwargs) -> Result<Value, TemplateError> {
        let path = match path {
            Some(path) => path,
            None => kwargs.get::<String>("path")?,
        };
        let request = request_of(&kwargs)?;
        kwargs.assert_all_used()?;
        let (image, stat) = self.paths.get(path.trim_start_matches('/')).cloned().ok_or_else(|| {
            invalid(format!(
                "resize_image: `{path}` is not an image of static/ or of a bundle (give its path under static/ or content/)"
            ))
        })?;
        if !is_measured(&image) {
            return Err(invalid(format!(
                "resize_image: `{path}` is not an image folio resizes (JPEG, PNG, WebP, GIF)"
            )));
        }
        let facts = self.facts(&image, stat)?;
        let variant = request
            .variant(&facts, self.quality)
            .map_err(|why| invalid(format!("resize_image: `{path}`: {why}")))?;
        let output = variant.output(&image, &variant.key(&facts.hash));
        if let Some(page) = super::rendering_page() {
            let mut asked = self.asked.lock().unwrap_or_else(PoisonError::into_inner);
            asked.entry(page).or_default().insert((image, variant));
        }
        let resized: BTreeMap<&str, Value> = BTreeMap::from([
            ("url", Value::from(format!("{}/{output}", self.base_path))),
            ("width", Value::from(variant.width)),
            ("height", Value::from(variant.height)),
            ("orig_width", Value::from(facts.width)),
            ("orig_height", Value::from(facts.height)),
        ]);
        Ok(Value::from(resized))
    }

    fn facts(&self, image: &str, stat: Stat) -> Result<Facts, TemplateError> {
        let mut measured = self.measured.lock().unwrap_or_else(PoisonError::into_inner);
        let facts = measured
            .entry(image.to_owned())
            .or_insert_with(|| measure(&self.files, image, stat).map(|m| m.facts));
        facts.clone().map_err(|why| {
            invalid(format!(
                "resize_image: the image {image} cannot be read: {why}"
            ))
        })
    }
}

fn request_of(kwargs: &Kwargs) -> Result<Request, TemplateError> {
    let op = match kwargs.get::<Option<String>>("op")? {
        None => Op::Fit,
        Some(name) => Op::parse(&name).ok_or_else(|| {
            invalid(format!(
                "resize_image: op=\"{name}\" is none of fit, fill, scale"
            ))
        })?,
    };
    let format = match kwargs.get::<Option<String>>("format")?.as_deref() {
        None | Some("auto") => None,
        Some(name) => Some(ImageFormat::parse(name).ok_or_else(|| {
            invalid(format!(
                "resize_image: format=\"{name}\" is none of auto, webp, jpeg, png"
            ))
        })?),
    };
    let quality = kwargs.get::<Option<u8>>("quality")?;
    if quality.is_some_and(|q| !(1..=100).contains(&q)) {
        return Err(invalid("resize_image: quality is from 1 to 100".into()));
    }
    Ok(Request {
        width: kwargs.get("width")?,
        height: kwargs.get("height")?,
        op,
        format,
        quality,
    })
}

fn invalid(message: String) -> TemplateError {
    TemplateError::new(ErrorKind::InvalidOperation, message)
}
