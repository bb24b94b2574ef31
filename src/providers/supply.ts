import { findProduct, routesOf, type Catalog, type Route } from "../catalog/catalog.js";
import type { Logger } from "../logger.js";
import { MAIN_PROVIDER, type TopupClient, type TopupFailed, type TopupResult } from "../topup/types.js";
import type { Health, HealthChange, Resting } from "./resting.js";

/** One provider as the orders see it: its client and the codes that decide failover and rest. */
export interface ProviderLine {
  name: string;
  client: TopupClient;
  /** The whole call's time limit; an attempt is stale only after its start plus this. */
  timeoutMs: number;
  /** The error codes that mean nothing was ordered there: the next route may be tried. */
  failoverCodes: ReadonlySet<string>;
  /** The error codes that mean the shop's own deposit with it is empty. */
  emptyCodes: ReadonlySet<string>;
  /** Its balance below this after a sale alerts the admins (once per crossing). */
  lowBalance?: number | undefined;
}

/** A route chosen for an attempt: its place among the product's routes. */
export interface ChosenRoute extends Route {
  index: number;
  /** Nothing to write after a known answer (the provider has missed nothing lately). */
  clean: boolean;
}

/**
 * The providers an order may go to, in preference order, and which of them rest. One provider
 * never rests (nothing else could sell its products), so a one-provider shop reads nothing extra.
 */
export interface Supply {
  readonly names: readonly string[];
  /** Only one provider: nothing rests. */
  readonly single: boolean;
  /**
   * Whether an order may go to its first route without reading it or asking which provider rests:
   * no product names routes, main comes first, and main either cannot rest or this process found it
   * healthy within the last second (so a healthy shop of several providers asks about once a second,
   * not once an order). The route is then main, under the product's own code.
   */
  quickFirst(): boolean;
  line(provider: string): ProviderLine | undefined;
  /** A product's routes (by its code in the catalogue now), every provider in order when it names none. */
  routes(productCode: string): Route[];
  /**
   * The first of `routes` from `from` on that may take an order now (a resting one's trial slot is
   * taken for this order). Undefined: every one of them rests.
   */
  choose(routes: readonly Route[], from: number): Promise<ChosenRoute | undefined>;
  /** Frees the trial slot a chosen route took when the order was not sent after all. */
  release(route: ChosenRoute): Promise<void>;
  /** Whether this refusal means nothing was ordered at that provider, so the next route may be tried. */
  failsOver(provider: string, answer: TopupFailed): boolean;
  /** Whether this refusal says the shop's deposit with that provider is empty. */
  isEmpty(provider: string, answer: TopupResult): boolean;
  /** Records what an answer taught of its provider; the admins hear when it starts resting or is back. */
  observe(route: ChosenRoute, answer: TopupResult): Promise<void>;
  /** Product codes (upper case) whose every route rests now: temporarily unavailable. */
  unavailable(catalog: Catalog): Promise<Set<string>>;
}

/** What a provider's answer says of its health (a call never sent counts as not known). */
export function healthOf(answer: TopupResult, emptyCodes: ReadonlySet<string>): Health {
  if (answer.kind === "success") return "known";
  if (answer.kind === "unknown") return "unknown";
  if (answer.reason === "not-sent") return "unknown";
  return answer.errorCode !== undefined && emptyCodes.has(answer.errorCode) ? "empty" : "known";
}

/** How long main, found healthy, is taken to be so without asking again (in this process). */
const QUICK_WINDOW_MS = 1_000;

/** How long a trial order holds its provider's slot: its call's time and a margin. */
const TRIAL_MARGIN_MS = 5_000;

/**
 * The supply of a shop: its providers (in TOPUP_PROVIDERS order), the catalogue's routes, and the
 * shared record of which provider rests. A change of health is told through `tell`, never thrown.
 */
