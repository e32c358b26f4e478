/**
 * The one sanitiser of backend HTML (rich_text, FAQ answers, job descriptions). The contract already
 * limits that HTML to a few tags, but a compromised or buggy CMS must not be able to put script on a
 * practice's site: everything outside the allow-list is dropped, links keep only safe schemes.
 */
import sanitizeHtml from "sanitize-html";

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ["p", "h2", "h3", "ul", "ol", "li", "a", "strong", "em", "br"],
  allowedAttributes: { a: ["href"] },
  // Relative links (same site) and these schemes only: no javascript:, data:, vbscript:, file:...
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesAppliedToAttributes: ["href"],
  // "//evil.example" leaves the site while looking relative.
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  // Dropped with their content, not only their tags: nothing of a script, style or embedded document
  // should surface as text on the page.
  nonTextTags: ["script", "style", "textarea", "option", "xmp", "noscript", "iframe", "noembed", "noframes", "template", "title", "svg", "math", "object"],
  parseStyleAttributes: false,
};

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
