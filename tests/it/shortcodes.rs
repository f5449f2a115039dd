//! Shortcodes on a real site: folio's own (youtube, vimeo, figure, details,
//! note, warning) and the site's `templates/shortcodes/`, called in Zola's
//! syntax; a call that names nothing fails with its file and line and
//! writes nothing; a shortcode's template renders again exactly the pages
//! that show a document calling it.

use crate::util;

use util::{TestSite, post};

fn site(kept: bool) -> TestSite {
    let site = TestSite::new();
    if kept {
        site.keep_session();
    }
    site.write(
        "content/en/posts/media.md",
        &post(
            "Media",
            "2024-05-01T09:00:00Z",
            "Watch {{ youtube(id=\"abc\", start=5) }} now.\n\n<!-- more -->\n\n{{ figure(src=\"cat.jpg\", caption=\"A <cat> & a dog\") }}\n\n{% note(title=\"Heads up\") %}\nSome **bold** and {{ vimeo(id=\"42\") }}.\n{% end %}\n\n{% details(summary=\"More\") %}\nHidden.\n{% end %}\n\n`{{ youtube(id=\"code\") }}` and {{/* youtube(id=\"x\") */}}.\n\n```\n{% note() %}\n```\n",
        ),
    );
    site.write(
        "content/en/posts/own.md",
        &post(
            "Own",
            "2024-04-01T09:00:00Z",
            "{{ stars(n=3) }}\n\n{% warning() %}\nCareful.\n{% end %}\n",
        ),
    );
    site.write(
        "content/en/posts/plain.md",
        &post("Plain", "2024-03-01T09:00:00Z", "No calls."),
    );
    site.write(
        "templates/shortcodes/stars.html",
        "<span class=\"stars\">{% for i in range(n) %}★{% endfor %}</span>",
    );
    site.build();
    site
}

fn content(html: &str) -> &str {
    let start = html.find("<div class=\"content\">").expect("content");
    let end = start + html[start..].find("</article>").unwrap();
    &html[start..end]
}

#[test]
fn folio_s_shortcodes_and_the_site_s_own_are_rendered_where_they_are_called() {
    let site = site(false);
    let media = site.read("public/posts/media/index.html");
    let body = content(&media);
    assert!(
        body.contains("<p>Watch <div class=\"embed video\"><iframe src=\"https://www.youtube-nocookie.com/embed/abc?start=5\""),
        "{body}"
    );
    assert!(
        body.contains("<figure><img src=\"cat.jpg\" alt=\"A &lt;cat&gt; &amp; a dog\" loading=\"lazy\"><figcaption>A &lt;cat&gt; &amp; a dog</figcaption></figure>"),
        "{body}"
    );
    assert!(!body.contains("<p><figure>"), "{body}");
    assert!(
        body.contains("<aside class=\"admonition note\" role=\"note\"><p class=\"admonition-title\">Heads up</p>\n<p>Some <strong>bold</strong> and <div class=\"embed video\"><iframe src=\"https://player.vimeo.com/video/42?dnt=1\""),
        "{body}"
    );
    assert!(
        body.contains("<details><summary>More</summary>\n<p>Hidden.</p>"),
        "{body}"
    );
    // Never in code; an escaped call is written as a call.
    assert!(
        body.contains("<code>{{ youtube(id=\"code\") }}</code>"),
        "{body}"
    );
    assert!(body.contains("and {{ youtube(id=\"x\") }}."), "{body}");
    assert!(
        body.contains("<pre><code>{% note() %}\n</code></pre>"),
        "{body}"
    );
    // The summary, in the home's list, renders its call too.
    let home = site.read("public/index.html");
    assert!(
        home.contains("youtube-nocookie.com/embed/abc?start=5"),
        "{home}"
    );
    let own = content(&site.read("public/posts/own/index.html")).to_owned();
    assert!(own.contains("<span class=\"stars\">★★★</span>"), "{own}");
    assert!(own.contains("<aside class=\"admonition warning\""), "{own}");
}

