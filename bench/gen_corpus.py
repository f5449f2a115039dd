#!/usr/bin/env python3
"""Generate a deterministic multilingual blog corpus for folio, Hugo or Zola.

    gen_corpus.py --posts N --langs en,fr,de --format folio|hugo|zola OUTDIR

Every post exists in every language (translations share one file path), with
about 800 words of Markdown: `##` headings, paragraphs with emphasis, inline
code and links, a bullet list, a numbered list, a fenced code block and a
table. ~5 tags per post from a pool of 50, dates spread over several years.

Only the standard library; every random choice comes from a `random.Random`
seeded with a string derived from --seed, the post number and the language, so
the same arguments always give byte-identical trees (no clock, no hash
randomisation, no dependence on the order languages are listed in).

The three formats hold the same posts (same titles, dates, tags and Markdown
bodies); only the layout, the front matter syntax and the summary marker
differ, plus each tool's config and a minimal theme doing the same work as
folio's default theme: a post page (tags, translation links, newer/older
links), a home per language listing the posts newest first 10 per page, tag
pages (paginated 10 per page) and a tag index, one feed per language (20
entries) and a sitemap. Like folio's theme, the Hugo and Zola themes link one
stylesheet, /style.css, from every page and write it once: folio's own
templates/style.css (or --stylesheet), copied verbatim to static/style.css.

With --images (folio and Hugo), every post is a bundle with a photo-sized
JPEG of its own (1600 x 1200, made by photos.py; every fifth one stored
sideways with an EXIF orientation of 6, as a phone's portraits are), shown
after its summary, and both tools do the same work with it: made upright,
at 480 and 960 pixels wide, in JPEG and in WebP (quality 75, Lanczos),
shown as a <picture> with a srcset. folio by its `[images]` rule, Hugo by a
render hook for images (`.Resize`, turned by the photo's EXIF orientation,
since the Hugo of Debian predates images.AutoOrient).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from datetime import datetime, timedelta, timezone

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import photos  # noqa: E402  (beside this file)

# --------------------------------------------------------------------------
# Vocabulary

# Per-language syllables and a few real function words, so the texts of one
# post differ per language and fr/de carry accented letters.
SYLLABLES = {
    "en": ["ba", "con", "der", "fi", "gen", "ho", "in", "ja", "ker", "lo", "man", "ni",
           "or", "pre", "qua", "ro", "sen", "ti", "un", "ver", "wa", "ex", "ly", "st",
           "ing", "tion", "er", "al", "ment", "ful"],
    "fr": ["la", "mé", "ré", "tion", "son", "ès", "gé", "pà", "çon", "qui", "eau", "ain",
           "ou", "ment", "ver", "dé", "pré", "col", "lu", "mi", "ê", "tre", "ble", "ié",
           "oi", "cœ", "ï", "an", "ette", "eur"],
    "de": ["ge", "ber", "schaft", "ung", "kei", "lich", "ä", "ö", "ü", "ß", "ein", "sch",
           "ter", "ver", "zu", "hei", "mann", "stra", "ne", "rück", "bau", "heit", "wä",
           "ölk", "über", "fl", "ig", "en", "keit", "wald"],
}
FUNCTION_WORDS = {
    "en": ["the", "and", "of", "to", "a", "in", "is", "that", "for", "it", "with", "as",
           "on", "this", "by", "we", "or", "not"],
    "fr": ["le", "la", "les", "et", "de", "des", "un", "une", "est", "que", "pour", "dans",
           "avec", "où", "à", "ça", "très", "être"],
    "de": ["der", "die", "das", "und", "zu", "den", "ist", "nicht", "mit", "für", "auf",
           "über", "dass", "wir", "für", "schön", "größe", "müssen"],
}
GENERIC_SYLLABLES = ["ka", "lo", "mi", "ne", "ra", "su", "ti", "vo", "ze", "an", "el", "or"]

TABLE_HEADERS = {
    "en": ["Name", "Value", "Notes"],
    "fr": ["Nom", "Valeur", "Remarques"],
    "de": ["Name", "Wert", "Anmerkungen"],
}

TAG_POOL = [
    "rust", "python", "go", "web", "css", "html", "i18n", "l10n", "unicode", "typography",
    "performance", "caching", "databases", "sqlite", "postgres", "linux", "shell", "git",
    "testing", "ci", "release", "security", "crypto", "networking", "http", "dns",
    "compilers", "parsers", "markdown", "templates", "static-sites", "feeds", "search",
    "accessibility", "design", "photography", "travel", "cooking", "books", "music",
    "hardware", "embedded", "wasm", "async", "concurrency", "memory", "profiling",
    "benchmarks", "docs", "community",
]

CODE_SNIPPETS = [
    ("rust", [
        "fn {a}({b}: &[u64]) -> u64 {{",
        "    let mut {c} = 0;",
        "    for x in {b} {{",
        "        {c} += x.wrapping_mul({n});",
        "    }}",
        "    {c}",
        "}}",
    ]),
    ("python", [
        "def {a}({b}):",
        "    {c} = {{}}",
        "    for key, value in {b}.items():",
        "        {c}[key] = value * {n}",
        "    return {c}",
    ]),
    ("sh", [
        "#!/bin/sh",
        "set -eu",
        "{a}=\"${{1:-{b}}}\"",
        "find \"${a}\" -name '*.md' | head -n {n}",
        "echo \"{c} done\"",
    ]),
    ("toml", [
        "[{a}]",
        "{b} = {n}",
        "{c} = \"{a}-{b}\"",
        "enabled = true",
    ]),
]


def make_vocab(seed: str, lang: str, size: int = 1500) -> list[str]:
    rng = random.Random(f"{seed}/vocab/{lang}")
    syl = SYLLABLES.get(lang, GENERIC_SYLLABLES)
    words: list[str] = []
    seen: set[str] = set()
    while len(words) < size:
        w = "".join(rng.choice(syl) for _ in range(rng.choice((1, 2, 2, 3, 3, 4))))
        if w not in seen and len(w) > 1:
            seen.add(w)
            words.append(w)
    return words


class Writer:
    """Text in one language, drawing from that language's vocabulary."""

    def __init__(self, rng: random.Random, lang: str, vocab: list[str]):
        self.rng = rng
        self.lang = lang
        self.vocab = vocab
        self.func = FUNCTION_WORDS.get(lang, [])
        self.words = 0

    def word(self) -> str:
        if self.func and self.rng.random() < 0.3:
            return self.rng.choice(self.func)
        # Zipf-ish: small indexes are much more frequent.
        i = int(len(self.vocab) * (self.rng.random() ** 2.2))
        return self.vocab[i]

    def phrase(self, lo: int, hi: int) -> str:
        n = self.rng.randint(lo, hi)
        self.words += n
        return " ".join(self.word() for _ in range(n))

    def title(self) -> str:
        ws = [self.word() for _ in range(self.rng.randint(3, 7))]
        return " ".join(w[:1].upper() + w[1:] for w in ws)

    def sentence(self) -> str:
        n = self.rng.randint(7, 18)
        self.words += n
        ws = [self.word() for _ in range(n)]
        r = self.rng.random()
        k = self.rng.randrange(1, n)
        if r < 0.15:
            ws[k] = f"*{ws[k]}*"
        elif r < 0.25:
            ws[k] = f"**{ws[k]}**"
        elif r < 0.33:
            ws[k] = f"`{ws[k]}()`"
        elif r < 0.45:
            j = min(n, k + self.rng.randint(1, 3))
            text = " ".join(ws[k:j])
            target = "-".join(w.strip("*`") for w in ws[k:j])
            ws[k:j] = [f"[{text}](https://example.org/{self.lang}/ref/{self.rng.randrange(1000)}/{target})"]
        s = " ".join(ws)
        s = s[:1].upper() + s[1:]
        return s + self.rng.choice((".", ".", ".", ".", ".", ".", "!", "?"))

    def paragraph(self, lo: int = 3, hi: int = 6) -> str:
        return " ".join(self.sentence() for _ in range(self.rng.randint(lo, hi)))


