/**
 * Field validation of a contact submission, with French messages per field. The relay refuses what the
 * backend would refuse anyway, so that a visitor gets the same messages without a round trip; the
 * backend still validates (its 400 is relayed).
 */
import type { ContactSubmission } from "../backend";
import { CONTACT_LIMITS, type ContactErrors, type ContactValues } from "~/lib/contact-fields";
import type { BodyKind } from "./request";

/**
 * Forwarded as `elapsed_ms` when the form was posted without JavaScript: the browser measured nothing
 * and the field is empty. A measurement of 0 would make the backend drop every genuine submission made
 * without JavaScript while its sender sees a success; the honeypot still applies to those.
 */
export const UNMEASURED_ELAPSED_MS = 60_000;

/** Where the no-JS round trip returns when the form did not say which page it was on. */
export const DEFAULT_CONTACT_PAGE = "/contact/";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 .()-]{6,25}$/;

const M = {
  required: "Ce champ est obligatoire.",
  tooLong: (max: number) => `Ce champ ne peut pas dépasser ${max} caractères.`,
  email: "Saisissez une adresse e-mail valide.",
  phone: "Saisissez un numéro de téléphone valide.",
  consent: "Vous devez accepter que vos données soient utilisées pour répondre à votre demande.",
  elapsed: "Valeur invalide.",
  page: "Valeur invalide.",
  text: "Valeur invalide.",
};

export type Validation =
  | { ok: true; submission: ContactSubmission; values: ContactValues; page: string }
  | { ok: false; errors: ContactErrors; values: ContactValues; page: string };

type Raw = Record<string, unknown>;

function text(raw: Raw, field: string): string | undefined | null {
  const value = raw[field];
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : null;
}

/** A same-site path (the page the form was on), or null. */
function sitePath(value: string): string | null {
  const v = value.trim();
  if (!v.startsWith("/") || v.startsWith("//") || v.includes("\\") || /[\s\p{Cc}]/u.test(v)) return null;
  return v.length <= CONTACT_LIMITS.page ? v : null;
}

export function validateContact(raw: Raw, kind: BodyKind): Validation {
  const errors: ContactErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);

  const str = (field: keyof typeof CONTACT_LIMITS, required: boolean): string => {
    const value = text(raw, field);
    if (value === null) {
      add(field, M.text);
      return "";
    }
    const trimmed = (value ?? "").trim();
    if (required && trimmed === "") add(field, M.required);
    else if (trimmed.length > CONTACT_LIMITS[field]) add(field, M.tooLong(CONTACT_LIMITS[field]));
    return trimmed;
  };

  const name = str("name", true);
  const email = str("email", true);
  if (email && !errors.email && !EMAIL.test(email)) add("email", M.email);
  const phone = str("phone", false);
  if (phone && !errors.phone && !PHONE.test(phone)) add("phone", M.phone);
  const message = str("message", true);

  // JSON carries a boolean; a checked checkbox posts its value ("true" here, "on" by default).
  const consentRaw = raw.consent;
  const consent = consentRaw === true || (kind === "form" && (consentRaw === "true" || consentRaw === "on"));
  if (!consent) add("consent", M.consent);

  // The honeypot is forwarded as it came: the backend drops the submission and answers as for any other.
  const websiteRaw = text(raw, "website");
  if (websiteRaw === null || (websiteRaw ?? "").length > CONTACT_LIMITS.website) add("website", M.text);
  const website = typeof websiteRaw === "string" ? websiteRaw : "";

  let elapsed: number | null = null;
  const elapsedRaw = raw.elapsed_ms;
  if (kind === "json") {
    if (typeof elapsedRaw === "number" && Number.isSafeInteger(elapsedRaw) && elapsedRaw >= 0) elapsed = elapsedRaw;
    else add("elapsed_ms", elapsedRaw === undefined ? M.required : M.elapsed);
  } else if (elapsedRaw === undefined || elapsedRaw === "") {
    elapsed = UNMEASURED_ELAPSED_MS;
  } else if (typeof elapsedRaw === "string" && /^\d{1,9}$/.test(elapsedRaw)) {
    elapsed = Number(elapsedRaw);
  } else {
    add("elapsed_ms", M.elapsed);
  }

  const pageRaw = text(raw, "page");
  let page = DEFAULT_CONTACT_PAGE;
  if (typeof pageRaw === "string") {
    const p = sitePath(pageRaw);
    if (p) page = p;
    else add("page", M.page);
  } else if (pageRaw === null) {
    add("page", M.page);
  }

  const values: ContactValues = { name, email, phone, message, consent };
  if (Object.keys(errors).length) return { ok: false, errors, values, page };
  return {
    ok: true,
    values,
    page,
    submission: { name, email, phone: phone || null, message, consent: true, website, elapsed_ms: elapsed!, page },
  };
}
