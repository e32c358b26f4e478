import { component$ } from "@builder.io/qwik";
import type { PracticeInfo, SiteConfig } from "~/server/backend/schemas";

interface Props {
  config: SiteConfig;
  practice: PracticeInfo;
}

export const SiteFooter = component$<Props>(({ config, practice }) => {
  return (
    <footer class="site-footer">
      <div class="container">
        <p class="footer-name">{config.name}</p>
        <address>
          {practice.address.street}, {practice.address.postal_code} {practice.address.city}
          <br />
          <a href={`tel:${practice.phone.replace(/\s+/g, "")}`}>{practice.phone}</a>
        </address>
        <ul class="legal-links">
          <li>
            <a href="/mentions-legales/">Mentions légales</a>
          </li>
          <li>
            <a href="/politique-confidentialite/">Politique de confidentialité</a>
          </li>
        </ul>
      </div>
    </footer>
  );
});
