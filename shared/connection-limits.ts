// How long a connection may take to send its request, and how many may be open at once:
// one client opening sockets that send a header line every 10 s once held every file
// descriptor the process had (20,000), and the server refused everyone until it let go
// (a reviewer's find). What is left below the limit is for the vault's files, git and
// the build process.
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';

/** A request's headers must be in within this (Node's default: 60 s). */
export const HEADERS_TIMEOUT_MS = 20_000;
/** File descriptors kept for everything but connections. */
const RESERVED_FDS = 256;

/** The process's open-file limit (Linux), or null when it cannot be read. */
export function openFileLimit(limits = '/proc/self/limits'): number | null {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(readFileSync(limits, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Connections at once: most of the open-file limit, never all of it. */
export function maxConnectionsFor(fdLimit: number | null): number | null {
  if (fdLimit === null) return null;
  return Math.max(64, Math.floor(fdLimit * 0.8) - RESERVED_FDS);
}

export function limitConnections(server: Server): void {
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  const max = maxConnectionsFor(openFileLimit());
  if (max !== null) server.maxConnections = max;
}
