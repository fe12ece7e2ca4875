/**
 * The core's closed sets, in the order this contract documents them.
 */

/**
 * The values of one of the core's enums (a generated GraphQL enum type), listed in the order the
 * contract shows them. The set is the core's: a value the core adds, or one it drops, fails
 * typecheck here until the contract lists it; only the order is the contract's.
 */
export const everyValueOf =
  <T extends string>() =>
  <const L extends readonly T[]>(
    values: L & ([Exclude<T, L[number]>] extends [never] ? unknown : { missing: Exclude<T, L[number]> }),
  ): L =>
    values;
