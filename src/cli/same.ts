/**
 * True when A and B are the same type. The commands repeat a few constants of modules they load only when they run
 * (src/cli/admin.ts says why); `const x: Same<Here, There> = true` beside each copy fails the type check when the
 * copy and its original part.
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
