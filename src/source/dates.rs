//! Dates as front matter and file names write them: RFC 3339, or a date or
//! date-time read in the site time zone, and the `YYYY-MM-DD-` a file name
//! starts with.

use jiff::civil;

use crate::source::config::Config;

/// How to write a date folio reads.
const DATE_FORMATS: &str = "write an RFC 3339 date-time (`2024-05-01T09:00:00+02:00`), a date-time read in the site time zone (`2024-05-01T09:00:00`) or a date (`2024-05-01`)";

/// Reads a date: RFC 3339 with an offset, or a date-time or date without one,
/// read in the site time zone. Returns (Unix ms, read in the site time zone),
/// or what is wrong and how to fix it.
pub fn parse_date(text: &str, config: &Config) -> Result<(i64, bool), (String, &'static str)> {
    let text = text.trim();
    // jiff reads years 0 to 9999 (and -9999 with a sign), and a moment up
    // to 9999-12-30T22:00Z, so that any offset can be applied to it.
    let in_range = "use a date from 1970 to 9999";
    let beyond = || {
        let message = format!("`{text}` is after 9999-12-30, the last date folio can read");
        (message, in_range)
    };
    let year_digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let long_year = year_digits > 4 && text.as_bytes().get(year_digits) == Some(&b'-');
    if long_year || text.starts_with(['+', '-']) {
        let message = format!("`{text}` has a year folio cannot read: dates run from 1970 to 9999");
        return Err((message, in_range));
    }
    match text.parse::<jiff::Timestamp>() {
        Ok(timestamp) => return Ok((timestamp.as_millisecond(), false)),
        // A date-time with an offset that jiff cannot hold as a moment: it
        // must not be read again without its offset.
        Err(_) if has_offset(text) && text.parse::<civil::DateTime>().is_ok() => {
            return Err(beyond());
        }
        Err(_) => {}
    }
    let local = text
        .parse::<civil::DateTime>()
        .or_else(|_| {
            text.parse::<civil::Date>()
                .map(|d| d.to_datetime(civil::Time::midnight()))
        })
        .map_err(|_| (format!("`{text}` is not a date"), DATE_FORMATS))?;
    // Only a moment past the last one jiff holds cannot be placed: a time
    // in a daylight-saving gap is moved on, as clocks are.
    let timestamp = config.timezone.to_timestamp(local).map_err(|_| beyond())?;
    Ok((timestamp.as_millisecond(), true))
}

/// Whether a date-time ends with an offset (`Z`, `+02:00`, `-0500`).
fn has_offset(text: &str) -> bool {
    let Some((_, time)) = text.split_once(['T', 't', ' ']) else {
        return false;
    };
    time.ends_with(['Z', 'z']) || time.contains(['+', '-'])
}

/// Splits a leading `YYYY-MM-DD-` (or Jekyll's unpadded `YYYY-M-D-`) off a
/// file stem. The rest is the slug; the date is used when front matter has none.
pub(crate) fn split_date_prefix(stem: &str) -> (Option<civil::Date>, &str) {
    let mut parts = stem.splitn(4, '-');
    let (Some(y), Some(m), Some(d), Some(rest)) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return (None, stem);
    };
    let digits = |s: &str, lens: std::ops::RangeInclusive<usize>| {
        lens.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
    };
    if !(digits(y, 4..=4) && digits(m, 1..=2) && digits(d, 1..=2)) || rest.is_empty() {
        return (None, stem);
    }
    let (Ok(y), Ok(m), Ok(d)) = (y.parse::<i16>(), m.parse::<i8>(), d.parse::<i8>()) else {
        return (None, stem);
    };
    match civil::Date::new(y, m, d) {
        Ok(date) => (Some(date), rest),
        Err(_) => (None, stem),
    }
}
