import { describe, expect, it } from "vitest";
import { isServedPort } from "./host";
import { parseRegistry } from "./registry";
import { isInternalPath, publicPath, resolveHost, type HostRules } from "./resolve-host";

const registry = parseRegistry([
  { code: "dupont", domains: ["www.cabinet-dupont.fr", "cabinet-dupont.fr"] },
  { code: "martin", domains: ["www.centre-dentaire-martin.fr"] },
]);
const rules: HostRules = { registry, environment: "dev", previewDomain: "localhost" };

describe("resolveHost", () => {
  it.each([
    // registered domains: any case, ports, trailing dot
    ["www.cabinet-dupont.fr", "dupont"],
    ["WWW.Cabinet-Dupont.FR", "dupont"],
    ["cabinet-dupont.fr:443", "dupont"],
    ["www.cabinet-dupont.fr.", "dupont"],
    ["www.cabinet-dupont.fr.:8080", "dupont"],
    ["www.centre-dentaire-martin.fr", "martin"],
    // preview hosts of this environment: any code, the backend decides whether it exists
    ["dupont.dev.localhost", "dupont"],
    ["dupont.dev.localhost:3000", "dupont"],
    ["DUPONT.DEV.LOCALHOST", "dupont"],
    ["nouveau-cabinet.dev.localhost", "nouveau-cabinet"],
    ["martin.dev.localhost.", "martin"],
  ])("%s -> %s", (host, code) => {
    expect(resolveHost(host, rules)).toBe(code);
  });

  it.each([
    // preview hosts of another environment
    "dupont.staging.localhost",
    "dupont.prod.localhost",
    // look-alikes
    "dupont.dev.localhost.evil.test",
    "evil-dupont.dev.localhost.evil.test",
    "x.dupont.dev.localhost",
    "dev.localhost",
    ".dev.localhost",
    "-dupont.dev.localhost",
    "dupont-.dev.localhost",
    "cabinet-dupont.fr.evil.test",
    "evilcabinet-dupont.fr",
    "www.cabinet-dupont.fr.evil.test",
    "localhost",
    // empty and malformed
    "",
    "   ",
    ":3000",
    "dupont.dev.localhost:abc",
    "dupont.dev.localhost:3000:1",
    // a port above 65535 is no port (it used to reach a URL parser and answer 500)
    "dupont.dev.localhost:65536",
    "dupont.dev.localhost:99999",
    // a port spelt with a leading zero: `:03400` beside `:3400` made a second cache key (issue 26)
    "dupont.dev.localhost:03400",
    "dupont.dev.localhost:080",
    "dupont.dev.localhost:0",
    "user@www.cabinet-dupont.fr",
    "www.cabinet-dupont.fr/path",
    "www.cabinet_dupont.fr",
    "127.0.0.1",
    "[::1]:3000",
    "dupont..dev.localhost",
    "a".repeat(300) + ".dev.localhost",
  ])("%j -> no practice", (host) => {
    expect(resolveHost(host, rules)).toBeNull();
  });

  it("treats a missing Host header as no practice", () => {
    expect(resolveHost(undefined, rules)).toBeNull();
    expect(resolveHost(null, rules)).toBeNull();
  });

  it("maps preview hosts of another environment when that is the running one", () => {
    expect(resolveHost("dupont.staging.localhost", { ...rules, environment: "staging" })).toBe("dupont");
    expect(resolveHost("dupont.dev.localhost", { ...rules, environment: "staging" })).toBeNull();
  });

  it("has no preview hosts when no preview domain is configured", () => {
    expect(resolveHost("dupont.dev.localhost", { ...rules, previewDomain: undefined })).toBeNull();
    expect(resolveHost("www.cabinet-dupont.fr", { ...rules, previewDomain: undefined })).toBe("dupont");
  });
});

describe("isInternalPath", () => {
  it.each(["/_sites", "/_sites/", "/_sites/martin/", "/_SITES/martin/", "//_sites/martin/", "/%5Fsites/martin/", "/%5fsites", "/_sites/dupont/q-data.json", "/%E0%A4%A"])(
    "%s is internal",
    (path) => {
      expect(isInternalPath(path)).toBe(true);
    },
  );
  it.each(["/", "/contact/", "/_sitesmap/", "/sites/", "/a/_sites/"])("%s is public", (path) => {
    expect(isInternalPath(path)).toBe(false);
  });
});

describe("publicPath", () => {
  it("strips the internal prefix of this practice only", () => {
    expect(publicPath("/_sites/dupont/implantologie/", "dupont")).toBe("/implantologie/");
    expect(publicPath("/_sites/dupont/", "dupont")).toBe("/");
    expect(publicPath("/_sites/dupont", "dupont")).toBe("/");
    expect(publicPath("/contact/", "dupont")).toBe("/contact/");
  });
});

describe("isServedPort", () => {
  it.each([
    ["www.cabinet-dupont.fr", true],
    ["www.cabinet-dupont.fr:443", true],
    ["www.cabinet-dupont.fr:80", true],
    ["dupont.dev.localhost:3000", true],
    ["dupont.dev.localhost:3001", false],
    ["www.cabinet-dupont.fr:8443", false],
  ])("%s on a server listening on 3000 -> %s", (host, served) => {
    expect(isServedPort(host, 3000)).toBe(served);
  });
});
