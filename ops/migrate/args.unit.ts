import { describe, expect, it } from "vitest";
import { connectOption, intOption, parseArgs, urlArgument, UsageError, type StepSpec } from "./args";

const spec: StepSpec = { name: "x", usage: "x <code> <url>", positionals: ["code", "url"], options: ["connect", "max-pages"], flags: ["restart"] };

describe("parseArgs", () => {
  it("reads positionals, options (spaced or with =) and flags in any order", () => {
    const parsed = parseArgs(spec, ["--restart", "dupont", "--connect=127.0.0.1:8080", "http://a.fr", "--max-pages", "5"]);
    expect(parsed.positional).toEqual({ code: "dupont", url: "http://a.fr" });
    expect(parsed.options).toEqual({ connect: "127.0.0.1:8080", "max-pages": "5" });
    expect([...parsed.flags]).toEqual(["restart"]);
  });

  it("answers --help without checking the rest", () => {
    expect(parseArgs(spec, ["--help"]).help).toBe(true);
  });

  it.each([
    [["dupont"], /expected <code> <url>, got 1 argument/],
    [["dupont", "http://a.fr", "extra"], /got 3 argument/],
    [["dupont", "http://a.fr", "--bogus"], /unknown option --bogus/],
    [["dupont", "http://a.fr", "--connect"], /--connect needs a value/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseArgs(spec, argv)).toThrow(UsageError);
    expect(() => parseArgs(spec, argv)).toThrow(message);
  });
});

describe("option readers", () => {
  const withOptions = (options: Record<string, string>) => ({ help: false, positional: {}, options, flags: new Set<string>() });

  it("takes HOST:PORT for --connect and refuses anything else", () => {
    expect(connectOption(withOptions({ connect: "127.0.0.1:3000" }))).toBe("127.0.0.1:3000");
    expect(connectOption(withOptions({ connect: "[::1]:3000" }))).toBe("[::1]:3000");
    expect(connectOption(withOptions({}))).toBeUndefined();
    for (const bad of ["127.0.0.1", "host:0", "host:99999", "http://host:80"]) {
      expect(() => connectOption(withOptions({ connect: bad })), bad).toThrow(UsageError);
    }
  });

  it("bounds integers", () => {
    expect(intOption(withOptions({ n: "12" }), "n", 5)).toBe(12);
    expect(intOption(withOptions({}), "n", 5)).toBe(5);
    expect(() => intOption(withOptions({ n: "0" }), "n", 5)).toThrow(/from 1 to/);
    expect(() => intOption(withOptions({ n: "2.5" }), "n", 5)).toThrow(UsageError);
  });

  it("takes only absolute http(s) URLs", () => {
    expect(urlArgument("https://www.cabinet-dupont.fr", "site").host).toBe("www.cabinet-dupont.fr");
    expect(() => urlArgument("www.cabinet-dupont.fr", "site")).toThrow(UsageError);
    expect(() => urlArgument("ftp://a.fr", "site")).toThrow(/http or https/);
  });
});
