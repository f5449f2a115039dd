//! Feeds. A feed is a list of posts (the newest `feed_limit` of a list,
//! newest first), a format and a URL: one per file `feeds` names, at that
//! name in the list's folder. Which lists have feeds is the site's
//! (`feeds_for`): a language's home, each term of a taxonomy, each section
//! of posts (or those whose `_index.md` asks). Another list is one more
//! [`FeedOf`] and one call of [`feed_recipes`] beside its pages.

use super::*;
use crate::source::config::{FeedContent, FeedFormat};

/// The list a feed follows.
#[derive(Debug, Clone)]
pub(in crate::plan) enum FeedOf {
    /// A language's home: all its posts.
    Home,
    /// A term's posts: its taxonomy, by its place in the model, and its
    /// slug.
    Term(usize, String),
    /// A section's posts, by the place of its list in the model's sections.
    Section(usize),
}

/// One feed of a list, in one format.
#[derive(Debug, Clone)]
pub(in crate::plan) struct Feed {
    pub(in crate::plan) lang: String,
    pub(in crate::plan) of: FeedOf,
    pub(in crate::plan) format: FeedFormat,
    /// The URL of the list's first page, which the feed links as its
    /// alternate.
    pub(in crate::plan) list_url: String,
    pub(in crate::plan) items: Vec<usize>,
}

/// The site.toml keys a feed reads.
const FEEDS: &[&str] = &[
    "author",
    "feeds",
    "feed_content",
    "feed_limit",
    "feeds_for",
    "permalink",
    "timezone",
];

impl Feed {
    pub(super) fn inputs<'s>(&'s self, model: &'s Model) -> Inputs<'s> {
        let mut parts = vec![Input::Text(&self.lang)];
        match &self.of {
            FeedOf::Home => {}
            FeedOf::Term(t, slug) => {
                let taxonomy = &model.taxonomies[*t];
                let (name, _) = taxonomy.term(&self.lang, slug);
                parts.extend([
                    Input::Text(&taxonomy.name),
                    Input::Text(slug),
                    Input::Text(name),
                ]);
            }
            FeedOf::Section(at) => parts.extend(section_title_inputs(model, *at)),
        }
        parts.push(Input::Documents(&self.items));
        Inputs {
            parts,
            config_keys: FEEDS,
        }
    }

    /// Its entries and its header. With `feed_content = "full"`, the
    /// entries' bodies are rendered with the feed ([`Plan::feed_bodies`]).
    pub(super) fn fill(&self, plan: &Plan<'_>, context: &mut Context<'_>) {
        let (config, model) = (plan.config, &plan.model);
        let records = &model.records;
        context.entries = Some(
            self.items
                .iter()
                .map(|&i| {
                    let r = &records[i];
                    FeedEntry {
                        id: format!("urn:uuid:{}", r.id.to_uuid()),
                        title: r.title.clone(),
                        url: format!("{}{}", config.origin, r.url),
                        published: format_ms(r.published_at),
                        published_rfc822: rfc822(r.published_at),
                        updated: format_ms(r.updated_at.unwrap_or(r.published_at)),
                        summary: model.shown_elsewhere(i, &r.summary).into_owned(),
                        description: r.description.clone(),
                        content: None,
                        tags: r.tags.clone(),
                        authors: authors_of(r),
                    }
                })
                .collect(),
        );
        let updated = self
            .items
            .iter()
            .map(|&i| {
                records[i]
                    .updated_at
                    .unwrap_or(0)
                    .max(records[i].published_at)
            })
            .max()
            .unwrap_or(0);
        let lang = self.lang.as_str();
        context.feed = Some(FeedView {
            id: format!("{}{}", config.origin, context.url),
            title: config.title_in(lang).to_owned(),
            home_url: format!("{}{}", config.origin, self.list_url),
            updated: format_ms(updated),
            updated_rfc822: rfc822(updated),
            author: config
                .author
                .clone()
                .unwrap_or_else(|| config.title.clone()),
            term: match &self.of {
                FeedOf::Home | FeedOf::Section(_) => None,
                FeedOf::Term(t, slug) => Some(model.taxonomies[*t].term(lang, slug).0.clone()),
            },
            taxonomy: match &self.of {
                FeedOf::Home | FeedOf::Section(_) => None,
                FeedOf::Term(t, _) => Some(taxonomy_link(
                    config,
                    plan.views.i18n.strings(lang),
                    lang,
                    &model.taxonomies[*t].name,
                )),
            },
            section: match &self.of {
                FeedOf::Section(at) => Some(model.sections.title(*at)),
                FeedOf::Home | FeedOf::Term(..) => None,
            },
        });
    }

