import { CONTENT_BODY_MAX, CONTENT_TITLE_MAX } from '@coffer/contract/rules';
import { Col, Form, Input, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { requiredRule } from '../lib/form-rules';

/** The long text under each title: its field prefix ("body" → bodyZh, bodyEn), label key prefix and limits. */
export interface BilingualText {
  /** Field name prefix; the fields are `${name}Zh` and `${name}En`. */
  name: string;
  /** Translation key prefix of the labels (`${label}Zh`, `${label}En`). */
  label: string;
  max: number;
  rows?: number;
  required?: boolean;
}

/** Content bodies: Markdown, up to the contract's CONTENT_BODY_MAX. */
const CONTENT_BODY: BilingualText = { name: 'body', label: 'content.body', max: CONTENT_BODY_MAX, rows: 6 };

const LANGUAGES = ['Zh', 'En'] as const;

/**
 * A title (and, unless `text` is null, a long text under it) in both languages, side by side:
 * every bilingual form of the console (banners, notices, help topics and articles, activities).
 */
export function BilingualFields({ titleMax = CONTENT_TITLE_MAX, text = CONTENT_BODY }: { titleMax?: number; text?: BilingualText | null }) {
  const { t } = useTranslation();
  const textRules = text?.required ? [requiredRule(t)] : [];
  return (
    <Row gutter={16}>
      {LANGUAGES.map((lang) => (
        <Col span={12} key={lang}>
          <Form.Item name={`title${lang}`} label={t(`content.title${lang}`)} rules={[requiredRule(t)]}>
            <Input maxLength={titleMax} />
          </Form.Item>
          {text && (
            <Form.Item name={`${text.name}${lang}`} label={t(`${text.label}${lang}`)} rules={textRules}>
              <Input.TextArea rows={text.rows ?? 6} maxLength={text.max} />
            </Form.Item>
          )}
        </Col>
      ))}
    </Row>
  );
}

/** The help article form: the content body, required. */
export const REQUIRED_BODY: BilingualText = { ...CONTENT_BODY, required: true };
