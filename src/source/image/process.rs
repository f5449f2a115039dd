//! Measuring an image and making its variants: read its header (and EXIF
//! orientation) without decoding it; decode it once, turn it upright,
//! resize it to each variant's size and encode each. Nothing of the
//! original's metadata (EXIF: the camera, the place it was taken) is
//! written: the encoders write pixels alone.

use std::io::Cursor;
use std::panic::{AssertUnwindSafe, catch_unwind};

use fast_image_resize::{FilterType, ResizeAlg, ResizeOptions, Resizer};
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::{CompressionType, PngEncoder};
use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder, ImageEncoder, ImageReader};

use super::{Facts, Op, Variant};
use crate::model::hash::source_hash;
use crate::source::config::ImageFormat;

/// What is wrong with an image, as a sentence.
pub type Why = String;

/// The most pixels an image folio decodes may have: a 200-megapixel photo
/// takes 600 MB decoded; a file claiming billions (a few bytes can) would
/// take the machine's memory.
const MOST_PIXELS: u64 = 200_000_000;

/// What folio measures of the image `bytes`: its format, and its size once
/// its EXIF orientation is applied, read from its header alone.
pub fn probe(bytes: &[u8]) -> Result<Facts, Why> {
    unpanicked(|| measured(bytes))
}

/// The image `bytes` decoded once, upright, then each of `variants` made
/// from it, in order.
pub fn make(bytes: &[u8], variants: &[Variant]) -> Result<Vec<Vec<u8>>, Why> {
    unpanicked(|| made(bytes, variants))
}

/// `work`'s result, or why it failed when a decoder or encoder panicked on
/// the file: one bad image must not stop the other workers of the build,
/// and is named like any other bad image.
fn unpanicked<T>(work: impl FnOnce() -> Result<T, Why>) -> Result<T, Why> {
    catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|panic| {
        let said = (panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(format!("the image library failed on it ({said})"))
    })
}

fn measured(bytes: &[u8]) -> Result<Facts, Why> {
    let (format, mut decoder) = decoder_of(bytes)?;
    let (width, height) = decoder.dimensions();
    let turned = matches!(
        decoder.orientation().map_err(|e| e.to_string())?,
        Orientation::Rotate90
            | Orientation::Rotate270
            | Orientation::Rotate90FlipH
            | Orientation::Rotate270FlipH
    );
    let (width, height) = if turned {
        (height, width)
    } else {
        (width, height)
    };
    if width == 0 || height == 0 {
        return Err("it has no pixels".into());
    }
    Ok(Facts {
        hash: source_hash(bytes),
        width,
        height,
        format,
    })
}

fn decoder_of(bytes: &[u8]) -> Result<(ImageFormat, impl ImageDecoder + use<'_>), Why> {
    let guessed = image::guess_format(bytes)
        .map_err(|_| "it is not an image folio reads (JPEG, PNG, WebP, GIF)".to_owned())?;
    let format = match guessed {
        image::ImageFormat::Jpeg => ImageFormat::Jpeg,
        image::ImageFormat::Png => ImageFormat::Png,
        image::ImageFormat::WebP => ImageFormat::Webp,
        image::ImageFormat::Gif => ImageFormat::Gif,
        other => {
            return Err(format!(
                "it is a {other:?} image, which folio does not read (JPEG, PNG, WebP, GIF)"
            ));
        }
    };
    let reader = ImageReader::with_format(Cursor::new(bytes), guessed);
    let decoder = reader.into_decoder().map_err(|e| e.to_string())?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) > MOST_PIXELS {
        return Err(format!(
            "it has {width} × {height} pixels, more than folio decodes ({} million)",
            MOST_PIXELS / 1_000_000
        ));
    }
    Ok((format, decoder))
}

fn made(bytes: &[u8], variants: &[Variant]) -> Result<Vec<Vec<u8>>, Why> {
    let (_, mut decoder) = decoder_of(bytes)?;
    let orientation = decoder.orientation().map_err(|e| e.to_string())?;
    let mut image = DynamicImage::from_decoder(decoder).map_err(|e| e.to_string())?;
    image.apply_orientation(orientation);
    // Eight bits a channel, alpha kept where there is one: what every
    // encoder here takes.
    let image = match image.color().has_alpha() {
        true => DynamicImage::ImageRgba8(image.into_rgba8()),
        false => DynamicImage::ImageRgb8(image.into_rgb8()),
    };
    let mut resizer = Resizer::new();
    variants
        .iter()
        .map(|variant| {
            let resized = resized(&mut resizer, &image, variant)?;
            encoded(&resized, variant)
        })
        .collect()
}

fn resized(
    resizer: &mut Resizer,
    image: &DynamicImage,
    variant: &Variant,
) -> Result<DynamicImage, Why> {
    if (image.width(), image.height()) == (variant.width, variant.height) {
        return Ok(image.clone());
    }
    let mut resized = match image {
        DynamicImage::ImageRgba8(_) => DynamicImage::new_rgba8(variant.width, variant.height),
        _ => DynamicImage::new_rgb8(variant.width, variant.height),
    };
    let mut options = ResizeOptions::new().resize_alg(ResizeAlg::Convolution(FilterType::Lanczos3));
    if variant.op == Op::Fill {
        // The middle of the image, in the proportions asked.
        let (w, h) = (f64::from(image.width()), f64::from(image.height()));
        let aspect = f64::from(variant.width) / f64::from(variant.height);
        let (crop_w, crop_h) = if w / h > aspect {
            (h * aspect, h)
        } else {
            (w, w / aspect)
        };
        options = options.crop((w - crop_w) / 2.0, (h - crop_h) / 2.0, crop_w, crop_h);
    }
    resizer
        .resize(image, &mut resized, &options)
        .map_err(|e| e.to_string())?;
    Ok(resized)
}

