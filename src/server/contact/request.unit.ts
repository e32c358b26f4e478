import { describe, expect, it } from "vitest";
import { bodyKind, BodyTooLarge, isSameOrigin, readBodyWithLimit, isFormWithoutOrigin } from "./request";

const headers = (h: Record<string, string>) => new Headers(h);

describe("isSameOrigin", () => {
  it.each([
    [{ origin: "http://dupont.dev.localhost:3000" }, "dupont.dev.localhost:3000", true],
    [{ origin: "https://www.cabinet-dupont.fr" }, "www.cabinet-dupont.fr", true],
    [{ origin: "https://WWW.Cabinet-Dupont.fr" }, "www.cabinet-dupont.fr:443", true],
    [{ referer: "https://www.cabinet-dupont.fr/contact/" }, "www.cabinet-dupont.fr", true],
    [{}, "www.cabinet-dupont.fr", true],
    [{ origin: "https://cabinet-dupont.fr" }, "www.cabinet-dupont.fr", false],
    [{ origin: "https://www.cabinet-dupont.fr.evil.example" }, "www.cabinet-dupont.fr", false],
    [{ origin: "null" }, "www.cabinet-dupont.fr", false],
    [{ origin: "file://" }, "www.cabinet-dupont.fr", false],
    [{ referer: "not a url" }, "www.cabinet-dupont.fr", false],
    // The Origin decides when both are present.
    [{ origin: "https://evil.example", referer: "https://www.cabinet-dupont.fr/contact/" }, "www.cabinet-dupont.fr", false],
  ])("%j on %s -> %s", (h, host, same) => {
    expect(isSameOrigin(headers(h), host)).toBe(same);
  });
});

describe("bodyKind", () => {
  it.each([
    ["application/json", "json"],
    ["application/json; charset=utf-8", "json"],
    ["Application/X-WWW-Form-Urlencoded;charset=UTF-8", "form"],
    ["multipart/form-data; boundary=x", null],
    ["text/plain", null],
    [null, null],
  ])("%s -> %s", (type, kind) => {
    expect(bodyKind(type)).toBe(kind);
  });
});

describe("readBodyWithLimit", () => {
  it("reads a body up to the limit", async () => {
    expect(await readBodyWithLimit(new Request("http://x/", { method: "POST", body: "é".repeat(5) }), 10)).toBe("ééééé");
  });
  it("refuses one byte more", async () => {
    await expect(readBodyWithLimit(new Request("http://x/", { method: "POST", body: "x".repeat(11) }), 10)).rejects.toBeInstanceOf(BodyTooLarge);
  });
});

describe("isFormWithoutOrigin", () => {
  it("refuses what a cross-site HTML form can send without naming its Origin; a JSON post needs none", () => {
    const h = (headers: Record<string, string>) => new Headers(headers);
    for (const type of ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain;charset=utf-8"]) {
      expect(isFormWithoutOrigin(h({ "content-type": type })), type).toBe(true);
      expect(isFormWithoutOrigin(h({ "content-type": type, origin: "http://dupont.example" })), type).toBe(false);
    }
    expect(isFormWithoutOrigin(h({}))).toBe(true); // no type: text/plain to a form
    expect(isFormWithoutOrigin(h({ "content-type": "application/json" }))).toBe(false);
  });
});
