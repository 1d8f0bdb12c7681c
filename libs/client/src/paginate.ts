/**
 * How to read a list route's pages. The service's lists page in one of two ways:
 * - after an item (`startingAfter`, with `hasMore`): `cursor` gives an item's id, and the next page
 *   starts after the last item of this one;
 * - with a cursor the page gives (the audit log's `after`, from the page's `next`): `next` reads it.
 */
export type PageOf<Page, Item> = {
  /** The page's items, from the envelope's `data`. */
  items: (page: Page) => Item[];
} & (
  | {
      /** The id the next page starts after (the route's `startingAfter`). A page follows while `hasMore` is true (or, for a page without `hasMore`, while pages have items). */
      cursor: (item: Item) => string;
      next?: never;
    }
  | {
      /** The cursor of the page after this one, given by the page; null or undefined on the last. */
      next: (page: Page) => string | null | undefined;
      cursor?: never;
    }
);

function nextCursor<Page, Item>(page: Page, items: Item[], pageOf: PageOf<Page, Item>): string | undefined {
  if (pageOf.next) return pageOf.next(page) ?? undefined;
  if (items.length === 0) return undefined;
  const hasMore = (page as { hasMore?: unknown } | null)?.hasMore;
  return hasMore === false ? undefined : pageOf.cursor(items[items.length - 1]);
}

/**
 * Every item of a paginated list, page after page, each page fetched when the loop reaches it:
 * `fetchPage` is called with no cursor first, then with the cursor of the page before.
 *
 * ```ts
 * for await (const movement of paginate(
 *   (startingAfter) => ledger.getPayoutsByPayoutIdMovements({ path: { payoutId }, query: { startingAfter, limit: 100 } }),
 *   { items: (page) => page.movements, cursor: (movement) => movement.eventId },
 * )) console.log(movement.amount);
 * ```
 */
export async function* paginate<Page, Item>(
  fetchPage: (cursor: string | undefined) => Promise<{ data: Page }>,
  pageOf: PageOf<Page, Item>,
): AsyncGenerator<Item, void, undefined> {
  let cursor: string | undefined;
  do {
    const { data } = await fetchPage(cursor);
    const items = pageOf.items(data);
    yield* items;
    cursor = nextCursor(data, items, pageOf);
  } while (cursor !== undefined);
}
