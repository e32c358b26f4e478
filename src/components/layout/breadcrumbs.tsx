import type { Crumb } from "~/server/site/page-view";

/** The visible trail of a level-2 page (the same trail as its BreadcrumbList JSON-LD). */
export const Breadcrumbs = ({ crumbs }: { crumbs: Crumb[] }) => (
  <nav class="breadcrumbs container" aria-label="Fil d'Ariane">
    <ol>
      {crumbs.map((c, i) =>
        i === crumbs.length - 1 ? (
          <li key={c.path} aria-current="page">
            {c.name}
          </li>
        ) : (
          <li key={c.path}>
            <a href={c.path}>{c.name}</a>
          </li>
        ),
      )}
    </ol>
  </nav>
);