#[test]
fn a_call_that_names_nothing_fails_with_file_line_and_the_nearest_and_writes_nothing() {
    let site = site(false);
    let before = site.output_tree();
    site.write(
        "content/en/posts/plain.md",
        &post(
            "Plain",
            "2024-03-01T09:00:00Z",
            "Line.\n\n{{ youtub(id=\"x\") }}",
        ),
    );
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains(
            "content/en/posts/plain.md:7: shortcode `youtub`: there is no such shortcode"
        ),
        "{error}"
    );
    assert!(error.contains("did you mean `youtube`?"), "{error}");
    site.write(
        "content/en/posts/plain.md",
        &post(
            "Plain",
            "2024-03-01T09:00:00Z",
            "{{ figure(scr=\"x.jpg\") }}",
        ),
    );
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains("content/en/posts/plain.md:5: shortcode `figure`: it has no argument `scr`"),
        "{error}"
    );
    assert!(error.contains("did you mean `src`?"), "{error}");
    site.write(
        "content/en/posts/plain.md",
        &post(
            "Plain",
            "2024-03-01T09:00:00Z",
            "{% note() %}\nnever closed\n",
        ),
    );
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains("content/en/posts/plain.md:5: `{% note(…) %}` has no `{% end %}` after it"),
        "{error}"
    );
    assert_eq!(site.output_tree(), before, "the build wrote nothing");
}

/// A shortcode's template renders again the pages of the documents that
/// call it (their own, and the lists and feeds showing them), and nothing
/// else.
fn a_shortcode_template_edit_renders_exactly_its_callers(kept: bool) {
    let site = site(kept);
    site.write(
        "templates/shortcodes/stars.html",
        "<span class=\"stars\">{% for i in range(n) %}*{% endfor %}</span>",
    );
    // Own's summary, its first paragraph, is its call of stars: the home,
    // the posts section and the feed show it.
    site.assert_rebuild(
        &[
            "atom.xml",
            "index.html",
            "posts/index.html",
            "posts/own/index.html",
        ],
        &[],
    );
    // The home, the posts section and the feed show media's summary, which
    // calls youtube.
    site.write(
        "templates/shortcodes/youtube.html",
        "<div class=\"video\">{{ id }}@{{ start }}</div>",
    );
    site.assert_rebuild(
        &[
            "atom.xml",
            "index.html",
            "posts/index.html",
            "posts/media/index.html",
        ],
        &[],
    );
    assert!(
        site.read("public/index.html")
            .contains("<div class=\"video\">abc@5</div>")
    );
}

#[test]
fn a_shortcode_template_edit_renders_exactly_its_callers_through_fresh_builds() {
    a_shortcode_template_edit_renders_exactly_its_callers(false);
}

#[test]
fn a_shortcode_template_edit_renders_exactly_its_callers_through_a_kept_session() {
    a_shortcode_template_edit_renders_exactly_its_callers(true);
}

/// A link in the Markdown a call encloses is the document's as much as one
/// outside it: checked, and where it leads in its page's fingerprint.
fn a_link_inside_a_note_follows_its_target(kept: bool) {
    let site = site(kept);
    site.write(
        "content/en/posts/pointer.md",
        &post(
            "Pointer",
            "2024-02-01T09:00:00Z",
            "First.\n\n{% note() %}\nSee [own](@/en/posts/own.md).\n{% end %}\n",
        ),
    );
    site.build();
    let page = site.read("public/posts/pointer/index.html");
    assert!(page.contains("<a href=\"/posts/own/\">own</a>"), "{page}");
    // Own moves: the note's link follows it, in a page nothing else of
    // which changed.
    let own = site.read("content/en/posts/own.md");
    site.write(
        "content/en/posts/own.md",
        &own.replace("title: Own", "title: Own\npermalink: /elsewhere/mine/"),
    );
    let report = site.build();
    let page = site.read("public/posts/pointer/index.html");
    assert!(
        page.contains("<a href=\"/elsewhere/mine/\">own</a>"),
        "{page}"
    );
    assert!(
        report
            .written
            .iter()
            .any(|p| p.ends_with("posts/pointer/index.html")),
        "{report:?}"
    );
    // A link in a note that leads nowhere is named with its line.
    site.write(
        "content/en/posts/pointer.md",
        &post(
            "Pointer",
            "2024-02-01T09:00:00Z",
            "First.\n\n{% note() %}\n{% details(summary=\"More\") %}\nSee [gone](@/en/posts/gone.md).\n{% end %}\n{% end %}\n",
        ),
    );
    let error = site.try_build().unwrap_err().to_string();
    // Named once, at its line, though two calls enclose it.
    assert!(error.contains("content/en/posts/pointer.md:9:"), "{error}");
    assert_eq!(error.matches("leads nowhere").count(), 1, "{error}");
}

