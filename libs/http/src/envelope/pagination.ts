/** Page metadata of list answers: `meta.page`, `meta.per_page`, `meta.total_count`, `meta.total_pages`. */
export interface PageMeta {
  page: number;
  per_page: number;
  total_count: number;
  total_pages: number;
}

export function pageMeta(page: number, perPage: number, totalCount: number): PageMeta {
  return {
    page,
    per_page: perPage,
    total_count: totalCount,
    total_pages: totalCount === 0 ? 0 : Math.ceil(totalCount / perPage),
  };
}

/** SQL offset of a 1-indexed page. */
export function pageOffset(page: number, perPage: number): number {
  return (page - 1) * perPage;
}
