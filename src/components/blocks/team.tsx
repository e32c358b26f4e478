import type { MemberCard } from "~/server/site/blocks";
import { Img } from "~/components/media/img";
import { headingId, type BlockOf } from "./types";

const initials = (name: string) =>
  name
    .replace(/^Dr\.?\s+/i, "")
    .split(/\s+/)
    .map((w) => w[0])
    .join("")
    .slice(0, 2)
    .toUpperCase();

export const MemberTile = ({ member }: { member: MemberCard }) => (
  <li class={["member", member.href && "card-link"]}>
    {member.photo ? (
      <Img picture={member.photo} sizes="(min-width: 40em) 14rem, 45vw" class="member-photo" />
    ) : (
      <span class="member-photo member-initials" aria-hidden="true">
        {initials(member.name)}
      </span>
    )}
    <h3>{member.href ? <a href={member.href}>{member.name}</a> : member.name}</h3>
    <p>{member.role}</p>
  </li>
);

export const TeamBlock = ({ block }: { block: BlockOf<"team"> }) =>
  block.members.length ? (
    <section class="block block-team" aria-labelledby={block.heading ? headingId(block.id) : undefined}>
      <div class="container">
        {block.heading && <h2 id={headingId(block.id)}>{block.heading}</h2>}
        <ul class="member-grid">
          {block.members.map((m) => (
            <MemberTile key={m.slug} member={m} />
          ))}
        </ul>
      </div>
    </section>
  ) : null;
