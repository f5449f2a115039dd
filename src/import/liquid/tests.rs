use serde_json::{Map, Value, json};

use super::*;

/// A site of a few includes, a `baseurl`, one post to link to, and folio's
/// `youtube` for Vimeo-less `video`.
struct TestSite {
    site: Value,
}

impl TestSite {
    fn new() -> TestSite {
        TestSite {
            site: json!({"title": "Mistakes", "url": "https://x.io", "baseurl": "/mm",
                         "data": {"nav": [{"title": "A", "url": "/a/"}, {"title": "B", "url": "/b/"}]}}),
        }
    }
}

impl Site for TestSite {
    fn site(&self) -> &Value {
        &self.site
    }

    fn include(&self, name: &str) -> Option<String> {
        match name {
            "note.html" => {
                Some("<div class=\"note\">\n\n  {{ include.text | markdownify }}\n</div>\n".into())
            }
            "greet" => Some("Hello{% if include.name %}, {{ include.name }}{% endif %}!".into()),
            "loop" => Some("{% include loop %}".into()),
            "posts" => Some("{% for post in site.posts %}{{ post.title }}{% endfor %}".into()),
            _ => None,
        }
    }

    fn shortcode(&self, name: &str, params: &Map<String, Value>) -> Option<String> {
        (name == "video").then(|| {
            format!(
                "{{{{ youtube(id=\"{}\") }}}}",
                params["id"].as_str().unwrap()
            )
        })
    }

    fn document_link(&self, _tag: &str, argument: &str) -> Option<String> {
        (argument == "2010-09-09-gallery").then(|| "@/en/posts/2010-09-09-gallery.md".into())
    }
}

fn run(text: &str, page: Value) -> Evaluated {
    evaluate(text, &page, &TestSite::new()).expect("reads")
}

#[test]
fn variables_filters_and_conditions_are_read_as_jekyll_reads_them() {
    let page = json!({"title": "Post", "tags": ["a", "b"], "n": 3});
    let out = run(
        "{{ page.title | upcase }} on {{ site.title }} ({{ page.tags | join: \", \" }}).\n\
         {% assign who = \"World\" %}{% capture shout %}Hi {{ who }}{% endcapture %}{{ shout | append: \"!\" }}\n\
         {% if page.missing %}no{% elsif page.n > 2 and page.tags contains \"b\" %}yes{% else %}no{% endif %}\n\
         {% unless page.missing %}nil is false{% endunless %} [a]({{ \"/docs/\" | relative_url }})\n\
         {%- comment -%} gone {%- endcomment -%}\n",
        page,
    );
    // `-%}` takes the white space after it, the last line break too.
    assert_eq!(
        out.text,
        "POST on Mistakes (a, b).\nHi World!\nyes\nnil is false [a](/mm/docs/)"
    );
    assert!(out.left_out.is_empty(), "{:?}", out.left_out);
}

#[test]
fn dates_are_written_as_jekyll_writes_them_and_the_clock_is_not_read() {
    let out = run(
        "{{ page.date | date: \"%B %-d, %Y\" }}|{{ page.date | date_to_string }}|{{ page.at | date_to_xmlschema }}|{{ \"now\" | date: \"%Y\" }}",
        json!({"date": "2024-02-05", "at": "2024-02-05T10:30:00Z"}),
    );
    assert_eq!(
        out.text,
        "February 5, 2024|05 Feb 2024|2024-02-05T10:30:00+00:00|"
    );
    assert_eq!(
        out.left_out.keys().collect::<Vec<_>>(),
        ["the date `now` in the filter `date`"]
    );
}

#[test]
fn loops_cases_and_data_files_are_run() {
    let out = run(
        "{% for item in site.data.nav limit: 1 %}{{ forloop.index }}. {{ item.title }}{% endfor %}|\
         {% for x in page.none %}x{% else %}empty{% endfor %}|\
         {% case page.kind %}{% when \"a\", \"b\" %}ab{% else %}other{% endcase %}|{% for i in (1..3) reversed %}{{ i }}{% endfor %}",
        json!({"kind": "b"}),
    );
    assert_eq!(out.text, "1. A|empty|ab|321");
}

