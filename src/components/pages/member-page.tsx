import type { PageView } from "~/server/site/page-view";
import { Img } from "~/components/media/img";
import { Breadcrumbs } from "~/components/layout/breadcrumbs";

type MemberView = Extract<PageView, { type: "member" }>;

/** One team member: photo, bio, skills, booking link. */
export const MemberPage = ({ view }: { view: MemberView }) => {
  const { member } = view;
  const teamCrumb = view.breadcrumbs[view.breadcrumbs.length - 2];
  return (
    <article class="page page-member">
      <Breadcrumbs crumbs={view.breadcrumbs} />
      <div class="container member-layout">
        {member.photo && <Img picture={member.photo} sizes="(min-width: 48em) 20rem, calc(100vw - 2rem)" eager class="member-portrait" />}
        <div class="member-text">
          <h1>{member.name}</h1>
          <p class="lead">{member.role}</p>
          {member.bio && <p>{member.bio}</p>}
          {member.skills.length > 0 && (
            <>
              <h2>Domaines de compétence</h2>
              <ul class="chips">
                {member.skills.map((s) => (
                  <li key={s}>{s}</li>
                ))}
              </ul>
            </>
          )}
          <p class="actions">
            {member.bookingUrl && (
              <a class="button button-large" href={member.bookingUrl} rel="noopener">
                Prendre rendez-vous
                <span class="visually-hidden"> avec {member.name}</span>
              </a>
            )}
            {teamCrumb && (
              <a class="text-link" href={teamCrumb.path}>
                ← Toute l'équipe
              </a>
            )}
          </p>
        </div>
      </div>
    </article>
  );
};
