import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReasonModal } from '../../../components/reason-modal';
import { errorText } from '../../../lib/errors';
import { OPEN_WITHDRAWALS_KEY } from '../api/open-withdrawals';
import { type StuckAction, stuckPayoutAction } from '../api/stuck-payout';

/**
 * A broadcast payout's ways out when it is stuck past its limits: cancel its nonce on chain
 * (refunded once that is final) or, when no attempt can be mined any more, fail and refund.
 */
export function StuckActions({ id }: { id: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [action, setAction] = useState<StuckAction | null>(null);
  const run = useMutation({
    mutationFn: ({ act, reason }: { act: StuckAction; reason: string }) => stuckPayoutAction(id, act, { reason }),
    onSuccess: () => {
      message.success(t('withdrawals.done'));
      void queryClient.invalidateQueries({ queryKey: OPEN_WITHDRAWALS_KEY });
      setAction(null);
    },
    onError: (error) => message.error(errorText(error, t('errors.unexpected'))),
  });
  return (
    <Space>
      <Button size="small" onClick={() => setAction('cancel-on-chain')}>
        {t('withdrawals.cancelOnChain')}
      </Button>
      <Button size="small" danger onClick={() => setAction('fail')}>
        {t('withdrawals.failRefund')}
      </Button>
      {action && (
        <ReasonModal
          title={t(action === 'fail' ? 'withdrawals.failRefundTitle' : 'withdrawals.cancelOnChainTitle', { id })}
          okText={t(action === 'fail' ? 'withdrawals.failRefund' : 'withdrawals.cancelOnChain')}
          danger={action === 'fail'}
          busy={run.isPending}
          onSubmit={(reason) => run.mutate({ act: action, reason })}
          onClose={() => setAction(null)}
        />
      )}
    </Space>
  );
}
