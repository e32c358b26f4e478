import { describe, expect, it } from "vitest";
import { mediaProxyUrl } from "./media-url";

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
