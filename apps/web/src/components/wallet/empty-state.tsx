import { type ReactNode, Suspense } from 'react';
import { lazyRetrying } from '../../lib/lazy-retrying';

export interface EmptyStateProps {
  status?: 'empty' | 'default' | 'disconnected' | 'busy';
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  testId?: string;
}

type PlainEmptyProps = Partial<Pick<EmptyStateProps, 'title' | 'description' | 'children'>>;

/** Without its illustration: while it loads, and when it cannot (offline). */
function PlainEmpty({ title, description, children }: PlainEmptyProps) {
  return (
    <div className="wallet-empty-fallback">
      <div>{title}</div>
      {description ? <div className="wallet-muted mt-2">{description}</div> : null}
      {children}
    </div>
  );
}

// The illustration is decoration: a failed fetch shows the notice without it, never an error.
const ErrorBlock = lazyRetrying(() => import('./error-block'), PlainEmpty);

/** An empty list, a missing record or a failed load, with antd's illustration loaded lazily. */
export function EmptyState({ status = 'empty', title, description, children, testId }: EmptyStateProps) {
  return (
    <div className="wallet-empty" data-testid={testId ?? 'empty-state'}>
      <Suspense fallback={<PlainEmpty title={title} description={description} />}>
        <ErrorBlock status={status} title={title} description={description ?? ''}>
          {children}
        </ErrorBlock>
      </Suspense>
    </div>
  );
}
