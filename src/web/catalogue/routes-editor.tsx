import type { CatalogProduct } from "../../server/mini-app/views.js";
import { useApp } from "../ui.js";

type Route = NonNullable<CatalogProduct["routes"]>[number];

/** The most routes a product may have (the catalogue's rule). */
const MAX_ROUTES = 9;

/** The product with these routes, in the file's form: no routes, no field. */
function withRoutes(product: CatalogProduct, routes: Route[] | undefined): CatalogProduct {
  const { routes: _old, ...rest } = product;
  return routes === undefined ? rest : { ...rest, routes };
}

/**
 * A product's routes: the providers it is sold through, in order, each under that provider's own
 * code. Without routes it goes to every provider in the configured order under its own code;
 * "Choose routes" starts from exactly that, so the admin changes what is, not a blank list. Each
 * problem the bot found is shown at its route.
 */
export function RoutesEditor(props: {
  product: CatalogProduct;
  /** The configured providers, in order. */
  providers: string[];
  path: string;
  issues: Record<string, string>;
  change: (update: (product: CatalogProduct) => CatalogProduct) => void;
}) {
  const { t } = useApp().words;
  const { product, providers, path, issues, change } = props;
  const routes = product.routes;
  const set = (next: Route[] | undefined) => change((pr) => withRoutes(pr, next));
  const edit = (i: number, update: Partial<Route>) =>
    change((pr) =>
      withRoutes(
        pr,
        (pr.routes ?? []).map((r, j) => (j === i ? { ...r, ...update } : r)),
      ),
    );
  const testid = (what: string) => `${what}-${product.code}`;
  const listIssue = issues[`${path}.routes`];

  if (routes === undefined)
    return (
      <div class="routes" data-testid={testid("routes")}>
        <span class="routes-all">{t("page-catalogue-routes-all", { providers: providers.join(" › ") })}</span>
        <button
          type="button"
          class="link-button"
          onClick={() => set(providers.map((provider) => ({ provider, code: product.code })))}
          data-testid={testid("routes-choose")}
        >
          {t("page-catalogue-routes-choose")}
        </button>
      </div>
    );

  const unused = providers.filter((p) => !routes.some((r) => r.provider === p));
  return (
    <div class="routes" data-testid={testid("routes")}>
      <span class="field-label">{t("page-catalogue-routes")}</span>
      <ol class="route-list">
        {routes.map((route, i) => {
          const providerIssue = issues[`${path}.routes[${i}].provider`] ?? issues[`${path}.routes[${i}]`];
          const codeIssue = issues[`${path}.routes[${i}].code`];
          // A provider the bot does not know (a file edited elsewhere) stays visible, to be changed.
          const names = providers.includes(route.provider) ? providers : [route.provider, ...providers];
          return (
            <li key={i} class="route" data-testid={testid(`route-${i}`)}>
              <div class="route-row">
                <select
                  class={`field-input ${providerIssue === undefined ? "" : "invalid"}`}
                  aria-label={t("page-catalogue-route-provider", { n: i + 1 })}
                  value={route.provider}
                  onChange={(e) => edit(i, { provider: e.currentTarget.value })}
                  data-testid={testid(`route-${i}-provider`)}
                >
                  {names.map((name) => (
                    <option key={name} value={name} disabled={name !== route.provider && !unused.includes(name)}>
                      {name}
                    </option>
                  ))}
                </select>
                <input
                  class={`field-input ${codeIssue === undefined ? "" : "invalid"}`}
                  type="text"
                  aria-label={t("page-catalogue-route-code", { provider: route.provider })}
                  value={route.code}
                  maxLength={40}
                  onInput={(e) => edit(i, { code: e.currentTarget.value })}
                  data-testid={testid(`route-${i}-code`)}
                />
                <button
                  type="button"
                  class="link-button"
                  disabled={i === 0}
                  aria-label={t("page-catalogue-route-up")}
                  title={t("page-catalogue-route-up")}
                  onClick={() => set(routes.map((r, j) => (j === i - 1 ? routes[i]! : j === i ? routes[i - 1]! : r)))}
                  data-testid={testid(`route-${i}-up`)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  class="link-button destructive"
                  aria-label={t("page-catalogue-route-remove")}
                  title={t("page-catalogue-route-remove")}
                  onClick={() => set(routes.length === 1 ? undefined : routes.filter((_, j) => j !== i))}
                  data-testid={testid(`route-${i}-remove`)}
                >
                  ✕
                </button>
              </div>
              {[providerIssue, codeIssue].map((issue, k) =>
                issue === undefined ? null : (
                  <span key={k} class="field-error" role="alert">
                    {issue}
                  </span>
                ),
              )}
            </li>
          );
        })}
      </ol>
      {listIssue === undefined ? null : (
        <span class="field-error" role="alert">
          {listIssue}
        </span>
      )}
      <div class="route-actions">
        <button
          type="button"
          class="link-button"
          disabled={unused.length === 0 || routes.length >= MAX_ROUTES}
          onClick={() => set([...routes, { provider: unused[0]!, code: product.code }])}
          data-testid={testid("route-add")}
        >
          {t("page-catalogue-route-add")}
        </button>
        <button type="button" class="link-button" onClick={() => set(undefined)} data-testid={testid("routes-all")}>
          {t("page-catalogue-routes-every")}
        </button>
      </div>
    </div>
  );
}
