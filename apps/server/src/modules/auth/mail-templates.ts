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

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const guessAlertCopy: Record<
  Locale,
  {
    subject: Record<MailType, string>;
    body: (purpose: MailType, email: string, max: number) => string[];
  }
> = {
  'zh-CN': {
    subject: { register: 'Coffer：验证码错误次数过多', reset: 'Coffer：验证码错误次数过多', withdraw: 'Coffer：验证码错误次数过多' },
    body: (purpose, email, max) => {
      const kind = { register: '注册验证码', reset: '重置密码验证码', withdraw: '提现验证码' }[purpose];
      const advice = {
        register: '如果您没有注册 Coffer，可以忽略此邮件。',
        reset: '您的密码没有被修改。',
        withdraw: '能申请提现验证码的人已登录您的账户：请立即重置密码，这会让所有登录失效。',
      }[purpose];
      return [
        `24 小时内有人为 ${email} 输入了 ${max} 次错误的${kind}。为保护您的账户，Coffer 在最长 24 小时内不再接受该邮箱的${kind}。`,
        `如果是您本人，请稍后再重新获取验证码。如果不是您本人，对方没有成功：这些验证码都被拒绝了。${advice}`,
      ];
    },
  },
  'en-US': {
    subject: {
      register: 'Coffer: too many wrong codes for your e-mail address',
      reset: 'Coffer: too many wrong codes for your account',
      withdraw: 'Coffer: too many wrong codes for your account',
    },
    body: (purpose, email, max) => {
      const kind = { register: 'sign-up', reset: 'password reset', withdraw: 'withdrawal' }[purpose];
      const advice = {
        register: 'If you did not try to sign up for Coffer, you can ignore this e-mail.',
        reset: 'Your password has not been changed.',
        withdraw:
          'Whoever asked for withdrawal codes is signed in to your account: reset your password now, which signs out every session.',
      }[purpose];
      return [
        `Someone entered ${max} wrong ${kind} codes for ${email} within 24 hours. To protect you, Coffer does not accept ${kind} codes for this address for up to 24 hours.`,
        `If this was you, ask for a new code later. If it was not, they did not get in: every one of those codes was refused. ${advice}`,
      ];
    },
  },
};

/** Tells the owner that wrong codes for `purpose` reached the cap (sent once per window). */
export function codeGuessAlertMail(locale: Locale, purpose: MailType, email: string, max: number): CodeMail {
  const c = guessAlertCopy[locale];
  const paragraphs = c.body(purpose, email, max);
  return {
    subject: c.subject[purpose],
    text: `${paragraphs.join('\n\n')}\n`,
    html: `<!doctype html><html lang="${locale}"><body style="font-family:sans-serif;line-height:1.5">
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
</body></html>`,
  };
}