#[test]
fn includes_run_with_their_parameters_or_become_shortcodes() {
    let out = run(
        "{% include greet name = \"Ada\" %} {% include {{ page.greeting }} %}\n{% include video id=\"xyz\" provider=\"youtube\" %}\n",
        json!({"greeting": "greet"}),
    );
    assert_eq!(out.text, "Hello, Ada! Hello!\n{{ youtube(id=\"xyz\") }}\n");
    assert_eq!(out.converted["{% include greet %}"], 1);
}

#[test]
fn an_include_alone_on_its_line_is_one_html_block_and_never_takes_the_lines_after_it() {
    // Under the include, a link reference definition: CommonMark would
    // read it as part of the HTML block (or paragraph) above it.
    let out = run(
        "See [the docs][docs].\n\n{% include note.html text=\"**Bold**\" %}\n[docs]: https://x.io/docs/\n",
        json!({}),
    );
    assert_eq!(
        out.text,
        "See [the docs][docs].\n\n<div class=\"note\">\n  <p><strong>Bold</strong></p>\n</div>\n\n\n[docs]: https://x.io/docs/\n"
    );
    let html = super::filters::markdown_html(&out.text);
    assert!(
        html.contains("<a href=\"https://x.io/docs/\">the docs</a>"),
        "{html}"
    );
}

#[test]
fn what_needs_the_whole_site_is_left_out_and_counted_never_left_as_liquid() {
    let out = run(
        "A {% include posts %} B {{ page.title | number_of_words }} C {% include missing.html %} \
         D {% include loop %} E {{ paginator.page }} F {% seo %}\nG\n",
        json!({"title": "x"}),
    );
    assert_eq!(out.text, "A  B  C  D  E  F \nG\n");
    let why: Vec<&str> = out.left_out.keys().map(String::as_str).collect();
    assert_eq!(
        why,
        [
            "paginator",
            "site.posts",
            "the filter `number_of_words`",
            "{% include loop %}: includes itself",
            "{% include missing.html %}: not in _includes/",
            "{% seo %}",
        ]
    );
}

#[test]
fn raw_text_highlight_and_links_to_documents_become_folio_s() {
    let out = run(
        "{% raw %}{{ page.title }} {% if %}{% endraw %}\n{% highlight ruby linenos %}\nputs {{ page.n }}\n{% endhighlight %}\n\
         [g]({% post_url 2010-09-09-gallery %}) {% post_url 2001-01-01-gone %}\
         [h]({{ site.baseurl }}{% post_url 2010-09-09-gallery %}) [i]({{ \"\" | relative_url }}{% post_url 2010-09-09-gallery %})",
        json!({"n": 1}),
    );
    assert_eq!(
        raw_as_written(&out.text),
        "{{ page.title }} {% if %}\n```ruby,linenos\nputs 1\n```\n[g](@/en/posts/2010-09-09-gallery.md) \
         [h](@/en/posts/2010-09-09-gallery.md) [i](@/en/posts/2010-09-09-gallery.md)"
    );
    assert_eq!(out.left_out.len(), 1);
}

#[test]
fn a_folio_call_in_raw_text_is_escaped_outside_code_only() {
    let out = run(
        "{% raw %}{{ url_for(x=1) }}{% endraw %}\n\n```\n{% raw %}{{ url_for(x=1) }}{% endraw %}\n```\n\n\
         {% highlight text %}\n{% raw %}{{ x() }} ```{% endraw %}\n{% endhighlight %}\n",
        json!({}),
    );
    assert_eq!(
        raw_as_written(&out.text),
        "{{/* url_for(x=1) */}}\n\n```\n{{ url_for(x=1) }}\n```\n\n````text\n{{ x() }} ```\n````\n"
    );
}

