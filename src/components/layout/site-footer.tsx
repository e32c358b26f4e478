import type { SiteChrome } from "~/server/site/site";
import { HoursTable } from "./hours-table";

/** Footer: address, click-to-call phone, opening hours, access, legal links. */
export const SiteFooter = ({ site }: { site: SiteChrome }) => {
  const p = site.practice;
  return (
    <footer class="site-footer">
      <div class="container footer-grid">
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact" class="footer-title">
            {site.name}
          </h2>
          <address>
            {p.street}
            <br />
            {p.postalCode} {p.city}
          </address>
          <p class="footer-links">
            <a href={p.phoneHref} class="footer-phone">
              <span class="visually-hidden">Téléphone : </span>
              {p.phone}
            </a>
            {p.email && <a href={`mailto:${p.email}`}>{p.email}</a>}
            <a href={p.mapsHref} rel="noopener">
              Itinéraire
            </a>
          </p>
        </section>
        <section aria-labelledby="footer-hours">
          <h2 id="footer-hours" class="footer-title">
            Horaires
          </h2>
          <HoursTable hours={p.hours} />
        </section>
        <section aria-labelledby="footer-access">
          <h2 id="footer-access" class="footer-title">
            Accès
          </h2>
          <dl class="access-list">
            {p.accessInfo && (
              <>
                <dt>Accessibilité</dt>
                <dd>{p.accessInfo}</dd>
              </>
            )}
            {p.transit && (
              <>
                <dt>Transports</dt>
                <dd>{p.transit}</dd>
              </>
            )}
            {p.parking && (
              <>
                <dt>Stationnement</dt>
                <dd>{p.parking}</dd>
              </>
            )}
          </dl>
        </section>
      </div>
      <div class="container footer-bottom">
        <ul class="legal-links">
          {site.legalLinks.map((l) => (
            <li key={l.href}>
              <a href={l.href}>{l.label}</a>
            </li>
          ))}
          {site.contactHref && (
            <li>
              <a href={site.contactHref}>Contact</a>
            </li>
          )}
        </ul>
        <p>
          © {site.name}
        </p>
      </div>
    </footer>
  );
};
