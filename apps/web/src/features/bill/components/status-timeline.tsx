import { Steps } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { confirmationsText } from '../../../components/wallet/chain-status';
import { formatDateTime } from '../../../lib/wallet/format';
import type { TimelineStep } from '../utils/timeline';

/** A record's way from submitted (or detected) to its end, as a vertical step list. */
export function StatusTimeline({
  steps,
  confirmations,
  confirmationsRequired,
}: {
  steps: readonly TimelineStep[];
  confirmations: number;
  confirmationsRequired: number;
}) {
  const { t } = useTranslation();
  const current = Math.max(
    0,
    steps.findIndex((step) => step.state === 'process' || step.state === 'error'),
  );
  return (
    <section className="wallet-card chain-timeline" aria-labelledby="status-timeline-title" data-testid="status-timeline">
      <h2 id="status-timeline-title" className="wallet-card-title">
        {t('chain.timeline')}
      </h2>
      <Steps direction="vertical" current={current} style={{ '--title-font-size': '14px', '--description-font-size': '12px' }}>
        {steps.map((step) => (
          <Steps.Step
            key={step.key}
            status={step.state}
            title={t(`chain.steps.${step.key}`)}
            description={
              [
                step.confirmations && step.state !== 'wait'
                  ? t('chain.confirmationsProgress', { progress: confirmationsText(confirmations, confirmationsRequired) })
                  : null,
                step.time ? formatDateTime(step.time) : null,
              ]
                .filter(Boolean)
                .join(' · ') || undefined
            }
            data-testid={`timeline-${step.key}`}
            data-state={step.state}
          />
        ))}
      </Steps>
    </section>
  );
}
