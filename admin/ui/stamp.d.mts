// Types of admin/ui/stamp.mjs (plain JavaScript, read by `npm start`'s pre-script without tsx).
export declare const DIST: string;
export declare const STAMP: string;
export declare function inputsStamp(): Promise<string>;
export declare function isUpToDate(stamp: string): Promise<boolean>;
export declare function stampReads(file: string): boolean;
