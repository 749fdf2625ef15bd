import type { Request, Response } from 'miniflare';

export function isBlockedAddress(address: string): boolean;
export function createOutboundGuard(options?: {
  allowLoopbackLiterals?: boolean;
  lookup?: (host: string) => Promise<{ address: string; family: number }[]>;
  log?: (line: string) => void;
}): (request: Request) => Promise<Response>;
