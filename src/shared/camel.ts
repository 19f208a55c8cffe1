// snake_case names and their camelCase spelling, in types and at run time: `location_name` is `locationName`
// (the item fields' table, src/inventory/schemas.ts, names each column once and derives the other spelling).

export type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

export const camel = <S extends string>(s: S): Camel<S> => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as Camel<S>;
