import type { SiteChrome } from "~/server/site/site";

/** This practice's 404 page (status 404), inside its own header and footer. */
export const NotFoundPage = ({ site }: { site: SiteChrome }) => (
  <article class="page page-not-found">
    <header class="page-header">
      <div class="container narrow">
        <h1>Page introuvable</h1>
        <p class="lead">La page demandée n'existe pas ou plus.</p>
      </div>
    </header>
    <section class="block">
      <div class="container narrow">
        <p class="actions">
          <a class="button" href="/">
            Retour à l'accueil
          </a>
          {site.contactHref && (
            <a class="button button-ghost" href={site.contactHref}>
              Nous contacter
            </a>
          )}
        </p>
        <p>
          Pour prendre rendez-vous, appelez le <a href={site.practice.phoneHref}>{site.practice.phone}</a>.
        </p>
      </div>
    </section>
  </article>
);