#[test]
fn a_plugin_s_block_keeps_its_text_and_is_named() {
    let out = run(
        "{% githubify %}\nSee #12, {{ page.n }}.\n{% endgithubify %}\n",
        json!({"n": 1}),
    );
    assert_eq!(out.text, "\nSee #12, 1.\n\n");
    assert_eq!(
        out.left_out["{% githubify %} (a plugin's: its text kept without it)"],
        1
    );
}

#[test]
fn hostile_liquid_ends_without_a_panic() {
    // A `%}` right after `{%` inside raw text; a range of 9e18 items; a
    // hundred thousand nested blocks; an include that runs itself ten
    // times over, through another.
    assert_eq!(
        raw_as_written(&run("{% raw %}{%}{% endraw %}", json!({})).text),
        "{%}"
    );
    let out = run(
        "{% for i in (1..9000000000000000000) %}x{% endfor %}",
        json!({}),
    );
    assert_eq!(
        out.left_out.keys().next().unwrap(),
        "the range `(1..9000000000000000000)`, over 10000 items"
    );
    let deep = "{% if a %}".repeat(100_000);
    assert!(evaluate(&deep, &json!({}), &TestSite::new()).is_none());
    struct FanOut;
    impl Site for FanOut {
        fn site(&self) -> &Value {
            &Value::Null
        }
        fn include(&self, name: &str) -> Option<String> {
            let other = if name == "a" { "b" } else { "a" };
            Some(format!("{{% include {other} %}}").repeat(10))
        }
        fn shortcode(&self, _: &str, _: &Map<String, Value>) -> Option<String> {
            None
        }
        fn document_link(&self, _: &str, _: &str) -> Option<String> {
            None
        }
    }
    let out = evaluate("{% include a %}", &json!({}), &FanOut).unwrap();
    assert_eq!(out.text, "");
    assert_eq!(out.left_out.len(), 1, "{:?}", out.left_out);
}

#[test]
fn whatever_the_liquid_the_body_is_one_a_build_reads() {
    const PIECES: &[&str] = &[
        "{%",
        "%}",
        "{{",
        "}}",
        "{% if a %}",
        "{% endif %}",
        "{% for x in (1..3) %}",
        "{% endfor %}",
        "{% raw %}",
        "{% endraw %}",
        "{% include greet name=\"x\" %}",
        "{% capture c %}",
        "{% endcapture %}",
        "{{ c }}",
        "{% highlight rb %}",
        "{% endhighlight %}",
        "{: .c}",
        "```",
        "\n",
        "`",
        "x()",
        "é",
        " ",
        "{%-",
        "-%}",
        "{% include loop %}",
        "{% comment %}",
        "{% endcomment %}",
        "(",
        ")",
    ];
    for body in crate::import::shuffled(PIECES, 2_000, 0x2545_F491_4F6C_DD1D) {
        let Some(out) = evaluate(&body, &json!({"a": true}), &TestSite::new()) else {
            continue;
        };
        let (out, _) = crate::import::kramdown::attribute_lists(&raw_as_written(&out.text));
        let (out, _) = crate::import::shortcodes::escape_unread(&out);
        let read =
            crate::source::shortcodes::syntax::pieces(&out, crate::source::markdown::MARKDOWN);
        assert!(read.is_ok(), "{body:?}\n→ {out:?}\n{read:?}");
    }
}

#[test]
fn a_tag_left_open_is_not_read() {
    assert!(evaluate("{% if x %} never closed", &json!({}), &TestSite::new()).is_none());
    assert!(evaluate("{% endif %}", &json!({}), &TestSite::new()).is_none());
    // A lone brace, or `{{` without its end, is text.
    assert_eq!(run("a { b {{ c", json!({})).text, "a { b {{ c");
}
