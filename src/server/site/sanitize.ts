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

const SAFE_ABSOLUTE = /^(?:https?:|mailto:|tel:)/i;

/**
 * A link target from the backend that is safe to put in an href: relative, or http(s), mailto, tel.
 * Anything else (javascript:, data:, protocol-relative //host) is null and the link is not rendered.
 */
export function safeHref(href: string | null | undefined): string | null {
  if (typeof href !== "string") return null;
  // Browsers ignore leading/trailing spaces and strip tabs and newlines anywhere in a URL.
  const value = href.trim().replace(/[\t\n\r]/g, "");
  if (value === "" || hasControlCharacter(value) || /^[\\/]{2}/.test(value) || /^\/\\/.test(value)) return null;
  if (SAFE_ABSOLUTE.test(value)) return value;
  // Any other scheme ("javascript:", "data:", "JaVaScRiPt:") is refused; a colon after a slash,
  // "?" or "#" is part of a relative path or query, not a scheme.
  if (/^[^/?#]*:/.test(value)) return null;
  return value;
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** An image URL from the backend: absolute http(s) only (media URLs are absolute by contract). */
export function safeMediaUrl(url: string | null | undefined): string | null {
  if (typeof url !== "string") return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : null;
  } catch {
    return null;
  }
}
