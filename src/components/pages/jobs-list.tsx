import type { JobCard } from "~/server/site/page-view";

/** The open positions on the jobs page, each linking to its own page. */
export const JobsList = ({ jobs }: { jobs: JobCard[] }) => (
  <section class="block block-jobs" aria-labelledby="jobs-title">
    <div class="container narrow">
      <h2 id="jobs-title">Nos offres</h2>
      {jobs.length ? (
        <ul class="job-list">
          {jobs.map((job) => (
            <li key={job.slug} class="card card-link job-card">
              <h3>
                <a href={job.href}>{job.title}</a>
              </h3>
              <p class="meta">
                {job.contract} · {job.location}
              </p>
            </li>
          ))}
        </ul>
      ) : (
        <p>Aucune offre n'est ouverte en ce moment. Les candidatures spontanées sont les bienvenues.</p>
      )}
    </div>
  </section>
);
