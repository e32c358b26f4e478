import { describe, expect, it } from "vitest";
import { isIndexable } from "./indexing";

describe("isIndexable", () => {
  it("allows indexing only in prod", () => {
    expect(isIndexable({ ENVIRONMENT: "prod" })).toBe(true);
    expect(isIndexable({ ENVIRONMENT: "staging" })).toBe(false);
    expect(isIndexable({ ENVIRONMENT: "dev" })).toBe(false);
  });
});