export function createSupply(deps: {
  lines: readonly ProviderLine[];
  resting: Resting;
  catalog: () => Catalog;
  tell: (change: HealthChange) => Promise<void>;
  logger: Logger;
  now?: () => Date;
}): Supply {
  const { lines, resting, logger } = deps;
  const byName = new Map(lines.map((l) => [l.name, l]));
  const names = lines.map((l) => l.name);
  const single = names.length === 1;

  // Which providers may rest, per catalogue: every product sold through it has a route elsewhere.
  const restable = new WeakMap<Catalog, ReadonlySet<string>>();
  function mayRest(provider: string): boolean {
    if (single) return false;
    const catalog = deps.catalog();
    let can = restable.get(catalog);
    if (can === undefined) {
      const alone = new Set<string>();
      for (const game of catalog.games)
        for (const product of game.products) {
          if (product.disabled) continue;
          const sellers = new Set(routesOf(product, names).map((r) => r.provider));
          if (sellers.size === 1) for (const p of sellers) alone.add(p);
        }
      can = new Set(names.filter((n) => !alone.has(n)));
      restable.set(catalog, can);
    }
    return can.has(provider);
  }

  // When this process last found main healthy (chosen first, nothing missed): quickFirst's window.
  const now = deps.now ?? (() => new Date());
  let mainHealthyAt = Number.NEGATIVE_INFINITY;
  const noRoutes = new WeakMap<Catalog, boolean>();
  function quickFirst(): boolean {
    if (names[0] !== MAIN_PROVIDER) return false;
    const catalog = deps.catalog();
    let none = noRoutes.get(catalog);
    if (none === undefined) {
      none = catalog.games.every((g) => g.products.every((p) => p.routes === undefined));
      noRoutes.set(catalog, none);
    }
    if (!none) return false;
    if (single || !mayRest(MAIN_PROVIDER)) return true;
    const age = now().getTime() - mainHealthyAt;
    return age >= 0 && age < QUICK_WINDOW_MS;
  }

  const routes = (productCode: string): Route[] => {
    const match = findProduct(deps.catalog(), productCode);
    if (match === undefined) return [{ provider: names[0]!, code: productCode }];
    return routesOf(match.product, names);
  };

  return {
    names,
    single,
    quickFirst,
    line: (provider) => byName.get(provider),
    routes,
    async choose(list, from) {
      const rest = list.slice(from);
      if (rest.length === 0) return undefined;
      // A provider that cannot rest is never resting: no need to ask.
      if (!mayRest(rest[0]!.provider)) return { ...rest[0]!, index: from, clean: true };
      const trialMs = Math.max(...rest.map((r) => byName.get(r.provider)?.timeoutMs ?? 60_000)) + TRIAL_MARGIN_MS;
      const choice = await resting.choose(
        rest.map((r) => r.provider),
        trialMs,
      );
      if (choice === undefined) return undefined;
      const chosen = rest[choice.index]!;
      if (chosen.provider === MAIN_PROVIDER && choice.clean && from + choice.index === 0)
        mainHealthyAt = now().getTime();
      return { ...chosen, index: from + choice.index, clean: choice.clean };
    },
    async release(route) {
      if (route.clean) return;
      await resting.release(route.provider).catch((err: unknown) => {
        logger.warn({ err, provider: route.provider }, "a provider's trial slot was not freed; it frees itself");
      });
    },
    failsOver(provider, answer) {
      if (answer.reason === "not-sent") return true;
      const line = byName.get(provider);
      return answer.errorCode !== undefined && line !== undefined && line.failoverCodes.has(answer.errorCode);
    },
    isEmpty(provider, answer) {
      const line = byName.get(provider);
      return answer.kind === "failed" && line !== undefined && healthOf(answer, line.emptyCodes) === "empty";
    },
    async observe(route, answer) {
      const line = byName.get(route.provider);
      if (line === undefined || single) return;
      const health = healthOf(answer, line.emptyCodes);
      if (health !== "known" && route.provider === MAIN_PROVIDER) mainHealthyAt = Number.NEGATIVE_INFINITY;
      if (health === "known" && route.clean) return;
      const may = mayRest(route.provider);
      if (health !== "known" && !may) return;
      try {
        const change = await resting.observe(route.provider, health, may);
        if (change === undefined) return;
        logger.warn(change, change.kind === "back" ? "provider answers again" : "provider resting");
        await deps.tell(change).catch((err: unknown) => {
          logger.error({ err, provider: route.provider }, "admins not told of a provider's rest");
        });
      } catch (err) {
        // Resting is a help, not a guarantee: the order's own outcome is recorded all the same.
        logger.warn({ err, provider: route.provider }, "a provider's health was not recorded");
      }
    },
    async unavailable(catalog) {
      if (single) return new Set();
      const resting_ = await resting.resting(names);
      if (resting_.size === 0) return new Set();
      const codes = new Set<string>();
      for (const game of catalog.games)
        for (const product of game.products) {
          const r = routesOf(product, names);
          if (r.length > 0 && r.every((x) => resting_.has(x.provider))) codes.add(product.code.toUpperCase());
        }
      return codes;
    },
  };
}
