import { describe, expect, it } from "vitest";
import { unexpectedNoise } from "./demo-twice";

describe("make demo-twice's start-up noise check", () => {
  it("lets the demo's own carousel warning through, in the build's plain text and the server's JSON lines", () => {
    const output = [
      'prepass: rendering',
      '[warn] blocks: unknown block type "carousel" skipped { code: \'dupont\', page: \'technologies\' }',
      '{"level":40,"msg":"[warn] blocks: unknown block type \\"carousel\\" skipped"}',
      'Build up to date',
    ].join("\n");
    expect(unexpectedNoise(output)).toEqual([]);
  });

  it("still fails on any other warning, error or curl noise, including another unknown block type", () => {
    const noisy = [
      '[warn] blocks: unknown block type "slider" skipped',
      '[warn] backend probe: no answer from http://127.0.0.1:4000',
      '[error] blocks: unknown block type "carousel" skipped',
      "curl: (7) Failed to connect",
    ];
    expect(unexpectedNoise(["ok", ...noisy].join("\n"))).toEqual(noisy);
  });
});