fn encoded(image: &DynamicImage, variant: &Variant) -> Result<Vec<u8>, Why> {
    let mut bytes = Vec::new();
    let (width, height) = (image.width(), image.height());
    let failed = |e: image::ImageError| e.to_string();
    match variant.format {
        ImageFormat::Jpeg => {
            // JPEG has no alpha: a transparent image is shown on black.
            let rgb = image.to_rgb8();
            JpegEncoder::new_with_quality(&mut bytes, variant.quality)
                .write_image(&rgb, width, height, image::ExtendedColorType::Rgb8)
                .map_err(failed)?;
        }
        ImageFormat::Png => {
            let encoder = PngEncoder::new_with_quality(
                &mut bytes,
                CompressionType::Default,
                image::codecs::png::FilterType::Adaptive,
            );
            encoder
                .write_image(image.as_bytes(), width, height, image.color().into())
                .map_err(failed)?;
        }
        ImageFormat::Webp => {
            let encoder = match image {
                DynamicImage::ImageRgba8(rgba) => webp::Encoder::from_rgba(rgba, width, height),
                _ => webp::Encoder::from_rgb(image.as_bytes(), width, height),
            };
            bytes = encoder.encode(f32::from(variant.quality)).to_vec();
        }
        ImageFormat::Gif => return Err("folio does not write GIF images".into()),
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JPEG of `width` × `height` whose EXIF says to turn it a quarter
    /// (orientation 6) and where it was taken (a GPS latitude).
    pub(crate) fn turned_jpeg(width: u32, height: u32) -> Vec<u8> {
        let mut plain = Vec::new();
        let pixels = image::RgbImage::from_fn(width, height, |x, y| {
            image::Rgb([(x * 255 / width) as u8, (y * 255 / height) as u8, 128])
        });
        JpegEncoder::new_with_quality(&mut plain, 90)
            .write_image(&pixels, width, height, image::ExtendedColorType::Rgb8)
            .unwrap();
        with_exif(&plain)
    }

    /// `jpeg` with an APP1 EXIF segment after its SOI: orientation 6 and a
    /// GPS IFD holding a latitude reference (tests/golden/, which the
    /// integration tests splice the same way).
    fn with_exif(jpeg: &[u8]) -> Vec<u8> {
        let segment = include_bytes!("../../../tests/golden/exif-turned-gps.app1");
        let mut out = jpeg[..2].to_vec();
        out.extend(segment);
        out.extend(&jpeg[2..]);
        out
    }

    #[test]
    fn a_turned_photo_is_measured_and_made_upright_without_its_exif() {
        let jpeg = turned_jpeg(64, 48);
        let facts = probe(&jpeg).unwrap();
        assert_eq!(
            (facts.width, facts.height, facts.format),
            (48, 64, ImageFormat::Jpeg)
        );
        let variants = [24, 48].map(|width| Variant {
            width,
            height: width * 4 / 3,
            format: ImageFormat::Jpeg,
            quality: 80,
            op: Op::Fit,
        });
        let webp = Variant {
            format: ImageFormat::Webp,
            ..variants[0]
        };
        let made = make(&jpeg, &[variants[0], variants[1], webp]).unwrap();
        for (bytes, variant) in made.iter().zip([variants[0], variants[1], webp]) {
            let read = image::load_from_memory(bytes).unwrap();
            assert_eq!(
                (read.width(), read.height()),
                (variant.width, variant.height)
            );
            assert!(
                !bytes.windows(6).any(|w| w == b"Exif\0\0"),
                "no EXIF is written"
            );
        }
        assert!(made[2].starts_with(b"RIFF"), "a WebP");
        assert_eq!(
            make(&jpeg, &variants).unwrap(),
            made[..2],
            "the same bytes every time"
        );
    }

    /// A PNG whose header claims `width` × `height` pixels, with one row of
    /// data: what a hostile site would commit to exhaust memory.
    fn claimed_png(width: u32, height: u32) -> Vec<u8> {
        let mut png = Vec::new();
        image::codecs::png::PngEncoder::new(&mut png)
            .write_image(&[0; 3], 1, 1, image::ExtendedColorType::Rgb8)
            .unwrap();
        // IHDR's width and height follow the signature, length and type.
        png[16..20].copy_from_slice(&width.to_be_bytes());
        png[20..24].copy_from_slice(&height.to_be_bytes());
        let crc = crc32(&png[12..29]);
        png[29..33].copy_from_slice(&crc.to_be_bytes());
        png
    }

    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &byte in bytes {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    #[test]
    fn an_image_claiming_billions_of_pixels_is_refused_not_decoded() {
        let bomb = claimed_png(60_000, 60_000);
        let why = probe(&bomb).unwrap_err();
        assert!(
            why.contains("60000 × 60000 pixels, more than folio decodes"),
            "{why}"
        );
        let variant = Variant {
            width: 480,
            height: 480,
            format: ImageFormat::Png,
            quality: 0,
            op: Op::Fit,
        };
        assert_eq!(make(&bomb, &[variant]).unwrap_err(), why);
        assert!(probe(&claimed_png(1_000, 1_000)).is_ok());
    }

    #[test]
    fn what_is_not_an_image_is_said_so() {
        let why = probe(b"<svg/>").unwrap_err();
        assert!(why.contains("not an image"), "{why}");
        let mut truncated = turned_jpeg(64, 48);
        truncated.truncate(truncated.len() / 2);
        let variant = Variant {
            width: 24,
            height: 32,
            format: ImageFormat::Png,
            quality: 0,
            op: Op::Fit,
        };
        assert!(make(&truncated, &[variant]).is_err());
    }
}
