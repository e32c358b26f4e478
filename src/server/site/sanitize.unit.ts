import { describe, expect, it } from "vitest";
import { safeHref, safeMediaUrl, sanitizeRichText } from "./sanitize";

/** What must never survive, whatever the input: checked on every hostile case below. */
function expectHarmless(out: string) {
  expect(out).not.toMatch(/<\s*(script|iframe|style|svg|math|object|embed|img|form|input|button|base|meta|link|template)/i);
  expect(out).not.toMatch(/\son[a-z]+\s*=/i);
  expect(out).not.toMatch(/javascript:|vbscript:|data:/i);
  expect(out).not.toMatch(/\sstyle\s*=/i);
  expect(out).not.toMatch(/\ssrc\s*=/i);
}

describe("sanitizeRichText", () => {
  it("keeps the contract's tags and safe links intact", () => {
    const html =
      "<h2>Titre</h2><p>Un <strong>soin</strong> <em>doux</em>.<br>Suite</p><h3>Sous-titre</h3>" +
      '<ul><li><a href="/contact/">Contact</a></li><li><a href="https://example.org/a?b=1&amp;c=2">Lien</a></li></ul>' +
      '<ol><li><a href="mailto:contact@example.org">Écrire</a></li><li><a href="tel:+33478000000">Appeler</a></li></ol>';
    expect(sanitizeRichText(html)).toBe(html.replace("<br>", "<br />"));
  });

  it("keeps relative links of every shape", () => {
    for (const href of ["/implantologie/", "acces/", "#horaires", "../tarifs/", "?page=2"]) {
      expect(sanitizeRichText(`<p><a href="${href}">x</a></p>`)).toBe(`<p><a href="${href}">x</a></p>`);
    }
  });

  const hostile: [string, string][] = [
    ["script tag", '<p>a</p><script>alert(1)</script><p>b</p>'],
    ["script with attributes", '<script src="https://evil.example/x.js"></script>'],
    ["uppercase script", "<SCRIPT>alert(1)</SCRIPT>"],
    ["script split by a null byte", "<scr\u0000ipt>alert(1)</script>"],
    ["event handler on an allowed tag", '<p onclick="alert(1)" onmouseover="alert(2)">x</p>'],
    ["event handler on a link", '<a href="/x" onfocus="alert(1)" autofocus>x</a>'],
    ["img onerror", '<img src="x" onerror="alert(1)">'],
    ["svg onload", '<svg onload="alert(1)"><circle r="1"/></svg>'],
    ["svg with a script inside", "<svg><script>alert(1)</script></svg>"],
    ["math with a link", '<math><mtext><a href="javascript:alert(1)">x</a></mtext></math>'],
    ["javascript: link", '<a href="javascript:alert(1)">x</a>'],
    ["JavaScript: in mixed case", '<a href="JaVaScRiPt:alert(1)">x</a>'],
    ["javascript: with leading whitespace", '<a href="  javascript:alert(1)">x</a>'],
    ["javascript: with a tab inside", '<a href="java\tscript:alert(1)">x</a>'],
    ["javascript: with a newline inside", '<a href="java\nscript:alert(1)">x</a>'],
    ["javascript: entity-encoded", '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>'],
    ["javascript: hex-entity-encoded", '<a href="&#x6A;avascript&#x3A;alert(1)">x</a>'],
    ["javascript: with an encoded colon", '<a href="javascript&colon;alert(1)">x</a>'],
    ["javascript: behind a control character", '<a href="\u0001javascript:alert(1)">x</a>'],
    ["data: URL", '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>'],
    ["vbscript: URL", '<a href="vbscript:msgbox(1)">x</a>'],
    ["iframe", '<iframe src="https://evil.example"></iframe>'],
    ["iframe srcdoc", '<iframe srcdoc="<script>alert(1)</script>"></iframe>'],
    ["object and embed", '<object data="x.swf"></object><embed src="x.swf">'],
    ["style element", "<style>body{display:none}</style>"],
    ["style attribute", '<p style="background:url(javascript:alert(1))">x</p>'],
    ["form and input", '<form action="https://evil.example"><input name="card"><button>Payer</button></form>'],
    ["base and meta refresh", '<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=https://evil.example">'],
    ["link stylesheet", '<link rel="stylesheet" href="https://evil.example/x.css">'],
    ["nested tag trick", "<scr<script>ipt>alert(1)</scr</script>ipt>"],
    ["comment-wrapped script", "<!--<script>-->alert(1)<!--</script>-->"],
    ["unclosed attribute quote", '<p title="x><script>alert(1)</script>">y</p>'],
    ["template", "<template><script>alert(1)</script></template>"],
    ["noscript", '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></p></noscript>'],
    ["CDATA", "<![CDATA[<script>alert(1)</script>]]>"],
  ];

  it.each(hostile)("neutralises %s", (_what, html) => {
    expectHarmless(sanitizeRichText(html));
  });

  it("drops a protocol-relative link that would leave the site", () => {
    expect(sanitizeRichText('<a href="//evil.example/x">x</a>')).toBe("<a>x</a>");
    expect(sanitizeRichText('<a href="/\\evil.example/x">x</a>')).toBe("<a>x</a>");
  });

  it("keeps the text around what it removes", () => {
    expect(sanitizeRichText('<p>avant</p><script>alert(1)</script><p onclick="x()">après</p>')).toBe("<p>avant</p><p>après</p>");
    expect(sanitizeRichText("<div><span>texte</span></div>")).toBe("texte");
  });

  it("drops the content of script-like elements, not only the tags", () => {
    expect(sanitizeRichText("<script>alert(1)</script>")).toBe("");
    expect(sanitizeRichText("<style>p{}</style>")).toBe("");
    expect(sanitizeRichText('<svg><text>svg</text></svg><iframe>frame</iframe>')).toBe("");
  });

  it("escapes text that looks like markup", () => {
    expect(sanitizeRichText("<p>1 &lt; 2 &amp; 3 &gt; 2</p>")).toBe("<p>1 &lt; 2 &amp; 3 &gt; 2</p>");
  });

  it("drops h1 (the page has its own) but keeps its text", () => {
    expect(sanitizeRichText("<h1>Titre</h1>")).toBe("Titre");
  });
});

describe("safeHref", () => {
  it.each(["/contact/", "acces/", "#top", "?a=1", "https://booking.example.org/x", "http://a.example", "mailto:a@b.fr", "tel:+33478000000", "/a:b/"])(
    "keeps %s",
    (href) => {
      expect(safeHref(href)).toBe(href);
    },
  );

  it.each([
    "javascript:alert(1)",
    " JavaScript:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:x",
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "\u0001javascript:alert(1)",
    "",
    null,
    undefined,
  ])("refuses %j", (href) => {
    expect(safeHref(href)).toBeNull();
  });
});

describe("safeMediaUrl", () => {
  it("keeps absolute http(s) URLs and refuses the rest", () => {
    expect(safeMediaUrl("https://cms.example.org/media/a.webp")).toBe("https://cms.example.org/media/a.webp");
    expect(safeMediaUrl("javascript:alert(1)")).toBeNull();
    expect(safeMediaUrl("data:image/png;base64,AAAA")).toBeNull();
    expect(safeMediaUrl("/media/a.webp")).toBeNull();
  });
});
