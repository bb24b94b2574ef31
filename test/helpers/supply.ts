import type { Catalog } from "../../src/catalog/catalog.js";
import { DEFAULT_EMPTY_CODES, DEFAULT_FAILOVER_CODES } from "../../src/config-providers.js";
import { createLogger } from "../../src/logger.js";
import { createResting } from "../../src/providers/resting.js";
import { createSupply, type ProviderLine, type Supply } from "../../src/providers/supply.js";
import type { Storage } from "../../src/storage/storage.js";
import type { TopupClient } from "../../src/topup/types.js";

/** A provider line with the default codes: `main` unless named. */
export function lineOf(client: TopupClient, opts: Partial<Omit<ProviderLine, "client">> = {}): ProviderLine {
  return {
    name: "main",
    timeoutMs: 60_000,
    failoverCodes: new Set(DEFAULT_FAILOVER_CODES),
    emptyCodes: new Set(DEFAULT_EMPTY_CODES),
    ...opts,
    client,
  };
}

/**
 * The supply of a shop in a test: one provider (`main`, a shop as before) by default, else the
 * lines given; resting in `storage`; a catalogue without routes unless given.
 */
export function supplyOf(
  lines: TopupClient | readonly ProviderLine[],
  storage: Storage,
  opts: { catalog?: () => Catalog; now?: () => Date } = {},
): Supply {
  return createSupply({
    lines: Array.isArray(lines) ? lines : [lineOf(lines as TopupClient)],
    resting: createResting(storage, opts.now ?? (() => new Date())),
    catalog: opts.catalog ?? (() => ({ games: [] })),
    tell: async () => {},
    logger: createLogger("silent"),
    ...(opts.now === undefined ? {} : { now: opts.now }),
  });
}
