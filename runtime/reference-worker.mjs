// Reference worker of the benchmark, served beside the gateway in the same workerd by
// `node scripts/serve.mjs --hello-port <port>`:
//   GET /    hello world: the ceiling of this runtime on this machine;
//   GET /log       hello world plus one JSON log line shaped like the gateway's request line
//                  (src/index.ts): what the per-request log line costs on its own;
//   GET /do-rpc    one Durable Object RPC that touches no storage: the cost of the hop alone;
//   GET /do        one Durable Object RPC that reads one row from SQLite: the floor of any request
//                  that reads a Durable Object, before authentication, routing, validation or logging;
//   GET /do-write  the same RPC inserting one row instead (a durable write): the floor of a request
//                  that changes a Durable Object.
import { DurableObject } from 'cloudflare:workers';

export class Reference extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS t (id TEXT PRIMARY KEY, v TEXT)');
    ctx.storage.sql.exec("INSERT OR REPLACE INTO t VALUES ('a', 'hello')");
  }

  read(id) {
    return this.ctx.storage.sql.exec('SELECT * FROM t WHERE id = ?', id).one();
  }

  ping() {
    return { ok: true };
  }

  write() {
    this.ctx.storage.sql.exec('INSERT INTO t VALUES (?, ?)', crypto.randomUUID(), 'hello');
    return { ok: true };
  }
}

export default {
  async fetch(request, env) {
    if (request.url.endsWith('/do')) return Response.json(await env.REFERENCE.getByName('bench').read('a'));
    if (request.url.endsWith('/do-rpc')) return Response.json(await env.REFERENCE.getByName('bench').ping());
    if (request.url.endsWith('/log')) {
      const started = Date.now();
      console.log(
        JSON.stringify({
          level: 'info',
          message: 'request',
          time: new Date().toISOString(),
          requestId: crypto.randomUUID(),
          method: request.method,
          path: new URL(request.url).pathname,
          status: 200,
          durationMs: Date.now() - started,
        }),
      );
      return new Response('Hello World!');
    }
    if (request.url.endsWith('/do-write'))
      return Response.json(await env.REFERENCE.getByName('bench').write());
    return new Response('Hello World!');
  },
};
