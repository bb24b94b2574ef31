import type { Catalog } from "../catalog/catalog.js";
import { findProduct } from "../catalog/catalog.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import type { Shop } from "../shop/shop.js";
import { createTopupClient } from "../topup/client.js";
import { providerOrigin } from "../topup/provider-url.js";
import { createSandboxProvider, SANDBOX_MITRA_ID, SANDBOX_SECRET_KEY, type SandboxProvider } from "../topup/sandbox.js";
import type { TopupClient } from "../topup/types.js";

/** The provider orders go to, and the built-in sandbox when it is the one. */
export interface Provider {
  topup: TopupClient;
  /** The built-in provider when TOPUP_BASE_URL is unset (it listens from start()). */
  sandbox: SandboxProvider | undefined;
}

/**
 * The provider of TOPUP_BASE_URL, or, when it is unset, the built-in sandbox: it sells the
 * catalogue's products (and those an admin adds in the chat) at their price, and gets its address
 * when it starts listening; the client follows it from the first order on.
 */
export function createProvider(
  config: Config,
  catalog: Catalog,
  shop: Pick<Shop, "cachedCatalog">,
  logger: Logger,
): Provider {
  if (config.topup !== undefined) {
    // Which provider, for the operator; its path, query and credentials stay out of the log.
    logger.info({ provider: providerOrigin(config.topup.baseUrl) }, "provider configured");
    return { topup: createTopupClient({ ...config.topup, timeoutMs: config.topupTimeoutMs }), sandbox: undefined };
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
  return { topup, sandbox };
}
