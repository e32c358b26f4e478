/**
 * The contact form's enhancement, in the browser. Loaded by the first submit (the form's onSubmit$),
 * never before: sends the form as JSON to the relay, shows the per-field errors, and announces the
 * result in the form's status region (role="status", aria-live="polite").
 */
import { CONTACT_MESSAGES, type ContactErrors } from "~/lib/contact-fields";

export const CONTACT_ENDPOINT = "/api/contact";

interface RelayAnswer {
  status?: string;
  message?: string;
  error?: string;
  errors?: ContactErrors;
}

/** The JSON body for the relay; `elapsed_ms` is the time since navigation start (page load). */
export function contactPayload(form: HTMLFormElement, elapsedMs: number): Record<string, unknown> {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? "");
  return {
    name: text("name"),
    email: text("email"),
    phone: text("phone").trim() || null,
    message: text("message"),
    consent: data.get("consent") !== null,
    website: text("website"),
    elapsed_ms: Math.max(0, Math.round(elapsedMs)),
    page: text("page") || location.pathname,
  };
}

function clearErrors(form: HTMLFormElement): void {
  for (const el of form.querySelectorAll<HTMLElement>("[aria-invalid]")) {
    el.removeAttribute("aria-invalid");
    el.removeAttribute("aria-describedby");
  }
  for (const el of form.querySelectorAll<HTMLElement>(".field-error")) el.textContent = "";
}

/** Marks each field named in `errors`; returns the messages that belong to no field of the form. */
function showErrors(form: HTMLFormElement, errors: ContactErrors): string[] {
  const unplaced: string[] = [];
  let first: HTMLElement | null = null;
  for (const [field, messages] of Object.entries(errors)) {
    const input = form.querySelector<HTMLElement>(`#contact-${CSS.escape(field)}`);
    const slot = form.querySelector<HTMLElement>(`#contact-${CSS.escape(field)}-error`);
    if (!input || !slot) {
      unplaced.push(...messages);
      continue;
    }
    slot.textContent = messages.join(" ");
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", slot.id);
    first ??= input;
  }
  first?.focus();
  return unplaced;
}

function announce(status: HTMLElement | null, kind: string, text: string): void {
  if (!status) return;
  status.dataset.kind = kind;
  status.textContent = text;
}

export async function submitContact(form: HTMLFormElement): Promise<void> {
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (button?.disabled) return;
  const status = form.querySelector<HTMLElement>("[data-contact-status]");
  const payload = contactPayload(form, performance.now());
  if (button) button.disabled = true;
  announce(status, "sending", CONTACT_MESSAGES.sending);
  try {
    const response = await fetch(CONTACT_ENDPOINT, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(payload),
      credentials: "same-origin",
    });
    const answer = (await response.json().catch(() => ({}))) as RelayAnswer;
    clearErrors(form);
    if (response.ok) {
      form.reset();
      announce(status, "sent", answer.message ?? CONTACT_MESSAGES.sent);
    } else if (answer.errors) {
      const unplaced = showErrors(form, answer.errors);
      announce(status, "invalid", [answer.message ?? CONTACT_MESSAGES.invalid, ...unplaced].join(" "));
    } else {
      announce(status, "refused", answer.error ?? CONTACT_MESSAGES.unavailable);
    }
  } catch {
    announce(status, "refused", CONTACT_MESSAGES.network);
  } finally {
    if (button) button.disabled = false;
  }
}
