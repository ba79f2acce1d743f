// Templates paginate over ready-made views in batches: one Eleventy page renders
// many outputs, each opened by a `<!--service:file:…-->` marker, and the build
// driver splits the batch into files (Eleventy's results are taken in memory, so
// the batch itself is never written). Eleventy's cost per page is paid once per
// batch, not once per article. A function permalink: nothing to compile per page.
export default {
  permalink: (data) => `_batch/${data.page.fileSlug}-${data.pagination?.pageNumber ?? 0}.html`,
  eleventyExcludeFromCollections: true,
};