def post_body(w: Writer, shape: random.Random, more_marker: str, ident_vocab: list[str]) -> str:
    """The Markdown body. `shape` decides the structure (identical for every
    language of a post); `w` writes the words."""
    out: list[str] = []
    out.append(w.paragraph(2, 4))
    out.append(more_marker)
    sections = shape.randint(5, 6)
    kinds = ["bullets", "numbered", "code", "table"]
    shape.shuffle(kinds)
    kinds += ["quote", "none"][: sections - 4]
    for s in range(sections):
        out.append("## " + w.title())
        out.append(w.paragraph())
        kind = kinds[s]
        if kind == "bullets":
            out.append("\n".join("- " + w.phrase(3, 10) for _ in range(shape.randint(3, 6))))
        elif kind == "numbered":
            out.append("\n".join(f"{i}. " + w.phrase(4, 12) for i in range(1, shape.randint(3, 6) + 1)))
        elif kind == "code":
            lang, lines = CODE_SNIPPETS[shape.randrange(len(CODE_SNIPPETS))]
            a, b, c = (shape.choice(ident_vocab) for _ in range(3))
            code = "\n".join(l.format(a=a, b=b, c=c, n=shape.randint(2, 999)) for l in lines)
            out.append(f"```{lang}\n{code}\n```")
        elif kind == "table":
            hdr = TABLE_HEADERS.get(w.lang, TABLE_HEADERS["en"])
            rows = ["| " + " | ".join(hdr) + " |", "|---|---:|---|"]
            for _ in range(shape.randint(3, 5)):
                rows.append(f"| {w.phrase(1, 2)} | {shape.randint(1, 99999)} | {w.phrase(2, 5)} |")
            out.append("\n".join(rows))
        elif kind == "quote":
            out.append("> " + w.sentence() + " " + w.sentence())
        if shape.random() < 0.7:
            out.append(w.paragraph(2, 5))
    # Pad to ~800 words with closing paragraphs (the number depends on the
    # language's draws, which is fine: it is deterministic).
    while w.words < 760:
        out.append(w.paragraph(2, 4))
    return "\n\n".join(out) + "\n"


