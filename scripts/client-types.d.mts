/** Where the generated types live, relative to the repository root. */
export declare const GENERATED_TYPES: string;
/** TypeScript declarations (`paths`, `webhooks`, `components`, `operations`) for `document`. */
export declare function clientTypes(document: unknown): Promise<string>;
