// Eleventy 3 ships JSDoc, not declarations: the part we use.
declare module '@11ty/eleventy' {
  /** Eleventy's configuration API, as a config function receives it (`eleventyConfig`). */
  export interface UserConfig {
    addGlobalData(name: string, data: unknown): UserConfig;
    addFilter(name: string, filter: (...args: never[]) => unknown): void;
    addNunjucksFilter(name: string, filter: (...args: never[]) => unknown): void;
    addShortcode(name: string, shortcode: (...args: never[]) => unknown): void;
    addTransform(name: string, transform: (this: { page: { outputPath: string | false } }, content: string) => string | Promise<string>): void;
    addPlugin(plugin: unknown, options?: unknown): unknown;
    addTemplate(virtualPath: string, content: string, data?: object): void;
    setLibrary(name: string, library: unknown): void;
    /** A template language, or (on a built-in key) an override of one: https://www.11ty.dev/docs/languages/custom/ */
    addExtension(key: string, extension: object): void;
    setTemplateFormats(formats: string[]): void;
    setQuietMode(quiet: boolean): void;
    setUseGitIgnore(use: boolean): void;
    on(event: string, handler: (...args: never[]) => unknown): void;
    ignores: Set<string>;
    dir?: unknown;
  }
  export interface JsonPage {
    url: string | false;
    inputPath: string;
    outputPath: string | false;
    content: string;
  }
  export interface EleventyOptions {
    configPath?: string;
    quietMode?: boolean;
    config?: (eleventyConfig: UserConfig) => void | Promise<void>;
  }
  export class Eleventy {
    constructor(input?: string, output?: string, options?: EleventyOptions);
    init(): Promise<void>;
    setIsVerbose(verbose: boolean): void;
    restart(): Promise<void>;
    toJSON(): Promise<JsonPage[]>;
    write(): Promise<unknown>;
  }
  export default Eleventy;
}

declare module '@11ty/eleventy-plugin-rss' {
  const plugin: unknown;
  export default plugin;
  export function dateToRfc822(value: number | Date, timeZone?: string): string;
}
