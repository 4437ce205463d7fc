import { lazy, type ReactNode, Suspense } from 'react';

const ErrorBlock = lazy(() => import('./error-block'));

export interface EmptyStateProps {
  status?: 'empty' | 'default' | 'disconnected' | 'busy';
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  testId?: string;
}

/** An empty list, a missing record or a failed load, with antd's illustration loaded lazily. */
export function EmptyState({ status = 'empty', title, description, children, testId }: EmptyStateProps) {
  return (
    <div className="wallet-empty" data-testid={testId ?? 'empty-state'}>
      <Suspense
        fallback={
          <div className="wallet-empty-fallback">
            <div>{title}</div>
            {description ? <div className="wallet-muted mt-2">{description}</div> : null}
          </div>
        }
      >
        <ErrorBlock status={status} title={title} description={description ?? ''}>
          {children}
        </ErrorBlock>
      </Suspense>
    </div>
  );
}
