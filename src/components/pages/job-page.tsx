import type { PageView } from "~/server/site/page-view";
import { Breadcrumbs } from "~/components/layout/breadcrumbs";

type JobView = Extract<PageView, { type: "job" }>;

const DATE = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/Paris" });

function publishedOn(iso: string): string | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : DATE.format(date);
}

/** One job offer: contract, place, description (sanitised backend HTML), how to apply. */
export const JobPage = ({ view, contactHref }: { view: JobView; contactHref: string | null }) => {
  const { job } = view;
  const published = publishedOn(job.publishedAt);
  const jobsCrumb = view.breadcrumbs[view.breadcrumbs.length - 2];
  return (
    <article class="page page-job">
      <Breadcrumbs crumbs={view.breadcrumbs} />
      <header class="page-header">
        <div class="container narrow">
          <h1>{job.title}</h1>
          <p class="lead">
            {job.contract} · {job.location}
          </p>
          {published && (
            <p class="meta">
              Publiée le <time dateTime={job.publishedAt}>{published}</time>
            </p>
          )}
        </div>
      </header>
      <section class="block">
        <div class="container narrow">
          <div class="prose" dangerouslySetInnerHTML={job.descriptionHtml} />
          <p class="actions">
            {contactHref && (
              <a class="button button-large" href={contactHref}>
                Postuler
              </a>
            )}
            {jobsCrumb && (
              <a class="text-link" href={jobsCrumb.path}>
                ← Toutes les offres
              </a>
            )}
          </p>
        </div>
      </section>
    </article>
  );
};
