import type { Origins } from "../storage/origins.js";
import type { Access } from "./access.js";
import { parseCallbackUrl, type IssuedKey, type PartnerStore } from "./partners.js";

/** Where a callback may go: the address it was checked at (the POST connects to it), or why not. */
export type CallbackTarget =
  { ok: true; address: string; family: 4 | 6 } | { ok: false; why: "private" | "unresolved" };

/** What asking for a reseller's key came to. */
export type IssueOutcome =
  | { kind: "issued"; key: IssuedKey }
  /** Only a reseller may have a key: nothing was made. */
  | { kind: "not-reseller" }
  /** The same request again (an update or a page's request handled twice): no second key. */
  | { kind: "repeated" };

/**
 * What setting a reseller's callback came to (`url`: as it is kept). `private`: the name is, or
 * resolves to, a loopback, private, link-local or unspecified address; `unresolved`: it resolves to
 * nothing.
 */
export type CallbackOutcome =
  { kind: "set"; url: string } | { kind: "removed" | "no-key" | "bad-url" | "private" | "unresolved" };

/**
 * A reseller's access to the H2H API as an admin changes it, from the chat (`/apikey`) or the
 * shop app's Resellers page alike: a key made once per request, access off, the callback.
 */
export function createApiKeys(deps: {
  partners: Pick<PartnerStore, "issue" | "issueTest" | "turnOff" | "setCallback" | "get">;
  access: Pick<Access, "buyerOf">;
  origins: Pick<Origins, "fix">;
  now: () => Date;
  /** Where a callback URL leads (callback-target.ts, with the shop's H2H_CALLBACK_ALLOW_PRIVATE). */
  checkTarget: (url: string) => Promise<CallbackTarget>;
}) {
  return {
    /**
     * Creates or rotates a reseller's key (same mitra_id, a new key; access on), once per `origin`
     * (the update or the page's request that asks): the same one again makes no second key.
     */
    async issue(userId: number, origin: string | undefined): Promise<IssueOutcome> {
      if ((await deps.access.buyerOf(userId))?.role !== "reseller") return { kind: "not-reseller" };
      const now = deps.now().getTime();
      if (origin !== undefined && !(await deps.origins.fix(origin, `apikey:${userId}:${now}`)).first)
        return { kind: "repeated" };
      return { kind: "issued", key: await deps.partners.issue(userId, now) };
    },

    /**
     * Creates or rotates a reseller's test key (its orders order nothing), once per `origin` as a
     * key is.
     */
    async issueTest(userId: number, origin: string | undefined): Promise<IssueOutcome> {
      if ((await deps.access.buyerOf(userId))?.role !== "reseller") return { kind: "not-reseller" };
      const now = deps.now().getTime();
      if (origin !== undefined && !(await deps.origins.fix(origin, `apikey-test:${userId}:${now}`)).first)
        return { kind: "repeated" };
      return { kind: "issued", key: await deps.partners.issueTest(userId, now) };
    },

    /** Turns access off; false when the reseller never had a key. */
    turnOff: (userId: number): Promise<boolean> => deps.partners.turnOff(userId),

    /**
     * Sets the callback URL (`test`: the test key's), or removes it (`none`, empty or null). A URL
     * whose host is, or resolves to, an address inside the shop's network is refused (checked again
     * at each send).
     */
    async setCallback(userId: number, typed: string | null, test = false): Promise<CallbackOutcome> {
      const text = typed?.trim() ?? "";
      if (text === "" || text.toLowerCase() === "none")
        return { kind: (await deps.partners.setCallback(userId, undefined, test)) ? "removed" : "no-key" };
      const read = parseCallbackUrl(text);
      if (!read.ok) return { kind: "bad-url" };
      const partner = await deps.partners.get(userId);
      if (partner === undefined || (test && partner.test === undefined)) return { kind: "no-key" };
      const target = await deps.checkTarget(read.url);
      if (!target.ok) return { kind: target.why };
      return (await deps.partners.setCallback(userId, read.url, test))
        ? { kind: "set", url: read.url }
        : { kind: "no-key" };
    },
  };
}

export type ApiKeys = ReturnType<typeof createApiKeys>;
