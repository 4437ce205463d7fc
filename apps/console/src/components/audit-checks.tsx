import type { AuditReport } from '@coffer/contract/ledger';
import { Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { asJson } from '../lib/format';

/** Each ledger check with its verdict; a failing check shows its sample rows. */
export function AuditChecks({ report }: { report: AuditReport }) {
  const { t } = useTranslation();
  return (
    <Table
      size="small"
      rowKey="name"
      pagination={false}
      dataSource={report.checks}
      expandable={{
        rowExpandable: (check) => check.sample.length > 0,
        expandedRowRender: (check) => <pre className="console-json">{asJson(check.sample)}</pre>,
      }}
      columns={[
        { title: t('audit.check'), dataIndex: 'name' },
        {
          title: t('audit.result'),
          dataIndex: 'ok',
          render: (ok: boolean) => <Tag color={ok ? 'green' : 'red'}>{ok ? t('audit.pass') : t('audit.fail')}</Tag>,
        },
        { title: t('audit.violations'), dataIndex: 'violations' },
      ]}
    />
  );
}
