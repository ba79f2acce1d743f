// `import()` of a package or file, from any of our processes. Code run through V8's code
// cache (scripts/cached-bundle.cjs) is a vm script, whose own import() goes through vm's
// experimental loader (and a load through require() from there cannot import in turn): that
// runner hands over an import() of its own, a plain module's.
const HANDED = Symbol.for('vault-service.import');

export function importModule<T>(specifier: string): Promise<T> {
  const handed = (globalThis as Record<symbol, unknown>)[HANDED] as ((s: string) => Promise<unknown>) | undefined;
  return (handed ? handed(specifier) : import(specifier)) as Promise<T>;
}
