import type { MailType } from '@coffer/contract/auth';
import { EMAIL_CODE_RESEND_SECONDS } from '@coffer/contract/rules';
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { toastSuccess } from '../lib/notify';
import { useSendMail } from '../lib/send-mail';
import { useCountdown } from '../lib/use-countdown';

interface Props {
  type: MailType;
  /** Validates the form's e-mail field and returns it, or null when it is not valid. */
  getEmail: () => Promise<string | null>;
  testId?: string;
}

/** Mails a code (sign-up, reset, withdrawal) and counts down before it may be sent again. */
export function SendCodeButton({ type, getEmail, testId = 'send-code' }: Props) {
  const { t } = useTranslation();
  const sendMail = useSendMail();
  const countdown = useCountdown(EMAIL_CODE_RESEND_SECONDS);

  const onClick = async () => {
    const email = await getEmail();
    if (!email) return;
    try {
      await sendMail.mutateAsync({ email, type });
      countdown.start();
      toastSuccess(t('auth.codeSent'));
    } catch {
      // The HTTP layer has already shown the server's message.
    }
  };

  return (
    <Button
      size="small"
      color="primary"
      fill="none"
      data-testid={testId}
      disabled={countdown.running}
      loading={sendMail.isPending}
      onClick={onClick}
    >
      {countdown.running ? t('auth.resendIn', { seconds: countdown.left }) : t('auth.sendCode')}
    </Button>
  );
}