# --------------------------------------------------------------------------
# Posts


def post_meta(seed: str, i: int, n: int) -> dict:
    shape = random.Random(f"{seed}/post/{i}")
    start = datetime(2017, 1, 1, tzinfo=timezone.utc)
    span = 7 * 365 * 24 * 3600  # seven years
    slot = span / n
    # Strictly increasing with i, so no two posts share a date (a stable
    # newest-first order for every tool).
    t = start + timedelta(seconds=int(i * slot + shape.random() * slot * 0.9) // 60 * 60)
    tags = sorted(shape.sample(TAG_POOL, shape.choice((3, 4, 5, 5, 5, 6, 7))))
    return {"date": t.strftime("%Y-%m-%dT%H:%M:%SZ"), "tags": tags}


def post_text(seed: str, i: int, lang: str, vocab: list[str], ident_vocab: list[str], more: str):
    shape = random.Random(f"{seed}/shape/{i}")
    w = Writer(random.Random(f"{seed}/text/{i}/{lang}"), lang, vocab)
    title = w.title()
    body = post_body(w, shape, more, ident_vocab)
    return title, body


def yaml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def front_matter(fmt: str, title: str, date: str, tags: list[str]) -> str:
    if fmt == "zola":
        tl = ", ".join(yaml_str(t) for t in tags)
        return f"+++\ntitle = {yaml_str(title)}\ndate = {date}\n\n[taxonomies]\ntags = [{tl}]\n+++\n\n"
    tl = ", ".join(yaml_str(t) for t in tags)
    return f"---\ntitle: {yaml_str(title)}\ndate: {date}\ntags: [{tl}]\n---\n\n"


# --------------------------------------------------------------------------
# Themes and configs

LANG_NAMES = {"en": "English", "fr": "Français", "de": "Deutsch", "es": "Español",
              "it": "Italiano", "nl": "Nederlands", "pt": "Português", "ja": "日本語"}

# folio's default theme serves one stylesheet, /style.css, linked from every
# page. The Hugo and Zola themes below do the same: they link /style.css and
# ship folio's own stylesheet text (templates/style.css in this repository,
# read verbatim, or --stylesheet) as static/style.css, which both tools copy
# to the output root. So every tool writes the same stylesheet once and the
# same link in every page.
DEFAULT_STYLESHEET = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir,
                                  "templates", "style.css")


