import type { DayHours } from "~/server/site/site";

/** The week's opening hours; a closed day says so. */
export const HoursTable = ({ hours, class: className }: { hours: DayHours[]; class?: string }) => (
  <table class={["hours-table", className]}>
    <tbody>
      {hours.map((d) => (
        <tr key={d.day} class={d.ranges.length ? undefined : "closed"}>
          <th scope="row">{d.day}</th>
          <td>{d.ranges.length ? d.ranges.map((r) => <span key={r}>{r}</span>) : "Fermé"}</td>
        </tr>
      ))}
    </tbody>
  </table>
);
