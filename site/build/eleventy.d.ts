// Eleventy 3 ships no type declarations; we use its constructor and three methods.
declare module '@11ty/eleventy' {
  const Eleventy: unknown;
  export default Eleventy;
}
