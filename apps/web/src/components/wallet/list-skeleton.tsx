import { Skeleton } from 'antd-mobile';

/** Row placeholders while the first page of a list loads. */
export function ListSkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <div className="wallet-skeleton" data-testid="list-skeleton" aria-busy="true">
      {Array.from({ length: rows }, (_, index) => (
        // Static placeholders: the index is the identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders never reorder
        <div key={index} className="wallet-skeleton-row">
          <Skeleton animated className="wallet-skeleton-avatar" />
          <div className="flex-1">
            <Skeleton.Title animated className="wallet-skeleton-title" />
            <Skeleton.Paragraph animated lineCount={1} />
          </div>
        </div>
      ))}
    </div>
  );
}
