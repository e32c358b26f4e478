import { component$ } from "@builder.io/qwik";
import { routeLoader$, type DocumentHead } from "@builder.io/qwik-city";
import { loadPage } from "~/server/site/site";
import { toDocumentHead } from "~/server/site/head";
import { ContentPage } from "~/components/pages/content-page";
import { MemberPage } from "~/components/pages/member-page";
import { JobPage } from "~/components/pages/job-page";
import { NotFoundPage } from "~/components/pages/not-found";
import { useSite } from "../layout";

/**
 * Every page of a practice, found by its public path: a page of the backend's list, a team member or
 * a job under their parent page, a 301 for a slug asked under the wrong parent, else the 404 page.
 */
export const usePage = routeLoader$((ev) => loadPage(ev));

export default component$(() => {
  const site = useSite().value;
  const { view } = usePage().value;
  if (!view) return <NotFoundPage site={site} />;
  if (view.type === "member") return <MemberPage view={view} />;
  if (view.type === "job") return <JobPage view={view} contactHref={site.contactHref} />;
  return <ContentPage view={view} site={site} />;
});

export const head: DocumentHead = ({ resolveValue }) => toDocumentHead(resolveValue(usePage).head);
