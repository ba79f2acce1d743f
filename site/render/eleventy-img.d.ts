// eleventy-img ships no type declarations: the part we use.
declare module '@11ty/eleventy-img' {
  interface ImageStat {
    width: number;
    height: number;
    format: string;
    size: number;
    /** The copy's bytes: with `dryRun`, nothing is written. */
    buffer: Buffer;
  }
  interface ImageOptions {
    widths: number[];
    formats: string[];
    dryRun: true;
    useCache: boolean;
    concurrency: number;
    /** Given to the sharp constructor. */
    sharpOptions: { limitInputPixels: number; failOn: 'none' | 'truncated' | 'error' | 'warning' };
  }
  function Image(src: string | Buffer, options: ImageOptions): Promise<Record<string, ImageStat[] | undefined>>;
  export default Image;
}