def folio_files(langs: list[str], css: str) -> dict[str, str]:
    # folio writes /style.css from its own default theme: nothing to add.
    conf = ['title = "Bench"', 'base_url = "https://example.org"', f'default_language = "{langs[0]}"',
            "paginate = 10", "feed_limit = 20", ""]
    for l in langs:
        conf += [f"[languages.{l}]", f'name = "{LANG_NAMES.get(l, l)}"', ""]
    return {"site.toml": "\n".join(conf)}


HUGO_BASEOF = """\
<!doctype html>
<html lang="{{ .Language.Lang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ block "title" . }}{{ .Site.Title }}{{ end }}</title>
<link rel="canonical" href="{{ .Permalink }}">
{{ range .AllTranslations }}<link rel="alternate" hreflang="{{ .Language.Lang }}" href="{{ .Permalink }}">
{{ end }}{{ with .Site.Home.OutputFormats.Get "RSS" }}<link rel="alternate" type="application/rss+xml" title="Feed" href="{{ .RelPermalink }}">{{ end }}
<link rel="stylesheet" href="/style.css">
</head>
<body>
<header class="site-header"><div class="wrap">
<a class="site-title" href="{{ .Site.Home.RelPermalink }}" rel="home">{{ .Site.Title }}</a>
<nav class="langs"><ul>
<li><span aria-current="page">{{ .Language.LanguageName }}</span></li>
{{ range .Translations }}<li><a href="{{ .RelPermalink }}" hreflang="{{ .Language.Lang }}" rel="alternate">{{ .Language.LanguageName }}</a></li>
{{ end }}</ul></nav>
</div></header>
<main class="wrap">{{ block "main" . }}{{ end }}</main>
<footer class="site-footer"><div class="wrap"><a href="{{ .Site.Home.RelPermalink }}">{{ .Site.Title }}</a> · hugo</div></footer>
</body>
</html>
"""

HUGO_ENTRY = """\
{{ define "entry" }}<article class="entry">
<h2><a href="{{ .RelPermalink }}">{{ .Title }}</a></h2>
<p class="meta"><time datetime="{{ .Date.Format "2006-01-02T15:04:05Z07:00" }}">{{ .Date.Format "2 January 2006" }}</time></p>
{{ with .GetTerms "tags" }}<ul class="tags">{{ range . }}<li><a class="tag" href="{{ .RelPermalink }}" rel="tag">#{{ .LinkTitle }}</a></li>{{ end }}</ul>{{ end }}
<div class="summary">
{{ .Summary }}
</div>
<p class="more"><a href="{{ .RelPermalink }}">Read more →</a></p>
</article>
{{ end }}
{{ define "pager" }}{{ if gt .TotalPages 1 }}<nav><ul class="pager">
<li>{{ if .HasPrev }}<a href="{{ .Prev.URL }}" rel="prev">← Newer</a>{{ end }}</li>
<li>Page {{ .PageNumber }} / {{ .TotalPages }}</li>
<li>{{ if .HasNext }}<a href="{{ .Next.URL }}" rel="next">Older →</a>{{ end }}</li>
</ul></nav>{{ end }}{{ end }}
"""

HUGO_INDEX = """\
{{ define "main" }}
{{ $pag := .Paginate (where .Site.RegularPages "Section" "posts").ByDate.Reverse }}
{{ range $pag.Pages }}{{ template "entry" . }}{{ end }}
{{ template "pager" $pag }}
<p><a href="{{ "tags/" | relLangURL }}">All tags</a></p>
{{ end }}
"""

