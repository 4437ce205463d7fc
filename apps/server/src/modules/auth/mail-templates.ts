import type { Locale, MailType } from '@coffer/contract';
import { CODE_TTL_MS } from './email-codes.ts';

export interface CodeMail {
  subject: string;
  text: string;
  html: string;
}

const minutes = CODE_TTL_MS / 60_000;

const copy: Record<Locale, { subject: Record<MailType, string>; intro: Record<MailType, string>; outro: string }> = {
  'zh-CN': {
    subject: { register: 'Coffer 注册验证码', reset: 'Coffer 重置密码验证码', withdraw: 'Coffer 提现验证码' },
    intro: {
      register: '您正在注册 Coffer 账户，验证码为：',
      reset: '您正在重置 Coffer 账户的登录密码，验证码为：',
      withdraw: '您正在申请从 Coffer 账户提现，验证码为：',
    },
    outro: `验证码 ${minutes} 分钟内有效，仅可使用一次。请勿将验证码告诉任何人，Coffer 工作人员不会向您索要。如非本人操作，请忽略此邮件。`,
  },
  'en-US': {
    subject: {
      register: 'Your Coffer sign-up code',
      reset: 'Your Coffer password reset code',
      withdraw: 'Your Coffer withdrawal code',
    },
    intro: {
      register: 'You are creating a Coffer account. Your verification code is:',
      reset: 'You are resetting the password of your Coffer account. Your verification code is:',
      withdraw: 'You are withdrawing from your Coffer account. Your verification code is:',
    },
    outro: `The code is valid for ${minutes} minutes and works once. Never share it: Coffer staff will never ask for it. If this was not you, ignore this e-mail.`,
  },
};

/** The code sits on a line of its own so it is easy to read, copy and find in tests. */
export function codeMail(locale: Locale, purpose: MailType, code: string): CodeMail {
  const c = copy[locale];
  const intro = c.intro[purpose];
  return {
    subject: c.subject[purpose],
    text: `${intro}\n\n${code}\n\n${c.outro}\n`,
    // Only constants and digits go in here, so nothing needs escaping.
    html: `<!doctype html><html lang="${locale}"><body style="font-family:sans-serif;line-height:1.5">
<p>${intro}</p>
<p style="font-size:28px;font-weight:bold;letter-spacing:6px">${code}</p>
<p style="color:#666">${c.outro}</p>
</body></html>`,
  };
}
