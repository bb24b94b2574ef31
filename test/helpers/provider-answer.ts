import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A provider that answers every request with `body` (HTTP 200): a refusal, say, in its own words. */
export async function listenJson(body: unknown): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The refusal a provider sends when its own deposit with its upstream is empty. */
export const EMPTY_DEPOSIT_REFUSAL = {
  status: 0,
  error_code: "transaction/insufficient-balance",
  error_msg: "Saldo tidak cukup",
};