HUGO_LIST = """\
{{ define "title" }}#{{ .Title }} · {{ .Site.Title }}{{ end }}
{{ define "main" }}
<h1>Tagged <span class="tag">#{{ .Title }}</span></h1>
{{ $pag := .Paginate .Pages.ByDate.Reverse }}
{{ range $pag.Pages }}{{ template "entry" . }}{{ end }}
{{ template "pager" $pag }}
{{ end }}
"""

HUGO_TERMS = """\
{{ define "title" }}All tags · {{ .Site.Title }}{{ end }}
{{ define "main" }}
<h1>All tags</h1>
<ul class="tag-index">
{{ range .Data.Terms.Alphabetical }}<li><a class="tag" href="{{ .Page.RelPermalink }}" rel="tag">#{{ .Page.LinkTitle }}</a> {{ .Count }}</li>
{{ end }}</ul>
{{ end }}
"""

HUGO_SINGLE = """\
{{ define "title" }}{{ .Title }} · {{ .Site.Title }}{{ end }}
{{ define "main" }}
<article class="post">
<header>
<h1>{{ .Title }}</h1>
<p class="meta"><time datetime="{{ .Date.Format "2006-01-02T15:04:05Z07:00" }}">{{ .Date.Format "2 January 2006" }}</time></p>
{{ with .GetTerms "tags" }}<ul class="tags">{{ range . }}<li><a class="tag" href="{{ .RelPermalink }}" rel="tag">#{{ .LinkTitle }}</a></li>{{ end }}</ul>{{ end }}
</header>
<div class="content">
{{ .Content }}
</div>
</article>
{{ if or .Next .Prev }}<nav><ul class="neighbors">
<li>{{ with .Next }}<a href="{{ .RelPermalink }}" rel="prev">← Newer: {{ .Title }}</a>{{ end }}</li>
<li>{{ with .Prev }}<a href="{{ .RelPermalink }}" rel="next">Older: {{ .Title }} →</a>{{ end }}</li>
</ul></nav>{{ end }}
{{ end }}
"""


def hugo_files(langs: list[str], css: str) -> dict[str, str]:
    conf = [
        'baseURL = "https://example.org/"',
        'title = "Bench"',
        f'defaultContentLanguage = "{langs[0]}"',
        "defaultContentLanguageInSubdir = false",
        "paginate = 10",
        "rssLimit = 20",
        "enableRobotsTXT = true",
        # folio builds no section listing (/posts/): neither does this site.
        'disableKinds = ["section"]',
        "",
        "[outputs]",
        'home = ["HTML", "RSS"]',
        'section = ["HTML"]',
        'taxonomy = ["HTML"]',
        'term = ["HTML"]',
        "",
        "[taxonomies]",
        'tag = "tags"',
        "",
        # Both highlight every fenced block, as both do by default; with
        # classes, as folio's default writes them.
        "[markup.highlight]",
        "codeFences = true",
        "noClasses = false",
        "",
    ]
    for w, l in enumerate(langs, 1):
        conf += [f"[languages.{l}]", f'languageName = "{LANG_NAMES.get(l, l)}"',
                 f'contentDir = "content/{l}"', f"weight = {w}", 'title = "Bench"', ""]
    return {
        "hugo.toml": "\n".join(conf),
        "layouts/_default/baseof.html": HUGO_BASEOF,
        "static/style.css": css,
        "layouts/_default/single.html": HUGO_ENTRY + HUGO_SINGLE,
        "layouts/index.html": HUGO_ENTRY + HUGO_INDEX,
        "layouts/_default/list.html": HUGO_ENTRY + HUGO_LIST,
        "layouts/_default/terms.html": HUGO_TERMS,
    }


ZOLA_BASE = """\
<!doctype html>
<html lang="{{ lang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{% block title %}{{ config.title }}{% endblock title %}</title>
{% block alternates %}{% endblock alternates %}
<link rel="alternate" type="application/atom+xml" title="Feed" href="{% if lang == config.default_language %}{{ get_url(path="atom.xml", trailing_slash=false) }}{% else %}{{ get_url(path="atom.xml", lang=lang, trailing_slash=false) }}{% endif %}">
<link rel="stylesheet" href="/style.css">
</head>
<body>
<header class="site-header"><div class="wrap">
<a class="site-title" href="{% if lang == config.default_language %}{{ get_url(path="/") }}{% else %}{{ get_url(path="/", lang=lang) }}{% endif %}" rel="home">{{ config.title }}</a>
{% block langs %}{% endblock langs %}
</div></header>
<main class="wrap">{% block content %}{% endblock content %}</main>
<footer class="site-footer"><div class="wrap">{{ config.title }} · zola</div></footer>
</body>
</html>
"""

