import { describe, expect, it } from "vitest";
import { skippedPageRow } from "./redirect-map";

describe("skippedPageRow: where a page marked skip still goes", () => {
  const base = { path: "/x/", form: "/x", originalForm: null, listing: false, home: "/", intent: null, member: () => null };
  const member = () => ({ target: "/equipe/nadia-haddad/", confidence: 0.9, by: "member's name" });

  it("a copy of the old home page is the home page; a listing that repeats a blog home page is not", () => {
    expect(skippedPageRow({ ...base, path: "/accueil/", originalForm: "/" })).toMatchObject({ target: "/", by: "a spelling or copy of the old home page" });
    expect(skippedPageRow({ ...base, path: "/category/actualites/", originalForm: "/", listing: true })).toBeNull();
    // The home page's own spelling stays the home page, listing or not.
    expect(skippedPageRow({ ...base, path: "/index.php", form: "/", listing: true })).toMatchObject({ target: "/" });
  });

  it("a notice naming a member is the member's page; a listing whose excerpts name one is dropped", () => {
    expect(skippedPageRow({ ...base, member })).toMatchObject({ target: "/equipe/nadia-haddad/" });
    expect(skippedPageRow({ ...base, path: "/category/actualites/page/2/", listing: true, member })).toBeNull();
  });

  it("an intent its URL states wins over a member's name, and anything else is dropped", () => {
    const intent = { target: "/contact/", confidence: 0.9, by: "intent: booking" };
    expect(skippedPageRow({ ...base, path: "/rdv", intent, member })).toMatchObject({ target: "/contact/", by: "intent: booking (the page is marked skip)" });
    expect(skippedPageRow({ ...base, intent: { target: "/tarifs/", confidence: 0.5, by: "text" } })).toBeNull();
  });
});
