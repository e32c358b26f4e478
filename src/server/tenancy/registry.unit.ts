import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadRegistry, parseRegistry, RegistryError } from "./registry";

describe("parseRegistry", () => {
  it("indexes normalised hosts and keeps extra fields out of the way", () => {
    const registry = parseRegistry([{ code: "dupont", domains: ["WWW.Cabinet-Dupont.fr"], note: "ok" }]);
    expect(registry.byHost.get("www.cabinet-dupont.fr")).toBe("dupont");
    expect(registry.practices).toEqual([{ code: "dupont", domains: ["www.cabinet-dupont.fr"] }]);
  });

  it.each([
    ["not an array", { code: "dupont" }, /expected array/],
    ["duplicate code", [{ code: "a", domains: [] }, { code: "a", domains: [] }], /duplicate code "a"/],
    [
      "duplicate domain across practices",
      [{ code: "a", domains: ["x.fr"] }, { code: "b", domains: ["X.fr"] }],
      /host "x.fr" is listed by both "a" and "b"/,
    ],
    ["host with scheme", [{ code: "a", domains: ["https://x.fr"] }], /malformed host "https:\/\/x.fr"/],
    ["host with port", [{ code: "a", domains: ["x.fr:80"] }], /malformed host "x.fr:80"/],
    ["host with path", [{ code: "a", domains: ["x.fr/a"] }], /malformed host/],
    ["empty host", [{ code: "a", domains: [""] }], /malformed host ""/],
    ["bad code", [{ code: "Dupont!", domains: [] }], /\[0\]\.\[code\]/],
    ["missing domains", [{ code: "a" }], /\[0\]\.\[domains\]/],
  ])("refuses %s", (_name, json, message) => {
    expect(() => parseRegistry(json)).toThrow(RegistryError);
    expect(() => parseRegistry(json)).toThrow(message);
  });

  it("names the file when it is not JSON or missing", () => {
    const dir = mkdtempSync(join(tmpdir(), "registry-"));
    const file = join(dir, "practices.json");
    writeFileSync(file, "[{,]");
    expect(() => loadRegistry(file)).toThrow(/practices\.json:\n {2}- is not valid JSON/);
    expect(() => loadRegistry(join(dir, "missing.json"))).toThrow(/missing\.json:\n {2}- cannot be read/);
  });

  it("accepts the committed practice list", () => {
    const registry = loadRegistry("tenants/practices.json");
    expect(registry.practices.length).toBeGreaterThanOrEqual(3);
  });
});
