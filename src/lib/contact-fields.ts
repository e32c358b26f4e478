/**
 * The contact form's fields as both sides see them: the limits the form renders (maxlength) and the
 * relay enforces, and the French messages the relay answers with and the form displays. No server or
 * browser dependency, so the component, the browser enhancement and the relay share it.
 */

export const CONTACT_LIMITS = {
  name: 200,
  email: 254,
  phone: 25,
  message: 5000,
  website: 500,
  page: 500,
} as const;

/** Request bodies above this many bytes are refused (413) before they are read further. */
export const CONTACT_MAX_BODY_BYTES = 16 * 1024;

/** The fields a visitor fills (and sees again, kept, when the submission is refused). */
export interface ContactValues {
  name: string;
  email: string;
  phone: string;
  message: string;
  consent: boolean;
}

export const EMPTY_CONTACT_VALUES: ContactValues = { name: "", email: "", phone: "", message: "", consent: false };

/** Field name -> messages; `non_field_errors` holds what concerns no single field (the backend's key). */
export type ContactErrors = Record<string, string[]>;

/** The id of the success notice the no-JavaScript round trip lands on (`/contact/#contact-envoye`). */
export const CONTACT_SENT_ANCHOR = "contact-envoye";

export const CONTACT_MESSAGES = {
  sent: "Merci, votre message a bien été envoyé. Nous vous répondrons dans les meilleurs délais.",
  invalid: "Votre message n'a pas été envoyé : merci de corriger les champs signalés.",
  crossOrigin: "Envoi refusé : le formulaire ne provient pas de ce site.",
  tooLarge: `Envoi refusé : le message dépasse ${CONTACT_MAX_BODY_BYTES / 1024} Ko.`,
  unsupportedType: "Envoi refusé : format non pris en charge (JSON ou formulaire attendu).",
  rateLimited: (minutes: number) =>
    `Trop d'envois depuis votre connexion. Merci de réessayer dans ${minutes} minute${minutes > 1 ? "s" : ""}.`,
  throttled: "Trop de messages ont été envoyés à ce cabinet ces dernières minutes. Merci de réessayer plus tard.",
  unavailable:
    "Le service de messagerie est momentanément indisponible. Merci de réessayer plus tard ou de nous joindre par téléphone.",
  notAccepting: "Ce cabinet ne reçoit pas de messages en ligne pour le moment.",
  network: "L'envoi n'a pas pu aboutir (connexion interrompue ?). Merci de réessayer.",
  sending: "Envoi en cours…",
} as const;
