import type { LookupFn } from "../../src/partners/callback-target.js";

/** The public address every other name resolves to in tests (TEST-NET-3: public, and reaches nothing). */
export const PUBLIC_TEST_ADDRESS = "203.0.113.7";

/**
 * A resolver for tests, so that no test asks the real DNS: `localhost` and `*.local.example` are
 * 127.0.0.1, `*.private.example` is 10.0.0.7, `nowhere.example` and `*.nowhere.example` do not
 * exist, and every other name is PUBLIC_TEST_ADDRESS.
 */
export const testLookup: LookupFn = async (host) => {
  const name = host.toLowerCase();
  if (name === "localhost" || name.endsWith(".local.example")) return [{ address: "127.0.0.1", family: 4 }];
  if (name.endsWith(".private.example")) return [{ address: "10.0.0.7", family: 4 }];
  if (name === "nowhere.example" || name.endsWith(".nowhere.example"))
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return [{ address: PUBLIC_TEST_ADDRESS, family: 4 }];
};