ZOLA_MACROS = """\
{% macro entry(page) %}<article class="entry">
<h2><a href="{{ page.permalink | safe }}">{{ page.title }}</a></h2>
<p class="meta"><time datetime="{{ page.date }}">{{ page.date | date(format="%-d %B %Y") }}</time></p>
{% if page.taxonomies.tags %}<ul class="tags">{% for t in page.taxonomies.tags %}<li><a class="tag" href="{{ get_taxonomy_url(kind="tags", name=t, lang=page.lang) }}" rel="tag">#{{ t }}</a></li>{% endfor %}</ul>{% endif %}
<div class="summary">
{{ page.summary | safe }}
</div>
<p class="more"><a href="{{ page.permalink | safe }}">Read more →</a></p>
</article>
{% endmacro entry %}
{% macro pager(paginator) %}{% if paginator.number_pagers > 1 %}<nav><ul class="pager">
<li>{% if paginator.previous %}<a href="{{ paginator.previous | safe }}" rel="prev">← Newer</a>{% endif %}</li>
<li>Page {{ paginator.current_index }} / {{ paginator.number_pagers }}</li>
<li>{% if paginator.next %}<a href="{{ paginator.next | safe }}" rel="next">Older →</a>{% endif %}</li>
</ul></nav>{% endif %}{% endmacro pager %}
"""

ZOLA_INDEX = """\
{% extends "base.html" %}
{% import "macros.html" as m %}
{% block content %}
{% for page in paginator.pages %}{{ m::entry(page=page) }}{% endfor %}
{{ m::pager(paginator=paginator) }}
<p><a href="{% if lang == config.default_language %}{{ get_url(path="tags") }}{% else %}{{ get_url(path="tags", lang=lang) }}{% endif %}">All tags</a></p>
{% endblock content %}
"""

ZOLA_SECTION = """\
{% extends "base.html" %}
{% import "macros.html" as m %}
{% block content %}
<h1>{{ section.title }}</h1>
{% if paginator %}{% for page in paginator.pages %}{{ m::entry(page=page) }}{% endfor %}{{ m::pager(paginator=paginator) }}
{% else %}{% for page in section.pages %}{{ m::entry(page=page) }}{% endfor %}{% endif %}
{% endblock content %}
"""

ZOLA_PAGE = """\
{% extends "base.html" %}
{% block title %}{{ page.title }} · {{ config.title }}{% endblock title %}
{% block alternates %}<link rel="canonical" href="{{ page.permalink | safe }}">
{% for t in page.translations %}<link rel="alternate" hreflang="{{ t.lang }}" href="{{ t.permalink | safe }}">
{% endfor %}{% endblock alternates %}
{% block langs %}<nav class="langs"><ul>
{% for t in page.translations %}<li>{% if t.lang == page.lang %}<span aria-current="page">{{ t.lang }}</span>{% else %}<a href="{{ t.permalink | safe }}" hreflang="{{ t.lang }}" rel="alternate">{{ t.lang }}</a>{% endif %}</li>
{% endfor %}</ul></nav>{% endblock langs %}
{% block content %}
<article class="post">
<header>
<h1>{{ page.title }}</h1>
<p class="meta"><time datetime="{{ page.date }}">{{ page.date | date(format="%-d %B %Y") }}</time></p>
{% if page.taxonomies.tags %}<ul class="tags">{% for t in page.taxonomies.tags %}<li><a class="tag" href="{{ get_taxonomy_url(kind="tags", name=t, lang=page.lang) }}" rel="tag">#{{ t }}</a></li>{% endfor %}</ul>{% endif %}
</header>
<div class="content">
{{ page.content | safe }}
</div>
</article>
{% if page.lower or page.higher %}<nav><ul class="neighbors">
<li>{% if page.lower %}<a href="{{ page.lower.permalink | safe }}" rel="prev">← Newer: {{ page.lower.title }}</a>{% endif %}</li>
<li>{% if page.higher %}<a href="{{ page.higher.permalink | safe }}" rel="next">Older: {{ page.higher.title }} →</a>{% endif %}</li>
</ul></nav>{% endif %}
{% endblock content %}
"""

