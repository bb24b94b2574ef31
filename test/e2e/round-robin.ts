import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RoundRobin {
  /** http://127.0.0.1:PORT, once started. */
  readonly url: string;
  /** The backends' addresses (http://127.0.0.1:PORT), in turn; changeable while running. */
  backends: string[];
  /** Requests answered, by backend (502s of a backend that did not answer included). */
  counts: Map<string, number>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A load balancer for tests, as an operator puts one in front of several bot processes: each
 * request goes to the next backend in turn, whatever it is doing; a backend that does not answer
 * (a killed process) makes the request a 502, which Telegram answers by trying again later. No
 * health checks, no retries: the bots must be right on their own.
 */
export function createRoundRobin(backends: string[]): RoundRobin {
  let next = 0;
  let server: Server | undefined;
  let url = "";
  const counts = new Map<string, number>();
  const rr: RoundRobin = {
    get url() {
      return url;
    },
    backends,
    counts,
    async start() {
      server = createServer((req, res) => {
        const target = new URL(rr.backends[next++ % rr.backends.length]!);
        counts.set(target.origin, (counts.get(target.origin) ?? 0) + 1);
        const forward = request(
          { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        forward.on("error", () => {
          if (res.headersSent) return void res.destroy();
          res.writeHead(502, { "content-type": "text/plain" });
          res.end("bad gateway");
        });
        req.pipe(forward);
      });
      await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async stop() {
      const s = server;
      if (s === undefined) return;
      server = undefined;
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    },
  };
  return rr;
}
