import { headingId, type BlockOf } from "./types";

export const PriceListBlock = ({ block }: { block: BlockOf<"price_list"> }) => (
  <section class="block block-price-list" aria-labelledby={block.heading ? headingId(block.id) : undefined}>
    <div class="container narrow">
      {block.heading && <h2 id={headingId(block.id)}>{block.heading}</h2>}
      <table class="price-table">
        <thead class="visually-hidden">
          <tr>
            <th scope="col">Acte</th>
            <th scope="col">Tarif</th>
          </tr>
        </thead>
        <tbody>
          {block.items.map((item, i) => (
            <tr key={i}>
              <th scope="row">
                {item.label}
                {item.note && <span class="price-note">{item.note}</span>}
              </th>
              <td>{item.price}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  </section>
);
