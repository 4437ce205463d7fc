import './chain.css';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../lib/clipboard';
import { toastDanger, toastSuccess } from '../../lib/notify';
import { CopyIcon } from './chain-icons';

/** A 44 px button that copies `value` and says so. */
export function CopyButton({ value, label, testId }: { value: string; label: string; testId?: string }) {
  const { t } = useTranslation();
  const onClick = async () => {
    if (await copyText(value)) toastSuccess(t('chain.copied'));
    else toastDanger(t('chain.copyFailed'));
  };
  return (
    <button type="button" className="wallet-icon-button" aria-label={label} onClick={() => void onClick()} data-testid={testId}>
      <CopyIcon />
    </button>
  );
}
