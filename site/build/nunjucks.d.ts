// Nunjucks (Eleventy's maintained fork, installed under the name `nunjucks`) ships no type
// declarations: the part we use.
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
