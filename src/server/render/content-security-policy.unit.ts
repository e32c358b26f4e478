import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { imageOrigins, inlineScriptHashes, MAX_IMAGE_ORIGINS, pagePolicy, resourcePolicy, withPagePolicy } from "./content-security-policy";

const sha = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

describe("inlineScriptHashes", () => {
  it("hashes each executable inline script once, in document order", () => {
    const html = [
      `<script id="qwikloader">(()=>{a()})()</script>`,
      `<script>window.qwikevents.push("click")</script>`,
      `<SCRIPT type="module">import "x"</SCRIPT >`,
      `<script type='text/javascript'>b()</script>`,
      `<script>window.qwikevents.push("click")</script>`,
    ].join("");
    expect(inlineScriptHashes(html)).toEqual([
      sha("(()=>{a()})()"),
      sha('window.qwikevents.push("click")'),
      sha('import "x"'),
      sha("b()"),
    ]);
  });

  it("leaves out data blocks and external scripts", () => {
    const html = [
      `<script type="qwik/json">{"refs":{}}</script>`,
      `<script type="application/ld+json">{"@type":"Dentist"}</script>`,
      `<script defer src="https://stats.example.org/script.js" data-website-id="x"></script>`,
      `<script q:func="qwik/json">document["qFuncs_1"]=[]</script>`,
    ].join("");
    // q:func is an attribute, not a type: that script runs, and is the one that changes with every render.
    expect(inlineScriptHashes(html)).toEqual([sha('document["qFuncs_1"]=[]')]);
  });

  it("does not take data-src for an external script", () => {
    expect(inlineScriptHashes(`<script data-src="x">c()</script>`)).toEqual([sha("c()")]);
  });

  it("hashes the text as the browser parses it (CR LF and CR become LF)", () => {
    expect(inlineScriptHashes("<script>a()\r\nb()\rc()</script>")).toEqual([sha("a()\nb()\nc()")]);
  });

  it("hashes the UTF-8 bytes of non-ASCII text", () => {
    expect(inlineScriptHashes("<script>t('Été')</script>")).toEqual([sha("t('Été')")]);
  });
});

describe("policies", () => {
  it("a page: no 'unsafe-inline' for scripts, its hashes, the build-time origins", () => {
    const policy = pagePolicy(
      {
        cmsOrigin: "https://cms.example.org/admin",
        analyticsUrl: "https://stats.example.org/script.js",
        errorTrackingDsn: "https://key@errors.example.org/42",
      },
      ["'sha256-abc'"],
    );
    const directives = Object.fromEntries(policy.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1).join(" ")]));
    expect(directives["default-src"]).toBe("'none'");
    expect(directives["script-src"]).toBe("'self' https://stats.example.org 'sha256-abc'");
    expect(directives["connect-src"]).toBe("'self' https://stats.example.org https://errors.example.org");
    expect(directives["frame-ancestors"]).toBe("'self' https://cms.example.org");
    expect(directives["script-src"]).not.toContain("unsafe");
    expect(policy).not.toContain("key@");
  });

  it("a page without analytics or reporter names only 'self' and its hashes", () => {
    const policy = pagePolicy({ cmsOrigin: undefined, analyticsUrl: "not a url" }, []);
    expect(policy).toContain("script-src 'self'; ");
    expect(policy).toContain("connect-src 'self'; ");
    expect(policy).toContain("frame-ancestors 'self'; ");
  });

  it("any other response loads and runs nothing", () => {
    expect(resourcePolicy({ cmsOrigin: undefined })).toBe(
      "default-src 'none'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'",
    );
  });
});

describe("withPagePolicy", () => {
  const opts = { cmsOrigin: undefined };

  it("adds the page policy to an HTML render and keeps its bytes, status and cookies", async () => {
    const html = "<html><body><script>go()</script></body></html>";
    const headers = new Headers({ "content-type": "text/html; charset=utf-8" });
    headers.append("set-cookie", "a=1");
    headers.append("set-cookie", "b=2");
    const out = await withPagePolicy(new Response(html, { status: 404, headers }), opts);
    expect(out.status).toBe(404);
    expect(await out.text()).toBe(html);
    expect(out.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(out.headers.get("content-security-policy")).toBe(pagePolicy(opts, [sha("go()")]));
  });

  it("gives the same header for the same bytes (a cache hit replays what a render would send)", async () => {
    const render = () => new Response("<script>x()</script>", { headers: { "content-type": "text/html" } });
    const [a, b] = await Promise.all([withPagePolicy(render(), opts), withPagePolicy(render(), opts)]);
    expect(a.headers.get("content-security-policy")).toBe(b.headers.get("content-security-policy"));
  });

  it("leaves other types alone (they keep the policy of every response)", async () => {
    const json = new Response('{"a":1}', { headers: { "content-type": "application/json" } });
    const out = await withPagePolicy(json, opts);
    expect(out).toBe(json);
    expect(out.headers.get("content-security-policy")).toBeNull();
  });
});

describe("imageOrigins", () => {
  it("names the origins of the page's absolute image URLs, src and srcset, once each", () => {
    const html = [
      `<img src="https://media.example.org/media/a.webp" srcset="https://media.example.org/media/a-480w.webp 480w, http://127.0.0.1:8000/media/a-960w.webp 960w">`,
      `<picture><source srcset='https://cdn.example.net/x.webp?a=1&amp;b=2 2x'><img src="/api/media?path=%2Fmedia%2Fx"></picture>`,
      `<img src=https://bare.example.com/y.png alt=y>`,
      `<a href="https://not-an-image.example.org/">x</a>`,
    ].join("");
    expect(imageOrigins(html)).toEqual([
      "https://media.example.org",
      "http://127.0.0.1:8000",
      "https://cdn.example.net",
      "https://bare.example.com",
    ]);
  });

  it("leaves out what is not plainly an origin, and stops at the bound", () => {
    expect(imageOrigins(`<img src="http://a;script-src:1/x.png"><img src="javascript:alert(1)"><img src="data:image/png;base64,AA">`)).toEqual([]);
    const many = Array.from({ length: 20 }, (_, i) => `<img src="https://h${i}.example.org/x.png">`).join("");
    expect(imageOrigins(many)).toHaveLength(MAX_IMAGE_ORIGINS);
  });

  it("a page's policy lists them in img-src", () => {
    expect(pagePolicy({ cmsOrigin: undefined }, [], ["https://media.example.org"])).toContain(
      "img-src 'self' data: https://media.example.org;",
    );
  });
});
