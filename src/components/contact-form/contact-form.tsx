import { component$, useStyles$ } from "@builder.io/qwik";
import { useLocation } from "@builder.io/qwik-city";
import {
  CONTACT_LIMITS,
  CONTACT_SENT_ANCHOR,
  CONTACT_MESSAGES,
  EMPTY_CONTACT_VALUES,
  type ContactErrors,
  type ContactValues,
} from "~/lib/contact-fields";
import styles from "./contact-form.css?inline";

interface Props {
  /** The visitor's input, when the page answers a refused submission. */
  values?: ContactValues;
  errors?: ContactErrors;
  /** The result announced in the status region (refused submissions). */
  message?: string;
  kind?: "sent" | "invalid" | "refused";
  /** The page the form belongs to (default: the current one); the no-JS round trip returns there. */
  page?: string;
}

const FIELD_IDS: Record<string, string> = {
  name: "contact-name",
  email: "contact-email",
  phone: "contact-phone",
  message: "contact-message",
  consent: "contact-consent",
};

const LABELS: Record<string, string> = {
  name: "Nom et prénom",
  email: "Adresse e-mail",
  phone: "Téléphone",
  message: "Votre message",
  consent: "Consentement",
};

/**
 * The contact form. Without JavaScript it is a plain form posting to /api/contact (urlencoded); the relay
 * answers with a 303 back to this page's success notice, or with this form again, errors shown and
 * input kept. With JavaScript, submitting loads the enhancement (nothing is loaded before), which sends
 * JSON, measures `elapsed_ms` from page load and announces the result in the status region.
 * The honeypot `website` is off-screen and must stay empty.
 */
export const ContactForm = component$<Props>((props) => {
  useStyles$(styles);
  const loc = useLocation();
  const values = props.values ?? EMPTY_CONTACT_VALUES;
  const errors = props.errors ?? {};
  const page = props.page ?? loc.url.pathname;
  const fieldError = (field: string) => (errors[field]?.length ? errors[field].join(" ") : "");
  const invalid = (field: string) => (errors[field]?.length ? { "aria-invalid": "true" as const, "aria-describedby": `${FIELD_IDS[field]}-error` } : {});
  // A field's kept input (the checkbox: `checked`) and its error attributes, in one spread made by a call:
  // `value={values.name}` beside a spread is written twice by the Qwik optimizer (a getter and a wrapped
  // signal, a duplicate key esbuild warns about), and so is an object literal spread in place.
  const kept = (field: keyof ContactValues) => ({
    ...(field === "consent" ? { checked: values.consent } : { value: values[field] }),
    ...invalid(field),
  });
  const otherErrors = Object.entries(errors).filter(([field]) => !(field in FIELD_IDS));
  const invalidFields = Object.keys(errors).filter((field) => field in FIELD_IDS);

  return (
    <div class="contact">
      <p id={CONTACT_SENT_ANCHOR} class="contact-flash" tabIndex={-1} hidden>
        {CONTACT_MESSAGES.sent}
      </p>
      <form class="contact-form" method="post" action="/api/contact/" preventdefault:submit
        // A dynamic import: the enhancement is its own chunk, fetched by the first submit, never preloaded.
        onSubmit$={async (_, form) => (await import("~/client/contact-submit")).submitContact(form)}
      >
        <div class="contact-status" role="status" aria-live="polite" data-contact-status data-kind={props.kind}>
          {props.message}
          {(invalidFields.length > 0 || otherErrors.length > 0) && (
            <ul class="contact-summary">
              {invalidFields.map((field) => (
                <li key={field}>
                  <a href={`#${FIELD_IDS[field]}`}>{LABELS[field]}</a> : {fieldError(field)}
                </li>
              ))}
              {otherErrors.map(([field, messages]) => (
                <li key={field}>{messages.join(" ")}</li>
              ))}
            </ul>
          )}
        </div>
        <div class="field">
          <label for="contact-name">Nom et prénom</label>
          <input id="contact-name" name="name" type="text" autocomplete="name" required maxLength={CONTACT_LIMITS.name} {...kept("name")} />
          <p class="field-error" id="contact-name-error">{fieldError("name")}</p>
        </div>
        <div class="field">
          <label for="contact-email">Adresse e-mail</label>
          <input id="contact-email" name="email" type="email" autocomplete="email" required maxLength={CONTACT_LIMITS.email} {...kept("email")} />
          <p class="field-error" id="contact-email-error">{fieldError("email")}</p>
        </div>
        <div class="field">
          <label for="contact-phone">Téléphone (facultatif)</label>
          <input id="contact-phone" name="phone" type="tel" autocomplete="tel" maxLength={CONTACT_LIMITS.phone} {...kept("phone")} />
          <p class="field-error" id="contact-phone-error">{fieldError("phone")}</p>
        </div>
        <div class="field">
          <label for="contact-message">Votre message</label>
          <textarea id="contact-message" name="message" rows={6} required maxLength={CONTACT_LIMITS.message} {...kept("message")} />
          <p class="field-error" id="contact-message-error">{fieldError("message")}</p>
        </div>
        <div class="field field-checkbox">
          <input id="contact-consent" name="consent" type="checkbox" value="true" required {...kept("consent")} />
          <label for="contact-consent">J'accepte que mes données soient utilisées pour traiter ma demande.</label>
          <p class="field-error" id="contact-consent-error">{fieldError("consent")}</p>
        </div>
        <div class="honeypot" aria-hidden="true">
          <label for="contact-website">Ne pas remplir ce champ</label>
          <input id="contact-website" name="website" type="text" tabIndex={-1} autocomplete="off" />
        </div>
        {/* Empty without JavaScript (nothing measured it); the enhancement sends the measurement. */}
        <input type="hidden" name="elapsed_ms" value="" />
        <input type="hidden" name="page" value={page} />
        <button type="submit" class="button">
          Envoyer
        </button>
      </form>
    </div>
  );
});
