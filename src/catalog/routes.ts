/** One way to sell a product: through this provider, under that provider's own item code. */
export interface Route {
  provider: string;
  code: string;
}

/** A provider's name, as TOPUP_PROVIDERS has it. */
export const PROVIDER_NAME = /^[a-z0-9]{1,20}$/;

/**
 * Where an order of this product goes, in order: its routes, or, without routes, every provider
 * (in the order of TOPUP_PROVIDERS) under the product's own code. A route to a provider that is
 * not in `providerNames` (one removed from the configuration since the catalogue was edited) is
 * left out.
 */
export function routesOf(
  product: { code: string; routes?: ReadonlyArray<Route> },
  providerNames: readonly string[],
): Route[] {
  if (product.routes === undefined) return providerNames.map((provider) => ({ provider, code: product.code }));
  return product.routes.filter((r) => providerNames.includes(r.provider)).map((r) => ({ ...r }));
}

/**
 * What is wrong with one product's routes as the file has them, beyond their shape (which the
 * schema checks): a provider listed twice, or one that is not configured (`providers`; "any":
 * every name is taken, for a catalogue that was checked when it was stored).
 */
export function routeProblems(
  routes: unknown,
  providers: readonly string[] | "any",
): Array<{ index: number; message: string }> {
  if (!Array.isArray(routes)) return [];
  const problems: Array<{ index: number; message: string }> = [];
  const seen = new Set<string>();
  routes.forEach((route: unknown, index) => {
    const raw = typeof route === "object" && route !== null ? (route as { provider?: unknown }).provider : undefined;
    const name = typeof raw === "string" ? raw.trim() : "";
    if (!PROVIDER_NAME.test(name)) return;
    if (seen.has(name))
      problems.push({
        index,
        message: `route ${index + 1} provider ${name} is already an earlier route (each provider once)`,
      });
    else if (providers !== "any" && !providers.includes(name))
      problems.push({
        index,
        message: `route ${index + 1} provider "${name}" is not configured (configured: ${providers.join(", ")})`,
      });
    seen.add(name);
  });
  return problems;
}
