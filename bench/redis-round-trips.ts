/**
 * Preloaded into the bot process by `npm run bench` only (node --import): counts the round trips
 * to Redis. node-redis pipelines the commands issued within one turn of the event loop into one
 * write batch; a batch is one round trip. On SIGUSR2 the count is printed as a JSON line.
 */
import net from "node:net";

const port = Number(process.env.BENCH_REDIS_PORT ?? 6379);
let trips = 0;
let batchOpen = false;
const write = net.Socket.prototype.write;
net.Socket.prototype.write = function (this: net.Socket, ...args: unknown[]) {
  if (this.remotePort === port && !batchOpen) {
    batchOpen = true;
    trips += 1;
    setImmediate(() => {
      batchOpen = false;
    });
  }
  return (write as (...a: unknown[]) => boolean).apply(this, args);
} as typeof net.Socket.prototype.write;
process.on("SIGUSR2", () => process.stdout.write(`${JSON.stringify({ redisRoundTrips: trips })}\n`));