#[test]
fn a_link_inside_a_note_follows_its_target_through_fresh_builds() {
    a_link_inside_a_note_follows_its_target(false);
}

#[test]
fn a_link_inside_a_note_follows_its_target_through_a_kept_session() {
    a_link_inside_a_note_follows_its_target(true);
}

#[test]
fn a_link_a_shortcode_template_writes_is_checked_and_follows_its_target() {
    for kept in [false, true] {
        let site = site(kept);
        site.write(
            "templates/shortcodes/card.html",
            "<a class=\"card\" href=\"@/{{ path }}\">{{ path }}</a>",
        );
        let pointer = |path: &str| {
            let body = format!("First.\n\n{{{{ card(path=\"{path}\") }}}}\n");
            site.write(
                "content/en/posts/pointer.md",
                &post("Pointer", "2024-02-01T09:00:00Z", &body),
            );
        };
        pointer("posts/own.md");
        site.build();
        let page = site.read("public/posts/pointer/index.html");
        assert!(
            page.contains("<a class=\"card\" href=\"/posts/own/\">"),
            "{page}"
        );
        let own = site.read("content/en/posts/own.md");
        site.write(
            "content/en/posts/own.md",
            &own.replace("title: Own", "title: Own\npermalink: /elsewhere/mine/"),
        );
        site.build();
        let page = site.read("public/posts/pointer/index.html");
        assert!(
            page.contains("<a class=\"card\" href=\"/elsewhere/mine/\">"),
            "kept {kept}: {page}"
        );
        pointer("posts/gone.md");
        let error = site.try_build().unwrap_err().to_string();
        assert!(
            error.contains(
                "content/en/posts/pointer.md:7: the link `@/posts/gone.md` leads nowhere"
            ),
            "{error}"
        );
        // Called inside another call's body, or by a section's
        // `_index.md`, or given a whole link (which its template escapes
        // as `@&#x2f;…`): the same.
        pointer("posts/own.md");
        site.write(
            "content/en/posts/nested.md",
            &post(
                "Nested",
                "2024-01-01T09:00:00Z",
                "{% note() %}\nSee {{ card(path=\"posts/gone.md\") }}.\n{% end %}\n",
            ),
        );
        let error = site.try_build().unwrap_err().to_string();
        assert!(
            error
                .contains("content/en/posts/nested.md:6: the link `@/posts/gone.md` leads nowhere"),
            "{error}"
        );
        site.remove("content/en/posts/nested.md");
        site.write(
            "content/en/posts/_index.md",
            "---\ntitle: Posts\n---\nIntro {{ card(path=\"posts/gone.md\") }}.\n",
        );
        let error = site.try_build().unwrap_err().to_string();
        assert!(
            error
                .contains("content/en/posts/_index.md:4: the link `@/posts/gone.md` leads nowhere"),
            "{error}"
        );
        site.write(
            "content/en/posts/_index.md",
            "---\ntitle: Posts\n---\n{{ figure(src=\"cat.jpg\", link=\"@/posts/gone.md\") }}\n",
        );
        let error = site.try_build().unwrap_err().to_string();
        assert!(
            error
                .contains("content/en/posts/_index.md:4: the link `@/posts/gone.md` leads nowhere"),
            "{error}"
        );
    }
}
