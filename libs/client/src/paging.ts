/**
 * Paged lists as async iterables (README of the package, "Lists"): `for await (const item of
 * list)` reads page after page, as each list pages on the platform — page numbers with a total
 * (`page`, `per_page` → `meta.total_pages`), a cursor (`meta.next_cursor`), or one answer that
 * holds the whole list. Pages are read lazily, one request per page, when the loop needs them;
 * leaving the loop (`break`) reads no further page. Errors reject the loop (`PlatformApiError`).
 */
export class Paginator<T> implements AsyncIterable<T> {
  constructor(private readonly readPages: () => AsyncGenerator<readonly T[], void, undefined>) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.readPages()) yield* page;
  }

  /** The pages themselves (each an array of items), for batch processing. */
  pages(): AsyncIterable<readonly T[]> {
    return { [Symbol.asyncIterator]: () => this.readPages() };
  }

  /** Every item (at most `limit`) in one array. */
  async toArray(limit = Number.POSITIVE_INFINITY): Promise<T[]> {
    const items: T[] = [];
    if (limit <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }
}

/** One page of a page-numbered list: its items and how many pages there are now. */
export interface NumberedPage<T> {
  items: readonly T[];
  totalPages: number;
}

/**
 * Pages 1, 2, … until the last page (`totalPages`, as of the latest answer) or an empty page.
 * Page-numbered lists are newest first, so entries created while the loop runs push older
 * ones onto the next page: an item already yielded (same `idOf`) is not yielded again.
 */
export function numberedPages<T>(
  read: (page: number) => Promise<NumberedPage<T>>,
  idOf: (item: T) => string,
): Paginator<T> {
  return new Paginator(async function* () {
    const seen = new Set<string>();
    for (let page = 1; ; page++) {
      const { items, totalPages } = await read(page);
      const fresh = items.filter((item) => !seen.has(idOf(item)));
      for (const item of fresh) seen.add(idOf(item));
      if (fresh.length > 0) yield fresh;
      if (items.length === 0 || page >= totalPages) return;
    }
  });
}

/** One page of a cursor-paged list: its items and the cursor of the next (null: the last). */
export interface CursorPage<T> {
  items: readonly T[];
  next: string | null;
}

/** Follows `next` from the first page (no cursor) until it is null (keyset pages, stable). */
export function cursorPages<T>(
  read: (cursor: string | undefined) => Promise<CursorPage<T>>,
): Paginator<T> {
  return new Paginator(async function* () {
    let cursor: string | undefined;
    do {
      const { items, next } = await read(cursor);
      if (items.length > 0) yield items;
      if (next !== null && next === cursor) return; // a cursor that does not move ends the list
      cursor = next ?? undefined;
    } while (cursor !== undefined);
  });
}

/** A list the platform answers whole, in one answer (no paging parameters). */
export function singlePage<T>(read: () => Promise<readonly T[]>): Paginator<T> {
  return new Paginator(async function* () {
    const items = await read();
    if (items.length > 0) yield items;
  });
}
