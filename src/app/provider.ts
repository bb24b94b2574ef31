import type { Catalog } from "../catalog/catalog.js";
import { findProduct } from "../catalog/catalog.js";
import type { Config, ProviderSettings } from "../config.js";
import type { Logger } from "../logger.js";
import type { Shop } from "../shop/shop.js";
import type { ProviderLine } from "../providers/supply.js";
import { createTopupClient } from "../topup/client.js";
import { providerOrigin } from "../topup/provider-url.js";
import { createSandboxProvider, SANDBOX_MITRA_ID, SANDBOX_SECRET_KEY, type SandboxProvider } from "../topup/sandbox.js";
import type { TopupClient } from "../topup/types.js";

/** The providers orders go to, in preference order, and the built-in sandbox when it is the one. */
export interface Provider {
  lines: ProviderLine[];
  /** The first provider's client (the one a one-provider shop has). */
  topup: TopupClient;
  /** The built-in provider when TOPUP_BASE_URL is unset (it listens from start()). */
  sandbox: SandboxProvider | undefined;
}

const lineOf = (settings: ProviderSettings, client: TopupClient): ProviderLine => ({
  name: settings.name,
  client,
  timeoutMs: settings.timeoutMs,
  failoverCodes: new Set(settings.failoverCodes),
  emptyCodes: new Set(settings.emptyCodes),
  lowBalance: settings.lowBalance,
});

/**
 * The providers of TOPUP_PROVIDERS, each a client of its own address; or, when TOPUP_BASE_URL is
 * unset, the built-in sandbox as the only one: it sells the catalogue's products (and those an
 * admin adds in the chat) at their price, and gets its address when it starts listening; the
 * client follows it from the first order on.
 */
export function createProvider(
  config: Config,
  catalog: Catalog,
  shop: Pick<Shop, "cachedCatalog">,
  logger: Logger,
): Provider {
  if (config.topup !== undefined || config.providers.some((p) => p.baseUrl !== undefined)) {
    const lines = config.providers.map((settings) => {
      // Which provider, for the operator; its path, query and credentials stay out of the log.
      logger.info({ name: settings.name, provider: providerOrigin(settings.baseUrl ?? "") }, "provider configured");
      return lineOf(
        settings,
        createTopupClient({
          baseUrl: settings.baseUrl ?? "",
          mitraId: settings.mitraId,
          secretKey: settings.secretKey,
          timeoutMs: settings.timeoutMs,
        }),
      );
    });
    return { lines, topup: lines[0]!.client, sandbox: undefined };
  }
  const sandbox = createSandboxProvider({
    mitraId: SANDBOX_MITRA_ID,
    secretKey: SANDBOX_SECRET_KEY,
    products: catalog.games.flatMap((g) =>
      g.products.map((p) => ({ code: p.code, name: p.name, priceRp: p.price ?? 10_000 })),
    ),
    lookup: (code) => {
      // Products an admin added in the chat, at their selling price.
      const match = findProduct(shop.cachedCatalog(), code);
      return match === undefined
        ? undefined
        : { code: match.product.code, name: match.product.name, priceRp: match.product.price ?? 10_000 };
    },
  });
  let client: TopupClient | undefined;
  const topup: TopupClient = {
    order: (req) => {
      client ??= createTopupClient({
        baseUrl: sandbox.url,
        mitraId: SANDBOX_MITRA_ID,
        secretKey: SANDBOX_SECRET_KEY,
        timeoutMs: config.topupTimeoutMs,
      });
      return client.order(req);
    },
  };
  const main = config.providers[0]!;
  return { lines: [lineOf(main, topup)], topup, sandbox };
}
