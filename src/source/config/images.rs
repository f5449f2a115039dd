//! The `[images]` table: how the local images of posts are shown. Its
//! presence turns the rule on: each local image gets its width and height
//! (no layout shift once it loads) and is loaded lazily; with `widths`, it
//! is also served at those widths, in the original's format and in each of
//! `formats`, for the browser to pick from (`srcset`).

use serde::Deserialize;

/// An image format folio reads, and which of them it writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ImageFormat {
    Jpeg,
    Png,
    Webp,
    /// Read for its size; never written (an animation would lose its
    /// frames).
    Gif,
}

impl ImageFormat {
    pub fn name(self) -> &'static str {
        match self {
            ImageFormat::Jpeg => "jpeg",
            ImageFormat::Png => "png",
            ImageFormat::Webp => "webp",
            ImageFormat::Gif => "gif",
        }
    }

    pub fn parse(name: &str) -> Option<ImageFormat> {
        Some(match name {
            "jpeg" | "jpg" => ImageFormat::Jpeg,
            "png" => ImageFormat::Png,
            "webp" => ImageFormat::Webp,
            "gif" => ImageFormat::Gif,
            _ => return None,
        })
    }

    /// The extension of the files folio writes in it.
    pub fn extension(self) -> &'static str {
        match self {
            ImageFormat::Jpeg => "jpg",
            other => other.name(),
        }
    }

    pub fn mime(self) -> &'static str {
        match self {
            ImageFormat::Jpeg => "image/jpeg",
            ImageFormat::Png => "image/png",
            ImageFormat::Webp => "image/webp",
            ImageFormat::Gif => "image/gif",
        }
    }

    /// Whether folio writes variants of an image in this format.
    pub fn is_written(self) -> bool {
        self != ImageFormat::Gif
    }
}

/// The `[images]` table as site.toml writes it.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub(super) struct RawImages {
    widths: Vec<u32>,
    formats: Vec<String>,
    quality: u8,
    sizes: String,
}

impl Default for RawImages {
    fn default() -> Self {
        RawImages {
            widths: Vec::new(),
            formats: vec!["webp".to_owned()],
            quality: Images::DEFAULT_QUALITY,
            sizes: "100vw".to_owned(),
        }
    }
}

/// The widest image folio makes: past it, a decoded image alone would take
/// gigabytes.
pub const WIDEST: u32 = 16_384;

/// How the local images of posts are shown (`[images]`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Images {
    /// The widths each image is served at (those below its own, and its
    /// own when it is narrower than the widest), smallest first.
    pub widths: Vec<u32>,
    /// The formats each image is served in besides its own.
    pub formats: Vec<ImageFormat>,
    /// JPEG and WebP quality, 1 to 100.
    pub quality: u8,
    /// The `sizes` attribute: how wide the image is shown, for the browser
    /// to pick a width.
    pub sizes: String,
}

impl Images {
    /// Hugo's default quality, and Zola's.
    pub const DEFAULT_QUALITY: u8 = 75;

    /// The table checked, or the message and help of its mistake.
    pub(super) fn new(raw: RawImages) -> Result<Images, (String, String)> {
        if let Some(bad) = raw.widths.iter().find(|&&w| w == 0 || w > WIDEST) {
            return Err((
                format!("images.widths: {bad} is not a width folio makes"),
                format!("give widths in pixels, from 1 to {WIDEST}: `widths = [480, 960, 1600]`"),
            ));
        }
        let mut formats = Vec::new();
        for name in &raw.formats {
            match ImageFormat::parse(name).filter(|f| f.is_written()) {
                Some(format) if !formats.contains(&format) => formats.push(format),
                Some(_) => {}
                None => {
                    let help = match name.as_str() {
                        "avif" => {
                            "folio does not encode AVIF: its encoder (rav1e) took 8 to 67 times WebP's time for files 1 to 6% smaller (docs/speed.md, Images); use `webp`, which every current browser shows"
                        }
                        _ => "use `webp`, `jpeg` or `png`",
                    };
                    return Err((
                        format!("images.formats: `{name}` is not a format folio writes"),
                        help.to_owned(),
                    ));
                }
            }
        }
        if !(1..=100).contains(&raw.quality) {
            return Err((
                format!("images.quality: {} is not from 1 to 100", raw.quality),
                format!("leave it out for the default, {}", Images::DEFAULT_QUALITY),
            ));
        }
        let mut widths = raw.widths;
        widths.sort_unstable();
        widths.dedup();
        Ok(Images {
            widths,
            formats,
            quality: raw.quality,
            sizes: raw.sizes,
        })
    }

    /// What the variants and the HTML of an image depend on, for the
    /// fingerprints of the pages that show one.
    pub fn settings(&self) -> String {
        let formats: Vec<&str> = self.formats.iter().map(|f| f.name()).collect();
        format!(
            "widths {:?} formats {:?} quality {} sizes {:?}",
            self.widths, formats, self.quality, self.sizes
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn images(toml: &str) -> Result<Images, (String, String)> {
        Images::new(toml::from_str(toml).unwrap())
    }

    #[test]
    fn widths_are_sorted_and_formats_checked() {
        let ok = images("widths = [960, 480, 960]\nformats = [\"webp\", \"jpg\"]").unwrap();
        assert_eq!(ok.widths, [480, 960]);
        assert_eq!(ok.formats, [ImageFormat::Webp, ImageFormat::Jpeg]);
        assert_eq!(ok.quality, 75);
        let (message, help) = images("formats = [\"avif\"]").unwrap_err();
        assert!(message.contains("`avif`"), "{message}");
        assert!(help.contains("webp"), "{help}");
        assert!(images("formats = [\"gif\"]").is_err());
        assert!(images("widths = [0]").is_err());
        assert!(images("quality = 0").is_err());
    }
}
