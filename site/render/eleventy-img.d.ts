// eleventy-img ships no type declarations: the part we use.
declare module '@11ty/eleventy-img' {
  interface ImageStat {
    width: number;
    height: number;
    format: string;
    outputPath: string;
    size: number;
  }
  interface ImageOptions {
    widths: number[];
    formats: string[];
    outputDir: string;
    urlPath: string;
    useCache: boolean;
    concurrency: number;
    filenameFormat: (id: string, src: string, width: number, format: string) => string;
    /** Given to the sharp constructor. */
    sharpOptions: { limitInputPixels: number };
  }
  function Image(src: string | Buffer, options: ImageOptions): Promise<Record<string, ImageStat[] | undefined>>;
  export default Image;
}
