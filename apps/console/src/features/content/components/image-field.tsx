import { IMAGE_URL_MAX, MAX_UPLOAD_BYTES } from '@coffer/contract/rules';
import { App, Button, Form, Input, Space, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '@coffer/api-client/api-error';
import { requiredRule } from '../../../lib/form-rules';
import { uploadImage } from '../api/upload';

/** Largest image the server takes: refused here before sending. */
const MAX_IMAGE_BYTES = MAX_UPLOAD_BYTES;

/** The banner image: an uploaded file (its /uploads/... address fills the field) or an https URL. */
export function ImageField() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const form = Form.useFormInstance();
  const url = Form.useWatch<string | undefined>('imageUrl', form);
  return (
    <Form.Item label={t('content.image')} required>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name="imageUrl" noStyle rules={[requiredRule(t)]}>
            <Input aria-label={t('content.imageUrl')} placeholder="https://… / /uploads/…" maxLength={IMAGE_URL_MAX} />
          </Form.Item>
          <Upload
            accept="image/png,image/jpeg,image/webp"
            showUploadList={false}
            beforeUpload={(file) => {
              if (file.size > MAX_IMAGE_BYTES) {
                message.error(t('content.tooBig'));
                return Upload.LIST_IGNORE;
              }
              return true;
            }}
            customRequest={({ file, onSuccess, onError }) => {
              const blob = file as File;
              uploadImage(blob, blob.name)
                .then((result) => {
                  form.setFieldValue('imageUrl', result.url);
                  void form.validateFields(['imageUrl']);
                  message.success(t('content.uploaded'));
                  onSuccess?.(result);
                })
                .catch((error: unknown) => {
                  message.error(errorText(error, t('errors.unexpected')));
                  onError?.(error as Error);
                });
            }}
          >
            <Button>{t('content.upload')}</Button>
          </Upload>
        </Space.Compact>
        {url && <img className="console-thumb" src={url} alt={t('content.image')} />}
      </Space>
    </Form.Item>
  );
}
