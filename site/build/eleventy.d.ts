// Eleventy 3 and its RSS plugin ship no type declarations; we use its constructor and three methods.
declare module '@11ty/eleventy' {
  const Eleventy: unknown;
  export default Eleventy;
}

// Eleventy's own Nunjucks fork (installed under the name `nunjucks`); the part we use.
declare module 'nunjucks' {
  namespace nunjucks {
    class FileSystemLoader {
      constructor(searchPaths: string[]);
    }
    class Environment {
      constructor(loader: FileSystemLoader, options?: { autoescape?: boolean });
      addFilter(name: string, filter: (...args: unknown[]) => unknown): void;
    }
    class Template {
      constructor(source: string, env: Environment, path: string, eagerCompile?: boolean);
      render(context: object, callback: (err: Error | null, out?: string) => void): void;
    }
  }
  export default nunjucks;
}

// Eleventy's RSS plugin: registered whole by the config, one helper used by the filters.
declare module '@11ty/eleventy-plugin-rss' {
  const rss: unknown;
  export default rss;
}
