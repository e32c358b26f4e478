import { component$ } from "@builder.io/qwik";

/**
 * The contact form, rendered on the contact page. It works without JavaScript (a plain POST to
 * /api/contact); the honeypot field `website` is hidden off-screen and must stay empty.
 */
export const ContactForm = component$(() => {
  return (
    <form class="contact-form" method="post" action="/api/contact">
      <div class="field">
        <label for="contact-name">Nom et prénom</label>
        <input id="contact-name" name="name" type="text" autocomplete="name" required maxLength={120} />
      </div>
      <div class="field">
        <label for="contact-email">Adresse e-mail</label>
        <input id="contact-email" name="email" type="email" autocomplete="email" required maxLength={254} />
      </div>
      <div class="field">
        <label for="contact-phone">Téléphone (facultatif)</label>
        <input id="contact-phone" name="phone" type="tel" autocomplete="tel" maxLength={30} />
      </div>
      <div class="field">
        <label for="contact-message">Votre message</label>
        <textarea id="contact-message" name="message" rows={6} required maxLength={5000} />
      </div>
      <div class="field field-checkbox">
        <input id="contact-consent" name="consent" type="checkbox" value="true" required />
        <label for="contact-consent">J'accepte que mes données soient utilisées pour traiter ma demande.</label>
      </div>
      <div class="honeypot" aria-hidden="true">
        <label for="contact-website">Ne pas remplir ce champ</label>
        <input id="contact-website" name="website" type="text" tabIndex={-1} autocomplete="off" />
      </div>
      <input type="hidden" name="elapsed_ms" value="0" />
      <button type="submit" class="button">
        Envoyer
      </button>
    </form>
  );
});
