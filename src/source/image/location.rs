//! Where a photo was taken, taken out of a JPEG that is copied as it is (a
//! bundle's photo, a static one) when the site has `[images]`: the GPS IFD
//! of its EXIF segment emptied and every byte of it zeroed in place, so the
//! file keeps its length, its orientation and the rest of its metadata; an
//! XMP segment that names a GPS position is left out whole.

/// The EXIF tag of IFD0 that points at the GPS IFD.
const GPS_IFD: u16 = 0x8825;
const EXIF: &[u8] = b"Exif\0\0";
const XMP: &[u8] = b"http://ns.adobe.com/xap/1.0/\0";

/// Whether the file at `output` is a JPEG, whose copy is made without its
/// position.
pub fn is_jpeg(output: &str) -> bool {
    let extension = output
        .rsplit_once('.')
        .map_or("", |(_, extension)| extension);
    extension.eq_ignore_ascii_case("jpg") || extension.eq_ignore_ascii_case("jpeg")
}

/// The mark of the fingerprint of a JPEG copied without its position:
/// turning `[images]` on or off copies it again.
pub const MARK: &str = " without location";

/// `jpeg` without where it was taken; `None` when it holds no position (or
/// is no JPEG folio can walk), to be copied as it is.
pub fn without_location(jpeg: &[u8]) -> Option<Vec<u8>> {
    if !jpeg.starts_with(&[0xFF, 0xD8]) {
        return None;
    }
    let mut out = jpeg.to_vec();
    let mut dropped: Vec<std::ops::Range<usize>> = Vec::new();
    let mut at = 2;
    let mut changed = false;
    // The segments before the image data: a marker, its length, its bytes.
    while at + 4 <= jpeg.len() && jpeg[at] == 0xFF {
        let marker = jpeg[at + 1];
        if marker == 0xDA || marker == 0xD9 {
            break;
        }
        let length = usize::from(u16::from_be_bytes([jpeg[at + 2], jpeg[at + 3]]));
        let end = at + 2 + length;
        if length < 2 || end > jpeg.len() {
            return None;
        }
        let payload = at + 4..end;
        if marker == 0xE1 && jpeg[payload.clone()].starts_with(EXIF) {
            let tiff = payload.start + EXIF.len()..payload.end;
            changed |= zero_gps(&mut out[tiff]).is_some();
        } else if marker == 0xE1
            && jpeg[payload.clone()].starts_with(XMP)
            && memchr::memmem::find(&jpeg[payload], b"GPS").is_some()
        {
            dropped.push(at..end);
            changed = true;
        }
        at = end;
    }
    if !changed {
        return None;
    }
    for range in dropped.iter().rev() {
        out.drain(range.clone());
    }
    Some(out)
}

/// Zeroes the GPS IFD of the TIFF block `tiff` (EXIF's) and the values it
/// points at, leaving it an IFD of no entry; `None` when it has none (or
/// an empty one) or does not read as TIFF.
fn zero_gps(tiff: &mut [u8]) -> Option<()> {
    let big_endian = match tiff.get(..2)? {
        b"MM" => true,
        b"II" => false,
        _ => return None,
    };
    let u16_at = |bytes: &[u8], at: usize| -> Option<u16> {
        let pair = [*bytes.get(at)?, *bytes.get(at + 1)?];
        Some(match big_endian {
            true => u16::from_be_bytes(pair),
            false => u16::from_le_bytes(pair),
        })
    };
    let u32_at = |bytes: &[u8], at: usize| -> Option<u32> {
        let quad: [u8; 4] = bytes.get(at..at + 4)?.try_into().ok()?;
        Some(match big_endian {
            true => u32::from_be_bytes(quad),
            false => u32::from_le_bytes(quad),
        })
    };
    let ifd0 = u32_at(tiff, 4)? as usize;
    let entries = usize::from(u16_at(tiff, ifd0)?);
    let gps = (0..entries)
        .map(|e| ifd0 + 2 + 12 * e)
        .find(|&entry| u16_at(tiff, entry) == Some(GPS_IFD))
        .and_then(|entry| u32_at(tiff, entry + 8))? as usize;
    let count = usize::from(u16_at(tiff, gps)?);
    if count == 0 {
        return None;
    }
    let ifd_end = gps + 2 + 12 * count + 4;
    if ifd_end > tiff.len() {
        return None;
    }
    for e in 0..count {
        let entry = gps + 2 + 12 * e;
        let size = type_size(u16_at(tiff, entry + 2)?) * u32_at(tiff, entry + 4)? as usize;
        if size > 4 {
            let value = u32_at(tiff, entry + 8)? as usize;
            if let Some(bytes) = tiff.get_mut(value..value.saturating_add(size)) {
                bytes.fill(0);
            }
        }
    }
    tiff[gps..ifd_end].fill(0);
    Some(())
}

/// The bytes of one value of a TIFF field type.
fn type_size(field_type: u16) -> usize {
    match field_type {
        3 | 8 => 2,
        4 | 9 | 11 => 4,
        5 | 10 | 12 => 8,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JPEG's start with the EXIF segment of the tests (orientation 6, a
    /// GPS latitude reference), then the rest of a file.
    fn photo() -> Vec<u8> {
        let mut jpeg = vec![0xFF, 0xD8];
        jpeg.extend(include_bytes!("../../../tests/golden/exif-turned-gps.app1"));
        jpeg.extend([0xFF, 0xDA, 0, 2, 1, 2, 3, 0xFF, 0xD9]);
        jpeg
    }

    #[test]
    fn the_gps_ifd_is_zeroed_and_the_orientation_kept() {
        let before = photo();
        let after = without_location(&before).unwrap();
        assert_eq!(after.len(), before.len());
        assert!(before.windows(2).any(|w| w == b"N\0"));
        assert!(!after.windows(2).any(|w| w == b"N\0"), "no latitude");
        // IFD0's orientation entry (tag 0x0112, 6) is as it was.
        let orientation = [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6];
        assert!(after.windows(10).any(|w| w == orientation));
        assert_eq!(without_location(&after), None, "nothing left to take");
    }

    #[test]
    fn a_photo_without_a_position_or_no_jpeg_is_left_alone() {
        assert_eq!(without_location(b"\x89PNG"), None);
        assert_eq!(without_location(&[0xFF, 0xD8, 0xFF, 0xD9]), None);
        let mut truncated = photo();
        truncated.truncate(20);
        assert_eq!(without_location(&truncated), None);
    }

    #[test]
    fn an_xmp_segment_with_a_position_is_left_out() {
        let mut jpeg = vec![0xFF, 0xD8];
        let xmp = [XMP, &b"<x exif:GPSLatitude='1'/>"[..]].concat();
        jpeg.extend([0xFF, 0xE1]);
        jpeg.extend(((xmp.len() + 2) as u16).to_be_bytes());
        jpeg.extend(&xmp);
        jpeg.extend([0xFF, 0xDA, 0, 2, 0xFF, 0xD9]);
        assert_eq!(
            without_location(&jpeg).unwrap(),
            [0xFF, 0xD8, 0xFF, 0xDA, 0, 2, 0xFF, 0xD9]
        );
    }
}
