import type { ReactNode } from 'react';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';

/** A titled list of deposit or withdrawal records: loading, empty, or one card per record, newest first. */
export function RecordsSection<T extends { id: number }>(props: {
  title: string;
  /** the list's test id, and the heading's id prefix */
  name: string;
  items: readonly T[] | undefined;
  isPending: boolean;
  render: (item: T) => ReactNode;
}) {
  const titleId = `${props.name}-title`;
  return (
    <section aria-labelledby={titleId}>
      <h2 id={titleId} className="funds-heading">
        {props.title}
      </h2>
      {props.isPending ? (
        <PageLoading />
      ) : (props.items?.length ?? 0) === 0 ? (
        <EmptyState />
      ) : (
        <ol className="funds-list" data-testid={props.name}>
          {props.items?.map(props.render)}
        </ol>
      )}
    </section>
  );
}