ZOLA_TAGS_LIST = """\
{% extends "base.html" %}
{% block title %}All tags · {{ config.title }}{% endblock title %}
{% block content %}
<h1>All tags</h1>
<ul class="tag-index">
{% for t in terms %}<li><a class="tag" href="{{ t.permalink | safe }}" rel="tag">#{{ t.name }}</a> {{ t.page_count }}</li>
{% endfor %}</ul>
{% endblock content %}
"""

ZOLA_TAGS_SINGLE = """\
{% extends "base.html" %}
{% import "macros.html" as m %}
{% block title %}#{{ term.name }} · {{ config.title }}{% endblock title %}
{% block content %}
<h1>Tagged <span class="tag">#{{ term.name }}</span></h1>
{% for page in paginator.pages %}{{ m::entry(page=page) }}{% endfor %}
{{ m::pager(paginator=paginator) }}
{% endblock content %}
"""


def zola_files(langs: list[str], css: str) -> dict[str, str]:
    tax = 'taxonomies = [{ name = "tags", paginate_by = 10 }]'
    conf = [
        'base_url = "https://example.org"',
        'title = "Bench"',
        f'default_language = "{langs[0]}"',
        "generate_feeds = true",
        "feed_limit = 20",
        "compile_sass = false",
        "build_search_index = false",
        tax,
        "",
    ]
    for l in langs[1:]:
        conf += [f"[languages.{l}]", 'title = "Bench"', "generate_feeds = true", tax, ""]
    files = {
        "config.toml": "\n".join(conf),
        "templates/base.html": ZOLA_BASE,
        "static/style.css": css,
        "templates/macros.html": ZOLA_MACROS,
        "templates/index.html": ZOLA_INDEX,
        "templates/section.html": ZOLA_SECTION,
        "templates/page.html": ZOLA_PAGE,
        "templates/tags/list.html": ZOLA_TAGS_LIST,
        "templates/tags/single.html": ZOLA_TAGS_SINGLE,
    }
    for i, l in enumerate(langs):
        suffix = "" if i == 0 else f".{l}"
        # The home of each language lists every post newest first, 10 a page;
        # the posts section is transparent (its pages go up to the home) and
        # not rendered itself, as folio builds no /posts/ listing.
        files[f"content/_index{suffix}.md"] = (
            '+++\ntitle = "Bench"\nsort_by = "date"\npaginate_by = 10\n+++\n')
        files[f"content/posts/_index{suffix}.md"] = (
            '+++\ntitle = "Posts"\nsort_by = "date"\ntransparent = true\nrender = false\n+++\n')
    return files


# --------------------------------------------------------------------------


