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
      constructor(loader?: FileSystemLoader, options?: { autoescape?: boolean });
      renderString(source: string, context: object): string;
      addFilter(name: string, filter: (...args: unknown[]) => unknown): void;
      addExtension(name: string, extension: Extension): void;
      readonly asyncFilters: string[];
      readonly extensionsList: unknown[];
      readonly opts: object;
    }
    /** A custom tag (`{% name … %}`): its parse makes the node its `run` is called for. */
    interface Extension {
      tags: string[];
      parse(parser: Parser, nodes: Nodes, lexer: unknown): unknown;
    }
    interface Parser {
      nextToken(): { value: string };
      parseSignature(tolerant: null, noParens: boolean): unknown;
      advanceAfterBlockEnd(name?: string): void;
      parseUntilBlocks(...names: string[]): unknown;
    }
    interface Nodes {
      CallExtension: new (extension: Extension, method: string, args: unknown, contentArgs: unknown[]) => unknown;
    }
    /** The context a template renders with: `ctx` is the object handed to render. */
    interface Context {
      ctx: Record<string, unknown>;
    }
    class Template {
      constructor(source: TemplateSource, env: Environment, path?: string, eagerCompile?: boolean);
      render(context: object, callback: (err: Error | null, out?: string) => void): void;
    }
    const compiler: {
      /** A template's text as the JavaScript source of a function that makes its props. */
      compile(source: string, asyncFilters: string[], extensions: unknown[], name: string, opts: object): string;
    };
  }
  export default nunjucks;
}
