import { and, count, desc, eq, lt, notInArray } from 'drizzle-orm';
import type { Executor } from '../../db/types.js';
import { searchHistory, watchlist } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';

export const WATCHLIST_MAX = 100;
export const SEARCH_HISTORY_KEEP = 20;

export async function watchedCodes(db: Executor, userId: number | undefined): Promise<Set<string>> {
  if (userId === undefined) return new Set();
  const rows = await db
    .select({ code: watchlist.code })
    .from(watchlist)
    .where(eq(watchlist.userId, userId))
    .orderBy(desc(watchlist.createdAt));
  return new Set(rows.map((r) => r.code));
}

export async function addToWatchlist(db: Executor, userId: number, code: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select({ n: count() }).from(watchlist).where(eq(watchlist.userId, userId));
    if ((row?.n ?? 0) >= WATCHLIST_MAX) {
      const [exists] = await tx
        .select({ code: watchlist.code })
        .from(watchlist)
        .where(and(eq(watchlist.userId, userId), eq(watchlist.code, code)));
      if (!exists) throw new AppError('WATCHLIST_FULL', { max: WATCHLIST_MAX });
    }
    await tx.insert(watchlist).values({ userId, code }).onConflictDoNothing();
  });
}

export async function removeFromWatchlist(db: Executor, userId: number, code: string): Promise<void> {
  await db.delete(watchlist).where(and(eq(watchlist.userId, userId), eq(watchlist.code, code)));
}

export async function recentSearches(
  db: Executor,
  userId: number,
): Promise<{ query: string; searched_at: string }[]> {
  const rows = await db
    .select()
    .from(searchHistory)
    .where(eq(searchHistory.userId, userId))
    .orderBy(desc(searchHistory.searchedAt))
    .limit(SEARCH_HISTORY_KEEP);
  return rows.map((r) => ({ query: r.query, searched_at: r.searchedAt.toISOString() }));
}

/** Records a search (moving a repeated query to the top) and keeps the newest SEARCH_HISTORY_KEEP. */
export async function recordSearch(db: Executor, clock: Clock, userId: number, query: string): Promise<void> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    await tx
      .insert(searchHistory)
      .values({ userId, query, searchedAt: now })
      .onConflictDoUpdate({ target: [searchHistory.userId, searchHistory.query], set: { searchedAt: now } });
    const keep = await tx
      .select({ query: searchHistory.query })
      .from(searchHistory)
      .where(eq(searchHistory.userId, userId))
      .orderBy(desc(searchHistory.searchedAt))
      .limit(SEARCH_HISTORY_KEEP);
    if (keep.length === SEARCH_HISTORY_KEEP) {
      await tx.delete(searchHistory).where(
        and(
          eq(searchHistory.userId, userId),
          notInArray(
            searchHistory.query,
            keep.map((k) => k.query),
          ),
          lt(searchHistory.searchedAt, now),
        ),
      );
    }
  });
}

export async function clearSearches(db: Executor, userId: number): Promise<void> {
  await db.delete(searchHistory).where(eq(searchHistory.userId, userId));
}
