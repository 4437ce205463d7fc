import { Segmented, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { asJson } from '../../../lib/format';

interface Row {
  field: string;
  before: string;
  after: string;
  changed: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A field's value as text, exactly as recorded (amounts stay the strings they are). */
const show = (value: unknown) => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/** Field by field, changed ones first; records that are not objects compare as one value. */
export function diffRows(before: unknown, after: unknown): Row[] {
  if (!isRecord(before) && !isRecord(after)) {
    return [{ field: '—', before: show(before), after: show(after), changed: show(before) !== show(after) }];
  }
  const b = isRecord(before) ? before : {};
  const a = isRecord(after) ? after : {};
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  const rows = fields.map((field) => {
    const was = show(b[field]);
    const now = show(a[field]);
    return { field, before: was, after: now, changed: was !== now };
  });
  return [...rows.filter((r) => r.changed), ...rows.filter((r) => !r.changed)];
}

/** Before/after of one operator action: a field diff, or both records as JSON. */
export function ChangeDiff({ before, after }: { before: unknown; after: unknown }) {
  const { t } = useTranslation();
  const [view, setView] = useState<'diff' | 'json'>('diff');
  return (
    <div>
      <Segmented<'diff' | 'json'>
        value={view}
        onChange={setView}
        options={[
          { value: 'diff', label: t('trail.diff') },
          { value: 'json', label: 'JSON' },
        ]}
      />
      {view === 'diff' ? (
        <Table
          size="small"
          rowKey="field"
          pagination={false}
          dataSource={diffRows(before, after)}
          rowClassName={(r) => (r.changed ? 'console-diff-changed' : '')}
          columns={[
            { title: t('trail.field'), dataIndex: 'field' },
            { title: t('trail.before'), dataIndex: 'before', className: 'console-diff-removed-cell' },
            { title: t('trail.after'), dataIndex: 'after', className: 'console-diff-added-cell' },
          ]}
        />
      ) : (
        <Table
          size="small"
          rowKey="k"
          pagination={false}
          showHeader
          dataSource={[{ k: 1 }]}
          columns={[
            { title: t('trail.before'), key: 'b', render: () => <pre className="console-json">{asJson(before)}</pre> },
            { title: t('trail.after'), key: 'a', render: () => <pre className="console-json">{asJson(after)}</pre> },
          ]}
        />
      )}
    </div>
  );
}
