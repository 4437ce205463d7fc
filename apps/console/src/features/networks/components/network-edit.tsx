import type { AdminNetwork } from '@coffer/contract/network-admin';
import { Alert, Button, Descriptions, Form, Input, InputNumber, Modal, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AMOUNT_INPUT_MAX, REASON_MAX, amountRule, reasonRules } from '../../../lib/form-rules';
import { useUpdateNetwork } from '../api/update-network';
import {
  changesBody,
  changesOf,
  formValues,
  settingsOf,
  type SettingChange,
  type SettingKind,
  type SettingsForm,
  showSetting,
  templatePattern,
} from '../lib/settings';

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const WEI_RE = /^[1-9]\d{0,77}$/;

/** One setting's input; Form.Item hands it value, onChange and id (the label's target), passed on. */
function SettingInput({ kind, optional, ...field }: { kind: SettingKind; optional?: boolean; [prop: string]: unknown }) {
  const { t } = useTranslation();
  if (kind === 'boolean') return <Switch {...field} />;
  if (kind === 'integer') return <InputNumber {...field} precision={0} style={{ width: '100%' }} />;
  const placeholder = optional ? t('networks.none') : undefined;
  if (kind === 'amount') return <Input {...field} inputMode="decimal" maxLength={AMOUNT_INPUT_MAX} placeholder={placeholder} />;
  return (
    <Input {...field} inputMode={kind === 'wei' || kind === 'rate' ? 'numeric' : 'text'} placeholder={placeholder} spellCheck={false} />
  );
}

/** The settings' fields the network has (settingsOf). */
function SettingsFields({ network }: { network: AdminNetwork }) {
  const { t } = useTranslation();
  const rulesFor = (kind: SettingKind, placeholder = '') => {
    if (kind === 'amount') return [amountRule(t)];
    if (kind === 'address') return [{ pattern: ADDRESS_RE, message: t('networks.badAddress') }];
    if (kind === 'wei') return [{ pattern: WEI_RE, message: t('networks.badWei') }];
    if (kind === 'rate') return [{ pattern: WEI_RE, message: t('networks.badRate') }];
    if (kind === 'url') return [{ pattern: templatePattern(placeholder), message: t('networks.badUrl', { placeholder }) }];
    if (kind === 'integer') return [{ required: true, message: t('validation.required') }];
    return [];
  };
  return (
    <Space wrap size="middle" align="start">
      {settingsOf(network).map((s) => (
        <Form.Item
          key={s.key}
          name={s.key}
          label={s.kind === 'amount' ? `${t(`networks.field.${s.key}`)} (${network.code})` : t(`networks.field.${s.key}`)}
          rules={rulesFor(s.kind, s.placeholder)}
          valuePropName={s.kind === 'boolean' ? 'checked' : 'value'}
          style={{ width: s.kind === 'address' || s.kind === 'url' ? 440 : 200 }}
        >
          <SettingInput kind={s.kind} optional={s.optional} />
        </Form.Item>
      ))}
    </Space>
  );
}

/** The confirm step: every change, before -> after, and the reason, as they will be recorded. */
function ChangeReview({ network, changes, reason }: { network: AdminNetwork; changes: SettingChange[]; reason: string }) {
  const { t } = useTranslation();
  const words = { none: t('networks.none'), on: t('networks.on'), off: t('networks.off') };
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Typography.Text strong>{t('networks.confirmIntro', { count: changes.length })}</Typography.Text>
      <Descriptions bordered size="small" column={1}>
        {changes.map((c) => (
          <Descriptions.Item key={c.key} label={t(`networks.field.${c.key}`)}>
            <span data-testid={`change-${c.key}`}>
              {showSetting(c.kind, c.before, network.code, words)} → <b>{showSetting(c.kind, c.after, network.code, words)}</b>
            </span>
          </Descriptions.Item>
        ))}
        <Descriptions.Item label={t('common.reason')}>
          <span data-testid="change-reason">{reason}</span>
        </Descriptions.Item>
      </Descriptions>
      <Typography.Text type="secondary">{t('networks.effectNote')}</Typography.Text>
    </Space>
  );
}

/**
 * Editing one network in two steps: the form, then a confirm step that repeats every change
 * (before -> after) and the reason; only the changed settings are sent (docs/decisions/041).
 */
export function NetworkEdit({ network, onClose }: { network: AdminNetwork; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SettingsForm & { reason: string }>();
  const [review, setReview] = useState<{ changes: SettingChange[]; reason: string } | null>(null);
  const [nothing, setNothing] = useState(false);
  const save = useUpdateNetwork(network.id, {
    done: onClose,
    success: (data) => (data.changed ? t('common.saved') : t('networks.unchanged')),
  });
  const next = (v: SettingsForm & { reason: string }) => {
    const changes = changesOf(network, v);
    setNothing(changes.length === 0);
    if (changes.length > 0) setReview({ changes, reason: v.reason.trim() });
  };
  const footer = review
    ? [
        <Button key="back" onClick={() => setReview(null)} disabled={save.isPending}>
          {t('networks.back')}
        </Button>,
        <Button
          key="ok"
          type="primary"
          loading={save.isPending}
          onClick={() => save.mutate({ changes: changesBody(review.changes), reason: review.reason })}
        >
          {t('networks.confirmChange')}
        </Button>,
      ]
    : [
        <Button key="cancel" onClick={onClose}>
          {t('common.cancel')}
        </Button>,
        <Button key="next" type="primary" onClick={() => form.submit()}>
          {t('networks.review')}
        </Button>,
      ];
  const title = t('networks.edit', { network: `${network.code} · ${network.name}` });
  return (
    <Modal open width={760} title={title} footer={footer} onCancel={onClose} destroyOnHidden>
      {/* Hidden, not unmounted, while reviewing: "Back" returns to what was typed. */}
      <div style={{ display: review ? 'none' : 'block' }}>
        <Form form={form} layout="vertical" onFinish={next} initialValues={formValues(network)}>
          <SettingsFields network={network} />
          <Form.Item name="reason" label={t('common.reason')} rules={reasonRules(t)}>
            <Input.TextArea rows={2} maxLength={REASON_MAX} />
          </Form.Item>
          {nothing && <Alert type="info" showIcon title={t('networks.nothingChanged')} />}
        </Form>
      </div>
      {review && <ChangeReview network={network} changes={review.changes} reason={review.reason} />}
    </Modal>
  );
}