def write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def write_bytes(path: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def photo_of(seed: str, i: int) -> bytes:
    """Post i's photo: every fifth stored sideways (EXIF orientation 6)."""
    rng = random.Random(f"{seed}-photo-{i}")
    return photos.photo(rng, 1600, 1200, 6 if i % 5 == 0 else 1)


# What --images adds to each tool's files: the same widths, formats, quality
# and filter.
HUGO_RENDER_IMAGE = """{{- $img := .Page.Resources.GetMatch .Destination -}}
{{- with $img -}}
{{- $turn := "" -}}
{{- with .Exif }}{{ with .Tags.Orientation }}{{ if eq . 6 }}{{ $turn = " r270" }}{{ else if eq . 8 }}{{ $turn = " r90" }}{{ else if eq . 3 }}{{ $turn = " r180" }}{{ end }}{{ end }}{{ end -}}
{{- $j4 := .Resize (printf "480x jpg q75%s" $turn) -}}
{{- $j9 := .Resize (printf "960x jpg q75%s" $turn) -}}
{{- $w4 := .Resize (printf "480x webp q75%s" $turn) -}}
{{- $w9 := .Resize (printf "960x webp q75%s" $turn) -}}
<picture><source type="image/webp" srcset="{{ $w4.RelPermalink }} 480w, {{ $w9.RelPermalink }} 960w" sizes="100vw" /><img src="{{ $j9.RelPermalink }}" srcset="{{ $j4.RelPermalink }} 480w, {{ $j9.RelPermalink }} 960w" sizes="100vw" alt="{{ $.Text }}" width="{{ $j9.Width }}" height="{{ $j9.Height }}" loading="lazy" decoding="async" /></picture>
{{- end -}}
"""
IMAGE_FILES = {
    "folio": {"site.toml": '\n[images]\nwidths = [480, 960]\nformats = ["webp"]\nquality = 75\n'},
    "hugo": {
        "hugo.toml": '\n[imaging]\nresampleFilter = "lanczos"\nquality = 75\n',
        "layouts/_default/_markup/render-image.html": HUGO_RENDER_IMAGE,
    },
}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--posts", type=int, required=True, help="number of posts (each in every language)")
    ap.add_argument("--langs", default="en,fr,de", help="comma-separated codes, the first is the default")
    ap.add_argument("--format", choices=("folio", "hugo", "zola"), required=True)
    ap.add_argument("--seed", default="folio-bench-1", help="seed (any string)")
    ap.add_argument("--stylesheet", default=DEFAULT_STYLESHEET,
                    help="stylesheet copied verbatim to static/style.css for hugo and zola "
                         "(default: folio's templates/style.css)")
    ap.add_argument("--images", action="store_true",
                    help="every post a bundle with a photo to make responsive (folio and hugo)")
    ap.add_argument("outdir")
    a = ap.parse_args(argv)
    if a.images and a.format == "zola":
        ap.error("--images is for folio and hugo")
    langs = [l.strip() for l in a.langs.split(",") if l.strip()]
    if not langs or a.posts < 1:
        ap.error("need at least one language and one post")
    if len(set(langs)) != len(langs):
        ap.error("duplicate language")
    if a.posts > 99999:
        ap.error("at most 99999 posts")

    out = a.outdir
    if os.path.exists(out) and os.listdir(out):
        ap.error(f"{out} exists and is not empty")
    fmt = a.format
    css = ""
    if fmt != "folio":
        try:
            with open(a.stylesheet, encoding="utf-8", newline="") as f:
                css = f.read()
        except OSError as e:
            ap.error(f"cannot read the stylesheet: {e}")
    files = {"folio": folio_files, "hugo": hugo_files, "zola": zola_files}[fmt](langs, css)
    if a.images:
        for rel, text in IMAGE_FILES[fmt].items():
            files[rel] = files.get(rel, "") + text
    for rel, text in files.items():
        write(os.path.join(out, rel), text)

    vocabs = {l: make_vocab(a.seed, l) for l in langs}
    ident_vocab = [w for w in make_vocab(a.seed, "ident", 400) if w.isascii()]
    more = "<!--more-->" if fmt == "hugo" else "<!-- more -->"
    for i in range(1, a.posts + 1):
        meta = post_meta(a.seed, i, a.posts)
        name = f"post-{i:05d}"
        for li, lang in enumerate(langs):
            title, body = post_text(a.seed, i, lang, vocabs[lang], ident_vocab, more)
            text = front_matter(fmt, title, meta["date"], meta["tags"]) + body
            if a.images:
                text += f"\n![A photo of post {i}](photo.jpg)\n"
                folder = os.path.join(out, f"content/{lang}/posts/{name}")
                write(os.path.join(folder, "index.md"), text)
                write_bytes(os.path.join(folder, "photo.jpg"), photo_of(a.seed, i))
                continue
            if fmt == "zola":
                suffix = "" if li == 0 else f".{lang}"
                rel = f"content/posts/{name}{suffix}.md"
            else:
                rel = f"content/{lang}/posts/{name}.md"
            write(os.path.join(out, rel), text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
