import { useTranslation } from 'react-i18next';
import { useNow } from '../hooks/use-now';
import { countdownAt, splitDuration } from '../utils/countdown';

/** "Ends in 2d 03:04:05" (or "Starts in …", or "Ended"), ticking each second. */
export function ActivityCountdown({ startsAt, endsAt }: { startsAt: string; endsAt: string }) {
  const { t } = useTranslation();
  const first = countdownAt(startsAt, endsAt, Date.now());
  const now = useNow(first.phase !== 'ended');
  const { phase, seconds } = countdownAt(startsAt, endsAt, now);
  if (phase === 'ended') {
    return (
      <p className="ranking-countdown" data-testid="ranking-countdown">
        {t('ranking.ended')}
      </p>
    );
  }
  const parts = splitDuration(seconds);
  return (
    // A live region every second would flood screen readers: the value is read on demand.
    <p className="ranking-countdown" data-testid="ranking-countdown" data-phase={phase}>
      <span>{t(phase === 'upcoming' ? 'ranking.startsIn' : 'ranking.endsIn')}</span>{' '}
      <time className="ranking-clock" dateTime={`PT${seconds}S`}>
        {parts.days > 0 ? t('ranking.clockDays', { ...parts }) : t('ranking.clock', { ...parts })}
      </time>
    </p>
  );
}
