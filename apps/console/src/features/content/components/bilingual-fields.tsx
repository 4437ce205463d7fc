import { Col, Form, Input, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { requiredRule } from '../../../lib/form-rules';

/** Longest title and Markdown body, as the contract allows (content.ts). */
const TITLE_MAX = 100;
const BODY_MAX = 20_000;

/** Title and Markdown body in both languages, side by side. */
export function BilingualFields({ bodyRequired = false }: { bodyRequired?: boolean }) {
  const { t } = useTranslation();
  const bodyRules = bodyRequired ? [requiredRule(t)] : [];
  return (
    <Row gutter={16}>
      <Col span={12}>
        <Form.Item name="titleZh" label={t('content.titleZh')} rules={[requiredRule(t)]}>
          <Input maxLength={TITLE_MAX} />
        </Form.Item>
        <Form.Item name="bodyZh" label={t('content.bodyZh')} rules={bodyRules}>
          <Input.TextArea rows={6} maxLength={BODY_MAX} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name="titleEn" label={t('content.titleEn')} rules={[requiredRule(t)]}>
          <Input maxLength={TITLE_MAX} />
        </Form.Item>
        <Form.Item name="bodyEn" label={t('content.bodyEn')} rules={bodyRules}>
          <Input.TextArea rows={6} maxLength={BODY_MAX} />
        </Form.Item>
      </Col>
    </Row>
  );
}