    /// Who produces it: `(rss feed of tags `x` of en)`.
    pub(super) fn made_by(&self, model: &Model) -> String {
        let (format, lang) = (self.format.key(), &self.lang);
        match &self.of {
            FeedOf::Home => format!("({format} feed of {lang})"),
            FeedOf::Term(t, slug) => {
                let taxonomy = &model.taxonomies[*t];
                let name = taxonomy.term(lang, slug).0.as_str();
                format!("({format} feed of {} `{name}` of {lang})", taxonomy.name)
            }
            FeedOf::Section(at) => {
                let folder = &model.sections.lists[*at].folder;
                format!("({format} feed of section `{folder}` of {lang})")
            }
        }
    }
}

impl Plan<'_> {
    /// The documents whose bodies the feed of `spec` shows, when the site
    /// asks for whole posts in its feeds: rendered when the feed renders,
    /// as a post's own page renders its body (a feed's fingerprint covers
    /// its documents' digests, which their bodies are a function of).
    pub fn feed_bodies<'s>(&self, spec: &'s Spec) -> Option<&'s [usize]> {
        match &spec.recipe {
            Recipe::Feed(feed) if self.config.feeds.content == FeedContent::Full => {
                Some(&feed.items)
            }
            _ => None,
        }
    }
}

/// A date as RSS writes it (RFC 822, in UTC): `Wed, 01 May 2024 09:00:00
/// +0000`. English names whatever the feed's language, as the RFC says.
fn rfc822(ms: i64) -> String {
    Timestamp::from_millisecond(ms)
        .unwrap_or(Timestamp::UNIX_EPOCH)
        .to_zoned_datetime(jiff::tz::TimeZone::UTC)
        .strftime("%a, %d %b %Y %H:%M:%S %z")
        .to_string()
}

/// The feeds of a list of `lang`, the newest of `posts` (newest first):
/// one per file site.toml names, each in the list's folder, `list_url`.
pub(in crate::plan) fn feed_recipes(
    config: &Config,
    lang: &str,
    of: FeedOf,
    list_url: &str,
    posts: &[usize],
    recipes: &mut Vec<(String, Template, Recipe)>,
) {
    let items = &posts[..posts.len().min(config.feed_limit)];
    for file in &config.feeds.files {
        recipes.push((
            feed_url(list_url, &file.name),
            file.format.template().into(),
            Recipe::Feed(Feed {
                lang: lang.to_owned(),
                of: of.clone(),
                format: file.format,
                list_url: list_url.to_owned(),
                items: items.to_vec(),
            }),
        ));
    }
}

/// The feeds of the home of `lang`, when the site asks for them.
pub(in crate::plan) fn home_feed_recipes(
    config: &Config,
    model: &Model,
    lang: &str,
    recipes: &mut Vec<(String, Template, Recipe)>,
) {
    if config.feeds.home {
        let posts = model.posts_by_lang.get(lang).map_or(&[][..], Vec::as_slice);
        let root = config.language_root(lang);
        feed_recipes(config, lang, FeedOf::Home, &root, posts, recipes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rss_dates_are_rfc_822_in_utc() {
        let ms = "2024-05-01T09:00:00+02:00"
            .parse::<Timestamp>()
            .unwrap()
            .as_millisecond();
        assert_eq!(rfc822(ms), "Wed, 01 May 2024 07:00:00 +0000");
    }
}
