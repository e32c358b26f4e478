import { describe, expect, it } from "vitest";
import { mediaPathOf, mediaProxyUrl } from "./url";

describe("mediaProxyUrl", () => {
  it("passes the media path, not the URL, whatever the backend's public origin", () => {
    expect(mediaProxyUrl("https://cms.example.org/media/dupont/logo.svg")).toBe("/api/media?path=%2Fmedia%2Fdupont%2Flogo.svg");
    expect(mediaProxyUrl("http://127.0.0.1:4000/media/dupont/logo.svg")).toBe("/api/media?path=%2Fmedia%2Fdupont%2Flogo.svg");
  });

  it("drops the query and fragment of the backend URL", () => {
    expect(mediaProxyUrl("https://cms.example.org/media/a.png?v=2#x")).toBe("/api/media?path=%2Fmedia%2Fa.png");
  });

  it("refuses what is not a backend media file", () => {
    expect(mediaProxyUrl("https://cms.example.org/admin/secret")).toBeNull();
    expect(mediaProxyUrl("/media/relative.png")).toBeNull();
    expect(mediaProxyUrl("javascript:alert(1)")).toBeNull();
    expect(mediaProxyUrl(null)).toBeNull();
  });
});

describe("mediaPathOf", () => {
  it("keeps the /media/ path of a media URL, whatever origin it names", () => {
    expect(mediaPathOf("https://cms.example.org/media/dupont/logo.svg")).toBe("/media/dupont/logo.svg");
    expect(mediaPathOf("http://127.0.0.1:4000/media/x%20y.png?v=2")).toBe("/media/x%20y.png");
  });

  it.each([
    "https://cms.example.org/api/v1/websites/sites/dupont/config/",
    "https://cms.example.org/media/../etc/passwd",
    "https://cms.example.org/media/%2e%2e/secret",
    "https://cms.example.org/media/a%5c..%5cb",
    "https://cms.example.org/media/%E0%A4%A",
    "file:///media/logo.svg",
    "/media/logo.svg",
    "not a url",
  ])("refuses %s", (url) => {
    expect(mediaPathOf(url)).toBeNull();
  });
});
