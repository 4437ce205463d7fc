import { Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyConfirm } from '../../../components/money-confirm';
import type { OpenWithdrawal } from '../api/open-withdrawals';
import { type StuckAction, useStuckPayoutAction } from '../api/stuck-payout';
import { withdrawalFigures } from './withdrawal-parts';

/**
 * A broadcast payout's ways out when it is stuck past its limits: cancel its nonce on chain
 * (refunded once that is final) or, when no attempt can be mined any more, fail and refund.
 * Both repeat the withdrawal's figures and its transaction before they commit.
 */
export function StuckActions({ w }: { w: OpenWithdrawal }) {
  const id = w.id;
  const { t } = useTranslation();
  const [action, setAction] = useState<StuckAction | null>(null);
  const run = useStuckPayoutAction(id, { success: () => t('withdrawals.done'), done: () => setAction(null) });
  return (
    <Space orientation="vertical" size={4}>
      <Button size="small" onClick={() => setAction('cancel-on-chain')}>
        {t('withdrawals.cancelOnChain')}
      </Button>
      <Button size="small" danger onClick={() => setAction('fail')}>
        {t('withdrawals.failRefund')}
      </Button>
      {action && (
        <MoneyConfirm
          title={t(action === 'fail' ? 'withdrawals.failRefundTitle' : 'withdrawals.cancelOnChainTitle', { id })}
          okText={t(action === 'fail' ? 'withdrawals.confirmFailRefund' : 'withdrawals.confirmCancelOnChain')}
          danger={action === 'fail'}
          figures={[...withdrawalFigures(t, w), { key: 'tx', label: t('money.txHash'), value: w.txHash ?? '—' }]}
          askReason
          busy={run.isPending}
          onConfirm={(reason) => run.mutate({ act: action, reason })}
          onClose={() => setAction(null)}
        />
      )}
    </Space>
  );
}
