import '../../../components/wallet/wallet.css';
import '../bill.css';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SegmentedTabs } from '../../../components/wallet/segmented-tabs';
import { useDepositPages } from '../api/get-deposits';
import { useSwaps } from '../api/get-swaps';
import { useTransfers } from '../api/get-transfers';
import { useWithdrawalPages } from '../api/get-withdrawals';
import { DepositRow } from '../components/deposit-row';
import { PagedList } from '../components/paged-list';
import { SwapRow } from '../components/swap-row';
import { TransferRow } from '../components/transfer-row';
import { WithdrawRow } from '../components/withdraw-row';

/** The ?type= values of docs/product.md §2, most used first. */
const BILL_TYPES = ['transfer', 'swap', 'charge', 'withdraw'] as const;
type BillType = (typeof BILL_TYPES)[number];

function isBillType(value: string | null): value is BillType {
  return (BILL_TYPES as readonly (string | null)[]).includes(value);
}

function TransferBills() {
  const { t } = useTranslation();
  return (
    <PagedList
      query={useTransfers()}
      keyOf={(record) => record.id}
      timeOf={(record) => record.createdAt}
      renderItem={(record) => <TransferRow record={record} />}
      emptyTitle={t('bill.empty.transfer')}
      emptyDescription={t('bill.empty.transferHint')}
      testId="bill-transfer"
    />
  );
}

function SwapBills() {
  const { t } = useTranslation();
  return (
    <PagedList
      query={useSwaps()}
      keyOf={(record) => record.id}
      timeOf={(record) => record.createdAt}
      renderItem={(record) => <SwapRow record={record} />}
      emptyTitle={t('bill.empty.swap')}
      emptyDescription={t('bill.empty.swapHint')}
      testId="bill-swap"
    />
  );
}

function ChargeBills() {
  const { t } = useTranslation();
  return (
    <PagedList
      query={useDepositPages()}
      keyOf={(record) => record.id}
      timeOf={(record) => record.createdAt}
      renderItem={(record) => <DepositRow record={record} />}
      emptyTitle={t('bill.empty.charge')}
      emptyDescription={t('bill.empty.chargeHint')}
      testId="bill-charge"
    />
  );
}

function WithdrawBills() {
  const { t } = useTranslation();
  return (
    <PagedList
      query={useWithdrawalPages()}
      keyOf={(record) => record.id}
      timeOf={(record) => record.createdAt}
      renderItem={(record) => <WithdrawRow record={record} />}
      emptyTitle={t('bill.empty.withdraw')}
      emptyDescription={t('bill.empty.withdrawHint')}
      testId="bill-withdraw"
    />
  );
}

/** /bill?type=charge|withdraw|swap|transfer; without a type it opens on transfers. */
export default function BillListPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const raw = params.get('type');
  const type: BillType = isBillType(raw) ? raw : 'transfer';

  return (
    <div className="wallet-page" data-testid={`bill-page-${type}`}>
      <SegmentedTabs<BillType>
        look="capsule"
        className="bill-tabs"
        label={t('bill.tabsLabel')}
        tabs={BILL_TYPES.map((key) => ({ key, title: t(`bill.tabs.${key}`) }))}
        active={type}
        onChange={(key) => setParams({ type: key }, { replace: true })}
      />
      {type === 'transfer' ? <TransferBills /> : null}
      {type === 'swap' ? <SwapBills /> : null}
      {type === 'charge' ? <ChargeBills /> : null}
      {type === 'withdraw' ? <WithdrawBills /> : null}
    </div>
  );
}
