// Nunjucks (Eleventy's maintained fork, installed under the name `nunjucks`) ships no type
// declarations: the part we use.
declare module 'nunjucks' {
  namespace nunjucks {
    /** A template's text, or its code compiled ahead (the object that code makes). */
    type TemplateSource = string | { type: 'code'; obj: Record<string, unknown> };
    interface LoaderSource {
      src: TemplateSource;
      path: string;
      noCache?: boolean;
    }
    class FileSystemLoader {
      constructor(searchPaths: string[]);
      getSource(name: string): LoaderSource | null;
    }
    class Environment {
      constructor(loader: FileSystemLoader, options?: { autoescape?: boolean });
      addFilter(name: string, filter: (...args: unknown[]) => unknown): void;
      readonly asyncFilters: string[];
      readonly extensionsList: unknown[];
      readonly opts: object;
    }
    class Template {
      constructor(source: TemplateSource, env: Environment, path: string, eagerCompile?: boolean);
      render(context: object, callback: (err: Error | null, out?: string) => void): void;
    }
    const compiler: {
      /** A template's text as the JavaScript source of a function that makes its props. */
      compile(source: string, asyncFilters: string[], extensions: unknown[], name: string, opts: object): string;
    };
  }
  export default nunjucks;
}
