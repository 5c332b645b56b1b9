/** The two lists we use from the `stopword` package (it ships no types; the rest of its API is not used here). */
declare module "stopword" {
  export const pol: readonly string[];
  export const eng: readonly string[];
}
