import { describe, expect, it } from "vitest";
import { checkCallbackTarget, isPublicAddress, type LookupFn } from "../../src/partners/callback-target.js";

/** A name resolving to the given addresses, whatever it is asked. */
const resolvesTo =
  (...addresses: string[]): LookupFn =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

const noSuchHost: LookupFn = async (host) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
};

describe("where a partner's callback may go", () => {
  it("when an address is loopback, private, link-local, CGNAT, unspecified, multicast or reserved, then it is not public; an IPv4-mapped IPv6 address counts as its IPv4", () => {
    const refused = [
      "127.0.0.1",
      "127.255.255.254",
      "10.0.0.1",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "100.127.255.255",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "fe80::1%eth0",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
      "::ffff:169.254.169.254",
      "64:ff9b::10.0.0.1",
      "::127.0.0.1",
    ];
    for (const a of refused) expect([a, isPublicAddress(a)]).toEqual([a, false]);
    const allowed = [
      "8.8.8.8",
      "203.0.113.7",
      "172.32.0.1",
      "100.128.0.1",
      "192.169.0.1",
      "2001:4860:4860::8888",
      "::ffff:8.8.8.8",
      "2606:4700::1111",
    ];
    for (const a of allowed) expect([a, isPublicAddress(a)]).toEqual([a, true]);
  });

  it("when a URL's host is a public address or resolves only to public ones, then it passes with the address to connect to", async () => {
    expect(await checkCallbackTarget("https://8.8.8.8/cb", { allowPrivate: false })).toEqual({
      ok: true,
      address: "8.8.8.8",
      family: 4,
    });
    expect(
      await checkCallbackTarget("https://partner.example/cb", {
        allowPrivate: false,
        lookup: resolvesTo("2001:db8::5", "203.0.113.5"),
      }),
    ).toEqual({ ok: true, address: "2001:db8::5", family: 6 });
    expect(await checkCallbackTarget("http://[2606:4700::1111]:8080/cb", { allowPrivate: false })).toMatchObject({
      ok: true,
      family: 6,
    });
  });

  it("when any address a name resolves to is private, or the host is a private literal, then it is refused unless private addresses are allowed", async () => {
    for (const [url, lookup] of [
      ["http://127.0.0.1:9000/cb", undefined],
      ["http://[::1]/cb", undefined],
      ["http://[::ffff:127.0.0.1]/cb", undefined],
      ["http://0.0.0.0/cb", undefined],
      ["https://partner.example/cb", resolvesTo("203.0.113.5", "192.168.0.10")],
      ["https://partner.example/cb", resolvesTo("::ffff:10.0.0.1")],
      ["https://metadata.example/cb", resolvesTo("169.254.169.254")],
    ] as const) {
      expect(await checkCallbackTarget(url, { allowPrivate: false, lookup })).toEqual({ ok: false, why: "private" });
      expect(await checkCallbackTarget(url, { allowPrivate: true, lookup })).toMatchObject({ ok: true });
    }
  });

  it("when a name resolves to nothing, then it is refused as unresolved, allowed private addresses or not", async () => {
    for (const allowPrivate of [false, true]) {
      expect(await checkCallbackTarget("https://nowhere.example/cb", { allowPrivate, lookup: noSuchHost })).toEqual({
        ok: false,
        why: "unresolved",
      });
      expect(await checkCallbackTarget("https://empty.example/cb", { allowPrivate, lookup: resolvesTo() })).toEqual({
        ok: false,
        why: "unresolved",
      });
    }
  });
});
