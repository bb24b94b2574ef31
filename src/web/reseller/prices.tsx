import { Empty, Loaded, Row, Section, useApp, useLoad } from "../ui.js";

/** A reseller's price list: what they may order, at their tier's prices (a resting product says so). */
export function PricesPage() {
  const { api, words } = useApp();
  const { t, rp } = words;
  const [prices, reload] = useLoad(() => api.prices(), []);
  return (
    <Loaded load={prices} retry={reload}>
      {(list) => (
        <>
          <h1>{t("page-prices-title")}</h1>
          <p class="hint">{t("page-resellers-tier", { tier: list.tier })}</p>
          {list.games.length === 0 ? (
            <Empty text={t("page-prices-none")} />
          ) : (
            list.games.map((g) => (
              <Section key={g.name} title={g.name}>
                {g.products.map((p) => (
                  <Row
                    key={p.code}
                    label={<code>{p.code}</code>}
                    hint={p.resting === true ? `${p.name} · ${t("page-product-resting")}` : p.name}
                    value={rp(p.price)}
                    testid={`price-${p.code}`}
                  />
                ))}
              </Section>
            ))
          )}
        </>
      )}
    </Loaded>
  );
}
