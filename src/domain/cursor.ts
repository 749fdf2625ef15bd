/**
 * Opaque, tamper-evident list cursors: the walk's order, period and position, MACed with a key
 * derived from JWT_SECRET and bound to the client. Clients copy them verbatim; anything altered
 * or foreign is rejected as a 400, never a 500.
 */
import { fromBase64Url, fromUtf8, toBase64Url, utf8 } from '../security/encoding';
import { hmacSha256 } from '../security/secrets';
import type { Order, Position } from './pagination';

export interface CursorState {
  list: string;
  order: Order;
  from: number;
  to: number;
  position: Position;
}

interface Wire {
  l: string;
  o: Order;
  f: number;
  t: number;
  d: Position['direction'];
  k: [number, number];
}

const MAC_BYTES = 16;

async function mac(payload: string, clientId: string, secret: string): Promise<string> {
  const full = await hmacSha256(`cursor:${secret}`, `${clientId}\n${payload}`);
  return toBase64Url(full.subarray(0, MAC_BYTES));
}

export async function encodeCursor(state: CursorState, clientId: string, secret: string): Promise<string> {
  const wire: Wire = {
    l: state.list,
    o: state.order,
    f: state.from,
    t: state.to,
    d: state.position.direction,
    k: [state.position.time, state.position.seq],
  };
  const payload = toBase64Url(utf8(JSON.stringify(wire)));
  return `${payload}.${await mac(payload, clientId, secret)}`;
}

/** The state, or undefined when the cursor is malformed, forged or altered. */
export async function decodeCursor(
  cursor: string,
  clientId: string,
  secret: string,
): Promise<CursorState | undefined> {
  if (cursor.length > 512) return undefined;
  const [payload, tag, extra] = cursor.split('.');
  if (!payload || !tag || extra !== undefined) return undefined;
  const expected = await mac(payload, clientId, secret);
  if (expected.length !== tag.length || !crypto.subtle.timingSafeEqual(utf8(expected), utf8(tag)))
    return undefined;
  const bytes = fromBase64Url(payload);
  if (!bytes) return undefined;
  try {
    const w = JSON.parse(fromUtf8(bytes)) as Wire;
    return {
      list: w.l,
      order: w.o,
      from: w.f,
      to: w.t,
      position: { direction: w.d, time: w.k[0], seq: w.k[1] },
    };
  } catch {
    return undefined;
  }
}
