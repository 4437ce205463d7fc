import type { TransferResult } from '@coffer/contract/ledger';
import { Button, Result } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useMoneyText } from '../../../components/wallet/amount';

/** After Send: what went to whom, the way to its record, and a new transfer. */
export function TransferSuccess({ result, onAgain }: { result: TransferResult; onAgain: () => void }) {
  const { t } = useTranslation();
  const money = useMoneyText();
  const navigate = useNavigate();
  return (
    <div className="wallet-page" data-testid="transfer-success">
      <Result
        status="success"
        title={t('transfer.sent')}
        description={t('transfer.sentTo', {
          amount: money(result.amount, result.code, 'up'),
          code: result.code,
          name: result.counterparty.nickname || result.counterparty.maskedEmail,
        })}
      />
      <div className="wallet-card">
        <div className="wallet-row">
          <span>{t('bill.fields.id')}</span>
          {/* The journal entry: the same reference as the record, the statement and the CSV (decision 053). */}
          <span data-testid="transfer-result-id">{result.reference}</span>
        </div>
        <div className="wallet-row">
          <span>{t('bill.fields.counterparty')}</span>
          <span>{result.counterparty.maskedEmail}</span>
        </div>
        {result.memo ? (
          <div className="wallet-row">
            <span>{t('bill.fields.memo')}</span>
            <span>{result.memo}</span>
          </div>
        ) : null}
      </div>
      <Button
        block
        color="primary"
        size="large"
        onClick={() => navigate(`/bill/detail?type=transfer&id=${result.id}`)}
        data-testid="transfer-view-bill"
      >
        {t('transfer.viewBill')}
      </Button>
      <Button block size="large" onClick={onAgain} data-testid="transfer-again">
        {t('transfer.again')}
      </Button>
    </div>
  );
}
