// A note text's identity: what tells an edited note from an untouched one (the model, the
// search index, a restart's check of the last generation, moved-note detection).
import * as crypto from 'node:crypto';

/**
 * The text's SHA-1, hex. One call where Node has it (20.12 and later): no Hash object per
 * note, a fifth of the time cold and half warm; older Nodes take the long way.
 */
export const hashText: (text: string) => string =
  typeof crypto.hash === 'function' ? (text) => crypto.hash('sha1', text, 'hex') : (text) => crypto.createHash('sha1').update(text).digest('hex');

/** A value of `hashText`'s form (40 lowercase hex digits): what a file of the data directory may name as one. */
export const isTextHash = (value: unknown): value is string => typeof value === 'string' && /^[0-9a-f]{40}$/.test(value);
